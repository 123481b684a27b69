"""Conformance harness: hold someone else's Sushi Go scoring against the reference.

The target is a Python file or an importable module exposing the adapter
protocol (see ``docs/checks.md`` and ``examples/conform_adapter.py``)::

    score_round(tableaux: list[list[str]]) -> list[int]
    score_puddings(counts: list[int]) -> list[int]        # optional

``tableaux`` holds, per player, the canonical card names the player took this
round in pick order (a chopsticks turn is its two cards in order; used
chopsticks are not listed). The order matters: under the official rules a
nigiri taken after a free wasabi lies on it, so the harness generates pick
*orders*, not just multisets.

The target runs in its own process (:mod:`.engine`) under a time limit per call
and a memory limit. Cases (:mod:`.cases`) are the strategies of ``sushigo check``
plus every enumerated edge case. Every independent fault is found, minimised and
attributed by a test (:mod:`.faults`, :mod:`.pitfalls`); the fingerprint says
which reading of each contested rule the target follows (:mod:`.report`).
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sushigo.checks.conform.cases import (
    PuddingCase,
    RoundCase,
    picks_of_tableau,
    pudding_cases,
    reference_round,
    reference_tableau,
    round_cases,
)
from sushigo.checks.conform import engine as engine_mod
from sushigo.checks.conform.engine import Answer, BadTarget, Engine, Interrupted, Limits
from sushigo.checks.conform.faults import Budget, Side, find_faults
from sushigo.checks.conform.pitfalls import PUDDING_READINGS, ROUND_READINGS
from sushigo.checks.conform.report import (
    Disagreement,
    Report,
    _fmt,
    adapter_entries,
    describe_fingerprint,
    fault_entries,
    fingerprint,
)
from sushigo.checks.properties import Z3Budget
from sushigo.spec.model.core import interrupts_reach_python
from sushigo.spec.ruleset import Ruleset

__all__ = [
    "PUDDING_READINGS", "ROUND_READINGS", "Answer", "BadTarget", "Disagreement", "Interrupted", "Limits",
    "PuddingCase", "Report", "RoundCase", "Target", "Z3Budget", "_fmt", "conform", "describe_fingerprint",
    "interruptible", "load_target", "picks_of_tableau", "points_bound", "pudding_cases", "reference_round",
    "reference_tableau", "round_cases",
]


@dataclass(frozen=True)
class Target:
    name: str
    score_puddings: bool
    limits: Limits = field(default_factory=Limits)


def load_target(spec: str, limits: Limits | None = None) -> Target:
    """Load the adapter once in its own process; BadTarget (exit 2) with its error if it cannot be."""
    lim = limits or Limits()
    with Engine(spec, lim) as engine:
        return Target(spec, engine.score_puddings, lim)


def points_bound(rules: Ruleset) -> int:
    """More than any seat can score in a round or from puddings: every card of the deck at the
    best value any card has. Beyond it an answer is absurd and never reaches Z3."""
    best_card = max(max(rules.nigiri_points) * rules.wasabi_multiplier, rules.tempura_points,
                    rules.sashimi_points, max(rules.dumpling_points), rules.maki_points_cap,
                    rules.pudding_most_points, rules.pudding_fewest_penalty)
    return sum(rules.deck) * best_card


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """SIGINT and SIGTERM raise :class:`Interrupted` (the engine's child is killed on the way out)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        if not engine_mod.pending:
            engine_mod.pending.append(signum)
        raise Interrupted(signum)

    previous_hook = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        # The stop raised inside a __del__ is not an error to print: engine.stop_point raises it again.
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            previous_hook(unraisable)

    engine_mod.pending.clear()
    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    sys.unraisablehook = hook
    try:
        yield
        engine_mod.stop_point()
    finally:
        sys.unraisablehook = previous_hook
        for s, h in old.items():
            signal.signal(s, h)


def _ask_all(side: Side, cases: Sequence[Any], budget: Budget) -> int:
    side.prefetch(cases)
    return sum(1 for c in cases if c in side.answers)


def conform(target: Target, rules: Ruleset, examples: int = 2000, seed: int | None = None,
            limits: Limits | None = None, z3: Z3Budget | None = None,
            clock: Callable[[], float] = time.monotonic) -> Report:
    lim = limits or target.limits
    zb = z3 or Z3Budget()
    report = Report(target.name, rules.name, seed=seed)
    report.budget = {"examples": examples, **lim.as_dict(), "z3": zb.as_dict()}
    start = clock()
    budget = Budget(lim.time_limit, clock)
    with interruptible(), interrupts_reach_python(), \
            Engine(target.name, lim, points_bound(rules)) as engine:
        rcases = round_cases(rules, examples, seed)
        report.round_cases = len(rcases)
        sides = [(Side("round", engine, rules, zb, budget), rcases)]
        pcases: list[PuddingCase] = []
        if engine.score_puddings:
            report.pudding_checked = True
            pcases = pudding_cases(rules, examples, seed)
            report.pudding_cases = len(pcases)
            sides.append((Side("pudding", engine, rules, zb, budget), pcases))
        runs = [_ask_all(side, cases, budget) for side, cases in sides]
        report.round_cases_run = runs[0]
        report.pudding_cases_run = runs[1] if len(runs) > 1 else 0
        for side, cases in sides:
            faults = find_faults(side, cases)
            entries, old = fault_entries(side, faults, len(report.faults) + 1)
            report.faults += entries
            report.disagreements += old
        for side, _ in sides:
            entries, old = adapter_entries(side)
            report.adapter_faults += entries
            report.disagreements += old
        rside = sides[0][0]
        answers = [_value(rside.answers.get(c)) for c in rcases]
        pud = [_value(sides[1][0].answers.get(c)) for c in pcases] if len(sides) > 1 else []
        report.fingerprint = fingerprint(rules, rcases, answers, pcases, pud, engine.score_puddings)
        report.restarts = engine.restarts
    if budget.hit:
        done = report.round_cases_run + report.pudding_cases_run
        report.stopped = (f"the time limit of {lim.time_limit:g} s ran out after {done} of "
                          f"{report.round_cases + report.pudding_cases} cases")
    report.seconds = clock() - start
    return report


def _value(ans: Answer | None) -> list[int] | None:
    return list(ans.value) if ans is not None and ans.value is not None else None
