"""Executor speed: complete random games per second for 2..5 players, and 5-player round
scorings per second (issue 2 targets: 5,000 five-player games/s and 100,000 five-player round
scorings/s on one core).

``python -m benchmarks.bench_executor [--quick]``. Rates are CPU seconds of this process
(``time.process_time``), so other load on the machine inflates them less than wall time
would; the load average and a calibration loop are printed alongside so runs on different
machines can be compared. Games are played with the full official rules (chopsticks, wasabi,
puddings, tie-breaks).

Issue 14 target 1, measured in one process, contenders run in turn round after round (so load
hits all alike), CPU medians: ``plain loop`` is benchmarks/plain_game.py (the baseline),
``batch`` is :func:`spec.executor.fast_random_games` (2,048 games a call), ``step API`` an AI
builder's own random policy driving :class:`spec.game.Game` (legal_actions, apply, scores),
``step API, in place`` the same driving :class:`spec.game.MutableGame` (legal_actions, step,
scores: the fastest documented face, for self-play that keeps no positions), ``+ observation``
the Game loop asking ``observation(seat)`` before every decision, ``play_game`` the shipped
random policy through play_game (which builds the whole record).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

from sushigo.spec.executor import fast_random_games, play_game
from sushigo.spec.game import Game, MutableGame
from sushigo.spec.ruleset import OFFICIAL
from sushigo.spec.scoring import round_totals, score_round
from sushigo.spec.tableau import Tableau
from tabulate import tabulate

from benchmarks.plain_game import plain_game

SCORINGS_TARGET = 100_000


def _rate(work: Callable[[], int], min_seconds: float) -> float:
    """Items per CPU second, repeating ``work`` (which returns its item count) for min_seconds."""
    done = 0
    start = time.process_time()
    while True:
        done += work()
        spent = time.process_time() - start
        if spent >= min_seconds:
            return done / spent


def _calibration() -> float:
    """ns per iteration of a trivial Python loop: how fast this interpreter runs right now."""
    n = 2_000_000
    start = time.process_time()
    x = 0
    for i in range(n):
        x += i
    return (time.process_time() - start) / n * 1e9


def _step_game(players: int, seed: int, observe: bool, in_place: bool = False) -> tuple[int, ...]:
    """An AI builder's loop over the step API with a uniform random policy of its own: immutable
    positions (Game.apply), or the in-place face (MutableGame.step)."""
    game: Game | MutableGame = (MutableGame if in_place else Game).new(players, seed)
    rng = random.Random(game.policy_seed)
    seats = range(players)
    while not game.over:
        actions = []
        for s in seats:
            if observe:
                game.observation(s)
            options = game.legal_actions(s)
            actions.append(options[0] if len(options) == 1 else options[int(rng.random() * len(options))])
        if isinstance(game, MutableGame):
            game.step(actions)
        else:
            game = game.apply(actions)
    return game.scores()


def _interleaved(work: dict[str, Callable[[int], int]], rounds: int) -> dict[str, float]:
    """Median games per CPU second of each contender, run in turn round after round."""
    rates: dict[str, list[float]] = {name: [] for name in work}
    seed = 10**6
    for _ in range(rounds):
        for name, run in work.items():
            start = time.process_time()
            done = run(seed)
            rates[name].append(done / (time.process_time() - start))
            seed += done
    return {name: statistics.median(r) for name, r in rates.items()}


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_executor")
    parser.add_argument("--quick", action="store_true", help="fewer rounds (about 1 minute instead of 3)")
    parser.add_argument("--warm", type=int, default=300, metavar="N",
                        help="games each step API face plays per player count before the rounds "
                             "(default 300): the option tables fill up over the first thousands of games")
    args = parser.parse_args(argv)
    seconds = 0.5 if args.quick else 2.0
    rounds = 3 if args.quick else 7
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.1f} on {os.cpu_count()} cores; calibration loop {_calibration():.0f} "
          f"ns/iter; {args.warm} games per step API face to warm up")

    rows = []
    for players in (2, 3, 4, 5):
        # the option tables fill up during the first games; measure closer to the steady state
        fast_random_games(players, 0, 4096, OFFICIAL)
        for s in range(args.warm):
            _step_game(players, s, False)
            _step_game(players, s, False, in_place=True)

        def plain(seed: int, players: int = players) -> int:
            for s in range(seed, seed + 100):
                plain_game(players, s)
            return 100

        def batch(seed: int, players: int = players) -> int:
            fast_random_games(players, seed, 2048, OFFICIAL)
            return 2048

        def step(seed: int, players: int = players) -> int:
            for s in range(seed, seed + 100):
                _step_game(players, s, False)
            return 100

        def in_place(seed: int, players: int = players) -> int:
            for s in range(seed, seed + 100):
                _step_game(players, s, False, in_place=True)
            return 100

        def step_observed(seed: int, players: int = players) -> int:
            for s in range(seed, seed + 50):
                _step_game(players, s, True)
            return 50

        def policies(seed: int, players: int = players) -> int:
            for s in range(seed, seed + 25):
                play_game(players, s, OFFICIAL)
            return 25

        r = _interleaved({"plain": plain, "batch": batch, "step": step, "in_place": in_place,
                          "observed": step_observed, "play_game": policies}, rounds)
        base = r["plain"]
        contenders = ("batch", "step", "in_place", "observed", "play_game")
        cells = [f"{r[k]:,.0f} ({r[k] / base:.2f}x)" for k in contenders]
        rows.append([f"{players} players", f"{base:,.0f}", *cells])
    print(tabulate(rows, headers=["random games per CPU s", "plain loop", "batch (fast_random_games)",
                                  "step API (Game)", "step API, in place", "step API + observation",
                                  "play_game (policies)"],
                   tablefmt="simple", disable_numparse=True))
    print("issue 14 targets: batch >= 3x the plain loop at every player count; step API >= 1x (its "
          "fastest face: in place). "
          f"CPU medians of {rounds} interleaved rounds; load average {os.getloadavg()[0]:.1f} at the end")

    rows = []
    tableaux = [
        tuple(rnd)
        for game in fast_random_games(5, 7, 400, OFFICIAL, tableaux=True)
        for rnd in (game.tableaux or ())
    ]
    as_objects = [tuple(Tableau(t) for t in rnd) for rnd in tableaux]

    def totals() -> int:
        for rnd in tableaux:
            round_totals(rnd, OFFICIAL)
        return len(tableaux)

    def full() -> int:
        for objs in as_objects:
            score_round(objs, OFFICIAL)
        return len(as_objects)

    t = _rate(totals, seconds)
    s = _rate(full, seconds)
    rows.append(["5-player round scorings, round_totals", f"{t:,.0f}", f"{t / SCORINGS_TARGET:.2f}x"])
    rows.append(["5-player round scorings, score_round", f"{s:,.0f}", f"{s / SCORINGS_TARGET:.2f}x"])
    print()
    print(tabulate(rows, headers=["what", "per CPU second", "vs target"], tablefmt="simple",
                   disable_numparse=True))
    print(f"issue 2 target: {SCORINGS_TARGET:,} five-player round scorings/s")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
