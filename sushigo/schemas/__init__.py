"""The JSON Schemas (draft 2020-12) of every document the toolkit reads or writes.

Each schema is a file ``NAME.json`` next to this module, shipped as package data. Its
``$id`` is ``urn:sushigo:schema:NAME``, so one schema can ``$ref`` another by that id.
Input schemas check the *shape* of a document (types, keys, nesting); what the rules allow
(player counts, hand sizes, copies in the deck) is checked afterwards by the parsers, which
know the ruleset. Output schemas are named ``<command>-result``.

``jsonschema`` is imported lazily, by :func:`first_problem`, so the CLI starts without it.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from sushigo.spec.errors import InputError

DIALECT = "https://json-schema.org/draft/2020-12/schema"
ID_PREFIX = "urn:sushigo:schema:"
RESULT_SUFFIX = "-result"
#: The longest error message quoted from the validator (it may repeat a whole bad value).
_MESSAGE_CHARS = 160


@dataclass(frozen=True)
class SchemaInfo:
    name: str
    description: str
    formats: tuple[str, ...]  # the format tags its documents carry (or may carry)
    direction: str  # "input" (a document we read) or "output" (a --json output)


@dataclass(frozen=True)
class Problem:
    """The first place where a document breaks its schema."""

    path: str  # JSON path, e.g. ``$.rounds[0][1]``
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@cache
def names() -> tuple[str, ...]:
    """Every schema name, sorted."""
    files = resources.files(__name__).iterdir()
    return tuple(sorted(f.name[: -len(".json")] for f in files if f.name.endswith(".json")))


def _unknown(name: str) -> InputError:
    near = difflib.get_close_matches(name, names(), n=1, cutoff=0.0)
    hint = f"did you mean {near[0]!r}? " if near else ""
    return InputError(f"no schema named {name!r}; {hint}'sushigo schema' lists them")


@cache
def _load(name: str) -> dict[str, Any]:
    if name not in names():
        raise _unknown(name)
    if name == "ruleset":
        # Generated from the rule-number table and the kinds (the shipped file is that text, a
        # test holds them equal), so a new kind's deck entry is known without a file edit.
        from sushigo.spec.rulefile import json_schema

        return json_schema()
    text = resources.files(__name__).joinpath(f"{name}.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = _with_columns(json.loads(text))
    return schema


#: A node marked with this key is one seat's round score: its properties are the card kinds'
#: scoring columns and the total, filled in at load time, so a new kind needs no schema edit.
COLUMNS_KEY = "x-sushigo-columns"


def _with_columns(node: Any) -> Any:
    """``node`` with every :data:`COLUMNS_KEY` object expanded into its properties and required list."""
    if isinstance(node, list):
        return [_with_columns(x) for x in node]
    if not isinstance(node, dict):
        return node
    if COLUMNS_KEY not in node:
        return {k: _with_columns(v) for k, v in node.items()}
    from sushigo.spec.kinds import KINDS, categories_of  # the kinds alone: no scoring module needed

    columns = [*categories_of(KINDS), "total"]
    out: dict[str, Any] = {}
    for k, v in node.items():
        if k == COLUMNS_KEY:
            out["properties"] = {c: {"type": "integer"} for c in columns}
            out["required"] = columns
        else:
            out[k] = _with_columns(v)
    return out


def load_schema(name: str) -> dict[str, Any]:
    """The schema ``name`` as a fresh JSON value (callers may change it)."""
    result: dict[str, Any] = json.loads(json.dumps(_load(name)))
    return result


def _own_tags(node: dict[str, Any]) -> list[str]:
    fmt = node.get("properties", {}).get("format", {})
    return [fmt["const"]] if "const" in fmt else list(fmt.get("enum", []))


def formats(name: str) -> tuple[str, ...]:
    """The format tags a document of this schema carries or may carry (its parts' tags too)."""
    root = _load(name)
    found: list[str] = []
    seen: set[str] = set()

    def walk(node: Any, here: dict[str, Any]) -> None:
        if not isinstance(node, dict):
            return
        found.extend(t for t in _own_tags(node) if t not in found)
        target = node.get("$ref")
        if isinstance(target, str) and target not in seen:
            seen.add(target)
            if target.startswith("#/$defs/"):
                walk(here.get("$defs", {}).get(target[len("#/$defs/"):]), here)
            elif target.startswith(ID_PREFIX):
                other = _load(target[len(ID_PREFIX):])
                walk(other, other)
        for key in ("then", "else", "items"):
            walk(node.get(key), here)
        for key in ("allOf", "anyOf", "oneOf"):
            for sub in node.get(key, []):
                walk(sub, here)

    walk(root, root)
    return tuple(found)


def schema_of_tag(tag: str) -> str | None:
    """The schema whose documents carry exactly this format tag (else the one schema whose
    documents may carry it among others: an output with more than one form)."""
    exact = next((n for n in names() if _own_tags(_load(n)) == [tag]), None)
    if exact is not None:
        return exact
    some = [n for n in names() if tag in _own_tags(_load(n))]
    return some[0] if len(some) == 1 else None


def info(name: str) -> SchemaInfo:
    schema = _load(name)
    direction = "output" if name.endswith(RESULT_SUFFIX) else "input"
    return SchemaInfo(name, str(schema.get("description", "")), formats(name), direction)


def infos() -> list[SchemaInfo]:
    return [info(n) for n in names()]


@cache
def _validator(name: str) -> Any:
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry: Registry[Any] = Registry().with_resources(
        (ID_PREFIX + n, Resource.from_contents(_load(n))) for n in names()
    )
    return Draft202012Validator(_load(name), registry=registry)


def first_problem(document: object, name: str) -> Problem | None:
    """Where ``document`` first breaks schema ``name`` (the most relevant error), or None."""
    from jsonschema.exceptions import best_match

    if name not in names():
        raise _unknown(name)
    error = best_match(_validator(name).iter_errors(document))
    if error is None:
        return None
    message = " ".join(error.message.split())
    if len(message) > _MESSAGE_CHARS:
        message = message[: _MESSAGE_CHARS - 3] + "..."
    expected = error.schema.get("description") if isinstance(error.schema, dict) else None
    if expected and error.validator in ("anyOf", "oneOf", "type"):
        message += f"; expected {expected}"
    return Problem(error.json_path, message)


def check_document(document: object, name: str, where: str = "the document") -> None:
    """Raise :class:`InputError` (one line, with the JSON path) if ``document`` breaks ``name``."""
    problem = first_problem(document, name)
    if problem is None:
        return
    tag = document.get("format") if isinstance(document, dict) else None
    other = schema_of_tag(tag) if isinstance(tag, str) else None
    if other is not None and tag not in formats(name):
        raise InputError(f"{where} is a {tag} document, not a {name}; {_load(other)['description']}")
    raise InputError(
        f"{where} does not match the {name} schema at {problem.path}: {problem.message} "
        f"(see 'sushigo schema {name}')"
    )


__all__ = [
    "DIALECT",
    "Problem",
    "SchemaInfo",
    "check_document",
    "first_problem",
    "formats",
    "info",
    "infos",
    "load_schema",
    "names",
    "schema_of_tag",
]
