"""``sushigo balance`` (issue 17 item 4): the attribution of points to card kinds, the intervals,
common random numbers, the report on the command line and as JSON, the picture, bad input."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
from sushigo.solver.balance import Side, played, rescore, same_games, tally
from sushigo.solver.estimates import Z95, mean, quantile, ratio, share, spread
from sushigo.spec.attribution import KINDS, game_attribution, round_attribution
from sushigo.spec.cards import Card
from sushigo.spec.executor import play_game
from sushigo.spec.ruleset import OFFICIAL, RULESETS, get_ruleset
from sushigo.spec.tableau import parse_tableau

from sushigo import schemas
from sushigo.cli import main

# --- attribution ---------------------------------------------------------------------------


def _counts(*texts: str) -> list[tuple[int, ...]]:
    return [parse_tableau(t).counts for t in texts]


def test_round_attribution_by_hand() -> None:
    """The rulebook's maki example (RULES.md): icons 5, 3, 3, 2 place 6, 1, 1, 0 (a tie for second
    splits 3, rounded down). Seat 0's 6 points over 5 icons: maki3 18/5, maki2 12/5; seat 2's 1 point
    over 3 icons: maki2 2/3, maki1 1/3. A squid on a wasabi: 3 to squid, the other 6 of its 9
    to wasabi (R-WASABI: triple); three tempura: one pair, 5; a lone wasabi brings 0."""
    rows = round_attribution(
        _counts("maki3 maki2 wasabi+squid", "maki3 tempura*3", "maki2 maki1 wasabi", "maki2"), OFFICIAL)
    assert rows[0][Card.MAKI3] == Fraction(18, 5) and rows[0][Card.MAKI2] == Fraction(12, 5)
    assert rows[0][Card.SQUID] == 3 and rows[0][Card.WASABI] == 6
    assert rows[1][Card.MAKI3] == 1 and rows[1][Card.TEMPURA] == 5
    assert rows[2][Card.MAKI2] == Fraction(2, 3) and rows[2][Card.MAKI1] == Fraction(1, 3)
    assert rows[2][Card.WASABI] == 0
    assert sum(rows[3]) == 0
    assert [sum(r) for r in rows] == [6 + 9, 1 + 5, 1, 0]


def test_pudding_points_go_to_pudding_even_without_a_pudding() -> None:
    # three seats, puddings 2, 1, 0: +6 to the first, -6 to the last (R-PUDDING-MOST/FEWEST)
    rnd = _counts("pudding*2", "pudding", "egg")
    att = game_attribution([rnd, _counts("", "", ""), _counts("", "", "")], OFFICIAL)
    assert [row[Card.PUDDING] for row in att] == [6, 0, -6]
    assert att[2][Card.EGG] == 1


@pytest.mark.parametrize("name", list(RULESETS))
def test_attributed_points_add_up_to_each_total(name: str) -> None:
    """Independent check against the scorer: every seat's attributed points sum exactly to the
    total the executor gave it, for every ruleset, player count and both policies."""
    rules = RULESETS[name]
    counts = [2] if rules.dummy_2p else [2, 3, 4, 5]
    for seed in range(12):
        n = counts[seed % len(counts)]
        rec = play_game(n, seed, rules, ["greedy" if seed % 3 == 0 else "random"])
        att = game_attribution([[t.counts for t in rnd.tableaux] for rnd in rec.rounds], rules)
        assert [sum(row) for row in att] == list(rec.totals), (name, seed)


@pytest.mark.parametrize(("name", "players", "policy"), [
    ("official", 4, "random"), ("pass-both-ways", 5, "random"), ("dummy-2p", 2, "random"),
    ("wasabi-optional", 3, "greedy"),
])
def test_the_array_path_equals_the_reference_game_by_game(name: str, players: int, policy: str) -> None:
    pytest.importorskip("numpy")
    rules = get_ruleset(name)
    chunk = next(played(players, 7, 40, rules, [policy] * players))
    fast, slow = Side(rules, players), Side(rules, players)
    fast.add_many(chunk)
    for game in chunk:
        slow.add(*game)
    assert fast.cards == slow.cards
    for k in range(len(KINDS)):
        assert fast.points[k] == pytest.approx(slow.points[k], abs=1e-9)


# --- intervals, worked by hand -------------------------------------------------------------


def test_mean_interval_by_hand() -> None:
    # 1, 2, 3, 6: mean 3; sample variance (4 + 1 + 0 + 9) / 3 = 14/3; standard error sqrt(14/3 / 4)
    est = mean([1, 2, 3, 6])
    half = 1.959963984540054 * math.sqrt(14 / 3 / 4)
    assert est.value == 3
    assert est.low == pytest.approx(3 - half) and est.high == pytest.approx(3 + half)
    assert (est.low, est.high) == pytest.approx((0.8830, 5.1170), abs=1e-4)
    assert mean([4]).low is None  # one game: no interval


def test_ratio_interval_by_hand() -> None:
    # points 2, 0, 4 over cards 1, 1, 2: R = 6/4 = 1.5; residuals x - R y = 0.5, -1.5, 1, over the
    # mean card count 4/3: 0.375, -1.125, 0.75; their sample variance 1.96875 / 2; se = sqrt(that / 3)
    est = ratio([2, 0, 4], [1, 1, 2])
    se = math.sqrt((0.375**2 + 1.125**2 + 0.75**2) / 2 / 3)
    assert est.value == 1.5
    assert (est.low, est.high) == pytest.approx((1.5 - Z95 * se, 1.5 + Z95 * se))
    assert (est.low, est.high) == pytest.approx((0.3773, 2.6227), abs=1e-4)
    assert ratio([0, 0], [0, 0]).value is None  # a kind nobody took


def test_spread_and_quantile_by_hand() -> None:
    # scores 0, 2 | 4, 6: pooled mean 3, variance (9 + 1 + 1 + 9) / 4 = 5
    assert spread([[0, 2], [4, 6]]).value == pytest.approx(math.sqrt(5))
    # Woodruff: pooled 1 1 2 2 3 3 4 4, median 2 (the 4th value); share of each game <= 2:
    # 1, 0, 1/2, 1/2 -> sample variance 1/6, se sqrt(1/6 / 4) = 0.2041; 0.5 +- 0.4001 -> ranks
    # ceil(0.0999 * 8) = 1 and ceil(0.9001 * 8) = 8: values 1 and 4
    est = quantile([[1, 2], [3, 4], [1, 4], [2, 3]], 0.5)
    assert (est.value, est.low, est.high) == (2, 1, 4)
    # paired difference: the same games, b = a + 1 everywhere: exactly -1, no spread
    a, b = mean([1.0, 5.0, 2.0]), mean([2.0, 6.0, 3.0])
    d = a.minus(b)
    assert d.value == pytest.approx(-1) and d.high == pytest.approx(-1)


def test_share_interval_is_wilsons_as_published() -> None:
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Statistics in
    # Medicine 17, table I, method 3 (Wilson score): 1/29 -> 0.0061 to 0.1718, 15/148 -> 0.0624
    # to 0.1605.
    for won, games, low, high in ((1, 29, 0.0061, 0.1718), (15, 148, 0.0624, 0.1605)):
        est = share([1.0] * won + [0.0] * (games - won))
        assert est.value == pytest.approx(won / games)
        assert (est.low, est.high) == pytest.approx((low, high), abs=1e-4)
    # by hand, 1 win in 3 games: centre (1/3 + z^2/6) / (1 + z^2/3), half-width
    # z sqrt(2/27 + z^2/36) / (1 + z^2/3), about 0.0615 to 0.7923 (the normal approximation gives
    # -0.20 to 0.87, below 0%)
    est = share([1.0, 0.0, 0.0])
    assert (est.low, est.high) == pytest.approx((0.0615, 0.7923), abs=1e-4)
    assert mean([1.0, 0.0, 0.0]).low < 0  # what the win shares used before
    assert share([0.5]).low is None  # one game: no interval
    # Newcombe (1998) table I, method 3: 0/20 -> 0 to 0.1611. Every game the same share is still a
    # sample: by hand, 5 wins in 5 games gives 5 / (5 + z^2) = 0.5655 to 1.
    est = share([0.0] * 20)
    assert (est.low, est.high) == pytest.approx((0.0, 0.1611), abs=1e-4)
    est = share([1.0] * 5)
    assert (est.low, est.high) == pytest.approx((0.5655, 1.0), abs=1e-4)
    # A share that cannot vary (one policy in every seat wins every game) is the share itself.
    assert (share([1.0] * 5, certain=True).low, share([1.0] * 5, certain=True).high) == (1.0, 1.0)
    with pytest.raises(ValueError):
        share([1.5, 0.0])


def test_win_share_intervals_stay_within_0_and_100_percent(capsys: pytest.CaptureFixture[str]) -> None:
    # Three games: the normal approximation put some of these intervals below 0% or above 100%.
    assert main(["balance", "official", "--rule", "tempura_points=6", "--games", "3", "--players", "3",
                 "--no-maxima", "--no-diff", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    seen = 0
    for side in (doc["ruleset"], doc["vs"]):
        for row in side["seats"] + side["by_policy"]:
            if row.get("win_share_ci95") is not None:
                low, high = row["win_share_ci95"]
                assert 0.0 <= low <= row["win_share"] <= high <= 1.0
                seen += 1
    assert seen >= 6


# --- common random numbers -----------------------------------------------------------------


def test_scoring_only_rulesets_share_their_games_and_rescoring_equals_playing() -> None:
    a, b = get_ruleset("maki-first-each"), OFFICIAL
    assert same_games(a, b, ["random"] * 4)
    assert not same_games(a, b, ["greedy"] * 4)  # a greedy player reads scores
    assert not same_games(get_ruleset("wasabi-optional"), b, ["random"] * 4)
    assert not same_games(get_ruleset("pass-both-ways"), b, ["random"] * 4)
    for i, (tab, pud, _totals, _won) in enumerate(next(played(4, 30, 25, a, ["random"] * 4))):
        rec = play_game(4, 30 + i, b, ["random"])  # played under b, from the same seed
        assert rescore(tab, pud, b, 4) == (rec.totals, rec.winners)


def test_the_report_adds_up() -> None:
    """Independent sums: every player holds hand size x rounds cards; the points per kind of a
    player add up to the mean score (the attribution is exact); seats' win shares add up to the
    games with a winner."""
    side_a, side_b, shared = tally(3, 5, 60, get_ruleset("winner-tie-none"), OFFICIAL, ["random"])
    assert shared
    per_game = 3 * OFFICIAL.hand_size(3) * OFFICIAL.rounds
    assert all(sum(col) == per_game for col in zip(*side_a.cards, strict=True))
    for side in (side_a, side_b):
        total = sum(side.points_per_game(k).value or 0 for k in range(len(KINDS)))
        assert total == pytest.approx(side.score_mean().value)
    won = sum(1 for w in side_a.winners if w)
    assert sum(sum(side_a.win_shares([s])) for s in range(3)) == pytest.approx(won)


# --- the command ---------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "balance", "maki-first-each", "--games", "40", "--no-maxima", "--seed", "3")
    assert code == 0
    assert "smallest difference: 2 players, 2 cards" in out
    for word in ("player score", "points/card", "maki3", "win share", "seeds 3..42"):
        assert word in out
    code, out, _err = run(capsys, "balance", "maki-first-each", "--games", "40", "--no-maxima", "--seed", "3",
                          "--json")
    doc = json.loads(out)
    assert next(iter(doc)) == "format" and schemas.first_problem(doc, "balance-result") is None
    assert doc["same_games"] and doc["games"] == 40
    assert doc["smallest_difference"]["status"] == "differ"
    # the maki reading changes only maki cards' value (both sides scored the very same games)
    changed = {k["kind"] for k in doc["difference"]["kinds"] if k["points_per_card"]["value"] != 0}
    assert changed <= {"maki1", "maki2", "maki3"} and changed


def test_policies_seats_and_players(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "balance", "wasabi-optional", "--games", "6", "--players", "2", "--policy",
                          "greedy", "random", "--no-maxima", "--no-diff", "--json")
    assert code == 0
    doc = json.loads(out)
    assert not doc["same_games"] and doc["smallest_difference"] is None
    assert [r["policy"] for r in doc["ruleset"]["by_policy"]] == ["greedy", "random"]
    assert schemas.first_problem(doc, "balance-result") is None


def test_proved_maxima_for_two_players(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/best.md: the best 2-player round is 45 and game 120 (the latter also counted by hand
    there); both proved by the solver within a minute each."""
    code, out, _err = run(capsys, "balance", "official", "--players", "2", "--games", "5", "--no-diff",
                          "--timeout", "120", "--json")
    doc = json.loads(out)
    assert code == 0
    for side in ("ruleset", "vs"):
        assert doc[side]["maxima"] == {"round": {"score": 45, "status": "optimal"},
                                       "game": {"score": 120, "status": "optimal"}}


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sushigo", *argv], capture_output=True, text=True,
                          timeout=600)


