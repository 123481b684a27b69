"""The tie-structure edge cases (edge-maki-ties, edge-pudding-ties) are asked of one solver as
assumptions, and a question already settled for another ruleset is not asked again: every
verdict must still be the true one, for every named ruleset and seat count.

Pudding verdicts are held to brute force (every pudding vector the deck allows); a maki
witness is held to the executor's arithmetic (icons, hand size, the deck's copies)."""

from __future__ import annotations

import dataclasses
import functools
import itertools

import pytest
from sushigo.checks import edge_cases as E
from sushigo.spec.cards import Card, Token
from sushigo.spec.ruleset import OFFICIAL, RULESETS
from sushigo.spec.scoring import maki_icons


def _structure_of(values: tuple[int, ...]) -> str:
    """The structure a vector realises, written the way :func:`E.describe` writes it."""
    levels = sorted(set(values), reverse=True)
    groups = tuple(tuple(s for s, v in enumerate(values) if v == level) for level in levels)
    return E.describe(groups, levels[-1] == 0)


@functools.cache
def _pudding_realised(seats: int, cap: int) -> frozenset[str]:
    return frozenset(_structure_of(v) for v in itertools.product(range(cap + 1), repeat=seats)
                     if sum(v) <= cap)


@pytest.mark.parametrize("name", list(RULESETS))
def test_pudding_verdicts_equal_brute_force(name: str) -> None:
    rules = RULESETS[name]
    for seats in E.seat_range(rules):
        cap = rules.copies(Card.PUDDING)
        realised = _pudding_realised(seats, cap)
        cases = E.pudding_cases(seats, rules)
        assert len(cases) == 2 * len(E.weak_orders(seats))
        for case in cases:
            assert not case.unknown, case
            if case.value is None:
                assert case.structure not in realised, case
            else:
                assert case.structure in realised, case
                pv = tuple(int(x) for x in case.value)
                assert _structure_of(pv) == case.structure and sum(pv) <= cap, case


@pytest.mark.parametrize("name", list(RULESETS))
def test_every_maki_witness_realises_its_structure_within_the_deck(name: str) -> None:
    rules = RULESETS[name]
    kinds = (Token.MAKI1, Token.MAKI2, Token.MAKI3)
    for seats in E.seat_range(rules):
        cases = E.maki_cases(seats, rules)
        assert len(cases) == 2 * len(E.weak_orders(seats))
        for case in cases:
            # Every maki structure of 2..5 seats fits the deck: a witness proves each verdict.
            assert case.value is not None and not case.unknown, case
            tabs = case.tableaux()
            assert _structure_of(tuple(maki_icons(t.counts, rules) for t in tabs)) == case.structure, case
            assert all(t.size <= E._hand(rules, seats) for t in tabs), case
            for t in kinds:
                assert sum(tab.counts[int(t)] for tab in tabs) <= rules.copies(Card(int(t))), case


def test_a_deck_with_fewer_puddings_is_asked_again() -> None:
    # Same seats, another deck: the settled answers of the printed deck must not be reused.
    deck = list(OFFICIAL.deck)
    deck[Card.PUDDING] -= 6
    deck[Card.CHOPSTICKS] += 6  # the deck keeps its size: five players still get their hands
    few = dataclasses.replace(OFFICIAL, deck=tuple(deck))
    assert few.copies(Card.PUDDING) == 4
    for rules in (OFFICIAL, few, OFFICIAL):
        realised = _pudding_realised(4, rules.copies(Card.PUDDING))
        for case in E.pudding_cases(4, rules):
            assert (case.value is not None) == (case.structure in realised), (rules.name, case)
