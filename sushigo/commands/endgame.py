"""``sushigo endgame``: exact best play for the rest of a round when every hand is known."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from sushigo.common import (
    add_jobs_args,
    add_json_arg,
    add_rules_args,
    budget_count,
    budget_seconds,
    print_json,
    print_table,
)
from sushigo.spec.errors import InputError

if TYPE_CHECKING:
    from sushigo.solver.endgame import EndgameResult

ORDER = 90
HELP = "solve the rest of a round exactly when every hand is known"

_EPILOG = """\
examples:
  sushigo endgame position.json
  sushigo endgame --hands "squid tempura / egg wasabi" \\
      --taken "maki3,dumpling,dumpling,sashimi,sashimi,sashimi,tempura,chopsticks / \\
maki2,maki2,salmon,dumpling,pudding,tempura,tempura,egg" --json
position JSON: {"rules": "official", "round": 3, "hands": [[...], [...]],
                "taken": [[["wasabi"], ["chopsticks"], ["tempura", "tempura"]], [...]],
                "puddings": [1, 2], "scores": [20, 25]}
text form: hands and taken turns per player separated by '/', turns by ',', the two picks of a
chopsticks turn by a space. Details: docs/endgame.md
"""


def register(subparsers: Any) -> None:
    from sushigo.api.endgame import DEFAULT_MAX_NODES, DEFAULT_TIME_LIMIT, OBJECTIVES, POLICIES

    parser = subparsers.add_parser(
        "endgame",
        help=HELP,
        description="Exact endgame: two players play a zero-sum simultaneous-move game (matrix games "
        "solved exactly at every node); three to five players get player 0's paranoid guarantee, or "
        "the best reply to a fixed policy.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("position", nargs="?", metavar="POSITION.json|-", help="position JSON file or '-'")
    parser.add_argument("--hands", metavar="TEXT", help='text form: "squid egg / tempura maki2"')
    parser.add_argument("--taken", metavar="TEXT", help='turns taken: "wasabi, chopsticks / egg, tempura"')
    parser.add_argument("--round", type=int, default=1, metavar="N", help="round (text form; default 1)")
    parser.add_argument("--puddings", metavar="A,B", help="puddings from earlier rounds (text form)")
    parser.add_argument("--scores", metavar="A,B", help="scores of earlier rounds (text form)")
    parser.add_argument(
        "--objective", choices=OBJECTIVES, default=None,
        help="2 players: diff (default), own or win; 3-5 players: own (paranoid)",
    )
    parser.add_argument("--policy", choices=POLICIES, default=None,
                        help="the other players follow this policy; player 0 replies best")
    parser.add_argument("--max-nodes", type=budget_count, default=DEFAULT_MAX_NODES, metavar="N",
                        help=f"search budget in states visited (default {DEFAULT_MAX_NODES}; "
                        "2 players: a state searched again with another window counts again)")
    parser.add_argument("--certify", action="store_true",
                        help="2 players, up to 3 turns left, diff/own: prove each first pick's "
                        "guarantee with Z3")
    parser.add_argument("--time-limit", type=budget_seconds, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                        help="search time limit (default 300); when reached the answer is unknown")
    parser.add_argument("--batch", metavar="FILE|-",
                        help="solve every position of FILE (a JSON list of positions, or JSON Lines: one "
                        "a line) with these options; one row (--json: one answer) per position, in order")
    parser.add_argument("--timeout", dest="time_limit", type=budget_seconds, default=DEFAULT_TIME_LIMIT,
                        metavar="SECONDS", help="the same as --time-limit")
    parser.add_argument("--rlimit", type=budget_count, default=None, metavar="N",
                        help="with --certify: Z3 resource units each call may spend")
    parser.add_argument("--game", choices=("base", "party"), default="base",
                        help="party: a Sushi Go Party! position (POSITION.json, format "
                        "sushigo-party-position/1; docs/party.md)")
    add_rules_args(parser, default=None)
    add_jobs_args(parser, "with --batch: local worker processes (default 1)")
    add_json_arg(parser)
    parser.set_defaults(func=run)


def fmt(v: object) -> str:
    from fractions import Fraction

    if isinstance(v, Fraction) and v.denominator != 1:
        return f"{v} (= {float(v):.4f})"
    return str(v)


def show(result: EndgameResult) -> None:
    from sushigo.spec.turns import format_turn

    pos = result.position
    what = {
        "diff": "player 0's points minus player 1's (zero-sum, mixed strategies)",
        "own": "player 0's own total, player 1 minimising it (zero-sum, mixed strategies)",
        "win": "+1 win / 0 shared / -1 loss for player 0 (zero-sum, mixed strategies)",
        "paranoid": "player 0's own total, the others minimising it and seeing each pick",
        "policy": f"player 0's own total, the others playing {result.policy}",
    }[result.objective]
    print(
        f"endgame: {pos.players} players, round {pos.round}, {pos.cards_left} cards per hand, "
        f"rules {pos.rules.name}"
    )
    print(f"objective: {what}")
    if result.status != "solved":
        print(f"status: unknown ({result.reason}); raise --max-nodes / --time-limit to search further")
        return
    print(f"value: {fmt(result.value)}   (exact, {result.nodes} states searched)")
    def pick_label(turn: tuple[Any, ...], gift: tuple[Any, ...] | None) -> str:
        text = " ".join(format_turn(turn))
        return text if gift is None else f"{text} (dummy: {' '.join(format_turn(gift))})"

    gifts = result.mix_gifts or [None] * len(result.mix)
    mix = {pick_label(t, g): p for (t, p), g in zip(result.mix, gifts, strict=True)}
    rows = []
    for pv in result.first_picks:
        key = pick_label(pv.turn, pv.dummy)
        rows.append([key, fmt(pv.guarantee), fmt(mix[key]) if key in mix else "-"])
    print()
    label = "value vs policy" if result.objective == "policy" else "guarantee"
    mix_label = "best" if result.objective in ("policy", "paranoid") else "optimal mix"
    print_table(rows, ["first pick", label, mix_label])
    print()
    line_rows = [
        [str(k + 1), *(" ".join(format_turn(t)) for t in step)] for k, step in enumerate(result.line)
    ]
    heads = ["turn", *(f"player {p}" for p in range(pos.players))]
    heads += ["dummy"] if pos.pile is not None else []
    print_table(line_rows, heads, title="principal line:")


def run_batch(args: argparse.Namespace) -> int:
    """``--batch FILE``: one row per position, in input order."""
    from sushigo.api.endgame import endgame_batch_outcome

    if args.position is not None or args.hands is not None:
        raise InputError("--batch FILE reads the positions from FILE: give no position and no --hands")
    out = endgame_batch_outcome(args.batch, objective=args.objective, policy=args.policy,
                                max_nodes=args.max_nodes, certify=args.certify, time_limit=args.time_limit,
                                rules=args.rules, rule=list(args.rule), jobs=args.jobs, cluster=args.cluster,
                                rlimit=args.rlimit)
    if args.json:
        print_json(out.data)
        return out.code
    rows = []
    for k, a in enumerate(out.data["answers"]):
        best = [f"{' '.join(m['pick'])} ({m['p']:g})" if m["p"] != 1 else " ".join(m["pick"])
                for m in a["mix"]]
        certified = {f.get("certified") for f in a["first_picks"]} - {None}
        rows.append([k, a["players"], a["rules"], a["objective"], a["status"],
                     "-" if a["value"] is None else f"{a['value']:g}", ", ".join(best) or "-", a["nodes"],
                     "/".join(sorted(certified)) or "-"])
    heads = ["position", "players", "rules", "objective", "status", "value", "best first pick", "states"]
    if args.certify:
        heads.append("Z3")
    else:
        rows = [r[:-1] for r in rows]
    solved = sum(a["status"] == "solved" for a in out.data["answers"])
    print_table(rows, heads)
    print(f"\n{solved} of {len(rows)} positions solved")
    return out.code


def _run_party(args: argparse.Namespace) -> int:
    from sushigo.api.endgame import party_endgame_outcome

    if args.hands is not None or args.batch is not None or args.policy is not None or args.certify:
        raise InputError("--game party reads a position file (POSITION.json); --hands, --batch, --policy and "
                         "--certify are for the base game")
    if args.objective not in (None, "diff", "paranoid"):
        raise InputError(f"--objective {args.objective}: a Party endgame is scored diff (2 players) or "
                         "paranoid (3 to 8)")
    out = party_endgame_outcome(args.position, timeout=args.time_limit, rule=list(args.rule),
                                rules=args.rules)
    if args.json:
        print_json(out.data)
        return out.code
    res, pos = out.detail
    what = ("seat 0's round points minus seat 1's (zero-sum, mixed strategies)" if res.objective == "diff"
            else "seat 0's round points, the other seats choosing together to hold them down (paranoid)")
    print(f"endgame: Sushi Go Party!, menu {pos.menu.label}, {pos.players} players, {pos.rules.describe()}, "
          f"{len(pos.hands[0])} cards per hand")
    print(f"objective: {what}")
    if res.status != "optimal":
        print(f"status: unknown ({res.reason}; budget {res.budget:g} s)")
        return out.code
    print(f"value: {fmt(res.value)} (exact; {res.stats['positions']} positions, {res.seconds:.2f} s)")
    print_table([[m, fmt(p)] for m, p in res.rows], ["seat 0 plays", "probability"])
    print_table([[m, fmt(p)] for m, p in res.cols], ["the others play", "probability"])
    return out.code


def run(args: argparse.Namespace) -> int:
    from sushigo.api.endgame import endgame_outcome

    if args.game == "party":
        return _run_party(args)
    if args.batch is not None:
        return run_batch(args)
    if args.jobs is not None or args.cluster is not None:
        raise InputError("--jobs and --cluster spread the positions of --batch FILE; one position "
                         "is solved here")
    out = endgame_outcome(args.position, hands=args.hands, taken=args.taken, round=args.round,
                          puddings=args.puddings, scores=args.scores, objective=args.objective,
                          policy=args.policy, max_nodes=args.max_nodes, certify=args.certify,
                          time_limit=args.time_limit, rules=args.rules, rule=list(args.rule),
                          rlimit=args.rlimit)
    if args.json:
        print_json(out.data)
        return out.code
    result, certs = out.detail
    from sushigo.spec.turns import format_turn

    show(result)
    if certs:
        print()
        rows = [[" ".join(format_turn(c.turn)), str(c.guarantee), c.status, str(c.leaves)] for c in certs]
        print_table(rows, ["first pick", "guarantee", "Z3", "final tables"],
                    title="Z3 certificate (>= g forced, <= g forced by the opponent, >= g+1 unsat):")
    return out.code
