"""sushigo best, forms 1 and 2: the z3 engine against the search engine and a brute force.

Expected values come from hand-worked puzzles (arithmetic in the comments, points from the
rulebook's scoring table) or from an independent computation: a brute force over every legal
pick sequence (spec.turns, dedupe off) scored with spec.scoring.score_round.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sushigo.solver.best import solve_hindsight, solve_puzzle
from sushigo.solver.search import (
    STATUS_OPTIMAL,
    STATUS_UNKNOWN,
    Puzzle,
    hindsight_from_record,
    make_hindsight,
    parse_puzzle,
    replay_puzzle,
    replay_round,
)
from sushigo.spec.cards import Card, Token
from sushigo.spec.errors import IllegalMoveError, InputError, SushiGoError
from sushigo.spec.executor import play_game
from sushigo.spec.ruleset import OFFICIAL, RULESETS, Ruleset
from sushigo.spec.scoring import score_round
from sushigo.spec.tableau import Tableau
from sushigo.spec.turns import Turn, apply_turn, hand_counts, legal_turns, parse_turn

from sushigo.cli import main

ENGINES = ("z3", "search")
FORM1_RULESETS = sorted(RULESETS)


def puzzle(
    hands: Sequence[Sequence[str]], opponents: Sequence[int] = (), rules: Ruleset = OFFICIAL
) -> Puzzle:
    return parse_puzzle({"hands": [list(h) for h in hands], "opponents_maki": list(opponents)}, rules)


def opponents_tableaux(opponents: Sequence[int]) -> list[Tableau]:
    """Opponents as tableaux of maki1 cards (one icon each under every named ruleset)."""
    return [Tableau.of(maki1=n) for n in opponents]


def brute_force(p: Puzzle, pairs: bool = True) -> int:
    """Every legal pick sequence (no dedupe), each final tableau scored by spec.scoring
    (``pairs=False``: only the sequences without a two-card turn)."""
    best = -1
    opps = opponents_tableaux(p.opponents_maki)

    def go(t: int, tab: list[int]) -> None:
        nonlocal best
        if t == p.turns:
            best = max(best, score_round([Tableau(tuple(tab)), *opps], p.rules)[0].total)
            return
        for turn in legal_turns(p.hands[t], tab, p.rules, dedupe=False):
            if not pairs and len(turn) > 1:
                continue
            new = list(tab)
            apply_turn(list(p.hands[t]), new, turn, p.rules)
            go(t + 1, new)

    go(0, [0] * len(Token))
    return best


# --- hand-worked puzzles -----------------------------------------------------------------

HAND_WORKED = [
    # wasabi then squid on it: 3 * 3 = 9; the last tempura alone scores 0.
    ([["wasabi", "squid", "tempura"], ["squid", "tempura"], ["tempura"]], [], "official", 9),
    # Two tempura make a pair (5); sashimi needs three of a set: 5 beats 0.
    ([["tempura", "sashimi"], ["tempura", "sashimi"]], [], "official", 5),
    # Chopsticks on turn 1, then squid + squid from hand 2 (3 + 3), then egg (1): 7.
    # Without chopsticks the best is egg, squid, egg = 1 + 3 + 1 = 5.
    ([["chopsticks", "egg"], ["squid", "squid"], ["egg"]], [], "official", 7),
    # Maki against opponents [3, 5]: maki3 (3 icons) ties for second with 3 -> 3 // 2 = 1 (split).
    ([["maki3"]], [3, 5], "official", 1),
    # Same under french (second-place ties each get 3).
    ([["maki3"]], [3, 5], "french", 3),
    # maki3 ties the single opponent's 3 for first: split 6 // 2 = 3; each 6; half 3.
    ([["maki3"]], [3], "official", 3),
    ([["maki3"]], [3], "maki-first-each", 6),
    ([["maki3"]], [3], "maki-first-half", 3),
    # No opponents have maki: any icon is first place, 6.
    ([["maki1", "egg"]], [], "official", 6),
    # Chopsticks, then wasabi + squid in one turn, then egg. Official: the wasabi taken first
    # holds the squid (3 * 3 = 9), egg plain (1): 10. wasabi-strict: the squid stays plain (3) and
    # the wasabi, still free, takes the egg (1 * 3 = 3): 6.
    ([["chopsticks"], ["wasabi", "squid"], ["egg"]], [], "official", 10),
    ([["chopsticks"], ["wasabi", "squid"], ["egg"]], [], "wasabi-strict", 6),
    # Automatic placement: an egg onto the free wasabi (3) spoils it for the squid (3): 6.
    # Optional placement keeps the egg plain (1) and lays the squid (9): 10.
    ([["wasabi"], ["egg"], ["squid"]], [], "official", 6),
    ([["wasabi"], ["egg"], ["squid"]], [], "wasabi-optional", 10),
    # Five dumplings score 15; the sixth adds nothing.
    ([["dumpling"]] * 6, [], "official", 15),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("hands", "opps", "rules", "expect"), HAND_WORKED)
def test_hand_worked(engine: str, hands: list[list[str]], opps: list[int], rules: str, expect: int) -> None:
    p = puzzle(hands, opps, RULESETS[rules])
    res = solve_puzzle(p, engine)
    assert res.status == STATUS_OPTIMAL
    assert res.score == expect
    assert replay_puzzle(p, res.picks)[-1] == expect
    assert brute_force(p) == expect


def test_squid_order_in_chopsticks_turn_is_printed_wasabi_first() -> None:
    p = puzzle([["chopsticks"], ["wasabi", "squid"], ["egg"]])
    res = solve_puzzle(p, "z3")
    assert [str(x) for x in res.picks[1]] == ["wasabi", "squid"]


# --- generated puzzles: z3 == search == brute force ---------------------------------------

_POOL = [c.label for c in Card] + ["wasabi", "squid", "salmon", "chopsticks", "tempura", "maki2", "egg"]


@st.composite
def small_puzzles(draw: st.DrawFn) -> tuple[list[list[str]], list[int]]:
    sizes = draw(st.lists(st.integers(1, 4), min_size=1, max_size=4))
    hands = [draw(st.lists(st.sampled_from(_POOL), min_size=n, max_size=n)) for n in sizes]
    opps = draw(st.lists(st.integers(0, 7), max_size=3))
    return hands, opps


@pytest.mark.parametrize("rules", FORM1_RULESETS)
@settings(max_examples=12)
@given(data=small_puzzles())
def test_engines_agree_with_brute_force(rules: str, data: tuple[list[list[str]], list[int]]) -> None:
    hands, opps = data
    try:
        p = puzzle(hands, opps, RULESETS[rules])
    except InputError:
        return  # over the deck limit; the parser rejects it (tested below)
    expect = brute_force(p)
    for engine in ENGINES:
        res = solve_puzzle(p, engine)
        assert res.status == STATUS_OPTIMAL
        assert res.score == expect, (engine, hands, opps)
        assert replay_puzzle(p, res.picks)[-1] == expect


def _shuffled_hands(rng: random.Random, rules: Ruleset, largest: int) -> list[list[str]]:
    """Hands of ``largest`` cards down to 1, dealt in turn from one shuffled deck (a round's shape)."""
    deck = [c for c in Card for _ in range(rules.copies(c))]
    rng.shuffle(deck)
    hands, i = [], 0
    for n in range(largest, 0, -1):
        hands.append([c.label for c in deck[i:i + n]])
        i += n
    return hands


@pytest.mark.parametrize("rules", ["official", "wasabi-optional", "wasabi-strict", "french", "dutch"])
def test_engines_agree_on_round_sized_puzzles(rules: str) -> None:
    # 2-player round shapes (hands of 6 down to 1), seeded deals: too big for the brute force,
    # so the two engines check each other.
    rng = random.Random(20240 + len(rules))
    r = RULESETS[rules]
    for _ in range(6):
        hands = _shuffled_hands(rng, r, 6)
        p = puzzle(hands, [rng.randint(0, 8) for _ in range(rng.randint(0, 3))], r)
        a, b = solve_puzzle(p, "z3"), solve_puzzle(p, "search")
        assert a.score == b.score
        assert replay_puzzle(p, a.picks)[-1] == a.score


@pytest.mark.parametrize("rules", ["official", "wasabi-optional", "wasabi-strict", "maki-first-each"])
def test_engines_agree_on_ten_hand_puzzles(rules: str) -> None:
    # The benchmark's shape (benchmarks/bench_best.py): hands of 10 down to 1 from one shuffled deck,
    # seeded. The search's reduced states (kinds with no card to come are forgotten or banked, spare
    # wasabi and chopsticks capped) must give the optimum Z3 certifies, and picks that replay to it.
    rng = random.Random(1400 + len(rules))
    r = RULESETS[rules]
    for _ in range(3):
        p = puzzle(_shuffled_hands(rng, r, 10), [rng.randint(0, 8) for _ in range(rng.randint(0, 3))], r)
        a, b = solve_puzzle(p, "search"), solve_puzzle(p, "z3")
        assert a.status == b.status == STATUS_OPTIMAL
        assert a.score == b.score
        assert replay_puzzle(p, a.picks)[-1] == a.score


def test_unknown_never_claims_more_than_the_optimum() -> None:
    rng = random.Random(5)
    hands = _shuffled_hands(rng, OFFICIAL, 10)
    p = puzzle(hands, [4])
    truth = solve_puzzle(p, "search").score
    res = solve_puzzle(p, "z3", timeout=0.001)
    if res.status == STATUS_UNKNOWN:
        assert res.score <= truth
        assert res.budget == 0.001
    else:
        assert res.score == truth


# --- form 2: hindsight on recorded rounds -------------------------------------------------


def brute_force_hindsight(deal: list[list[int]], picks: list[list[Turn]], seat: int, rules: Ruleset) -> int:
    """Every legal line of the seat's own turns, the others replaying their record (a line where a
    recorded pick becomes impossible is dropped), scored by spec.scoring."""
    h = make_hindsight(deal, picks, seat, rules)
    best = -1
    size = sum(deal[0])

    def go(t: int, mine: list[Turn]) -> None:
        nonlocal best
        if t == size:
            try:
                tabs, totals = replay_round(h, mine)
            except IllegalMoveError:
                return
            best = max(best, totals[seat])
            return
        # The hand the seat holds at turn t, replaying the prefix (others as recorded).
        n = len(deal)
        piles = [list(d) for d in deal]
        tabs = [[0] * len(Token) for _ in range(n)]
        try:
            for u in range(t):
                for i in range(n):
                    apply_turn(piles[h.pile_at(i, u)], tabs[i], mine[u] if i == seat else picks[i][u], rules)
        except IllegalMoveError:
            return
        for turn in legal_turns(piles[h.pile_at(seat, t)], tabs[seat], rules, dedupe=False):
            go(t + 1, [*mine, turn])

    go(0, [])
    return best


def tiny_round(
    rng: random.Random, players: int, size: int, rules: Ruleset
) -> tuple[list[list[int]], list[list[Turn]]]:
    """A random legal round with ``size`` cards per hand (smaller than the game's, for brute force)."""
    cards = [c for c in Card for _ in range(rules.copies(c))]
    rng.shuffle(cards)
    deal = [hand_counts(cards[i * size:(i + 1) * size]) for i in range(players)]
    piles = [list(d) for d in deal]
    tabs = [[0] * len(Token) for _ in range(players)]
    picks: list[list[Turn]] = [[] for _ in range(players)]
    off = rules.pass_offset(0)
    for t in range(size):
        for i in range(players):
            pile = piles[(i - t * off) % players]
            turn = rng.choice(legal_turns(pile, tabs[i], rules))
            apply_turn(pile, tabs[i], turn, rules)
            picks[i].append(turn)
    return deal, picks


@pytest.mark.parametrize("rules", ["official", "wasabi-optional", "wasabi-strict", "pass-both-ways"])
def test_hindsight_engines_agree_with_brute_force(rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    r = RULESETS[rules]
    # Hands of 4 instead of the game's size: relax the hand-size check for this brute-force test.
    monkeypatch.setattr(Ruleset, "hand_size", lambda self, players: 4)
    rng = random.Random(99)
    for _ in range(5):
        players = rng.choice([2, 3])
        deal, picks = tiny_round(rng, players, 4, r)
        seat = rng.randrange(players)
        expect = brute_force_hindsight(deal, picks, seat, r)
        h = make_hindsight(deal, picks, seat, r)
        for engine in ENGINES:
            res = solve_hindsight(h, engine)
            assert res.status == STATUS_OPTIMAL
            assert res.score == expect, (engine, deal, picks, seat)
            assert res.extra["actual"] <= res.score


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_hindsight_on_executor_games(players: int) -> None:
    game = play_game(players, 11 * players, OFFICIAL).to_json()
    for rnd in (1, 3):
        for seat in (0, players - 1):
            h = hindsight_from_record(game, rnd, seat, OFFICIAL)
            a, b = solve_hindsight(h, "z3"), solve_hindsight(h, "search")
            assert a.score == b.score >= a.extra["actual"]
            assert a.extra["actual"] == game["rounds"][rnd - 1]["scores"][seat]


def test_hindsight_rejects_a_record_with_an_illegal_pick() -> None:
    game = play_game(2, 3, OFFICIAL).to_json()
    first = game["rounds"][0]["turns"][0][1][0]
    other = "squid" if first != "squid" else "egg"
    game["rounds"][0]["turns"][0][1] = [other]
    with pytest.raises(SushiGoError):
        h = hindsight_from_record(game, 1, 0, OFFICIAL)
        solve_hindsight(h, "z3")


# --- CLI ----------------------------------------------------------------------------------


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_puzzle_json(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    import pathlib

    path = pathlib.Path(str(tmp_path)) / "p.json"
    path.write_text(json.dumps({"rules": "official", "hands": [["wasabi", "tempura"], ["squid", "tempura"]],
                                "opponents_maki": [3, 5]}))
    for engine in ENGINES:
        code, out, _ = run_cli(["best", str(path), "--json", "--engine", engine], capsys)
        assert code == 0
        doc = json.loads(out)
        # wasabi, then squid on it: 9 (tempura pair needs both turns: 5).
        assert doc == {"format": "sushigo-best-result/1", "outcome": "proved", "score": 9,
                       "picks": [["wasabi"], ["squid"]], "status": "optimal"}
    code, out, _ = run_cli(["best", str(path)], capsys)
    assert code == 0 and "best score 9 (optimal; proved: 10 is unreachable" in out


@pytest.mark.parametrize(
    ("doc", "needle"),
    [
        ({"hands": [["squidd"]]}, "did you mean 'squid'"),
        ({"hands": [[]]}, "empty"),
        ({"hands": []}, "at $.hands: [] should be non-empty"),
        ({"hands": [["squid"] * 3, ["squid"] * 3]}, "deck has only 5"),
        ({"hands": [["squid"]], "opponents_maki": [-1]},
         "at $.opponents_maki[0]: -1 is less than the minimum"),
        ({"hands": [["squid"]], "opponents": [1]}, "('opponents' was unexpected)"),
        ({"hands": [["squid"]], "opponents_maki": [0] * 5}, "seats at most 5 players"),
        ({"hands": [["squid"]], "rules": "offical"}, "did you mean 'official'"),
        ([1, 2], "at $: [1, 2] is not of type 'object'"),
    ],
)
def test_cli_bad_puzzles_exit_2(doc: object, needle: str, tmp_path: object,
                                capsys: pytest.CaptureFixture[str]) -> None:
    import pathlib

    path = pathlib.Path(str(tmp_path)) / "bad.json"
    path.write_text(json.dumps(doc))
    code, _, err = run_cli(["best", str(path)], capsys)
    assert code == 2
    assert needle in err and len(err.strip().splitlines()) == 1


def test_cli_record_hindsight(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    import pathlib

    game = play_game(2, 5, OFFICIAL).to_json()
    path = pathlib.Path(str(tmp_path)) / "g.json"
    path.write_text(json.dumps(game))
    code, out, _ = run_cli(["best", str(path), "--round", "2", "--seat", "1", "--json"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert doc["status"] == "optimal" and doc["actual"] == game["rounds"][1]["scores"][1]
    assert doc["score"] >= doc["actual"]
    code, _, err = run_cli(["best", str(path), "--round", "4", "--seat", "1"], capsys)
    assert code == 2 and "rounds 1..3" in err
    code, _, err = run_cli(["best", str(path)], capsys)
    assert code == 2 and "--round R" in err


def test_cli_round_json_form(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    import pathlib

    game = play_game(3, 8, OFFICIAL).to_json()
    rnd = game["rounds"][0]
    picks = [[rnd["turns"][t][s] for t in range(len(rnd["turns"]))] for s in range(3)]
    doc = {"rules": "official", "deal": rnd["hands"], "picks": picks, "seat": 2}
    path = pathlib.Path(str(tmp_path)) / "r.json"
    path.write_text(json.dumps(doc))
    code, out, _ = run_cli(["best", str(path), "--json"], capsys)
    assert code == 0
    assert json.loads(out)["actual"] == rnd["scores"][2]
    assert parse_turn(["squid"])  # notation shared with the executor's record


def test_cli_unknown_exits_1_with_the_budget(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    import pathlib

    rng = random.Random(8)
    hands = _shuffled_hands(rng, OFFICIAL, 10)
    path = pathlib.Path(str(tmp_path)) / "p.json"
    path.write_text(json.dumps({"hands": hands, "opponents_maki": [5]}))
    code, out, _ = run_cli(["best", str(path), "--json", "--timeout", "0.0001"], capsys)
    doc = json.loads(out)
    if code == 1:
        assert doc["status"] == "unknown" and doc["budget_seconds"] == 0.0001 and doc["reason"]
    else:
        assert code == 0 and doc["status"] == "optimal"
    code, _, err = run_cli(["best", str(path), "--timeout", "0"], capsys)
    assert code == 2 and "--timeout" in err
