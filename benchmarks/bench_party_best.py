"""``best --game party``'s search engine against the base game's ``best --engine search``, on
10-card puzzles, in one run.

Party: seeded puzzles of 2-player rounds (hands of 10 cards down to 1, one shuffled deck of the
menu, the other seat playing a card most turns), every suggested menu that seats 2 in turn
(``solver.party.puzzle.random_puzzle``). Base: the puzzles of ``benchmarks/bench_best.py`` (hands
of 10 down to 1, official rules). Puzzles alternate base, Party, base, ... so the shared
machine's load hits both alike; CPU time of this process (``time.process_time``). Each Party
answer is replayed by the rules engine (``solve_party`` does it) and its Z3 answer, where the Z3
engine covers the puzzle, must be equal.

Target (issue 29): the median per Party puzzle within 2x of the base game's.

    python -m benchmarks.bench_party_best [--count N] [--seed S] [--z3]
"""

from __future__ import annotations

import argparse
import statistics
import time

from sushigo.solver.best import solve_puzzle
from sushigo.solver.party.best import solve_party
from sushigo.solver.party.puzzle import random_puzzle
from sushigo.solver.party.z3best import coverage
from sushigo.spec.party.menus import SUGGESTED, parse_menu
from tabulate import tabulate

from benchmarks.bench_best import make_puzzle

#: The suggested menus that seat 2 players (the 10-card hands).
MENUS = [m for m in SUGGESTED if 2 in parse_menu(m).seats()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=10, help="puzzles of each game (default 10)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--z3", action="store_true", help="also solve the Party puzzles Z3 covers")
    args = parser.parse_args(argv)
    base, party, z3 = [], [], []
    rows = []
    for i in range(args.count):
        seed = args.seed + i
        start = time.process_time()
        solve_puzzle(make_puzzle(seed), "search")
        base.append(time.process_time() - start)
        menu = MENUS[i % len(MENUS)]
        puzzle = random_puzzle(seed, menu, players=2)
        start = time.process_time()
        res = solve_party(puzzle, "search")
        party.append(time.process_time() - start)
        cell = "-"
        if args.z3 and coverage(puzzle) is None:
            start = time.process_time()
            other = solve_party(puzzle, "z3")
            z3.append(time.process_time() - start)
            assert other.score == res.score, (seed, menu, other.score, res.score)
            cell = f"{z3[-1]:.2f}"
        rows.append([seed, menu, res.score, res.stats.get("states", 0), f"{party[-1]:.2f}", cell,
                     f"{base[-1] * 1000:.1f}"])
    print(tabulate(rows, ["seed", "menu", "best", "states", "party search (s)", "party z3 (s)",
                          "base search (ms)"]))
    ratio = statistics.median(party) / statistics.median(base)
    print(f"\n{args.count} puzzles each, 10-card hands down to 1, 2 players; CPU seconds")
    print(tabulate([["base best --engine search", f"{statistics.median(base):.4f}"],
                    ["party best --engine search", f"{statistics.median(party):.4f}"]]
                   + ([["party best --engine z3 (covered)", f"{statistics.median(z3):.4f}"]] if z3 else []),
                   ["engine", "median s"]))
    print(f"party search / base search: {ratio:.0f}x (target: within 2x)")


if __name__ == "__main__":
    main()
