"""``sushigo best`` form 2 under dummy-2p: the search answer against the executor and a brute force.

Independent checks: every best line is written back into the game record and re-executed by
:func:`spec.executor.replay` (its own turn engine), which must accept it and give the same round
score; on rounds of 4 cards the optimum is compared with a brute force that tries every line of
the seat (a superset of the legal ones) and keeps the best the executor's replay accepts.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from sushigo.solver.best_dummy import dummy_hindsight_from_json, solve_dummy_hindsight
from sushigo.spec.cards import Card, parse_card
from sushigo.spec.executor import play_game, replay
from sushigo.spec.ruleset import RULESETS, Ruleset
from sushigo.spec.turns import Turn, apply_turn, format_turn, legal_turns, parse_turn

from sushigo.cli import main

DUMMY = RULESETS["dummy-2p"]


def _altered(game: dict[str, Any], rnd: int, seat: int, picks: list[Turn],
             gifts: list[list[str] | None]) -> dict[str, Any]:
    data = copy.deepcopy(game)
    turns = data["rounds"][rnd - 1]["turns"]
    for t, (turn, gift) in enumerate(zip(picks, gifts, strict=True)):
        turns[t][seat] = format_turn(turn)
        if gift is not None:
            turns[t][2] = gift
    return data


def _replayed_score(data: dict[str, Any], rnd: int, seat: int, rules: Ruleset) -> int | None:
    res = replay(data, rules, scores=False)
    if not res.ok or res.record is None:
        return None
    return res.record.rounds[rnd - 1].scores[seat]


# Rounds that the search answers in well under a second each (seed, round, seat).
CASES = [(2, 1, 0), (2, 3, 1), (3, 1, 1), (1, 3, 1), (0, 3, 1)]


@pytest.mark.parametrize(("seed", "rnd", "seat"), CASES)
def test_best_line_replays_through_the_executor(seed: int, rnd: int, seat: int) -> None:
    game = play_game(2, seed, DUMMY).to_json()
    res = solve_dummy_hindsight(dummy_hindsight_from_json(game, rnd, seat, DUMMY))
    actual = game["rounds"][rnd - 1]["scores"][seat]
    assert res.extra["actual"] == actual
    assert res.score >= actual
    data = _altered(game, rnd, seat, list(res.picks), res.extra["gifts"])
    assert _replayed_score(data, rnd, seat, DUMMY) == res.score


def _brute(game: dict[str, Any], rnd: int, seat: int, rules: Ruleset) -> int:
    """Every line of ``seat`` (own turn from its hand, any single card to the dummy), scored by replay."""
    rec = game["rounds"][rnd - 1]
    deal = [[0] * len(Card) for _ in range(2)]
    for s in range(2):
        for name in rec["hands"][s]:
            deal[s][int(parse_card(name))] += 1
    pile = [int(parse_card(name)) for name in rec["hands"][2]]
    size = len(pile)
    best = -1

    def go(t: int, hands: list[list[int]], tabs: list[list[int]], picks: list[Turn],
           gifts: list[list[str] | None]) -> None:
        nonlocal best
        if t == size:
            score = _replayed_score(_altered(game, rnd, seat, picks, gifts), rnd, seat, rules)
            if score is not None:
                best = max(best, score)
            return
        ctrl = t % 2
        hand = list(hands[seat])
        if ctrl == seat:
            hand[pile[t]] += 1
        for turn in legal_turns(hand, tabs[seat], rules, dedupe=False):
            h2, tab2 = list(hand), list(tabs[seat])
            apply_turn(h2, tab2, turn, rules)
            options: list[list[str] | None] = [None]
            if ctrl == seat:
                options = [[Card(c).label] for c in range(len(Card)) if h2[c] > 0]
            for gift in options:
                h3 = list(h2)
                if gift is not None:
                    h3[int(parse_card(gift[0]))] -= 1
                other = list(hands[1 - seat])
                if ctrl != seat:
                    other[pile[t]] += 1
                try:
                    o_tab = list(tabs[1 - seat])
                    apply_turn(other, o_tab, parse_turn(rec["turns"][t][1 - seat]), rules)
                    if ctrl != seat:
                        g = parse_turn(rec["turns"][t][2])
                        other[int(g[0].card)] -= 1
                except Exception:
                    continue
                new_hands = [list(other), list(h3)] if seat == 0 else [list(h3), list(other)]
                new_tabs = [list(x) for x in tabs]
                new_tabs[seat] = tab2
                new_tabs[1 - seat] = o_tab
                go(t + 1, new_hands, new_tabs, [*picks, turn], [*gifts, gift])

    go(0, deal, [[0] * 15 for _ in range(2)], [], [])
    return best


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_search_agrees_with_brute_force_on_rounds_of_four(seed: int) -> None:
    rules = dataclasses.replace(DUMMY, dummy_hand_size=4)
    game = play_game(2, seed, rules).to_json()
    for rnd, seat in ((1, 0), (2, 1)):
        res = solve_dummy_hindsight(dummy_hindsight_from_json(game, rnd, seat, rules))
        assert res.score == _brute(game, rnd, seat, rules), (seed, rnd, seat)


def test_cli_dummy_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    game = play_game(2, 2, DUMMY).to_json()
    path.write_text(json.dumps(game))
    assert main(["best", str(path), "--round", "1", "--seat", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "optimal" and out["engine"] == "search"
    assert out["actual"] == game["rounds"][0]["scores"][0] <= out["score"]
    assert main(["best", str(path), "--round", "1", "--seat", "0"]) == 0
    text = capsys.readouterr().out
    assert "exhaustive search" in text and "actual score" in text and "engine: search" in text
    assert main(["best", str(path), "--round", "1", "--seat", "2"]) == 2


def test_cli_dummy_round_json_form(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = play_game(2, 2, DUMMY).to_json()
    rnd = game["rounds"][0]
    path = tmp_path / "round.json"
    path.write_text(json.dumps({"rules": "dummy-2p", "deal": rnd["hands"], "turns": rnd["turns"], "seat": 0}))
    assert main(["best", str(path), "--json"]) == 0
    by_round = json.loads(capsys.readouterr().out)
    assert main(["best", str(path.parent / "game.json")]) == 2  # missing file: bad input
    capsys.readouterr()
    res = solve_dummy_hindsight(dummy_hindsight_from_json(game, 1, 0, DUMMY))
    assert by_round["score"] == res.score
    bad = dict(rnd, turns=rnd["turns"][:3])
    path.write_text(json.dumps({"rules": "dummy-2p", "deal": bad["hands"], "turns": bad["turns"], "seat": 0}))
    assert main(["best", str(path)]) == 2
