"""``tableaux`` keeps one built model and solver per (cards, maki points, rules, filters) and asks
each score in its own scope: the listing must be exactly what brute force lists, whatever was
asked before on the same solver (same count, same tableaux, same order, same cut at the limit)."""

from __future__ import annotations

import functools
import random

import pytest
from brute import enumerate_tableaux as all_tableaux
from brute import tableau_score
from sushigo.solver import tableaux as T
from sushigo.solver.tableaux import SolverUnknown, build, enumerate_tableaux, parse_filters, scoring_parts
from sushigo.spec.model.budget import Budget, ceiling
from sushigo.spec.ruleset import RULESETS, Ruleset

LIMIT = 40  # what the check (solver-tableaux) asks for


def _maki_points(rules: Ruleset) -> list[int]:
    return sorted({0, rules.maki_first_points, rules.maki_second_points, rules.maki_first_points // 2})


@functools.cache
def _every(rules: Ruleset, cards: int) -> tuple[tuple[int, ...], ...]:
    return tuple(all_tableaux(cards, rules))


def _expected(rules: Ruleset, cards: int, maki: int, score: int) -> list[tuple[int, ...]]:
    """By brute force, in the documented order: most cards of the earlier tokens first."""
    found = [c for c in _every(rules, cards) if tableau_score(c, maki, rules) == score]
    return sorted(found, key=lambda c: [-n for n in c])


@pytest.mark.parametrize("name", list(RULESETS))
def test_listing_equals_brute_force_asked_in_any_order(name: str) -> None:
    rules = RULESETS[name]
    rng = random.Random(name)
    triples = [(score, cards, maki) for cards in range(6) for maki in _maki_points(rules)
               for score in range(25)]
    asked = rng.sample(triples, 200)
    asked += rng.sample(asked, 40)  # the same question again, after others on the same solver
    brute: dict[tuple[int, int, int], list[tuple[int, ...]]] = {}
    for score, cards, maki in asked:
        key = (score, cards, maki)
        if key not in brute:
            brute[key] = _expected(rules, cards, maki, score)
        want = brute[key]
        got = enumerate_tableaux(score, cards, maki, rules, limit=LIMIT)
        assert got.count == len(want), key
        assert [t.counts for t in got.tableaux] == want[:LIMIT], key
        assert got.complete == (len(want) <= LIMIT), key


def test_every_score_of_one_hand_then_again() -> None:
    rules = RULESETS["official"]
    for _ in range(2):
        for score in range(0, 31):
            want = _expected(rules, 6, 0, score)
            got = enumerate_tableaux(score, 6, 0, rules)
            assert [t.counts for t in got.tableaux] == want, score


def test_filters_and_ceiling_are_separate_questions() -> None:
    rules = RULESETS["official"]
    filters = parse_filters(["sashimi*3"], ["squid"])
    # The filters' own meaning is tested in test_tableaux; here: nothing leaks between cache entries.
    plain = enumerate_tableaux(16, 6, 0, rules)
    filtered = enumerate_tableaux(16, 6, 0, rules, filters)
    with ceiling(Budget(None, 10**9)):
        bounded = enumerate_tableaux(16, 6, 0, rules)
    again = enumerate_tableaux(16, 6, 0, rules)
    assert [t.counts for t in plain.tableaux] == _expected(rules, 6, 0, 16)
    assert bounded == plain == again
    assert set(filtered.tableaux) < set(plain.tableaux)


def _reference_unknown(score: int, cards: int) -> SolverUnknown:
    """What a fresh model and a fresh solver say (the path before solvers were kept)."""
    with pytest.raises(SolverUnknown) as ref:
        list(scoring_parts(build(cards, 0, RULESETS["official"]), score))
    return ref.value


def test_an_unknown_under_a_ceiling_says_what_a_fresh_solver_says() -> None:
    rules = RULESETS["official"]
    enumerate_tableaux(30, 10, 0, rules)  # settled, and a solver for (10 cards, 0) is kept
    with ceiling(Budget(None, 1000)):
        want = _reference_unknown(30, 10)
        with pytest.raises(SolverUnknown) as got:
            enumerate_tableaux(30, 10, 0, rules)
    assert (got.value.reason, got.value.budget) == (want.reason, want.budget)
    assert enumerate_tableaux(30, 10, 0, rules).count == len(_expected_large(rules, 10, 30))


def test_a_kept_solver_out_of_budget_asks_a_fresh_one(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = RULESETS["official"]
    monkeypatch.setattr(T, "DEFAULT_RLIMIT", 1000)
    T._cached_enumerator.cache_clear()
    try:
        want = _reference_unknown(30, 10)
        with pytest.raises(SolverUnknown) as got:
            enumerate_tableaux(30, 10, 0, rules)
        assert (got.value.reason, got.value.budget) == (want.reason, want.budget)
    finally:
        T._cached_enumerator.cache_clear()  # no solver built with the lowered budget stays kept


def _expected_large(rules: Ruleset, cards: int, score: int) -> list[tuple[int, ...]]:
    from brute import brute_tableaux

    return brute_tableaux(score, cards, 0, rules)


def test_moving_to_the_next_ruleset_drops_the_kept_enumerators() -> None:
    """``sushigo check`` releases one ruleset's models before the next: the kept tableaux
    solvers (about 1.5 MB each) go with them."""
    from sushigo.checks.properties import release_models

    T.enumerate_tableaux(6, 3, 0, RULESETS["official"])
    assert T._cached_enumerator.cache_info().currsize >= 1
    release_models()
    assert T._cached_enumerator.cache_info().currsize == 0
