"""The compiled evaluator (spec.model.compiled) answers exactly as the solver does.

Expected values come from an independent computation: the same model decided by Z3's solver
(facts and claims as assumptions), on agreeing claims (the executor's values) and on claims
with one output moved off by one, for every model kind ``sushigo check`` evaluates, under
named rulesets, drawn combinations of readings and a few changed rule numbers (``--rule``).
Operators the models do not use yet (sub, unary minus, mod, distinct, implies, xor, and
``div`` by negative numbers) are held to the solver on a model made for them.
"""

from __future__ import annotations

from typing import Any

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sushigo.checks import properties as P
from sushigo.checks import strategies as S
from sushigo.spec import scoring
from sushigo.spec.cards import Token
from sushigo.spec.model.compiled import CompiledEvaluator
from sushigo.spec.model.core import Model
from sushigo.spec.model.evaluate import Evaluator, Undecided
from sushigo.spec.ruleset import OFFICIAL, RULESETS, Ruleset
from sushigo.spec.tableau import Tableau
from test_check_evaluate import game_model_case, round_cases  # outputs by the executor and spec.scoring

SETTINGS = settings(max_examples=40, derandomize=True, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck))

#: Rule numbers changed as ``check --rule`` changes them: odd shares make ``div`` round.
NUMBER_BASES = (
    OFFICIAL,
    OFFICIAL.replace(name="numbers-a", tempura_points=6, maki_first_points=7, maki_second_points=5),
    OFFICIAL.replace(name="numbers-b", pudding_most_points=7, pudding_fewest_penalty=5, sashimi_points=9),
    OFFICIAL.replace(name="numbers-c", wasabi_multiplier=2, maki_first_points=5, pudding_fewest_penalty=3),
)


def any_rulesets() -> st.SearchStrategy[Ruleset]:
    """A named ruleset, or any combination of readings under one of :data:`NUMBER_BASES`."""
    return st.one_of(S.named_rulesets(), st.sampled_from(NUMBER_BASES).flatmap(S.rulesets))


def _solver(ch: P.Checker, inputs: list[int], outputs: list[Any]) -> bool:
    return ch._decide([*ch.facts(inputs), *ch.claims(outputs)])


def _moved(outputs: list[Any], k: int) -> list[Any]:
    out = list(outputs)
    k %= len(out)
    out[k] = (not out[k]) if isinstance(out[k], bool) else out[k] + (1 if k % 2 else -1)
    return out


def _both(ch: P.Checker, inputs: list[int], outputs: list[Any], k: int) -> None:
    """The compiled answer equals the solver's, on the executor's claims and on a wrong one."""
    ev = CompiledEvaluator(ch.m, ch.inputs, ch.outputs)  # every model sushigo check uses compiles
    for claim in (outputs, _moved(outputs, k)):
        assert ev.agrees(inputs, claim) == _solver(ch, inputs, claim), (inputs, claim, ev.source)


