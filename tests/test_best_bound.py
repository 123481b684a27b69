"""`best --engine z3`: the per-turn credit budget beside "score >= v" (:func:`credit_bound`).

The budget is added to the certificate's question "one point more", so it must be a consequence
of the model: were it not, "unsat" could be the budget's doing and the certificate unsound. Two
checks, with optima from an independent computation (a brute force over every legal pick
sequence, each final tableau scored by spec.scoring; tests/test_best.py):

* Z3 itself shows the implication: the model with "score >= v" and the budget's negation is
  unsat, for v around the optimum.
* The model with both bounds admits the optimum and refuses the optimum plus one.

Rulesets: the official one, named variants, and custom rule numbers whose credits differ
(tempura_points=6, sets of three, a falling dumpling table whose increments are negative, a
wasabi multiplier of 0 or 1 whose extra is negative or nothing, maki points that fall).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
import z3
from hypothesis import given, seed, settings
from hypothesis import strategies as st
from sushigo.solver.best import _bound, build_pick_model, credit_bound, solve_puzzle
from sushigo.solver.search import STATUS_OPTIMAL, STATUS_UNKNOWN, Puzzle, parse_puzzle, puzzle_turns
from sushigo.spec.cards import Card
from sushigo.spec.errors import InputError
from sushigo.spec.model.budget import Budget, ceiling, decide
from sushigo.spec.model.core import assert_all
from sushigo.spec.ruleset import OFFICIAL, RULESETS, Ruleset
from test_best import _shuffled_hands, brute_force  # brute force: every legal line scored by spec.scoring

RULES: dict[str, Ruleset] = {
    "official": OFFICIAL,
    "dutch": RULESETS["dutch"],
    "wasabi-optional": RULESETS["wasabi-optional"],
    "tempura_points=6": OFFICIAL.replace(name="t6", tempura_points=6),
    "sets-of-three": OFFICIAL.replace(name="s3", tempura_set=3, tempura_points=7, sashimi_set=2),
    "dumpling-falling": OFFICIAL.replace(name="df", dumpling_points=(0, 6, 4, 3, 2, 1)),
    "dumpling-zigzag": OFFICIAL.replace(name="dz", dumpling_points=(0, 3, 2, 6, 1, 15)),
    "wasabi-x0": OFFICIAL.replace(name="w0", wasabi_multiplier=0),
    "wasabi-x1": OFFICIAL.replace(name="w1", wasabi_multiplier=1),
    "maki-upside-down": OFFICIAL.replace(name="mu", maki_first_points=1, maki_second_points=4),
}

_POOL = [c.label for c in Card] + ["tempura", "sashimi", "dumpling", "dumpling", "wasabi", "squid",
                                   "chopsticks", "maki3"]


@st.composite
def tiny_puzzles(draw: st.DrawFn) -> tuple[list[list[str]], list[int]]:
    sizes = draw(st.lists(st.integers(1, 4), min_size=1, max_size=5))
    hands = [draw(st.lists(st.sampled_from(_POOL), min_size=n, max_size=n)) for n in sizes]
    return hands, draw(st.lists(st.integers(0, 7), max_size=2))


def _puzzle(hands: Sequence[Sequence[str]], opponents: Sequence[int], rules: Ruleset) -> Puzzle:
    return parse_puzzle({"hands": [list(h) for h in hands], "opponents_maki": list(opponents)}, rules)


def _answer(constraints: Sequence[z3.BoolRef]) -> str:
    s = z3.Solver()
    assert_all(s, constraints)
    return decide(s, Budget()).status


@pytest.mark.parametrize("rules", list(RULES))
@seed(20261201)
@settings(max_examples=30, deadline=None)
@given(data=tiny_puzzles())
def test_credit_budget_is_implied_and_keeps_the_optimum(rules: str, data: tuple[list[list[str]], list[int]]
                                                        ) -> None:
    hands, opps = data
    try:
        p = _puzzle(hands, opps, RULES[rules])
    except InputError:
        return  # over the deck limit
    best = brute_force(p)
    pm = build_pick_model(puzzle_turns(p), p.opponents_maki, p.rules)
    objective = [(v, w) for v, w in pm.objective]
    for v in (best - 1, best, best + 1):
        # "score >= v" and the model imply the budget: its negation beside them is unsat.
        at_least = z3.PbGe(objective, v) if objective else z3.BoolVal(v <= 0)
        assert _answer([*pm.constraints, at_least, z3.Not(credit_bound(pm, v))]) == "unsat", (hands, opps, v)
    assert _answer([*pm.constraints, *_bound(pm, best)]) == "sat", (hands, opps)
    assert _answer([*pm.constraints, *_bound(pm, best + 1)]) == "unsat", (hands, opps)


def test_the_budget_bites() -> None:
    # Not a vacuous constraint: on its own (no "score >= v" beside it) it refuses what the
    # credits cannot reach. Two hands of tempura and egg: a tempura's credit is 2.5 (the pair's 5
    # over its two cards), an egg's 1, so the credits reach at most 5 (the pair; 6 is refused).
    p = _puzzle([["tempura", "egg"], ["tempura", "egg"]], [], OFFICIAL)
    pm = build_pick_model(puzzle_turns(p), p.opponents_maki, p.rules)
    assert _answer([*pm.constraints, credit_bound(pm, 6)]) == "unsat"
    assert _answer([*pm.constraints, credit_bound(pm, 5)]) == "sat"


def test_a_budget_does_not_outlive_its_question() -> None:
    # The puzzle form asks in one solver per thread (push, pop): a resource limit set for one
    # question (here a ceiling of 1, which leaves it unknown) must not hold for the next one,
    # which is optimal and the search's score (benchmark-shaped puzzles, seeded).
    rng = random.Random(41)
    first, second = (_puzzle(_shuffled_hands(rng, OFFICIAL, 10), [3], OFFICIAL) for _ in range(2))
    with ceiling(Budget(timeout_ms=None, rlimit=1)):
        assert solve_puzzle(first, "z3").status == STATUS_UNKNOWN
    res = solve_puzzle(second, "z3")
    assert res.status == STATUS_OPTIMAL
    assert res.score == solve_puzzle(second, "search").score
