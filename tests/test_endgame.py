"""Endgame search: hand-worked positions, and a naive second implementation on small positions.

The naive solver below keeps whole tableaux (no reduction, no memo), takes every
legal turn without de-duplication, and scores the leaves with
:func:`spec.scoring.score_round` on :class:`spec.tableau.Tableau` values; the
search under test reduces tableaux, merges turns and memoises states.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from sushigo.solver.endgame import (
    EndgameResult,
    Position,
    greedy_first_pick,
    parse_position,
    random_position,
    solve_multi,
    solve_position,
    solve_two,
)
from sushigo.solver.matrixgame import Number, solve
from sushigo.spec.cards import Card, Token
from sushigo.spec.errors import InputError, SushiGoError
from sushigo.spec.ruleset import OFFICIAL, RULESETS, Ruleset, get_ruleset
from sushigo.spec.scoring import pudding_points, score_round, winners
from sushigo.spec.tableau import Tableau
from sushigo.spec.turns import Turn, apply_turn, format_turn, legal_turns

from sushigo.cli import main

# ----------------------------------------------------------------------------- hand-worked

# Round 1, one card left each. Player 0 has wasabi, tempura*2, sashimi*3, dumpling*3 and takes squid
# (on the wasabi): 9 + 5 + 10 + 6 = 30. Player 1 has maki3 maki2 (5 icons, alone: 6), egg 1,
# salmon 2, pudding, tempura (0), dumpling*2 (3), chopsticks, then salmon 2: 6+1+2+3+2 = 14.
HAND_WORKED: dict[str, Any] = {
    "rules": "official",
    "round": 1,
    "hands": [["squid"], ["salmon"]],
    "taken": [
        [["wasabi"], ["tempura"], ["tempura"], ["sashimi"], ["sashimi"], ["sashimi"],
         ["dumpling"], ["dumpling"], ["dumpling"]],
        [["maki3"], ["maki2"], ["egg"], ["salmon"], ["pudding"], ["tempura"], ["dumpling"],
         ["dumpling"], ["chopsticks"]],
    ],
}


def test_hand_worked_last_card() -> None:
    pos = parse_position(HAND_WORKED)
    assert solve_two(pos, "diff").value == 30 - 14
    assert solve_two(pos, "own").value == 30
    assert solve_two(pos, "win").value == 1


def test_hand_worked_final_round_with_puddings_and_scores() -> None:
    # Round 3 with earlier scores 10 / 5 and earlier puddings 0 / 3: player 1 ends with 4 puddings
    # and takes the +6 for most (2 players: no penalty). Totals 10+30 = 40 and 5+14+6 = 25.
    data = dict(HAND_WORKED, round=3, puddings=[0, 3], scores=[10, 5])
    pos = parse_position(data)
    assert solve_two(pos, "diff").value == 40 - 25
    assert solve_two(pos, "own").value == 40
    # With the 2-player penalty read in, player 0 (fewest, 0) also loses 6.
    assert solve_two(parse_position(data, RULESETS["pudding-penalty-2p"]), "diff").value == 40 - 6 - 25


def test_hand_worked_chopsticks_two_cards() -> None:
    # Player 0 holds chopsticks from an earlier turn and sees tempura*2: taking both with chopsticks
    # completes a pair (5) and passes the chopsticks on; player 1 then gets the chopsticks (0).
    # Otherwise player 0 gets one tempura (0 points, tempura alone) and player 1 passes back something.
    # Player 1's hand (egg, egg): they take an egg either way, and their last card is whatever comes.
    data = {
        "round": 1,
        "hands": [["tempura", "tempura"], ["egg", "egg"]],
        "taken": [
            [["chopsticks"], ["maki1"], ["maki1"], ["maki1"], ["pudding"], ["pudding"], ["pudding"],
             ["pudding"]],
            [["dumpling"], ["dumpling"], ["dumpling"], ["dumpling"], ["dumpling"], ["pudding"],
             ["pudding"], ["pudding"]],
        ],
    }
    pos = parse_position(data)
    # Both tempura now: player 0 has 5 + maki (3 icons vs 0: 6) + egg later = 12; player 1: dumpling*5
    # 15 + egg 1 + chopsticks 0 = 16: diff -4. One tempura now: player 0 gets tempura + egg (1) -> the
    # last card player 0 receives is player 1's other egg: 6 + 0 + 1 = 7, player 1 gets egg + tempura:
    # 15 + 1 = 16: diff -9. So chopsticks on tempura tempura is best, value -4.
    res = solve_two(pos, "diff")
    assert res.value == -4
    assert [format_turn(t) for t in res.best_picks] == [["tempura", "tempura"]]
    assert res.line[1][1] == (res.line[1][1][0],) and res.line[1][1][0].card == Card.CHOPSTICKS


# ----------------------------------------------------------------------------- naive solver


def _leaf(pos: Position, tabs: Sequence[Sequence[int]], objective: str) -> int:
    rules = pos.rules
    tableaux = [Tableau(tuple(t)) for t in tabs]
    scores = score_round(tableaux, rules)
    totals = [pos.scores[p] + scores[p].total for p in range(pos.players)]
    puds = [pos.puddings[p] + tableaux[p].card_counts()[int(Card.PUDDING)] for p in range(pos.players)]
    if pos.round == rules.rounds:
        pp = pudding_points(puds, rules)
        totals = [t + q for t, q in zip(totals, pp, strict=True)]
    if objective == "diff":
        return totals[0] - totals[1]
    if objective == "own":
        return totals[0]
    w = winners(totals, puds, rules)
    return 1 if w == [0] else -1 if w == [1] else 0


def _step(pos: Position, hands: Sequence[Sequence[int]], tabs: Sequence[Sequence[int]],
          turns: Sequence[Turn]) -> tuple[list[list[int]], list[list[int]]]:
    n = pos.players
    rests, new_tabs = [], []
    for p in range(n):
        h, t = list(hands[p]), list(tabs[p])
        apply_turn(h, t, turns[p], pos.rules)
        rests.append(h)
        new_tabs.append(t)
    off = pos.rules.pass_offset(pos.round - 1)
    return [rests[(q - off) % n] for q in range(n)], new_tabs


def naive_two(pos: Position, objective: str) -> tuple[Number, dict[tuple[str, ...], Number]]:
    """(value, pure guarantee per first pick) by plain recursion."""

    def rec(hands: Sequence[Sequence[int]], tabs: Sequence[Sequence[int]]) -> tuple[Number, Number]:
        if not any(hands[0]):
            leaf = _leaf(pos, tabs, objective)
            return leaf, leaf
        o0 = legal_turns(hands[0], tabs[0], pos.rules, dedupe=False)
        o1 = legal_turns(hands[1], tabs[1], pos.rules, dedupe=False)
        mixed: list[list[Number]] = []
        pure: list[list[Number]] = []
        for a in o0:
            rv: list[Number] = []
            rp: list[Number] = []
            for b in o1:
                v, p = rec(*_step(pos, hands, tabs, (a, b)))
                rv.append(v)
                rp.append(p)
            mixed.append(rv)
            pure.append(rp)
        return solve(mixed).value, max(min(r) for r in pure)

    guarantees: dict[tuple[str, ...], Number] = {}
    for a in legal_turns(pos.hands[0], pos.tableaux[0], pos.rules, dedupe=False):
        worst = min(
            rec(*_step(pos, pos.hands, pos.tableaux, (a, b)))[1]
            for b in legal_turns(pos.hands[1], pos.tableaux[1], pos.rules, dedupe=False)
        )
        guarantees[tuple(format_turn(a))] = worst
    return rec(pos.hands, pos.tableaux)[0], guarantees


_POOL = ("wasabi", "chopsticks", "squid", "salmon", "egg", "tempura", "sashimi", "maki3", "maki2",
         "pudding", "dumpling")


def crafted(seed: int, k: int, players: int = 2, rules: Ruleset = OFFICIAL, rnd: int = 1) -> Position:
    """A valid position rich in chopsticks and wasabi: each player took chopsticks and wasabi early."""
    rng = random.Random(seed)
    for _ in range(100):
        try:
            return _crafted_try(rng, k, players, rules, rnd)
        except InputError:  # too many copies of some card: draw again
            continue
    raise AssertionError("no valid crafted position")


def _crafted_try(rng: random.Random, k: int, players: int, rules: Ruleset, rnd: int) -> Position:
    size = rules.hand_size(players)
    fill = ["tempura", "sashimi", "dumpling", "maki1", "maki2", "egg", "salmon", "pudding"]
    taken = []
    for p in range(players):
        # Seats 0 and 1 hold chopsticks (in both orders with a wasabi); later seats a wasabi only.
        turns = [[["chopsticks"], ["wasabi"]], [["wasabi"], ["chopsticks"]]][p] if p < 2 else [
            ["wasabi"], [rng.choice(fill)]]
        turns += [[rng.choice(fill)] for _ in range(size - k - 2)]
        taken.append(turns)
    hands = [[rng.choice(_POOL) for _ in range(k)] for _ in range(players)]
    data = {"round": rnd, "hands": hands, "taken": taken,
            "puddings": [rng.randint(0, 1) if rnd > 1 else 0 for _ in range(players)],
            "scores": [rng.randint(0, 20) if rnd > 1 else 0 for _ in range(players)]}
    return parse_position(data, rules)


def _check_against_naive(pos: Position, objective: str) -> Number:
    res = solve_two(pos, objective)
    value, guarantees = naive_two(pos, objective)
    assert res.status == "solved"
    assert res.value == value
    for pv in res.first_picks:
        assert guarantees[tuple(format_turn(pv.turn))] == pv.guarantee
    assert {p.guarantee for p in res.first_picks} == set(guarantees.values())
    assert sum(p for _, p in res.mix) == 1
    assert max(p.guarantee for p in res.first_picks) <= value
    assert len(res.line) == pos.cards_left
    return value


CASES = [
    (rules, rnd, k, seed)
    for rules in ("official", "wasabi-optional", "wasabi-strict", "french", "pass-both-ways",
                  "pudding-penalty-2p", "dutch")
    for rnd in (1, 3)
    for k, seed in ((2, 1), (3, 2), (3, 5))
]


@pytest.mark.parametrize(("rules", "rnd", "k", "seed"), CASES)
def test_crafted_positions_match_naive(rules: str, rnd: int, k: int, seed: int) -> None:
    values = []
    for objective in ("diff", "own", "win"):
        pos = crafted(seed * 31 + k, k, rules=get_ruleset(rules), rnd=rnd)
        values.append(_check_against_naive(pos, objective))


def test_random_positions_match_naive_and_mixing_happens() -> None:
    fractional = 0
    for seed in range(40):
        k = 2 + seed % 3
        pos = random_position(seed, 2, k, OFFICIAL, 1 + seed % 3)
        v = _check_against_naive(pos, "diff")
        fractional += isinstance(v, Fraction) and v.denominator != 1
    for seed in range(60):
        v = _check_against_naive(crafted(1000 + seed, 2 + seed % 2), "diff")
        fractional += isinstance(v, Fraction) and v.denominator != 1
    # The mixed-strategy path must really be exercised by these comparisons.
    assert fractional >= 1


# ----------------------------------------------------------------------------- three to five players


def naive_paranoid(pos: Position) -> dict[tuple[str, ...], int]:
    def rec(hands: Sequence[Sequence[int]], tabs: Sequence[Sequence[int]]) -> int:
        if not any(hands[0]):
            return _own(pos, tabs)
        return max(worst(hands, tabs, a) for a in legal_turns(hands[0], tabs[0], pos.rules))

    def worst(hands: Sequence[Sequence[int]], tabs: Sequence[Sequence[int]], a: Turn) -> int:
        others = [legal_turns(hands[p], tabs[p], pos.rules, dedupe=False) for p in range(1, pos.players)]
        return min(rec(*_step(pos, hands, tabs, (a, *joint))) for joint in itertools.product(*others))

    return {tuple(format_turn(a)): worst(pos.hands, pos.tableaux, a)
            for a in legal_turns(pos.hands[0], pos.tableaux[0], pos.rules)}


def _own(pos: Position, tabs: Sequence[Sequence[int]]) -> int:
    tableaux = [Tableau(tuple(t)) for t in tabs]
    total = pos.scores[0] + score_round(tableaux, pos.rules)[0].total
    if pos.round == pos.rules.rounds:
        puds = [pos.puddings[p] + tableaux[p].card_counts()[int(Card.PUDDING)] for p in range(pos.players)]
        total += pudding_points(puds, pos.rules)[0]
    return total


def naive_greedy(pos: Position, hand: Sequence[int], tabs: Sequence[Sequence[int]], seat: int) -> Turn:
    """Greedy written from its definition: most immediate round points, first in legal order on ties."""
    def points(tables: Sequence[Sequence[int]]) -> int:
        return score_round([Tableau(tuple(t)) for t in tables], pos.rules)[seat].total

    before = points(tabs)
    best: Turn | None = None
    best_gain = 0
    for turn in legal_turns(hand, tabs[seat], pos.rules):
        h, t = list(hand), list(tabs[seat])
        apply_turn(h, t, turn, pos.rules)
        tables = [list(x) for x in tabs]
        tables[seat] = t
        gain = points(tables) - before
        if best is None or gain > best_gain:
            best, best_gain = turn, gain
    assert best is not None
    return best


def naive_policy(pos: Position) -> dict[tuple[str, ...], int]:
    def rec(hands: Sequence[Sequence[int]], tabs: Sequence[Sequence[int]]) -> int:
        if not any(hands[0]):
            return _own(pos, tabs)
        return max(after(hands, tabs, a) for a in legal_turns(hands[0], tabs[0], pos.rules))

    def after(hands: Sequence[Sequence[int]], tabs: Sequence[Sequence[int]], a: Turn) -> int:
        joint = [naive_greedy(pos, hands[p], tabs, p) for p in range(1, pos.players)]
        return rec(*_step(pos, hands, tabs, (a, *joint)))

    return {tuple(format_turn(a)): after(pos.hands, pos.tableaux, a)
            for a in legal_turns(pos.hands[0], pos.tableaux[0], pos.rules)}


def _same_picks(res: EndgameResult, expect: dict[tuple[str, ...], int]) -> None:
    # The search lists turns with the same outcome once (e.g. "dumpling chopsticks" from a hand of
    # dumpling and chopsticks leaves exactly what "dumpling" leaves), so compare per pick and as sets.
    got = {tuple(format_turn(p.turn)): p.guarantee for p in res.first_picks}
    assert all(expect[k] == v for k, v in got.items())
    assert set(got.values()) == set(expect.values())
    assert res.value == max(expect.values())


@pytest.mark.parametrize(("players", "k", "seed", "rules", "rnd"), [
    (3, 2, 1, "official", 1), (3, 2, 2, "pass-both-ways", 2), (3, 3, 3, "official", 3),
    (4, 2, 4, "french", 3), (5, 2, 5, "official", 3), (4, 2, 6, "wasabi-optional", 1),
])
def test_paranoid_and_policy_match_naive(players: int, k: int, seed: int, rules: str, rnd: int) -> None:
    for pos in (random_position(seed, players, k, get_ruleset(rules), rnd),
                crafted(seed, k, players, get_ruleset(rules), rnd)):
        _same_picks(solve_multi(pos), naive_paranoid(pos))
        _same_picks(solve_multi(pos, "greedy"), naive_policy(pos))
        greedy = naive_greedy(pos, pos.hands[0], pos.tableaux, 0)
        assert format_turn(greedy_first_pick(pos)) == format_turn(greedy)


def test_two_players_against_greedy_is_at_least_the_zero_sum_own_value() -> None:
    # A fixed opponent can only be easier than one minimising your score.
    for seed in range(10):
        pos = random_position(seed, 2, 4)
        assert solve_position(pos, policy="greedy").value >= solve_two(pos, "own").value  # type: ignore[operator]


def test_budget_exhausted_is_unknown_not_a_guess() -> None:
    pos = random_position(7, 2, 6)
    res = solve_two(pos, "diff", max_nodes=50)
    assert res.status == "unknown" and res.value is None and "budget" in (res.reason or "")


# ----------------------------------------------------------------------------- validation and CLI


def _bad(data: dict[str, Any], words: str, rules: Ruleset | None = None) -> None:
    with pytest.raises(SushiGoError) as info:
        parse_position(data, rules)
    assert words in str(info.value)


def test_validation_errors() -> None:
    _bad(dict(HAND_WORKED, hands=[["squid", "egg"], ["salmon"]]), "same number of cards")
    two_each = dict(HAND_WORKED, hands=[["squid", "egg"], ["salmon", "egg"]])
    _bad(two_each, "cards in hand + turns taken must be 10")
    _bad(dict(HAND_WORKED, hands=[["squib"], ["salmon"]]), "did you mean 'squid'")
    _bad(dict(HAND_WORKED, round=4), '"round" must be 1..3')
    _bad(dict(HAND_WORKED, puddings=[1, 0]), "round 1 has no earlier rounds")
    _bad(dict(HAND_WORKED, hands=[["squid"]], taken=[HAND_WORKED["taken"][0]]), "1 hands given")
    _bad(dict(HAND_WORKED), "dummy-2p: give 3 hands", RULESETS["dummy-2p"])
    _bad(dict(HAND_WORKED, extra=1), "unknown key")
    many = dict(HAND_WORKED, round=3, puddings=[6, 4])  # 10 earlier + 1 taken this round > 10 copies
    _bad(many, "11 pudding cards in play")
    # A two-card turn needs chopsticks taken on an earlier turn.
    early = json.loads(json.dumps(HAND_WORKED))
    early["taken"][0][1] = ["tempura", "tempura"]
    early["taken"][0][2] = ["sashimi"]
    _bad(early, "R-CHOPSTICKS-EARLIER")
    squids = json.loads(json.dumps(HAND_WORKED))
    squids["taken"][1] = [["squid"]] * 9  # 9 + 1 in hand > 5 copies... plus player 0's squid
    _bad(squids, "squid cards in play")


def test_cli_json_contract(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(random_position(3, 2, 3).to_json()))
    assert main(["endgame", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["objective"] == "diff"
    assert set(out) >= {"value", "objective", "first_picks", "mix", "line"}
    assert all(set(p) >= {"pick", "guarantee"} for p in out["first_picks"])
    assert abs(sum(m["p"] for m in out["mix"]) - 1) < 1e-9
    assert len(out["line"]) == 3 and all(len(step) == 2 for step in out["line"])


def test_cli_text_form_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    taken0 = "wasabi,tempura,tempura,sashimi,sashimi,sashimi,dumpling,dumpling,dumpling"
    taken1 = "maki3,maki2,egg,salmon,pudding,tempura,dumpling,dumpling,chopsticks"
    assert main(["endgame", "--hands", "squid / salmon", "--taken", f"{taken0} / {taken1}", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == 16
    assert main(["endgame", "--hands", "squid / salmon"]) == 2
    assert "turns taken must be 10" in capsys.readouterr().err
    assert main(["endgame", "--hands", "squid / salmon", "--taken", f"{taken0} / {taken1}",
                 "--rules", "dummy-2p"]) == 2
    assert "dummy-2p: give 3 hands" in capsys.readouterr().err
    assert main(["endgame", "/nonexistent/pos.json"]) == 2
    assert main(["endgame", "--hands", "squid / salmon", "--taken", f"{taken0} / {taken1}",
                 "--objective", "diff", "--policy", "greedy"]) == 2


def test_tokens_reexported() -> None:
    # The search's reduction keeps only counts that can still matter; the leaf score must still
    # see every maki icon: a position where maki decides the winner.
    data = dict(HAND_WORKED)
    pos = parse_position(data)
    assert pos.tableaux[1][int(Token.MAKI3)] == 1


def _swapped(pos: Position) -> Position:
    return Position(pos.rules, pos.round, pos.hands[::-1], pos.taken[::-1], pos.tableaux[::-1],
                    pos.puddings[::-1], pos.scores[::-1])


@pytest.mark.parametrize("seed", range(8))
def test_zero_sum_symmetry_on_larger_positions(seed: int) -> None:
    # The same game seen from player 1: its value is the negation (the value of a finite zero-sum
    # game is unique), and each side's best pure guarantee bounds it from its own side.
    pos = random_position(500 + seed, 2, 4 + seed % 2, OFFICIAL, 1 + seed % 3)
    mine, theirs = solve_two(pos, "diff"), solve_two(_swapped(pos), "diff")
    assert mine.value is not None and theirs.value is not None
    assert mine.value == -theirs.value
    assert max(p.guarantee for p in mine.first_picks) <= mine.value
    assert max(p.guarantee for p in theirs.first_picks) <= theirs.value
    win_mine, win_theirs = solve_two(pos, "win"), solve_two(_swapped(pos), "win")
    assert win_mine.value is not None and win_theirs.value is not None
    assert win_mine.value == -win_theirs.value and -1 <= win_mine.value <= 1


def test_bad_budgets_and_random_position_arguments_are_refused_by_name() -> None:
    """A negative or non-number budget was taken as given (a time limit of -1 s solved, -5 nodes
    said unknown); a round past the last was dealt; a ruleset by name was an AttributeError."""
    pos = random_position(1, 2, 3)
    for engine in ("exact", "reference"):
        for kwargs, message in (({"max_nodes": -5}, "max_nodes -5: give a whole number of states"),
                                ({"max_nodes": 2.5}, "max_nodes 2.5"),
                                ({"time_limit": -1}, "time_limit -1: give seconds"),
                                ({"time_limit": float("nan")}, "time_limit nan"),
                                ({"time_limit": "10"}, "time_limit '10'")):
            with pytest.raises(InputError, match=message):
                solve_two(pos, "diff", engine=engine, **kwargs)
    with pytest.raises(InputError, match="time_limit -1"):
        solve_multi(random_position(1, 3, 2), time_limit=-1)
    assert solve_two(pos, "diff", max_nodes=0).status == "unknown"  # a budget of nothing: unknown
    assert solve_two(pos, "diff", time_limit=float("inf")).status == "solved"
    for bad in (0, 4, "1"):
        with pytest.raises(InputError, match=r"round_number .*: the rounds are 1..3"):
            random_position(1, 2, 3, OFFICIAL, bad)  # type: ignore[arg-type]
    with pytest.raises(InputError, match=r"rules must be a Ruleset"):
        random_position(1, 2, 3, "official")  # type: ignore[arg-type]
