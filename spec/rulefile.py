"""Rulesets as TOML files, and as the same object inline in a JSON document.

A rules file holds every number and every contested reading of a :class:`Ruleset`, one key
each, flat (``sushigo rules --export NAME`` writes one, commented)::

    extends = "official"     # a named ruleset, or another file (a path relative to this one)
    tempura_points = 6       # set only what changes

    [deck]
    squid = 10               # the deck and the hand sizes merge kind by kind

``name`` defaults to the file's stem. A document that records a game (a record, a witness)
names a named ruleset by its name and holds any other ruleset as an object with the same
keys (:func:`rules_value`, :func:`ruleset_from_value`), so it replays where the file is not.

Every problem is one line naming the file (or the document), the key and the fix. This module
checks the file's shape and types; what the numbers may be is the :class:`Ruleset`'s own check.
"""

from __future__ import annotations

import dataclasses
import os
import stat
from collections.abc import Mapping
from typing import Any, assert_never

from sushigo.spec.cards import Card
from sushigo.spec.errors import InputError, NotationError, RulesError
from sushigo.spec.numbers import parse_whole
from sushigo.spec.ruleset import (
    NUMBER_BY_NAME,
    PARAMETER_BY_NAME,
    PARAMETERS,
    RULESETS,
    SETTABLE_BY_NAME,
    NumberParameter,
    Ruleset,
    Shape,
    format_value,
)

FORMAT = "sushigo-ruleset/1"
SUFFIX = ".toml"
SCHEMA = "ruleset"
#: A full export is about 4 kB; a rules file a hundred times that is no rules file.
MAX_FILE_BYTES = 256 * 1024
#: How many files one ``extends`` chain may pass through (a cycle is reported before this).
MAX_EXTENDS = 16

# Shapes of the number keys: how a value is checked and written.
_INT, _LIST, _TRIPLE, _TABLE = "a whole number", "a list of whole numbers", "a list of 3 whole numbers", \
    "a table of player count = cards"
#: The numbers a file lists first (the table and the deal), then the rest in the table's order.
_FIRST = ("rounds", "min_players", "max_players", "hand_sizes", "dummy_hand_size")


def _file_shape(param: NumberParameter) -> str:
    """How a rules file writes the number (the table's shape; a table of fixed length 3 is a triple)."""
    match param.shape:
        case Shape.INTEGER:
            return _INT
        case Shape.HANDS:
            return _TABLE
        case Shape.TABLE:
            return _TRIPLE if param.length == 3 else _LIST
        case Shape.DECK:  # the [deck] table, by kind (:data:`DECK`)
            raise AssertionError("the deck is a table of its own")
        case _:
            assert_never(param.shape)


_FILE_NUMBERS = sorted((n for n in SETTABLE_BY_NAME.values() if n.shape is not Shape.DECK),
                       key=lambda n: (_FIRST.index(n.name) if n.name in _FIRST else len(_FIRST)))
#: Every rule number of a Ruleset: its shape and its one-line meaning, in the file's order. Read
#: from spec.ruleset's table (:data:`~spec.ruleset.NUMBERS` and the player limits), never restated.
NUMBERS: dict[str, tuple[str, str]] = {n.name: (_file_shape(n), n.description) for n in _FILE_NUMBERS}
#: The keys that are not rule values.
META: dict[str, str] = {
    "format": f'the format tag, "{FORMAT}"',
    "name": "the ruleset's name, shown by every command (default: the file's stem)",
    "source": "free text: where this ruleset comes from",
    "extends": "a named ruleset or another rules file (relative to this one) this file starts from",
}
DECK = "deck"
DECK_MEANING = NUMBER_BY_NAME[DECK].description.partition(",")[0]  # without the --rule syntax
_CARDS: dict[str, Card] = {c.label: c for c in Card}
KEYS: tuple[str, ...] = (*META, *NUMBERS, *(p.name for p in PARAMETERS), DECK)


# --------------------------------------------------------------------------- ruleset -> value


