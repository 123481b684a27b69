"""``sushigo diff``: smallest witnesses, proofs of agreement, the two printed variants.

Every witness is re-scored outside the search that found it (spec.scoring, and
the executor for full games and pick sequences), and its minimality is checked
twice: the solver's own unsat proofs are present, and an independent brute force
over every smaller situation finds nothing. Expected values in the pinned
examples are worked by hand from the rules (RULES.md; the rulebook's variants).
"""

from __future__ import annotations

import itertools
import json
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sushigo.solver import diff as _diff_module
from sushigo.solver.diff import (
    DiffResult,
    diff_game,
    matrix,
    passing_agrees,
    record_from_tableaux,
    score_table,
    tables_differ,
)
from sushigo.spec.cards import Card, Token
from sushigo.spec.executor import play_game, replay
from sushigo.spec.ruleset import OFFICIAL, PARAMETER_BY_NAME, RULESETS, SINGLE_READING_VARIANTS, Ruleset
from sushigo.spec.scoring import score_round
from sushigo.spec.tableau import Tableau, parse_tableau
from sushigo.spec.turns import apply_turn, hand_counts, legal_turns

from sushigo.cli import main

# The solver's default budget is wall-clock; under a loaded machine it may run out and answer
# "unknown". The tests want the answer itself, so they give every query a generous budget.
TEST_TIMEOUT_MS = 600_000


def diff(*args: Any, **kwargs: Any) -> DiffResult:
    kwargs.setdefault("timeout_ms", TEST_TIMEOUT_MS)
    return _diff_module.diff(*args, **kwargs)

# the one parameter each single-reading variant changes
VARIANT_PARAM = {
    name: next(p for p, v in RULESETS[name].readings().items() if OFFICIAL.readings()[p] != v)
    for name in SINGLE_READING_VARIANTS
}


@cache
def _diff(name: str) -> DiffResult:
    return diff(OFFICIAL, RULESETS[name], extend=False)


# --------------------------------------------------------------------------- every variant


@pytest.mark.parametrize("name", SINGLE_READING_VARIANTS)
def test_variant_differs_and_names_its_parameter(name: str) -> None:
    res = _diff(name)
    assert res.status == "differ"
    w = res.witness
    assert w is not None
    param = VARIANT_PARAM[name]
    assert w.causes == (param,)
    assert PARAMETER_BY_NAME[param].rule_id in w.rule_ids
    assert any(r.differs for r in w.rows)


def _tables_up_to(players: int, seats: int, max_cards: int) -> list[list[Tableau]]:
    """Every table of ``seats`` tableaux holding at most ``max_cards`` cards in all (stack = 2)."""
    slots = [(s, t) for s in range(seats) for t in Token]
    out = []
    for n in range(max_cards + 1):
        for combo in itertools.combinations_with_replacement(slots, n):
            counts = [[0] * len(Token) for _ in range(seats)]
            for s, t in combo:
                counts[s][int(t)] += 1
            tabs = [Tableau(tuple(c)) for c in counts]
            if sum(t.size for t in tabs) <= max_cards:
                out.append(tabs)
    return out


TABLE_VARIANTS = [n for n in SINGLE_READING_VARIANTS if VARIANT_PARAM[n] not in
                  ("wasabi_placement", "wasabi_same_turn", "passing")]


@pytest.mark.parametrize("name", TABLE_VARIANTS)
def test_table_witness_rescored_and_minimal(name: str) -> None:
    b = RULESETS[name]
    w = _diff(name).witness
    assert w is not None and w.kind == "table"
    tabs = [parse_tableau(t) for t in w.situation["tableaux"]]
    assert sum(t.size for t in tabs) == w.cards
    # re-scored by spec.scoring under both rulesets: the results differ
    assert tables_differ(score_table(tabs, OFFICIAL, w.players), score_table(tabs, b, w.players), w.players)
    # the solver's proofs: unsat for every smaller player count, and for fewer cards
    for p in range(2, w.players):
        assert any(pr.players == p and pr.answer in ("unsat", "not-applicable") for pr in w.minimality)
    if w.cards > 0:
        assert any(pr.players == w.players and pr.max_cards == w.cards - 1 and pr.answer == "unsat"
                   for pr in w.minimality)
    # independent brute force: no table with fewer cards differs at this player count, and none
    # with as many cards at a smaller one
    seats = max(OFFICIAL.seats(w.players), b.seats(w.players))
    for tb in _tables_up_to(w.players, seats, w.cards - 1):
        assert not tables_differ(score_table(tb, OFFICIAL, w.players), score_table(tb, b, w.players),
                                 w.players), tb
    for p in range(2, w.players):
        for tb in _tables_up_to(p, p, min(w.cards, 2)):
            assert not tables_differ(score_table(tb, OFFICIAL, p), score_table(tb, b, p), p), tb


