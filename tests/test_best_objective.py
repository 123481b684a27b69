"""`best`'s specialised encoding against the spec's builders (issue 13 item 3).

``build_pick_model`` scores a line of picks as a weighted sum of pick literals (a
pseudo-Boolean objective, much faster than the integer scoring terms). Here Z3 proves,
over every assignment its pick constraints allow, that this objective equals the round
score the spec's builders (:func:`spec.model.scoring.dish_terms`, ``icons_term``,
``maki_terms``) give the resulting tableau:

(a) it never claims more: constraints and ``objective > spec total`` is unsat;
(b) it reaches it: with each indicator literal meaning what it stands for (``tempura_2``:
    at least two pairs; ``maki_j``: exactly j rolls), ``objective != spec total`` is unsat.

Together they say the optimum of the objective is the optimum of the spec's score.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st
from sushigo.solver.best import PickModel, build_pick_model
from sushigo.solver.search import parse_puzzle, puzzle_turns
from sushigo.spec.cards import NIGIRI, STACK_OF, Card, Token
from sushigo.spec.model.budget import decide
from sushigo.spec.model.core import Model
from sushigo.spec.model.scoring import dish_terms, icons_term, maki_terms, total_term
from sushigo.spec.ruleset import OFFICIAL, Ruleset

RULESETS = {
    "official": OFFICIAL,
    "variant": OFFICIAL.replace(wasabi_placement="optional", tempura_set=3, tempura_points=7,
                                nigiri_points=(2, 3, 4), wasabi_multiplier=2, maki_icons=(2, 1, 3)),
    # Tables that fall: maki second place worth more than first (exact maki levels, not the
    # thresholds) and a dumpling table that goes down (the indicators become equivalences).
    "falling": OFFICIAL.replace(maki_first_points=1, maki_second_points=4,
                                dumpling_points=(0, 3, 2, 6, 1, 15)),
}


def _one(lits: Sequence[z3.BoolRef]) -> z3.ArithRef:
    return z3.Sum([z3.If(v, 1, 0) for v in lits]) if lits else z3.IntVal(0)


def _picks(pm: PickModel, c: int) -> list[z3.BoolRef]:
    return [x[c] for x in pm.first + pm.second if c in x]


def _on(pm: PickModel, c: int) -> list[z3.BoolRef]:
    return [x[c] for x in pm.first_on + pm.second_on if c in x]


def _prove(hands: list[list[str]], opps: list[int], rules: Ruleset) -> None:
    puzzle = parse_puzzle({"hands": hands, "opponents_maki": opps}, rules)
    pm = build_pick_model(puzzle_turns(puzzle), puzzle.opponents_maki, rules)
    # The final tableau's token counts as terms over the pick literals.
    counts: list[z3.ArithRef] = [_one(_picks(pm, int(c))) for c in Card]
    all_on = []
    for nigiri in NIGIRI:
        on = _on(pm, int(nigiri))
        all_on += on
        counts[int(nigiri)] = counts[int(nigiri)] - _one(on)
    counts[int(Card.WASABI)] = counts[int(Card.WASABI)] - _one(all_on)
    counts += [z3.IntVal(0)] * (len(Token) - len(Card))
    for nigiri in NIGIRI:
        counts[int(STACK_OF[nigiri])] = _one(_on(pm, int(nigiri)))
    m = Model()
    dishes = dish_terms(m, "spec", counts, rules)
    maki = maki_terms(m, "round", [icons_term(counts, rules), *[z3.IntVal(o) for o in opps]], rules)[0]
    spec_total = total_term(dishes, maki)
    objective = z3.Sum([z3.If(v, w, 0) for v, w in pm.objective]) if pm.objective else z3.IntVal(0)

    s = m.solver()
    s.add(*pm.constraints, objective > spec_total)
    assert decide(s).unsat, "the objective claims more than the spec's score"

    s = m.solver()
    s.add(*pm.constraints)
    sets = ((Card.TEMPURA, rules.tempura_set), (Card.SASHIMI, rules.sashimi_set), (Card.DUMPLING, 1))
    for card, size in sets:
        for k in range(1, 15):
            s.add(z3.Bool(f"{card.label}_{k}") == (_one(_picks(pm, int(card))) >= k * size))
    icons = icons_term(counts, rules)
    cap = max(opps, default=0) + 1
    for j in range(1, cap + 1):
        s.add(z3.Bool(f"maki_{j}") == (icons == j if j < cap else icons >= cap))
        s.add(z3.Bool(f"maki_ge_{j}") == (icons >= j))  # the thresholds when maki points never fall
    s.add(objective != spec_total)
    assert decide(s).unsat, "the objective misses the spec's score"


HAND_PUZZLES = [
    # wasabi then squid on it, chopsticks for two picks, sets, dumplings and maki against [3].
    ([["wasabi", "chopsticks", "tempura"], ["squid", "salmon", "tempura"], ["egg", "squid", "dumpling"],
      ["dumpling", "maki3", "maki2"], ["sashimi", "sashimi", "sashimi"],
      ["sashimi", "maki1", "pudding"]], [3]),
    ([["maki3", "maki2"], ["maki1", "egg"], ["maki3", "wasabi"]], [2, 5]),
    ([["chopsticks", "dumpling"], ["dumpling", "dumpling", "wasabi"], ["salmon", "squid", "dumpling"],
      ["dumpling", "dumpling"]], []),
]


@pytest.mark.parametrize("rules", list(RULESETS), ids=list(RULESETS))
@pytest.mark.parametrize("hands,opps", HAND_PUZZLES)
def test_objective_equals_spec_score(hands: list[list[str]], opps: list[int], rules: str) -> None:
    _prove(hands, opps, RULESETS[rules])


_POOL = [c.label for c in Card] + ["wasabi", "squid", "salmon", "chopsticks", "tempura", "maki2", "egg"]


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=5).flatmap(
    lambda sizes: st.tuples(*[st.lists(st.sampled_from(_POOL), min_size=n, max_size=n) for n in sizes])),
    st.lists(st.integers(0, 7), max_size=3), st.sampled_from(list(RULESETS)))
def test_objective_equals_spec_score_on_drawn_puzzles(hands: tuple[list[str], ...], opps: list[int],
                                                      rules: str) -> None:
    _prove(list(hands), opps, RULESETS[rules])
