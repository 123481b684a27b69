"""Backwards questions: tableau counts, enumeration against brute force, and scoresheet checks.

``python -m benchmarks.bench_tableaux [--quick] [--corpus] [--count-only] [--rounds N]``

0. ``tableaux --count``: the exact count (``solver.counting``) against the plain generating-function
   count (``tests/brute.py``'s ``formula_counts``: polynomials in (size, points, has maki) multiplied
   group by group, every term kept in one dict, as a newcomer writes it), interleaved rounds in
   one process, CPU medians; the answers must be equal.
   Targets: every score at K=10 under 20 ms; no slower than the plain count.
1. Every tableau of 8 cards for every score S: the Z3 enumeration (``solver.tableaux``)
   against the brute-force enumerator (``tests/brute.py``, every count vector listed and scored);
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

from sushigo.solver.counting import count_score, score_counts
from sushigo.solver.scoresheet import check_sheet, parse_sheet, sheet_from_record
from sushigo.solver.tableaux import count_tableaux, counts_by_score
from sushigo.spec.executor import play_game
from tabulate import tabulate

from tests.brute import brute_counts, formula_counts

T = TypeVar("T")


def _timed(fn: Callable[[], T]) -> tuple[T, float, float]:
    c0, w0 = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c0, time.perf_counter() - w0


def counting(rounds: int) -> None:
    cases: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
        ("every score, K=8", lambda: formula_counts(8), lambda: score_counts(8)),
        ("every score, K=10", lambda: formula_counts(10), lambda: score_counts(10)),
        ("one score (30), K=10", lambda: formula_counts(10).get(30, 0), lambda: count_score(30, 10)),
        ("every score, K=10, M=6", lambda: formula_counts(10, 6), lambda: score_counts(10, 6)),
    ]
    rows = []
    for label, plain, fast in cases:
        assert plain() == fast(), f"{label}: the counts differ"
        times: dict[str, list[float]] = {"plain": [], "fast": []}
        for r in range(rounds):
            order = (("plain", plain), ("fast", fast)) if r % 2 == 0 else (("fast", fast), ("plain", plain))
            for name, fn in order:
                _, cpu, _ = _timed(fn)
                times[name].append(cpu)
        p, f = statistics.median(times["plain"]), statistics.median(times["fast"])
        rows.append([label, f"{p * 1000:.2f}", f"{f * 1000:.2f}", f"{p / f:.1f}x"])
    print(tabulate(rows, headers=["tableaux --count", "plain GF ms", "solver.counting ms", "speed-up"],
                   disable_numparse=True))
    # The old --count path (Z3 enumeration, kept as the reference): a few rounds, it is slow.
    z3_cpu = statistics.median(_timed(lambda: count_tableaux(30, 10))[1] for _ in range(3))
    fast_cpu = statistics.median(_timed(lambda: count_score(30, 10))[1] for _ in range(3))
    print(f"one score (30), K=10 by Z3 enumeration (the reference): {z3_cpu * 1000:.0f} ms CPU, "
          f"{z3_cpu / fast_cpu:.0f}x solver.counting")
    every = float(rows[1][2])
    print(f"{rounds} interleaved rounds, CPU medians; answers equal in every case. Target: every score at "
          f"K=10 under 20 ms ({'met' if every < 20 else 'NOT met'}), no slower than the plain count\n")


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
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else (5 if quick else 21)
    counting(rounds)
    if "--count-only" in argv:
        return
    enumeration(8)
    sheets(5 if quick else 20)
    if "--corpus" in argv:
        corpus()


if __name__ == "__main__":
    main(sys.argv[1:])