def ruleset_dict(rules: Ruleset) -> dict[str, Any]:
    """Every number and reading of ``rules`` as plain JSON/TOML values, in the file's order."""
    out: dict[str, Any] = {"format": FORMAT, "name": rules.name, "source": rules.source}
    for key, (shape, _) in NUMBERS.items():
        value = getattr(rules, key)
        if shape == _TABLE:
            out[key] = {str(n): size for n, size in value}
        elif shape == _INT:
            out[key] = value
        else:
            out[key] = list(value)
    for p in PARAMETERS:
        value = getattr(rules, p.name)
        out[p.name] = value if isinstance(value, bool) else str(value)
    out[DECK] = {card.label: rules.copies(card) for card in Card}
    return out


def _toml_string(text: str) -> str:
    escaped = []
    for ch in text:
        if ch in '"\\':
            escaped.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            escaped.append(f"\\u{ord(ch):04x}")
        else:
            escaped.append(ch)
    return '"' + "".join(escaped) + '"'


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    assert isinstance(value, dict), value
    return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"


def _line(key: str, value: Any, meaning: str) -> str:
    return f"{key} = {_toml_value(value)}  # {meaning}"


def to_toml(rules: Ruleset) -> str:
    """``rules`` as a commented TOML rules file: every number and every reading (a flat file,
    written here: ``tomllib`` reads TOML but the standard library writes none)."""
    data = ruleset_dict(rules)
    lines = [
        f"# Sushi Go! ruleset {rules.name!r} as a rules file ({FORMAT}), written by",
        f"# 'sushigo rules --export {rules.name}'. Every rule number and contested reading is one key.",
        "# Use it with any command: sushigo score --rules FILE.toml ..., sushigo diff official FILE.toml.",
        "# To try a change, keep only what you change and start from a named ruleset:",
        '#     extends = "official"',
        "#     tempura_points = 6",
        "# 'sushigo rules FILE.toml' shows the file beside official with the changes marked.",
        "",
    ]
    for key, meaning in META.items():
        if key != "extends":
            lines.append(_line(key, data[key], meaning))
    lines += ["", "# --- rule numbers ---"]
    lines += [_line(key, data[key], meaning) for key, (_, meaning) in NUMBERS.items()]
    lines += ["", "# --- contested readings (sushigo rules: the texts behind each) ---"]
    for p in PARAMETERS:
        allowed = " | ".join(_toml_value(v if isinstance(v, bool) else str(v)) for v in p.values)
        lines.append(_line(p.name, data[p.name], f"{p.question}: {allowed}"))
    lines += ["", f"[{DECK}]  # {DECK_MEANING} (total {rules.deck_size()})"]
    lines += [f"{label} = {count}" for label, count in data[DECK].items()]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- value -> ruleset


def _near(word: str, choices: Any) -> str:
    import difflib  # only an error line needs it

    near = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {near[0]!r}?" if near else ""


def _is_count(key: object) -> bool:
    """Whether a table's key is a whole number (a player count), by :func:`parse_whole` (a key
    of 5,000 digits or ``"²"`` passed ``str.isdigit`` and then broke ``int``)."""
    try:
        parse_whole(str(key), "")
    except NotationError:
        return False
    return True


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad(where: str, key: str, value: object, want: str) -> RulesError:
    return RulesError(f"{where}: {key} = {_shown(value)} must be {want}")


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _number(key: str, shape: str, value: object, where: str) -> Any:
    """The Ruleset field value of number ``key`` (its shape checked; its value is the Ruleset's)."""
    if shape == _INT:
        if not _is_int(value):
            raise _bad(where, key, value, f"{shape}, e.g. {key} = 6")
        return value
    if shape == _TABLE:
        if not isinstance(value, Mapping) or not all(
            _is_count(k) and _is_int(v) for k, v in value.items()
        ):
            raise _bad(where, key, value, f"{shape}, e.g. {key} = {{ 2 = 10, 3 = 9 }}")
        return value
    if not (isinstance(value, list) and all(_is_int(v) for v in value)
            and (shape != _TRIPLE or len(value) == 3) and value):
        raise _bad(where, key, value, f"{shape}, e.g. {key} = [1, 2, 3]")
    return tuple(value)


