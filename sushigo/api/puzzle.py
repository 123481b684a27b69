"""``sushigo.puzzle``: the shipped endgame puzzles (one best first pick that greedy play misses)."""

from __future__ import annotations

from typing import Any

from sushigo.api.base import Outcome, Rule, public, rules_from_options
from sushigo.spec.errors import InputError

FORMAT = "sushigo-puzzle-result/1"


def puzzle_outcome(
    *, list: bool = False, show: int | None = None, verify: bool = False, solution: bool = False,
    rules: str | None = None, rule: Rule = None,
) -> Outcome:
    """One of: ``list=True`` the puzzles (a list of ``{"id", "round", "cards_left", "seed"}``,
    without a format tag); ``show=N`` puzzle N's position (with ``solution=True`` also the best
    first pick, its value and the greedy pick's guarantee); ``verify=True`` re-solves every
    puzzle with the endgame solver: ``{"puzzles": n, "problems": [...]}`` (exit code 1 on a
    problem). ``rules``/``rule`` (with ``verify`` only) re-solve every puzzle under that ruleset
    instead of its own and report those that are no longer puzzles or have another answer.
    Returns what ``sushigo puzzle --json`` prints."""
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
        problems = [msg for p in puzzles for msg in P.verify(p, chosen)]
        data = {"format": FORMAT, "puzzles": len(puzzles), "problems": problems}
        return Outcome(data, 1 if problems else 0, problems)
    assert show is not None
    p = P.get_puzzle(show, puzzles)
    out: dict[str, Any] = {"format": FORMAT, "id": p.id, "seed": p.seed, "position": p.position}
    if solution:
        out.update(solution=p.solution, value=p.value, greedy=p.greedy, greedy_guarantee=p.greedy_guarantee)
    return Outcome(out, 0, p)


puzzle = public(puzzle_outcome, "puzzle")
