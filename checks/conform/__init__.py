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
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sushigo.checks.conform import again
from sushigo.checks.conform import engine as engine_mod
from sushigo.checks.conform.cases import (
    PuddingCase,
    RoundCase,
    picks_of_tableau,
    pudding_cases,
    quick_round_cases,
    reference_round,
    reference_tableau,
    round_cases,
    unknown_edges,
)
from sushigo.checks.conform.engine import (
    BadTarget,
    Engine,
    Interrupted,
    Limits,
    OutOfTime,
    Reply,
    sandbox_of,
)
from sushigo.checks.conform.faults import RunClock, Side, find_faults
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
from sushigo.checks.conform.tasks import Spread
from sushigo.checks.properties import EXPLAIN_BUDGET, explain_json
from sushigo.spec.cards import STACK_OF, Card
from sushigo.spec.kinds import KINDS, ByCount, PerCard, Sets, resolve
from sushigo.spec.model.budget import Budget, current_ceiling, lost_stops_unprinted
from sushigo.spec.model.core import interrupts_reach_python
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import token_points

if TYPE_CHECKING:
    from sushigo.jobs import Runner

__all__ = [
    "PUDDING_READINGS",
    "ROUND_READINGS",
    "BadTarget",
    "Disagreement",
    "Interrupted",
    "Limits",
    "PuddingCase",
    "Reply",
    "Report",
    "RoundCase",
    "Target",
    "_fmt",
    "conform",
    "describe_fingerprint",
    "interruptible",
    "load_target",
    "picks_of_tableau",
    "points_bound",
    "pudding_cases",
    "reference_round",
    "reference_tableau",
    "round_cases",
]


@dataclass(frozen=True)
class Target:
    name: str
    score_puddings: bool
    limits: Limits = field(default_factory=Limits)

    @classmethod
    def named(cls, spec: str, limits: Limits | None = None) -> Target:
        """A target not loaded yet: :func:`conform` loads it (once, under the run's time limit)
        and reads then whether it scores puddings."""
        return cls(spec, False, limits or Limits())


def load_target(spec: str, limits: Limits | None = None) -> Target:
    """Load the adapter once in its own process; BadTarget (exit 2) with its error if it cannot be."""
    lim = limits or Limits()
    with Engine(spec, lim) as engine:
        return Target(spec, engine.score_puddings, lim)


def points_bound(rules: Ruleset) -> int:
    """More than any seat can score in a round or from puddings: every card of the deck at the
    best value any card has. Beyond it an answer is absurd and never reaches Z3."""
    best_card = max(_best_unit(rules), rules.maki_points_cap, rules.pudding_most_points,
                    rules.pudding_fewest_penalty)
    return sum(rules.deck) * best_card


def _best_unit(rules: Ruleset) -> int:
    """The most one scoring unit of a kind brings, read from the kinds' descriptions: a complete
    set, a table's highest entry, one card of a per-card kind, one stack of a nigiri."""
    best = 0
    for card, kind in enumerate(KINDS):
        s = kind.scoring
        if isinstance(s, Sets):
            best = max(best, s.score(int(resolve(s.size, rules)), rules))
        elif isinstance(s, ByCount):
            best = max(best, *resolve(s.table, rules))
        elif isinstance(s, PerCard):
            best = max(best, token_points(card, 1, rules))
            if kind.role == "nigiri":
                best = max(best, token_points(int(STACK_OF[Card(card)]), 1, rules))
    return best


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

    engine_mod.pending.clear()
    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        # a stop lost inside a __del__ is raised again by engine.stop_point: nothing to print
        with lost_stops_unprinted(lambda: bool(engine_mod.pending)):
            yield
        engine_mod.stop_point()
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def _ask_all(side: Side, cases: Sequence[Any], budget: RunClock) -> int:
    side.prefetch(cases)
    return sum(1 for c in cases if c in side.answers)


def conform(target: Target, rules: Ruleset, examples: int = 2000, seed: int | None = None,
            limits: Limits | None = None, z3: Budget | None = None,
            clock: Callable[[], float] = time.monotonic, start: float | None = None,
            where: Runner | None = None) -> Report:
    """Hold ``target`` against the reference under ``rules``. The time limit covers the whole
    run from ``start`` (``clock()`` by default): loading the target, generating the cases, the
    target's calls, Z3's questions and the minimising. When it runs out the report says where
    (``stopped``) and claims only what it saw: faults on cases the target did answer, a
    fingerprint read from those cases alone, and no "conforms". ``where`` (``--jobs`` /
    ``--cluster``) spreads the case generation and the target's calls over worker processes
    (:mod:`.tasks`); the report is the same as with one worker."""
    lim = limits or target.limits
    zb = z3 or EXPLAIN_BUDGET
    report = Report(target.name, rules.name, seed=seed, sandbox=sandbox_of(lim.sandbox))
    report.budget = {"examples": examples, **lim.as_dict(), "z3": explain_json(zb)}
    budget = RunClock.of(lim.budget(), clock, start)
    started = budget.deadline - lim.time_limit
    with contextlib.ExitStack() as stack:
        stack.enter_context(interruptible())
        stack.enter_context(interrupts_reach_python())
        budget.phase = "loading the target"
        try:
            engine = stack.enter_context(Engine(target.name, lim, points_bound(rules), budget.left))
        except OutOfTime:
            budget.expired()
            engine = None
        if engine is not None:
            spread = Spread(where, target.name, lim, points_bound(rules), budget) \
                if where is not None and where.spread else None
            _run(report, engine, rules, examples, seed, zb, budget, spread)
    if budget.hit:
        report.stopped = _stopped(report, lim, budget)
    report.seconds = clock() - started
    return report


