"""``sushigo play`` and ``sushigo replay``: output, records, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sushigo.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_one_game_prints_the_round_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "play", "--players", "4", "--seed", "7")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "game: 4 players, rules official, seed 7, policies random (all)"
    assert lines[1].split() == [
        "seat", "policy", "round", "1", "round", "2", "round", "3", "puddings", "pudding", "total", "winner",
    ]
    rows = [line.split() for line in lines[3:7]]
    assert [r[:2] for r in rows] == [["player", str(k)] for k in range(4)]
    # the total column is the sum of the three rounds and the pudding points
    for r in rows:
        assert int(r[8]) == int(r[3]) + int(r[4]) + int(r[5]) + int(r[7])
    assert lines[-1].startswith("winner")


def test_play_json_is_a_record_that_replays(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _run(capsys, "play", "--players", "3", "--seed", "2", "--policy", "greedy", "--json")
    assert code == 0
    record = json.loads(out)
    assert record["format"] == "sushigo-record/1" and record["policies"] == ["greedy"] * 3
    path = tmp_path / "game.json"
    path.write_text(out)
    code, out, _ = _run(capsys, "replay", str(path))
    assert code == 0
    assert out.splitlines()[-1] == "valid: every deal, pick, tableau and score checks"


def test_play_record_file_and_tampered_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    code, _, _ = _run(capsys, "play", "--players", "2", "--seed", "4", "--record", str(path))
    assert code == 0
    record = json.loads(path.read_text())
    hand = record["rounds"][0]["hands"][0]
    missing = next(c for c in ("squid", "egg", "wasabi", "chopsticks", "maki1", "pudding") if c not in hand)
    record["rounds"][0]["turns"][0][0] = [missing]
    path.write_text(json.dumps(record))
    code, out, _ = _run(capsys, "replay", str(path))
    assert code == 1
    assert out.strip() == (
        f"INVALID: round 1, turn 1, player 0 took {missing}, which was not in their hand (R-PICK)"
    )
    code, out, _ = _run(capsys, "replay", str(path), "--json")
    assert code == 1 and json.loads(out)["rule_id"] == "R-PICK"


def test_replay_malformed_input_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, _, err = _run(capsys, "replay", str(bad))
    assert code == 2 and "not valid JSON" in err and "Traceback" not in err
    bad.write_text(json.dumps({"format": "sushigo-record/1", "rules": "official"}))
    code, _, err = _run(capsys, "replay", str(bad))
    assert code == 2 and err.count("\n") == 1
    code, _, err = _run(capsys, "replay", str(tmp_path / "missing.json"))
    assert code == 2


def test_play_many_games_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(
        capsys, "play", "--players", "3", "--games", "30", "--policy", "random", "greedy", "random"
    )
    assert code == 0
    assert err == ""  # no progress when stderr is not a terminal
    assert out.splitlines()[0] == "30 games: 3 players, rules official, seeds 0..29"
    assert "per seat" in out and "per policy" in out
    code, out, _ = _run(capsys, "play", "--players", "3", "--games", "30", "--policy", "random", "greedy",
                        "random", "--json")
    summary = json.loads(out)
    shares = [s["win_share"] for s in summary["seats"]]
    assert abs(sum(shares) + summary["games_without_winner"] / 30 - 1) < 1e-9
    assert [p["policy"] for p in summary["by_policy"]] == ["random", "greedy"]
    assert summary["by_policy"][0]["seats"] == [0, 2]


@pytest.mark.parametrize("rules", ["dummy-2p", "pass-both-ways"])
def test_variants_play(capsys: pytest.CaptureFixture[str], rules: str, tmp_path: Path) -> None:
    path = tmp_path / "v.json"
    code, out, _ = _run(capsys, "play", "--rules", rules, "--seed", "3", "--record", str(path))
    assert code == 0
    if rules == "dummy-2p":
        assert "dummy" in out and json.loads(path.read_text())["players"] == 2
    code, _, _ = _run(capsys, "replay", str(path))
    assert code == 0
    # a pass-both-ways game is not a valid game under the official passing
    code, out, _ = _run(capsys, "replay", str(path), "--rules", "official")
    if rules == "pass-both-ways":
        assert code == 1 and out.splitlines()[-1].startswith("INVALID: round 2")


def test_play_bad_input_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["play", "--players", "6"],
        ["play", "--policy", "gredy"],
        ["play", "--players", "3", "--policy", "random", "greedy"],
        ["play", "--rules", "dummy-2p", "--players", "3"],
        ["play", "--games", "0"],
        ["play", "--rule", "passing=sideways"],
    ):
        code, _out, err = _run(capsys, *argv)
        assert code == 2, argv
        assert err.startswith("sushigo play: error: ") and err.count("\n") == 1, err
    _, _, err = _run(capsys, "play", "--policy", "gredy")
    assert "did you mean 'greedy'" in err


def test_many_random_games_summary_matches_the_games_played_one_by_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from sushigo.spec.executor import play_game

    code, out, _ = _run(capsys, "play", "--players", "3", "--games", "20", "--seed", "40", "--json")
    assert code == 0
    summary = json.loads(out)
    games = [play_game(3, s) for s in range(40, 60)]
    for seat in range(3):
        assert summary["seats"][seat]["mean"] == pytest.approx(sum(g.totals[seat] for g in games) / 20)
        share = sum(1 / len(g.winners) for g in games if seat in g.winners) / 20
        assert summary["seats"][seat]["win_share"] == pytest.approx(share)
