"""``best --game party``: seat 0's best round score for a puzzle, from the search or the Z3 engine.

What is optimised: the player's (seat 0's) points of the round, as
:func:`~sushigo.spec.party.turns.finish_round` scores it, the other seats' plays fixed as the
puzzle gives them (none when it gives none).
Desserts score at game end and add nothing here; dessert cards still count as cards and colours
(tea, soy sauce). Every answer is replayed by the rules engine to the same score before it is
returned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Final

from sushigo.spec.answer import Answer, BestStatus
from sushigo.spec.errors import BudgetSpent, InputError
from sushigo.spec.model.budget import Budget

from .puzzle import PartyPuzzle
from .search import OutOfTime, replay, search

ENGINES: Final = ("search", "z3")
STATUS_OPTIMAL: Final = "optimal"


@dataclass(frozen=True)
class PartyBestResult(Answer[BestStatus]):
    """``optimal`` (the score is proved the most seat 0 can make) or ``unknown`` (out of budget)."""

    score: int | None
    plays: tuple[str, ...]
    status: BestStatus
    engine: str
    seconds: float
    running: tuple[int, ...] = ()
    budget: float | None = None
    reason: str | None = None
    actual: int | None = None
    stats: dict[str, int] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": "party", "score": self.score, "picks": list(self.plays),
                               "status": self.status, "engine": self.engine}
        if self.status != STATUS_OPTIMAL:
            out["reason"] = self.reason
            out["budget_seconds"] = self.budget
        if self.actual is not None:
            out["actual"] = self.actual
        return out


def solve_party(puzzle: PartyPuzzle, engine: str = "search", timeout: float | None = None,
                rlimit: int | None = None) -> PartyBestResult:
    """Seat 0's best round score of ``puzzle`` by ``engine``, or unknown past ``timeout`` seconds."""
    if engine not in ENGINES:
        raise InputError(f"--engine {engine!r}: choose one of {', '.join(ENGINES)}")
    start = time.monotonic()
    try:
        if engine == "search":
            deadline = None if timeout is None else start + timeout
            score, plays, stats = search(puzzle, deadline)
        else:
            from .z3best import solve_z3

            score, plays = solve_z3(puzzle, Budget.for_run(timeout, rlimit))
            stats = {}
    except OutOfTime:
        return PartyBestResult(None, (), "unknown", engine, time.monotonic() - start, budget=timeout,
                               reason="the search's time ran out", actual=puzzle.actual)
    except BudgetSpent as exc:
        return PartyBestResult(None, (), "unknown", engine, time.monotonic() - start, budget=timeout,
                               reason=str(exc), actual=puzzle.actual)
    running, final = replay(puzzle, plays)
    if final != score:  # the engines' answer is one the rules engine scores the same, or no answer
        raise AssertionError(f"{engine}: the picks replay to {final}, not {score}")
    return PartyBestResult(score, tuple(plays), "optimal", engine, time.monotonic() - start,
                           tuple(running), actual=puzzle.actual, stats=stats)
