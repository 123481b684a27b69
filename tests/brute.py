"""Brute force over count vectors: the independent check of the Z3 enumeration.

An oracle for the tests (and benchmarks/bench_tableaux.py), kept out of the shipped package
on purpose: it states the scoring again in its own words, which is what makes it independent.
Nothing here imports z3. Two independent computations:

* :func:`enumerate_tableaux` lists every final tableau (15 token counts) of K
  cards within the deck, by recursion over the tokens with the remaining card
  budget of every card kind (a stack uses one wasabi and one nigiri), and
  :func:`brute_counts` scores each one with :mod:`spec.scoring`.
* :func:`formula_counts` never builds a tableau: it multiplies per-group
  generating functions (size, points, has-maki) with the point values read
  straight from the :class:`Ruleset` numbers, not from :mod:`spec.scoring`.

The two must agree for every score and hand size; the Z3 enumeration is then
tested against them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from sushigo.spec.cards import MAKI, NIGIRI, STACK_OF, Card, Token
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.scoring import dish_points, maki_icons
from sushigo.spec.tableau import N_TOKENS

_TOKEN_CARDS: list[tuple[int, ...]] = [tuple(int(c) for c in t.cards) for t in Token]


def enumerate_tableaux(cards: int, rules: Ruleset = OFFICIAL) -> Iterator[tuple[int, ...]]:
    """Every token-count vector holding exactly ``cards`` cards within the deck's copies."""
    left = list(rules.deck)
    counts = [0] * N_TOKENS

    def rec(k: int, room: int) -> Iterator[tuple[int, ...]]:
        if k == N_TOKENS:
            if room == 0:
                yield tuple(counts)
            return
        parts = _TOKEN_CARDS[k]
        size = len(parts)
        top = room // size
        for c in parts:
            top = min(top, left[c])
        for n in range(top + 1):
            counts[k] = n
            for c in parts:
                left[c] -= n
            yield from rec(k + 1, room - n * size)
            for c in parts:
                left[c] += n
        counts[k] = 0

    yield from rec(0, cards)


def tableau_score(counts: tuple[int, ...], maki_points: int, rules: Ruleset = OFFICIAL) -> int | None:
    """Round score with ``maki_points``; None when maki points are claimed without a maki icon."""
    if maki_points > 0 and maki_icons(counts, rules) <= 0:
        return None
    return sum(dish_points(counts, rules)) + maki_points


def brute_counts(cards: int, maki_points: int = 0, rules: Ruleset = OFFICIAL) -> dict[int, int]:
    """Number of tableaux of ``cards`` cards per round score, by listing every one."""
    out: Counter[int] = Counter()
    for counts in enumerate_tableaux(cards, rules):
        s = tableau_score(counts, maki_points, rules)
        if s is not None:
            out[s] += 1
    return dict(out)


def brute_tableaux(
    score: int, cards: int, maki_points: int = 0, rules: Ruleset = OFFICIAL
) -> list[tuple[int, ...]]:
    return [c for c in enumerate_tableaux(cards, rules) if tableau_score(c, maki_points, rules) == score]


# --- the second, independent formula -------------------------------------------------

# A polynomial is a dict (size, points, has_maki) -> number of ways.
_Poly = dict[tuple[int, int, bool], int]


def _mul(a: _Poly, b: _Poly, cap: int) -> _Poly:
    out: dict[tuple[int, int, bool], int] = {}
    for (sa, pa, ma), na in a.items():
        for (sb, pb, mb), nb in b.items():
            s = sa + sb
            if s > cap:
                continue
            key = (s, pa + pb, ma or mb)
            out[key] = out.get(key, 0) + na * nb
    return out


def formula_counts(cards: int, maki_points: int = 0, rules: Ruleset = OFFICIAL) -> dict[int, int]:
    """Same answer as :func:`brute_counts`, by generating functions over independent card groups.

    Tempura, sashimi, dumpling, each maki kind, pudding and chopsticks are
    independent (one token each). Wasabi and the three nigiri are coupled by
    the stacks, so that group is enumerated as (stacks, lone nigiri, lone wasabi).
    """
    d = rules.deck

    def single(card: Card, points: list[int], maki: bool = False) -> _Poly:
        return {(n, points[n], maki and n > 0): 1 for n in range(min(d[int(card)], cards) + 1)}

    span = range(cards + 1)
    tem = [(n // rules.tempura_set) * rules.tempura_points for n in span]
    sas = [(n // rules.sashimi_set) * rules.sashimi_points for n in span]
    table = rules.dumpling_points
    dum = [table[min(n, len(table) - 1)] for n in span]
    zero = [0] * (cards + 1)
    poly: _Poly = {(0, 0, False): 1}
    for card, pts, mk in (
        (Card.TEMPURA, tem, False), (Card.SASHIMI, sas, False), (Card.DUMPLING, dum, False),
        (Card.PUDDING, zero, False), (Card.CHOPSTICKS, zero, False),
        *((m, zero, rules.maki_icons[i] > 0) for i, m in enumerate(MAKI)),
    ):
        poly = _mul(poly, single(card, pts, mk), cards)
    # wasabi/nigiri group: per nigiri kind, `on` stacked and `off` lone copies
    group: _Poly = {(0, 0, False): 1}
    for i, nig in enumerate(NIGIRI):
        assert STACK_OF[nig]  # every nigiri has a stack
        p = rules.nigiri_points[i]
        nig_poly: dict[tuple[int, int, bool], int] = {}
        for on in range(min(d[int(nig)], d[int(Card.WASABI)]) + 1):
            for off in range(d[int(nig)] - on + 1):
                size = 2 * on + off
                if size > cards:
                    break
                # the size slot carries stacks in the high digits so wasabi use can be capped below
                key = (size + 100 * on, on * p * rules.wasabi_multiplier + off * p, False)
                nig_poly[key] = nig_poly.get(key, 0) + 1
        group = _mul_tagged(group, nig_poly, cards)
    wasabi: _Poly = {}
    for (tagged, gp, _), n in group.items():
        stacks, size = divmod(tagged, 100)
        for lone in range(d[int(Card.WASABI)] - stacks + 1):
            if size + lone > cards:
                break
            key = (size + lone, gp, False)
            wasabi[key] = wasabi.get(key, 0) + n
    poly = _mul(poly, wasabi, cards)
    out: dict[int, int] = {}
    for (size, total, has_maki), n in poly.items():
        if size != cards or (maki_points > 0 and not has_maki):
            continue
        out[total + maki_points] = out.get(total + maki_points, 0) + n
    return out


def _mul_tagged(a: _Poly, b: _Poly, cap: int) -> _Poly:
    """Multiply polynomials whose size slot is ``size + 100 * stacks``."""
    out: dict[tuple[int, int, bool], int] = {}
    for (ta, pa, _), na in a.items():
        for (tb, pb, _), nb in b.items():
            t = ta + tb
            if t % 100 > cap:
                continue
            key = (t, pa + pb, False)
            out[key] = out.get(key, 0) + na * nb
    return out