def test_same_seed_gives_byte_identical_json() -> None:
    argv = ("balance", "pudding-floor", "--games", "300", "--seed", "11", "--no-maxima", "--json")
    first, second = _cli(*argv), _cli(*argv)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    other = _cli("balance", "pudding-floor", "--games", "300", "--seed", "12", "--no-maxima", "--json")
    assert other.stdout != first.stdout


@pytest.mark.parametrize(("argv", "words"), [
    (("balance", "offical"), "unknown ruleset 'offical'; did you mean 'official'?"),
    (("balance", "official", "--vs", "frenchy"), "unknown ruleset 'frenchy'"),
    (("balance", "official", "--games", "0"), "'0' is not a number of games"),
    (("balance", "official", "--games", "nan"), "'nan' is not a number of games"),
    (("balance", "official", "--games", "2.5"), "'2.5' is not a number of games"),
    (("balance", "official", "--policy", "greedyy"), "unknown policy 'greedyy'; did you mean 'greedy'?"),
    (("balance", "official", "--rule", "tempura=6"), "unknown rule parameter 'tempura'"),
    (("balance", "official", "--players", "7"), "7 players"),
    (("balance", "official", "--plot", "out.txt"), "give a file name ending in .png or .svg"),
    (("balance", "official", "--timeout", "0"), "is not a budget"),
])
def test_bad_input_is_one_line_and_exit_2(argv: tuple[str, ...], words: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *argv, "--games", "2", "--no-maxima", "--no-diff") if "--games" not in argv \
        else run(capsys, *argv, "--no-maxima", "--no-diff")
    assert code == 2 and out == ""
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_plot_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "balance.png"
    code, out, _err = run(capsys, "balance", "maki-first-each", "--games", "30", "--no-maxima", "--no-diff",
                          "--plot", str(target))
    assert code == 0 and f"picture: {target}" in out
    data = target.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000
    svg = tmp_path / "balance.svg"
    assert run(capsys, "balance", "official", "--games", "5", "--no-maxima", "--no-diff", "--plot",
               str(svg))[0] == 0
    assert b"<svg" in svg.read_bytes()


def test_plot_without_matplotlib_says_how_to_install(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    code, out, err = run(capsys, "balance", "official", "--games", "2", "--no-maxima", "--no-diff", "--plot",
                         "x.png")
    assert code == 2 and out == ""
    assert "pip install 'sushigo-spec[plot]'" in err and len(err.strip().splitlines()) == 1


def test_ctrl_c_exits_130_without_a_report() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "sushigo", "balance", "official", "--games", "10000000",
                             "--no-maxima", "--no-diff"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    time.sleep(4.0)
    assert proc.poll() is None
    os.kill(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "interrupted" in err and out == ""


def test_library_function_returns_what_the_command_prints(capsys: pytest.CaptureFixture[str]) -> None:
    import sushigo

    returned = sushigo.balance("maki-second-each", games=20, seed=4, maxima=False, smallest_diff=False)
    code, out, _err = run(capsys, "balance", "maki-second-each", "--games", "20", "--seed", "4",
                          "--no-maxima", "--no-diff", "--json")
    assert code == 0 and returned == json.loads(out)