def test_table_witness_sizes_hand_worked() -> None:
    # maki ties need two tied seats (2 cards, 2 players) for "each"; "half" and "split" agree on a
    # 2-way tie (6//2 == 6//2... 3 == 3) so need 3 players; a second-place tie needs 3 players.
    # The pudding floor needs 4 tied for fewest and one with more: 5 players, 1 pudding.
    # Everyone tied on pudding / winner ties: the empty 2-player table (0 cards).
    expect = {
        "maki-first-each": (2, 2), "maki-first-half": (3, 3), "maki-second-each": (3, 3),
        "pudding-floor": (5, 1), "pudding-all-tied-both": (2, 0), "pudding-penalty-2p": (2, 1),
        "winner-tie-none": (2, 0), "dummy-2p": (2, 1), "wasabi-optional": (2, 2),
        "wasabi-strict": (2, 3), "pass-both-ways": (3, 6),
    }
    for name, size in expect.items():
        w = _diff(name).witness
        assert w is not None and (w.players, w.cards) == size, name


def test_dummy_witness_extends_to_full_dummy_game_replayed_by_executor() -> None:
    from sushigo.spec.scoring import score_game

    dummy = RULESETS["dummy-2p"]
    w = diff(OFFICIAL, dummy).witness
    assert w is not None and w.extension is not None and w.extension["status"] == "found"
    game = [[parse_tableau(t) for t in rd] for rd in w.extension["rounds"]]
    assert all(t.size == dummy.hand_size(2) for rd in game for t in rd)  # hands of 9, as dealt in dummy-2p
    res = replay(w.extension["record"], dummy)
    assert res.ok and res.score is not None, res.error
    # the players' tableaux scored without the dummy (official) differ from the dummy game
    plain = score_game([rd[:2] for rd in game], OFFICIAL, 2)
    assert (plain.totals, plain.winners) != (res.score.totals[:2], res.score.winners)
    # and the record is not a legal official game: three hands of 9 (R-DEAL)
    assert replay(w.extension["record"], OFFICIAL).rule_id == "R-DEAL"


@pytest.mark.parametrize("name", [n for n in TABLE_VARIANTS if n != "dummy-2p"])
def test_table_witness_extends_to_full_game_replayed_by_executor(name: str) -> None:
    b = RULESETS[name]
    res = diff(OFFICIAL, b)
    w = res.witness
    assert w is not None and w.extension is not None and w.extension["status"] == "found"
    game = [[parse_tableau(t) for t in rd] for rd in w.extension["rounds"]]
    size = OFFICIAL.hand_size(w.players)
    assert all(t.size == size for rd in game for t in rd)
    for t, wt in zip(game[0], w.situation["tableaux"], strict=True):  # round 1 holds the witness
        assert all(x >= y for x, y in zip(t.counts, parse_tableau(wt).counts, strict=True))
    record = record_from_tableaux(game, OFFICIAL, w.players)
    ra, rb = replay(record, OFFICIAL), replay(record, b)
    assert ra.ok, ra.error
    assert ra.score is not None and rb.score is not None
    sa, sb = ra.score, rb.score
    assert (sa.totals, sa.winners, sa.pudding, sa.rounds) != (sb.totals, sb.winners, sb.pudding, sb.rounds)


# --------------------------------------------------------------------------- wasabi: pick sequences


