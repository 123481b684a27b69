"""The public API (``import sushigo``): each function returns exactly what its command prints with
``--json``; bad input raises ``sushigo.InputError`` with the CLI's one-line message; every
exported name is documented in docs/api.md, whose examples run here."""

from __future__ import annotations

import doctest
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import sushigo
from sushigo.cli import main

ROOT = Path(__file__).resolve().parent.parent
API_DOC = ROOT / "docs" / "api.md"
GOOD_ADAPTER = str(ROOT / "examples" / "conform_adapter.py")
PARTY_ADAPTER = str(ROOT / "tests" / "adapters" / "party_good.py")

# The rulebook's worked maki example (RULES.md, "What the official rulebook settles"): icons
# 5, 3, 3, 2 score 6, 1, 1, 0 under the official rules (a tie for second splits 3, rounded
# down); under the French text each player tied for second takes 3: 6, 3, 3, 0.
MAKI_TABLE = ["maki3 maki2", "maki3", "maki2 maki1", "maki2"]
SCORE_DOC = {"rules": "official", "rounds": [["tempura*2 sashimi*3", "dumpling*3 egg"]]}
PUZZLE = {"hands": [["tempura", "tempura", "sashimi"], ["squid", "egg"], ["salmon"]], "opponents_maki": []}
SHEET = {"rules": "official", "players": ["Ana", "Ben"], "rounds": [[12, 3]]}
TAKEN0 = "wasabi,tempura,tempura,sashimi,sashimi,sashimi,dumpling,dumpling,dumpling"
TAKEN1 = "maki3,maki2,egg,salmon,pudding,tempura,dumpling,dumpling,chopsticks"


