"""Start-up time of the command line (issue 12 item 4, issue 31 item 5): ``sushigo score
"tempura tempura" "sashimi"`` within 4x of ``python -c pass``, ``sushigo --help`` within 3x.

``python -m benchmarks.bench_startup [--runs N] [--against PYTHON]``. Every command runs N times (default 10),
interleaved (one of each per round, so load that comes and goes hits them alike); the table
gives the median wall time and the median CPU time (user + system of the child, which other
load on the machine inflates less) and each as a ratio to ``python -c pass`` measured in the
same rounds. The console script (the venv's ``bin/sushigo``) and ``python -m sushigo`` are
both measured: the script goes through its entry-point wrapper, the module does not.

``--against PYTHON`` also runs the held commands with another install's interpreter (the venv
of a checkout of the baseline commit, say) in the same rounds, so before and after are
measured side by side; the second table gives each held command's ratio beside its target.
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

TARGET_RATIO = 4.0  # the most any held command may take (issue 12)
#: Issue 31 item 5: each held command's own target, wall time over ``python -c pass``.
TARGETS = {"--help": 3.0, "score": 4.0}
SCORE_ARGS = ["score", "tempura tempura", "sashimi"]


def _held(python: str, tag: str = "") -> list[tuple[str, list[str], float | None]]:
    script = str(Path(python).parent / "sushigo")
    return [
        (f"sushigo --help{tag}", [script, "--help"], TARGETS["--help"]),
        (f"sushigo score ...{tag}", [script, *SCORE_ARGS], TARGETS["score"]),
        (f"python -m sushigo --help{tag}", [python, "-m", "sushigo", "--help"], TARGETS["--help"]),
        (f"python -m sushigo score ...{tag}", [python, "-m", "sushigo", *SCORE_ARGS], TARGETS["score"]),
    ]


def _commands(against: str | None = None) -> list[tuple[str, list[str], float | None]]:
    """(label, argv, target ratio or None) in the order they run in each round."""
    python = sys.executable
    rows: list[tuple[str, list[str], float | None]] = [
        ("python -c pass", [python, "-c", "pass"], None),
        ("python -c 'import sushigo'", [python, "-c", "import sushigo"], None),
        # what printing any table costs: tabulate 0.10 reads its version with importlib.metadata
        ("python -c 'import tabulate'", [python, "-c", "import tabulate"], None),
        *_held(python),
    ]
    if against is not None:
        rows += _held(against, " [against]")
    return rows


#: The children's environment: bytecode caches on, as in an installed package (pip compiles its
#: modules on install). With PYTHONDONTWRITEBYTECODE set (as on the CI machines) every run of a
#: checkout would compile every module from source, and the ratios measured the compiler.
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _run(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``argv`` (output discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=_ENV)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_startup")
    parser.add_argument("--runs", type=int, default=10, metavar="N", help="runs of each command (default 10)")
    parser.add_argument("--against", metavar="PYTHON", default=None,
                        help="also run the held commands with this interpreter (another install, e.g. "
                        "the baseline commit's venv), in the same rounds")
    args = parser.parse_args(argv)
    commands = _commands(args.against)
    for _label, cmd, _held in commands:
        _run(cmd)  # warm the file cache and write the bytecode caches
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
    ratios: dict[str, tuple[float, float]] = {}
    for label, _cmd, target in commands:
        wall, cpu = statistics.median(walls[label]), statistics.median(cpus[label])
        verdict = ("ok" if wall / base_wall <= target else "OVER") if target is not None else ""
        rows.append([label, f"{wall * 1000:.1f}", f"{wall / base_wall:.2f}x", f"{cpu * 1000:.1f}",
                     f"{cpu / base_cpu:.2f}x" if base_cpu > 0 else "-", verdict])
        ratios[label] = (wall / base_wall, cpu / base_cpu if base_cpu > 0 else float("nan"))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"median of {args.runs} interleaved runs; load average {load:.1f} on {os.cpu_count()} cores; "
          f"targets (wall, over python -c pass): --help {TARGETS['--help']:g}x, score {TARGETS['score']:g}x")
    print(tabulate(rows, headers=["command", "wall ms", "wall ratio", "cpu ms", "cpu ratio", "target"],
                   disable_numparse=True))
    print()
    print(_ratio_table(commands, ratios, args.against is not None))


def _ratio_table(commands: list[tuple[str, list[str], float | None]],
                 ratios: dict[str, tuple[float, float]], against: bool) -> str:
    """Each held command's ratios beside its target (and beside the --against install's)."""
    rows = []
    for label, _cmd, target in commands:
        if target is None or label.endswith(" [against]"):
            continue
        wall, cpu = ratios[label]
        row = [label, f"{target:g}x", f"{wall:.2f}x", f"{cpu:.2f}x"]
        if against:
            old_wall, old_cpu = ratios[label + " [against]"]
            row += [f"{old_wall:.2f}x", f"{old_cpu:.2f}x"]
        rows.append(row)
    headers = ["held command", "target", "wall ratio", "cpu ratio"]
    if against:
        headers += ["against: wall ratio", "against: cpu ratio"]
    return str(tabulate(rows, headers=headers, disable_numparse=True))


if __name__ == "__main__":
    main(sys.argv[1:])