def _reach_legal_turns(turns: list[tuple[Card, ...]], rules: Ruleset) -> set[int]:
    """Reachable round scores of one seat: every legal turn taking exactly these cards (spec.turns)."""
    states = {tuple([0] * len(Token))}
    for cards in turns:
        want = sorted(cards)
        nxt = set()
        for tab in states:
            hand = hand_counts(cards)
            for turn in legal_turns(hand, list(tab), rules, dedupe=False):
                if sorted(p.card for p in turn) != want:
                    continue
                h, t = list(hand), list(tab)
                apply_turn(h, t, turn, rules)
                nxt.add(tuple(t))
        states = nxt
    return {score_round([Tableau(s)], rules)[0].total for s in states}


def _sequences(n: int) -> list[list[tuple[Card, ...]]]:
    """Every sequence of turns (1 or 2 cards each) taking ``n`` cards in all."""
    seqs: list[list[tuple[Card, ...]]] = []

    def rec(left: int, acc: list[tuple[Card, ...]]) -> None:
        if left == 0:
            seqs.append(list(acc))
            return
        for k in (1, 2):
            if k <= left:
                for cards in itertools.product(Card, repeat=k):
                    rec(left - k, [*acc, cards])

    rec(n, [])
    return seqs


@pytest.mark.parametrize("name", ["wasabi-optional", "wasabi-strict"])
def test_pick_witness_rescored_and_minimal(name: str) -> None:
    b = RULESETS[name]
    w = _diff(name).witness
    assert w is not None and w.kind == "picks"
    turns = [tuple(Card[c.upper()] for c in t) for t in w.situation["turns"]]
    assert sum(len(t) for t in turns) == w.cards
    assert _reach_legal_turns(turns, OFFICIAL) != _reach_legal_turns(turns, b)
    for n in range(1, w.cards):
        for seq in _sequences(n):
            assert _reach_legal_turns(seq, OFFICIAL) == _reach_legal_turns(seq, b), seq


def test_pick_witness_at_a_larger_table() -> None:
    res = diff(OFFICIAL, RULESETS["wasabi-optional"], players=[4], extend=False)
    assert res.witness is not None and (res.witness.players, res.witness.cards) == (4, 2)


def test_pick_witnesses_hand_worked() -> None:
    # optional placement: wasabi, then egg may stay off it (egg 1 + wasabi 0) or go on it (3)
    w = _diff("wasabi-optional").witness
    assert w is not None and w.situation["turns"] == [["wasabi"], ["egg"]]
    # strict same turn: chopsticks, then wasabi+egg in one turn: 3 (held) vs 1 (not held)
    w = _diff("wasabi-strict").witness
    assert w is not None and w.situation["turns"] == [["chopsticks"], ["wasabi", "egg"]]
    rows = {r.label: r for r in w.rows}
    assert rows["reachable scores"].a == "3" and rows["reachable scores"].b == "1"


def _two_player_round(script: list[list[str]]) -> dict[str, Any]:
    """A one-round 2-player record: seat 0 plays ``script`` first, everything else is filler.

    With 2 players seat 0 holds hand ``t % 2`` at turn ``t`` whatever the direction, so the
    script's cards of turn t are dealt into that hand; seat 1 and the rest take fillers.
    """
    size = OFFICIAL.hand_size(2)
    hands: list[list[Card]] = [[], []]
    for t, picks in enumerate(script):
        for p in picks:
            hands[t % 2].append(Card[p.split(":")[0].upper()])
    fillers = iter([Card.TEMPURA] * 14 + [Card.SASHIMI] * 14)
    for h in hands:
        while len(h) < size:
            h.append(next(fillers))
    cur = [hand_counts(hands[0]), hand_counts(hands[1])]
    tabs = [[0] * len(Token), [0] * len(Token)]
    turns = []
    from sushigo.spec.turns import parse_turn

    for t in range(size):
        step = []
        for s in (0, 1):
            if s == 0 and t < len(script):
                turn = parse_turn(script[t])
            else:
                # fillers first, so the script's cards stay for seat 0
                card = next(c for c in (Card.TEMPURA, Card.SASHIMI, *Card) if cur[s][int(c)] > 0)
                turn = (parse_turn([card.label]))
            apply_turn(cur[s], tabs[s], turn, OFFICIAL.replace(wasabi_placement="optional"))
            step.append([str(p) for p in turn])
        turns.append(step)
        cur = [cur[1], cur[0]]
    return {
        "format": "sushigo-record/1", "rules": "official", "seed": None, "players": 2,
        "policies": ["fixed", "fixed"],
        "rounds": [{"hands": [[c.label for c in h] for h in hands], "turns": turns,
                    "tableaux": ["-", "-"], "scores": [0, 0]}],
        "puddings": [0, 0], "pudding": None, "totals": [0, 0], "winners": [],
    }


