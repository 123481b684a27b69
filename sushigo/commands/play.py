"""``sushigo play``: play games with the reference executor.

One game prints the round-by-round table and can write its record
(``--record FILE``); many games (seeds S, S+1, ...) print a summary: mean and
spread of scores and win shares per seat and per policy.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from sushigo.spec.errors import InputError
from sushigo.spec.executor import fast_random_games, play_game, resolve_policies
from sushigo.spec.policies import POLICIES
from sushigo.spec.record import GameRecord
from sushigo.spec.ruleset import Ruleset
from sushigo.common import add_json_arg, add_rules_args, print_json, print_table, rules_from_args

ORDER = 30

# Below this many games a run finishes before progress would be worth showing.
_PROGRESS_MIN_GAMES = 500
_CHUNK = 500


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "play",
        help="play games with the reference executor (random or greedy players)",
        description="Play complete games from a seed. One game prints the round-by-round table; "
        "many games (seeds S, S+1, ...) print mean and spread of scores and win shares "
        "per seat and per policy.",
    )
    p.add_argument("--players", type=int, default=None, metavar="N",
                   help="players, 2 to 5 (default 4; 2 under dummy-2p)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the first game (default 0)")
    p.add_argument("--games", type=int, default=1, metavar="G", help="number of games (default 1)")
    p.add_argument(
        "--policy",
        action="extend",
        nargs="+",
        default=[],
        metavar="NAME",
        help=f"policy for every player, or one per seat in order ({', '.join(POLICIES)}; default random)",
    )
    p.add_argument("--record", metavar="FILE",
                   help="write the game record as JSON (a list of records with --games > 1); - for stdout")
    add_rules_args(p)
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


def _games(
    players: int, seed: int, n: int, rules: Ruleset, policies: Sequence[str]
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(totals, winners) per game, in chunks so progress can be shown."""
    fast = all(p == "random" for p in policies) and not rules.dummy_2p
    for start in range(seed, seed + n, _CHUNK):
        count = min(_CHUNK, seed + n - start)
        if fast:
            for g in fast_random_games(players, start, count, rules):
                yield g.totals, g.winners
        else:
            for s in range(start, start + count):
                rec = play_game(players, s, rules, policies)
                yield rec.totals, rec.winners


def summarise(
    players: int,
    seed: int,
    n: int,
    rules: Ruleset,
    policies: Sequence[str],
    progress: bool,
    results: Iterable[tuple[tuple[int, ...], tuple[int, ...]]] | None = None,
) -> dict[str, Any]:
    """Mean, spread and win shares over ``n`` games (played here unless ``results`` are given)."""
    seats = rules.seats(players)
    if results is None:
        results = _games(players, seed, n, rules, policies)
    scores: list[list[int]] = [[] for _ in range(seats)]
    wins = [0.0] * seats
    no_winner = 0
    t0 = time.monotonic()
    last = t0
    for k, (totals, winners) in enumerate(results, start=1):
        for s in range(seats):
            scores[s].append(totals[s])
        if winners:
            for w in winners:
                wins[w] += 1 / len(winners)  # a shared win is split evenly
        else:
            no_winner += 1
        now = time.monotonic()
        if progress and now - last > 0.2:
            last = now
            rate = k / (now - t0)
            print(f"\rplayed {k}/{n} games ({rate:.0f}/s)", end="", file=sys.stderr, flush=True)
    if progress:
        print("\r" + " " * 50 + "\r", end="", file=sys.stderr, flush=True)
    seat_rows = []
    for s in range(seats):
        xs = scores[s]
        seat_rows.append(
            {
                "seat": s,
                "policy": policies[s] if s < players else None,
                "mean": statistics.fmean(xs),
                "stdev": statistics.pstdev(xs),
                "min": min(xs),
                "max": max(xs),
                "win_share": wins[s] / n if s < players else None,
            }
        )
    by_policy = []
    for name in dict.fromkeys(policies):
        mine = [s for s in range(players) if policies[s] == name]
        xs = [x for s in mine for x in scores[s]]
        by_policy.append(
            {
                "policy": name,
                "seats": mine,
                "mean": statistics.fmean(xs),
                "stdev": statistics.pstdev(xs),
                "win_share": sum(wins[s] for s in mine) / n,
            }
        )
    return {
        "games": n,
        "players": players,
        "first_seed": seed,
        "rules": rules.name,
        "readings": rules.readings(),
        "policies": list(policies),
        "seats": seat_rows,
        "by_policy": by_policy,
        "games_without_winner": no_winner,
    }


def _write_records(path: str, records: list[GameRecord]) -> None:
    data: Any = records[0].to_json() if len(records) == 1 else [r.to_json() for r in records]
    text = json.dumps(data, indent=1) + "\n"
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise InputError(f"cannot write record to {path!r}: {exc.strerror}") from exc


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    players = args.players if args.players is not None else (2 if rules.dummy_2p else 4)
    if args.games < 1:
        raise InputError(f"--games must be at least 1, got {args.games}")
    policies = resolve_policies(players, args.policy)
    if args.games == 1 or args.record:
        # records are only kept when asked for: --record FILE, or the one game's table
        records = [play_game(players, s, rules, policies) for s in range(args.seed, args.seed + args.games)]
        if args.record:
            _write_records(args.record, records)
            if args.record == "-":
                return 0
        if args.games == 1:
            if args.json:
                print_json(records[0].to_json())
            else:
                print_game(records[0], "game: " + _describe(rules, players, args.seed, policies))
            return 0
        played = [(r.totals, r.winners) for r in records]
        summary = summarise(players, args.seed, args.games, rules, policies, False, played)
    else:
        progress = args.games >= _PROGRESS_MIN_GAMES and sys.stderr.isatty()
        summary = summarise(players, args.seed, args.games, rules, policies, progress)
    if args.json:
        print_json(summary)
        return 0
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
