"""How long ``sushigo diff`` takes: each single-reading variant against official, a full proof of
agreement, and (without ``--quick``) the whole matrix.

``python -m benchmarks.bench_diff [--quick]``

Times are CPU seconds of this process (``time.process_time``; Z3 runs in-process), so other
load on the machine does not count. The issue names no baseline: the matrix line compares the
searches actually run (pairs with the same readings share one) with the number of pairs.
"""

from __future__ import annotations

import argparse
import time

from sushigo.solver import diff as diffmod
from sushigo.spec.ruleset import OFFICIAL, RULESETS, SINGLE_READING_VARIANTS
from tabulate import tabulate


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(prog="bench_diff")
    ap.add_argument("--quick", action="store_true", help="three variants, no matrix")
    args = ap.parse_args(argv)
    names = list(SINGLE_READING_VARIANTS)
    if args.quick:
        names = ["maki-first-each", "wasabi-strict", "pass-both-ways"]
    rows = []
    for name in names:
        t0 = time.process_time()
        res = diffmod.diff(OFFICIAL, RULESETS[name], extend=False)
        cpu = time.process_time() - t0
        w = res.witness
        size = f"{w.players}p/{w.cards}c" if w else "-"
        rows.append([f"official vs {name}", res.status, size, f"{cpu:.2f}"])
    t0 = time.process_time()
    res = diffmod.diff(OFFICIAL, RULESETS["english"], extend=False)
    rows.append(["official vs english (proof, 2..5p)", res.status, "-", f"{time.process_time() - t0:.2f}"])
    if not args.quick:
        diffmod._cached_diff.cache_clear()
        diffmod._smallest_table_cached.cache_clear()
        t0 = time.process_time()
        cells = diffmod.matrix()
        cpu = time.process_time() - t0
        searches = diffmod._smallest_table_cached.cache_info().misses
        rows.append([f"matrix: {len(cells)} pairs, {searches} table searches "
                     f"({len(cells) / max(searches, 1):.2f}x fewer)", "-", "-", f"{cpu:.2f}"])
    print(tabulate(rows, headers=["query", "answer", "smallest", "CPU s"], tablefmt="simple",
                   disable_numparse=True))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