def _run(report: Report, engine: Engine, rules: Ruleset, examples: int, seed: int | None, zb: Budget,
         budget: RunClock, spread: Spread | None) -> None:
    sides = [Side("round", engine, rules, zb, budget)]
    if engine.score_puddings:
        report.pudding_checked = True
        sides.append(Side("pudding", engine, rules, zb, budget))
    for side in sides:
        side.spread = spread
    # The cases made without Z3 are asked first: a target that fails the same way on every call
    # is given up (Engine.gave_up) before the seconds the other cases take to make.
    budget.phase = "asking the target"
    quick = quick_round_cases(rules)
    _ask_all(sides[0], quick, budget)
    budget.phase = "generating the cases"
    wanted = ("round", "pudding") if engine.score_puddings else ("round",)
    if engine.gave_up:
        rcases, pcases, edges = quick, [], 0
    elif spread is not None:
        made, edges = spread.cases(rules, examples, seed, wanted)
        rcases, pcases = made["round"], made.get("pudding", [])
    else:
        rcases = round_cases(rules, examples, seed, budget.expired)
        pcases = pudding_cases(rules, examples, seed, budget.expired) if engine.score_puddings else []
        edges = 0 if budget.expired() else unknown_edges(rules, wanted)
    report.round_cases = len(rcases)
    report.pudding_cases = len(pcases) if engine.score_puddings else 0
    pairs = list(zip(sides, (rcases, pcases), strict=False))
    budget.phase = "asking the target"
    runs = [_ask_all(side, cases, budget) for side, cases in pairs]
    report.round_cases_run = runs[0]
    report.pudding_cases_run = runs[1] if len(runs) > 1 else 0

    def fresh() -> Engine:
        return Engine(engine.target, engine.limits, engine.bound, budget.left)

    budget.phase = "asking the disagreements again"
    steady = _steady(report, [(side, again.disagreements(side, cases)) for side, cases in pairs], fresh)
    budget.phase = "searching for faults"
    found = [(side, find_faults(side, cases)) for side, cases in pairs] if steady else []
    budget.phase = "asking the faults' cases again"
    asks = [(side, [x for f in faults for x in (f.case, f.trigger) if x in side.answers])
            for side, faults in found]
    if found and _steady(report, asks, fresh):
        for side, faults in found:
            entries, old = fault_entries(side, _confirmed(faults) if budget.hit else faults,
                                         len(report.faults) + 1)
            report.faults += entries
            report.disagreements += old
    budget.phase = "minimising the adapter faults"
    for side in sides:
        entries, old = adapter_entries(side)
        report.adapter_faults += entries
        report.disagreements += old
    # The fingerprint is read from the cases the target answered (all of them in a full run).
    rside = sides[0]
    asked_r = [c for c in rcases if c in rside.answers]
    answers = [_value(rside.answers[c]) for c in asked_r]
    asked_p: list[PuddingCase] = []
    pud: list[list[int] | None] = []
    if len(sides) > 1:
        pside = sides[1]
        asked_p = [c for c in pcases if c in pside.answers]
        pud = [_value(pside.answers[c]) for c in asked_p]
    report.fingerprint = fingerprint(rules, asked_r, answers, asked_p, pud, engine.score_puddings)
    report.restarts = engine.restarts + (spread.restarts if spread is not None else 0)
    gave_up = engine.gave_up or (spread.gave_up if spread is not None else "")
    if gave_up:
        done = report.round_cases_run + report.pudding_cases_run
        total = report.round_cases + report.pudding_cases
        report.stopped = f"conform gave the target up after {done} of {total} cases: {gave_up}"
    elif edges and not budget.expired():
        ceiling = current_ceiling()
        report.stopped = (f"Z3 left {edges} edge cases (tie structures) unknown within its budget "
                          f"({ceiling.describe() if ceiling else 'its own'}); they were not compared")


def _steady(report: Report, asks: Sequence[tuple[Side, list[Any]]], fresh: Callable[[], Engine]) -> bool:
    """Ask each side's cases again in fresh processes; False (and one adapter fault) if an
    answer changed (:mod:`.again`)."""
    for side, cases in asks:
        if side.budget.expired() or side.engine.gave_up:
            return True
        changed = again.changes(side, cases, fresh) if cases else {}
        if changed:
            doc, old = again.entry(side, changed)
            report.adapter_faults.append(doc)
            report.disagreements.append(old)
            return False
    return True


def _confirmed(faults: list[Any]) -> list[Any]:
    """Faults cut short by the deadline are kept only where the target's answer on the reported
    case differs from the reference's (a disagreement seen, whatever its attribution)."""
    return [f for f in faults if f.got and f.got != f.expected]


def _stopped(report: Report, lim: Limits, budget: RunClock) -> str:
    head = f"the time limit of {lim.time_limit:g} s ran out"
    total = report.round_cases + report.pudding_cases
    if budget.hit_in == "loading the target":
        return f"{head} while loading the target"
    if budget.hit_in == "generating the cases":
        return f"{head} while generating the cases ({total} made, none compared)"
    done = report.round_cases_run + report.pudding_cases_run
    return f"{head} after {done} of {total} cases" + (
        f", while {budget.hit_in}" if budget.hit_in and done == total else "")


def _value(ans: Reply | None) -> list[int] | None:
    return list(ans.value) if ans is not None and ans.value is not None else None
