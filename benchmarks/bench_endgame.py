"""Exact 2-player endgames: median solve time and states searched per cards-per-hand k.

Positions: :func:`solver.endgame.random_position` (seeded deal of the official
rules, random legal turns until k cards remain), round 1, objective ``diff``.
The issue's target is k = 6 in under 10 s; the ``vs target`` column is the
median time over those 10 s. Then the largest k solved within 60 s is probed
on one seed per k (time limit, reported as unknown when it is reached).

    python -m benchmarks.bench_endgame            # k = 3..7, 5 seeds each; probe k = 8..10
    python -m benchmarks.bench_endgame --quick    # k = 3..6, 3 seeds; no probe
"""

from __future__ import annotations

import statistics
import sys
import time

from tabulate import tabulate

from sushigo.solver.endgame import random_position, solve_two
from sushigo.spec.ruleset import OFFICIAL

TARGET_K, TARGET_SECONDS = 6, 10.0
PROBE_SECONDS = 60.0


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    ks = range(3, 7) if quick else range(3, 8)
    seeds = range(3) if quick else range(5)
    rows = []
    for k in ks:
        times, cpu, nodes = [], [], []
        for seed in seeds:
            pos = random_position(seed, 2, k, OFFICIAL, 1)
            t0, c0 = time.perf_counter(), time.process_time()
            res = solve_two(pos, "diff", max_nodes=50_000_000)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            nodes.append(res.nodes)
            assert res.status == "solved"
        med = statistics.median(times)
        rows.append([
            k, len(times), f"{med:.3f}", f"{statistics.median(cpu):.3f}", f"{max(times):.3f}",
            int(statistics.median(nodes)),
            f"{med / TARGET_SECONDS:.3f}" if k == TARGET_K else "",
        ])
    print(tabulate(rows, headers=["k", "positions", "median s", "median cpu s", "max s", "median states",
                                  f"vs target ({TARGET_SECONDS:.0f} s at k={TARGET_K})"]))
    if quick:
        return
    print(f"\nlargest k within {PROBE_SECONDS:.0f} s (seed 0):")
    probe = []
    for k in range(8, 11):
        pos = random_position(0, 2, k, OFFICIAL, 1)
        t0 = time.perf_counter()
        res = solve_two(pos, "diff", max_nodes=100_000_000, time_limit=PROBE_SECONDS)
        probe.append([k, res.status, f"{time.perf_counter() - t0:.1f}", res.nodes, res.reason or ""])
        if res.status != "solved":
            break
    print(tabulate(probe, headers=["k", "status", "seconds", "states", "reason"]))


if __name__ == "__main__":
    main(sys.argv[1:])
