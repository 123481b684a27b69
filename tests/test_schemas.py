"""The JSON Schemas: valid schemas, matched by every example and every --json output, and
enforced on input with the JSON path of the first problem (issue 12 item 5)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from sushigo.solver import endgame, puzzles, scoresheet, search, table
from sushigo.spec import document, record, rulefile
from sushigo.spec.executor import play_game
from sushigo.spec.ruleset import OFFICIAL, get_ruleset

from sushigo import schemas
from sushigo.cli import main

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "sushigo" / "schemas"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- the schemas themselves ----------------------------------------------------------------


@pytest.mark.parametrize("name", schemas.names())
def test_schema_passes_the_metaschema(name: str) -> None:
    schema = schemas.load_schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == schemas.DIALECT
    assert schema["$id"] == f"urn:sushigo:schema:{name}" and schema["title"] == name
    assert schema["description"]


def test_every_file_is_listed() -> None:
    assert schemas.names() == tuple(sorted(p.stem for p in SCHEMA_DIR.glob("*.json")))


def test_every_command_has_an_output_schema() -> None:
    """Every command with --json has a result schema, and no schema names a command that is not."""
    from sushigo.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    with_json = {name for name, p in sub.choices.items()  # type: ignore[attr-defined]
                 if any("--json" in a.option_strings for a in p._actions)}
    assert "score" in with_json and "completion" in sub.choices  # type: ignore[attr-defined]
    outputs = {n.removesuffix("-result") for n in schemas.names() if n.endswith("-result")}
    assert outputs == with_json


@pytest.mark.parametrize(
    ("name", "tag"),
    [
        ("score-document", document.FORMAT),
        ("record", record.FORMAT),
        ("puzzle", search.PUZZLE_FORMAT),
        ("hindsight", search.HINDSIGHT_FORMAT),
        ("position", endgame.POSITION_FORMAT),
        ("scoresheet", scoresheet.SHEET_FORMAT),
        ("table-query", table.QUERY_FORMAT),
        ("puzzles", puzzles.FORMAT),
        ("ruleset", rulefile.FORMAT),
    ],
)
def test_the_schema_tag_is_the_one_the_code_writes_and_reads(name: str, tag: str) -> None:
    assert schemas.formats(name) == (tag,)
    assert schemas.schema_of_tag(tag) == name


# --- examples in the docs ------------------------------------------------------------------

_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def _input_schema(doc: Any) -> str:
    """Which input document an example is, from its shape (a new kind of example must be added here)."""
    assert isinstance(doc, dict), doc
    if isinstance(doc.get("format"), str):
        name = schemas.schema_of_tag(doc["format"])
        assert name is not None, doc["format"]
        return name
    if "first_picks" in doc:
        return "endgame-result"
    if "players" in doc and "rounds" in doc:
        return "scoresheet"
    if "rounds" in doc:
        return "record" if any(isinstance(r, dict) for r in doc["rounds"]) else "score-document"
    if "taken" in doc or ("hands" in doc and "round" in doc):
        return "position"
    if "deal" in doc:
        return "hindsight"
    if "hands" in doc:
        return "puzzle"
    if "scores" in doc:
        return "table-query"
    raise AssertionError(f"an example of no known document: {doc}")


def _examples(path: Path) -> Iterator[tuple[str, str, str]]:
    """(schema, JSON text, where) for every document shown in a markdown file.

    A ```json block is a document; in a shell transcript, the lines after ``$ cat X.json`` are
    a document and the lines after ``$ sushigo CMD ... --json`` are CMD's output. Sketches
    (holding "...") and outputs marked as partial ("shown") are not documents.
    """
    text = path.read_text(encoding="utf-8")
    for lang, body in _FENCE.findall(text):
        if lang == "json":
            yield "", body, f"{path.name} json block"
            continue
        chunks = re.split(r"^\$ (.*)\n", body, flags=re.M)
        for command, output in zip(chunks[1::2], chunks[2::2], strict=True):
            words = command.split()
            partial = "shown" in command or "|" in command
            if words[:1] == ["cat"] and command.strip().endswith(".json"):
                yield "", output, f"{path.name}: $ {command}"
            elif words[:1] == ["sushigo"] and "--json" in words and not partial:
                yield f"{words[1]}-result", output, f"{path.name}: $ {command}"


def _doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_every_example_document_matches_its_schema() -> None:
    checked = 0
    for path in _doc_files():
        for name, text, where in _examples(path):
            if '"..."' in text or "..." in text.replace('"...', ""):
                continue  # a sketch
            doc = json.loads(text)
            schema = name or _input_schema(doc)
            problem = schemas.first_problem(doc, schema)
            assert problem is None, f"{where}: {schema}: {problem}"
            checked += 1
    # docs/ shows 10 distinct documents (the README's moved into the pages, where best.md already
    # held two of them, in issue 31): a lost example fails here, not silently.
    assert checked >= 10


def test_the_shipped_puzzle_collection_matches_its_schema() -> None:
    doc = json.loads((ROOT / "solver" / "data" / "puzzles.json").read_text(encoding="utf-8"))
    assert schemas.first_problem(doc, "puzzles") is None


# --- every --json output -------------------------------------------------------------------


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Small documents of every kind, made by the executor (not by the code under test)."""
    d = tmp_path_factory.mktemp("inputs")
    game = play_game(2, 5, OFFICIAL).to_json()
    dummy = play_game(2, 2, get_ruleset("dummy-2p")).to_json()
    rnd = game["rounds"][0]
    picks = [[rnd["turns"][t][s] for t in range(len(rnd["turns"]))] for s in range(2)]
    docs: dict[str, Any] = {
        "record": game,
        "dummy_record": dummy,
        "records": [game, dummy],
        "hindsight": {"rules": "official", "deal": rnd["hands"], "picks": picks, "seat": 1},
        "puzzle": {"rules": "official", "hands": [["wasabi", "tempura"], ["squid", "tempura"]],
                   "opponents_maki": [3, 5]},
        "score": {"rules": "official", "rounds": [["tempura*2 pudding", "sashimi*3"]]},
        "sheet": {"rules": "official", "players": ["Ana", "Ben"], "rounds": [[12, 3]]},
        "impossible_sheet": {"players": ["Ana", "Ben"], "rounds": [[12, 99]]},
        "query": {"scores": [45, 0], "names": ["Ana", "Ben"],
                  "known": [{"player": 2, "icons": 0, "has": "pudding", "counts": {"squid": 0}}]},
        "position": {"rules": "official", "round": 3,
                     "hands": [["maki2", "salmon", "chopsticks"], ["tempura", "tempura", "salmon"]],
                     "taken": [[["maki2"], ["sashimi"], ["chopsticks"], ["tempura", "tempura"], ["tempura"],
                                ["salmon"], ["tempura"]],
                               [["squid"], ["tempura"], ["sashimi"], ["sashimi"], ["sashimi"], ["wasabi"],
                                ["maki2"]]],
                     "puddings": [0, 0], "scores": [4, 22]},
    }
    paths = {}
    for key, value in docs.items():
        paths[key] = str(d / f"{key}.json")
        Path(paths[key]).write_text(json.dumps(value), encoding="utf-8")
    return paths


# Each command on cheap inputs; every output form (one record or a summary, a list or one
# verdict, ...) at least once. Not here: 'best --game' and 'diff --matrix' (minutes of solving).
OUTPUT_RUNS: list[tuple[str, ...]] = [
    ("score", "{score}"),
    ("score", "tempura*2", "sashimi*3 egg"),
    ("replay", "{record}"),
    ("replay", "{records}"),
    ("best", "{puzzle}"),
    ("best", "{puzzle}", "--engine", "search"),
    ("best", "{hindsight}"),
    ("best", "{record}", "--round", "2", "--seat", "1"),
    ("best", "{dummy_record}", "--round", "1", "--seat", "0"),
    ("diff", "official", "official", "--rule-b", "maki_first_tie=each", "--no-extend"),
    ("diff", "official", "maki-second-each", "--game", "{record}"),
    ("endgame", "{position}"),
    ("endgame", "--hands", "squid / salmon", "--taken",
     "tempura,tempura,tempura,tempura,tempura,egg,egg,egg,egg / "
     "sashimi,sashimi,sashimi,dumpling,dumpling,maki1,maki1,maki2,pudding"),
    ("puzzle", "--list"),
    ("puzzle", "--show", "1", "--solution"),
    ("play", "--players", "2", "--seed", "1"),
    ("play", "--players", "3", "--games", "3"),
    ("rules",),
    ("rules", "--catalogue", "official"),
    ("tableaux", "--score", "9", "--cards", "2"),
    ("tableaux", "--score", "0", "--cards", "1", "--count"),
    ("tableaux", "--unreachable", "--cards", "2"),
    ("tableaux", "--score", "9", "--cards", "2", "--facts"),
    ("scoresheet", "{sheet}"),
    ("scoresheet", "{impossible_sheet}"),
    ("table", "--scores", "45,36"),
    ("table", "--input", "{query}"),
    ("check", "--examples", "5", "--ruleset", "french", "--only", "pudding-scores", "--no-edge",
     "--jobs", "1"),
    ("conform", str(ROOT / "examples" / "buggy_adapter.py"), "--examples", "20"),
    ("schema",),
    ("balance", "maki-first-each", "--games", "20", "--no-maxima"),
    ("balance", "wasabi-optional", "--players", "2", "--games", "4", "--policy", "greedy", "--no-maxima",
     "--no-diff"),
    ("ladder", "--policies", "random,greedy", "--games", "4", "--bootstrap", "20"),
    ("ladder", "--policies", "random,greedy,lookahead", "--players", "3", "--games", "3", "--bootstrap", "0"),
    ("evaluate", "greedy", "--positions", "3", "--games", "2"),
    ("evaluate", str(ROOT / "examples" / "policy_adapter.py"), "--positions", "2", "--games", "0"),
]


@pytest.mark.parametrize("argv", OUTPUT_RUNS, ids=" ".join)
def test_every_json_output_matches_its_schema(
    argv: tuple[str, ...], inputs: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    args = [a.format(**inputs) for a in argv]
    code, out, err = run(capsys, *args, "--json")
    assert code in (0, 1), err
    problem = schemas.first_problem(json.loads(out), f"{argv[0]}-result")
    assert problem is None, problem


def test_an_output_with_a_wrong_field_fails_its_schema(inputs: dict[str, str],
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    # The output schemas are not vacuous: the real score output, one field wrong or added.
    _, out, _ = run(capsys, "score", inputs["score"], "--json")
    doc = json.loads(out)
    doc["totals"][0] = "15"
    assert schemas.first_problem(doc, "score-result") == schemas.Problem(
        "$.totals[0]", "'15' is not of type 'integer'")
    doc = json.loads(out) | {"total": 3}
    problem = schemas.first_problem(doc, "score-result")
    assert problem is not None and problem.path == "$" and "'total' was unexpected" in problem.message


# --- input documents: refused with the JSON path --------------------------------------------


def _write(tmp_path: Path, doc: Any) -> str:
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


WRONG_FIELDS: list[tuple[str, tuple[str, ...], Any, str]] = [
    ("score-document", ("score",), {"rounds": [["egg", "egg"]], "rule": "official"}, "at $: "),
    ("score-document", ("score",), {"rounds": [["egg", {"egg": 1}]]}, "at $.rounds[0][1]: "),
    ("records", ("replay",), "RECORD:players=two", "at $.players: 'two' is not of type 'integer'"),
    ("records", ("replay",), "RECORD:rounds.0.scores.1=x", "at $.rounds[0].scores[1]: "),
    ("records", ("replay",), ["RECORD", {"rules": "official"}], "at $[1]: "),
    ("record", ("diff", "official", "french", "--game"), "RECORD:winners=0", "at $.winners: "),
    ("best-input", ("best",), {"hands": [["squid", 7]]}, "at $.hands[0][1]: 7 is not of type 'string'"),
    ("best-input", ("best",), {"deal": [["squid"]], "picks": [], "seat": -1}, "at $.seat: -1 is less than"),
    ("best-input", ("best", "--round", "1", "--seat", "0"), "RECORD:rounds.0.hands=squid",
     "at $.rounds[0].hands: "),
    ("position", ("endgame",), {"hands": [["squid"], ["egg"]], "round": "3"},
     "at $.round: '3' is not of type"),
    ("scoresheet", ("scoresheet",), {"players": ["A", "B"], "rounds": [[1, 2.5]]}, "at $.rounds[0][1]: 2.5"),
    ("table-query", ("table", "--input"), {"scores": [1, 2], "known": [{"player": 1, "icon": 2}]},
     "at $.known[0]: "),
]


def _mutate_record(spec: str) -> Any:
    game: Any = play_game(2, 5, OFFICIAL).to_json()
    if spec == "RECORD":
        return game
    keys, _, value = spec.removeprefix("RECORD:").partition("=")
    *path, last = keys.split(".")
    node = game
    for key in path:
        node = node[int(key)] if key.isdigit() else node[key]
    node[int(last) if last.isdigit() else last] = int(value) if value.isdigit() else value
    return game


@pytest.mark.parametrize(("schema", "argv", "doc", "needle"), WRONG_FIELDS,
                         ids=[f"{w[0]}-{w[3][:24]}" for w in WRONG_FIELDS])
def test_a_wrong_field_is_refused_with_its_json_path(
    schema: str, argv: tuple[str, ...], doc: Any, needle: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str]
) -> None:
    if isinstance(doc, str):
        doc = _mutate_record(doc)
    elif isinstance(doc, list):
        doc = [_mutate_record(d) if isinstance(d, str) else d for d in doc]
    path = _write(tmp_path, doc)
    args = [*argv[:1], path, *argv[1:]] if argv[-1] != "--game" and argv[-1] != "--input" else [*argv, path]
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert f"does not match the {schema} schema {needle}" in err, err
    assert f"'sushigo schema {schema}'" in err


@pytest.mark.parametrize(
    ("argv", "doc"),
    [
        (("score",), {"format": "sushigo-score/1", "rounds": [["egg", "egg"]]}),
        (("best",), {"format": "sushigo-puzzle/1", "hands": [["squid"]]}),
        (("scoresheet",), {"format": "sushigo-scoresheet/1", "players": ["A", "B"], "rounds": [[3, 2]]}),
        (("table", "--limit", "1", "--input"), {"format": "sushigo-table-query/1", "scores": [3, 2]}),
        (("endgame",), {"format": "sushigo-position/1", "round": 1,
                        "hands": [["squid"], ["egg"]],
                        "taken": [[["tempura"]] * 9, [["salmon"]] * 9]}),
    ],
)
def test_the_new_format_tags_are_read(argv: tuple[str, ...], doc: Any, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, doc)
    args = [*argv, path] if argv[-1] == "--input" else [argv[0], path, *argv[1:]]
    code, _, err = run(capsys, *args)
    assert code in (0, 1), err
    wrong = dict(doc, format=doc["format"].replace("/1", "/9"))
    code, _, err = run(capsys, *[a if a != path else _write(tmp_path, wrong) for a in args])
    assert code == 2 and "at $.format" in err


def test_a_document_of_another_kind_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, play_game(2, 5, OFFICIAL).to_json())
    code, _, err = run(capsys, "score", path)
    assert code == 2 and "is a sushigo-record/1 document, not a score-document" in err
    assert "'sushigo replay'" in err


# --- the schema command --------------------------------------------------------------------


def test_schema_lists_and_prints(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema")
    assert code == 0
    for name in schemas.names():
        assert re.search(rf"^{re.escape(name)} ", out, re.M), name
    assert "sushigo-record/1" in out
    code, out, _ = run(capsys, "schema", "record")
    assert code == 0
    assert json.loads(out) == json.loads((SCHEMA_DIR / "record.json").read_text(encoding="utf-8"))


def test_schema_unknown_name_suggests_the_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "schema", "recrod")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        "sushigo schema: error: no schema named 'recrod'; did you mean 'record'? 'sushigo schema' lists them"
    ]
