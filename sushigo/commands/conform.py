"""``sushigo conform TARGET``: hold another Sushi Go engine's scoring against the reference.

TARGET is a ``.py`` file or an importable module with ``score_round(tableaux)``
and optionally ``score_puddings(counts)`` (the adapter protocol, docs/checks.md).
Exit 0 conforming, 1 faults found (or the time limit ran out first), 2 bad target or
options, 130/143 interrupted (SIGINT/SIGTERM: no verdict).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any

from sushigo.common import (
    add_game_args,
    add_jobs_args,
    add_json_arg,
    add_rules_args,
    budget_count,
    print_json,
    print_table,
)

if TYPE_CHECKING:
    from sushigo.checks import conform as C

ORDER = 85
HELP = "check another engine's scoring (an adapter module) against the reference"

_EPILOG = """\
examples:
  sushigo conform examples/conform_adapter.py            # a conforming engine: exit 0
  sushigo conform examples/buggy_adapter.py              # each fault once, minimised, attributed: exit 1
  sushigo conform my_adapter.py --call-timeout 0.5 --time-limit 120   # tighter budgets
  sushigo conform mypackage.sushi_adapter --rules french # an importable module, another ruleset
  sushigo conform my_adapter.py --jobs 2                 # cases made and asked on 2 worker processes
  sushigo conform --game party tests/adapters/party_good.py   # a Party scorer (score_party_round)
  sushigo conform --game party my_party.py --menu sushi-go --rule edamame_cap=round
