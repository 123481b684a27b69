"""Backwards questions: tableau enumeration against brute force, and scoresheet checks.

``python -m benchmarks.bench_tableaux [--quick] [--corpus]``

1. Every tableau of 8 cards for every score S: the Z3 enumeration (``solver.tableaux``)
   against the brute-force enumerator (``solver.brute``, every count vector listed and scored);
   the counts must agree; target: Z3 within 10x of brute force.
2. ``sushigo scoresheet`` on the sheets of 20 recorded 4-player games (``spec.executor.play_game``,
   seeds 100-119; ``--quick``: 5); target: each under 10 s.
3. ``--corpus``: the whole scoresheet corpus (``tests/scoresheet_corpus.json``).

Times are CPU seconds of this process (``time.process_time``; Z3 runs in-process), so other
load on the machine counts less than in wall time (both are shown).
"""

from __future__ import annotations

import json
import pathlib
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from tabulate import tabulate

from sushigo.solver.brute import brute_counts
from sushigo.solver.scoresheet import check_sheet, parse_sheet, sheet_from_record
from sushigo.solver.tableaux import counts_by_score
from sushigo.spec.executor import play_game

T = TypeVar("T")


def _timed(fn: Callable[[], T]) -> tuple[T, float, float]:
    c0, w0 = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c0, time.perf_counter() - w0


def enumeration(cards: int = 8) -> None:
    brute, bc, bw = _timed(lambda: brute_counts(cards))
    z3c, zc, zw = _timed(lambda: counts_by_score(cards))
    assert brute == z3c, "Z3 and brute-force counts differ"
    rows = [["brute force (every count vector)", sum(brute.values()), len(brute), f"{bc:.2f}", f"{bw:.2f}"],
            ["Z3 enumeration (blocking clauses)", sum(z3c.values()), len(z3c), f"{zc:.2f}", f"{zw:.2f}"]]
    print(tabulate(rows, headers=[f"every S at K={cards}", "tableaux", "scores", "CPU s", "wall s"],
                   disable_numparse=True))
    print(f"ratio Z3 / brute force: {zc / bc:.1f}x CPU ({zw / bw:.1f}x wall); target within 10x\n")


def sheets(n: int) -> None:
    rows = []
    cpu = []
    for seed in range(100, 100 + n):
        sheet = sheet_from_record(play_game(4, seed))
        v, c, w = _timed(partial(check_sheet, sheet))
        cpu.append(c)
        rows.append([seed, v.status, f"{c:.1f}", f"{w:.1f}"])
    print(tabulate(rows, headers=["4p game seed", "verdict", "CPU s", "wall s"], disable_numparse=True))
    under = sum(1 for c in cpu if c < 10)
    print(f"median {statistics.median(cpu):.1f} s, max {max(cpu):.1f} s CPU; {under}/{n} under 10 s "
          "(target: all)\n")


def corpus() -> None:
    path = pathlib.Path(__file__).resolve().parent.parent / "tests" / "scoresheet_corpus.json"
    rows = []
    for case in json.loads(path.read_text())["cases"]:
        v, c, _ = _timed(partial(check_sheet, parse_sheet(case["sheet"])))
        rows.append([case["id"], case["expect"], v.status, "ok" if v.status == case["expect"] else "DIFFERS",
                     f"{c:.1f}"])
    print(tabulate(rows, headers=["sheet", "expected", "verdict", "", "CPU s"], disable_numparse=True))


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    enumeration(8)
    sheets(5 if quick else 20)
    if "--corpus" in argv:
        corpus()


if __name__ == "__main__":
    main(sys.argv[1:])
