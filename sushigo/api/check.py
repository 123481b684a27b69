"""``sushigo.check``: the reference executor held against the Z3 model, under every named ruleset.

The checks import z3 and Hypothesis; they are imported when run, not with this module."""

from __future__ import annotations

import dataclasses
import functools
import os
import time
from collections.abc import Callable, Sequence
from typing import ParamSpec

from sushigo.api.base import Outcome, Rule, as_list, budget_of, override_texts, public, tagged
from sushigo.jobs import Runner, runner
from sushigo.limits import MAX_EXAMPLES
from sushigo.spec.answer import Verdict, with_outcome
from sushigo.spec.errors import InputError
from sushigo.spec.numbers import check_whole

FORMAT = "sushigo-check-result/1"
P = ParamSpec("P")

#: ``sushigo.checks.runner.PROFILES``: cases per property family (a test holds the two equal).
PROFILES = {"quick": 300, "default": 2000, "long": 20000}


def _reported_even_if_stopped_early(run: Callable[P, Outcome]) -> Callable[P, Outcome]:
    """``run``, and once more if a stop landed before its run began (while Hypothesis and Z3 were
    imported, say): the second time the run stops before its first task, so the report lists
    every property (every mutant) as unfinished, exactly as a later stop would, never as passed."""

    @functools.wraps(run)
    def call(*args: P.args, **kwargs: P.kwargs) -> Outcome:
        try:
            return run(*args, **kwargs)
        except KeyboardInterrupt:
            from sushigo.spec.model.budget import stop_requested

            if not stop_requested():
                raise
            return run(*args, **kwargs)

    return call


@_reported_even_if_stopped_early
def check_outcome(
    *,
    examples: int | None = None,
    profile: str = "default",
    seed: int | None = None,
    ruleset: str | None = None,
    rules: str | None = None,
    rule: Rule = None,
    only: str | Sequence[str] = (),
    no_edge: bool = False,
    jobs: int | None = None,
    cluster: str | None = None,
    mutants: bool = False,
    mutant: str | Sequence[str] = (),
    progress: bool = False,
    timeout: float | None = None,
    rlimit: int | None = None,
) -> Outcome:
    """Run every property (executor against the Z3 model, Hypothesis-generated) under every named
    ruleset, or ``ruleset`` only; ``examples`` cases per property family (default: ``profile``'s),
    ``seed`` for other examples than the derandomized default, ``only`` some properties,
    ``jobs`` worker processes, or ``cluster`` a Dask scheduler's address ('local': a local Dask
    cluster of ``jobs`` workers; docs/scale.md). ``rules`` is ``ruleset``'s other name (as the
    other commands spell it); ``rule`` overrides parameters in every ruleset run (the enumerated
    edge cases, which are per named ruleset, are then skipped). ``mutants`` plants each known
    pitfall (``mutant``: only these) and reports which property caught it. Returns what
    ``sushigo check --json`` prints (exit code 1 on a failure or a mutant not caught).
    ``progress`` shows progress on a terminal's stderr.
    ``timeout`` ends the whole run after that many seconds (cases not reached are counted as
    unknown, never as passed) and caps each Z3 call; ``rlimit`` caps each Z3 call's resource
    units. ``"outcome"`` is unknown when a case was left unsettled, else proved (a failure is a
    proved disagreement, with its witness)."""
    import hypothesis

    from sushigo.checks import runner as R
    from sushigo.spec.ruleset import RULESETS, apply_overrides, get_ruleset

    if profile not in PROFILES:
        raise InputError(f"--profile {profile!r}: choose one of {', '.join(sorted(PROFILES))}")
    cases = R.PROFILES[profile] if examples is None else check_whole(examples, "--examples", 1, MAX_EXAMPLES)
    if rules is not None and ruleset is not None and rules != ruleset:
        raise InputError(f"--rules {rules!r} and --ruleset {ruleset!r} contradict: give one")
    name = rules if rules is not None else ruleset
    overrides = override_texts(rule)
    rulesets = ([get_ruleset(name, overrides)] if name
                else [apply_overrides(r, overrides) for r in RULESETS.values()])
    known = set(R.task_names(R.Options(rulesets=rulesets)))
    only = as_list(only)
    for name in only:
        if name not in known:
            raise InputError(f"unknown property {name!r}; properties: {', '.join(sorted(known))}")
    budget = budget_of(timeout, rlimit)  # each worker process applies it (Options)
    deadline = None if timeout is None else time.time() + timeout
    if budget is not None:
        budget = dataclasses.replace(budget, deadline=deadline)
    opts = R.Options(examples=cases, seed=seed, rulesets=rulesets, only=tuple(only), edge=not no_edge,
                     progress=R.terminal_progress(progress), budget=budget, deadline=deadline)
    if jobs is not None and (isinstance(jobs, bool) or jobs < 1):
        raise InputError(f"--jobs must be at least 1, got {jobs!r}")
    where = runner(jobs, cluster, default_jobs=min(2, os.cpu_count() or 1))
    if mutants:
        return _mutants(opts, as_list(mutant), where)
    if mutant:
        raise InputError("--mutant NAME needs --mutants")
    t0 = time.perf_counter()
    outs = R.run_parallel(opts, where)
    wall = time.perf_counter() - t0
    failed = [o for o in outs if o.failure]
    stopped = R.interrupted(outs)  # a stopped run is never "ok": rows it did not finish say so
    data = {"seed": opts.seed, "examples": opts.examples, "seconds": round(wall, 2),
            "ok": not failed and not stopped, "properties": [o.as_dict() for o in outs],
            "interrupted": stopped, "hypothesis": hypothesis.__version__}
    unsettled = stopped or any(o.unknown for o in outs)
    data = with_outcome(tagged(FORMAT, data), Verdict.UNKNOWN if unsettled else Verdict.PROVED)
    return Outcome(data, 1 if failed or unsettled else 0, (opts, outs, wall))