"""


def register(subparsers: Any) -> None:
    from sushigo.api.conform import DEFAULT_LIMITS, MAX_EXAMPLES

    parser = subparsers.add_parser(
        "conform",
        help=HELP,
        description="Generate rounds (pick orders) and pudding counts, including every maki and pudding "
        "tie structure, score them with TARGET and with the reference under --rules, and report each "
        "distinct disagreement minimised, with the rule ids, plus which reading of each contested rule "
        "the target follows.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("target", metavar="TARGET", help="a .py file or an importable module name")
    add_rules_args(parser, default=None)
    add_game_args(parser, "TARGET offers score_party_round(case) and optionally score_party_desserts(case) "
                  "(the Party adapter protocol); --rule chooses the readings",
                  "only cases on that menu")
    parser.add_argument("--examples", default="2000", metavar="N",
                        help="generated rounds and pudding counts (on top of the edge cases), a whole number "
                        f"from 1 to {MAX_EXAMPLES}; default 2000")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed the generator (default: derandomized, the same cases every run)")
    parser.add_argument("--call-timeout", default=str(DEFAULT_LIMITS["call_timeout"]), metavar="SECONDS",
                        help="time limit of one call of the target (default %(default)s); past it the call "
                        "is reported as timed out and the target restarted")
    parser.add_argument("--memory-limit", default=str(DEFAULT_LIMITS["memory_limit"]), metavar="MB",
                        help="address-space limit of the target's process (default %(default)s; 0: none)")
    parser.add_argument("--time-limit", default=str(DEFAULT_LIMITS["time_limit"]), metavar="SECONDS",
                        help="time limit of the whole run (default %(default)s); past it the verdict is "
                        "'unknown' unless faults were found")
    parser.add_argument("--timeout", dest="time_limit", default=str(DEFAULT_LIMITS["time_limit"]),
                        metavar="SECONDS", help="the same as --time-limit")
    parser.add_argument("--rlimit", type=budget_count, default=None, metavar="N",
                        help="Z3 resource units each call (naming a fault's rule ids) may spend")
    add_jobs_args(parser, "local worker processes that generate the cases and ask the target "
                  "(default: none, all in this process)")
    add_json_arg(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    started = time.monotonic()  # --timeout covers the whole run, the harness's import included
    from sushigo.api.conform import conform_outcome
    from sushigo.checks import conform as C
    from sushigo.spec.model.budget import quiet_stop_traces

    try:
        with C.interruptible():
            out = conform_outcome(args.target, rules=args.rules, rule=list(args.rule), examples=args.examples,
                                  seed=args.seed, call_timeout=args.call_timeout,
                                  memory_limit=args.memory_limit, time_limit=args.time_limit,
                                  rlimit=args.rlimit, started=started, jobs=args.jobs,
                                  cluster=args.cluster, game=args.game, menu=args.menu)
    except (Exception, KeyboardInterrupt) as exc:
        # Interrupted, or a stop whose own exception was lost (raised inside a __del__) and that
        # surfaced as another error (a Z3 call cancelled by the stop): no verdict either way.
        if not isinstance(exc, C.Interrupted):
            if not C.engine_mod.pending:
                raise
            exc = C.Interrupted(C.engine_mod.pending[0])
        # The exception holds the interrupted frames until this block ends, after the quiet scope
        # of interruptible(): a half-built Z3 wrapper among them must not print a trace then.
        quiet_stop_traces("conform", lambda: bool(C.engine_mod.pending))
        print(f"sushigo conform: interrupted by {exc}: stopped, no verdict", file=sys.stderr)
        return exc.code
    if args.json:
        print_json(out.data)
        return out.code
    if args.game == "party":
        return _show_party(args.target, out.detail[1], out.code)
    rules, report = out.detail
    pud = f", {report.pudding_cases} pudding cases" if report.pudding_checked else \
        "" if report.round_cases == 0 and report.stopped else " (no score_puddings: puddings not checked)"
    print(f"{args.target} against the reference under {rules.name}: {report.round_cases} rounds{pud}")
    b = report.budget
    ran = f"{report.round_cases_run + report.pudding_cases_run} cases compared, {report.seconds:.1f} s in all"
    _show_budget(report, f"{b['examples']} generated cases a side (plus the edge cases), "
                 f"{b['call_timeout_s']:g} s a call, {b['memory_mb']} MB, {b['time_limit_s']:g} s in all, "
                 f"z3 {b['z3']['timeout_ms']} ms a check / {b['z3']['total_ms']} ms an explanation; {ran}")
    _show_verdict(report)
    rows = [[r["parameter"], r["rule_id"], C._fmt(r["reference"]), C.describe_fingerprint(r)]
            for r in report.fingerprint]
    print()
    print_table(rows, ["contested rule", "rule id", f"{rules.name}", "target"], title="fingerprint:")
    return 0 if report.ok else 1


def _show_party(target: str, report: C.Report, code: int) -> int:
    desserts = f", {report.pudding_cases} dessert cases" if report.pudding_checked else \
        " (no score_party_desserts: desserts not checked)"
    print(f"{target} against the Party reference, {report.rules}: {report.round_cases} rounds{desserts}")
    b = report.budget
    _show_budget(report, f"{b['examples']} generated rounds (plus the edge cases), {b['call_timeout_s']:g} s "
                 f"a call, {b['memory_mb']} MB, {b['time_limit_s']:g} s in all; "
                 f"{report.round_cases_run + report.pudding_cases_run} cases compared")
    _show_verdict(report)
    from sushigo.checks.conform import _fmt, describe_fingerprint

    rows = [[r["parameter"], r["rule_id"], _fmt(r["reference"]), describe_fingerprint(r)]
            for r in report.fingerprint if r["evidence"] != "no discriminating case"]
    if rows:
        print()
        print_table(rows, ["reading", "rule id", "reference", "target"], title="fingerprint:")
    return code


def _show_verdict(report: C.Report) -> None:
    if report.ok:
        print("conforms: no disagreement")
    elif not report.disagreements:
        print(f"unknown: {report.stopped}; no disagreement in those")
    else:
        _show_faults(report)


def _show_budget(report: C.Report, head: str) -> None:
    print(f"budget: {head}; "
          + (f"seed {report.seed}" if report.seed is not None else "derandomized (no --seed)")
          + (f"; {report.restarts} restart(s) of the target" if report.restarts else "")
          + f"; sandbox {report.sandbox}")
    if report.stopped:
        print(f"stopped early: {report.stopped}")


def _show_faults(report: C.Report) -> None:
    if report.faults:
        print(f"\n{len(report.faults)} independent fault(s), each minimised on a case where it alone "
              "changes the score:")
    for f in report.faults:
        plural = "s" if f["cases"] != 1 else ""
        rules = ", ".join(f["rule_ids"]) or "unknown"
        print(f"\n{f['number']}. {f['kind']}, {f['category']} ({f['cases']} case{plural}) rules: {rules}")
        print(f"   case:     {f['case']}")
        print(f"   expected: {f['expected']}")
        print(f"   target:   {f['got']}")
        print(f"   why:      {f['attribution']['method']}: {f['attribution']['how']}")
        if f["note"]:
            print(f"   note:     {f['note']}")
    if report.adapter_faults:
        print(f"\n{len(report.adapter_faults)} adapter fault(s):")
        rows = [[a["function"], a["kind"], a["cases"],
                 a["case"] + ("" if a["minimised"] else " (first seen)"), a["detail"]]
                for a in report.adapter_faults]
        print_table(rows, ["function", "fault", "cases", "case (minimised)", "what happened"])
