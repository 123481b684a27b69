"""``sushigo balance --game party`` and the Party ``greedy`` policy (issue 29 item 4).

Expected values are the rulebook's worked by hand (pages named), or invariants any report must
keep whatever the games (per-kind points add up to the totals, win shares to 1)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from sushigo.solver.balance_party import kind_points, played_cards
from sushigo.spec.party.executor import play_party
from sushigo.spec.party.menus import parse_menu, suggested_tables
from sushigo.spec.party.policies import GreedyChooser
from sushigo.spec.party.readings import DEFAULT
from sushigo.spec.party.turns import RoundTable

from sushigo.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def wilson_low(wins: float, n: int, z: float = 1.959963984540054) -> float:
    """Wilson's lower 95% bound, written out here (not the report's solver.estimates)."""
    p = wins / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n)


# --- the greedy policy -------------------------------------------------------------------------


class _Game:
    """What a chooser is bound to: the round's table, the menu and the readings."""

    def __init__(self, menu: str, turns: list[list[str]]) -> None:
        self.menu = parse_menu(menu, len(turns[0]))
        self.rules = DEFAULT
        self.table = RoundTable(len(turns[0]), DEFAULT)
        for plays in turns:
            self.table.play_turn(plays)


def _greedy(game: _Game, options: list[tuple[str, str]]) -> tuple[str, str]:
    chooser = GreedyChooser(random.Random(0))
    chooser.bind(game)
    pick: tuple[str, str] = chooser.choose("play", 0, options)
    return pick


def test_greedy_puts_the_squid_on_its_free_wasabi() -> None:
    # RB p8, p15: a squid on a wasabi scores 3 x 3 = 9; an egg there 3; one tempura 0 (RB p11)
    game = _Game("sushi-go", [["wasabi", "tempura"], ["maki2", "maki1"]])
    assert _greedy(game, [("egg", ""), ("tempura", ""), ("squid", "")]) == ("squid", "")


def test_greedy_completes_a_pair_of_tempura_before_a_bare_salmon() -> None:
    # RB p11: the second tempura makes a pair worth 5; a salmon without wasabi scores 2 (RB p8)
    game = _Game("sushi-go", [["tempura", "dumpling"], ["maki2", "egg"]])
    assert _greedy(game, [("salmon", ""), ("tempura", "")]) == ("tempura", "")


def test_greedy_uses_its_chopsticks_for_the_second_sashimi_set_card() -> None:
    # RB p6, p11: sashimi, sashimi on the table; sashimi now plus chopsticks for tempura pair
    # is not better than the third sashimi (10) plus anything: the third sashimi is in every best
    game = _Game("sushi-go", [["sashimi", "egg"], ["sashimi", "egg"], ["chopsticks-1", "egg"]])
    pick = _greedy(game, [("egg", ""), ("sashimi", ""), ("egg", "chopsticks-1:sashimi"),
                          ("tempura", "")])
    assert "sashimi" in " ".join(pick)


def test_greedy_beats_random_clearly_over_seeded_games() -> None:
    # One greedy seat (rotated) against random players; its win share's Wilson lower bound
    # must clear the even share of 1/4.
    games, wins = 40, 0.0
    for g in range(games):
        seat = g % 4
        policies = ["greedy" if s == seat else "random" for s in range(4)]
        rec = play_party("sushi-go", 4, 1000 + g, policies)
        assert rec.score is not None
        if seat in rec.score.winners:
            wins += 1 / len(rec.score.winners)
    assert wilson_low(wins, games) > 0.25, wins


def test_greedy_games_are_reproducible() -> None:
    a = play_party("master-menu", 3, 7, "greedy").as_json()
    b = play_party("master-menu", 3, 7, "greedy").as_json()
    assert json.dumps(a) == json.dumps(b)


# --- what the report counts --------------------------------------------------------------------


@pytest.mark.parametrize(("play", "cards"), [
    ("eel", ["eel"]),
    ("eel chopsticks-1:menu-7:squid", ["eel", "menu-7", "squid"]),
    ("takeout-10:eel,tofu", ["takeout-10"]),  # the flipped cards were already on the table
    ("special-order:tempura", ["special-order"]),
    ("miso spoon-4:-", ["miso"]),  # the spoon found nothing (RB p13)
    ("egg spoon-4:special-order:egg", ["egg", "special-order"]),
    ("menu-7:-", ["menu-7"]),
    ("tofu special-order:chopsticks-1:eel", ["tofu", "eel"]),  # a copy of chopsticks used (RB p14)
])
def test_played_cards(play: str, cards: list[str]) -> None:
    assert played_cards(play) == cards


@pytest.mark.parametrize(("menu", "players"), [("master-menu", 4), ("points-platter", 3),
                                               ("dinner-for-two", 2), ("cutthroat-combo", 6),
                                               ("party-sampler", 5)])
def test_points_per_kind_add_up_to_the_totals(menu: str, players: int) -> None:
    for seed in range(3):
        rec = play_party(menu, players, seed, "greedy" if seed == 0 else "random")
        assert rec.score is not None
        assert [sum(k.values()) for k in kind_points(rec)] == list(rec.score.totals)


