"""dummy-2p endgames: positions cut from executor games, a naive solver, and the executor's own scores.

The naive solver follows the executor's reading of the variant (spec/executor.py): at turn t the
player t % 2 draws the pile's top card, takes a turn (two cards with chopsticks only when the hand
then holds at least 3), gives the dummy one card of what is left, and only then do used chopsticks
rejoin the hand; the dummy never uses chopsticks and is scored as a third seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from sushigo.solver.endgame import Position, parse_position, solve_dummy, solve_position
from sushigo.solver.matrixgame import Number, solve
from sushigo.spec.cards import Card
from sushigo.spec.executor import iter_game, play_game
from sushigo.spec.ruleset import RULESETS, Ruleset
from sushigo.spec.scoring import pudding_points, score_round, winners
from sushigo.spec.tableau import Tableau
from sushigo.spec.turns import Turn, apply_turn, format_turn, legal_turns

from sushigo.cli import main

DUMMY = RULESETS["dummy-2p"]
_CHOP = int(Card.CHOPSTICKS)


def cut(seed: int, rnd: int, turn: int, rules: Ruleset = DUMMY) -> tuple[dict[str, Any], Any]:
    """The position at ``turn`` (from 0) of round ``rnd`` (from 0) of an executor game, and its record."""
    rec = play_game(2, seed, rules, ["random", "random"])
    state = next(s for s in iter_game(2, seed, rules, ["random", "random"])
                 if s.round_index == rnd and s.turn == turn and s.phase in ("dealt", "turn"))
    rr = rec.rounds[rnd]
    names = [[Card(c).label for c in range(len(Card)) for _ in range(h[c])] for h in state.hands[:2]]
    data = {
        "rules": rules.name,
        "round": rnd + 1,
        "hands": [*names, [c.label for c in rr.hands[2][turn:]]],
        "taken": [[format_turn(rr.turns[t][s]) for t in range(turn)] for s in range(3)],
        "puddings": list(state.puddings),
        "scores": [sum(r[s] for r in state.scores) for s in range(3)],
    }
    return data, rec


def _actions(pos: Position, hand: Sequence[int], tab: Sequence[int], dtab: Sequence[int],
             draw: int | None) -> list[tuple[Turn, Turn | None, list[int], list[int], list[int]]]:
    rules = pos.rules
    out: list[tuple[Turn, Turn | None, list[int], list[int], list[int]]] = []
    if draw is None:
        for turn in legal_turns(hand, tab, rules, dedupe=False):
            h, t = list(hand), list(tab)
            apply_turn(h, t, turn, rules)
            out.append((turn, None, h, t, list(dtab)))
        return out
    held = list(hand)
    held[draw] += 1
    for turn in legal_turns(held, tab, rules, dedupe=False):
        if len(turn) == 2 and sum(held) < 3:
            continue
        h, t = list(held), list(tab)
        apply_turn(h, t, turn, rules)
        used = len(turn) == 2
        h[_CHOP] -= used
        stub = list(dtab)
        stub[_CHOP] = 0
        for gift in legal_turns(h, stub, rules, dedupe=False):
            hg, dt = list(h), list(dtab)
            apply_turn(hg, dt, gift, rules)
            hg[_CHOP] += used
            out.append((turn, gift, hg, t, dt))
    return out


def _totals(pos: Position, tabs: Sequence[Sequence[int]]) -> tuple[list[int], list[int]]:
    tableaux = [Tableau(tuple(t)) for t in tabs]
    scores = score_round(tableaux, pos.rules)
    totals = [pos.scores[k] + scores[k].total for k in range(3)]
    puds = [pos.puddings[k] + tableaux[k].card_counts()[int(Card.PUDDING)] for k in range(3)]
    if pos.final_round:
        totals = [a + b for a, b in zip(totals, pudding_points(puds, pos.rules), strict=True)]
    return totals, puds


def _payoff(pos: Position, tabs: Sequence[Sequence[int]], objective: str) -> int:
    totals, puds = _totals(pos, tabs)
    if objective == "diff":
        return totals[0] - totals[1]
    if objective == "own":
        return totals[0]
    w = winners(totals, puds, pos.rules, players=2)
    return 1 if w == [0] else -1 if w == [1] else 0


def naive(pos: Position, objective: str) -> tuple[Number, Number]:
    assert pos.pile is not None
    size = pos.rules.hand_size(2)
    first = size - pos.cards_left

    def rec(hands: Sequence[Sequence[int]], tabs: Sequence[Sequence[int]]) -> tuple[Number, Number]:
        if not any(hands[0]):
            leaf = _payoff(pos, tabs, objective)
            return leaf, leaf
        t = size - sum(hands[0])
        draw = int(pos.pile[t - first])  # type: ignore[index]
        a0 = _actions(pos, hands[0], tabs[0], tabs[2], draw if t % 2 == 0 else None)
        a1 = _actions(pos, hands[1], tabs[1], tabs[2], draw if t % 2 == 1 else None)
        mixed: list[list[Number]] = []
        pure: list[list[Number]] = []
        for _, g0, h0, t0, d0 in a0:
            rv: list[Number] = []
            rp: list[Number] = []
            for _, _g1, h1, t1, d1 in a1:
                v, p = rec([h1, h0], [t0, t1, d0 if g0 is not None else d1])
                rv.append(v)
                rp.append(p)
            mixed.append(rv)
            pure.append(rp)
        return solve(mixed).value, max(min(r) for r in pure)

    return rec(pos.hands, pos.tableaux)


def follow_record(pos: Position, rec: Any, rnd: int, turn: int) -> list[int]:
    """Play the recorded rest of the round with the naive rules; the final totals per seat."""
    assert pos.pile is not None
    hands = [list(h) for h in pos.hands]
    tabs = [list(t) for t in pos.tableaux]
    size = pos.rules.hand_size(2)
    for t in range(turn, size):
        step = rec.rounds[rnd].turns[t]
        draw = int(pos.pile[t - turn])
        rests = []
        for s in range(2):
            acts = _actions(pos, hands[s], tabs[s], tabs[2], draw if t % 2 == s else None)
            match = [a for a in acts if format_turn(a[0]) == format_turn(step[s])
                     and (a[1] is None or format_turn(a[1]) == format_turn(step[2]))]
            assert match, f"recorded turn {t} of seat {s} is not a legal action"
            _, gift, h, tb, dt = match[0]
            tabs[s] = tb
            if gift is not None:
                tabs[2] = dt
            rests.append(h)
        hands = [rests[1], rests[0]]
    return _totals(pos, tabs)[0]


CASES = [(seed, rnd, turn) for seed, rnd, turn in
         ((1, 0, 7), (2, 0, 6), (3, 1, 6), (4, 2, 7), (5, 2, 6), (6, 1, 7), (7, 0, 6), (8, 2, 6))]


@pytest.mark.parametrize(("seed", "rnd", "turn"), CASES)
def test_naive_rules_reproduce_the_executor_scores(seed: int, rnd: int, turn: int) -> None:
    data, rec = cut(seed, rnd, turn)
    pos = parse_position(data)
    totals = follow_record(pos, rec, rnd, turn)
    # The record's round scores (plus earlier rounds, plus pudding points after the last round).
    expect = [sum(rec.rounds[r].scores[s] for r in range(rnd + 1)) for s in range(3)]
    if rnd + 1 == DUMMY.rounds:
        expect = [a + b for a, b in zip(expect, rec.pudding, strict=True)]
    assert totals == expect


@pytest.mark.parametrize(("seed", "rnd", "turn"), CASES)
def test_search_matches_naive(seed: int, rnd: int, turn: int) -> None:
    pos = parse_position(cut(seed, rnd, turn)[0])
    for objective in ("diff", "own", "win"):
        res = solve_dummy(pos, objective)
        value, pure = naive(pos, objective)
        assert res.status == "solved"
        assert res.value == value
        assert max(p.guarantee for p in res.first_picks) == pure
        assert len(res.line) == pos.cards_left and all(len(step) == 3 for step in res.line)


def test_dummy_positions_are_checked() -> None:
    data, _ = cut(1, 0, 7)
    two = dict(data, hands=data["hands"][:2], taken=data["taken"][:2])
    with pytest.raises(Exception, match="give 3 hands"):
        parse_position(two)
    bad = dict(data, taken=[data["taken"][0], data["taken"][1], [["egg", "egg"], *data["taken"][2][1:]]])
    with pytest.raises(Exception, match=r"R-DUMMY|R-CHOPSTICKS"):
        parse_position(bad)
    with pytest.raises(Exception, match="not supported"):
        solve_position(parse_position(data), policy="greedy")


def test_cli_dummy(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    path = tmp_path / "d.json"
    path.write_text(json.dumps(cut(2, 0, 6)[0]))
    assert main(["endgame", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["line"][0]) == 3
    assert main(["endgame", str(path)]) == 0
    assert "dummy" in capsys.readouterr().out
