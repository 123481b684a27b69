"""Every Z3 call under a budget: :class:`Budget`, the run's :func:`ceiling`, and :func:`decide`,
the one place a ``check()`` is called.

A stop (Ctrl-C, SIGTERM) that reaches a call in progress is :mod:`spec.model.interrupts`' job;
its names are importable from here too (``budget.stop_on_signals``, ``budget.request_stop``...),
as they were before it had a module of its own. :func:`decide` calls its :func:`stop_point`
before and after every check, so an ``unknown`` caused by a stop is never read as an answer.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from sushigo.spec.answer import Answer, Z3Status
from sushigo.spec.errors import BudgetSpent

# Re-exported: every name of the stop handling stays importable from here (budget.stop_on_signals...).
from sushigo.spec.model.interrupts import _QUIETED as _QUIETED
from sushigo.spec.model.interrupts import STOP_SIGNALS as STOP_SIGNALS
from sushigo.spec.model.interrupts import _contexts as _contexts
from sushigo.spec.model.interrupts import _contexts_lock as _contexts_lock
from sushigo.spec.model.interrupts import _half_built_z3 as _half_built_z3
from sushigo.spec.model.interrupts import _handler as _handler
from sushigo.spec.model.interrupts import _in_z3_destructor as _in_z3_destructor
from sushigo.spec.model.interrupts import _interrupted_z3_call as _interrupted_z3_call
from sushigo.spec.model.interrupts import _quiet as _quiet
from sushigo.spec.model.interrupts import _reset as _reset
from sushigo.spec.model.interrupts import _scope_active as _scope_active
from sushigo.spec.model.interrupts import _signum as _signum
from sushigo.spec.model.interrupts import _stop as _stop
from sushigo.spec.model.interrupts import _trace_of_a_stop as _trace_of_a_stop
from sushigo.spec.model.interrupts import _watcher as _watcher
from sushigo.spec.model.interrupts import child_signals as child_signals
from sushigo.spec.model.interrupts import interrupt as interrupt
from sushigo.spec.model.interrupts import lost_stops_unprinted as lost_stops_unprinted
from sushigo.spec.model.interrupts import quiet_stop_traces as quiet_stop_traces
from sushigo.spec.model.interrupts import request_stop as request_stop
from sushigo.spec.model.interrupts import stop_on_signals as stop_on_signals
from sushigo.spec.model.interrupts import stop_point as stop_point
from sushigo.spec.model.interrupts import stop_requested as stop_requested
from sushigo.spec.model.interrupts import stopped_by as stopped_by
from sushigo.spec.model.interrupts import watch as watch
from sushigo.spec.model.interrupts import z3_loaded as z3_loaded

#: A check without a budget of its own gets this one (a few seconds on the slowest CI box).
DEFAULT_TIMEOUT_MS = 60_000
DEFAULT_RLIMIT = 200_000_000



def _listed(*parts: str | None) -> str:
    """The limits that are set, joined ("none" when no limit is)."""
    return ", ".join(p for p in parts if p is not None) or "none"


@dataclass(frozen=True)
class Budget:
    """The one budget type: what a solver, a check or a conform run may spend. For one Z3 call:
    wall-clock ``timeout_ms`` and machine-independent ``rlimit``; ``deadline`` (``time.time()``)
    ends a whole run (a call after it answers unknown at once); ``nodes`` bounds a search's
    states (the endgame searches read it, :func:`sushigo.solver.endgame.solve_position`).
    Whatever runs out raises :class:`~sushigo.spec.errors.BudgetSpent` or answers unknown.

    ``run_seconds`` and ``run_rlimit`` bound every call of one run together (``sushigo table``'s
    ``--timeout``/``--rlimit``; see :meth:`for_run`): the run that makes the calls keeps the
    account and asks :meth:`next_call` for each call's share of what is left."""

    timeout_ms: int | None = DEFAULT_TIMEOUT_MS
    rlimit: int | None = DEFAULT_RLIMIT
    deadline: float | None = None
    nodes: int | None = None
    run_seconds: float | None = None
    run_rlimit: int | None = None

    @classmethod
    def for_run(cls, seconds: float | None = None, rlimit: int | None = None) -> Budget:
        """A budget for a whole run, every Z3 call of it together: ``seconds`` of wall clock and
        ``rlimit`` units of Z3's deterministic resource count (so an answer within it does not
        depend on the machine's load). None: no limit beyond each call's own safety nets."""
        return cls(None, None, run_seconds=seconds, run_rlimit=rlimit)

    def describe_run(self) -> str:
        return _listed(None if self.run_seconds is None else f"timeout {self.run_seconds:g} s",
                       None if self.run_rlimit is None else f"rlimit {self.run_rlimit}")

    def run_json(self) -> dict[str, Any]:
        return {"timeout_seconds": self.run_seconds, "rlimit": self.run_rlimit}

    def next_call(self, started: float, rlimit_spent: int, timeout_ms: int, rlimit: int
                  ) -> tuple[int, int, bool] | None:
        """The next call of a run begun at ``started`` (``time.monotonic()``) that has spent
        ``rlimit_spent`` units: its ``timeout_ms`` and ``rlimit`` cut to what is left of the
        run's budget, and whether the run's budget (not the call's own) is the binding one.
        None: the run's budget is spent."""
        capped = False
        if self.run_seconds is not None:
            left_ms = int((started + self.run_seconds - time.monotonic()) * 1000)
            if left_ms <= 0:
                return None
            capped = capped or left_ms < timeout_ms
            timeout_ms = min(timeout_ms, left_ms)
        if self.run_rlimit is not None:
            left = self.run_rlimit - rlimit_spent
            if left <= 0:
                return None
            capped = capped or left < rlimit
            rlimit = min(rlimit, left)
        return timeout_ms, rlimit, capped

    def describe(self) -> str:
        return _listed(None if self.timeout_ms is None else f"timeout {self.timeout_ms} ms",
                       None if self.rlimit is None else f"rlimit {self.rlimit}",
                       None if self.nodes is None else f"{self.nodes} nodes")

    def apply(self, s: Any) -> None:
        """Set the budget on a solver or optimiser (each later ``check()`` runs under it)."""
        if self.timeout_ms is not None:
            s.set("timeout", max(1, int(self.timeout_ms)))
        if self.rlimit is not None:
            s.set("rlimit", max(1, int(self.rlimit)))

    @classmethod
    def kept(cls) -> Budget:
        """The budget a solver was built with (``Model.solver(timeout_ms=, rlimit=)``), left as it
        is: setting a parameter again, even to the same value, changes Z3's search (another
        witness, another enumeration order), so a call on a configured solver sets nothing."""
        return cls(None, None)

    def within(self, other: Budget | None) -> Budget:
        """Each limit the smaller of this budget's and ``other``'s (``None`` is no limit)."""
        if other is None:
            return self

        def least(a: Any, b: Any) -> Any:
            return b if a is None else a if b is None else min(a, b)

        return Budget(least(self.timeout_ms, other.timeout_ms), least(self.rlimit, other.rlimit),
                      least(self.deadline, other.deadline), least(self.nodes, other.nodes),
                      least(self.run_seconds, other.run_seconds), least(self.run_rlimit, other.run_rlimit))

    def now(self) -> Budget:
        """This budget for a call starting now: the timeout no longer than the time left."""
        if self.deadline is None:
            return self
        left = max(1, int((self.deadline - time.time()) * 1000))
        return replace(self, timeout_ms=left if self.timeout_ms is None else min(self.timeout_ms, left))

    def share(self, parts: int) -> Budget:
        """One of ``parts`` equal shares (for a loop of calls that together keep this budget)."""
        n = max(1, parts)
        return replace(self, timeout_ms=None if self.timeout_ms is None else max(1, self.timeout_ms // n),
                       rlimit=None if self.rlimit is None else max(1, self.rlimit // n))


@dataclass(frozen=True)
class Z3Answer(Answer[Z3Status]):
    """One Z3 answer: ``sat``, ``unsat`` or ``unknown`` (with Z3's reason and the budget); its
    verdict: sat is proved (a witness), unsat impossible, unknown unknown, never read as either."""

    status: Z3Status
    reason: str = ""

    @property
    def sat(self) -> bool:
        return self.status == "sat"

    @property
    def unsat(self) -> bool:
        return self.status == "unsat"

    @property
    def unknown(self) -> bool:
        return self.status == "unknown"

    def as_z3(self) -> Any:
        """The answer as Z3's own ``sat``/``unsat``/``unknown`` (for code that compares those)."""
        import z3

        return {"sat": z3.sat, "unsat": z3.unsat}.get(self.status, z3.unknown)

    def spent(self) -> BudgetSpent:
        """The exception for this unknown answer, to raise where unknown has no answer of its own."""
        return BudgetSpent(f"solver answered unknown: {self.reason}", self.reason)


#: The name a Z3 unknown raised under before :class:`BudgetSpent` was the one "ran out"
#: exception; kept, library code catches it (raise ``answer.spent()``).
UnknownAnswer = BudgetSpent


_ceiling: list[Budget] = []  # the innermost :func:`ceiling` of this process (a stack)
_ceiling_lock = threading.Lock()


@contextmanager
def ceiling(budget: Budget) -> Iterator[None]:
    """While inside, every :func:`decide` of this process runs within ``budget`` at most (the
    command's ``--timeout``/``--rlimit`` reach the Z3 calls of any solver this way). Worker
    threads see it; a worker process enters its own."""
    with _ceiling_lock:
        _ceiling.append(budget.within(_ceiling[-1] if _ceiling else None))
    try:
        yield
    finally:
        with _ceiling_lock:
            _ceiling.pop()


def current_ceiling() -> Budget | None:
    with _ceiling_lock:
        return _ceiling[-1] if _ceiling else None


def decide(s: Any, budget: Budget = Budget(), assumptions: Sequence[Any] = ()) -> Z3Answer:
    """``s.check(*assumptions)`` under ``budget`` (within the :func:`ceiling`): the one place a
    Z3 ``check()`` is called. Unknown carries Z3's reason and the budget; it is never read as
    sat or unsat. Thread-safe: the budget is set on ``s`` alone (a solver belongs to one thread,
    each thread's solvers to its own context), nothing global is written.

    Raises :class:`KeyboardInterrupt` if a stop was requested before or during the call.
    """
    import z3

    z3_loaded()
    stop_point()
    budget = budget.within(current_ceiling())
    if budget.deadline is not None and time.time() >= budget.deadline:
        return Z3Answer("unknown", f"the run's time is spent (budget: {budget.describe()})")
    budget = budget.now()
    budget.apply(s)
    r = s.check(*assumptions)
    stop_point()
    if r == z3.sat:
        return Z3Answer("sat")
    if r == z3.unsat:
        return Z3Answer("unsat")
    return Z3Answer("unknown", f"{s.reason_unknown()} (budget: {budget.describe()})")


def _clear_cancel(z3: Any) -> None:
    """Let the contexts a stop interrupted work again after the stop scope.

    ``Z3_interrupt`` leaves the context cancelled until its next ``check()``: meanwhile
    ``simplify`` silently stops early (a library user who caught the stop and asks again would
    get unsimplified terms). An empty check clears it. Only the main context: a worker's context
    may still be in its (stopping) thread's hands, and workers make fresh contexts anyway.
    """
    try:
        z3.Solver(ctx=z3.main_ctx()).check()
    except z3.Z3Exception:
        pass


__all__ = [
    "DEFAULT_RLIMIT",
    "DEFAULT_TIMEOUT_MS",
    "Budget",
    "UnknownAnswer",
    "Z3Answer",
    "ceiling",
    "child_signals",
    "current_ceiling",
    "decide",
    "request_stop",
    "stop_on_signals",
    "stop_point",
    "stop_requested",
    "stopped_by",
    "watch",
]
