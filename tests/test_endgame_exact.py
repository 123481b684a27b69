"""The fast two-player search (double oracle on canonical states) against the reference full-matrix search.

The reference (:func:`solve_two_reference`) builds every payoff matrix whole
from raw reduced tableaux; it is the independent computation here. The fast
search must return exactly its value, first-move mix, pure guarantees and
principal line. The canonical rewrites are also checked by hand against the
rulebook's scoring.
"""

from __future__ import annotations

import random

import pytest
from sushigo.solver.endgame import (
    ENGINES,
    Position,
    parse_position,
    random_position,
    solve_two,
    solve_two_exact,
    solve_two_reference,
)
from sushigo.solver.endgame.canonical import Canon, maki_by_rank, pudding_by_rank
from sushigo.solver.endgame.exact import _Exact, _search
from sushigo.solver.endgame.reference import root_offset
from sushigo.solver.endgame.result import EndgameDraft
from sushigo.spec.cards import Card, Token
from sushigo.spec.errors import InputError
from sushigo.spec.ruleset import OFFICIAL, RULESETS, get_ruleset
from sushigo.spec.scoring import maki_points, pudding_points


def _answer(pos: Position, objective: str, engine: str) -> dict[str, object]:
    out = solve_two(pos, objective, max_nodes=10_000_000, engine=engine).to_json()
    assert out["status"] == "solved"
    out.pop("nodes")  # the searches visit different states; everything else must agree
    return out


def _sample() -> list[tuple[int, int, int, str, str]]:
    """A seeded sample: (seed, cards left, round, objective, ruleset), k <= 6."""
    rng = random.Random(14)
    names = ["official", "official", "dutch", "french", "wasabi-optional", "pudding-all-tied-both",
             "maki-first-each", "pudding-penalty-2p", "winner-tie-none", "pass-both-ways"]
    out = []
    for n in range(48):
        k = rng.choice([1, 2, 3, 3, 4, 4, 4, 5, 5]) if n < 44 else 6
        out.append((rng.randrange(10**6), k, rng.choice([1, 3]), rng.choice(["diff", "diff", "own", "win"]),
                    rng.choice(names)))
    return out


@pytest.mark.parametrize(("seed", "k", "rnd", "objective", "rules"), _sample())
def test_exact_matches_reference(seed: int, k: int, rnd: int, objective: str, rules: str) -> None:
    pos = random_position(seed, 2, k, get_ruleset(rules), rnd)
    assert _answer(pos, objective, "exact") == _answer(pos, objective, "reference")


def _sample_k7() -> list[tuple[int, int, str, str]]:
    """A second seeded sample at k = 7, where dead cards (pudding, wasabi, tempura, sashimi) merge often."""
    rng = random.Random(1407)
    names = ["official", "official", "dutch", "wasabi-optional", "pudding-penalty-2p", "pass-both-ways"]
    return [(rng.randrange(10**6), rng.choice([1, 3]), rng.choice(["diff", "diff", "own", "win"]),
             rng.choice(names)) for _ in range(8)]


@pytest.mark.parametrize(("seed", "rnd", "objective", "rules"), _sample_k7())
def test_exact_matches_reference_at_seven_cards(seed: int, rnd: int, objective: str, rules: str) -> None:
    pos = random_position(seed, 2, 7, get_ruleset(rules), rnd)
    assert _answer(pos, objective, "exact") == _answer(pos, objective, "reference")


def test_default_engine_is_exact_and_engines_are_named() -> None:
    pos = random_position(3, 2, 3, OFFICIAL, 1)
    assert solve_two(pos).to_json() == solve_two_exact(pos).to_json()
    assert ENGINES == ("exact", "reference")
    with pytest.raises(InputError, match="engine 'fast' unknown; choose one of exact, reference"):
        solve_two(pos, engine="fast")


def test_budget_is_unknown_with_the_budget() -> None:
    pos = random_position(1, 2, 6, OFFICIAL, 1)
    res = solve_two_exact(pos, "diff", max_nodes=40)
    assert res.status == "unknown" and res.value is None and res.mix == [] and res.first_picks == []
    assert res.reason == "node budget of 40 states exhausted"
    # A time limit already passed: the search stops at its first check (every 512 states).
    res = solve_two_exact(random_position(1, 2, 9, OFFICIAL, 1), "diff", time_limit=1e-9)
    assert res.status == "unknown" and res.reason == "time limit of 1e-09 s reached"


def test_fewer_states_than_the_reference_on_a_larger_position() -> None:
    pos = random_position(0, 2, 7, OFFICIAL, 1)
    fast, ref = solve_two_exact(pos), solve_two_reference(pos)
    assert fast.value == ref.value == 1 and fast.mix == ref.mix and fast.line == ref.line
    assert fast.nodes < ref.nodes / 2


