"""sushigo evaluate: regret against exact play (checked against a brute-force computation on the
reference solver), the adapter protocol and its breaches (issue 30 item 4)."""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from sushigo.solver import regret as R
from sushigo.solver.endgame import parse_position, solve_two, solve_two_reference
from sushigo.spec.cards import Card
from sushigo.spec.ruleset import OFFICIAL
from sushigo.spec.turns import apply_turn, format_turn, legal_turns

import sushigo
from sushigo.cli import main

ROOT = Path(__file__).resolve().parent.parent
SEED = 3


def _names(counts: Any) -> list[str]:
    return [Card(c).label for c in range(len(Card)) for _ in range(counts[c])]


def brute_force_regret(pos: Any, move: Any) -> Fraction:
    """V minus the move's value against player 1's equilibrium mix, every value found by the
    reference solver (every matrix whole) on positions rebuilt from their JSON."""
    doc = pos.to_json()
    swapped = dict(doc, hands=doc["hands"][::-1], taken=doc["taken"][::-1],
                   puddings=doc["puddings"][::-1], scores=doc["scores"][::-1])
    theirs = solve_two_reference(parse_position(swapped))
    v = -Fraction(theirs.value)
    got = Fraction(0)
    for b, p in theirs.mix:
        hands = [list(h) for h in pos.hands]
        tabs = [list(t) for t in pos.tableaux]
        apply_turn(hands[0], tabs[0], move, OFFICIAL)
        apply_turn(hands[1], tabs[1], b, OFFICIAL)
        after = dict(doc, hands=[_names(hands[1]), _names(hands[0])],  # two players swap hands
                     taken=[doc["taken"][0] + [format_turn(move)], doc["taken"][1] + [format_turn(b)]])
        got += Fraction(p) * Fraction(solve_two_reference(parse_position(after)).value)
    return v - got


def test_regret_is_the_brute_force_value_lost() -> None:
    seen_positive = False
    for k in range(6):
        pos = R.position(SEED, k, OFFICIAL)
        for move in legal_turns(pos.hands[0], pos.tableaux[0], OFFICIAL):
            want = brute_force_regret(pos, move)
            assert R.regret(pos, move).regret == want
            seen_positive |= want > 0
    assert seen_positive  # the positions do have bad moves


def test_regret_is_zero_for_the_pure_equilibrium_move() -> None:
    pure = 0
    for k in range(9):
        pos = R.position(SEED, k, OFFICIAL)
        res = solve_two(pos)
        if len(res.mix) == 1:
            pure += 1
            assert R.regret(pos, res.mix[0][0]).regret == 0
    assert pure >= 3


def _adapter(tmp_path: Path, body: str, name: str = "bot.py") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return str(path)


def _evaluate(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["evaluate", *argv, "--json"]) == 0
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


