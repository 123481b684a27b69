"""Executor records fed into the Z3 turn model as facts.

A legal record must be satisfiable and force the recorded scores; a record with
one step made illegal must be unsatisfiable, its unsat core must name the rule
broken, and dropping that rule alone must make it satisfiable again. The
illegal steps are found by replaying the record with spec.turns (the pure turn
rules), independently of the model.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
import z3
from sushigo.spec.cards import Card
from sushigo.spec.executor import play_game
from sushigo.spec.model.facts import CheckResult, check, record_facts, tableau_of
from sushigo.spec.model.game import GameModel, build_game
from sushigo.spec.record import GameRecord
from sushigo.spec.ruleset import RULESETS, Ruleset
from sushigo.spec.turns import apply_turn, hand_counts, parse_turn

CHOP = int(Card.CHOPSTICKS)


def states(rec: dict[str, Any], rules: Ruleset, r: int) -> list[list[tuple[list[int], list[int]]]]:
    """(hand, tableau) of each seat at the start of each turn of round r, by the pure turn rules."""
    rnd = rec["rounds"][r]
    n = len(rnd["hands"])
    hands = [hand_counts(Card[c.upper()] for c in h) for h in rnd["hands"]]
    tabs = [[0] * 15 for _ in range(n)]
    out = []
    off = rules.pass_offset(r)
    for step in rnd["turns"]:
        out.append([(list(hands[i]), list(tabs[i])) for i in range(n)])
        for i in range(n):
            apply_turn(hands[i], tabs[i], parse_turn(step[i]), rules)
        hands = [hands[(j - off) % n] for j in range(n)]
    return out


def solve(gm: GameModel, rec: dict[str, Any], track: bool = False, exclude: tuple[str, ...] = (),
          upto: tuple[int, int] | None = None) -> CheckResult:
    facts = record_facts(gm, rec, upto=upto)
    return check(gm.model, facts, track=track, exclude=exclude, timeout_ms=60_000)


@pytest.mark.parametrize(
    ("name", "players", "seed"),
    [("official", 5, 3), ("wasabi-optional", 3, 5), ("wasabi-strict", 2, 8), ("pass-both-ways", 3, 13),
     ("french", 4, 21), ("dummy-2p", 2, 6)],
)
def test_recorded_game_is_sat_and_forces_the_recorded_scores(name: str, players: int, seed: int) -> None:
    rules = RULESETS[name]
    rec = play_game(players, seed, rules)
    gm = build_game(rules, players)
    res = check(gm.model, record_facts(gm, rec))
    assert res.status == "sat"
    for r, rr in enumerate(rec.rounds):
        assert [res.value(s["total"]) for s in gm.scores[r]] == list(rr.scores)
        assert [tableau_of(res, f) for f in gm.rounds[r].final] == list(rr.tableaux)
    assert [res.value(p) for p in gm.puddings] == list(rec.puddings)
    assert gm.pudding is not None and rec.pudding is not None
    assert [res.value(p) for p in gm.pudding] == list(rec.pudding)
    assert [res.value(t) for t in gm.totals] == list(rec.totals)
    assert [i for i, w in enumerate(gm.wins) if res.value(w)] == list(rec.winners)
    # The deal and the picks force the scores: any other total is impossible.
    other = [gm.totals[0] != rec.totals[0]]
    facts = [*record_facts(gm, rec), ("FACT", "not the recorded total", other)]
    assert check(gm.model, facts).status == "unsat"
    # Stated as facts too, everything in the record holds together.
    full = record_facts(gm, rec, tableaux=True, scores=True, end=True)
    assert check(gm.model, full).status == "sat"


def _record(players: int, seed: int, rules: Ruleset) -> dict[str, Any]:
    return play_game(players, seed, rules).to_json()


def _find(rec: dict[str, Any], rules: Ruleset, want: str) -> tuple[int, int, int, list[str]]:
    """(turn, seat, ...) of round 0 where an illegal replacement of the given kind can be made."""
    sts = states(rec, rules, 0)
    for t, row in enumerate(sts):
        for i, (hand, tab) in enumerate(row):
            picks = rec["rounds"][0]["turns"][t][i]
            if want == "not-in-hand":
                missing = [c for c in Card if hand[int(c)] == 0]
                if t >= 2 and missing:
                    return t, i, 0, [missing[0].label]
            elif want == "same-turn-chopsticks":
                others = [c for c in Card if hand[int(c)] > 0 and c != Card.CHOPSTICKS]
                if picks == ["chopsticks"] and tab[CHOP] == 0 and others:
                    return t, i, 0, ["chopsticks", others[0].label]
            elif want == "two-uses":
                cards = [c.label for c in Card for _ in range(hand[int(c)])]
                if tab[CHOP] >= 1 and len(cards) >= 3:
                    return t, i, 0, cards[:3]
    raise AssertionError(f"no place for {want} in this record; choose another seed")


@pytest.mark.parametrize(
    ("kind", "rule_id"),
    [("not-in-hand", "R-PICK"), ("same-turn-chopsticks", "R-CHOPSTICKS-EARLIER"),
     ("two-uses", "R-CHOPSTICKS-ONCE")],
)
def test_one_illegal_step_is_unsat_and_the_core_names_the_rule(kind: str, rule_id: str) -> None:
    rules = RULESETS["official"]
    for seed in range(40):
        rec = _record(3, seed, rules)
        try:
            t, i, _, picks = _find(rec, rules, kind)
        except AssertionError:
            continue
        break
    else:
        raise AssertionError(f"no seed below 40 gives a place for {kind}")
    gm = build_game(rules, 3, rounds=1)
    assert solve(gm, rec, upto=(0, t)).status == "sat"
    bad = copy.deepcopy(rec)
    bad["rounds"][0]["turns"][t][i] = picks
    # The record up to and including the altered step: later steps are left free.
    res = solve(gm, bad, track=True, upto=(0, t))
    assert res.status == "unsat"
    assert rule_id in res.core, res.core_labels
    assert any(f"|r0 t{t} p{i} pick|" in lab for lab in res.core_labels), res.core_labels
    if kind != "not-in-hand":
        # That rule is the culprit: without it the altered record is possible. (Not so for
        # R-PICK: without it the card's count goes negative and no later pick can mend it.)
        assert solve(gm, bad, exclude=(rule_id,), upto=(0, t)).status == "sat"
    # The whole altered record is impossible too.
    if kind != "two-uses":
        assert solve(gm, bad).status == "unsat"


def test_wrong_pass_direction_is_unsat_and_blamed_on_the_pass_rule() -> None:
    # Played under pass-both-ways, round 2 went right; checked as an official (pass-left) game.
    played = RULESETS["pass-both-ways"]
    rec = _record(3, 4, played)
    rec["rules"] = "official"
    rec["readings"]["passing"] = "left"
    rec["rounds"] = rec["rounds"][1:2]  # the right-passing round, as a one-round record
    gm = build_game(RULESETS["official"], 3, rounds=1)
    res = solve(gm, rec, track=True)
    assert res.status == "unsat"
    assert "R-PASS" in res.core, res.core_labels
    freed = solve(gm, rec, exclude=("R-PASS",))
    assert freed.status == "sat"
    assert freed.value(gm.rounds[0].pass_left) is False
    # The same round checked as the right-passing round it was is fine.
    gm2 = build_game(played, 3, rounds=2)
    rec2 = _record(3, 4, played)
    assert solve(gm2, rec2).status == "sat"


def test_wasabi_rules_name_their_ids() -> None:
    # Hand-built 2-player round: seat 0 takes wasabi, then a squid it keeps off the wasabi.
    rules = RULESETS["official"]
    hands = [["wasabi", "squid", "egg", "tempura", "tempura", "sashimi", "sashimi", "sashimi", "dumpling",
              "maki1"],
             ["chopsticks", "salmon", "egg", "tempura", "tempura", "sashimi", "dumpling", "dumpling",
              "pudding", "maki2"]]
    rec: dict[str, Any] = {
        "format": "sushigo-record/1", "rules": "official", "readings": rules.readings(), "seed": None,
        "players": 2, "policies": ["random", "random"],
        "rounds": [{"hands": hands, "turns": [[["wasabi"], ["chopsticks"]], [["egg:plain"], ["egg"]]]
                    + [[["tempura"], ["tempura"]]] * 8, "tableaux": ["-", "-"], "scores": [0, 0]}],
        "puddings": [0, 0], "pudding": None, "totals": [0, 0], "winners": [],
    }
    gm = build_game(rules, 2, rounds=1)
    res = solve(gm, rec, track=True, upto=(0, 1))
    assert res.status == "unsat" and "R-WASABI-PLACE" in res.core, res.core_labels
    opt = build_game(RULESETS["wasabi-optional"], 2, rounds=1)
    assert solve(opt, rec, upto=(0, 1)).status == "sat"
    # A nigiri on a wasabi that is not there.
    rec["rounds"][0]["turns"][1] = [["egg:wasabi"], ["egg:wasabi"]]
    res = solve(gm, rec, track=True, upto=(0, 1))
    assert res.status == "unsat" and "R-WASABI-ONE" in res.core, res.core_labels
    # wasabi then squid in one chopsticks turn: held under official, not under wasabi-strict.
    hands2 = [hands[1], hands[0]]
    rec["rounds"][0]["hands"] = hands2
    rec["rounds"][0]["turns"] = [[["chopsticks"], ["tempura"]], [["wasabi", "squid:wasabi"], ["egg"]]] + [
        [["tempura"], ["tempura"]]] * 8
    assert solve(gm, rec, upto=(0, 1)).status == "sat"
    strict = build_game(RULESETS["wasabi-strict"], 2, rounds=1)
    res = solve(strict, rec, track=True, upto=(0, 1))
    assert res.status == "unsat" and "R-WASABI-SAME-TURN" in res.core, res.core_labels


def test_dummy_takes_exactly_one_card() -> None:
    rules = RULESETS["dummy-2p"]
    rec = _record(2, 9, rules)
    gm = build_game(rules, 2, rounds=1)
    assert solve(gm, rec, upto=(0, 0)).status == "sat"
    first = rec["rounds"][0]["turns"][0]
    hand = [h for h in rec["rounds"][0]["hands"][0]] + [rec["rounds"][0]["hands"][2][0]]
    for c in first[0]:
        hand.remove(c.split(":")[0])
    hand.remove(first[2][0].split(":")[0])
    bad = copy.deepcopy(rec)
    bad["rounds"][0]["turns"][0][2] = [first[2][0], hand[0]]  # two cards for the dummy
    res = solve(gm, bad, track=True, upto=(0, 0))
    assert res.status == "unsat" and "R-DUMMY" in res.core, res.core_labels


def test_record_facts_reject_a_record_of_another_table() -> None:
    rec = GameRecord.from_json(_record(3, 1, RULESETS["official"]))
    gm = build_game(RULESETS["official"], 4, rounds=1)
    with pytest.raises(ValueError, match="seats"):
        record_facts(gm, rec)


def test_unknown_is_reported_with_its_budget() -> None:
    gm = build_game(RULESETS["official"], 5, rounds=1)
    res = check(gm.model, [("FACT", "x", [z3.BoolVal(True)])], rlimit=1)
    assert res.status == "unknown" and "rlimit 1" in res.reason


@pytest.mark.parametrize("name", list(RULESETS))
def test_first_round_of_a_game_under_every_named_ruleset(name: str) -> None:
    rules = RULESETS[name]
    players = 2 if rules.dummy_2p else 2 + len(name) % 4
    rec = play_game(players, len(name), rules)
    gm = build_game(rules, players, rounds=1)
    res = check(gm.model, record_facts(gm, rec))
    assert res.status == "sat"
    assert [res.value(s["total"]) for s in gm.scores[0]] == list(rec.rounds[0].scores)
    assert [tableau_of(res, f) for f in gm.rounds[0].final] == list(rec.rounds[0].tableaux)
