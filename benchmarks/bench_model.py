"""Z3 model speed: build the model of a full 5-player, 3-round game and check one recorded game.

Issue 3 targets: build under 1 s, check under 3 s. ``python -m benchmarks.bench_model [--quick]``.
Times are the best of a few repetitions, in CPU seconds of this process
(``time.process_time``, z3 runs in-process) and wall seconds; the load average is
printed, since other work on the machine inflates wall time. "check" is stating
the record (deals and picks) as facts and deciding the model, then reading the
scores back; the recorded scores are compared.
"""

from __future__ import annotations

import argparse
import os
import time

from sushigo.spec.executor import play_game
from sushigo.spec.model.facts import check, record_facts
from sushigo.spec.model.game import build_game
from sushigo.spec.ruleset import OFFICIAL
from tabulate import tabulate

BUILD_TARGET = 1.0
CHECK_TARGET = 3.0


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(prog="bench_model")
    ap.add_argument("--quick", action="store_true", help="one repetition")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    reps = 1 if args.quick else 3
    record = play_game(args.players, args.seed, OFFICIAL)
    rows = []
    best: dict[str, tuple[float, float]] = {}
    size = (0, 0)
    for _ in range(reps):
        w0, c0 = time.perf_counter(), time.process_time()
        gm = build_game(OFFICIAL, args.players)
        w1, c1 = time.perf_counter(), time.process_time()
        res = check(gm.model, record_facts(gm, record))
        scores = [[res.value(s["total"]) for s in sc] for sc in gm.scores]
        totals = [res.value(t) for t in gm.totals]
        w2, c2 = time.perf_counter(), time.process_time()
        want = [list(r.scores) for r in record.rounds]
        if res.status != "sat" or scores != want or totals != list(record.totals):
            raise SystemExit(f"bench_model: the model disagrees with the record (status {res.status})")
        size = gm.model.size()
        for key, cpu, wall in (("build", c1 - c0, w1 - w0), ("check", c2 - c1, w2 - w1)):
            old = best.get(key)
            if old is None or cpu < old[0]:
                best[key] = (cpu, wall)
    for key, target in (("build", BUILD_TARGET), ("check", CHECK_TARGET)):
        cpu, wall = best[key]
        rows.append([key, f"{cpu:.3f}", f"{wall:.3f}", f"{target:.1f}", f"{cpu / target:.2f}",
                     "ok" if cpu < target else "SLOW"])
    print(f"{args.players} players, {OFFICIAL.rounds} rounds, seed {args.seed}; model size: "
          f"{size[0]} variables, {size[1]} constraints; load average {os.getloadavg()[0]:.1f}")
    print(tabulate(rows, headers=["step", "cpu s", "wall s", "target s", "cpu/target", ""]))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
