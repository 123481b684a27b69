"""sushigo ladder: the schedule, the games (the executor's), win shares (Wilson), Bradley-Terry
ratings on hand-solved tables, determinism across --jobs, and bad input (issue 30 item 2)."""

from __future__ import annotations

import importlib.util
import json
import math

import pytest
from sushigo.solver import ladder as L
from sushigo.solver.policies import make_policy
from sushigo.spec.executor import play_game
from sushigo.spec.policies import GreedyPolicy, RandomPolicy
from sushigo.spec.ruleset import OFFICIAL

import sushigo
from sushigo.cli import main

Z = 1.959963984540054  # the two-sided 95% normal quantile


def wilson(wins: float, n: int) -> tuple[float, float]:
    """Wilson's score interval, written out from its textbook formula (Wilson 1927)."""
    p = wins / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return centre - half, centre + half


def test_wilson_by_hand() -> None:
    # 7 wins in 10: the interval every table of Wilson intervals gives, [0.3968, 0.8922].
    lo, hi = wilson(7, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.3968, 0.8922)


# --- Bradley-Terry ----------------------------------------------------------------------------


def test_bradley_terry_two_policies_is_the_odds_of_the_record() -> None:
    # With two policies the likelihood is p^3 (1-p)^1: the odds of A are 3 exactly.
    pa, pb = L.bradley_terry([[0, 3], [1, 0]], prior=0)
    assert pa / pb == pytest.approx(3, rel=1e-9)
    # One virtual tied game adds half a win each way: (3.5) / (1.5).
    pa, pb = L.bradley_terry([[0, 3], [1, 0]])
    assert pa / pb == pytest.approx(3.5 / 1.5, rel=1e-9)


def test_bradley_terry_on_a_hand_solved_table() -> None:
    # Strengths 4, 2, 1 fit exactly: A-B 2 of 3 (4/6 of 3), B-C 2 of 3 (2/3 of 3), A-C 4 of 5 (4/5 of 5);
    # the likelihood equations W_i = sum_j n_ij p_i / (p_i + p_j) hold with these counts.
    wins = [[0, 2, 4], [1, 0, 2], [1, 1, 0]]
    p = L.bradley_terry(wins, prior=0)
    assert (p[0] / p[2], p[1] / p[2]) == (pytest.approx(4, rel=1e-9), pytest.approx(2, rel=1e-9))
    r = L.elo(p)
    step = 400 * math.log10(2)  # 120.41 points per doubling of strength
    assert r == pytest.approx([step, 0.0, -step], abs=1e-6)


def test_a_policy_that_never_won_has_no_strength_without_the_prior() -> None:
    with pytest.raises(ValueError):
        L.bradley_terry([[0, 3], [0, 0]], prior=0)
    pa, pb = L.bradley_terry([[0, 3], [0, 0]])  # the prior keeps it finite: 3.5 against 0.5
    assert pa / pb == pytest.approx(7, rel=1e-9)


def test_comparisons_of_a_game() -> None:
    assert L.comparisons([5, 7], [1]) == [(7, 5, 1.0)]
    assert L.comparisons([5, 7], [0, 1]) == [(5, 7, 0.5), (7, 5, 0.5)]  # a shared win: a tie
    assert L.comparisons([5, 7], []) == [(5, 7, 0.5), (7, 5, 0.5)]  # no winner: a tie
    # Three seats, seat 2 wins: it beats both; the two others are not compared (half each way).
    assert L.comparisons([0, 1, 2], [2]) == [(0, 1, 0.5), (1, 0, 0.5), (2, 0, 1.0), (2, 1, 1.0)]


# --- schedule and games -----------------------------------------------------------------------


def test_schedule_rotates_seats_over_the_same_deals() -> None:
    games = L.schedule(["a", "b", "c"], 2, 4, 10)
    assert [(g.table, g.seed, g.seats) for g in games[:4]] == [
        (0, 10, ("a", "b")), (0, 10, ("b", "a")), (0, 11, ("a", "b")), (0, 11, ("b", "a"))]
    assert {g.seats for g in games if g.table == 2} == {("b", "c"), ("c", "b")}
    three = L.schedule(["a", "b", "c"], 3, 3, 0)
    assert [g.seats for g in three] == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert {g.seed for g in three} == {0}


def test_a_ladder_game_is_the_executors_game() -> None:
    for seed in (0, 7):
        res = L.play(OFFICIAL, 2, seed, [GreedyPolicy, RandomPolicy])
        rec = play_game(2, seed, OFFICIAL, ["greedy", "random"])
        assert (res.totals, res.winners) == (rec.totals, rec.winners)


@pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None, reason="needs the openspiel extra")
def test_the_openspiel_driver_deals_and_asks_as_the_executor() -> None:
    from sushigo.solver.ladder_openspiel import play_openspiel

    for seed in (3, 4):
        totals, winners = play_openspiel(OFFICIAL, 2, seed, [GreedyPolicy(), RandomPolicy()])
        rec = play_game(2, seed, OFFICIAL, ["greedy", "random"])
        assert (tuple(totals), tuple(winners)) == (rec.totals, rec.winners)