def _cli_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, Any]:
    code = main([*argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def _untimed(value: Any) -> Any:
    """The document without wall-clock times (the only fields two runs may not share)."""
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def _write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


# (id, API call given a temporary directory, the same question on the command line)
Case = tuple[str, Callable[[Path], Any], Callable[[Path], list[str]]]

CASES: list[Case] = [
    ("schema", lambda _p: sushigo.schema(), lambda _p: ["schema", "--json"]),
    ("schema-one", lambda _p: sushigo.schema("record"), lambda _p: ["schema", "record"]),
    ("rules", lambda _p: sushigo.rules(["official", "french"]), lambda _p: ["rules", "official", "french"]),
    ("score-tableaux", lambda _p: sushigo.score(MAKI_TABLE, rules="french"),
     lambda _p: ["score", *MAKI_TABLE, "--rules", "french"]),
    ("score-dict", lambda _p: sushigo.score(SCORE_DOC),
     lambda p: ["score", _write(p, "doc.json", SCORE_DOC)]),
    ("score-path", lambda p: sushigo.score(_write(p, "doc.json", SCORE_DOC), rule={"maki_first_tie": "each"}),
     lambda p: ["score", _write(p, "doc.json", SCORE_DOC), "--rule", "maki_first_tie=each"]),
    ("play-one", lambda _p: sushigo.play(players=3, seed=5, policy="greedy"),
     lambda _p: ["play", "--players", "3", "--seed", "5", "--policy", "greedy"]),
    ("play-many", lambda _p: sushigo.play(games=4, seed=2, policy=["random", "greedy", "random", "greedy"]),
     lambda _p: ["play", "--games", "4", "--seed", "2", "--policy", "random", "greedy", "random", "greedy"]),
    ("replay", lambda _p: sushigo.replay(sushigo.play(seed=7), rules="french"),
     lambda p: ["replay", _write(p, "g.json", sushigo.play(seed=7)), "--rules", "french"]),
    ("check", lambda _p: sushigo.check(examples=20, ruleset="french", only="pudding-scores", no_edge=True,
                                       jobs=1),
     lambda _p: ["check", "--examples", "20", "--ruleset", "french", "--only", "pudding-scores", "--no-edge",
                 "--jobs", "1"]),
    ("conform", lambda _p: sushigo.conform(GOOD_ADAPTER, examples=30),
     lambda _p: ["conform", GOOD_ADAPTER, "--examples", "30"]),
    ("conform-party", lambda _p: sushigo.conform(PARTY_ADAPTER, examples=30, game="party"),
     lambda _p: ["conform", "--game", "party", PARTY_ADAPTER, "--examples", "30"]),
    ("endgame", lambda _p: sushigo.endgame(hands="squid / salmon", taken=f"{TAKEN0} / {TAKEN1}"),
     lambda _p: ["endgame", "--hands", "squid / salmon", "--taken", f"{TAKEN0} / {TAKEN1}"]),
    ("puzzle", lambda _p: sushigo.puzzle(show=2, solution=True),
     lambda _p: ["puzzle", "--show", "2", "--solution"]),
    ("balance", lambda _p: sushigo.balance("maki-first-each", games=30, maxima=False),
     lambda _p: ["balance", "maki-first-each", "--games", "30", "--no-maxima"]),
    ("ladder", lambda _p: sushigo.ladder("random,greedy", games=6, seed=3, bootstrap=20),
     lambda _p: ["ladder", "--policies", "random,greedy", "--games", "6", "--seed", "3",
                 "--bootstrap", "20"]),
    ("evaluate", lambda _p: sushigo.evaluate("greedy", positions=4, games=2, against=["random"]),
     lambda _p: ["evaluate", "greedy", "--positions", "4", "--games", "2", "--against", "random"]),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_function_returns_what_the_command_prints(
    case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _name, call, argv = case
    returned = call(tmp_path)
    _code, printed = _cli_json(capsys, argv(tmp_path))
    assert _untimed(returned) == _untimed(printed)


# Z3's choice among equally good witnesses depends on what the process asked it before, so these
# compare a fresh interpreter running the function with a fresh 'sushigo ... --json'; this is
# also the contract as a user meets it: python -c "import sushigo; sushigo.best(...)".
# (id, the call as Python source with {path} for the input file, the input, the command line)
FRESH: list[tuple[str, str, object, list[str]]] = [
    ("score", "sushigo.score({path!r})", SCORE_DOC, ["score", "{path}"]),
    ("best", "sushigo.best({path!r}, timeout=30)", PUZZLE, ["best", "{path}", "--timeout", "30"]),
    ("tableaux", "sushigo.tableaux(score=12, cards=3, must=['egg'])", None,
     ["tableaux", "--score", "12", "--cards", "3", "--must", "egg"]),
    ("table", "sushigo.table(input={path!r})", {"scores": [10, 5]}, ["table", "--input", "{path}"]),
    ("scoresheet", "sushigo.scoresheet({path!r})", SHEET, ["scoresheet", "{path}"]),
    ("diff", "sushigo.diff('official', 'official', rule_b={{'maki_first_tie': 'each'}})", None,
     ["diff", "official", "official", "--rule-b", "maki_first_tie=each"]),
    ("diff-game", "sushigo.diff('official', 'french', game={path!r})", "record",
     ["diff", "official", "french", "--game", "{path}"]),
]


def _run(argv: list[str]) -> Any:
    done = subprocess.run([sys.executable, *argv], capture_output=True, text=True, timeout=600)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("case", FRESH, ids=[c[0] for c in FRESH])
def test_function_in_a_fresh_interpreter_returns_what_the_command_prints(
    case: tuple[str, str, object, list[str]], tmp_path: Path
) -> None:
    _name, source, data, argv = case
    if data == "record":
        data = sushigo.play(seed=11)
    path = _write(tmp_path, "input.json", data)
    returned = _run(["-c", f"import json, sushigo; print(json.dumps({source.format(path=path)}))"])
    printed = _run(["-m", "sushigo", *(a.format(path=path) for a in argv), "--json"])
    assert _untimed(returned) == _untimed(printed)


def test_every_command_with_json_has_a_function() -> None:
    from sushigo.cli import build_parser

    parser = build_parser()
    [sub] = [a for a in parser._actions if a.dest == "command"]
    with_json = {name for name, p in sub.choices.items()  # type: ignore[attr-defined]
                 if any("--json" in a.option_strings for a in p._actions)}
    assert with_json == {"score", "play", "replay", "best", "tableaux", "table", "scoresheet", "diff",
                         "check", "conform", "endgame", "puzzle", "rules", "schema", "balance", "ladder",
                         "evaluate"}
    assert {c[0].split("-")[0] for c in [*CASES, *FRESH]} == with_json
    assert all(callable(getattr(sushigo, name)) for name in with_json)


def test_format_tag_is_the_first_key() -> None:
    assert next(iter(sushigo.score(MAKI_TABLE))) == "format"
    assert sushigo.score(MAKI_TABLE)["format"] == "sushigo-score-result/1"
    assert sushigo.play(seed=1)["format"] == "sushigo-record/1"  # existing tags are kept
    assert sushigo.play(games=2)["format"] == "sushigo-play-result/1"
    assert sushigo.rules()["format"] == "sushigo-rules-result/1"


def test_maki_worked_example_under_each_reading() -> None:
    def maki(doc: dict[str, Any]) -> list[int]:
        return [seat["maki"] for seat in doc["rounds"][0]]

    assert maki(sushigo.score(MAKI_TABLE)) == [6, 1, 1, 0]
    assert maki(sushigo.score(MAKI_TABLE, rules="french")) == [6, 3, 3, 0]
    assert maki(sushigo.score(MAKI_TABLE, rule={"maki_second_tie": "each"})) == [6, 3, 3, 0]
    assert maki(sushigo.score(MAKI_TABLE, rule=["maki_second_tie=each"])) == [6, 3, 3, 0]


def test_round_scored_by_hand() -> None:
    # RULES.md, round scoring: tempura 5 per pair, sashimi 10 per three, dumplings 1, 3, 6, egg 1.
    doc = sushigo.score(SCORE_DOC)
    assert doc["totals"] == [15, 7] and doc["winners"] == [0]
    assert sushigo.score([sushigo.Tableau.parse("tempura*2"), "sashimi*3"])["totals"] == [5, 10]


# (API call, the same bad input on the command line)
BAD: list[tuple[Callable[[], Any], list[str]]] = [
    (lambda: sushigo.score(["tempura", "sashimo"]), ["score", "tempura", "sashimo"]),  # NotationError
    (lambda: sushigo.score(["tempura"]), ["score", "tempura"]),
    (lambda: sushigo.score(["tempura", "egg"], rules="frnch"),
     ["score", "tempura", "egg", "--rules", "frnch"]),
    (lambda: sushigo.score(["tempura", "egg"], rule={"maki_first_tie": "sometimes"}),
     ["score", "tempura", "egg", "--rule", "maki_first_tie=sometimes"]),  # RulesError
    (lambda: sushigo.play(policy="clever"), ["play", "--policy", "clever"]),
    (lambda: sushigo.replay("/nonexistent/g.json"), ["replay", "/nonexistent/g.json"]),
    (lambda: sushigo.best(), ["best"]),
    (lambda: sushigo.tableaux(score=3, cards=999), ["tableaux", "--score", "3", "--cards", "999"]),
    (lambda: sushigo.table(scores="1,x"), ["table", "--scores", "1,x"]),
    (lambda: sushigo.diff("official"), ["diff", "official"]),
    (lambda: sushigo.check(examples=0), ["check", "--examples", "0"]),
    (lambda: sushigo.endgame(hands="squid / salmon", taken=f"{TAKEN0} / {TAKEN1} squid"),
     ["endgame", "--hands", "squid / salmon", "--taken", f"{TAKEN0} / {TAKEN1} squid"]),  # IllegalMoveError
    (lambda: sushigo.puzzle(show=1000), ["puzzle", "--show", "1000"]),
    (lambda: sushigo.rules(players=9), ["rules", "--players", "9"]),
    (lambda: sushigo.play(players=2, seed=-1), ["play", "--players", "2", "--seed", "-1"]),
    (lambda: sushigo.play(players=3, seed=-2, games=5),
     ["play", "--players", "3", "--seed", "-2", "--games", "5"]),
    (lambda: sushigo.balance("official", vs="english", seed=-1, games=3),
     ["balance", "official", "--vs", "english", "--seed", "-1", "--games", "3"]),
]


def test_a_negative_seed_would_deal_a_positive_seeds_game() -> None:
    """Why play and balance refuse a negative first seed: Python's random.Random seeds with an
    int's absolute value, so -s deals exactly the game of s (and a run of games from -2 would
    play seeds 1 and 2 twice)."""
    from sushigo.spec.executor import play_game

    def deals(seed: int) -> list[object]:
        return [rnd.hands for rnd in play_game(3, seed).rounds]

    for s in (1, 2, 7):
        assert deals(-s) == deals(s)
    assert deals(1) != deals(2)


@pytest.mark.parametrize("bad", BAD, ids=[" ".join(b[1]) for b in BAD])
def test_bad_input_raises_the_one_class_with_the_cli_message(
    bad: tuple[Callable[[], Any], list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    call, argv = bad
    with pytest.raises(sushigo.InputError) as info:
        call()
    assert main(argv) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line == f"sushigo {argv[0]}: error: {info.value}"
    assert isinstance(info.value, ValueError)


def test_ruleset_lookup() -> None:
    assert sushigo.ruleset() == sushigo.OFFICIAL
    assert sushigo.ruleset("french") == sushigo.RULESETS["french"]
    each = sushigo.ruleset("official", maki_first_tie="each", pudding_penalty_2p=True)
    assert isinstance(each, sushigo.Ruleset)
    assert (each.maki_first_tie, each.pudding_penalty_2p) == ("each", True)
    with pytest.raises(sushigo.InputError, match="did you mean 'official'"):
        sushigo.ruleset("oficial")


def test_public_defaults_are_the_solvers() -> None:
    """The CLI lists choices and defaults without importing the solvers; they must not drift."""
    from sushigo.checks.runner import PROFILES
    from sushigo.solver import best as solver_best
    from sushigo.solver import diff as solver_diff
    from sushigo.solver import endgame as solver_endgame
    from sushigo.solver import scoresheet as solver_scoresheet

    from sushigo.api import best, check, diff, endgame, scoresheet

    assert best.ENGINES == solver_best.ENGINES
    assert check.PROFILES == PROFILES
    assert diff.DEFAULT_TIMEOUT * 1000 == solver_diff.DEFAULT_TIMEOUT_MS
    assert scoresheet.DEFAULT_RLIMIT == solver_scoresheet.DEFAULT_RLIMIT
    assert (endgame.OBJECTIVES, endgame.POLICIES, endgame.DEFAULT_MAX_NODES) == (
        solver_endgame.OBJECTIVES, solver_endgame.POLICIES, solver_endgame.DEFAULT_MAX_NODES)
    from sushigo.solver.search import STATUS_OPTIMAL

    assert best.STATUS_OPTIMAL == STATUS_OPTIMAL


def test_every_exported_name_is_documented() -> None:
    text = API_DOC.read_text(encoding="utf-8")
    documented = set(re.findall(r"^#+ `(?:sushigo\.)?(\w+)", text, flags=re.M))
    assert set(sushigo.__all__) <= documented, sorted(set(sushigo.__all__) - documented)
    assert all(hasattr(sushigo, name) for name in sushigo.__all__)


def test_the_examples_in_docs_api_run() -> None:
    result = doctest.testfile(str(API_DOC), module_relative=False, report=True,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 20
    assert result.failed == 0
