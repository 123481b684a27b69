"""`best`'s last check of an answer: the final tableau scored by the Z3 terms of spec.model.scoring.

The terms are asked through their compiled Python form (:class:`CompiledEvaluator`), which may
only say yes; a no goes to the solver. Held here to the solver path (:func:`spec_model_total`,
a check of the same terms) and to spec.scoring (plain Python, written apart from the terms) on
seeded random tableaux under named rulesets and rule-number overrides, with 0 to 3 opponents.
"""

from __future__ import annotations

import random

import pytest
from sushigo.solver.best import _scorer, spec_model_agrees, spec_model_total
from sushigo.spec.cards import Token
from sushigo.spec.ruleset import OFFICIAL, RULESETS, Ruleset
from sushigo.spec.scoring import round_totals

CASES: dict[str, Ruleset] = {
    **{name: RULESETS[name] for name in ("official", "wasabi-optional", "maki-first-each")},
    "falling": OFFICIAL.replace(maki_first_points=1, maki_second_points=4,
                                dumpling_points=(0, 3, 2, 6, 1, 15)),
    "numbers": OFFICIAL.replace(tempura_set=3, tempura_points=7, nigiri_points=(2, 3, 4), wasabi_multiplier=2,
                                maki_icons=(2, 1, 3)),
}


def _tableaux(seed: int, n: int) -> list[tuple[list[int], list[int]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        tableau = [rng.choice((0, 0, 1, 2, 3, 5)) for _ in Token]
        opponents = [rng.randint(0, 12) for _ in range(rng.randint(0, 3))]
        out.append((tableau, opponents))
    return out


def _spec_total(tableau: list[int], opponents: list[int], rules: Ruleset) -> int:
    """Seat 0's round total by spec.scoring; each opponent holds only one-icon maki rolls, as
    many as its icon total, so the maki ranking is the one asked about."""
    one_icon = int(Token.MAKI1) + list(rules.maki_icons).index(1)
    tabs = [list(tableau)]
    for n in opponents:
        counts = [0] * len(Token)
        counts[one_icon] = n
        tabs.append(counts)
    return round_totals(tabs, rules)[0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_compiled_terms_agree_with_the_solver_and_the_spec(name: str) -> None:
    rules = CASES[name]
    for i, (tableau, opponents) in enumerate(_tableaux(hash(name) % 1000 + 7, 40)):
        by_solver = spec_model_total(tableau, opponents, rules)
        assert by_solver == _spec_total(tableau, opponents, rules), (name, i)
        sc = _scorer(rules, len(opponents))
        assert spec_model_agrees(tableau, opponents, rules, by_solver)
        compiled = sc.evaluator("compiled")
        assert compiled is not None, "the scoring terms should compile"
        values = [*tableau, *opponents]
        # The compiled form itself, not only its solver fallback: yes for the solver's total,
        # no for a total one off either way.
        assert compiled.agrees(values, [by_solver])
        assert not compiled.agrees(values, [by_solver + 1])
        assert not compiled.agrees(values, [by_solver - 1])
        assert not spec_model_agrees(tableau, opponents, rules, by_solver + 1)


def test_a_wrong_total_is_refused_by_the_solver_when_the_compiled_form_cannot_answer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rules = CASES["official"]
    tableau, opponents = [2, 3, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0], [4, 2]
    truth = _spec_total(tableau, opponents, rules)
    sc = _scorer(rules, len(opponents))
    # As if the terms could not be compiled (the evaluator says None): the solver decides alone.
    monkeypatch.setattr(sc, "evaluator", lambda kind="compiled": None)
    assert spec_model_agrees(tableau, opponents, rules, truth)
    assert not spec_model_agrees(tableau, opponents, rules, truth + 1)