@SETTINGS
@given(round_cases(any_rulesets()))
def test_round_model(case: tuple[Ruleset, list[int], list[Any], int]) -> None:
    rules, inputs, outputs, k = case
    _both(P.round_model(rules, len(inputs) // len(Token)), inputs, outputs, k)


@SETTINGS
@given(any_rulesets().flatmap(lambda r: st.tuples(st.just(r), S.pudding_counts(r), st.integers(0, 10**6))))
def test_pudding_model(case: tuple[Ruleset, tuple[int, ...], int]) -> None:
    rules, counts, k = case
    _both(P.pudding_model(rules, len(counts)), list(counts), list(scoring.pudding_points(counts, rules)), k)


@SETTINGS
@given(any_rulesets().flatmap(lambda r: st.tuples(st.just(r), S.totals_and_puddings(r),
                                                  st.integers(0, 10**6))))
def test_winner_model(case: tuple[Ruleset, tuple[tuple[int, ...], tuple[int, ...]], int]) -> None:
    rules, (totals, puds), k = case
    ch = P.winner_model(rules, len(totals))
    won = scoring.winners(totals, puds, rules, S.players_of(rules, len(totals)))
    _both(ch, [*totals, *puds], [i in won for i in range(len(ch.outputs))], k)


@settings(SETTINGS, max_examples=25)
@given(any_rulesets().flatmap(lambda r: st.tuples(st.just(r), S.games(r), st.integers(0, 10**6))))
def test_game_model(case: tuple[Ruleset, S.Game, int]) -> None:
    rules, game, k = case
    _both(*game_model_case(rules, game), k)


@st.composite
def maki_cases(draw: st.DrawFn) -> tuple[Ruleset, list[int], list[int], int]:
    rules = draw(any_rulesets())
    seats = draw(st.sampled_from(S.seat_counts(rules)))
    counts = [[draw(st.integers(0, 3)) for _ in P._MAKI_TOKENS] for _ in range(seats)]
    tabs = []
    for c in counts:
        vec = [0] * len(Token)
        for t, n in zip(P._MAKI_TOKENS, c, strict=True):
            vec[int(t)] = n
        tabs.append(Tableau(tuple(vec)))
    maki = [d["maki"] for d in P.executor_round(tabs, rules)]
    return rules, [n for c in counts for n in c], maki, draw(st.integers(0, 10**6))


@SETTINGS
@given(maki_cases())
def test_maki_model(case: tuple[Ruleset, list[int], list[int], int]) -> None:
    rules, inputs, outputs, k = case
    _both(P.maki_model(rules, len(inputs) // len(P._MAKI_TOKENS)), inputs, outputs, k)


@SETTINGS
@given(st.lists(st.integers(-3, 12), min_size=6, max_size=6), st.lists(st.integers(-7, 12), min_size=3,
       max_size=3), st.integers(0, 10**6))
def test_out_of_domain_inputs(puds: list[int], claims: list[int], k: int) -> None:
    """Inputs outside the model's domain (negative, beyond the deck): both say no, or both yes."""
    _both(P.pudding_model(OFFICIAL, 3), puds[:3], claims, k)
    _both(P.winner_model(OFFICIAL, 3), puds, [w > 4 for w in claims], k)
    _both(P.maki_model(OFFICIAL, 2), puds, claims[:2], k)


def _ops_model() -> P.Checker:
    """Every operator the compiler knows, over two inputs (``/`` and ``%`` on Ints are div, mod)."""
    m = Model()
    x, y = m.int("x", None), m.int("y", None)
    d = m.int("d", None)
    m.add("DEF", d == x - y - 1)
    b = m.bool("b")
    m.add("DEF", b == z3.Xor(x < y, z3.Implies(x > 0, z3.Distinct(x, y, d))))
    outputs = [x / y, x % y, -d, z3.If(b, x * 2, -y), z3.Not(b), x == y]
    return P.Checker(m, [x, y], outputs)


def _reference(ch: P.Checker, inputs: list[int]) -> list[Any] | None:
    """The outputs the solver finds (None if y == 0: Z3 leaves ``div`` by zero unspecified)."""
    return None if inputs[1] == 0 else ch.expected(inputs)


@settings(SETTINGS, max_examples=200)
@given(st.integers(-9, 9), st.integers(-4, 4), st.integers(0, 10**6))
def test_operators_and_euclidean_division(x: int, y: int, k: int) -> None:
    ch = _ops_model()
    ev = CompiledEvaluator(ch.m, ch.inputs, ch.outputs)
    want = _reference(ch, [x, y])
    if want is None:
        with pytest.raises(Undecided):
            ev.agrees([x, y], [0, 0, 0, 0, False, False])
        return
    assert ev.agrees([x, y], want)
    assert ev.agrees([x, y], _moved(want, k)) == _solver(ch, [x, y], _moved(want, k))


@pytest.mark.parametrize(("x", "y", "q", "r"), [(7, 2, 3, 1), (-7, 2, -4, 1), (7, -2, -3, 1), (-7, -2, 4, 1),
                                                (-6, 3, -2, 0), (6, -4, -1, 2), (-1, -5, 1, 4)])
def test_div_mod_are_euclidean(x: int, y: int, q: int, r: int) -> None:
    """SMT-LIB: x == y * q + r and 0 <= r < |y| (hand computed; Python's // and % floor instead)."""
    assert x == y * q + r and 0 <= r < abs(y)
    ch = _ops_model()
    ev = CompiledEvaluator(ch.m, ch.inputs, ch.outputs)
    want = ch.expected([x, y])
    assert want is not None and want[:2] == [q, r]
    assert ev.agrees([x, y], want)
    assert not ev.agrees([x, y], [q - 1, r, *want[2:]])


def _unreadable(make: str) -> Model:
    m = Model()
    x = m.int("x", None)
    out = m.int("out", None)
    if make == "function":
        m.add("R", out == z3.Function("f", z3.IntSort(), z3.IntSort())(x))
    elif make == "free":
        m.add("R", out == x + m.int("free", None))
    elif make == "cycle":
        w = m.int("w", None)
        m.add("R", [out == w + 1, w == out - 1])
    return m


@pytest.mark.parametrize("make", ["function", "free", "cycle"])
def test_what_it_cannot_read_is_left_to_the_solver(make: str) -> None:
    """An uninterpreted function, a free variable, cyclic definitions: Undecided when built, and the
    Checker asks the solver instead (the same verdicts as the solver alone)."""
    m = _unreadable(make)
    x, out = m.vars["x"], m.vars["out"]
    with pytest.raises(Undecided):
        CompiledEvaluator(m, [x], [out])
    ch = P.Checker(m, [x], [out])
    assert ch.evaluator("compiled") is None
    fresh = P.Checker(m, [x], [out])
    for value in (0, 3, 4):
        assert ch.agrees([3], [value]) == _solver(fresh, [3], [value])


def test_checker_gives_the_solver_answers() -> None:
    """A Checker answering through the compiled evaluator answers as a fresh one (the solver) does,
    and a disagreement is decided by the solver (it is made for it)."""
    ch = P.Checker(*_round_parts())
    fresh = P.Checker(ch.m, ch.inputs, ch.outputs)
    tabs = S.Table(((),)).tableaux(OFFICIAL) * 2
    inputs = [n for t in tabs for n in t.counts]
    outputs = P._flat_round(P.executor_round(tabs, OFFICIAL))
    assert P.EVALUATOR[0] == "compiled"
    assert ch.agrees(inputs, outputs) and "solver" not in ch.__dict__  # no solver for an agreement
    for k in range(6):
        claim = outputs if k % 2 == 0 else _moved(outputs, k)
        assert ch.agrees(inputs, claim) == _solver(fresh, inputs, claim) == (k % 2 == 0)
    assert "solver" in ch.__dict__ and ch.evaluator("compiled") is not None


def _round_parts() -> tuple[Model, list[Any], list[Any]]:
    ch = P.round_model(OFFICIAL, 2)
    return ch.m, ch.inputs, ch.outputs


@SETTINGS
@given(round_cases())
def test_compiled_equals_substitution(case: tuple[Ruleset, list[int], list[Any], int]) -> None:
    """The compiled evaluator and the substitution evaluator (its reference) give one answer."""
    rules, inputs, outputs, k = case
    ch = P.round_model(rules, len(inputs) // len(Token))
    sub = Evaluator(ch.m, ch.inputs, ch.outputs)
    ev = CompiledEvaluator(ch.m, ch.inputs, ch.outputs)
    for claim in (outputs, _moved(outputs, k)):
        assert ev.agrees(inputs, claim) == sub.agrees(inputs, claim)


def test_every_named_ruleset_is_compiled() -> None:
    """The models of every named ruleset are compiled, not left to the solver."""
    for rules in RULESETS.values():
        for seats in S.seat_counts(rules):
            for build in (P.round_model, P.pudding_model, P.winner_model, P.game_model, P.maki_model):
                assert build(rules, seats).evaluator("compiled") is not None, (rules.name, build.__name__)
        P.release_models()


def test_a_chosen_variable_must_be_an_integer() -> None:
    """A Boolean no equation defines is not searched (the substitution evaluator does not either)."""
    m = Model()
    x = m.int("x", None)
    b = m.bool("b")
    m.add("R", z3.Or(b == (x > 0), b == (x < 0)))
    with pytest.raises(Undecided):
        CompiledEvaluator(m, [x], [b])
