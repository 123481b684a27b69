"""The substitution evaluator (spec.model.evaluate, the compiled one's reference) answers as the solver.

Expected values come from an independent computation: the same model decided by Z3's solver
(facts and claims as assumptions), on agreeing claims (the executor's scores) and on claims
with one output moved off by one, under readings drawn from every combination.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sushigo.checks import properties as P
from sushigo.checks import strategies as S
from sushigo.spec import scoring
from sushigo.spec.model.evaluate import Evaluator, Undecided
from sushigo.spec.ruleset import OFFICIAL, RULESETS, Ruleset

SETTINGS = settings(max_examples=40, derandomize=True, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck))


def _solver(ch: P.Checker, inputs: list[int], outputs: list[Any]) -> bool:
    return ch._decide([*ch.facts(inputs), *ch.claims(outputs)])


def _moved(outputs: list[Any], k: int) -> list[Any]:
    out = list(outputs)
    k %= len(out)
    out[k] = (not out[k]) if isinstance(out[k], bool) else out[k] + 1
    return out


def _both(ch: P.Checker, inputs: list[int], outputs: list[Any], k: int) -> None:
    try:
        ev = Evaluator(ch.m, ch.inputs, ch.outputs)
    except Undecided:  # a model it cannot read is left to the solver (Checker.evaluator is None)
        return
    for claim in (outputs, _moved(outputs, k)):
        assert ev.agrees(inputs, claim) == _solver(ch, inputs, claim), (inputs, claim)


@st.composite
def round_cases(draw: st.DrawFn, rulesets: st.SearchStrategy[Ruleset] | None = None
                ) -> tuple[Ruleset, list[int], list[Any], int]:
    """A ruleset (from ``rulesets``, default the named and drawn ones of checks.strategies), a
    table's token counts, the executor's round scores for it, and a number for a wrong claim."""
    rules = draw(rulesets if rulesets is not None else S.rulesets())
    tabs = draw(S.tables(rules)).tableaux(rules)
    return rules, [n for t in tabs for n in t.counts], P._flat_round(P.executor_round(tabs, rules)), \
        draw(st.integers(0, 10**6))


@SETTINGS
@given(round_cases())
def test_round_model_evaluator_equals_solver(case: tuple[Ruleset, list[int], list[Any], int]) -> None:
    rules, inputs, outputs, k = case
    _both(P.round_model(rules, len(inputs) // 15), inputs, outputs, k)


@SETTINGS
@given(S.rulesets().flatmap(lambda r: st.tuples(st.just(r), S.pudding_counts(r), st.integers(0, 10**6))))
def test_pudding_model_evaluator_equals_solver(case: tuple[Ruleset, tuple[int, ...], int]) -> None:
    rules, counts, k = case
    _both(P.pudding_model(rules, len(counts)), list(counts), list(scoring.pudding_points(counts, rules)), k)


@SETTINGS
@given(S.rulesets().flatmap(lambda r: st.tuples(st.just(r), S.games(r), st.integers(0, 10**6))))
def test_game_model_evaluator_equals_solver(case: tuple[Ruleset, S.Game, int]) -> None:
    rules, game, k = case
    _both(*game_model_case(rules, game), k)


def game_model_case(rules: Ruleset, game: S.Game) -> tuple[P.Checker, list[int], list[Any]]:
    """A game model, its inputs (every round's token counts) and the outputs spec.scoring gives
    (puddings, totals, winners): the case both evaluators are held to."""
    rounds = game.tableaux(rules)
    seats = game.seats
    ch = P.game_model(rules, seats)
    gs = scoring.score_game(rounds, rules, S.players_of(rules, seats))
    nwin = len(ch.outputs) - 2 * seats
    outputs: list[Any] = [*(gs.pudding or [0] * seats), *gs.totals, *[i in gs.winners for i in range(nwin)]]
    return ch, [n for r in rounds for t in r for n in t.counts], outputs


@SETTINGS
@given(st.lists(st.integers(-3, 12), min_size=6, max_size=6), st.lists(st.integers(-3, 12), min_size=3,
       max_size=3), st.integers(0, 10**6))
def test_out_of_domain_inputs_agree_with_solver(puds: list[int], wins: list[int], k: int) -> None:
    """Inputs outside the model's domain (negative, beyond the deck): both say no, or both yes."""
    ch = P.pudding_model(OFFICIAL, 3)
    _both(ch, puds[:3], [wins[0], wins[1], wins[2]], k)
    wm = P.winner_model(OFFICIAL, 3)
    _both(wm, puds, [w > 4 for w in wins], k)


def test_reused_checker_gives_the_fresh_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Checker past its evaluator threshold answers as a fresh one (the solver) does."""
    monkeypatch.setattr(P, "EVALUATOR", ["substitution"])
    model = P.round_model(OFFICIAL, 2)
    ch = P.Checker(model.m, model.inputs, model.outputs)
    fresh = P.Checker(ch.m, ch.inputs, ch.outputs)
    tabs = S.Table(((),)).tableaux(OFFICIAL) * 2
    inputs = [n for t in tabs for n in t.counts]
    outputs = P._flat_round(P.executor_round(tabs, OFFICIAL))
    for k in range(P.EVALUATE_AFTER["substitution"] + 3):
        claim = outputs if k % 2 == 0 else _moved(outputs, k)
        assert ch.agrees(inputs, claim) == _solver(fresh, inputs, claim) == (k % 2 == 0)
    assert ch.evaluator("substitution") is not None


def test_every_named_ruleset_is_evaluated() -> None:
    """The models of every named ruleset are read by the evaluator, not left to the solver
    (``3 == v``, as Z3 builds ``v == 3`` from a Python int, is a definition too)."""
    for rules in RULESETS.values():
        for seats in (2, 3, 4, 5) if rules is OFFICIAL else (3,):
            for build in (P.round_model, P.pudding_model, P.winner_model, P.game_model, P.maki_model):
                ev = build(rules, seats).evaluator("substitution")
                assert ev is not None, (rules.name, build.__name__, seats)
        P.release_models()
