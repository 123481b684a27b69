"""``sushigo check``: the reference executor held against the Z3 model, under every named ruleset.

Prints one row per property (examples run, time, result); a failure prints the
shrunk counterexample in project notation, both results, the rule ids and how
to reproduce it. ``--mutants`` plants each known engine pitfall into the
executor and reports which property caught it. Exit 1 on any failure (or any
mutant not caught).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from sushigo.checks import runner as R
from sushigo.spec.errors import InputError
from sushigo.spec.ruleset import RULESETS, get_ruleset
from sushigo.common import add_json_arg, print_json, print_table

ORDER = 80

_EPILOG = """\
examples:
  sushigo check                          # default budget: 2000 cases per property, every ruleset
  sushigo check --profile quick          # 300 cases per property (a smoke test)
  sushigo check --seed 7 --examples 5000 # other examples than the derandomized default
  sushigo check --ruleset dutch --only round-scores
  sushigo check --mutants                # every planted pitfall must be caught
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check",
        help="cross-check the executor against the Z3 model (Hypothesis), or run the mutants",
        description="Run every property: executor scoring, turns and games against the Z3 model, the "
        "model-enumerated tie structures and the state machine, under every named ruleset.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--examples", type=int, default=None, metavar="N",
                        help="cases per property family over all rulesets (default: the profile's)")
    parser.add_argument("--profile", choices=sorted(R.PROFILES), default="default",
                        help="budget: quick 300, default 2000, long 20000 cases per property")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed Hypothesis (default: derandomized, the same examples every run)")
    parser.add_argument("--ruleset", default=None, metavar="R",
                        help="run under this named ruleset only (default: every named ruleset)")
    parser.add_argument("--only", action="append", default=[], metavar="PROPERTY",
                        help="run only this property (repeatable); see the table for names")
    parser.add_argument("--no-edge", action="store_true", help="skip the enumerated edge cases")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="worker processes (default: 2 if the machine has 2 cores, else 1)")
    parser.add_argument("--mutants", action="store_true",
                        help="run the checks against each planted pitfall; each must be caught")
    parser.add_argument("--mutant", action="append", default=[], metavar="NAME",
                        help="with --mutants: only this mutant (repeatable)")
    add_json_arg(parser)
    parser.set_defaults(func=run)


def _options(args: argparse.Namespace) -> R.Options:
    examples = args.examples if args.examples is not None else R.PROFILES[args.profile]
    if examples < 1:
        raise InputError(f"--examples must be at least 1, got {examples}")
    rulesets = [get_ruleset(args.ruleset)] if args.ruleset else list(RULESETS.values())
    known = set(R.task_names(R.Options(rulesets=rulesets)))
    for name in args.only:
        if name not in known:
            raise InputError(f"unknown property {name!r}; properties: {', '.join(sorted(known))}")
    return R.Options(examples=examples, seed=args.seed, rulesets=rulesets, only=tuple(args.only),
                     edge=not args.no_edge,
                     progress=R.terminal_progress(not args.json))


def _clear_progress(args: argparse.Namespace) -> None:
    if not args.json and sys.stderr.isatty():
        print("\r\033[K", end="", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    opts = _options(args)
    if args.mutants:
        return _run_mutants(args, opts)
    if args.mutant:
        raise InputError("--mutant NAME needs --mutants")
    jobs = args.jobs if args.jobs is not None else min(2, os.cpu_count() or 1)
    t0 = time.perf_counter()
    outs = R.run_parallel(opts, jobs)
    wall = time.perf_counter() - t0
    _clear_progress(args)
    failed = [o for o in outs if o.failure]
    stopped = R.interrupted(outs)
    seed = R._seed_text(opts.seed)
    if args.json:
        print_json({"seed": opts.seed, "examples": opts.examples, "seconds": round(wall, 2),
                    "ok": not failed and not stopped, "properties": [o.as_dict() for o in outs],
                    "interrupted": stopped})
    else:
        print_table(R.table_rows(outs), R.HEADERS)
        cases = sum(o.examples for o in outs)
        head = "interrupted: " if stopped else ""
        print(f"\n{head}{cases} cases in {wall:.1f} s, {opts.examples} per property family, seed {seed}")
        for o in failed:
            assert o.failure is not None
            print()
            print(o.failure.text())
    return 1 if failed else 0


def _run_mutants(args: argparse.Namespace, opts: R.Options) -> int:
    from sushigo.checks.mutants import MUTANT_BY_NAME

    for name in args.mutant:
        if name not in MUTANT_BY_NAME:
            raise InputError(f"unknown mutant {name!r}; mutants: {', '.join(MUTANT_BY_NAME)}")
    t0 = time.perf_counter()
    outs = R.run_mutants(opts, args.mutant)
    wall = time.perf_counter() - t0
    _clear_progress(args)
    missed = [o for o in outs if o.caught_by is None]
    stopped = not all(o.complete for o in outs)
    if args.json:
        print_json({"seconds": round(wall, 2), "ok": not missed, "mutants": [o.as_dict() for o in outs],
                    "interrupted": stopped})
    else:
        rows = [[o.name, o.rule_id, o.caught_by or ("NOT CAUGHT" if o.complete else R.INCOMPLETE),
                 o.ruleset, f"{o.seconds:.1f}", _short(o.case)] for o in outs]
        print_table(rows, ["mutant", "rule", "caught by", "ruleset", "time (s)", "shrunk case"])
        if stopped:
            done = sum(o.complete for o in outs)
            print(f"\ninterrupted after {wall:.1f} s: {done} of {len(outs)} mutants run to the end, "
                  f"{len(outs) - len(missed)} caught")
        else:
            print(f"\n{len(outs) - len(missed)}/{len(outs)} mutants caught in {wall:.1f} s "
                  f"({opts.examples} cases per property)")
    return 1 if missed else 0


def _short(text: str, width: int = 70) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."
