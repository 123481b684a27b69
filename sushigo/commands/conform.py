"""``sushigo conform TARGET``: hold another Sushi Go engine's scoring against the reference.

TARGET is a ``.py`` file or an importable module with ``score_round(tableaux)``
and optionally ``score_puddings(counts)`` (the adapter protocol, docs/checks.md).
Exit 0 conforming, 1 disagreements found, 2 bad target.
"""

from __future__ import annotations

import argparse
from typing import Any

from sushigo.api.conform import conform_outcome
from sushigo.common import add_json_arg, add_rules_args, print_json, print_table

ORDER = 85
HELP = "check another engine's scoring (an adapter module) against the reference"

_EPILOG = """\
examples:
  sushigo conform examples/conform_adapter.py            # a conforming engine: exit 0
  sushigo conform examples/buggy_adapter.py              # each disagreement once, minimised: exit 1
  sushigo conform mypackage.sushi_adapter --rules french # an importable module, another ruleset
"""


def register(subparsers: Any) -> None:
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
    add_rules_args(parser)
    parser.add_argument("--examples", type=int, default=2000, metavar="N",
                        help="generated rounds and pudding counts (on top of the edge cases); default 2000")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed the generator (default: derandomized, the same cases every run)")
    add_json_arg(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    out = conform_outcome(args.target, rules=args.rules, rule=list(args.rule), examples=args.examples,
                          seed=args.seed)
    if args.json:
        print_json(out.data)
        return out.code
    from sushigo.checks import conform as C

    rules, report = out.detail
    pud = f", {report.pudding_cases} pudding cases" if report.pudding_checked else \
        " (no score_puddings: puddings not checked)"
    print(f"{args.target} against the reference under {rules.name}: {report.round_cases} rounds{pud}")
    if report.ok:
        print("conforms: no disagreement")
    else:
        print(f"\n{len(report.disagreements)} distinct disagreement(s), each minimised:")
        for k, d in enumerate(report.disagreements, 1):
            plural = "s" if d.count != 1 else ""
            print(f"\n{k}. {d.kind} ({d.count} case{plural}) rules: {', '.join(d.rule_ids)}")
            print(f"   case:     {d.case}")
            print(f"   expected: {d.expected}")
            print(f"   target:   {d.actual}")
            if d.reading:
                print(f"   explained by the reading {d.reading}")
    rows = [[r["parameter"], r["rule_id"], C._fmt(r["reference"]), C.describe_fingerprint(r)]
            for r in report.fingerprint]
    print()
    print_table(rows, ["contested rule", "rule id", f"{rules.name}", "target"], title="fingerprint:")
    return 0 if report.ok else 1
