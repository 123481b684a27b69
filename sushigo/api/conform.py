"""``sushigo.conform``: hold another Sushi Go engine's scoring against the reference.

The generator imports Hypothesis; it is imported when run, not with this module."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

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
    rules: str | None = "official",
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
    game: str = "base",
    menu: str | None = None,
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
    if game == "party":
        return _party_outcome(target, rules, rule, menu, examples, seed, call_timeout, memory_limit,
                              time_limit, started, jobs, cluster)
    if game != "base":
        raise InputError(f"game {game!r}: give 'base' (Sushi Go!, the default) or 'party' (Sushi Go Party!)")
    if menu is not None:
        raise InputError("--menu is a Sushi Go Party! menu: add --game party")
    from sushigo.checks import conform as C
    from sushigo.checks.edge_cases import forget_unknown
    from sushigo.jobs import runner

    ruleset = rules_from_options(rules or "official", rule)
    where = runner(jobs, cluster)
    n = int(_number("--examples", examples, 1, MAX_EXAMPLES, True))
    limits = _limits(call_timeout, memory_limit, time_limit)
    # The target is loaded once, by the run (a BadTarget is an InputError: exit 2).
    left = max(0.001, limits.time_limit - (time.monotonic() - started))
    with solver_budget(None, rlimit, whole=left):  # the cases' Z3 questions too
        report = C.conform(C.Target.named(target, limits), ruleset, n, seed, limits, start=started,
                           where=where)
    if not report.completed:
        forget_unknown()  # edge cases the deadline left open are not kept for a later run
    data = with_outcome(tagged(FORMAT, report.as_dict()), verdict_of(report.verdict))
    return Outcome(data, 0 if report.ok else 1, (ruleset, report))


def _limits(call_timeout: float | str, memory_limit: int | str, time_limit: float | str) -> Any:
    from sushigo.checks.conform.engine import Limits

    return Limits(call_timeout=_number("--call-timeout", call_timeout, 0.01, 3600, False),
                  memory_mb=int(_number("--memory-limit", memory_limit, 0, 1 << 20, True)),
                  time_limit=_number("--time-limit", time_limit, 1, _MAX_SECONDS, False))


def _party_outcome(target: str, rules: str | None, rule: Rule, menu: str | None, examples: int | str,
                   seed: int | None, call_timeout: float | str, memory_limit: int | str,
                   time_limit: float | str, started: float, jobs: int | None, cluster: str | None) -> Outcome:
    """``conform --game party``: the Party adapter protocol (docs/party.md), its cases and faults."""
    from sushigo.api.base import as_list
    from sushigo.spec.party.menus import parse_menu
    from sushigo.spec.party.readings import party_rules

    if rules not in (None, "official"):
        raise InputError("--rules names a base-game ruleset; with --game party choose readings with "
                         "--rule NAME=VALUE (sushigo rules --game party)")
    if jobs is not None or cluster is not None:
        raise InputError("--jobs and --cluster are not offered with --game party yet; leave them out "
                         "(the Party cases are made and asked in this process)")
    assignments = ([f"{k}={v}" for k, v in rule.items()] if isinstance(rule, Mapping)
                   else [str(a) for a in as_list(rule)])
    readings = party_rules(assignments)
    chosen = parse_menu(menu, uramaki=readings.uramaki_split) if menu is not None else None
    if chosen is not None and not chosen.seats():
        raise InputError(f"menu {chosen.label} seats no player count; choose other tiles")
    n = int(_number("--examples", examples, 1, MAX_EXAMPLES, True))
    limits = _limits(call_timeout, memory_limit, time_limit)
    from sushigo.checks.conform.party import conform_party

    report = conform_party(target, readings, n, seed, limits, start=started, menu=chosen)
    doc = {**report.as_dict(), "game": "party", "menu": chosen.label if chosen is not None else None,
           "readings": readings.as_json()}
    data = with_outcome(tagged(FORMAT, doc), verdict_of(report.verdict))
    return Outcome(data, 0 if report.ok else 1, (readings, report))


conform = public(conform_outcome, "conform")
