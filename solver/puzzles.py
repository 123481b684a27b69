"""Endgame puzzles: 2-player positions with one best first pick that is not the greedy one.

A position qualifies when, for the ``diff`` objective of :mod:`solver.endgame`:

* one first pick has the strictly highest pure guarantee (every other pick guarantees less);
* the game value equals that guarantee and the optimal mix at the root is that pick alone (so the
  pick is best against any opponent, randomising or not, and no randomising of your own helps);
* the ``greedy`` policy (:func:`solver.endgame.greedy_first_pick`) picks something else, and not
  by a tie-break: the best pick's immediate gain is strictly below the greedy gain (a real trap).

Candidates are random positions from :func:`solver.endgame.random_position` over consecutive
seeds; each puzzle stores its seed so it can be regenerated. The collection lives in
``solver/data/puzzles.json``; regenerate it with ``python -m sushigo.solver.puzzles``.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sushigo.solver.endgame import (
    EndgameResult,
    Position,
    first_pick_gains,
    greedy_first_pick,
    parse_position,
    random_position,
    solve_two,
)
from sushigo.solver.endgame.state import BudgetExceeded
from sushigo.spec.errors import InputError, RulesError
from sushigo.spec.files import write_atomic
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.turns import format_turn

DATA = Path(__file__).parent / "data" / "puzzles.json"
FORMAT = "sushigo-puzzles/1"


@dataclass(frozen=True)
class Puzzle:
    id: int
    seed: int
    cards_left: int
    round: int
    position: dict[str, Any]
    solution: list[str]
    value: int
    greedy: list[str]
    greedy_guarantee: int

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seed": self.seed,
            "cards_left": self.cards_left,
            "round": self.round,
            "position": self.position,
            "solution": self.solution,
            "value": self.value,
            "greedy": self.greedy,
            "greedy_guarantee": self.greedy_guarantee,
        }


def candidate(seed: int) -> tuple[int, int]:
    """(cards left, round) used for ``seed``: 3..6 cards, rounds 1..3, both cycling."""
    return 3 + seed % 4, 1 + (seed // 4) % 3


def judge(pos: Position, result: EndgameResult) -> str | None:
    """Why ``pos`` is not a puzzle, or None when it is one."""
    if result.status != "solved" or result.value is None:
        return "not solved"
    picks = sorted(result.first_picks, key=lambda p: p.guarantee, reverse=True)
    if len(picks) < 2:
        return "only one first pick"
    if picks[0].guarantee == picks[1].guarantee:
        return "several first picks share the best guarantee"
    best = picks[0]
    if result.value != best.guarantee:
        return "the game value exceeds the best pure guarantee (mixing matters)"
    if len(result.mix) != 1 or format_turn(result.mix[0][0]) != format_turn(best.turn):
        return "the optimal mix is not the best pick alone"
    if format_turn(greedy_first_pick(pos)) == format_turn(best.turn):
        return "greedy finds it"
    gains = {tuple(format_turn(t)): g for t, g in first_pick_gains(pos)}
    if gains[tuple(format_turn(best.turn))] >= max(gains.values()):
        return "the best pick is also a greedy pick (greedy misses it only by its tie-break)"
    return None


def make_puzzle(seed: int, ident: int) -> Puzzle | None:
    k, rnd = candidate(seed)
    pos = random_position(seed, 2, k, OFFICIAL, rnd)
    res = solve_two(pos, "diff")
    if judge(pos, res) is not None:
        return None
    greedy = greedy_first_pick(pos)
    gg = next(p.guarantee for p in res.first_picks if format_turn(p.turn) == format_turn(greedy))
    assert res.value is not None
    return Puzzle(
        ident, seed, k, rnd, pos.to_json(), format_turn(res.best_picks[0]), int(res.value),
        format_turn(greedy), int(gg),
    )


def generate(count: int = 24, first_seed: int = 0, max_seeds: int = 5000) -> list[Puzzle]:
    out: list[Puzzle] = []
    for seed in range(first_seed, first_seed + max_seeds):
        p = make_puzzle(seed, len(out) + 1)
        if p is not None:
            out.append(p)
            if len(out) == count:
                break
    return out


def load_puzzles(path: Path = DATA) -> list[Puzzle]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read the puzzle collection {str(path)!r}: {exc}") from exc
    if data.get("format") != FORMAT:
        raise InputError(f"{str(path)!r} is not a {FORMAT} file")
    return [Puzzle(**p) for p in data["puzzles"]]


def get_puzzle(number: int, puzzles: list[Puzzle] | None = None) -> Puzzle:
    puzzles = load_puzzles() if puzzles is None else puzzles
    for p in puzzles:
        if p.id == number:
            return p
    raise InputError(
        f"no puzzle {number}; puzzles are numbered 1..{len(puzzles)} (see 'sushigo puzzle --list')"
    )


def verify(p: Puzzle, rules: Ruleset | None = None, time_limit: float | None = None) -> list[str]:
    """Problems with a stored puzzle, re-solved from its position and regenerated from its seed.
    Under other ``rules`` than its own, re-solved only: is it still a puzzle, with the same answer?
    A re-solve that does not finish within ``time_limit`` seconds raises :class:`BudgetExceeded`
    (unknown: neither confirmed nor a problem)."""
    problems = []
    try:
        pos = parse_position(p.position, rules)
    except (InputError, RulesError) as exc:
        if rules is None:
            raise
        # Another ruleset's numbers (rounds, hand sizes, the deck) can leave no such position.
        return [f"puzzle {p.id}: its position does not fit this ruleset: {exc}"]
    res = solve_two(pos, "diff", time_limit=time_limit)
    if res.status != "solved":
        raise BudgetExceeded(f"puzzle {p.id}: {res.reason or 'not solved'}")
    why = judge(pos, res)
    if why is not None:
        problems.append(f"puzzle {p.id}: not a puzzle: {why}")
    elif format_turn(res.best_picks[0]) != p.solution or res.value != p.value:
        problems.append(f"puzzle {p.id}: stored solution {p.solution} / {p.value} differs from the tool's")
    if format_turn(greedy_first_pick(pos)) != p.greedy:
        problems.append(f"puzzle {p.id}: stored greedy pick {p.greedy} differs")
    if rules is not None:
        return problems
    again = random_position(p.seed, 2, p.cards_left, OFFICIAL, p.round).to_json()
    if again != p.position:
        problems.append(f"puzzle {p.id}: seed {p.seed} does not regenerate the stored position")
    return problems


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    count = int(args[0]) if args else 24
    puzzles = generate(count)
    doc = {
        "format": FORMAT,
        "generator": "python -m sushigo.solver.puzzles: consecutive seeds from 0, "
                     "solver.endgame.random_position"
                     "(seed, 2 players, cards_left = 3 + seed % 4, official, round = 1 + (seed // 4) % 3), "
                     "kept when solver.puzzles.judge accepts",
        "puzzles": [p.to_json() for p in puzzles],
    }
    write_atomic(DATA, json.dumps(doc, indent=1) + "\n")
    print(f"wrote {len(puzzles)} puzzles to {DATA}")


if __name__ == "__main__":
    main()