def _mutants(opts: object, names: list[str], where: Runner) -> Outcome:
    from sushigo.checks import runner as R
    from sushigo.checks.mutants import MUTANT_BY_NAME

    assert isinstance(opts, R.Options)
    for name in names:
        if name not in MUTANT_BY_NAME:
            raise InputError(f"unknown mutant {name!r}; mutants: {', '.join(MUTANT_BY_NAME)}")
    t0 = time.perf_counter()
    outs = R.run_mutants_parallel(opts, names, where)
    wall = time.perf_counter() - t0
    missed = [o for o in outs if o.caught_by is None]
    stopped = not all(o.complete for o in outs)  # an unfinished mutant is never shown as caught
    data = {"seconds": round(wall, 2), "ok": not missed, "mutants": [o.as_dict() for o in outs],
            "interrupted": stopped}
    data = with_outcome(tagged(FORMAT, data), Verdict.UNKNOWN if stopped else Verdict.PROVED)
    return Outcome(data, 1 if missed else 0, (opts, outs, wall))


#: ``sushigo check`` options that only the base game's checks have: (argument, value when unset, fix).
BASE_ONLY = (("ruleset", None, "--rules/--ruleset"), ("rule", (), "--rule"), ("only", (), "--only"),
             ("no_edge", False, "--no-edge"), ("mutants", False, "--mutants"), ("mutant", (), "--mutant"),
             ("jobs", None, "--jobs"), ("cluster", None, "--cluster"), ("timeout", None, "--timeout"),
             ("rlimit", None, "--rlimit"), ("table", False, "--table"))


def check_party_outcome(*, examples: int | None = None, profile: str = "default", seed: int | None = None,
                        menu: str | None = None, **base: object) -> Outcome:
    """``sushigo check --game party``: Party's property families (:mod:`sushigo.checks.party_check`),
    ``examples`` Hypothesis cases each (default: ``profile``'s), ``menu`` only this menu. ``base``
    holds the base game's options, each refused when set (one line naming the fix). The output has
    the shape of ``sushigo check --json`` (format sushigo-check-result/1)."""
    for name, unset, option in BASE_ONLY:
        value = base.get(name, unset)
        if value not in (unset, None, False, (), []):
            raise InputError(f"{option} applies to the base game's checks only; with --game party give "
                             "--examples, --profile, --seed, --menu or --json (or drop --game party)")
    if profile not in PROFILES:
        raise InputError(f"--profile {profile!r}: choose one of {', '.join(sorted(PROFILES))}")
    cases = PROFILES[profile] if examples is None else check_whole(examples, "--examples", 1, MAX_EXAMPLES)
    import hypothesis

    from sushigo.checks.party_check import run_party
    from sushigo.spec.party.menus import parse_menu

    if menu is not None:
        menu = parse_menu(menu).label  # an unknown menu: one line
    t0 = time.perf_counter()
    results = run_party(cases, seed, menu)
    wall = time.perf_counter() - t0
    failed = any(r.failure for r in results)
    data = {"seed": seed, "examples": cases, "seconds": round(wall, 2), "ok": not failed,
            "properties": [r.as_dict() for r in results], "interrupted": False,
            "hypothesis": hypothesis.__version__}
    data = with_outcome(tagged(FORMAT, data), Verdict.PROVED)
    return Outcome(data, 1 if failed else 0, (cases, results, wall, menu))


check = public(check_outcome, "check")
