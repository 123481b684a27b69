"""``sushigo.puzzle``: the shipped endgame puzzles (one best first pick that greedy play misses)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from sushigo.api.base import DOCUMENTS, Outcome, Rule, public, rules_from_options, solver_budget
from sushigo.spec.answer import Verdict
from sushigo.spec.errors import BudgetSpent, InputError

FORMAT = "sushigo-puzzle-result/1"


def puzzle_outcome(
    *, list: bool = False, show: int | None = None, verify: bool = False, solution: bool = False,
    rules: str | None = None, rule: Rule = None, timeout: float | None = None, rlimit: int | None = None,
) -> Outcome:
    """One of: ``list=True`` the puzzles (a list of ``{"id", "round", "cards_left", "seed"}``,
    without a format tag); ``show=N`` puzzle N's position (with ``solution=True`` also the best
    first pick, its value and the greedy pick's guarantee); ``verify=True`` re-solves every
    puzzle with the endgame solver: ``{"puzzles": n, "problems": [...]}`` (exit code 1 on a
    problem). ``rules``/``rule`` (with ``verify`` only) re-solve every puzzle under that ruleset
    instead of its own and report those that are no longer puzzles or have another answer.
    ``timeout`` bounds the whole ``verify`` run in seconds: a puzzle not re-solved in time is
    listed under ``"unknown"`` (never as a problem); ``rlimit`` caps any Z3 call (the endgame
    search makes none today). Returns what ``sushigo puzzle --json`` prints."""
    from sushigo.solver import puzzles as P

    if sum((list, show is not None, verify)) != 1:
        raise InputError("give exactly one of --list, --show N or --verify")
    puzzles = P.load_puzzles()
    if solution and show is None:
        raise InputError("--solution goes with --show N")
    chosen = rules_from_options(rules, rule) if rules is not None or rule else None
    if chosen is not None and not verify:
        raise InputError("--rules/--rule re-solve the puzzles under another ruleset: give them with "
                         "--verify (a puzzle's position holds its own rules)")
    if list:
        data: Any = [{"id": p.id, "round": p.round, "cards_left": p.cards_left, "seed": p.seed}
                     for p in puzzles]
        return Outcome(data, 0, puzzles)
    if verify:
        with solver_budget(timeout, rlimit):
            problems, unknown = _verify(P, puzzles, chosen, timeout)
        verdict = Verdict.UNKNOWN if unknown else Verdict.IMPOSSIBLE if problems else Verdict.PROVED
        data = {"format": FORMAT, "outcome": verdict.value, "puzzles": len(puzzles), "problems": problems,
                "unknown": unknown}
        return Outcome(data, 1 if problems or unknown else 0, problems)
    assert show is not None
    p = P.get_puzzle(show, puzzles)
    out: dict[str, Any] = {"format": FORMAT, "id": p.id, "seed": p.seed, "position": p.position}
    if solution:
        out.update(solution=p.solution, value=p.value, greedy=p.greedy, greedy_guarantee=p.greedy_guarantee)
    return Outcome(out, 0, p)


def _verify(P: Any, puzzles: Sequence[Any], rules: Any, timeout: float | None) -> tuple[list[str], list[int]]:
    """The problems found, and the ids of the puzzles not re-solved within ``timeout`` seconds."""
    deadline = None if timeout is None else time.monotonic() + timeout
    problems: list[str] = []
    unknown: list[int] = []
    for p in puzzles:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            unknown.append(p.id)
            continue
        try:
            problems += P.verify(p, rules, left)
        except BudgetSpent:
            unknown.append(p.id)
    return problems, unknown


puzzle = public(puzzle_outcome, "puzzle", DOCUMENTS)
