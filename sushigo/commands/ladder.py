"""``sushigo ladder``: policies against each other, seat-rotated and seeded; win shares and ratings."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sushigo.common import add_jobs_args, add_json_arg, add_rules_args, print_json, print_table

ORDER = 77
HELP = "policies against each other in seat-rotated seeded games: win shares and Bradley-Terry ratings"

_EPILOG = """\
schedule: every set of PLAYERS distinct policies is a table (two players: every pair); each table
plays GAMES games, game k dealing seed SEED + k // PLAYERS with the policies rotated k % PLAYERS
seats (the same deals for every table). A win shared by k seats counts 1/k. Ratings: Bradley-Terry
by maximum likelihood on the Elo scale, 95% intervals by a seeded bootstrap over games; win shares:
Wilson's 95% interval. See docs/ladder.md.

examples:
  sushigo ladder --policies random,greedy --games 400
  sushigo ladder --policies random,greedy,lookahead,ismcts:iterations=200 --players 2 --games 200 --jobs 2
  sushigo ladder --policies random,greedy,lookahead --players 3 --games 99 --json
"""


def register(subparsers: Any) -> None:
    from sushigo.api.ladder import DEFAULT_GAMES, DEFAULT_POLICIES
    from sushigo.solver.ladder import BOOTSTRAP

    p = subparsers.add_parser(
        "ladder", help=HELP, epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play every set of --players distinct policies against each other over seeded, "
        "seat-rotated games and print per policy its win share, mean score and Bradley-Terry rating, "
        "each with its 95% interval, and the win shares of every table.")
    p.add_argument("--policies", default=",".join(DEFAULT_POLICIES), metavar="P1,P2,...",
                   help="policies, comma-separated, each NAME[:OPTION=VALUE,...] "
                   f"(default {','.join(DEFAULT_POLICIES)})")
    p.add_argument("--players", type=int, default=2, metavar="N", help="players per game (default 2)")
    p.add_argument("--games", type=int, default=DEFAULT_GAMES, metavar="N",
                   help=f"games per table (default {DEFAULT_GAMES}; a multiple of --players rotates "
                   "every deal through every seat)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="seed of the first deal, 0 or more (default 0); also seeds the bootstrap")
    p.add_argument("--bootstrap", type=int, default=BOOTSTRAP, metavar="B",
                   help=f"bootstrap resamples of the rating intervals (default {BOOTSTRAP}; 0: none)")
    add_rules_args(p)
    add_jobs_args(p, "local worker processes playing the games (default: none, all in this process)")
    add_json_arg(p)
    p.set_defaults(func=run)


def _ci(value: float | None, ci: list[float] | None, fmt: str) -> str:
    if value is None:
        return "-"
    text = format(value, fmt)
    return text if ci is None else f"{text} [{format(ci[0], fmt)}, {format(ci[1], fmt)}]"


def print_report(data: dict[str, Any]) -> None:
    last = data["last_seed"]
    tables = len(data["tables"])
    print(f"ladder: {data['rules']}, {data['players']} players, {tables} table{'s' * (tables != 1)} of "
          f"{data['games_per_table']} games ({data['games']} in all), deals {data['first_seed']}..{last}")
    rows = [[r["policy"], _ci(r["rating"], r["rating_ci95"], "+.0f") + "*" * r["rating_from_prior"],
             _ci(r["win_share"], r["win_share_ci95"], ".1%"), r["games"], f"{r['mean_score']:.2f}"]
            for r in data["standings"]]
    print()
    print_table(rows, ["policy", "rating", "win share", "games", "mean score"])
    for r in data["standings"]:
        if r["fallback_moves"]:
            print(f"{r['policy']}: out of budget on {r['fallback_moves']} of {r['moves']} moves "
                  "(its fallback played them)")
    rows = []
    for t in data["tables"]:
        shares = ", ".join(f"{w['policy']} {_ci(w['win_share'], w['win_share_ci95'], '.1%')}"
                           for w in t["win_shares"])
        rows.append([" vs ".join(t["policies"]), t["games"], shares])
    print()
    print_table(rows, ["table", "games", "win shares"])
    print()
    if any(r["rating_from_prior"] for r in data["standings"]):
        print("*: won or lost every game: the rating rests on the prior (one tied game per pair) and its "
              "interval says nothing")
    print(f"[low, high]: 95% intervals (ratings: Bradley-Terry, Elo scale, bootstrap of "
          f"{data['rating']['bootstrap']} resamples; win shares: Wilson); a shared win counts 1/k")


def run(args: argparse.Namespace) -> int:
    from sushigo.api.ladder import ladder_outcome

    def progress(done: int, total: int) -> None:
        print(f"\r\033[Kladder: played {done}/{total} games", end="", file=sys.stderr, flush=True)

    show = sys.stderr.isatty()
    try:
        out = ladder_outcome(args.policies, players=args.players, games=args.games, seed=args.seed,
                             rules=args.rules, rule=list(args.rule), bootstrap=args.bootstrap,
                             jobs=args.jobs, cluster=args.cluster, progress=progress if show else None)
    finally:
        if show:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
    if args.json:
        print_json(out.data)
    else:
        print_report(out.data)
    return out.code