def _reading(key: str, value: object, where: str) -> Any:
    param = PARAMETER_BY_NAME[key]
    allowed = " or ".join(_toml_value(v if isinstance(v, bool) else str(v)) for v in param.values)
    try:
        return param.coerce(value)
    except RulesError:
        raise _bad(where, key, value, allowed) from None


def _deck(value: object, where: str) -> dict[Card, int]:
    if not isinstance(value, Mapping):
        raise _bad(where, DECK, value, "a table of card kind = copies, e.g. [deck] then squid = 10")
    out: dict[Card, int] = {}
    for kind, count in value.items():
        card = _CARDS.get(str(kind))
        if card is None:
            raise RulesError(f"{where}: unknown card kind {DECK}.{kind}{_near(str(kind), _CARDS)} "
                             f"(kinds: {', '.join(_CARDS)})")
        if not _is_int(count):
            raise _bad(where, f"{DECK}.{kind}", count, f"a whole number, e.g. {kind} = 10")
        out[card] = count
    return out


def _string(key: str, value: object, where: str) -> str:
    if not isinstance(value, str):
        raise _bad(where, key, value, f'a string in quotes, e.g. {key} = "official"')
    return value


def _check_keys(data: Mapping[str, Any], where: str) -> None:
    for key in data:
        if key not in KEYS:
            raise RulesError(f"{where}: unknown key {key!r}{_near(str(key), KEYS)} "
                             "(sushigo rules --export official lists every key)")
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise _bad(where, "format", fmt, f'"{FORMAT}" (or left out)')


def _changes(data: Mapping[str, Any], base: Ruleset, where: str) -> dict[str, Any]:
    """The Ruleset fields ``data`` sets on top of ``base`` (tables merged entry by entry)."""
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("name", "source"):
            changes[key] = _string(key, value, where)
        elif key in NUMBERS:
            shape = NUMBERS[key][0]
            got = _number(key, shape, value, where)
            if shape == _TABLE:
                sizes = dict(getattr(base, key)) | {parse_whole(n, key): size for n, size in got.items()}
                got = tuple(sorted(sizes.items()))
            changes[key] = got
        elif key in PARAMETER_BY_NAME:
            changes[key] = _reading(key, value, where)
        elif key == DECK:
            counts = list(base.deck)
            for card, count in _deck(value, where).items():
                counts[int(card)] = count
            changes[key] = tuple(counts)
    return changes


def _build(base: Ruleset, changes: dict[str, Any], where: str) -> Ruleset:
    try:
        return dataclasses.replace(base, **changes)
    except RulesError as exc:
        raise RulesError(f"{where}: {exc}") from exc


def ruleset_from_value(value: object, where: str = 'the document\'s "rules"') -> Ruleset:
    """A document's ``"rules"``: a ruleset's name, or an inline object with a rules file's keys
    (``extends`` may name a named ruleset; a file path is refused, the document may travel)."""
    from sushigo.spec.ruleset import get_ruleset

    if isinstance(value, str):
        if is_rules_path(value):  # a document travels: it holds a custom ruleset, never a path to one
            raise RulesError(f"{where} = {value!r} names a file; a document names a named ruleset "
                             "or holds the ruleset as an object (sushigo rules --export shows its keys)")
        return get_ruleset(value)
    if not isinstance(value, Mapping):
        raise RulesError(f"{where} must be a ruleset name or an object of rule keys, got {_shown(value)}")
    _check_keys(value, where)
    extends = value.get("extends", "official")
    name = _string("extends", extends, where)
    if is_rules_path(name):
        raise RulesError(f"{where}: extends = {name!r} names a file; a document's inline ruleset "
                         "extends a named ruleset only (or lists every key)")
    data = {k: v for k, v in value.items() if k not in ("format", "extends")}
    return _build(get_ruleset(name), _changes(data, get_ruleset(name), where), where)


