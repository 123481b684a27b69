"""Replaying recorded games through the OpenSpiel game and the PettingZoo env (issue 15).

``python -m benchmarks.bench_integrations [--games N]`` (default 200 per player count).
Baseline, measured in the same process on the same records: the executor's own
:func:`spec.executor.replay` (it re-executes and checks every step). Times are CPU seconds
of this process (``time.process_time``); the load average is printed with them. A column
is ``-`` when its extra is not installed.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Sequence

from sushigo.spec.executor import play_game, replay
from sushigo.spec.record import GameRecord
from tabulate import tabulate

from sushigo.actions import encode


def _ms_per_game(run: Callable[[GameRecord], object], records: Sequence[GameRecord]) -> float:
    start = time.process_time()
    for record in records:
        run(record)
    return (time.process_time() - start) / len(records) * 1000


def _openspiel(players: int) -> Callable[[GameRecord], object] | None:
    try:
        import pyspiel

        from sushigo import openspiel
    except ImportError:
        return None
    game = pyspiel.load_game(openspiel.GAME_NAME, {"players": players})
    return lambda record: openspiel.replay_record(game, record)


def _pettingzoo(players: int) -> Callable[[GameRecord], object] | None:
    try:
        from sushigo import pettingzoo
    except ImportError:
        return None
    env = pettingzoo.parallel_env(players=players)
    agents = env.possible_agents

    def run(record: GameRecord) -> object:
        env.reset(seed=record.seed)
        for rnd in record.rounds:
            for turns in rnd.turns:
                env.step({a: encode(turns[p]) for p, a in enumerate(agents)})
        return env.totals()

    return run


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_integrations")
    parser.add_argument(
        "--games", type=int, default=200, help="recorded games per player count (default 200)"
    )
    args = parser.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.1f} on {os.cpu_count()} cores; {args.games} recorded random games per row")
    rows = []
    for players in (2, 3, 4, 5):
        start = time.process_time()
        records = [play_game(players, seed) for seed in range(args.games)]
        record_ms = (time.process_time() - start) / args.games * 1000
        base = _ms_per_game(lambda r: replay(r), records)
        row: list[object] = [players, f"{record_ms:.1f}", f"{base:.1f}"]
        for make in (_openspiel, _pettingzoo):
            run = make(players)
            if run is None:
                row += ["-", "-"]
                continue
            ms = _ms_per_game(run, records)
            row += [f"{ms:.1f}", f"{ms / base:.2f}x"]
        rows.append(row)
    print(
        tabulate(
            rows,
            headers=[
                "players",
                "play_game ms",
                "replay ms (baseline)",
                "OpenSpiel ms",
                "vs baseline",
                "PettingZoo ms",
                "vs baseline",
            ],
            disable_numparse=True,
        )
    )


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
