"""``endgame --game party``: 2-player Party endgames with 6 cards left in each hand, solved exactly.

Ten seeded positions: ``sushigo play --game party`` games (random policy, seeds 0..9) of the
menu (default sushi-go) stopped in round 1 with 6 cards in each hand; the position is every hand
and the turns so far. CPU seconds per position (``time.process_time``).

Target (issue 29): each under 10 s CPU.

    python -m benchmarks.bench_party_endgame [--menu M] [--cards N] [--count N]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from sushigo.solver.party.endgame import parse_position, solve_party_endgame
from sushigo.solver.party.puzzle import pass_turn
from sushigo.spec.party.executor import play_party
from tabulate import tabulate


def position(seed: int, menu: str, cards: int) -> dict[str, Any]:
    """Round 1 of the seeded 2-player game, stopped with ``cards`` in each hand."""
    record = play_party(menu, 2, seed=seed).as_json()
    rnd = record["rounds"][0]
    hands = [list(h) for h in rnd["hands"]]
    played = len(hands[0]) - cards
    for plays in rnd["turns"][:played]:
        hands, _ = pass_turn(hands, plays)
    return {"menu": menu, "readings": record["readings"], "hands": hands, "turns": rnd["turns"][:played],
            "undealt": rnd["undealt"]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--menu", default="sushi-go")
    parser.add_argument("--cards", type=int, default=6)
    parser.add_argument("--count", type=int, default=10)
    args = parser.parse_args(argv)
    rows, times = [], []
    for seed in range(args.count):
        pos = parse_position(position(seed, args.menu, args.cards))
        start = time.process_time()
        res = solve_party_endgame(pos)
        times.append(time.process_time() - start)
        rows.append([seed, " | ".join(" ".join(h) for h in pos.hands), str(res.value),
                     res.stats.get("positions", 0), f"{times[-1]:.2f}"])
    print(tabulate(rows, ["seed", "hands", "value", "positions", "CPU s"]))
    print(f"\n{args.count} positions, menu {args.menu}, 2 players, {args.cards} cards a hand: "
          f"max {max(times):.2f} s CPU (target: each under 10 s)")


if __name__ == "__main__":
    main()
