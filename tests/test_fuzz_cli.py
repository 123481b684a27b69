"""Fuzz every command (issue 16 item 3): documents drawn from the JSON Schemas and real ones,
then mutated (wrong types, missing and extra keys, huge numbers, unicode, raw bytes), and
random argument vectors. Whatever comes in, the exit code is 0, 1 or 2, exit 2 says so in at
most one line, and nothing escapes as a traceback (an exception out of ``main`` fails here).

The documents come from a small generator of our own for the schema keywords we use
(hypothesis-jsonschema 0.23 breaks on objects under Hypothesis 6.170: 'many' object has no
attribute 'more'); every document it draws must match its schema before it is mutated.

Cheap by design: a few examples per command, short budgets appended to every run (argparse
keeps the last value; a bad earlier value is still refused). A campaign:
``FUZZ_EXAMPLES=2000 python -m pytest tests/test_fuzz_cli.py``.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import os
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sushigo.spec.cards import Card
from sushigo.spec.executor import play_game
from sushigo.spec.ruleset import OFFICIAL

from sushigo import schemas
from sushigo.cli import build_parser, main

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])
WORKDIR = Path(tempfile.mkdtemp(prefix="sushigo-fuzz-"))


def check_run(argv: list[str]) -> int:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    text = err.getvalue()
    assert code in (0, 1, 2), (argv, code, text)
    assert "Traceback" not in text, (argv, text)
    if code == 2:
        assert len(text.strip().splitlines()) <= 1, (argv, text)
    return code


# --- documents ---------------------------------------------------------------------------

#: Strings worth drawing: card names and notation reach past the schema into the parsers.
WORDS = st.sampled_from([c.label for c in Card] + ["wasabi+squid", "tempura*2 squid", "maki3 egg", "official",
                                                   "dummy-2p", "french", "squid:wasabi"])


def from_schema(node: dict[str, Any], root: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Documents matching ``node`` (the keywords our schemas use; see sushigo/schemas/)."""
    if "$ref" in node:
        target = node["$ref"]
        if target.startswith("#/$defs/"):
            return from_schema(root["$defs"][target[len("#/$defs/"):]], root)
        other = schemas.load_schema(target.removeprefix(schemas.ID_PREFIX))
        return from_schema(other, other)
    if "const" in node:
        return st.just(node["const"])
    if "enum" in node:
        return st.sampled_from(node["enum"])
    if "anyOf" in node:
        return st.one_of([from_schema(sub, root) for sub in node["anyOf"]])
    if "if" in node:
        base = {k: v for k, v in node.items() if k not in ("if", "then", "else")}
        keys = node["if"].get("required", [])  # "if": {"required": [...]}: then has them, else not
        then = _merge(_merge(base, {"required": keys}), node.get("then", {}))
        other = _merge(_merge(base, {"not": {"required": keys}}), node.get("else", {}))
        branches = [then, other]
        return st.one_of([from_schema(b, root) for b in branches])
    kind = node.get("type")
    if isinstance(kind, list):
        return st.one_of([from_schema({**node, "type": k}, root) for k in kind])
    if kind == "object":
        return _object(node, root)
    if kind == "array":
        low = node.get("minItems", 0)
        high = min(node.get("maxItems", low + 3), low + 3)
        return st.lists(from_schema(node.get("items", {}), root), min_size=low, max_size=high)
    if kind == "string":
        low, high = node.get("minLength", 0), node.get("maxLength", 99)
        text = st.text(min_size=low, max_size=min(high, 12))
        return st.one_of(WORDS, text).filter(lambda v: low <= len(v) <= high)
    if kind == "integer":
        low = node.get("minimum", -3)
        return st.integers(min_value=low, max_value=node.get("maximum", node.get("minimum", 0) + 12))
    if kind == "number":
        return st.floats(allow_nan=False, allow_infinity=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    return st.one_of(st.none(), st.integers(), WORDS)  # no constraint: any small value


def _merge(base: dict[str, Any], branch: dict[str, Any]) -> dict[str, Any]:
    merged = {**base, **branch, "required": base.get("required", []) + branch.get("required", [])}
    banned = branch.get("not", {}).get("required", [])
    if "properties" in merged:
        merged["properties"] = {k: v for k, v in merged["properties"].items() if k not in banned}
    merged.pop("not", None)
    return merged


def _object(node: dict[str, Any], root: dict[str, Any]) -> st.SearchStrategy[Any]:
    props = node.get("properties", {})
    required = [k for k in node.get("required", []) if k in props]
    optional = [k for k in props if k not in required]
    extra = node.get("additionalProperties")

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        keys = required + [k for k in optional if draw(st.booleans())]
        out = {k: draw(from_schema(props[k], root)) for k in keys}
        if isinstance(extra, dict):
            pattern = node.get("propertyNames", {}).get("pattern")
            names = WORDS if pattern is None else st.from_regex(pattern, fullmatch=True)
            out |= draw(st.dictionaries(names, from_schema(extra, root), max_size=2))
        return out

    return build()


WEIRD = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.just(10**300),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["squid", "wasabi+squid", "tempura*99", "é☃\u202e", "\x00", "-", "official", "dummy-2p"]),
    st.booleans(),
    st.none(),
    st.just([]),
    st.just({}),
)


