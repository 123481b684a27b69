"""Properties the solver proves for all tableaux (not sampled), each checked independently.

The solver's answers are pinned against brute force written here (pudding
vectors enumerated in full; round maxima by an exhaustive dynamic programme
over token counts scored with spec.scoring).
"""

from __future__ import annotations

import itertools

import pytest
import z3
from sushigo.spec.cards import NIGIRI, STACK_OF, Card, Token
from sushigo.spec.model.core import Model
from sushigo.spec.model.scoring import card_count_terms, pudding_terms, round_terms, size_term, tableau_vars
from sushigo.spec.ruleset import OFFICIAL, RULESETS, Ruleset
from sushigo.spec.scoring import dish_points, maki_points, pudding_points, round_totals

PLAYERS = (2, 3, 4, 5)


Seats = list[dict[str, z3.ArithRef]]


def _round_model(rules: Ruleset, seats: int) -> tuple[Model, list[list[z3.ArithRef]], Seats]:
    m = Model()
    tabs = [tableau_vars(m, f"p{i}", rules) for i in range(seats)]
    return m, tabs, round_terms(m, "r0", tabs, rules)


@pytest.mark.parametrize("players", PLAYERS)
def test_maki_points_in_a_round_never_exceed_nine_under_official(players: int) -> None:
    m, _, seats = _round_model(OFFICIAL, players)
    awarded = z3.Sum([d["maki"] for d in seats])
    s = m.solver()
    s.add(awarded > OFFICIAL.maki_first_points + OFFICIAL.maki_second_points)
    assert s.check() == z3.unsat  # proved for every tableau of every seat
    s = m.solver()
    s.add(awarded == 9)  # and the bound is reached (first 6 + second 3)
    assert s.check() == z3.sat


@pytest.mark.parametrize("name", list(RULESETS))
def test_round_scores_are_never_negative(name: str) -> None:
    rules = RULESETS[name]
    for players in PLAYERS:
        m, _, seats = _round_model(rules, players)
        s = m.solver()
        s.add(z3.Or(*[d["total"] < 0 for d in seats]))
        assert s.check() == z3.unsat, (name, players)


def _pudding_range_solver(players: int) -> tuple[int, int]:
    """Least and greatest sum of pudding points, by the solver, with proofs of both bounds."""
    m = Model()
    pv = [m.int(f"p{i}_puddings", 0) for i in range(players)]
    m.add("R-DECK", z3.Sum(pv) <= OFFICIAL.copies(Card.PUDDING))
    total = z3.Sum(pudding_terms(m, "game", pv, OFFICIAL))
    bounds = []
    for sense in ("min", "max"):
        opt = z3.Optimize()
        opt.add(*m.constraints())
        h = opt.minimize(total) if sense == "min" else opt.maximize(total)
        assert opt.check() == z3.sat
        bounds.append(h.value().as_long())
    lo, hi = bounds
    s = m.solver()
    s.add(z3.Or(total < lo, total > hi))
    assert s.check() == z3.unsat  # no game escapes the range
    return int(lo), int(hi)


@pytest.mark.parametrize("players", PLAYERS)
def test_range_of_the_pudding_point_sum_under_official(players: int) -> None:
    lo, hi = _pudding_range_solver(players)
    cap = OFFICIAL.copies(Card.PUDDING)
    sums = {
        sum(pudding_points(v, OFFICIAL))
        for v in itertools.product(range(cap + 1), repeat=players)
        if sum(v) <= cap
    }
    assert (lo, hi) == (min(sums), max(sums))


def _brute_round_max(rules: Ruleset, size: int) -> tuple[int, tuple[int, ...]]:
    """Best round score of one seat holding exactly ``size`` cards, the others holding no maki.

    Exhaustive over token counts: the categories are scored separately (each
    by spec.scoring on a one-kind tableau) and combined by a dynamic programme
    whose state carries what couples them: cards used, wasabi used, each
    nigiri kind used, and whether any maki icon was taken.
    """
    def points(tok: Token, k: int) -> int:
        counts = [0] * len(Token)
        counts[int(tok)] = k
        return sum(dish_points(counts, rules))

    icons = dict(zip((Token.MAKI1, Token.MAKI2, Token.MAKI3), rules.maki_icons, strict=True))
    # state: (cards, wasabi used, egg, salmon, squid used, has icons) -> (points, counts)
    best: dict[tuple[int, int, int, int, int, bool], tuple[int, tuple[int, ...]]] = {
        (0, 0, 0, 0, 0, False): (0, (0,) * len(Token))
    }
    nig_index = {STACK_OF[c]: k for k, c in enumerate(NIGIRI)}
    nig_index |= {Token(int(c)): k for k, c in enumerate(NIGIRI)}
    for tok in Token:
        nxt: dict[tuple[int, int, int, int, int, bool], tuple[int, tuple[int, ...]]] = {}
        for state, (pts, vec) in best.items():
            cards, wasabi, e, sa, sq, has = state
            for k in range(size + 1):
                c2 = cards + k * tok.size
                if c2 > size:
                    break
                w2 = wasabi + (k if Card.WASABI in tok.cards else 0)
                if w2 > rules.copies(Card.WASABI):
                    break
                used = [e, sa, sq]
                if tok in nig_index:
                    used[nig_index[tok]] += k
                    if used[nig_index[tok]] > rules.copies(NIGIRI[nig_index[tok]]):
                        break
                if tok.cards == (tok.cards[0],) and k > rules.copies(tok.cards[0]):
                    break
                h2 = has or (tok in icons and k > 0)
                key = (c2, w2, used[0], used[1], used[2], h2)
                value = pts + points(tok, k)
                if key not in nxt or nxt[key][0] < value:
                    v2 = list(vec)
                    v2[int(tok)] = k
                    nxt[key] = (value, tuple(v2))
        best = nxt
    out = (-1, (0,) * len(Token))
    for state, (pts, vec) in best.items():
        if state[0] != size:
            continue
        total = pts + (maki_points([1, 0], rules)[0] if state[5] else 0)
        if total > out[0]:
            out = (total, vec)
    return out


@pytest.mark.parametrize("players", PLAYERS)
def test_per_player_round_maximum_for_each_hand_size(players: int) -> None:
    rules = OFFICIAL
    size = rules.hand_size(players)
    m, tabs, seats = _round_model(rules, players)
    # Every seat ends with exactly a hand's worth of cards (chopsticks never change that:
    # each turn adds one card net), all from one deck.
    for t in tabs:
        m.add("R-HAND-SIZE", size_term(t) == size)
    cards = [card_count_terms(t) for t in tabs]
    for c in Card:
        m.add("R-DECK", z3.Sum([cc[int(c)] for cc in cards]) <= rules.copies(c))
    opt = z3.Optimize()
    opt.add(*m.constraints())
    h = opt.maximize(seats[0]["total"])
    assert opt.check() == z3.sat
    best = h.value().as_long()
    s = m.solver()
    s.add(seats[0]["total"] > best)
    assert s.check() == z3.unsat  # proved: no tableau does better
    brute, vec = _brute_round_max(rules, size)
    assert best == brute
    # The brute-force witness really scores that (spec.scoring, the others with nothing).
    assert round_totals([vec] + [[0] * len(Token)] * (players - 1), rules)[0] == brute
