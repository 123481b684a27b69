"""Exact 2-player endgames: the fast search against the reference, and whole rounds against the targets.

Positions: :func:`solver.endgame.random_position` (seeded deal of the official
rules, random legal turns until k cards remain), round 1, objective ``diff``.

1. Head to head (k = 3..7): the default search (``engine="exact"``: double
   oracle on canonical states) and the reference (every matrix whole), on
   the same positions, interleaved per position so machine load hits both
   alike. Both answers are compared; the ratio is reference CPU / exact CPU.
2. Whole rounds (issue 14 target 4): 10 seeded positions at k = 9 (after the
   first pass of a 2-player round) and 10 at k = 10 (the deal itself, both
   hands shown). Each is solved in a fresh forked process so its peak memory
   (max RSS) is its own; per k: median and max time, states visited, peak
   memory, and the median over the target (10 s at k = 9, 60 s at k = 10), in
   wall and in CPU seconds (on a shared machine the wall time also counts the
   other jobs' turns), and how many positions took the target or longer in CPU
   seconds (the target read strictly: each position under it).
   A position that reaches its time limit is counted as unknown (never a guess).

    python -m benchmarks.bench_endgame              # both parts
    python -m benchmarks.bench_endgame --quick      # head to head at k = 3..6, 3 seeds; k = 9, 3 seeds
    python -m benchmarks.bench_endgame --rounds     # only part 2
    python -m benchmarks.bench_endgame --rounds --k 10 --seeds 3 --limit 600   # one k, fewer seeds
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import statistics
import sys
import time
from typing import Any

from sushigo.solver.endgame import random_position, solve_two
from sushigo.spec.ruleset import OFFICIAL
from tabulate import tabulate

TARGETS = {9: 10.0, 10: 60.0}  # seconds per position, each of 10 seeded positions (issue 14 target 4)
LIMITS = {9: 120.0, 10: 240.0}  # per position; reached means unknown


def _load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def head_to_head(ks: range, seeds: range) -> None:
    rows = []
    for k in ks:
        ref_cpu, fast_cpu, ref_nodes, fast_nodes = [], [], [], []
        for seed in seeds:
            pos = random_position(seed, 2, k, OFFICIAL, 1)
            answers = []
            for engine, cpu, nodes in (("reference", ref_cpu, ref_nodes), ("exact", fast_cpu, fast_nodes)):
                c0 = time.process_time()
                res = solve_two(pos, "diff", max_nodes=50_000_000, engine=engine)
                cpu.append(time.process_time() - c0)
                nodes.append(res.nodes)
                out = res.to_json()
                out.pop("nodes")
                answers.append(out)
            assert answers[0] == answers[1], f"k={k} seed={seed}: the searches disagree"
        rows.append([
            k, len(seeds), f"{statistics.median(ref_cpu):.3f}", f"{statistics.median(fast_cpu):.3f}",
            f"{sum(ref_cpu) / sum(fast_cpu):.2f}", int(statistics.median(ref_nodes)),
            int(statistics.median(fast_nodes)),
        ])
    print(f"head to head, same answers checked ({_load()}):")
    print(tabulate(rows, headers=["k", "positions", "reference cpu s", "exact cpu s", "ratio (total)",
                                  "reference states", "exact states"]))


def _solve_one(k: int, seed: int, limit: float, out: Any) -> None:
    pos = random_position(seed, 2, k, OFFICIAL, 1)
    t0, c0 = time.perf_counter(), time.process_time()
    res = solve_two(pos, "diff", max_nodes=10**9, time_limit=limit)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    out.send((time.perf_counter() - t0, time.process_time() - c0, res.nodes, res.status, peak,
              str(res.value), res.reason))


def solve_isolated(k: int, seed: int, limit: float) -> tuple[float, float, int, str, float, str, str | None]:
    """Solve in a forked child: wall s, cpu s, states visited, status, peak RSS MiB, value, reason."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_solve_one, args=(k, seed, limit, child))
    proc.start()
    got = parent.recv()
    proc.join()
    return got  # type: ignore[no-any-return]


def whole_rounds(ks: tuple[int, ...], seeds: range) -> None:
    rows, detail = [], []
    for k in ks:
        walls, cpus, nodes, peaks, unknown = [], [], [], [], 0
        for seed in seeds:
            wall, cpu, n, status, peak, value, reason = solve_isolated(k, seed, LIMITS[k])
            walls.append(wall)
            cpus.append(cpu)
            nodes.append(n)
            peaks.append(peak)
            unknown += status != "solved"
            detail.append([k, seed, status, value if status == "solved" else reason, f"{wall:.2f}",
                           f"{cpu:.2f}", n, f"{peak:.0f}"])
        med = statistics.median(walls)
        rows.append([
            k, len(walls), unknown, f"{med:.2f}", f"{statistics.median(cpus):.2f}", f"{max(walls):.2f}",
            f"{max(cpus):.2f}", sum(c >= TARGETS[k] for c in cpus),
            int(statistics.median(nodes)), max(nodes), f"{statistics.median(peaks):.0f}", f"{max(peaks):.0f}",
            f"{med / TARGETS[k]:.2f}", f"{statistics.median(cpus) / TARGETS[k]:.2f}",
        ])
    print(f"\nwhole rounds, per position ({_load()}):")
    print(tabulate(detail, headers=["k", "seed", "status", "value", "wall s", "cpu s", "states",
                                    "peak MiB"]))
    print(f"\nwhole rounds, per k ({_load()}; unknown = time limit {LIMITS} s reached):")
    print(tabulate(rows, headers=["k", "positions", "unknown", "median s", "median cpu s", "max s",
                                  "max cpu s", "cpu over target", "median states", "max states",
                                  "median peak MiB", "max peak MiB",
                                  "median / target", "median cpu / target"]))


def _option(argv: list[str], name: str) -> str | None:
    if name in argv:
        i = argv.index(name)
        if i + 1 < len(argv):
            return argv[i + 1]
    return None


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    if "--rounds" not in argv:
        head_to_head(range(3, 7) if quick else range(3, 8), range(3) if quick else range(5))
    ks = (9,) if quick else (9, 10)
    if (k := _option(argv, "--k")) is not None:
        ks = (int(k),)
    seeds = range(int(_option(argv, "--seeds") or (3 if quick else 10)))
    if (limit := _option(argv, "--limit")) is not None:
        LIMITS.update({k: float(limit) for k in ks})
    whole_rounds(ks, seeds)


if __name__ == "__main__":
    main(sys.argv[1:])