def test_pick_witnesses_replayed_by_executor() -> None:
    # optional: keeping the egg off the wasabi is legal only where placement is optional
    rec = _two_player_round([["wasabi"], ["egg:plain"]])
    ra, rb = replay(rec, OFFICIAL), replay(rec, RULESETS["wasabi-optional"])
    assert ra.score is None and ra.rule_id == "R-WASABI-PLACE"
    assert rb.score is not None and rb.record is not None
    assert rb.record.rounds[0].tableaux[0][Token.EGG] == 1
    # strict: the same picks land differently (3 points of egg vs 1)
    rec = _two_player_round([["chopsticks"], ["wasabi", "egg"]])
    ra, rb = replay(rec, OFFICIAL), replay(rec, RULESETS["wasabi-strict"])
    assert ra.record is not None and rb.record is not None
    assert ra.record.rounds[0].tableaux[0][Token.WASABI_EGG] == 1
    assert rb.record.rounds[0].tableaux[0][Token.EGG] == 1
    assert ra.record.rounds[0].scores[0] - rb.record.rounds[0].scores[0] == 2


# --------------------------------------------------------------------------- pass both ways


def test_pass_both_ways_deal_witness_hand_worked() -> None:
    w = _diff("pass-both-ways").witness
    assert w is not None and w.kind == "deal" and (w.players, w.cards) == (3, 6)
    d = w.situation
    assert d["round"] == 2 and (d["offset_a"], d["offset_b"]) == (1, -1)
    hands = [[Card[c.upper()] for c in h] for h in d["hands"]]
    first = [Card[c.upper()] for c in d["first_picks"]]
    # by hand: after the first picks each hand holds one card; passing left seat i receives the
    # card left in hand i-1, passing right the card left in hand i+1
    rest = []
    for h, f in zip(hands, first, strict=True):
        r = list(h)
        r.remove(f)
        rest.append(r[0])
    for off, key in ((1, "scores_a"), (-1, "scores_b")):
        tabs = [Tableau.of([Token(int(first[i])), Token(int(rest[(i - off) % 3]))]) for i in range(3)]
        assert [s.total for s in score_round(tabs)] == d[key]
    assert d["scores_a"] != d["scores_b"]


def _homogeneous_record(offsets: tuple[int, int]) -> dict[str, Any]:
    """3 players, 2 rounds, every dealt hand a single kind, so every pick is forced.

    Round 1 hands dumpling/maki2/pudding x9, round 2 salmon/tempura/sashimi x9. At turn t seat s
    holds the hand dealt to seat s - offset*t.
    """
    kinds = [(Card.DUMPLING, Card.MAKI2, Card.PUDDING), (Card.SALMON, Card.TEMPURA, Card.SASHIMI)]
    rounds = []
    for r, off in enumerate(offsets):
        hands = [[k.label] * 9 for k in kinds[r]]
        turns = [[[kinds[r][(s - off * t) % 3].label] for s in range(3)] for t in range(9)]
        rounds.append({"hands": hands, "turns": turns, "tableaux": ["-"] * 3, "scores": [0] * 3})
    return {"format": "sushigo-record/1", "rules": "official", "seed": None, "players": 3,
            "policies": ["fixed"] * 3, "rounds": rounds, "puddings": [0] * 3, "pudding": None,
            "totals": [0] * 3, "winners": []}