# ----------------------------------------------------------------------------- canonical rewrites


def _tab(**counts: int) -> tuple[int, ...]:
    t = [0] * len(Token)
    for name, n in counts.items():
        t[int(Token[name.upper()])] = n
    return tuple(t)


def _hand(*cards: Card) -> tuple[int, ...]:
    h = [0] * len(Card)
    for c in cards:
        h[int(c)] += 1
    return tuple(h)


def test_rank_readings_hold_for_the_official_rules() -> None:
    # Rulebook: 2 players, most maki icons 6, second 3 (with any icons); pudding most +6, no 2p penalty.
    assert maki_points([5, 2], OFFICIAL) == maki_points([9, 1], OFFICIAL) == [6, 3]
    assert maki_points([5, 0], OFFICIAL) == [6, 0]
    assert pudding_points([3, 1], OFFICIAL) == pudding_points([1, 0], OFFICIAL) == [6, 0]
    assert maki_by_rank(OFFICIAL) and pudding_by_rank(OFFICIAL)
    for rules in RULESETS.values():  # every shipped ruleset reads maki and pudding by rank for 2 players
        assert maki_by_rank(rules) and pudding_by_rank(rules), rules.name


def test_normalise_by_hand() -> None:
    canon = Canon(OFFICIAL, "diff", keep_pudding=True, earlier=(2, 0))
    h0 = _hand(Card.MAKI1, Card.TEMPURA)
    h1 = _hand(Card.EGG, Card.PUDDING)
    t0 = _tab(dumpling=3, tempura=1, sashimi=1, maki2=2, wasabi=2, chopsticks=3, pudding=0)
    t1 = _tab(dumpling=1, sashimi=2, maki3=1, pudding=1)
    n0, n1, b0, b1 = canon.normalise(h0, h1, t0, t1)
    # No dumpling left: 3 dumplings bank 6, 1 banks 1 (rulebook table 1, 3, 6, 10, 15).
    assert (b0, b1) == (6, 1) and n0[int(Token.DUMPLING)] == n1[int(Token.DUMPLING)] == 0
    # A tempura is left (player 0's residue kept); no sashimi left (both residues dropped).
    assert n0[int(Token.TEMPURA)] == 1 and n0[int(Token.SASHIMI)] == n1[int(Token.SASHIMI)] == 0
    # One nigiri left: one free wasabi is all that can matter; 2 cards per hand: one chopsticks use left.
    assert n0[int(Token.WASABI)] == 1 and n0[int(Token.CHOPSTICKS)] == 1
    # Maki icons 4 against 3, one icon left: the difference +1 and both "has any" kept, as (2, 1).
    assert (n0[int(Token.MAKI1)], n1[int(Token.MAKI1)]) == (2, 1)
    assert n0[int(Token.MAKI2)] == n1[int(Token.MAKI3)] == 0
    # Puddings 2 + 0 against 0 + 1 (difference +1), one pudding left: clipped to +1..+2, kept as +1.
    assert 2 + n0[int(Token.PUDDING)] - n1[int(Token.PUDDING)] == 1


def test_dead_cards_merge_by_hand() -> None:
    # Round 1, objective diff: puddings score only at the end of the last round, so they are dead; no
    # nigiri is left, so wasabi is dead; one tempura left and no residue cannot make a pair (5 points a
    # pair), so it is dead. Two sashimi left with a residue of 1 can make a set of 3: alive.
    canon = Canon(OFFICIAL, "diff", keep_pudding=False, earlier=(0, 0))
    h0 = _hand(Card.PUDDING, Card.WASABI, Card.SASHIMI)
    h1 = _hand(Card.TEMPURA, Card.MAKI1, Card.SASHIMI)
    t0, t1 = _tab(sashimi=1), _tab()
    m0, m1 = canon.merge_dead(h0, h1, t0, t1)
    assert m0 == _hand(Card.PUDDING, Card.PUDDING, Card.SASHIMI)
    assert m1 == _hand(Card.PUDDING, Card.MAKI1, Card.SASHIMI)
    # Without the residue the two sashimi cannot make a set of 3 either: dead too.
    assert canon.merge_dead(h0, h1, _tab(), t1)[0] == _hand(Card.PUDDING, Card.PUDDING, Card.PUDDING)
    # A tempura residue makes the last tempura alive: a pair for its owner.
    assert canon.merge_dead(h0, h1, _tab(tempura=1), t1)[1] == _hand(Card.TEMPURA, Card.MAKI1, Card.PUDDING)
    # Last round: puddings score; wasabi (no nigiri left) is the one dead kind that takes the others.
    last = Canon(OFFICIAL, "diff", keep_pudding=True, earlier=(0, 0))
    m0, m1 = last.merge_dead(h0, h1, _tab(), t1)
    assert m0 == _hand(Card.PUDDING, Card.WASABI, Card.WASABI)
    assert m1 == _hand(Card.WASABI, Card.MAKI1, Card.WASABI)
    # A nigiri left keeps wasabi alive; with puddings scored too, nothing can stand for the dead cards.
    h1 = _hand(Card.TEMPURA, Card.EGG, Card.SASHIMI)
    assert last.merge_dead(h0, h1, _tab(), t1) == (h0, h1)


