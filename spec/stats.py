"""Game statistics: mean, spread and win shares of many games played by the reference executor.

Pure library code: no printing; a caller that shows progress passes ``on_game``."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from sushigo.spec.executor import PolicyLike, fast_random_games, play_game, policy_names
from sushigo.spec.ruleset import Ruleset

CHUNK = 500


def game_results(
    players: int, seed: int, n: int, rules: Ruleset, policies: Sequence[PolicyLike]
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(totals, winners) per game, in chunks so progress can be shown."""
    fast = all(p == "random" for p in policy_names(policies)) and not rules.dummy_2p
    for start in range(seed, seed + n, CHUNK):
        count = min(CHUNK, seed + n - start)
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
    policies: Sequence[PolicyLike],
    results: Iterable[tuple[tuple[int, ...], tuple[int, ...]]] | None = None,
    on_game: Callable[[int, float], None] | None = None,
) -> dict[str, Any]:
    """Mean, spread and win shares over ``n`` games (seeds ``seed``.., played here unless
    ``results`` are given: (totals, winners) per game). ``on_game(k, seconds)`` is called after
    each game (progress)."""
    seats = rules.seats(players)
    if results is None:
        results = game_results(players, seed, n, rules, policies)
    names = policy_names(policies)
    scores: list[list[int]] = [[] for _ in range(seats)]
    wins = [0.0] * seats
    no_winner = 0
    t0 = time.monotonic()
    for k, (totals, winners) in enumerate(results, start=1):
        for s in range(seats):
            scores[s].append(totals[s])
        if winners:
            for w in winners:
                wins[w] += 1 / len(winners)  # a shared win is split evenly
        else:
            no_winner += 1
        if on_game is not None:
            on_game(k, time.monotonic() - t0)
    seat_rows = []
    for s in range(seats):
        xs = scores[s]
        seat_rows.append(
            {
                "seat": s,
                "policy": names[s] if s < players else None,
                "mean": statistics.fmean(xs),
                "stdev": statistics.pstdev(xs),
                "min": min(xs),
                "max": max(xs),
                "win_share": wins[s] / n if s < players else None,
            }
        )
    by_policy = []
    for name in dict.fromkeys(names):
        mine = [s for s in range(players) if names[s] == name]
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
        "policies": list(names),
        "seats": seat_rows,
        "by_policy": by_policy,
        "games_without_winner": no_winner,
    }


__all__ = ["summarise"]
