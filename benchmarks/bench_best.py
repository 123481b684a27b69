"""``sushigo best`` puzzles: both engines against a plain dynamic programme, on the same puzzles.

100 seeded puzzles shaped like a 2-player round (hands of 10 cards down to 1, dealt from one
shuffled deck, 0-3 opponents with 0-8 maki icons), official rules. Each puzzle is solved by the
plain DP written below (the baseline), by ``--engine search`` and by ``--engine z3``, in rotating
order (so load on the shared machine hits all three alike); CPU time of this process
(``time.process_time``; Z3 runs in-process). The three answers must be identical. The set is
solved ``--rounds`` times (default 3) and each puzzle's time is its median over the rounds: on
the shared machine one pass alone gave z3 / search anywhere from 1.93 to 2.17 within an hour; the
ratio of each round alone is printed too.

Targets (issue 14): search no slower than the plain DP; z3 within 2x of search; 100/100 identical.

    python -m benchmarks.bench_best [--quick] [--seed N] [--count N] [--rounds N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import cache

from sushigo.solver.best import build_pick_model, solve_puzzle
from sushigo.solver.search import STATUS_OPTIMAL, Puzzle, puzzle_turns
from sushigo.spec.cards import Card
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.turns import hand_counts
from tabulate import tabulate


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


# --- the baseline: an exhaustive DP over reduced states, written plainly ----------------------

TEMPURA, SASHIMI, DUMPLING, MAKI1, MAKI2, MAKI3, EGG, SALMON, SQUID, PUDDING, WASABI, CHOP = range(12)


def plain_dp(puzzle: Puzzle) -> int:
    """The best score of an official-rules puzzle, as a newcomer writes it.

    State after each turn: tempura mod 2, sashimi mod 3, dumplings (up to 5), free wasabi,
    chopsticks in the tableau, maki icons (up to one above the best opponent); everything else
    is banked as points when taken. Moves: every card in the hand, and with chopsticks every
    ordered pair of two cards (a wasabi taken first holds the nigiri taken second).
    """
    r = puzzle.rules
    opps = list(puzzle.opponents_maki)
    top = max(opps, default=0)
    cap = top + 1
    hands = puzzle.hands
    nigiri = {EGG: r.nigiri_points[0], SALMON: r.nigiri_points[1], SQUID: r.nigiri_points[2]}
    icons_of = {MAKI1: r.maki_icons[0], MAKI2: r.maki_icons[1], MAKI3: r.maki_icons[2]}

    def maki(icons: int) -> int:
        if icons == 0:
            return 0
        if icons > top:
            return r.maki_first_points
        ranked = sorted(set(opps), reverse=True)
        if icons == top:
            return r.maki_first_points // (opps.count(top) + 1)
        second = ranked[1] if len(ranked) > 1 else 0
        if icons > second:
            return r.maki_second_points
        if icons == second:
            return r.maki_second_points // (opps.count(second) + 1)
        return 0

    def take(state: tuple[int, ...], card: int) -> tuple[tuple[int, ...], int]:
        tem, sas, dum, wasabi, chop, icons = state
        gain = 0
        if card == TEMPURA:
            tem += 1
            if tem == r.tempura_set:
                tem, gain = 0, r.tempura_points
        elif card == SASHIMI:
            sas += 1
            if sas == r.sashimi_set:
                sas, gain = 0, r.sashimi_points
        elif card == DUMPLING:
            dum = min(dum + 1, len(r.dumpling_points) - 1)
        elif card in icons_of:
            icons = min(icons + icons_of[card], cap)
        elif card in nigiri:
            if wasabi > 0:
                wasabi -= 1
                gain = nigiri[card] * r.wasabi_multiplier
            else:
                gain = nigiri[card]
        elif card == WASABI:
            wasabi += 1
        elif card == CHOP:
            chop += 1
        return (tem, sas, dum, wasabi, chop, icons), gain

    @cache
    def best(t: int, state: tuple[int, ...]) -> int:
        if t == len(hands):
            return r.dumpling_points[state[2]] + maki(state[5])
        hand = hands[t]
        result = -1
        for a in range(12):
            if hand[a] == 0:
                continue
            s1, g1 = take(state, a)
            result = max(result, g1 + best(t + 1, s1))
            if state[4] > 0:  # chopsticks from an earlier turn: a second card, chopsticks go back
                for b in range(12):
                    if hand[b] - (a == b) <= 0:
                        continue
                    s2, g2 = take(s1, b)
                    s2 = (*s2[:4], s2[4] - 1, s2[5])
                    result = max(result, g1 + g2 + best(t + 1, s2))
        return result

    return best(0, (0, 0, 0, 0, 0, 0))


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_best")
    parser.add_argument("--quick", action="store_true", help="20 puzzles instead of 100")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2024, help="first seed (puzzle k uses seed + k)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="times the whole set is solved (default 3); each puzzle's time is its median "
                        "over the rounds, which takes out most of the shared machine's noise")
    args = parser.parse_args(argv)
    count = 20 if args.quick else args.count
    rounds = max(1, args.rounds)
    phases: list[dict[str, int]] = []  # the z3 engine's own account of each puzzle (BestResult.stats)

    def z3_engine(p: Puzzle) -> int:
        res = solve_puzzle(p, "z3")
        phases.append(res.stats)
        return _optimal(res)

    solvers: dict[str, Callable[[Puzzle], int]] = {
        "plain DP": plain_dp,
        "search": lambda p: _optimal(solve_puzzle(p, "search")),
        "z3": z3_engine,
    }
    names = list(solvers)
    # runs[name][k]: puzzle k's CPU times over the rounds. A puzzle comes back only after every
    # other one (no engine keeps anything of a puzzle: the z3 engine's solver is popped, the
    # search's table dropped), and the engines' order rotates per puzzle and per round.
    runs: dict[str, list[list[float]]] = {n: [[] for _ in range(count)] for n in names}
    per_round: list[dict[str, float]] = []
    mismatches = []
    puzzles = [make_puzzle(args.seed + k) for k in range(count)]
    for r in range(rounds):
        for k, p in enumerate(puzzles):
            scores = {}
            for j in range(len(names)):
                name = names[(k + j + r) % len(names)]
                t0 = time.process_time()
                scores[name] = solvers[name](p)
                runs[name][k].append(time.process_time() - t0)
            if len(set(scores.values())) != 1 and r == 0:
                mismatches.append((args.seed + k, scores))
        per_round.append({n: statistics.median(ts[-1] for ts in runs[n]) for n in names})
    times: dict[str, list[float]] = {n: [statistics.median(ts) for ts in runs[n]] for n in names}
    # Where z3 spends: building the model (timed apart, once more per puzzle) against the whole run.
    for k in range(count):
        p = make_puzzle(args.seed + k)
        t0 = time.process_time()
        build_pick_model(puzzle_turns(p), p.opponents_maki, p.rules)
        times.setdefault("z3: model building only", []).append(time.process_time() - t0)
    med = {n: statistics.median(ts) for n, ts in times.items()}
    rows = [[n, count, f"{med[n]:.4f}", f"{statistics.mean(ts):.4f}", f"{max(ts):.4f}"]
            for n, ts in times.items()]
    print(f"{count} puzzles, seeds {args.seed}..{args.seed + count - 1}, 10-card hands down to 1, official; "
          f"CPU s, rotating order; each puzzle's median over {rounds} round(s)")
    print(tabulate(rows, headers=["engine", "puzzles", "median s", "mean s", "max s"], disable_numparse=True))
    # Where the z3 engine's time goes, by its own CPU clock (medians over the puzzles, ms).
    parts = [("search, no two-card turns (seed)", "search_us"), ("model, seed literals", "model_us"),
             ("certify, all", "certify_us"), ("certify: seed check", "seed_check_us"),
             ("certify: proof checks (one point more)", "proof_us"), ("replay, spec re-score", "recheck_us")]
    top = ("search_us", "model_us", "certify_us", "recheck_us")  # the phases that add up to the run
    whole = statistics.median(sum(ph.get(k, 0) for k in top) for ph in phases)
    rows = [[name, f"{statistics.median(ph.get(key, 0) for ph in phases) / 1000:.2f}",
             f"{statistics.mean(ph.get(key, 0) for ph in phases) / 1000:.2f}",
             f"{max(ph.get(key, 0) for ph in phases) / 1000:.2f}"] for name, key in parts]
    checks = statistics.mean(ph.get("proof_checks", 0) for ph in phases)
    print(f"z3 engine by phase (CPU ms; median of the phases' sum {whole / 1000:.2f}; "
          f"{checks:.2f} proof checks per puzzle):")
    print(tabulate(rows, headers=["phase", "median ms", "mean ms", "max ms"], disable_numparse=True))
    if rounds > 1:
        print("per round (medians of that round alone): z3 / search "
              + ", ".join(f"{m['z3'] / m['search']:.2f}" for m in per_round)
              + "; search / plain DP " + ", ".join(f"{m['search'] / m['plain DP']:.2f}" for m in per_round))
    s_dp = med["search"] / med["plain DP"]
    z_s = med["z3"] / med["search"]
    print(f"search / plain DP (medians): {s_dp:.2f} (target <= 1: {'met' if s_dp <= 1 else 'NOT met'})")
    print(f"z3 / search (medians): {z_s:.2f} (target <= 2: {'met' if z_s <= 2 else 'NOT met'})")
    print(f"answers identical: {count - len(mismatches)}/{count}"
          + "".join(f"\n  <-- MISMATCH seed {s}: {sc}" for s, sc in mismatches))


def _optimal(res: object) -> int:
    from sushigo.solver.search import BestResult

    assert isinstance(res, BestResult) and res.status == STATUS_OPTIMAL, res
    return res.score


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