def test_pass_both_ways_record_hand_worked() -> None:
    pbw = RULESETS["pass-both-ways"]
    rec = _homogeneous_record((1, -1))  # round 2 passes right
    res = replay(rec, pbw)
    assert res.score is not None, res.error
    # by hand: each seat takes 3 of each kind per round. Round 1: dumpling*3 = 6, maki2*3 = 6 icons
    # tied three ways = 6//3 = 2 -> 8. Round 2: salmon*3 = 6, tempura*3 = 5, sashimi*3 = 10 -> 21.
    assert [[s.total for s in rd] for rd in res.score.rounds] == [[8, 8, 8], [21, 21, 21]]
    # the same picks are not legal passing left in round 2: at turn 2 seat 0 holds seat 2's hand
    gd = diff_game(rec, pbw, OFFICIAL)
    assert gd.a.legal and not gd.b.legal
    assert "round 2, turn 2" in gd.b.error and "R-PICK" in gd.b.error


def test_pass_both_ways_same_at_two_players() -> None:
    assert passing_agrees(OFFICIAL, RULESETS["pass-both-ways"], 2)
    assert not passing_agrees(OFFICIAL, RULESETS["pass-both-ways"], 3)
    res = diff(OFFICIAL, RULESETS["pass-both-ways"], players=[2])
    assert res.status == "equivalent"
    assert [p.method for p in res.proofs] == ["structural"]
    # and the executor agrees: a 2-player game's record replays identically under both
    rec = play_game(2, 11).to_json()
    gd = diff_game(rec, OFFICIAL, RULESETS["pass-both-ways"])
    assert gd.comparable and not gd.scores_change and not gd.winner_changes


def test_pass_both_ways_executor_round_one_same_round_two_differs() -> None:
    a = play_game(3, 5, OFFICIAL)
    b = play_game(3, 5, RULESETS["pass-both-ways"])
    assert a.rounds[0] == b.rounds[0]
    assert a.rounds[1].hands == b.rounds[1].hands
    assert a.rounds[1].turns != b.rounds[1].turns


# --------------------------------------------------------------------------- dummy 2p


def test_dummy_scoring_hand_worked() -> None:
    dummy = RULESETS["dummy-2p"]
    # the witness: p0 holds the only pudding. Official 2p: +6 / 0 (no penalty with 2 players).
    # Dummy-2p: three seats, so p1 and the dummy tie for fewest and lose 6//2 = 3 each.
    tabs = [parse_tableau("pudding"), parse_tableau("-"), parse_tableau("-")]
    assert score_table(tabs, OFFICIAL, 2).pudding == (6, 0)
    assert score_table(tabs, dummy, 2).pudding == (6, -3, -3)
    # maki: the dummy takes first (5 icons), p0 second (3): 6 and 3 before, 3 and 0 with the dummy
    tabs = [parse_tableau("maki3"), parse_tableau("maki1"), parse_tableau("maki3 maki2")]
    assert score_table(tabs, OFFICIAL, 2).maki == (6, 3)
    assert score_table(tabs, dummy, 2).maki == (3, 0, 6)
    # the dummy never wins: it leads on points, the players tie and share
    tabs = [parse_tableau("-"), parse_tableau("-"), parse_tableau("squid")]
    assert score_table(tabs, dummy, 2).winners == (0, 1)


def _dummy_record() -> dict[str, Any]:
    """One dummy-2p round worked by hand (see the test for the scores).

    Hand A (p0) maki3*8 egg, hand B (p1) sashimi*9, pile maki2*9. The controller (p0 at even
    turns, p1 at odd) draws the maki2 and gives it to the dummy. Hand A is held by p0 at even
    turns and p1 at odd; both take maki3 until the egg is the last card (turn 9, p0).
    """
    turns = []
    for t in range(9):
        a_pick = "egg" if t == 8 else "maki3"
        row: list[list[str]] = [[], [], ["maki2"]]
        if t % 2 == 0:
            row[0], row[1] = [a_pick], ["sashimi"]
        else:
            row[1], row[0] = [a_pick], ["sashimi"]
        turns.append(row)
    return {
        "format": "sushigo-record/1", "rules": "dummy-2p", "seed": None, "players": 2,
        "policies": ["fixed", "fixed"],
        "rounds": [{"hands": [["maki3"] * 8 + ["egg"], ["sashimi"] * 9, ["maki2"] * 9], "turns": turns,
                    "tableaux": ["-"] * 3, "scores": [0] * 3}],
        "puddings": [0] * 3, "pudding": None, "totals": [0] * 3, "winners": [],
    }


