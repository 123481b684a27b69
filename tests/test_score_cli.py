"""``sushigo score`` end to end through ``sushigo.cli.main``.

Expected numbers are worked by hand (the same positions as spec/data/pinned.json,
whose "why" fields show the arithmetic).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from sushigo.cli import main

FRENCH = [
    "maki3 maki1 tempura*2 dumpling*3 wasabi+salmon",
    "maki3 sashimi*3 egg",
    "sashimi*2 tempura dumpling*5",
]
# pinned case game-2p-penalty-reverses: 8 and 17 before puddings; puddings 2 and 1.
GAME_2P = [
    ["tempura*2 pudding", "sashimi*3"],
    ["pudding", ["egg", "pudding"]],  # a tableau may also be a list of token names
    ["dumpling*2", "maki1"],
]
CATEGORY_KEYS = ["tempura", "sashimi", "dumpling", "nigiri", "maki", "total"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["score", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, doc: Any, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return str(path)


def score_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


# --- answers ----------------------------------------------------------------------------

def test_french_round_from_arguments_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = score_json(capsys, *FRENCH)
    assert list(data) == ["format", "rounds", "pudding", "totals", "winners"]
    assert data["format"] == "sushigo-score-result/1"
    assert len(data["rounds"]) == 1 and len(data["rounds"][0]) == 3
    for seat in data["rounds"][0]:
        assert list(seat) == CATEGORY_KEYS
    assert data["rounds"][0][0] == {
        "tempura": 5, "sashimi": 0, "dumpling": 6, "nigiri": 6, "maki": 6, "total": 23,
    }
    assert [s["total"] for s in data["rounds"][0]] == [23, 14, 15]
    assert data["pudding"] is None  # one round: puddings are not scored yet
    assert data["totals"] == [23, 14, 15]
    assert data["winners"] == [0]


def test_french_round_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *FRENCH)
    assert code == 0 and err == ""
    for word in ("round 1", "tempura", "sashimi", "dumpling", "nigiri", "maki", "total"):
        assert word in out
    rows = {line.split()[1]: line.split() for line in out.splitlines() if line.startswith("player ")}
    assert rows["0"][2:8] == ["5", "0", "6", "6", "6", "23"]
    assert rows["1"][2:8] == ["0", "10", "0", "1", "3", "14"]
    assert rows["2"][2:8] == ["0", "0", "15", "0", "0", "15"]
    assert "winner: player 0 with 23 points" in out


def test_game_document_scores_puddings(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, {"rules": "official", "rounds": GAME_2P})
    data = score_json(capsys, path)
    assert [[s["total"] for s in r] for r in data["rounds"]] == [[5, 10], [0, 1], [3, 6]]
    assert data["pudding"] == [6, 0]  # 2 players: no penalty
    assert data["totals"] == [14, 17]
    assert data["winners"] == [1]
    code, out, _ = run(capsys, path)
    assert code == 0
    assert "game" in out and "pudding" in out and "winner: player 1 with 17 points" in out


def test_rules_from_document_then_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, {"rules": "pudding-penalty-2p", "rounds": GAME_2P})
    data = score_json(capsys, path)
    assert data["pudding"] == [6, -6] and data["totals"] == [14, 11] and data["winners"] == [0]
    # --rules wins over the document's "rules"
    assert score_json(capsys, path, "--rules", "official")["totals"] == [14, 17]
    # --rule overrides on top of the chosen ruleset
    plain = write(tmp_path, {"rounds": GAME_2P}, "plain.json")
    assert score_json(capsys, plain)["totals"] == [14, 17]
    assert score_json(capsys, plain, "--rule", "pudding_penalty_2p=yes")["totals"] == [14, 11]


def test_rules_change_maki_ties(capsys: pytest.CaptureFixture[str]) -> None:
    # icons 5, 3, 3, 2: rulebook 6, 1, 1, 0; French pays 3 to each tied second
    tabs = ["maki3 maki2", "maki3", "maki1 maki2", "maki2"]
    assert score_json(capsys, *tabs)["totals"] == [6, 1, 1, 0]
    assert score_json(capsys, *tabs, "--rules", "french")["totals"] == [6, 3, 3, 0]
    assert score_json(capsys, *tabs, "--rule", "maki_second_tie=each")["totals"] == [6, 3, 3, 0]


def test_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({"rounds": [FRENCH]})))
    assert score_json(capsys, "-")["totals"] == [23, 14, 15]


def test_shared_and_no_winner(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # pinned game-2p-all-tied: 6 each, puddings 1 each
    rounds = [["tempura*2 pudding", "tempura*2 pudding"], ["-", "-"], ["egg", "egg"]]
    path = write(tmp_path, {"rounds": rounds})
    assert score_json(capsys, path)["winners"] == [0, 1]
    code, out, _ = run(capsys, path)
    assert code == 0 and "winners (shared" in out
    assert score_json(capsys, path, "--rules", "winner-tie-none")["winners"] == []
    code, out, _ = run(capsys, path, "--rules", "winner-tie-none")
    assert code == 0 and "no winner: players 0, 1" in out
    assert score_json(capsys, path, "--rules", "dutch")["totals"] == [9, 9]


def test_dummy_2p_scores_three_seats(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # pinned game-3p-dummy-leads: totals 12, 13, 21; the dummy (seat 2) cannot win
    rounds = [
        ["tempura*2", "sashimi*3", "squid pudding"],
        ["pudding*2", "maki3", "dumpling*3"],
        ["egg", "pudding", "tempura*2 sashimi*3"],
    ]
    path = write(tmp_path, {"rules": "dummy-2p", "rounds": rounds})
    data = score_json(capsys, path)
    assert data["totals"] == [12, 13, 21] and data["winners"] == [1]
    code, out, _ = run(capsys, path)
    assert code == 0 and "dummy" in out and "winner: player 1 with 13 points" in out
    assert score_json(capsys, path, "--rules", "official")["winners"] == [2]


# --- bad input: one line, exit 2 -----------------------------------------------------------

def bad(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = run(capsys, *argv)
    assert code == 2, (out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("sushigo score: error: ")
    assert "Traceback" not in err
    return lines[0]


def test_unknown_card_suggests_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    msg = bad(capsys, "tempura sqiud", "egg")
    assert "player 0" in msg and "'sqiud'" in msg and "did you mean 'squid'" in msg


def test_unknown_card_in_document(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, {"rounds": [["egg", "tempura"], ["egg", ["dumplng"]]]})
    msg = bad(capsys, path)
    assert "round 2, player 1" in msg and "did you mean 'dumpling'" in msg


def test_too_many_copies_over_the_whole_document(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # 3 + 2 squid in round 1 is fine (the deck has 5); one more in round 2 is not.
    rounds = [["squid*3", "wasabi+squid squid"], ["squid", "egg"]]
    msg = bad(capsys, write(tmp_path, {"rounds": rounds}))
    assert "6 squid" in msg and "only 5" in msg and "round 1: 5, round 2: 1" in msg


def test_too_many_copies_in_one_round(capsys: pytest.CaptureFixture[str]) -> None:
    msg = bad(capsys, "chopsticks*3", "chopsticks*2")
    assert "5 chopsticks" in msg and "only 4" in msg


@pytest.mark.parametrize("n", [1, 6])
def test_player_count(capsys: pytest.CaptureFixture[str], tmp_path: Path, n: int) -> None:
    msg = bad(capsys, write(tmp_path, {"rounds": [["egg"] * n]}))
    assert f"{n} tableaux" in msg and "2 to 5 players" in msg


def test_six_players_from_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert "2 to 5 players" in bad(capsys, *(["egg"] * 6))


def test_single_tableau_argument(capsys: pytest.CaptureFixture[str]) -> None:
    assert "one tableau given" in bad(capsys, "tempura*2")


def test_rounds_with_different_player_counts(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    msg = bad(capsys, write(tmp_path, {"rounds": [["egg", "egg", "egg"], ["egg", "egg"]]}))
    assert "round 2 has 2 tableaux but round 1 has 3" in msg


def test_malformed_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    msg = bad(capsys, write(tmp_path, '{"rounds": [["egg", "egg"]'))
    assert "not valid JSON" in msg and "line 1" in msg


def test_malformed_json_on_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("{rounds: }"))
    assert "standard input is not valid JSON" in bad(capsys, "-")


def test_more_cards_than_the_hand(capsys: pytest.CaptureFixture[str]) -> None:
    # 4 players hold 8 cards; 4 stacks are 8 cards, one more egg makes 9
    msg = bad(capsys, "wasabi+squid*4 egg", "egg", "egg", "egg")
    assert "player 0" in msg and "9 cards" in msg and "only 8" in msg


def test_hand_size_in_document_names_round(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rounds = [["egg", "egg"], ["tempura*11", "egg"]]
    msg = bad(capsys, write(tmp_path, {"rounds": rounds}))
    assert "round 2, player 0: 11 cards" in msg and "only 10" in msg


def test_too_many_rounds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    msg = bad(capsys, write(tmp_path, {"rounds": [["egg", "egg"]] * 4}))
    assert "4 rounds" in msg and "only 3" in msg


@pytest.mark.parametrize(
    ("doc", "needle"),
    [
        # Shape errors are the schema's (sushigo/schemas/score-document.json): the JSON path first.
        ([["egg", "egg"]], "at $: [['egg', 'egg']] is not of type 'object'"),
        ({"rounds": []}, "at $.rounds: [] should be non-empty"),
        ({"rules": "official"}, "at $: 'rounds' is a required property"),
        ({"rounds": [["egg", "egg"]], "round": 1}, "at $: Additional properties are not allowed ('round'"),
        ({"rounds": ["egg egg"]}, "at $.rounds[0]: 'egg egg' is not of type 'array'"),
        ({"rounds": [["egg", 3]]}, "at $.rounds[0][1]: 3 is not valid"),
        ({"rules": 7, "rounds": [["egg", "egg"]]},
         "at $.rules: 7 is not valid under any of the given schemas"),
        ({"rules": "offical", "rounds": [["egg", "egg"]]}, "did you mean 'official'"),
        ({"format": "sushigo-record/1", "rounds": []}, "sushigo replay"),
        ({"rules": "dummy-2p", "rounds": [["egg", "egg"]]}, "dummy-2p variant scores 3 seats"),
    ],
)
def test_bad_documents(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, doc: Any, needle: str
) -> None:
    assert needle in bad(capsys, write(tmp_path, doc))


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert "cannot read" in bad(capsys, str(tmp_path / "nope.json"))


def test_bad_rule_override(capsys: pytest.CaptureFixture[str]) -> None:
    msg = bad(capsys, "egg", "egg", "--rule", "maki_first_tie=most")
    assert "maki_first_tie" in msg and "split" in msg
    assert "unknown ruleset" in bad(capsys, "egg", "egg", "--rules", "nope")


def test_bad_multiplicity(capsys: pytest.CaptureFixture[str]) -> None:
    assert "'egg*x'" in bad(capsys, "egg*x", "egg")


def test_dummy_2p_hand_is_nine(capsys: pytest.CaptureFixture[str]) -> None:
    msg = bad(capsys, "tempura*10", "egg", "egg", "--rules", "dummy-2p")
    assert "10 cards" in msg and "only 9" in msg


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_played_games_are_valid_documents(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, players: int
) -> None:
    """No false alarms: the tableaux of real games (reference executor) pass every check,
    and scoring them as a document gives the record's totals and winners."""
    from sushigo.spec.executor import play_game

    for seed in range(5):
        record = play_game(players, seed).to_json()
        doc = {"rules": record["rules"], "rounds": [r["tableaux"] for r in record["rounds"]]}
        data = score_json(capsys, write(tmp_path, doc))
        assert data["totals"] == record["totals"]
        assert data["winners"] == record["winners"]
        assert [[s["total"] for s in r] for r in data["rounds"]] == [
            r["scores"] for r in record["rounds"]
        ]
