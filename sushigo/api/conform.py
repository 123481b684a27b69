"""``sushigo.conform``: hold another Sushi Go engine's scoring against the reference.

The generator imports Hypothesis; it is imported when run, not with this module."""

from __future__ import annotations

import time

from sushigo.api.base import Outcome, Rule, public, rules_from_options, solver_budget, tagged
from sushigo.spec.answer import verdict_of, with_outcome
from sushigo.spec.errors import InputError

FORMAT = "sushigo-conform-result/1"
MAX_EXAMPLES = 20000
_MAX_SECONDS = 86400.0
#: The default budgets of one run (checks.conform.Limits holds the same; a test keeps them equal).
DEFAULT_LIMITS: dict[str, float] = {"call_timeout": 2.0, "memory_limit": 2048, "time_limit": 600.0}


def _number(option: str, value: object, lo: float, hi: float, whole: bool) -> float:
    """A bounded number (from the command line's text or a caller's number), or one line naming
    the option and the range."""
    kind = "a whole number" if whole else "a number of seconds" if "time" in option else "a number"
    number: float | None
    try:
        number = int(str(value)) if whole else float(str(value))
    except ValueError:
        number = None
    if number is None or not lo <= number <= hi:  # nan compares false: refused too
        raise InputError(f"{option} must be {kind} from {lo:g} to {hi:g}, got {str(value)!r}")
    return number


def conform_outcome(
    target: str,
    *,
    rules: str = "official",
    rule: Rule = None,
    examples: int | str = 2000,
    seed: int | None = None,
    call_timeout: float | str = DEFAULT_LIMITS["call_timeout"],
    memory_limit: int | str = int(DEFAULT_LIMITS["memory_limit"]),
    time_limit: float | str = DEFAULT_LIMITS["time_limit"],
    rlimit: int | None = None,
    started: float | None = None,
    jobs: int | None = None,
    cluster: str | None = None,
) -> Outcome:
    """Score generated rounds and pudding counts (every maki and pudding tie structure included)
    with ``target`` (a ``.py`` file or an importable module with ``score_round(tableaux)`` and
    optionally ``score_puddings(counts)``, docs/checks.md) and with the reference under ``rules``.
    Returns what ``sushigo conform --json`` prints: each distinct disagreement minimised with its
    rule ids, and which reading of each contested rule the target follows (exit code 1 when they
    disagree). The target runs in its own process under ``call_timeout`` seconds a call and
    ``memory_limit`` MB (0: none); the whole run under ``time_limit`` seconds; each Z3 call
    (the rule ids of a fault) under ``rlimit`` resource units. ``"outcome"`` is proved when
    the run settled the question (conforms, or a fault found), unknown when time ran out first.
    The time limit runs from ``started`` (``time.monotonic()``; default: now), so a caller can
    count its own start-up in it (the CLI counts the import of the harness). ``jobs`` worker
    processes, or the Dask scheduler at ``cluster`` ('local': a local Dask cluster of ``jobs``
    workers), generate the cases and ask the target, each worker starting the target itself
    (docs/scale.md); the report is the same whatever the workers."""
    if started is None:
        started = time.monotonic()
    from sushigo.checks import conform as C
    from sushigo.checks.edge_cases import forget_unknown
    from sushigo.jobs import runner

    ruleset = rules_from_options(rules, rule)
    where = runner(jobs, cluster)
    n = int(_number("--examples", examples, 1, MAX_EXAMPLES, True))
    limits = C.Limits(call_timeout=_number("--call-timeout", call_timeout, 0.01, 3600, False),
                      memory_mb=int(_number("--memory-limit", memory_limit, 0, 1 << 20, True)),
                      time_limit=_number("--time-limit", time_limit, 1, _MAX_SECONDS, False))
    # The target is loaded once, by the run (a BadTarget is an InputError: exit 2).
    left = max(0.001, limits.time_limit - (time.monotonic() - started))
    with solver_budget(None, rlimit, whole=left):  # the cases' Z3 questions too
        report = C.conform(C.Target.named(target, limits), ruleset, n, seed, limits, start=started,
                           where=where)
    if not report.completed:
        forget_unknown()  # edge cases the deadline left open are not kept for a later run
    data = with_outcome(tagged(FORMAT, report.as_dict()), verdict_of(report.verdict))
    return Outcome(data, 0 if report.ok else 1, (ruleset, report))


conform = public(conform_outcome, "conform")