def test_dummy_round_hand_worked_through_executor() -> None:
    dummy = RULESETS["dummy-2p"]
    res = replay(_dummy_record(), dummy)
    assert res.record is not None and res.score is not None, res.error
    tabs = res.record.rounds[0].tableaux
    # p0: maki3 at turns 1,3,5,7 (4), egg at 9, sashimi at 2,4,6,8 (4); p1: maki3*4, sashimi*5
    assert [str(t) for t in tabs] == ["sashimi*4 maki3*4 egg", "sashimi*5 maki3*4", "maki2*9"]
    # dummy 18 icons first (6); p0 and p1 tie second with 12: 3//2 = 1 each.
    # p0: sashimi*4 = 10, egg 1, maki 1 = 12. p1: sashimi*5 = 10, maki 1 = 11. dummy: 6.
    assert res.record.rounds[0].scores == (12, 11, 6)
    # without the dummy the players tie for first: 6//2 = 3 each -> 14 and 13
    assert [s.total for s in score_round(tabs[:2], OFFICIAL)] == [14, 13]
    gd = diff_game(_dummy_record(), dummy, OFFICIAL)
    assert gd.a.legal and not gd.b.legal and "R-DEAL" in gd.b.error


# --------------------------------------------------------------------------- proofs of agreement


@pytest.mark.parametrize(
    ("name", "players"),
    [
        ("pudding-penalty-2p", 3),  # the penalty with 2 players only
        ("pudding-penalty-2p", 5),
        ("maki-first-half", 2),  # a 2-way tie: 6//2 == 6//2 (3 each either way)
        ("maki-second-each", 2),  # second place has one player at 2 players
        ("pudding-floor", 4),  # 6//2 and 6//3 are exact; 4 tied for fewest means nobody has most
    ],
)
def test_no_effect_at_this_player_count_is_proved(name: str, players: int) -> None:
    res = diff(OFFICIAL, RULESETS[name], players=[players])
    assert res.status == "equivalent"
    assert len(res.proofs) == 1
    pr = res.proofs[0]
    assert (pr.players, pr.answer, pr.method) == (players, "unsat", "z3")
    assert pr.max_cards == players * OFFICIAL.hand_size(players)


def test_same_readings_proved_equivalent() -> None:
    res = diff(OFFICIAL, RULESETS["english"])
    assert res.status == "equivalent" and res.witness is None
    assert [p.players for p in res.proofs] == [2, 3, 4, 5]
    assert all(p.answer == "unsat" for p in res.proofs)


def test_dummy_not_compared_beyond_two_players() -> None:
    res = diff(OFFICIAL, RULESETS["dummy-2p"], players=[3])
    assert res.status == "not-applicable"


# --------------------------------------------------------------------------- --all, matrix, game


def test_all_gives_one_witness_per_cause() -> None:
    res = diff(OFFICIAL, RULESETS["slovenian"], all_causes=True, extend=False)
    assert sorted(w.causes[0] for w in res.witnesses) == ["pudding_penalty_rounding", "wasabi_placement"]
    sizes = {w.causes[0]: (w.players, w.cards) for w in res.witnesses}
    assert sizes == {"pudding_penalty_rounding": (5, 1), "wasabi_placement": (2, 2)}
    assert res.witness is not None and res.witness.causes == ("wasabi_placement",)  # the smallest


def test_all_witness_is_caused_by_its_parameter_alone() -> None:
    french = RULESETS["french"]
    res = diff(OFFICIAL, french, all_causes=True, extend=False)
    for w in res.witnesses:
        (p,) = w.causes
        tabs = [parse_tableau(t) for t in w.situation["tableaux"]]
        alone = OFFICIAL.replace(**{p: getattr(french, p)})
        assert tables_differ(score_table(tabs, OFFICIAL, w.players), score_table(tabs, alone, w.players),
                             w.players)
    # first-place tie: 2 players (maki1 vs maki1); second-place tie needs a clear first: 3 players
    assert {w.causes[0]: (w.players, w.cards) for w in res.witnesses} == {
        "maki_first_tie": (2, 2), "maki_second_tie": (3, 3)}