def test_canonical_states_merge() -> None:
    """Positions differing only in what can no longer matter: values differ by the banked points."""
    base = {
        "rules": "official", "round": 1, "hands": [["tempura", "maki1", "egg"], ["squid", "maki2", "wasabi"]],
    }
    a = parse_position(base | {"taken": [
        [["dumpling"], ["dumpling"], ["maki3"], ["maki3"], ["maki2"], ["tempura"], ["sashimi"]],
        [["dumpling"], ["salmon"], ["maki1"], ["pudding"], ["chopsticks"], ["tempura"], ["egg"]],
    ]})
    b = parse_position(base | {"taken": [
        [["dumpling"], ["dumpling"], ["dumpling"], ["maki3"], ["maki3"], ["tempura"], ["pudding"]],
        [["dumpling"], ["salmon"], ["maki1"], ["pudding"], ["chopsticks"], ["tempura"], ["egg"]],
    ]})
    fa, fb = solve_two_exact(a), solve_two_exact(b)
    ra, rb = solve_two_reference(a), solve_two_reference(b)
    assert (fa.value, fb.value) == (ra.value, rb.value)
    # By hand: b's third dumpling is 3 more points (6 - 3) and it lacks a's maki2 and sashimi residue;
    # with maki 8 against 1 icons and 3 icons left player 0 keeps first place either way.
    assert fb.value is not None and fa.value is not None and fb.value - fa.value == 3


# ----------------------------------------------------------------------------- int-keyed states


def _plain_key(s: _Exact, node: object) -> tuple[object, ...]:
    """A node's state read back from its key (the search's numbering decoded)."""
    key = next(k for k, n in s.table.items() if n is node)
    low, d = key & ((1 << 80) - 1), key >> 80
    h0, h1, t0, t1 = ((low >> (20 * f)) & ((1 << 20) - 1) for f in range(4))
    return s.objs[h0], s.objs[h1], s.objs[t0], s.objs[t1], d


@pytest.mark.parametrize(("seed", "k", "rnd", "objective", "rules"), [
    (5, 6, 1, "diff", "official"), (11, 6, 3, "win", "official"), (3, 6, 3, "own", "dutch"),
    (7, 5, 3, "win", "pudding-penalty-2p"), (2, 6, 1, "diff", "wasabi-optional"),
])
def test_int_keyed_children_are_the_plain_rewrite(
    seed: int, k: int, rnd: int, objective: str, rules: str
) -> None:
    """Every child the search made through its int-keyed look-ups (hands held, tableaux' rewrite, node before
    the merge) is the state the rewrite and the merge reach on the tuples themselves, by a fresh Canon
    without any of the search's tables: the same hands, tableaux, banked difference and banked points."""
    pos = random_position(seed, 2, k, get_ruleset(rules), rnd)
    s = _Exact(pos, objective, 10_000_000)
    off, d, t0, t1 = root_offset(s)
    _search(s, EndgameDraft(pos, objective), off, d, t0, t1)
    canon = Canon(pos.rules, objective, s.gen.keep_pudding, (pos.puddings[0], pos.puddings[1]))
    state = {id(n): _plain_key(s, n) for n in s.table.values()}
    checked = 0
    for n in s.table.values():
        for i, m0 in enumerate(n.ms0):
            for j, m1 in enumerate(n.ms1):
                kid = n.kids[i * len(n.ms1) + j]
                if kid is None:
                    continue
                h0, h1 = m1.rest, m0.rest
                nt0, nt1, b0, b1 = canon.normalise(h0, h1, m0.tab, m1.tab)
                g0, g1 = m0.gain + b0, m1.gain + b1
                want_off, want_d = {
                    "diff": (g0 - g1, n.d), "own": (g0, n.d), "win": (0, n.d + g0 - g1)}[objective]
                h0, h1 = canon.merged(h0, h1, nt0, nt1)
                assert kid[0] == want_off and state[id(kid[1])] == (h0, h1, nt0, nt1, want_d)
                checked += 1
    assert checked > 200 and (objective != "win" or len({st[4] for st in state.values()}) > 1)
