"""Executor speed: complete random games per second for 2..5 players, and 5-player round
scorings per second (issue 2 targets: 5,000 five-player games/s and 100,000 five-player round
scorings/s on one core).

``python -m benchmarks.bench_executor [--quick]``. Rates are CPU seconds of this process
(``time.process_time``), so other load on the machine inflates them less than wall time
would; the load average and a calibration loop are printed alongside so runs on different
machines can be compared. Games are played with the full official rules (chopsticks, wasabi,
puddings, tie-breaks); ``fast`` is :func:`spec.executor.fast_random_games`, ``general`` is
:func:`spec.executor.play_game` (the straightforward path that also builds the record).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

from tabulate import tabulate

from sushigo.spec.executor import fast_random_games, play_game
from sushigo.spec.ruleset import OFFICIAL
from sushigo.spec.scoring import round_totals, score_round
from sushigo.spec.tableau import Tableau

GAMES_TARGET = 5000
SCORINGS_TARGET = 100_000


def _rate(work: Callable[[], int], min_seconds: float) -> float:
    """Items per CPU second, repeating ``work`` (which returns its item count) for min_seconds."""
    done = 0
    start = time.process_time()
    while True:
        done += work()
        spent = time.process_time() - start
        if spent >= min_seconds:
            return done / spent


def _calibration() -> float:
    """ns per iteration of a trivial Python loop: how fast this interpreter runs right now."""
    n = 2_000_000
    start = time.process_time()
    x = 0
    for i in range(n):
        x += i
    return (time.process_time() - start) / n * 1e9


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_executor")
    parser.add_argument("--quick", action="store_true", help="short runs (about 15 s instead of 40 s)")
    args = parser.parse_args(argv)
    seconds = 0.5 if args.quick else 2.0
    warm_seconds = 1.0 if args.quick else 5.0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.1f} on {os.cpu_count()} cores; calibration loop {_calibration():.0f} ns/iter")

    rows = []
    for players in (2, 3, 4, 5):
        # the option tables fill up during the first games; measure closer to the steady state
        start, warm_seed = time.process_time(), 0
        while time.process_time() - start < warm_seconds and warm_seed < 20000:
            fast_random_games(players, warm_seed, 1000, OFFICIAL)
            warm_seed += 1000
        seed = [10**6]

        def fast(players: int = players, seed: list[int] = seed) -> int:
            fast_random_games(players, seed[0], 500, OFFICIAL)
            seed[0] += 500
            return 500

        def general(players: int = players, seed: list[int] = seed) -> int:
            for s in range(seed[0], seed[0] + 20):
                play_game(players, s, OFFICIAL)
            seed[0] += 20
            return 20

        f = _rate(fast, seconds)
        g = _rate(general, seconds / 2)
        target = f"{f / GAMES_TARGET:.2f}x" if players == 5 else ""
        rows.append([f"games, {players} players", f"{f:,.0f}", f"{g:,.0f}", f"{f / g:.1f}x", target])

    tableaux = [
        tuple(rnd)
        for game in fast_random_games(5, 7, 400, OFFICIAL, tableaux=True)
        for rnd in (game.tableaux or ())
    ]
    as_objects = [tuple(Tableau(t) for t in rnd) for rnd in tableaux]

    def totals() -> int:
        for rnd in tableaux:
            round_totals(rnd, OFFICIAL)
        return len(tableaux)

    def full() -> int:
        for objs in as_objects:
            score_round(objs, OFFICIAL)
        return len(as_objects)

    t = _rate(totals, seconds)
    s = _rate(full, seconds)
    rows.append(["5-player round scorings, round_totals", f"{t:,.0f}", "", "", f"{t / SCORINGS_TARGET:.2f}x"])
    rows.append(["5-player round scorings, score_round", f"{s:,.0f}", "", "", f"{s / SCORINGS_TARGET:.2f}x"])
    print(
        tabulate(
            rows,
            headers=["what", "per CPU second", "general path", "fast / general", "vs target"],
            tablefmt="simple",
            disable_numparse=True,
        )
    )
    print(f"targets: {GAMES_TARGET:,} five-player games/s, {SCORINGS_TARGET:,} five-player round scorings/s")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