def test_matrix_subset() -> None:
    cells = matrix(["official", "english", "pudding-penalty-2p", "winner-tie-none"])
    by = {(c.a, c.b): c for c in cells}
    assert len(cells) == 6
    assert by[("official", "english")].status == "equivalent"
    pen = by[("official", "pudding-penalty-2p")]
    assert (pen.players, pen.cards) == (2, 1)
    assert by[("official", "winner-tie-none")].cards == 0


def test_game_rescored_matches_independent_scoring() -> None:
    from sushigo.spec.scoring import score_game

    rec = play_game(4, 3)
    b = RULESETS["maki-first-each"]
    gd = diff_game(rec.to_json(), OFFICIAL, b)
    assert gd.comparable
    want = score_game([list(r.tableaux) for r in rec.rounds], b, 4)
    assert gd.b.totals == want.totals and gd.b.winners == want.winners
    assert gd.a.totals == rec.totals


# --------------------------------------------------------------------------- CLI


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["diff", "official", "official", "--rule-b", "maki_first_tie=each", "--json", "--no-extend"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == "sushigo-diff/1" and out["status"] == "differ"
    assert out["differing_parameters"][0]["name"] == "maki_first_tie"
    w = out["witness"]
    assert (w["players"], w["cards"], w["kind"]) == (2, 2, "table")
    assert any(r["differs"] for r in w["rows"])


def test_cli_text_marks_cells(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "official", "pudding-penalty-2p", "--no-extend"]) == 0
    out = capsys.readouterr().out
    assert "DIFFER" in out and "R-PUDDING-2P" in out and "*" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["diff", "official", "frnech"],
        ["diff", "official"],
        ["diff", "official", "french", "--rule-b", "maki_first_tie=most"],
        ["diff", "official", "french", "--players", "7"],
        ["diff", "--matrix", "official"],
        ["diff", "official", "french", "--game", "/nonexistent/game.json"],
    ],
)
def test_cli_bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("sushigo diff: error:") and "Traceback" not in err