def test_an_adapter_playing_the_equilibrium_has_no_regret(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    # The adapter looks its move up: the first move of player 0's equilibrium mix, per position.
    book = {}
    for k in range(8):
        pos = R.position(SEED, k, OFFICIAL)
        book[" ".join(_names(pos.hands[0])) + "/" + str(pos.tableaux)] = format_turn(solve_two(pos).mix[0][0])
    path = _adapter(tmp_path, f"""
        BOOK = {book!r}
        CARDS = {[c.label for c in Card]!r}
        def choose(obs):
            return BOOK[" ".join(obs["hand"]) + "/" + obs["key"]]
    """)
    # The observation has no "key": the adapter's KeyError is a broken protocol (exit 2) ...
    assert main(["evaluate", path, "--positions", "8", "--games", "0", "--seed", str(SEED)]) == 2
    err = capsys.readouterr().err
    assert "raised KeyError: 'key' at position 0" in err and err.count("\n") == 1
    # ... so it rebuilds the key from the tableaux it is shown.
    path = _adapter(tmp_path, f"""
        BOOK = {book!r}
        TOKENS = {[t.label for t in __import__('sushigo').Token]!r}
        def choose(obs):
            tabs = tuple(tuple(t.count(name) for name in TOKENS) for t in obs["tableaux"])
            return BOOK[" ".join(obs["hand"]) + "/" + str(tabs)]
    """)
    doc = _evaluate(capsys, path, "--positions", "8", "--games", "0", "--seed", str(SEED))
    assert doc["kind"] == "adapter" and doc["regret"]["mean"] == 0 and doc["regret"]["zero_share"] == 1


def test_a_bad_adapter_loses_what_brute_force_says(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = _adapter(tmp_path, """
        def choose(obs):
            return obs["options"][-1]
    """)
    doc = _evaluate(capsys, path, "--positions", "6", "--games", "0", "--seed", str(SEED))
    want = []
    for k in range(6):
        pos = R.position(SEED, k, OFFICIAL)
        want.append(brute_force_regret(pos, legal_turns(pos.hands[0], pos.tableaux[0], OFFICIAL)[-1]))
    assert doc["regret"]["mean"] == round(float(sum(want) / 6), 4) and sum(want) > 0
    assert doc["regret"]["max"] == round(float(max(want)), 4)


def test_greedy_is_evaluated_the_same_way_in_process_and_through_the_api(
        capsys: pytest.CaptureFixture[str]) -> None:
    doc = _evaluate(capsys, "greedy", "--positions", "5", "--games", "4", "--against", "random")
    assert doc["kind"] == "policy" and [a["policy"] for a in doc["against"]] == ["random"]
    assert doc["against"][0]["games"] == 4
    assert sushigo.evaluate("greedy", positions=5, games=4, against="random") == doc


def test_the_same_bytes_with_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["evaluate", str(ROOT / "examples" / "policy_adapter.py"), "--positions", "3", "--games", "22",
            "--against", "greedy", "--json"]
    assert main(argv) == 0
    one = capsys.readouterr().out
    assert main([*argv, "--jobs", "2"]) == 0
    assert capsys.readouterr().out == one


@pytest.mark.parametrize(("body", "message"), [
    ("def choose(obs):\n    return ['squid', 'squid', 'squid']\n", "not a turn"),
    ("def choose(obs):\n    return 'pudding' if 'pudding' not in obs['hand'] else 'egg'\n"
     "    \n", "illegal turn"),
    ("def choose(obs):\n    return 3\n", "returned 3, not a turn"),
    ("def choose(obs):\n    raise ValueError('no idea')\n", "raised ValueError: no idea at position 0"),
    ("def choose(obs):\n    import time; time.sleep(5)\n", "timed out after 0.3 s at position 0"),
    ("def choose(obs):\n    import os; os._exit(3)\n", "exited with code 3 at position 0"),
    ("def pick(obs):\n    return obs['options'][0]\n", "has no function choose(observation)"),
    ("import sys\nsys.exit(4)\n", "called sys.exit(4) while loading"),
])
def test_a_broken_protocol_is_one_line_naming_the_position(body: str, message: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = _adapter(tmp_path, body)
    code = main(["evaluate", path, "--positions", "3", "--games", "0", "--call-timeout", "0.3"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and message in err and err.count("\n") == 1, err


def test_an_illegal_turn_names_the_turn_and_the_legal_ones(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = _adapter(tmp_path, """
        def choose(obs):
            missing = [c for c in ("squid", "egg", "salmon", "tempura") if c not in obs["hand"]]
            return [missing[0]]
    """)
    assert main(["evaluate", path, "--positions", "2", "--games", "0"]) == 2
    err = capsys.readouterr().err
    pos = R.position(0, 0, OFFICIAL)
    assert f"round {pos.round}, turn {10 - pos.cards_left + 1}, seat 0" in err
    assert "illegal turn" in err and "legal: " in err


@pytest.mark.parametrize(("argv", "message"), [
    (["gredy"], "did you mean 'greedy'?"),
    (["nothere.py"], "adapter file 'nothere.py' does not exist"),
    (["greedy", "--positions", "0"], "--positions must be a whole number from 1"),
    (["greedy", "--against", "random,gredy"], "did you mean 'greedy'?"),
    (["greedy", "--call-timeout", "nan"], "--call-timeout must be a number of seconds"),
])
def test_bad_input(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["evaluate", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


@pytest.mark.slow
def test_the_example_adapter_beats_greedy_in_regret_and_in_games(capsys: pytest.CaptureFixture[str]) -> None:
    """issue 30: evaluate orders the example adapter and greedy as the ladder does."""
    example = str(ROOT / "examples" / "policy_adapter.py")
    mine = _evaluate(capsys, example, "--positions", "200", "--games", "100", "--against", "greedy")
    greedy = _evaluate(capsys, "greedy", "--positions", "200", "--games", "0")
    assert mine["regret"]["mean"] < greedy["regret"]["mean"]
    assert mine["against"][0]["win_share_ci95"][0] > 0.5