def _nodes(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(doc, dict):
        for k, v in doc.items():
            found += _nodes(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            found += _nodes(v, (*path, i))
    return found


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy[Any]) -> Any:
    """A document with one change: a node replaced, removed, or a key or item added."""
    doc = copy.deepcopy(draw(base))
    how = draw(st.sampled_from(["keep", "replace", "remove", "add"]))
    path = draw(st.sampled_from(_nodes(doc)))
    if how == "keep" or (not path and how != "add"):
        return doc if path or how != "replace" else draw(WEIRD)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1] if path else None
    if how == "replace":
        parent[last] = draw(WEIRD)
    elif how == "remove":
        del parent[last]
    else:
        node = parent[last] if path else doc
        if isinstance(node, dict):
            node[draw(st.text(max_size=8))] = draw(WEIRD)
        elif isinstance(node, list):
            node.append(draw(WEIRD))
    return doc


def _real_documents() -> dict[str, list[Any]]:
    game = play_game(2, 3, OFFICIAL).to_json()
    rnd = game["rounds"][0]
    picks = [[rnd["turns"][t][s] for t in range(len(rnd["turns"]))] for s in range(2)]
    return {
        "score-document": [{"rules": "official", "rounds": [["tempura*2 pudding", "sashimi*3"]]}],
        "record": [game],
        "records": [[game]],
        "puzzle": [{"hands": [["wasabi", "tempura"], ["squid", "tempura"]], "opponents_maki": [3]}],
        "hindsight": [{"deal": rnd["hands"], "picks": picks, "seat": 0}],
        "position": [{"round": 1, "hands": [["squid"], ["egg"]],
                      "taken": [[["tempura"]] * 9, [["salmon"]] * 9]}],
        "scoresheet": [{"players": ["A", "B"], "rounds": [[12, 3]]}],
        "table-query": [{"scores": [9, 0]}],
    }


REAL = _real_documents()

# (schema the documents are drawn from, the command reading them: {} is the file)
DOCUMENT_RUNS = [
    ("score-document", ["score", "{}"]),
    ("record", ["replay", "{}"]),
    ("records", ["replay", "{}", "--json"]),
    ("record", ["best", "{}", "--round", "1", "--seat", "0", "--timeout", "0.5"]),
    ("record", ["diff", "official", "french", "--game", "{}"]),
    ("puzzle", ["best", "{}", "--timeout", "0.5"]),
    ("hindsight", ["best", "{}", "--timeout", "0.5", "--engine", "search"]),
    ("position", ["endgame", "{}", "--max-nodes", "2000", "--time-limit", "0.5"]),
    ("scoresheet", ["scoresheet", "{}", "--rlimit", "2000000", "--timeout", "1"]),
    ("table-query", ["table", "--limit", "1", "--input", "{}"]),
]


def _valid(schema: str) -> st.SearchStrategy[Any]:
    root = schemas.load_schema(schema)
    return st.one_of(from_schema(root, root), st.sampled_from(REAL[schema]))


@pytest.mark.parametrize("schema", sorted({s for s, _ in DOCUMENT_RUNS}))
def test_the_generator_draws_valid_documents(schema: str) -> None:
    @FUZZ
    @given(doc=_valid(schema))
    def run(doc: Any) -> None:
        assert schemas.first_problem(doc, schema) is None

    run()


@pytest.mark.parametrize(("schema", "argv"), DOCUMENT_RUNS, ids=[f"{a[0]} {s}" for s, a in DOCUMENT_RUNS])
def test_documents_from_the_schemas_then_mutated(schema: str, argv: list[str]) -> None:
    path = WORKDIR / f"{schema}.json"

    @FUZZ
    @given(doc=mutated(_valid(schema)), raw=st.one_of(st.none(), st.binary(max_size=40)))
    def run(doc: Any, raw: bytes | None) -> None:
        path.write_bytes(raw if raw is not None else json.dumps(doc).encode("utf-8"))
        check_run([a.replace("{}", str(path)) for a in argv])

    run()


# --- argument vectors ----------------------------------------------------------------------

VALUES = ["-1", "0", "1", "2", "3", "0.5", "nan", "inf", "1e999", "99999999999999999999", "x", "", "é☃",
          "-", "official", "squid egg / egg squid", "tempura*2", "a\x00b"]
#: Options whose work no budget bounds (every property, every pair, every puzzle, a file written).
EXPENSIVE = {"--mutants", "--mutant", "--matrix", "--all", "--verify", "--record", "--game", "--round"}
#: Appended last: the value argparse keeps, so a valid run stays short.
CHEAP = {
    "best": ["--timeout", "0.3"],
    "diff": ["--timeout", "0.3", "--players", "2"],
    "endgame": ["--max-nodes", "500", "--time-limit", "0.3"],
    "play": ["--games", "1"],
    "scoresheet": ["--rlimit", "1000000", "--timeout", "1"],
    "table": ["--limit", "1"],
    "conform": ["--examples", "5"],
    # The properties are the check suite's own business: here the options are parsed and
    # validated, and the unknown property ends the run before any property runs.
    "check": ["--examples", "1", "--jobs", "1", "--only", "no-such-property"],
}


def _vocabulary() -> dict[str, list[str]]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    vocab = {}
    for name, p in sub.choices.items():
        options = [o for a in p._actions for o in a.option_strings if o not in EXPENSIVE and o != "-h"]
        vocab[name] = sorted(set(options)) + VALUES
    return vocab


VOCABULARY = _vocabulary()


@pytest.mark.parametrize("command", sorted(VOCABULARY))
def test_random_argument_vectors(command: str) -> None:
    @FUZZ
    @given(tokens=st.lists(st.sampled_from(VOCABULARY[command]), max_size=6))
    def run(tokens: list[str]) -> None:
        check_run([command, *tokens, *CHEAP.get(command, [])])

    cwd = os.getcwd()
    os.chdir(WORKDIR)  # nothing a run writes lands in the repository
    try:
        run()
    finally:
        os.chdir(cwd)
