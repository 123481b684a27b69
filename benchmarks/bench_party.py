"""Party games per second beside the base game's, in one run (issue 28 item 4's target: Party at
one third of the base game's games per second or better).

Both go through what their commands run: ``sushigo play --game party --games N`` is
:func:`sushigo.api.party_play.play_party_outcome` (each game built in full, turn by turn, and
scored by spec/party/turns.py), ``sushigo play --games N`` is :func:`sushigo.api.play.play_outcome`.
Party plays the suggested menus in turn, each at every player count its tiles allow, seeded;
the base game plays 2 to 5 players. Rates are CPU seconds of this process (``time.process_time``),
the two measured in alternation, ``--repeats`` times, medians shown. A third row plays the base
game one game at a time with its whole record (``play_outcome(games=1)``), the same kind of work
as a Party game; the target is read against ``play --games N``, which plays base games in batches.

    python -m benchmarks.bench_party [--games N] [--repeats R]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from sushigo.spec.party.menus import suggested_tables
from tabulate import tabulate

from sushigo.api.party_play import play_party_outcome
from sushigo.api.play import play_outcome

TARGET = 1 / 3


def _party(games: int) -> Callable[[], int]:
    tables = suggested_tables()

    def work() -> int:
        per = max(1, games // len(tables))
        for k, (menu, players) in enumerate(tables):
            play_party_outcome(menu=menu, players=players, seed=1000 * k, games=per)
        return per * len(tables)

    return work


def _base(games: int) -> Callable[[], int]:
    def work() -> int:
        per = max(1, games // 4)
        for players in (2, 3, 4, 5):
            play_outcome(players=players, seed=1000 * players, games=per)
        return per * 4

    return work


def _base_records(games: int) -> Callable[[], int]:
    """The base game one game at a time, each with its whole record (what ``play`` prints and
    ``--record`` writes for one game): the same kind of work as a Party game."""
    def work() -> int:
        for g in range(games):
            play_outcome(players=2 + g % 4, seed=g, games=1)
        return games

    return work


def _rate(work: Callable[[], int]) -> float:
    start = time.process_time()
    done = work()
    return done / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=276, help="Party games a repeat (spread over the menus)")
    parser.add_argument("--base-games", type=int, default=20_000, help="base games a repeat")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    party, base, records = _party(args.games), _base(args.base_games), _base_records(args.games)
    rates: dict[str, list[float]] = {"party": [], "base": [], "records": []}
    for _ in range(args.repeats):
        rates["party"].append(_rate(party))
        rates["base"].append(_rate(base))
        rates["records"].append(_rate(records))
    p, b = statistics.median(rates["party"]), statistics.median(rates["base"])
    r = statistics.median(rates["records"])
    print(tabulate([["sushigo play --game party --games N", f"{p:,.0f}"],
                    ["sushigo play --games N (base)", f"{b:,.0f}"],
                    ["sushigo play, one game and its record at a time (base)", f"{r:,.0f}"]],
                   headers=["command", "games/s (CPU, median)"]))
    print(f"party / base one game at a time: {p / r:.3f}")
    verdict = "met" if p / b >= TARGET else "not met"
    print(f"ratio party/base: {p / b:.4f} (1 : {b / p:.0f}); target >= {TARGET:.3f}: {verdict}")


if __name__ == "__main__":
    main()
