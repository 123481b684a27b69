"""``tableaux``, ``table`` and ``scoresheet --game party`` (issue 29 item 2).

Expected values come from the rulebook worked by hand (the page is named) or from the brute
force of tests/brute_party_tableaux.py (every table of small tableaux, scored by the plain
scorer), never from the Z3 round model under test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from brute_party_tableaux import canon, seat_listing, tables
from sushigo.solver.party_tableaux import enumerate_seat, enumerate_tables
from sushigo.spec.party.catalogue import PARTY_CATALOGUE
from sushigo.spec.party.menus import parse_menu
from sushigo.spec.party.tableau import format_party_tableau

from sushigo import schemas
from sushigo.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def tableaux(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    code, out, _ = run(capsys, "tableaux", "--game", "party", *argv, "--json")
    data = json.loads(out)
    assert schemas.first_problem(data, "tableaux-result") is None
    return code, data


# --- against the brute force -------------------------------------------------------------------

# (menu, players, cards, seat 0's score or None for any): kinds relative between seats in each
# (maki, temaki, soy sauce, edamame, uramaki's leftover place), wasabi stacks, tea's colours.
BRUTE = [
    ("my-first-meal", 2, 2, None),
    ("my-first-meal", 2, 2, 3),
    ("my-first-meal", 2, 2, 8),
    ("party-sampler", 2, 2, 10),
    ("party-sampler", 2, 2, 13),
    ("cutthroat-combo", 3, 1, None),
    ("cutthroat-combo", 3, 1, -7),
    ("cutthroat-combo", 3, 1, 0),
    ("points-platter", 3, 1, None),
    ("points-platter", 3, 1, 8),
]


@pytest.mark.parametrize(("menu", "players", "cards", "score"), BRUTE, ids=str)
def test_a_seats_tableaux_are_the_brute_forces(menu: str, players: int, cards: int,
                                               score: int | None) -> None:
    m = parse_menu(menu)
    want = seat_listing(m, players, cards, 0, score)
    got = enumerate_seat(m, players, {} if score is None else {0: score}, 0, cards=cards)
    assert got.complete and got.count == len(want)
    assert {format_party_tableau(t) for t in got.tableaux} == want


def test_whole_tables_are_the_brute_forces() -> None:
    m = parse_menu("cutthroat-combo")
    by_scores: dict[tuple[int, ...], set[tuple[str, ...]]] = {}
    for texts, totals in tables(m, 3, 1):
        by_scores.setdefault(totals, set()).add(tuple(canon(t) for t in texts))
    picked = sorted(by_scores, key=lambda s: (len(by_scores[s]), s))
    for scores in (picked[0], picked[len(picked) // 2], picked[-1]):
        got = enumerate_tables(m, 3, list(scores), cards=1)
        assert got.complete and got.count == len(by_scores[scores]), scores
        assert {tuple(format_party_tableau(t) for t in table) for table in got.tables} == by_scores[scores]


# --- worked by hand ----------------------------------------------------------------------------

# my-first-meal, 2 players, one card each. Squid 3 (RB p8), a lone miso 3 (RB p11), a maki
# second to the other seat's higher roll 3, first 6 (RB p8; maki3 is never second with one card
# a seat, a tie for most is first for both); tea alone 1 (its own colour group, RB p15).
HAND = [
    (3, ["maki1", "maki2", "miso", "squid"]),
    (6, ["maki1", "maki2", "maki3"]),
    (0, ["green-tea-ice-cream", "sashimi", "tempura", "wasabi"]),
]


@pytest.mark.parametrize(("score", "expected"), HAND)
def test_one_card_tableaux_worked_by_hand(capsys: pytest.CaptureFixture[str], score: int,
                                          expected: list[str]) -> None:
    code, data = tableaux(capsys, "--menu", "my-first-meal", "--players", "2", "--cards", "1",
                          "--score", str(score))
    assert code == 0 and data["tableaux"] == expected and data["count"] == len(expected)
    assert data["complete"] is True


def test_count_and_the_whole_tables_scores(capsys: pytest.CaptureFixture[str]) -> None:
    # Seat 0 at 6 and seat 1 at 3 with one card each: seat 0 a maki first (RB p8); seat 1 squid,
    # or a maki with fewer icons (second, 3). Seat 0's tableaux: maki1 (over squid), maki2, maki3.
    code, data = tableaux(capsys, "--menu", "sushi-go", "--players", "2", "--cards", "1", "--scores", "6,3")
    assert code == 0 and data["tableaux"] == ["maki1", "maki2", "maki3"]
    code, out, _ = run(capsys, "tableaux", "--game", "party", "--menu", "sushi-go", "--players", "2",
                       "--cards", "1", "--scores", "6,3", "--player", "1", "--count")
    assert (code, out) == (0, "3\n")  # seat 1: squid, maki1 (under maki2 or maki3), maki2 (under maki3)
    code, out, _ = run(capsys, "tableaux", "--game", "party", "--menu", "sushi-go", "--players", "2",
                       "--cards", "1", "--scores", "6,3", "--player", "1")
    assert out.splitlines()[1:] == ["  maki1", "  maki2", "  squid"]


def test_table_counts_the_tables_worked_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    # 6 and 3, one card each (RB p8): squid under any maki (3 tables), maki1 under maki2 or maki3,
    # maki2 under maki3: 6 tables.
    code, out, err = run(capsys, "table", "--game", "party", "--menu", "sushi-go", "--scores", "6,3",
                         "--cards", "1", "--limit", "100", "--json")
    data = json.loads(out)
    assert code == 0, err
    assert schemas.first_problem(data, "table-result") is None
    assert (data["status"], data["count"], data["complete"]) == ("possible", 6, True)
    assert data["witness"][0]["points"]["maki"] == 6


def test_table_impossible_and_out_of_scope(capsys: pytest.CaptureFixture[str]) -> None:
    # One card scores at most 6 (a maki first, RB p8): 12 is impossible.
    code, out, _ = run(capsys, "table", "--game", "party", "--menu", "sushi-go", "--scores", "12,0",
                       "--cards", "1")
    assert code == 1 and out.startswith("impossible: no table of 2 tableaux gives the scores [12, 0]")
    # Points Platter has uramaki and special orders, outside the scope: not proved impossible.
    code, out, _ = run(capsys, "table", "--game", "party", "--menu", "points-platter", "--scores", "99,0,0")
    assert code == 1 and out.startswith("unknown: no table of final tableaux of normal plays")


def test_uramaki_at_ten_is_outside_the_final_tableau() -> None:
    # Two uramaki5 are 10 icons: paid and discarded during the round (RB p9), never a final tableau.
    got = enumerate_seat(parse_menu("points-platter"), 3, {}, 0, cards=2)
    assert "uramaki5*2" not in {format_party_tableau(t) for t in got.tableaux}
    assert "uramaki4 uramaki5" in {format_party_tableau(t) for t in got.tableaux}


# --- scoresheets -------------------------------------------------------------------------------


def sheet(tmp_path: Path, doc: dict[str, object]) -> str:
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps({"format": "sushigo-party-scoresheet/1", **doc}), encoding="utf-8")
    return str(path)


def test_a_possible_sheet_has_a_witness_the_scorer_agrees_with(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = {"menu": "sushi-go", "players": ["Ana", "Ben", "Cy"],
           "rounds": [[20, 3, 7], [12, 9, 0], [6, 6, 15]], "desserts": [6, 0, -6], "totals": [44, 18, 16]}
    code, out, err = run(capsys, "scoresheet", "--game", "party", sheet(tmp_path, doc), "--json")
    data = json.loads(out)
    assert code == 0, err
    assert schemas.first_problem(data, "scoresheet-result") is None
    # The witness scored again through 'score --game party' (the plain scorer, not the model).
    game = tmp_path / "game.json"
    game.write_text(json.dumps({"menu": "sushi-go", "rounds": data["witness"]["rounds"]}), encoding="utf-8")
    code, out, err = run(capsys, "score", "--game", "party", str(game), "--json")
    scored = json.loads(out)
    assert code == 0, err
    assert [[s["total"] for s in r["seats"]] for r in scored["rounds"]] == doc["rounds"]
    assert scored["dessert_points"] == doc["desserts"] and scored["totals"] == doc["totals"]


IMPOSSIBLE = [
    # Three players all holding as many puddings: no most and no fewest, nobody scores under the
    # default reading (RB p16 leaves it open; pudding_all_tied=both nets 0): +6 each is impossible.
    ({"menu": "sushi-go", "players": ["Ana", "Ben", "Cy"], "rounds": [[0, 0, 0]] * 3, "desserts": [6, 6, 6]},
     ["desserts", "desserts", "desserts"], ["R-PARTY-PUDDING"]),
    # Two players: the most puddings +6, nobody loses (RB p16), so totals differ from the rounds'
    # sums by 0 or 6; a difference of 2 is impossible.
    ({"menu": "sushi-go", "players": ["Ana", "Ben"], "rounds": [[20, 3], [12, 9], [6, 6]],
      "totals": [40, 18]},
     ["round 1", "round 2", "round 3", "total"], ["R-PARTY-PUDDING", "R-PARTY-TOTAL"]),
]


@pytest.mark.parametrize(("doc", "rows", "rules"), IMPOSSIBLE, ids=["pudding-all-six", "total-off-by-two"])
def test_an_impossible_sheet_names_its_cells_and_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       doc: dict[str, object], rows: list[str],
                                                       rules: list[str]) -> None:
    code, out, _ = run(capsys, "scoresheet", "--game", "party", sheet(tmp_path, doc), "--json")
    data = json.loads(out)
    assert code == 1 and data["possible"] is False
    assert schemas.first_problem(data, "scoresheet-result") is None
    assert [c["row"] for c in data["core"]["cells"]] == rows
    assert data["core"]["rules"] == rules
    assert all(r in PARTY_CATALOGUE for r in data["core"]["rules"])


def test_a_round_above_any_table_is_its_own_core(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    doc = {"menu": "my-first-meal", "players": ["Ana", "Ben"], "rounds": [[200, 0]]}
    code, out, _ = run(capsys, "scoresheet", "--game", "party", sheet(tmp_path, doc))
    assert code == 1
    assert out.splitlines()[:2] == ["impossible on the menu my-first-meal (party defaults):",
                                    "  these cells cannot all hold together: round 1: Ana 200"]


# --- budgets and bad input ---------------------------------------------------------------------


def test_out_of_budget_is_unknown_with_the_budget(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, data = tableaux(capsys, "--menu", "sushi-go", "--players", "3", "--score", "20", "--rlimit", "1")
    assert code == 1 and data["outcome"] == "unknown" and "rlimit 1" in str(data["reason"])
    code, out, _ = run(capsys, "table", "--game", "party", "--menu", "sushi-go", "--scores", "20,3,7",
                       "--rlimit", "1")
    assert code == 1 and out.startswith("unknown: ") and "rlimit 1" in out
    doc = {"menu": "sushi-go", "players": ["Ana", "Ben"], "rounds": [[3, 4]]}
    code, out, _ = run(capsys, "scoresheet", "--game", "party", sheet(tmp_path, doc), "--rlimit", "1")
    assert code == 1 and out.startswith("unknown: ")


BAD = [
    (["tableaux", "--game", "party", "--menu", "sushi-go", "--score", "3"], "needs --players N"),
    (["tableaux", "--game", "party", "--players", "2", "--score", "3"], "needs its menu"),
    (["tableaux", "--game", "party", "--menu", "sushi-go", "--players", "2", "--score", "3",
      "--scores", "3,4"], "one of them"),
    (["tableaux", "--game", "party", "--menu", "sushi-go", "--players", "2", "--score", "3",
      "--player", "2"], "the seats are 0 to 1"),
    (["tableaux", "--game", "party", "--menu", "sushi-go", "--players", "2", "--score", "3",
      "--cards", "11"], "0 to 10 cards"),
    (["tableaux", "--game", "party", "--menu", "master-menu", "--players", "2", "--score", "3"],
     "spoon is not used with 2 players"),
    (["tableaux", "--game", "party", "--menu", "sushi-go", "--players", "2", "--score", "3",
      "--facts"], "--facts is not an option of tableaux --game party"),
    (["tableaux", "--game", "party", "--menu", "sushi-go", "--players", "2", "--score", "3",
      "--without", "eel"], "eel is not on the menu sushi-go"),
    (["tableaux", "--score", "3", "--cards", "2", "--menu", "sushi-go"], "add --game party"),
    (["table", "--game", "party", "--menu", "sushi-go", "--scores", "3,x"], "whole numbers"),
    (["table", "--game", "party", "--menu", "sushi-go", "--scores", "3,4", "--has", "1:squid"],
     "--has is not an option of table --game party"),
    (["table", "--menu", "sushi-go", "--scores", "3,4"], "add --game party"),
]


@pytest.mark.parametrize(("argv", "words"), BAD, ids=lambda a: " ".join(a) if isinstance(a, list) else a)
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                          words: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err, err


SHEETS_BAD = [
    ({"players": ["Ana", "Ben"], "rounds": [[1, 2]]}, "names its \"menu\""),
    ({"menu": "sushi-go", "players": ["Ana", "Ben"], "rounds": [[1, 2]], "desserts": [6, 0]},
     "a desserts row needs all 3 rounds"),
    ({"menu": "sushi-go", "players": ["Ana", "Ana"], "rounds": [[1, 2]]}, "repeated name"),
    ({"menu": "dinner-for-two", "players": ["A", "B", "C", "D", "E", "F", "G"], "rounds": [[1] * 7]},
     "menu is not used with 7 or 8 players"),
    ({"menu": "sushi-go", "players": ["Ana", "Ben"], "rounds": [[1, 2, 3]]},
     "round 1 has 3 cells but the sheet has 2 players"),
]


@pytest.mark.parametrize(("doc", "words"), SHEETS_BAD, ids=[w for _, w in SHEETS_BAD])
def test_a_bad_sheet_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            doc: dict[str, object], words: str) -> None:
    code, out, err = run(capsys, "scoresheet", "--game", "party", sheet(tmp_path, doc))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err, err


# --- the library ---------------------------------------------------------------------------------


def test_the_functions_return_what_the_commands_print(capsys: pytest.CaptureFixture[str]) -> None:
    import sushigo

    got = sushigo.tableaux(game="party", menu="my-first-meal", players=2, cards=1, score=3)
    _, out, _ = run(capsys, "tableaux", "--game", "party", "--menu", "my-first-meal", "--players", "2",
                    "--cards", "1", "--score", "3", "--json")
    assert got == json.loads(out) and got["tableaux"] == ["maki1", "maki2", "miso", "squid"]
    got = sushigo.table(game="party", menu="sushi-go", scores=[6, 3], cards=1)
    assert got["status"] == "possible" and got["count"] == 6
    doc = {"menu": "sushi-go", "players": ["Ana", "Ben"], "rounds": [[200, 0]]}
    assert sushigo.scoresheet(doc, game="party")["possible"] is False
    with pytest.raises(sushigo.InputError, match="add --game party"):
        sushigo.table(scores=[3, 4], menu="sushi-go")
