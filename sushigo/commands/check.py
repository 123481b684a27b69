"""``sushigo check``: the reference executor held against the Z3 model, under every named ruleset.

Prints what was established, in the rules' words (:mod:`sushigo.checks.summary`: which rules,
which rulesets, how many cases, whether executor and model agreed); ``--table`` adds one row per
property (examples run, time, result). A failure prints the
shrunk counterexample in project notation, both results, the rule ids and how
to reproduce it. ``--mutants`` plants each known engine pitfall into the
executor and reports which property caught it. Exit 1 on any failure (or any
mutant not caught).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sushigo.common import (
    add_game_args,
    add_jobs_args,
    add_json_arg,
    budget_count,
    budget_seconds,
    print_json,
    print_table,
)
from sushigo.limits import MAX_EXAMPLES

ORDER = 80
HELP = "cross-check the executor against the Z3 model (Hypothesis), or run the mutants"

_EPILOG = """\
examples:
  sushigo check                          # default budget: 2000 cases per property, every ruleset
  sushigo check --profile quick          # 300 cases per property (a smoke test)
  sushigo check --table                  # also the table of checks, one row per property
  sushigo check --seed 7 --examples 5000 # other examples than the derandomized default
  sushigo check --ruleset dutch --only round-scores
  sushigo check --mutants                # every planted pitfall must be caught
  sushigo check --game party --examples 50   # Sushi Go Party!: round, dessert and turn families
"""


def register(subparsers: Any) -> None:
    from sushigo.api.check import PROFILES

    parser = subparsers.add_parser(
        "check",
        help=HELP,
        description="Run every property: executor scoring, turns and games against the Z3 model, the "
        "model-enumerated tie structures and the state machine, under every named ruleset.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # Bounded by sushigo.check itself, so the line is the library's (tests/test_api.py holds them equal).
    parser.add_argument("--examples", type=int, default=None, metavar="N",
                        help="cases per property family over all rulesets (default: the profile's; "
                        f"at most {MAX_EXAMPLES})")
    parser.add_argument("--profile", choices=sorted(PROFILES), default="default",
                        help="budget: quick 300, default 2000, long 20000 cases per property")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed Hypothesis (default: derandomized, the same examples every run)")
    parser.add_argument("--rules", "--ruleset", dest="ruleset", default=None, metavar="NAME",
                        help="run under this ruleset only: a name (see 'sushigo rules') or a rules file "
                        "FILE.toml (default: every named ruleset); --ruleset is the older spelling")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help="override one rule parameter (repeatable) in every ruleset run, "
                        "e.g. maki_first_tie=each, tempura_points=6 (list: sushigo rules)")
    parser.add_argument("--only", action="append", default=[], metavar="PROPERTY",
                        help="run only this property (repeatable); see the table for names")
    parser.add_argument("--no-edge", action="store_true", help="skip the enumerated edge cases")
    add_jobs_args(parser, "worker processes (default: 2 if the machine has 2 cores, else 1)")
    parser.add_argument("--mutants", action="store_true",
                        help="run the checks against each planted pitfall; each must be caught")
    parser.add_argument("--mutant", action="append", default=[], metavar="NAME",
                        help="with --mutants: only this mutant (repeatable)")
    parser.add_argument("--timeout", type=budget_seconds, default=None, metavar="SECONDS",
                        help="end the run after SECONDS (cases not reached count as unknown) and cap "
                        "each Z3 call")
    parser.add_argument("--rlimit", type=budget_count, default=None, metavar="N",
                        help="Z3 resource units each call may spend (machine-independent)")
    parser.add_argument("--table", action="store_true",
                        help="also print the table of checks (one row per property: rulesets, cases, "
                        "time, result) before the statement of what was established")
    add_game_args(parser, "the Party families (round scores over the menus, game-end desserts, "
                  "turn by turn = tableaux)", "only this menu (at every player count it seats)")
    add_json_arg(parser)
    parser.set_defaults(func=run)


def _clear_progress(args: argparse.Namespace) -> None:
    if not args.json and sys.stderr.isatty():
        print("\r\033[K", end="", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    from sushigo.api.check import check_outcome

    if args.game == "party":
        return _run_party(args)
    if args.menu is not None:
        from sushigo.spec.errors import InputError

        raise InputError("--menu names a Sushi Go Party! menu: add --game party (or drop --menu)")

    out = check_outcome(examples=args.examples, profile=args.profile, seed=args.seed, ruleset=args.ruleset,
                        rule=list(args.rule), only=list(args.only), no_edge=args.no_edge, jobs=args.jobs,
                        cluster=args.cluster,
                        mutants=args.mutants,
                        mutant=list(args.mutant), progress=not args.json, timeout=args.timeout,
                        rlimit=args.rlimit)
    _clear_progress(args)
    if args.json:
        print_json(out.data)
        return out.code
    opts, outs, wall = out.detail
    if args.mutants:
        from sushigo.checks import runner as R

        rows = [[o.name, o.rule_id, o.caught_by or ("NOT CAUGHT" if o.complete else R.INCOMPLETE),
                 o.ruleset, f"{o.seconds:.1f}", _short(o.case)] for o in outs]
        print_table(rows, ["mutant", "rule", "caught by", "ruleset", "time (s)", "shrunk case"])
        caught = sum(1 for o in outs if o.caught_by is not None)
        if not all(o.complete for o in outs):
            done = sum(o.complete for o in outs)
            print(f"\ninterrupted after {wall:.1f} s: {done} of {len(outs)} mutants run to the end, "
                  f"{caught} caught")
        else:
            print(f"\n{caught}/{len(outs)} mutants caught in {wall:.1f} s "
                  f"({opts.examples} cases per property)")
        return out.code
    from sushigo.checks import runner as R
    from sushigo.checks.summary import statement

    if args.table:
        print_table(R.table_rows(outs), R.HEADERS)
        print()
    print("\n".join(statement(outs, opts)))
    cases = sum(o.examples for o in outs)
    seed = R._seed_text(opts.seed)
    head = "interrupted: " if R.interrupted(outs) else ""
    print(f"\n{head}{cases} cases in {wall:.1f} s, {opts.examples} per property family, seed {seed}")
    for o in outs:
        if o.failure:
            print()
            print(o.failure.text())
    return out.code


def _run_party(args: argparse.Namespace) -> int:
    from sushigo.api.check import BASE_ONLY, check_party_outcome
    from sushigo.checks.party_check import statement

    base = {name: getattr(args, name) for name, _, _ in BASE_ONLY}
    out = check_party_outcome(examples=args.examples, profile=args.profile, seed=args.seed, menu=args.menu,
                              **base)
    if args.json:
        print_json(out.data)
        return out.code
    cases, results, wall, menu = out.detail
    print("\n".join(statement(results, menu)))
    total = sum(r.examples for r in results)
    seed = "derandomized" if args.seed is None else args.seed
    print(f"\n{total} cases in {wall:.1f} s, {cases} per property family, seed {seed}")
    for r in results:
        if r.failure:
            print()
            print(r.failure.text(menu))
    return out.code


def _short(text: str, width: int = 70) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."
