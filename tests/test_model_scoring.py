"""The Z3 scoring terms agree with spec.scoring (the executor's pure scoring) on random tables."""

from __future__ import annotations

import z3
from hypothesis import given, settings
from hypothesis import strategies as st
from sushigo.spec.cards import Card, Token
from sushigo.spec.model.core import Model
from sushigo.spec.model.scoring import pudding_terms, round_terms, tableau_vars, winner_terms
from sushigo.spec.ruleset import RULESETS
from sushigo.spec.scoring import pudding_points, round_totals, score_round, winners
from sushigo.spec.tableau import Tableau

NAMES = sorted(RULESETS)
# Small counts keep ties (the interesting cases) frequent.
TABLEAU = st.lists(st.integers(0, 3), min_size=len(Token), max_size=len(Token)).map(tuple)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(NAMES), st.lists(TABLEAU, min_size=2, max_size=5))
def test_round_terms_agree_with_spec_scoring(name: str, tables: list[tuple[int, ...]]) -> None:
    rules = RULESETS[name]
    m = Model()
    tabs = [tableau_vars(m, f"p{i}", rules) for i in range(len(tables))]
    for vs, counts in zip(tabs, tables, strict=True):
        m.add("FACT", [v == k for v, k in zip(vs, counts, strict=True)])
    seats = round_terms(m, "r0", tabs, rules)
    s = m.solver()
    assert s.check() == z3.sat
    got = [s.model().eval(d["total"]).as_long() for d in seats]
    assert got == round_totals(tables, rules)
    maki = [s.model().eval(d["maki"]).as_long() for d in seats]
    assert maki == [r.maki for r in score_round([Tableau(t) for t in tables], rules)]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(NAMES), st.lists(st.integers(0, 4), min_size=2, max_size=5),
       st.lists(st.integers(0, 40), min_size=5, max_size=5))
def test_pudding_and_winner_terms_agree(name: str, puddings: list[int], totals: list[int]) -> None:
    rules = RULESETS[name]
    m = Model()
    pv = [m.int(f"p{i}_puddings", 0, rules.copies(Card.PUDDING)) for i in range(len(puddings))]
    m.add("FACT", [v == k for v, k in zip(pv, puddings, strict=True)])
    pts = pudding_terms(m, "game", pv, rules)
    tot = [z3.IntVal(t) for t in totals[: len(puddings)]]
    wins = winner_terms(m, "game", tot, pv, rules)
    s = m.solver()
    assert s.check() == z3.sat
    assert [s.model().eval(p).as_long() for p in pts] == pudding_points(puddings, rules)
    got = [i for i, w in enumerate(wins) if z3.is_true(s.model().eval(w))]
    assert got == winners(totals[: len(puddings)], puddings, rules)
