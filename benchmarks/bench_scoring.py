"""Round scorings per second for 2..5 players, and pudding scorings per second.

``python -m benchmarks.bench_scoring [--quick] [--seed S] [--seconds T]``

Positions are real end-of-round tableaux: a shuffled deck dealt into hands of the
player count's size, each hand laid out in a random order with nigiri going onto a
free wasabi (the official placement). "straightforward" is a plain scorer over
token names (a baseline); each figure is the best of three timed passes over a
fixed pool of positions (seeded), on one core, timed in CPU seconds of this
process (``time.process_time``) so other load on the machine does not
count against it.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from sushigo.spec.cards import NIGIRI, STACK_OF, Card, Token
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.scoring import pudding_points, round_totals, score_round
from sushigo.spec.tableau import N_TOKENS, Tableau
from tabulate import tabulate

TARGET_5P = 100_000  # issue 2: five-player round scorings per second on one core
POOL = 2_000

_WASABI = int(Token.WASABI)


def deal_round(rng: random.Random, players: int, rules: Ruleset = OFFICIAL) -> list[tuple[int, ...]]:
    """Token-count vectors of one dealt round, every card of each hand taken in a random order."""
    deck = [c for c in Card for _ in range(rules.copies(c))]
    rng.shuffle(deck)
    size = rules.hand_size(players)
    out = []
    for p in range(players):
        counts = [0] * N_TOKENS
        for card in deck[p * size:(p + 1) * size]:
            if card in NIGIRI and counts[_WASABI]:
                counts[_WASABI] -= 1
                counts[int(STACK_OF[card])] += 1
            else:
                counts[int(card)] += 1
        out.append(tuple(counts))
    return out


def straightforward_round(tableaux: Sequence[Sequence[str]], rules: Ruleset = OFFICIAL) -> list[int]:
    """A plain scorer over token names, no tables: the baseline the issue compares against."""
    totals, icons = [], []
    for names in tableaux:
        points = (names.count("tempura") // rules.tempura_set) * rules.tempura_points
        points += (names.count("sashimi") // rules.sashimi_set) * rules.sashimi_points
        table = rules.dumpling_points  # the last entry holds for every larger count
        points += table[min(names.count("dumpling"), len(table) - 1)]
        rolls = 0
        for name in names:
            if name in ("egg", "salmon", "squid"):
                points += rules.nigiri_points[("egg", "salmon", "squid").index(name)]
            elif name.startswith("wasabi+"):
                nigiri = ("egg", "salmon", "squid").index(name[7:])
                points += rules.nigiri_points[nigiri] * rules.wasabi_multiplier
            elif name.startswith("maki"):
                rolls += rules.maki_icons[int(name[4]) - 1]
        totals.append(points)
        icons.append(rolls)
    ranks = sorted({v for v in icons if v > 0}, reverse=True)
    if ranks:
        top = [k for k, v in enumerate(icons) if v == ranks[0]]
        for k in top:
            totals[k] += rules.maki_first_points // len(top)
        if len(top) == 1 and len(ranks) > 1:
            second = [k for k, v in enumerate(icons) if v == ranks[1]]
            for k in second:
                totals[k] += rules.maki_second_points // len(second)
    return totals


def _rate(fn: Callable[[], int], seconds: float) -> float:
    """Calls per second of ``fn`` (which returns how many scorings it did), best of three passes."""
    best = 0.0
    for _ in range(3):
        done, t0 = 0, time.process_time()
        while (elapsed := time.process_time() - t0) < seconds / 3:
            done += fn()
        best = max(best, done / elapsed)
    return best


def measure(players: int, seed: int, seconds: float) -> tuple[float, float, float]:
    rng = random.Random(seed * 10 + players)
    counts = [deal_round(rng, players) for _ in range(POOL)]
    tableaux = [[Tableau(c) for c in r] for r in counts]
    names = [[[tok.label for tok in t.tokens()] for t in r] for r in tableaux]
    for r, c in zip(names[:50], counts[:50], strict=True):  # the baseline must agree
        assert straightforward_round(r) == round_totals(c), r

    def plain() -> int:
        for r in names:
            straightforward_round(r, OFFICIAL)
        return len(names)

    def slow() -> int:
        for r in tableaux:
            score_round(r, OFFICIAL)
        return len(tableaux)

    def fast() -> int:
        for c in counts:
            round_totals(c, OFFICIAL)
        return len(counts)

    return _rate(plain, seconds), _rate(slow, seconds), _rate(fast, seconds)


def measure_pudding(seed: int, seconds: float) -> float:
    rng = random.Random(seed)
    pool: list[Sequence[int]] = [
        [rng.randint(0, 4) for _ in range(rng.randint(2, 5))] for _ in range(POOL)
    ]

    def run() -> int:
        for p in pool:
            pudding_points(p, OFFICIAL)
        return len(pool)

    return _rate(run, seconds)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_scoring", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="short passes (a smoke run)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=None, help="time per measurement")
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (0.3 if args.quick else 1.0)
    rows = []
    for players in range(OFFICIAL.min_players, OFFICIAL.max_players + 1):
        plain, slow, fast = measure(players, args.seed, seconds)
        target = f"{fast / TARGET_5P:.2f}x target" if players == OFFICIAL.max_players else ""
        rows.append([f"{players} players", f"{plain:,.0f}", f"{slow:,.0f}", f"{fast:,.0f}",
                     f"{fast / plain:.1f}x", target])
    rows.append(["pudding (2..5 seats)", "", "", f"{measure_pudding(args.seed, seconds):,.0f}", "", ""])
    print(f"seed {args.seed}; official rules; positions: {POOL} dealt rounds per player count")
    print(tabulate(
        rows,
        headers=["scorings per second", "straightforward", "score_round (Tableau)",
                 "round_totals (counts)", "fast / straightforward", f"vs {TARGET_5P:,}/s"],
        tablefmt="simple", disable_numparse=True,
        colalign=("left", "right", "right", "right", "right", "left"),
    ))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
