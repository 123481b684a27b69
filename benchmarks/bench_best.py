"""``sushigo best`` puzzles: the z3 engine against the exhaustive search, on the same puzzles.

100 seeded puzzles shaped like a 2-player round (hands of 10 cards down to 1, dealt from one
shuffled deck, 0-3 opponents with 0-8 maki icons). Both engines solve each; the answers must be
identical. Prints the medians, the z3/search ratio of the medians, and the median of the per-puzzle
ratios. Target: z3 median under 0.5 s and within 5x of search.

    python -m benchmarks.bench_best [--quick] [--seed N] [--count N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tabulate import tabulate

from sushigo.solver.best import solve_puzzle
from sushigo.solver.search import STATUS_OPTIMAL, Puzzle
from sushigo.spec.cards import Card
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.turns import hand_counts


def make_puzzle(seed: int, rules: Ruleset = OFFICIAL, players: int = 2) -> Puzzle:
    """Hands of hand-size cards down to 1 (as one seat sees them in a round), from one deck."""
    rng = random.Random(seed)
    deck = [c for c in Card for _ in range(rules.copies(c))]
    rng.shuffle(deck)
    hands, i = [], 0
    for n in range(rules.hand_size(players), 0, -1):
        hands.append(tuple(hand_counts(deck[i:i + n])))
        i += n
    opponents = tuple(rng.randint(0, 8) for _ in range(rng.randint(0, 3)))
    return Puzzle(tuple(hands), opponents, rules)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_best")
    parser.add_argument("--quick", action="store_true", help="20 puzzles instead of 100")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2024, help="first seed (puzzle k uses seed + k)")
    args = parser.parse_args(argv)
    count = 20 if args.quick else args.count
    times: dict[str, list[float]] = {"z3": [], "search": []}
    ratios = []
    mismatches = 0
    for k in range(count):
        p = make_puzzle(args.seed + k)
        scores = {}
        for engine in ("search", "z3"):
            t0 = time.perf_counter()
            res = solve_puzzle(p, engine)
            times[engine].append(time.perf_counter() - t0)
            assert res.status == STATUS_OPTIMAL, (args.seed + k, engine, res.status)
            scores[engine] = res.score
        if scores["z3"] != scores["search"]:
            mismatches += 1
        ratios.append(times["z3"][-1] / times["search"][-1])
    med = {e: statistics.median(ts) for e, ts in times.items()}
    rows = [
        [e, count, f"{med[e]:.3f}", f"{statistics.mean(ts):.3f}", f"{max(ts):.3f}"]
        for e, ts in times.items()
    ]
    print(f"{count} puzzles, seeds {args.seed}..{args.seed + count - 1}, 10-card hands down to 1, official")
    print(tabulate(rows, headers=["engine", "puzzles", "median s", "mean s", "max s"]))
    print(f"z3/search ratio of medians: {med['z3'] / med['search']:.2f}; "
          f"median per-puzzle ratio: {statistics.median(ratios):.2f}")
    print(f"answers identical: {count - mismatches}/{count}"
          f"{'' if not mismatches else '  <-- MISMATCH'}")
    print(f"target: z3 median < 0.5 s ({'met' if med['z3'] < 0.5 else 'NOT met'}), "
          f"within 5x of search ({'met' if med['z3'] <= 5 * med['search'] else 'NOT met'})")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
