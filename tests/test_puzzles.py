"""The shipped puzzle collection: each puzzle re-solved by the endgame tool and regenerated from its seed."""

from __future__ import annotations

import json

import pytest
from sushigo.solver.endgame import first_pick_gains, greedy_first_pick, parse_position, solve_two
from sushigo.solver.puzzles import Puzzle, load_puzzles, verify
from sushigo.spec.turns import format_turn

from sushigo.cli import main

PUZZLES = load_puzzles()


def test_at_least_twenty_distinct_puzzles() -> None:
    assert len(PUZZLES) >= 20
    assert len({json.dumps(p.position, sort_keys=True) for p in PUZZLES}) == len(PUZZLES)
    assert [p.id for p in PUZZLES] == list(range(1, len(PUZZLES) + 1))


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: f"puzzle{p.id}")
def test_solution_is_the_single_best_pick_and_not_greedy(puzzle: Puzzle) -> None:
    pos = parse_position(puzzle.position)
    res = solve_two(pos, "diff")
    by_pick = {tuple(format_turn(v.turn)): v.guarantee for v in res.first_picks}
    best = by_pick.pop(tuple(puzzle.solution))
    assert all(g < best for g in by_pick.values()), "the solution must be the single best first pick"
    assert res.value == best == puzzle.value
    assert [format_turn(t) for t, _ in res.mix] == [puzzle.solution]
    greedy = format_turn(greedy_first_pick(pos))
    assert greedy == puzzle.greedy != puzzle.solution
    assert by_pick[tuple(greedy)] == puzzle.greedy_guarantee < best
    gains = {tuple(format_turn(t)): g for t, g in first_pick_gains(pos)}
    assert gains[tuple(puzzle.solution)] < gains[tuple(greedy)]


def test_verify_regenerates_from_the_seed() -> None:
    for p in PUZZLES[:4]:
        assert verify(p) == []


def test_cli_list_show_and_solution(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzle", "--list"]) == 0
    assert str(len(PUZZLES)) in capsys.readouterr().out
    p = PUZZLES[0]
    assert main(["puzzle", "--show", "1"]) == 0
    hidden = capsys.readouterr().out
    assert "solution hidden" in hidden and "solution:" not in hidden
    assert main(["puzzle", "--show", "1", "--solution"]) == 0
    shown = capsys.readouterr().out
    assert f"solution: {' '.join(p.solution)}" in shown
    assert main(["puzzle", "--show", "1", "--json"]) == 0
    assert "solution" not in json.loads(capsys.readouterr().out)
    assert main(["puzzle", "--show", "999"]) == 2
    assert "no puzzle 999" in capsys.readouterr().err