def test_cli_game(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(play_game(3, 9).to_json()))
    # Not legal under one side, so not comparable: exit 1 (issue 18, README).
    assert main(["diff", "official", "pass-both-ways", "--game", str(path)]) == 1
    out = capsys.readouterr().out
    assert "NOT LEGAL under pass-both-ways" in out
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sushigo-record/1"')
    assert main(["diff", "official", "french", "--game", str(bad)]) == 2
    seven = play_game(3, 9).to_json()
    seven["players"] = 7
    bad.write_text(json.dumps(seven))
    assert main(["diff", "official", "french", "--game", str(bad)]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_cli_game_json_scores_change(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    # the JSON answer agrees with an independent re-scoring of the recorded tableaux
    from sushigo.spec.scoring import score_game

    rec = play_game(4, 21)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(rec.to_json()))
    assert main(["diff", "official", "maki-second-each", "--game", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    want = score_game([list(r.tableaux) for r in rec.rounds], RULESETS["maki-second-each"], 4)
    assert out["b"]["totals"] == list(want.totals)
    assert out["scores_change"] == (tuple(want.totals) != rec.totals
                                    or [[s.total for s in rd] for rd in want.rounds]
                                    != [list(r.scores) for r in rec.rounds])


# ------------------------------------------------------------- property: nothing beats the witness

_SMALL_TOKENS = (Token.MAKI1, Token.MAKI2, Token.MAKI3, Token.PUDDING, Token.TEMPURA, Token.EGG)


@st.composite
def _random_table(draw: st.DrawFn) -> tuple[int, list[Tableau]]:
    players = draw(st.integers(2, 5))
    tabs = []
    for _ in range(players + 1):  # one spare seat for the dummy
        counts = [0] * len(Token)
        for t in _SMALL_TOKENS:
            counts[int(t)] = draw(st.integers(0, 2))
        tabs.append(Tableau(tuple(counts)))
    return players, tabs


@settings(max_examples=150)
@given(table=_random_table(), name=st.sampled_from(TABLE_VARIANTS))
def test_no_random_table_is_smaller_than_the_witness(table: tuple[int, list[Tableau]], name: str) -> None:
    players, tabs = table
    b = RULESETS[name]
    if b.dummy_2p and players != 2:
        return
    seats = b.seats(players)
    tabs = tabs[:seats]
    differs = tables_differ(score_table(tabs, OFFICIAL, players), score_table(tabs, b, players), players)
    w = _diff(name).witness
    assert w is not None
    if differs:  # a witness found by chance is never smaller than the solver's
        cards = sum(t.size for t in tabs)
        assert (players, cards) >= (w.players, w.cards)


def test_budget_exhausted_is_unknown_not_a_guess() -> None:
    res = diff(OFFICIAL, RULESETS["pudding-floor"], rlimit=1000, extend=False)
    assert res.status == "unknown" and res.witness is None
    assert "resource limit" in res.reason
    # with another search's witness in hand the answer still says what was not ruled out
    res = diff(OFFICIAL, RULESETS["slovenian"], rlimit=1000, extend=False)
    assert res.status == "differ" and "not ruled out" in res.reason


def test_all_lists_a_parameter_without_effect() -> None:
    # dummy-2p is played by 2 players only, where passing left and right is the same
    res = diff(RULESETS["dummy-2p"], RULESETS["pass-both-ways"], all_causes=True, extend=False)
    assert [w.causes for w in res.witnesses] == [("dummy_2p",)]
    (name, proofs), = res.no_effect
    assert name == "passing"
    assert [(p.players, p.answer) for p in proofs] == [
        (2, "unsat"), (3, "not-applicable"), (4, "not-applicable"), (5, "not-applicable")]


def test_every_named_pair_witness_rescored() -> None:
    """The whole matrix: each table witness differs under spec.scoring, each turn witness under
    spec.turns.legal_turns, and pairs with the same readings are the ones proved equivalent."""
    cells = matrix()
    assert len(cells) == len(RULESETS) * (len(RULESETS) - 1) // 2
    for c in cells:
        a, b = RULESETS[c.a], RULESETS[c.b]
        same = a.readings() == b.readings()
        assert (c.status == "equivalent") == same, (c.a, c.b, c.status)
        if same:
            continue
        assert c.result is not None and c.result.witness is not None
        w = c.result.witness
        if w.kind == "table":
            tabs = [parse_tableau(t) for t in w.situation["tableaux"]]
            seats = max(a.seats(w.players), b.seats(w.players))
            assert len(tabs) == seats
            assert tables_differ(score_table(tabs, a, w.players), score_table(tabs, b, w.players), w.players)
        elif w.kind == "picks":
            turns = [tuple(Card[x.upper()] for x in t) for t in w.situation["turns"]]
            assert _reach_legal_turns(turns, a) != _reach_legal_turns(turns, b)
        else:
            assert w.situation["scores_a"] != w.situation["scores_b"]


def test_pick_witness_extension_replayed_by_executor() -> None:
    w = diff(OFFICIAL, RULESETS["wasabi-strict"]).witness
    assert w is not None and w.extension is not None
    a_side, b_side = w.extension["sides"]
    assert a_side["legal"] and b_side["legal"]
    # by hand: the egg on the wasabi taken the same turn scores 3, beside it 1
    assert a_side["score"] - b_side["score"] == 2
    assert "wasabi+egg" in a_side["tableau"] and "wasabi+egg" not in b_side["tableau"]
    w = diff(OFFICIAL, RULESETS["wasabi-optional"]).witness
    assert w is not None and w.extension is not None
    a_side, b_side = w.extension["sides"]
    assert not a_side["legal"] and "R-WASABI-PLACE" in a_side["error"]
    assert b_side["legal"]


def test_rule_ids_are_in_the_catalogue() -> None:
    from sushigo.spec.model.catalogue import RULE_CATALOGUE

    for name in SINGLE_READING_VARIANTS:
        w = _diff(name).witness
        assert w is not None
        missing = [r for r in w.rule_ids if r not in RULE_CATALOGUE]
        assert not missing, (name, missing)
