"""``sushigo best --game party``: both engines against the plain enumerator of tests/brute_party.py
on seeded puzzles of every suggested menu, hand-worked puzzles (rulebook pages named), a recorded
round, and the command's bad input (one line, exit 2) and spent budget (unknown, exit 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from brute_party import brute_best
from sushigo.solver.party.best import solve_party
from sushigo.solver.party.puzzle import PartyPuzzle, from_record, parse_party_puzzle, random_puzzle
from sushigo.solver.party.z3best import NOT_COVERED, coverage
from sushigo.spec.errors import InputError
from sushigo.spec.party.executor import play_party
from sushigo.spec.party.menus import SUGGESTED

from sushigo.cli import main

MENUS = list(SUGGESTED)
SIZES = (4, 3, 3, 2)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _with_specials(seed: int) -> PartyPuzzle:
    return random_puzzle(seed, MENUS[seed % len(MENUS)], sizes=SIZES)


def _covered(seed: int) -> PartyPuzzle:
    menu = MENUS[seed % len(MENUS)]
    kinds = [k for k in random_puzzle(seed, menu, sizes=(1,)).menu.kinds if k not in NOT_COVERED]
    return random_puzzle(seed, menu, sizes=SIZES, covered=kinds)


def _search_agrees(seed: int) -> None:
    puzzle = _with_specials(seed)
    assert solve_party(puzzle, "search").score == brute_best(puzzle), (seed, puzzle)


def _z3_agrees(seed: int) -> bool:
    puzzle = _covered(seed)
    if coverage(puzzle) is not None:
        return False
    expected = brute_best(puzzle)
    assert solve_party(puzzle, "z3").score == expected, (seed, puzzle)
    assert solve_party(puzzle, "search").score == expected, (seed, puzzle)
    return True


@pytest.mark.parametrize("seed", range(16))  # every suggested menu twice
def test_search_equals_brute_force(seed: int) -> None:
    _search_agrees(seed)


@pytest.mark.parametrize("seed", range(16))
def test_z3_equals_brute_force_where_it_applies(seed: int) -> None:
    _z3_agrees(seed)


@pytest.mark.slow
def test_100_puzzles_every_menu_both_engines_equal_brute_force() -> None:
    covered = 0
    for seed in range(100):
        _search_agrees(seed)
        covered += _z3_agrees(seed)
    assert covered >= 80  # the puzzles Z3 refuses are a few, each for its reason


def _puzzle(menu: str, hands: list[str], players: int = 2, **more: object) -> PartyPuzzle:
    return parse_party_puzzle({"menu": menu, "players": players, "hands": hands, **more})


# Hand-worked optima: (menu, players, hands, best, why).
WORKED = [
    ("sushi-go", 2, ["wasabi squid", "squid egg"], 9, "RB p15, p8: the squid on the wasabi scores 9"),
    ("sushi-go", 2, ["chopsticks-1 egg", "tempura*2"], 5, "RB p6, p11: chopsticks take the second tempura"),
    ("master-menu", 3, ["tofu", "tofu", "tofu", "takeout-10 tofu"], 8,
     "RB p15, p11: flip one of three tofu: 2 tofu 6 + 2 for the flipped card"),
    ("points-platter", 3, ["uramaki5", "uramaki4", "special-order"], 8,
     "RB p14, p9: the copy of uramaki5 brings 14 icons, first to 10: 8"),
    ("my-first-meal", 2, ["miso", "miso", "tea"], 8,
     "RB p11, p15: two misos on two turns 6, the tea 2 (misos the largest colour)"),
]


@pytest.mark.parametrize(("menu", "players", "hands", "best", "why"), WORKED, ids=[w[4] for w in WORKED])
def test_worked_puzzles(menu: str, players: int, hands: list[str], best: int, why: str) -> None:
    puzzle = _puzzle(menu, hands, players)
    assert solve_party(puzzle, "search").score == best
    if coverage(puzzle) is None:
        assert solve_party(puzzle, "z3").score == best


def test_an_opponents_miso_discards_the_players() -> None:
    # RB p11: two misos in one turn, by anyone, are both discarded; the tempura pair is worth more
    puzzle = _puzzle("my-first-meal", ["miso tempura", "tempura"], 2, opponents=[["miso", "-"]])
    assert solve_party(puzzle, "search").score == 5 == solve_party(puzzle, "z3").score


def test_menu_plays_a_card_of_its_draw() -> None:
    # RB p12: the menu draws 4 and plays one; the squid is best (3) over the egg and the tofu
    puzzle = _puzzle("dinner-for-two", ["menu-7 egg"], 2, draws=[["egg", "squid", "tofu", "menu-8"]])
    res = solve_party(puzzle, "search")
    assert res.score == 3 and res.plays == ("menu-7:squid",)


def test_spoon_takes_from_the_left() -> None:
    # RB p13: the spoon takes the sashimi held on the left, making three (10)
    puzzle = _puzzle("master-menu", ["spoon-4", "sashimi", "sashimi onigiri-circle"], 3,
                     left=[[], [], ["sashimi"]])
    res = solve_party(puzzle, "search")
    assert res.score == 10 and res.plays[-1] == "sashimi spoon-4:sashimi"


def test_a_recorded_round_is_at_least_its_recorded_score() -> None:
    record = play_party("my-first-meal", 2, seed=5).as_json()
    puzzle = from_record(record, 1, 1)
    short = PartyPuzzle(puzzle.menu, puzzle.players, puzzle.rules, puzzle.hands[-4:], puzzle.opponents[-4:])
    assert solve_party(short, "search").score == brute_best(short)
    assert puzzle.actual == record["rounds"][0]["scores"][1]
    assert len(puzzle.hands) == 10 and [len(h) for h in puzzle.hands] == list(range(10, 0, -1))


def test_cli_prints_the_picks_and_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"menu": "sushi-go", "hands": ["wasabi squid", "squid egg"]}))
    code, out, _ = run(capsys, "best", "--game", "party", str(path))
    assert code == 0 and "best score 9 (optimal; exhaustive search; search" in out
    code, out, _ = run(capsys, "best", "--game", "party", str(path), "--engine", "z3", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["score"] == 9 and doc["picks"] == ["wasabi", "squid"]
    assert doc["format"] == "sushigo-party-best-result/1" and doc["outcome"] == "proved"


@pytest.mark.parametrize(("doc", "args", "message"), [
    ({"menu": "sushi-go", "hands": ["eel"]}, [], "eel is not on the menu sushi-go"),
    ({"menu": "sushi-go", "hands": ["chopsticks"]}, [], "give its corner number"),
    ({"menu": "sushi-go", "hands": ["squid*4"]}, [], "more than the 3 the menu's deck holds"),
    ({"menu": "sushi-go", "hands": ["chopsticks-1", "egg"]}, ["--engine", "z3"], "use --engine search"),
    ({"menu": "sushi-go", "hands": ["egg"], "players": 9}, [], "seats 2 to 8 players"),
    ({"menu": "sushi-go", "hands": ["egg"], "oponents": []}, [], "unknown field(s) 'oponents'"),
    ({"menu": "sushi-go", "hands": ["egg"]}, ["--round", "1", "--seat", "0"], "apply to a Party record"),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          doc: dict[str, object], args: list[str], message: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc))
    code, _, err = run(capsys, "best", "--game", "party", str(path), *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_out_of_budget_is_unknown_with_the_budget(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(play_party("sushi-go", 3, seed=7).as_json()))
    code, out, _ = run(capsys, "best", "--game", "party", str(path), "--round", "1", "--seat", "0",
                       "--timeout", "0.2", "--json")
    doc = json.loads(out)
    assert code == 1 and doc["status"] == "unknown" and doc["budget_seconds"] == 0.2 and doc["score"] is None


def test_a_record_needs_round_and_seat() -> None:
    record = play_party("sushi-go", 2, seed=1).as_json()
    with pytest.raises(InputError, match="--seat 5"):
        from_record(record, 1, 5)
