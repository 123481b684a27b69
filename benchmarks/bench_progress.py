"""What progress on a terminal and a whole-run budget cost (issue 18, item 5).

``python -m benchmarks.bench_progress [--rounds N]``. Each case runs the same question with
and without the addition, interleaved (one of each per round, so load that comes and goes hits
both alike), in this process; the table gives the median CPU time of each and their ratio.
Progress is drawn on an in-memory stream that claims to be a terminal, so the throttled
drawing is measured and nothing reaches the screen.

* ``best --round --players 2``: the climb and bisection of :mod:`solver.alldeals`, baseline no
  progress, against the same with the progress callback (a line per step, throttled);
* ``best --game --players 2`` (the best game, not the losing one: proved optimal in seconds);
* ``table --scores 10,10 --limit 150``: the count, baseline no budget and no progress, against
  progress, and against a whole-run budget too large to stop it (``--timeout``, ``--rlimit``:
  the resource count is read before and after every call).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import time
from collections.abc import Callable

from sushigo.solver.alldeals import best_over_deals
from sushigo.solver.table import RunBudget, parse_query, solve
from sushigo.spec.ruleset import OFFICIAL
from tabulate import tabulate

from sushigo.progress import TerminalProgress


class _Screen(io.StringIO):
    def isatty(self) -> bool:
        return True


def _progress() -> TerminalProgress:
    return TerminalProgress(_Screen())


def _cases() -> list[tuple[str, str, Callable[[], object]]]:
    """(case, variant, run); the first variant of each case is its baseline."""
    q = parse_query({"scores": [10, 10]}, OFFICIAL)
    big = RunBudget(seconds=1_000_000.0, rlimit=2**32 - 1)
    return [
        ("best --round --players 2", "no progress", lambda: best_over_deals(2, "round", OFFICIAL)),
        ("best --round --players 2", "progress",
         lambda: best_over_deals(2, "round", OFFICIAL, progress=_progress())),
        ("best --game --players 2 (best)", "no progress", lambda: best_over_deals(2, "game", OFFICIAL)),
        ("best --game --players 2 (best)", "progress",
         lambda: best_over_deals(2, "game", OFFICIAL, progress=_progress())),
        ("table --scores 10,10 --limit 150", "no budget, no progress", lambda: solve(q, limit=150)),
        ("table --scores 10,10 --limit 150", "progress", lambda: solve(q, limit=150, progress=_progress())),
        ("table --scores 10,10 --limit 150", "budget (not reached)", lambda: solve(q, limit=150, run=big)),
    ]


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_progress")
    parser.add_argument("--rounds", type=int, default=3, metavar="N", help="interleaved rounds (default 3)")
    args = parser.parse_args(argv)
    cases = _cases()
    cpu: dict[tuple[str, str], list[float]] = {(c, v): [] for c, v, _ in cases}
    for _ in range(args.rounds):
        for case, variant, run in cases:
            t0 = time.process_time()
            run()
            cpu[(case, variant)].append(time.process_time() - t0)
    rows = []
    base: dict[str, float] = {}
    for case, variant, _ in cases:
        med = statistics.median(cpu[(case, variant)])
        base.setdefault(case, med)
        rows.append([case, variant, f"{med:.2f}", f"{med / base[case]:.2f}x"])
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"median CPU time of {args.rounds} interleaved rounds; load average {load:.1f} on "
          f"{os.cpu_count()} cores; ratio against the first variant of each case")
    print(tabulate(rows, headers=["case", "variant", "CPU s", "ratio"], tablefmt="simple",
                   disable_numparse=True))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
