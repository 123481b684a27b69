"""``sushigo conform TARGET``: hold another Sushi Go engine's scoring against the reference.

TARGET is a ``.py`` file or an importable module with ``score_round(tableaux)``
and optionally ``score_puddings(counts)`` (the adapter protocol, docs/checks.md).
Exit 0 conforming, 1 faults found (or the time limit ran out first), 2 bad target or
options, 130/143 interrupted (SIGINT/SIGTERM: no verdict).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sushigo.checks import conform as C
from sushigo.common import add_json_arg, add_rules_args, print_json, print_table, rules_from_args
from sushigo.spec.errors import InputError

ORDER = 85

_EPILOG = """\
examples:
  sushigo conform examples/conform_adapter.py            # a conforming engine: exit 0
  sushigo conform examples/buggy_adapter.py              # each fault once, minimised, attributed: exit 1
  sushigo conform my_adapter.py --call-timeout 0.5 --time-limit 120   # tighter budgets
  sushigo conform mypackage.sushi_adapter --rules french # an importable module, another ruleset
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "conform",
        help="check another engine's scoring (an adapter module) against the reference",
        description="Generate rounds (pick orders) and pudding counts, including every maki and pudding "
        "tie structure, score them with TARGET and with the reference under --rules, and report each "
        "distinct disagreement minimised, with the rule ids, plus which reading of each contested rule "
        "the target follows.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("target", metavar="TARGET", help="a .py file or an importable module name")
    add_rules_args(parser)
    parser.add_argument("--examples", default="2000", metavar="N",
                        help="generated rounds and pudding counts (on top of the edge cases), a whole number "
                        f"from 1 to {MAX_EXAMPLES}; default 2000")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed the generator (default: derandomized, the same cases every run)")
    parser.add_argument("--call-timeout", default=str(C.Limits.call_timeout), metavar="SECONDS",
                        help="time limit of one call of the target (default %(default)s); past it the call "
                        "is reported as timed out and the target restarted")
    parser.add_argument("--memory-limit", default=str(C.Limits.memory_mb), metavar="MB",
                        help="address-space limit of the target's process (default %(default)s; 0: none)")
    parser.add_argument("--time-limit", default=str(C.Limits.time_limit), metavar="SECONDS",
                        help="time limit of the whole run (default %(default)s); past it the verdict is "
                        "'unknown' unless faults were found")
    add_json_arg(parser)
    parser.set_defaults(func=run)


MAX_EXAMPLES = 20000
_MAX_SECONDS = 86400.0


def _number(option: str, text: str, lo: float, hi: float, whole: bool) -> float:
    """A bounded number from the command line, or one line naming the option and the range."""
    kind = "a whole number" if whole else "a number of seconds" if "time" in option else "a number"
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        value = None
    if value is None or not lo <= value <= hi:
        raise InputError(f"{option} must be {kind} from {lo:g} to {hi:g}, got {text!r}")
    return value


def _limits(args: argparse.Namespace) -> C.Limits:
    return C.Limits(call_timeout=_number("--call-timeout", args.call_timeout, 0.01, 3600, False),
                    memory_mb=int(_number("--memory-limit", args.memory_limit, 0, 1 << 20, True)),
                    time_limit=_number("--time-limit", args.time_limit, 1, _MAX_SECONDS, False))


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    examples = int(_number("--examples", args.examples, 1, MAX_EXAMPLES, True))
    limits = _limits(args)
    try:
        with C.interruptible():
            target = C.load_target(args.target, limits)  # BadTarget is an InputError: exit 2
            report = C.conform(target, rules, examples, args.seed, limits)
    except C.Interrupted as exc:
        print(f"sushigo conform: interrupted by {exc}: stopped, no verdict", file=sys.stderr)
        return exc.code
    code = 0 if report.ok else 1
    if args.json:
        print_json(report.as_dict())
        return code
    pud = f", {report.pudding_cases} pudding cases" if report.pudding_checked else \
        " (no score_puddings: puddings not checked)"
    print(f"{args.target} against the reference under {rules.name}: {report.round_cases} rounds{pud}")
    _show_budget(report)
    if report.ok:
        print("conforms: no disagreement")
    elif not report.disagreements:
        print(f"unknown: {report.stopped}; no disagreement in those")
    else:
        _show_faults(report)
    rows = [[r["parameter"], r["rule_id"], C._fmt(r["reference"]), C.describe_fingerprint(r)]
            for r in report.fingerprint]
    print()
    print_table(rows, ["contested rule", "rule id", f"{rules.name}", "target"], title="fingerprint:")
    return 0 if report.ok else 1


def _show_budget(report: C.Report) -> None:
    b = report.budget
    ran = f"{report.round_cases_run + report.pudding_cases_run} cases compared, {report.seconds:.1f} s in all"
    print(f"budget: {b['examples']} generated cases a side (plus the edge cases), {b['call_timeout_s']:g} s "
          f"a call, {b['memory_mb']} MB, {b['time_limit_s']:g} s in all, z3 {b['z3']['timeout_ms']} ms a "
          f"check / {b['z3']['total_ms']} ms an explanation; {ran}; "
          + (f"seed {report.seed}" if report.seed is not None else "derandomized (no --seed)")
          + (f"; {report.restarts} restart(s) of the target" if report.restarts else ""))
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
