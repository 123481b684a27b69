"""Concrete values asked of a model's terms: do these outputs follow from these inputs?

A :class:`TermChecker` holds a :class:`~spec.model.core.Model`, the terms that stand for its
inputs and the terms it computes from them. Two questions, each answered by Z3:

* :meth:`TermChecker.agrees`: are the given outputs the model's for the given inputs? The
  model's terms compiled into Python (:class:`~spec.model.compiled.CompiledEvaluator`) or
  substituted and simplified (:class:`~spec.model.evaluate.Evaluator`) may answer a yes; a no,
  or a case they cannot reduce, goes to the solver, so a disagreement is always the solver's
  verdict.
* :meth:`TermChecker.expected`: the model's outputs for the given inputs, read from a model of
  the solver.

One solver per checker, made at the first question that needs it: the literals ``term ==
value`` are made once and passed as assumptions (no push, no pop, no new terms per question).
Used by ``sushigo check`` (:class:`checks.properties.Checker` adds its evaluator policy and the
unsat-core explanations) and by ``sushigo best``, whose answers' final tableaux are scored by
the terms of :mod:`spec.model.scoring` this way.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from functools import cached_property
from typing import Any

from sushigo.spec.model.budget import Budget, decide
from sushigo.spec.model.compiled import CompiledEvaluator
from sushigo.spec.model.core import Model
from sushigo.spec.model.evaluate import Evaluator, Undecided

#: The evaluators :meth:`TermChecker.agrees` can try before the solver, by name: "compiled"
#: (the terms as Python, fast) and "substitution" (``Z3_substitute`` and ``z3.simplify`` per
#: case, the reference the compiled one is tested against).
EVALUATORS: dict[str, type[Evaluator] | type[CompiledEvaluator]] = {
    "compiled": CompiledEvaluator, "substitution": Evaluator}


class TermChecker:
    """A model's output terms asked about concrete inputs (see the module's text).

    ``budget``: every solver question runs under it (none: no limit of its own, the run's
    ceiling still applies), and an unknown raises
    :class:`~sushigo.spec.errors.BudgetSpent` (never read as a verdict). ``literals_kept``: the
    ``term == value`` literals kept for reuse, unbounded by default; a checker whose inputs are
    the caller's values (any integer) bounds it.
    """

    def __init__(self, m: Model, inputs: Sequence[Any], outputs: Sequence[Any],
                 budget: Budget | None = None, literals_kept: int | None = None) -> None:
        self.m = m
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self.budget = budget if budget is not None else Budget()
        self.literals_kept = literals_kept
        self._eq: dict[tuple[int, object], Any] = {}
        self._evaluators: dict[str, Evaluator | CompiledEvaluator | None] = {}

    @cached_property
    def solver(self) -> Any:
        """Made at the first question: where the evaluator agrees with every case, never."""
        return self.m.solver()

    def _lit(self, term: Any, index: int, value: object) -> Any:
        key = (index, value)
        lit = self._eq.get(key)
        if lit is None:
            if self.literals_kept is not None and len(self._eq) >= self.literals_kept:
                self._eq.clear()
            lit = self._eq[key] = term == value
        return lit

    def facts(self, values: Sequence[int]) -> list[Any]:
        """``input == value`` for each input."""
        return [self._lit(v, k, x) for k, (v, x) in enumerate(zip(self.inputs, values, strict=True))]

    def claims(self, values: Sequence[object]) -> list[Any]:
        """``output == value`` for each output."""
        n = len(self.inputs)
        return [self._lit(t, n + k, x) for k, (t, x) in enumerate(zip(self.outputs, values, strict=True))]

    def _decide(self, lits: Sequence[Any]) -> bool:
        """sat or unsat; an unknown raises :class:`~sushigo.spec.errors.BudgetSpent` (never a verdict)."""
        answer = decide(self.solver, self.budget, lits)
        if answer.status == "unknown":
            raise answer.spent()
        return answer.sat

    def evaluator(self, kind: str = "compiled") -> Evaluator | CompiledEvaluator | None:
        """This model's evaluator of ``kind`` (built once), or None if it cannot read the model."""
        if kind not in self._evaluators:
            try:
                self._evaluators[kind] = EVALUATORS[kind](self.m, self.inputs, self.outputs)
            except Undecided:
                self._evaluators[kind] = None
        return self._evaluators[kind]

    def agrees(self, inputs: Sequence[int], outputs: Sequence[object], kind: str | None = "compiled") -> bool:
        """Are ``outputs`` the model's for ``inputs``? The evaluator of ``kind`` (none: the solver
        alone) may answer a yes; anything else is the solver's verdict."""
        if kind is not None:
            ev = self.evaluator(kind)
            if ev is not None:
                with contextlib.suppress(Undecided):
                    if ev.agrees(inputs, outputs):
                        return True
        return self._decide([*self.facts(inputs), *self.claims(outputs)])

    def expected(self, inputs: Sequence[int]) -> list[object] | None:
        """The model's outputs for these inputs (None if the inputs break the model's domain)."""
        if not self._decide(self.facts(inputs)):
            return None
        mdl = self.solver.model()
        out: list[object] = []
        for t in self.outputs:
            v = mdl.eval(t, model_completion=True)
            out.append(str(v) == "True" if str(v) in ("True", "False") else v.as_long())
        return out
