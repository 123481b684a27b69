"""Start-up time of the command line (issue 12, item 4): ``sushigo --help`` and ``sushigo score
"tempura tempura" "sashimi"`` each within 4x of ``python -c pass``.

``python -m benchmarks.bench_startup [--runs N]``. Every command runs N times (default 10),
interleaved (one of each per round, so load that comes and goes hits them alike); the table
gives the median wall time and the median CPU time (user + system of the child, which other
load on the machine inflates less) and each as a ratio to ``python -c pass`` measured in the
same rounds. The console script (the venv's ``bin/sushigo``) and ``python -m sushigo`` are
both measured: the script goes through its entry-point wrapper, the module does not.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from tabulate import tabulate

TARGET_RATIO = 4.0
SCORE_ARGS = ["score", "tempura tempura", "sashimi"]


def _commands() -> list[tuple[str, list[str], bool]]:
    """(label, argv, held to the target) in the order they run in each round."""
    python = sys.executable
    script = str(Path(python).parent / "sushigo")
    return [
        ("python -c pass", [python, "-c", "pass"], False),
        ("python -c 'import sushigo'", [python, "-c", "import sushigo"], False),
        # what printing any table costs: tabulate 0.10 reads its version with importlib.metadata
        ("python -c 'import tabulate'", [python, "-c", "import tabulate"], False),
        ("sushigo --help", [script, "--help"], True),
        ("sushigo score ...", [script, *SCORE_ARGS], True),
        ("python -m sushigo --help", [python, "-m", "sushigo", "--help"], True),
        ("python -m sushigo score ...", [python, "-m", "sushigo", *SCORE_ARGS], True),
    ]


def _run(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``argv`` (output discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_startup")
    parser.add_argument("--runs", type=int, default=10, metavar="N", help="runs of each command (default 10)")
    args = parser.parse_args(argv)
    commands = _commands()
    for _label, cmd, _held in commands:
        _run(cmd)  # warm the file cache and the bytecode caches
    walls: dict[str, list[float]] = {label: [] for label, _c, _h in commands}
    cpus: dict[str, list[float]] = {label: [] for label, _c, _h in commands}
    for _ in range(args.runs):
        for label, cmd, _held in commands:
            wall, cpu = _run(cmd)
            walls[label].append(wall)
            cpus[label].append(cpu)
    base_wall = statistics.median(walls[commands[0][0]])
    base_cpu = statistics.median(cpus[commands[0][0]])
    rows = []
    for label, _cmd, held in commands:
        wall, cpu = statistics.median(walls[label]), statistics.median(cpus[label])
        verdict = ("ok" if wall / base_wall <= TARGET_RATIO else "OVER") if held else ""
        rows.append([label, f"{wall * 1000:.1f}", f"{wall / base_wall:.2f}x", f"{cpu * 1000:.1f}",
                     f"{cpu / base_cpu:.2f}x" if base_cpu > 0 else "-", verdict])
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"median of {args.runs} interleaved runs; load average {load:.1f} on {os.cpu_count()} cores; "
          f"target: within {TARGET_RATIO:g}x of python -c pass (wall)")
    print(tabulate(rows, headers=["command", "wall ms", "wall ratio", "cpu ms", "cpu ratio",
                                  f"<= {TARGET_RATIO:g}x"], disable_numparse=True))


if __name__ == "__main__":
    main(sys.argv[1:])