def same_rules(a: Ruleset, b: Ruleset) -> bool:
    """Whether two rulesets hold the same numbers and readings, whatever their names."""
    return dataclasses.replace(a, name="") == dataclasses.replace(b, name="")


def rules_value(rules: Ruleset) -> str | dict[str, Any]:
    """What a document says for ``rules``: its name when it is a named ruleset, else the whole
    ruleset as an object (:func:`ruleset_from_value` reads either back to equal rules)."""
    named = RULESETS.get(rules.name)
    if named is not None and named == rules:
        return rules.name
    return ruleset_dict(rules)


# --------------------------------------------------------------------------- files


def is_rules_path(name: str) -> bool:
    """Whether ``--rules`` names a file (a .toml name or a path) rather than a named ruleset."""
    return name.lower().endswith(SUFFIX) or "/" in name or os.sep in name


def read_toml(path: str) -> dict[str, Any]:
    """The TOML table in ``path``: size checked before a byte is read, UTF-8, valid TOML."""
    import tomllib

    where = repr(path)
    try:
        info = os.stat(path)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InputError(f"cannot read rules file {where}: {reason}; give the path of a .toml file "
                         "(sushigo rules --export official > FILE.toml writes one)") from exc
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"rules file {where} is not a regular file; give the path of a .toml file")
    if info.st_size > MAX_FILE_BYTES:
        raise InputError(f"rules file {where} is {info.st_size} bytes, more than the "
                         f"{MAX_FILE_BYTES // 1024} KiB a rules file may hold; give a rules file")
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise InputError(f"cannot read rules file {where}: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"rules file {where} is not UTF-8 text (byte at offset {exc.start}); "
                         "save it as UTF-8") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"rules file {where} is not TOML: {exc}; fix that line "
                         "(sushigo rules --export official shows the format)") from exc
    except RecursionError as exc:  # tomllib reads nested arrays and inline tables recursively
        raise InputError(f"rules file {where} nests arrays or inline tables too deep to read; its values "
                         "are numbers, words and flat lists (see sushigo rules --export official)") from exc


def load_rules_file(path: str | os.PathLike[str], _chain: tuple[str, ...] = ()) -> Ruleset:
    """The ruleset of the rules file ``path``: its ``extends`` (a named ruleset, default
    official, or another file relative to it) with the file's keys on top."""
    from sushigo.spec.ruleset import get_ruleset

    path = os.fspath(path)
    if "\x00" in path:  # no command line holds one; a library call can (realpath would raise)
        raise RulesError(f"rules file {path!r}: a file name holds no NUL character; give a named "
                         "ruleset or the path of a TOML rules file")
    real = os.path.realpath(path)
    if real in _chain:
        cycle = " -> ".join(os.path.basename(p) for p in (*_chain, real))
        raise RulesError(f"rules file {path!r}: extends makes a cycle ({cycle}); "
                         "let one file extend a named ruleset")
    if len(_chain) >= MAX_EXTENDS:
        raise RulesError(f"rules file {path!r}: more than {MAX_EXTENDS} files extend each other")
    data = read_toml(path)
    where = f"rules file {path!r}"
    _check_keys(data, where)
    extends = _string("extends", data.get("extends", "official"), where)
    if is_rules_path(extends):
        target = os.path.join(os.path.dirname(path), os.path.expanduser(extends))
        base = load_rules_file(target, (*_chain, real))
    else:
        try:
            base = get_ruleset(extends)
        except RulesError as exc:
            raise RulesError(f"{where}: extends = {extends!r}: {exc}") from exc
    data = {k: v for k, v in data.items() if k not in ("format", "extends")}
    changes = _changes(data, base, where)
    changes.setdefault("name", os.path.splitext(os.path.basename(path))[0])
    changes.setdefault("source", f"rules file {os.path.basename(path)} (extends {base.name})")
    return _build(base, changes, where)


