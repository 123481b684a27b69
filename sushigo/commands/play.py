"""``sushigo play``: play games with the reference executor.

One game prints the round-by-round table and can write its record
(``--record FILE``); many games (seeds S, S+1, ...) print a summary: mean and
spread of scores and win shares per seat and per policy.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sushigo.common import add_jobs_args, add_json_arg, add_rules_args, print_json, print_table

if TYPE_CHECKING:
    from sushigo.spec.record import GameRecord
    from sushigo.spec.ruleset import Ruleset

ORDER = 30
HELP = "play games with the reference executor (random or greedy players)"

# Below this many games a run finishes before progress would be worth showing.
_PROGRESS_MIN_GAMES = 500


def register(subparsers: Any) -> None:
    from sushigo.solver.policies import POLICY_NAMES

    p = subparsers.add_parser(
        "play",
        help=HELP,
        description="Play complete games from a seed. One game prints the round-by-round table; "
        "many games (seeds S, S+1, ...) print mean and spread of scores and win shares "
        "per seat and per policy.",
    )
    p.add_argument("--players", type=int, default=None, metavar="N",
                   help="players, 2 to 5 (default 4; 2 under dummy-2p)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="seed of the first game, 0 or more (default 0)")
    p.add_argument("--games", type=int, default=1, metavar="G", help="number of games (default 1)")
    p.add_argument(
        "--policy",
        action="extend",
        nargs="+",
        default=[],
        metavar="NAME",
        help=f"policy for every player, or one per seat in order ({', '.join(POLICY_NAMES)}; "
        "NAME:OPTION=VALUE,... sets options, e.g. ismcts:iterations=1000; default random)",
    )
    p.add_argument("--record", metavar="FILE",
                   help="write the game record as JSON (a list of records with --games > 1); - for stdout")
    add_rules_args(p)
    add_jobs_args(p, "with --games: local worker processes (default 1)")
    add_json_arg(p)
    p.set_defaults(func=run)


def seat_name(seat: int, players: int) -> str:
    return "dummy" if seat >= players else f"player {seat}"


def game_table(record: GameRecord) -> tuple[list[list[Any]], list[str]]:
    """Players x rounds, pudding cards and points, total, winner mark."""
    seats = record.seats
    headers = ["seat", "policy"] + [f"round {r + 1}" for r in range(len(record.rounds))]
    headers += ["puddings", "pudding", "total", "winner"]
    rows: list[list[Any]] = []
    for s in range(seats):
        policy = record.policies[s] if s < len(record.policies) else "-"
        row: list[Any] = [seat_name(s, record.players), policy]
        row += [rnd.scores[s] for rnd in record.rounds]
        row += [
            record.puddings[s],
            record.pudding[s] if record.pudding is not None else "-",
            record.totals[s],
            "*" if s in record.winners else "",
        ]
        rows.append(row)
    return rows, headers


def print_game(record: GameRecord, title: str) -> None:
    rows, headers = game_table(record)
    print_table(rows, headers, title=title)
    if record.winners:
        names = ", ".join(seat_name(s, record.players) for s in record.winners)
        print(f"winner{'s' if len(record.winners) > 1 else ''}: {names}")
    else:
        print("winner: none (still tied after puddings; winner_tie=none)")


def _describe(rules: Ruleset, players: int, seed: int, policies: Sequence[str]) -> str:
    pol = policies[0] + " (all)" if len(set(policies)) == 1 else ", ".join(policies)
    return f"{players} players, rules {rules.describe()}, seed {seed}, policies {pol}"


def run(args: argparse.Namespace) -> int:
    from sushigo.api.play import play_outcome

    progress = args.games >= _PROGRESS_MIN_GAMES and sys.stderr.isatty()
    out = play_outcome(players=args.players, seed=args.seed, games=args.games, policy=list(args.policy),
                       record=args.record, rules=args.rules, rule=list(args.rule), progress=progress,
                       jobs=args.jobs, cluster=args.cluster)
    if args.record == "-":
        return out.code
    rules, players, policies, records = out.detail
    if args.games == 1 and not args.json:
        print_game(records[0], "game: " + _describe(rules, players, args.seed, policies))
        return out.code
    summary = out.data
    if args.json:
        print_json(summary)
        return out.code
    print(
        f"{args.games} games: {players} players, rules {rules.describe()}, "
        f"seeds {args.seed}..{args.seed + args.games - 1}"
    )
    rows = [
        [
            seat_name(r["seat"], players),
            r["policy"] or "-",
            f"{r['mean']:.2f}",
            f"{r['stdev']:.2f}",
            r["min"],
            r["max"],
            f"{r['win_share']:.1%}" if r["win_share"] is not None else "-",
        ]
        for r in summary["seats"]
    ]
    print_table(rows, ["seat", "policy", "mean", "stdev", "min", "max", "win share"], title="per seat")
    prow = [
        [r["policy"], len(r["seats"]), f"{r['mean']:.2f}", f"{r['stdev']:.2f}", f"{r['win_share']:.1%}"]
        for r in summary["by_policy"]
    ]
    print()
    print_table(prow, ["policy", "seats", "mean", "stdev", "win share"], title="per policy")
    if summary["games_without_winner"]:
        print(f"games without a winner (winner_tie=none): {summary['games_without_winner']}")
    print("(a shared win counts 1/k for each of the k winners)")
    return 0
