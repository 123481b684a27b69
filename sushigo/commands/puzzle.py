"""``sushigo puzzle``: endgame puzzles with one best first pick that greedy play misses."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from sushigo.common import add_json_arg, add_rules_args, budget_count, budget_seconds, print_json, print_table

if TYPE_CHECKING:
    from sushigo.solver.puzzles import Puzzle

ORDER = 95
HELP = "endgame puzzles: find the one best first pick (not the greedy one)"

_EPILOG = """\
examples:
  sushigo puzzle --list
  sushigo puzzle --show 3              # the position; on a terminal, Enter reveals the solution
  sushigo puzzle --show 3 --solution   # position and solution
  sushigo puzzle --verify              # re-solve every puzzle with the endgame solver
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "puzzle",
        help=HELP,
        description="Two-player endgame puzzles from the shipped collection. Each has a single best "
        "first pick for player 0 (score difference, exact play by both sides) that the greedy pick misses.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--list", action="store_true", help="list the puzzles")
    group.add_argument("--show", type=int, metavar="N", help="print puzzle N (solution hidden)")
    group.add_argument("--verify", action="store_true", help="re-solve every puzzle and check it")
    parser.add_argument("--solution", action="store_true", help="with --show: print the solution too")
    parser.add_argument("--timeout", type=budget_seconds, default=None, metavar="SECONDS",
                        help="with --verify: the whole run's time; puzzles not re-solved are unknown")
    parser.add_argument("--rlimit", type=budget_count, default=None, metavar="N",
                        help="Z3 resource units any call may spend")
    add_rules_args(parser, default=None)
    add_json_arg(parser)
    parser.set_defaults(func=run)


def _show_position(p: Puzzle) -> None:
    from sushigo.solver.endgame import hand_names, parse_position
    from sushigo.spec.tableau import Tableau, format_tableau

    pos = parse_position(p.position)
    print(f"puzzle {p.id}: round {pos.round}, {pos.cards_left} cards per hand, rules {pos.rules.name} "
          f"(seed {p.seed})")
    rows = []
    for k in range(2):
        rows.append([
            f"player {k}" + (" (you)" if k == 0 else ""),
            " ".join(hand_names(pos.hands[k])),
            format_tableau(Tableau(pos.tableaux[k])),
            str(pos.puddings[k]),
            str(pos.scores[k]),
        ])
    print_table(rows, ["", "hand", "tableau so far", "earlier puddings", "earlier score"])
    print("\nBoth players know both hands. Find player 0's first pick that is best for the final score "
          "difference when both play perfectly.")


def _show_solution(p: Puzzle) -> None:
    from sushigo.solver.endgame import parse_position, solve_two

    pos = parse_position(p.position)
    res = solve_two(pos, "diff")
    print(f"\nsolution: {' '.join(p.solution)}  (guarantees a difference of {p.value}; "
          f"the greedy pick {' '.join(p.greedy)} guarantees only {p.greedy_guarantee})")
    rows = [[" ".join(str(x) for x in pv.turn), str(pv.guarantee)]
            for pv in sorted(res.first_picks, key=lambda v: v.guarantee, reverse=True)]
    print_table(rows, ["first pick", "guarantee"])
    line = [[str(k + 1), *(" ".join(str(x) for x in t) for t in step)] for k, step in enumerate(res.line)]
    print()
    print_table(line, ["turn", "player 0", "player 1"], title="best play:")


def run(args: argparse.Namespace) -> int:
    from sushigo.api.puzzle import puzzle_outcome

    out = puzzle_outcome(list=args.list, show=args.show, verify=args.verify, solution=args.solution,
                         rules=args.rules, rule=list(args.rule), timeout=args.timeout, rlimit=args.rlimit)
    if args.json:
        print_json(out.data)
        return out.code
    if args.list:
        rows = [[str(p.id), str(p.round), str(p.cards_left), str(p.seed)] for p in out.detail]
        print_table(rows, ["puzzle", "round", "cards per hand", "seed"])
        return out.code
    if args.verify:
        for msg in out.detail:
            print(msg)
        if out.data["unknown"]:
            ids = ", ".join(map(str, out.data["unknown"]))
            print(f"not re-solved within the time budget (unknown): {ids}")
        print(f"{out.data['puzzles']} puzzles checked, {len(out.detail)} problems")
        return out.code
    p = out.detail
    _show_position(p)
    reveal = args.solution
    if not reveal and sys.stdin.isatty() and sys.stdout.isatty():
        try:
            reveal = input("\npress Enter for the solution (q to quit) ").strip().lower() != "q"
        except EOFError:
            reveal = False
    if reveal:
        _show_solution(p)
    else:
        print(f"(solution hidden: sushigo puzzle --show {p.id} --solution)")
    return out.code