def _doc(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[dict[str, Any], str]:
    code, out, err = run(capsys, "balance", "--game", "party", *argv, "--json")
    assert code == 0, err
    return json.loads(out), out


def test_one_menu_report_adds_up(capsys: pytest.CaptureFixture[str]) -> None:
    doc, _ = _doc(capsys, "--menu", "master-menu", "--players", "3", "--games", "12",
                  "--policy", "greedy", "random", "random")
    assert doc["format"] == "sushigo-party-balance-result/1" and doc["vs"] is None
    side = doc["ruleset"]
    assert math.isclose(sum(s["win_share"] for s in side["seats"]), 1.0)
    # every point a player scored is some kind's: kinds' points = 3 seats x mean score x games
    assert math.isclose(sum(k["points"] for k in side["kinds"]),
                        3 * side["score"]["mean"]["value"] * 12, abs_tol=0.01)
    assert [k["kind"] for k in side["kinds"]] == list(parse_menu("master-menu").kinds)
    assert [s["policy"] for s in side["seats"]] == ["greedy", "random", "random"]
    assert side["advantage"]["even_share"] == pytest.approx(1 / 3)


def test_the_same_seed_gives_the_same_bytes(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("--menu", "sushi-go", "--players", "3", "--games", "6", "--seed", "5")
    _, first = _doc(capsys, *argv)
    _, again = _doc(capsys, *argv)
    _, other = _doc(capsys, "--menu", "sushi-go", "--players", "3", "--games", "6", "--seed", "6")
    assert first == again and first != other
    assert json.loads(first)["first_seed"] == 5


def test_two_reading_sets_on_the_same_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    # The same readings on both sides: every paired difference is exactly 0.
    doc, _ = _doc(capsys, "--menu", "cutthroat-combo", "--players", "3", "--games", "8",
                  "--rule", "temaki_all_tied=nothing", "--rule-vs", "temaki_all_tied=nothing")
    assert doc["difference"]["score_mean"]["value"] == 0
    assert all(s["mean"]["value"] == 0 for s in doc["difference"]["seats"])
    assert doc["ruleset"]["readings"] == {"temaki_all_tied": "nothing"} == doc["vs"]["readings"]


def test_every_suggested_menu_at_every_player_count_ranked(capsys: pytest.CaptureFixture[str]) -> None:
    doc, _ = _doc(capsys, "--games", "2")
    assert doc["format"] == "sushigo-party-balance-menus/1"
    got = [(t["menu"], t["players"]) for t in doc["tables"]]
    assert got == suggested_tables()
    # the tiles' limits (RB p4): spoon and edamame need 3+, menu and special order 6 or fewer
    assert ("points-platter", 2) not in got and ("dinner-for-two", 7) not in got
    assert ("big-banquet", 3) in got and ("my-first-meal", 8) in got
    for n in {p for _, p in got}:
        here = [t for t in doc["tables"] if t["players"] == n]
        best = min(t["advantage"]["win_share_spread"] for t in here)
        assert {t["rank_advantage"] for t in here if t["advantage"]["win_share_spread"] == best} == {1}
        assert min(t["rank_spread"] for t in here) == 1


def test_menus_at_one_player_count_print(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "balance", "--game", "party", "--menu", "all", "--players", "2",
                       "--games", "2")
    assert code == 0
    assert "2 players (even share 50.0%):" in out and "3 players" not in out
    assert "dinner-for-two" in out and "points-platter" not in out


def test_plot_draws_a_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "menu.png"
    code, out, _ = run(capsys, "balance", "--game", "party", "--menu", "sushi-go", "--players", "3",
                       "--games", "3", "--plot", str(target))
    assert code == 0 and target.read_bytes()[:4] == b"\x89PNG" and f"picture: {target}" in out


@pytest.mark.parametrize(("argv", "words"), [
    (("--menu", "sushi-gooo", "--players", "3"), "sushi-go"),
    (("--menu", "master-menu", "--players", "2"), "spoon"),
    (("--menu", "sushi-go"), "--players"),
    (("--menu", "sushi-go", "--players", "3", "--rule", "bogus=1"), "bogus"),
    (("--menu", "sushi-go", "--players", "3", "--policy", "ismcts"), "ismcts"),
    (("--menu", "sushi-go", "--players", "3", "--policy", "greedy", "random"), "one per seat"),
    (("--rule-vs", "temaki_all_tied=nothing"), "--menu"),
    (("--policy", "greedy", "random"), "one --policy"),
    (("official", "--menu", "sushi-go", "--players", "3"), "RULESET"),
    (("--menu", "sushi-go", "--players", "3", "--seed", "-1"), "--seed"),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                          words: str) -> None:
    code, out, err = run(capsys, "balance", "--game", "party", *argv, "--games", "2")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err, err


def test_base_balance_refuses_a_menu(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "balance", "official", "--menu", "sushi-go", "--games", "2")
    assert code == 2 and "--game party" in err and len(err.strip().splitlines()) == 1


def test_both_json_forms_match_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    from sushigo.schemas import first_problem

    one, _ = _doc(capsys, "--menu", "sushi-go", "--players", "3", "--games", "3", "--rule",
                  "pudding_all_tied=nothing")
    every, _ = _doc(capsys, "--games", "1", "--players", "8")
    assert first_problem(one, "balance-result") is None
    assert first_problem(every, "balance-result") is None
    one["ruleset"]["seats"][0]["win_share"] = 2
    assert first_problem(one, "balance-result") is not None
