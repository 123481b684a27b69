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

from sushigo.common import add_game_args, add_jobs_args, add_json_arg, add_rules_args, print_json, print_table

if TYPE_CHECKING:
    from sushigo.spec.record import GameRecord
    from sushigo.spec.ruleset import Ruleset

ORDER = 30
HELP = "play games with the reference executor (random or greedy players)"

# Below this many games a run finishes before progress would be worth showing.
_PROGRESS_MIN_GAMES = 500


def register(subparsers: Any) -> None:
    from sushigo.solver.policies import POLICY_NAMES
    from sushigo.spec.party.executor import POLICIES as PARTY_POLICIES

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
        "NAME:OPTION=VALUE,... sets options, e.g. ismcts:iterations=1000; default random; "
        f"with --game party: {', '.join(PARTY_POLICIES)})",
    )
    p.add_argument("--record", metavar="FILE",
                   help="write the game record as JSON (a list of records with --games > 1); - for stdout")
    add_rules_args(p)
    add_game_args(p, "a seeded game for --menu and --players (2 to 8); --rule NAME=VALUE chooses readings",
                  "the menu's tiles limit --players")
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


def print_party_game(record: Any, title: str) -> None:
    """One Party game: per seat its policy, round scores, dessert cards and points, total, winner."""
    score = record.score
    rows = [[f"player {k}", record.policies[k] if record.policies else "-",
             *(rnd.scores[k] for rnd in record.rounds), score.dessert_cards[k],
             (score.dessert_points or [0] * record.players)[k], score.totals[k],
             "*" if k in score.winners else ""] for k in range(record.players)]
    print_table(rows, ["seat", "policy", "round 1", "round 2", "round 3", "desserts", "dessert", "total",
                       "winner"], title=f"{title}; dessert {score.dessert}")
    names = ", ".join(f"player {k}" for k in score.winners)
    print(f"winner{'s (shared)' if len(score.winners) > 1 else ''}: {names}")


def _party_title(record: Any) -> str:
    readings = record.rules.describe() if record.rules.changed() else "default readings"
    return f"{record.players} players, menu {record.menu.label}, {readings}, seed {record.seed}"


def _run_party(args: argparse.Namespace) -> int:
    from sushigo.api.party_play import play_party_outcome
    from sushigo.spec.errors import InputError

    if args.rules != "official":
        raise InputError("--rules names a base-game ruleset; with --game party choose readings with "
                         "--rule NAME=VALUE (sushigo rules --game party)")
    out = play_party_outcome(menu=args.menu, players=args.players, seed=args.seed, games=args.games,
                             policy=list(args.policy), record=args.record, rule=list(args.rule),
                             jobs=args.jobs, cluster=args.cluster)
    if args.record == "-":
        return out.code
    if args.json:
        print_json(out.data)
        return out.code
    records = out.detail
    if args.games == 1:
        print_party_game(records[0], "game: " + _party_title(records[0]))
        return out.code
    doc = out.data
    print(f"{args.games} games: {doc['players']} players, menu {doc['menu']}, seeds "
          f"{args.seed}..{args.seed + args.games - 1}")
    rows = [[f"player {r['seat']}", r["policy"], f"{r['mean']:.2f}", f"{r['stdev']:.2f}", r["min"], r["max"],
             f"{r['win_share']:.1%}"] for r in doc["seats"]]
    print_table(rows, ["seat", "policy", "mean", "stdev", "min", "max", "win share"], title="per seat")
    print("(a shared win counts 1/k for each of the k winners)")
    return out.code


def run(args: argparse.Namespace) -> int:
    from sushigo.api.play import play_outcome

    if args.game == "party":
        return _run_party(args)
    if args.menu is not None:
        from sushigo.spec.errors import InputError

        raise InputError("--menu is a Sushi Go Party! menu: add --game party")

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
