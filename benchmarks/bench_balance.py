"""``sushigo balance`` against its target (issue 17 item 4): 20,000 games of both rulesets and the
report in under a minute.

``python -m benchmarks.bench_balance [--games N] [--quick] [--no-solver]``

Baseline, measured in the same process: ``sushigo play --games N`` (the library call behind it,
:func:`sushigo.api.play.play_outcome`), which plays the same N random games of one ruleset and
summarises them. Rows: the games part of the report for a pair that differs only in scoring (the
games are played once and scored twice), for a pair that differs in picks (played twice), and the
whole report (maxima and smallest difference included, each solver question within its default
budget). Wall seconds count the machine's other load; CPU seconds are this process's own (the
solvers' threads included); the ratios are of wall time against the baseline's. The load average
is printed with the table.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

from tabulate import tabulate

TARGET_SECONDS = 60.0  # the whole report over 20,000 games, on the shared 2-core machine
TARGET_GAMES = 20_000


def _timed(call: Callable[[], Any]) -> tuple[float, float, Any]:
    w0, c0 = time.perf_counter(), time.process_time()
    out = call()
    return time.perf_counter() - w0, time.process_time() - c0, out


def main(argv: list[str]) -> None:
    from sushigo.api.balance import balance_outcome
    from sushigo.api.play import play_outcome

    parser = argparse.ArgumentParser(prog="bench_balance")
    parser.add_argument("--games", type=int, default=TARGET_GAMES)
    parser.add_argument("--quick", action="store_true", help="2,000 games, no solver")
    parser.add_argument("--no-solver", action="store_true", help="skip the whole-report row")
    args = parser.parse_args(argv)
    games = 2000 if args.quick else args.games
    load_before = os.getloadavg()[0]
    base_wall, base_cpu, _ = _timed(lambda: play_outcome(games=games))
    rows: list[list[Any]] = [["baseline: play --games (one ruleset)", games, f"{base_wall:.1f}",
                              f"{base_cpu:.1f}", "1.00", ""]]
    cases: list[tuple[str, Callable[[], Any], bool]] = [
        ("balance maki-first-each, games only (scored twice)",
         lambda: balance_outcome("maki-first-each", games=games, maxima=False, smallest_diff=False), False),
        ("balance wasabi-optional, games only (played twice)",
         lambda: balance_outcome("wasabi-optional", games=games, maxima=False, smallest_diff=False), False),
    ]
    if not (args.quick or args.no_solver):
        cases.append(("balance maki-first-each, whole report",
                      lambda: balance_outcome("maki-first-each", games=games), True))
    for name, call, whole in cases:
        wall, cpu, out = _timed(call)
        verdict = ""
        if whole:
            ok = wall < TARGET_SECONDS and games >= TARGET_GAMES
            statuses = [m["status"] for side in ("ruleset", "vs") for m in out.data[side]["maxima"].values()]
            verdict = f"{'met' if ok else 'MISSED'} (< {TARGET_SECONDS:g} s); maxima {', '.join(statuses)}"
        rows.append([name, games, f"{wall:.1f}", f"{cpu:.1f}", f"{wall / base_wall:.2f}", verdict])
    print(tabulate(rows, headers=["run", "games", "wall s", "cpu s", "x baseline (wall)", "target"]))
    print(f"load average (1 min) before {load_before:.2f}, after {os.getloadavg()[0]:.2f}; 4 players, random")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