def changed_keys(rules: Ruleset, base: Ruleset) -> list[str]:
    """The rules file keys whose value differs between ``rules`` and ``base`` (file order)."""
    mine, theirs = ruleset_dict(rules), ruleset_dict(base)
    return [k for k in KEYS if k not in META and mine[k] != theirs[k]]


def describe_value(key: str, value: Any) -> str:
    """A rules-file value as a short text for a table (tables as ``k=v`` lists)."""
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return format_value(value)


# --------------------------------------------------------------------------- the JSON Schema

def schema_path() -> str:
    """Where the shipped ruleset schema lives (in the package :mod:`sushigo.schemas`)."""
    import sushigo.schemas  # lazy: most commands never read a schema

    return os.path.join(os.path.dirname(os.path.abspath(sushigo.schemas.__file__)), f"{SCHEMA}.json")

#: Lengths of the free-text keys: far above any real name, far below what a document should carry.
_TEXT_LENGTHS = {"name": (1, 200), "source": (0, 2000), "extends": (1, 1000)}


def _number_schema(shape: str, meaning: str) -> dict[str, Any]:
    if shape == _INT:
        return {"type": "integer", "description": meaning}
    if shape == _TABLE:
        return {"type": "object", "propertyNames": {"pattern": "^[0-9]+$"},
                "additionalProperties": {"type": "integer"}, "description": meaning}
    length = 3 if shape == _TRIPLE else None
    out: dict[str, Any] = {"type": "array", "items": {"type": "integer"}, "minItems": length or 1}
    if length:
        out["maxItems"] = length
    out["description"] = meaning
    return out


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a ruleset (a rules file read as JSON, or a document's inline ruleset),
    generated from the keys above: the rule-number table of :mod:`spec.ruleset` and its readings.
    Shapes only: what the numbers may be is the Ruleset's own check, with its one-line messages."""
    props: dict[str, Any] = {"format": {"const": FORMAT, "description": "format tag (optional)"}}
    for key in ("name", "source", "extends"):
        lo, hi = _TEXT_LENGTHS[key]
        props[key] = {"type": "string", **({"minLength": lo} if lo else {}), "maxLength": hi,
                      "description": META[key]}
    for key, (shape, meaning) in NUMBERS.items():
        props[key] = _number_schema(shape, meaning)
    for p in PARAMETERS:
        props[p.name] = {"enum": [v if isinstance(v, bool) else str(v) for v in p.values],
                         "description": f"{p.question} (contested reading {p.rule_id})"}
    props[DECK] = {"type": "object", "properties": {label: {"type": "integer"} for label in _CARDS},
                   "additionalProperties": False,
                   "description": f"{DECK_MEANING} (a rules file may list only the kinds it changes)"}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:sushigo:schema:{SCHEMA}",
        "title": SCHEMA,
        "description": "Ruleset: every rule number and contested reading, as a TOML rules file ('sushigo "
                       "rules --export NAME', read by --rules FILE.toml) or inline as a document's \"rules\" "
                       "object; a file or an object with \"extends\" sets only what it changes.",
        "type": "object",
        "properties": props,
        "additionalProperties": False,
    }


def json_schema_text() -> str:
    """:func:`json_schema` as the shipped file holds it."""
    import json

    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


def write_json_schema(path: str | None = None) -> bool:
    """Write the generated schema to ``path`` (default: the shipped file); whether it changed."""
    path = path or schema_path()
    text = json_schema_text()
    try:
        with open(path, encoding="utf-8") as fh:
            if fh.read() == text:
                return False
    except FileNotFoundError:
        pass
    from sushigo.spec.files import write_atomic

    write_atomic(path, text)  # a failed write leaves the shipped schema as it was
    return True


__all__ = ["DECK", "FORMAT", "KEYS", "MAX_FILE_BYTES", "META", "NUMBERS", "SCHEMA", "changed_keys",
           "describe_value", "is_rules_path", "json_schema", "json_schema_text", "load_rules_file",
           "read_toml", "rules_value", "ruleset_dict", "ruleset_from_value", "schema_path", "to_toml",
           "write_json_schema"]