# --- the command ------------------------------------------------------------------------------


def _ladder(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["ladder", *argv, "--json"]) == 0
    doc: dict[str, object] = json.loads(capsys.readouterr().out)
    return doc


def test_win_shares_and_their_wilson_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _ladder(capsys, "--policies", "random,greedy", "--games", "40", "--seed", "5", "--bootstrap", "50")
    recs = [play_game(2, 5 + k // 2, OFFICIAL, ["random", "greedy"] if k % 2 == 0 else ["greedy", "random"])
            for k in range(40)]
    greedy_seat = [1 if k % 2 == 0 else 0 for k in range(40)]
    wins = sum(1 / len(r.winners) for r, s in zip(recs, greedy_seat, strict=True) if s in r.winners)
    [row] = [r for r in doc["standings"] if r["policy"] == "greedy"]  # type: ignore[attr-defined]
    assert row["win_share"] == round(wins / 40, 4)
    assert row["win_share_ci95"] == [round(x, 4) for x in wilson(wins, 40)]
    # Two policies: the ratings are +-d/2 with d the Elo difference of the fitted odds (prior: one tie).
    odds = (wins + 0.5) / (40 - wins + 0.5)
    assert row["rating"] == round(200 * math.log10(odds), 1)
    lo, hi = row["rating_ci95"]
    assert lo <= row["rating"] <= hi


def test_the_same_bytes_with_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["ladder", "--policies", "random,greedy", "--games", "42", "--bootstrap", "30", "--json"]
    assert main(argv) == 0
    one = capsys.readouterr().out
    assert main([*argv, "--jobs", "2"]) == 0
    assert capsys.readouterr().out == one


def test_a_policy_out_of_budget_is_counted(capsys: pytest.CaptureFixture[str]) -> None:
    # One state of search: the endgame solver says unknown and exact's fallback plays; the ladder
    # reports the policy's own counter, the same as the executor's games give.
    spec = "exact:iterations=10,nodes=1"
    doc = _ladder(capsys, "--policies", f"greedy,{spec}", "--games", "2", "--bootstrap", "0")
    [row] = [r for r in doc["standings"] if r["policy"] == spec]  # type: ignore[attr-defined]
    want = 0
    for seats in ([GreedyPolicy(), make_policy(spec)], [make_policy(spec), GreedyPolicy()]):
        play_game(2, 0, OFFICIAL, seats)
        want += sum(getattr(p, "fallbacks", 0) for p in seats)
    assert row["moves"] == 2 * 3 * 10  # two games, three rounds of ten turns
    assert row["fallback_moves"] == want > 0
    [other] = [r for r in doc["standings"] if r["policy"] == "greedy"]  # type: ignore[attr-defined]
    assert other["fallback_moves"] == 0


def test_three_players_each_table_of_three(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _ladder(capsys, "--policies", "random,greedy,lookahead", "--players", "3", "--games", "3",
                  "--bootstrap", "0")
    assert [t["policies"] for t in doc["tables"]] == [["random", "greedy", "lookahead"]]  # type: ignore[index]
    shares = [r["win_share"] for r in doc["standings"]]  # type: ignore[attr-defined]
    assert sum(shares) == pytest.approx(1, abs=1e-3)  # one table: every game's win is split among them


def test_the_api_is_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _ladder(capsys, "--policies", "greedy,random", "--games", "6", "--bootstrap", "10")
    assert sushigo.ladder(["greedy", "random"], games=6, bootstrap=10) == doc


@pytest.mark.parametrize(("argv", "message"), [
    (["--policies", "random,gredy"], "unknown policy 'gredy'; did you mean 'greedy'?"),
    (["--policies", "random,greedy:depth=2"], "greedy takes no options"),
    (["--policies", "random,random"], "policy 'random' is listed twice"),
    (["--policies", "greedy"], "needs at least 2 policies"),
    (["--policies", "random,greedy", "--players", "3"], "needs at least 3 policies"),
    (["--policies", "random,greedy", "--games", "0"], "--games must be a whole number from 1"),
    (["--policies", "random,openspiel-ismct"], "did you mean 'openspiel-ismcts'?"),
    (["--policies", "random,openspiel-ismcts:simulations=0"], "simulations='0' is out of range"),
    (["--policies", "random,greedy", "--rules", "dummy-2p"], "dummy-2p"),
])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], message: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err and err.count("\n") == 1, err


def test_openspiel_missing_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    import builtins

    real = builtins.__import__

    def no_pyspiel(name: str, *args: object, **kwargs: object) -> object:
        if name == "pyspiel":
            raise ImportError(name)
        return real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_pyspiel)
    assert main(["ladder", "--policies", "random,openspiel-ismcts"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'sushigo-spec[openspiel]'" in err and err.count("\n") == 1
