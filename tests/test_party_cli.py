"""``sushigo score --game party`` and ``sushigo rules --game party``'s kinds and readings, and the
Python API (``sushigo.score(..., game="party")``). Expected points are the rulebook's (PARTY.md
section 2, pages named), worked by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sushigo
from sushigo.cli import main
from sushigo.schemas import first_problem


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_party_round_prints_the_maki_example(capsys: pytest.CaptureFixture[str]) -> None:
    # RB p8: maki totals 5, 5, 3, 1 score 6, 6, 3, 0
    code, out, _ = run(capsys, "score", "--game", "party", "--menu", "sushi-go", "maki3 maki2",
                       "maki2*2 maki1", "maki3", "maki1")
    assert code == 0
    rows = [line.split() for line in out.splitlines() if line.startswith("player ") and line[7].isdigit()]
    assert [int(r[3]) for r in rows] == [6, 6, 3, 0]


def test_score_party_json_matches_its_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "--game", "party", "--menu", "points-platter", "edamame*3",
                       "edamame*2", "edamame", "--json")
    doc = json.loads(out)
    assert code == 0 and first_problem(doc, "score-result") is None
    assert [s["points"]["edamame"] for s in doc["rounds"][0]["seats"]] == [6, 4, 2]  # RB p10
    assert doc["rounds"][0]["rule_ids"]["edamame"] == "R-PARTY-EDAMAME"
    bad = dict(doc, players="3")
    assert first_problem(bad, "score-result") is not None


def test_score_party_game_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = {"format": "sushigo-party-score/1", "menu": "master-menu", "readings": {"final_tie": "first-seat"},
           "rounds": [["onigiri-circle onigiri-triangle onigiri-square*2 fruit-watermelon", "tofu*2", "-"],
                      ["temaki*2", "temaki", "fruit-orange"], ["-", "-", "-"]]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    code, out, err = run(capsys, "score", "--game", "party", str(path), "--json")
    assert code == 0, err
    got = json.loads(out)
    assert first_problem(got, "score-result") is None
    # round 1: onigiri 9 + 1 (RB p10), tofu 6 (RB p11); round 2: temaki +4 / 0 / -4 (RB p8)
    assert [r["seats"][k]["total"] for r in got["rounds"] for k in range(3)] == [10, 6, 0, 4, 0, -4, 0, 0, 0]
    # fruit (RB p16): seat 0 watermelon 2 icons 1, no orange -2, no pineapple -2; seat 1 none -6;
    # seat 2 orange 2 icons 1, -2, -2
    assert got["dessert_points"] == [-3, -6, -3] and got["totals"] == [11, 0, -7]
    assert got["winners"] == [0]


def test_score_party_bad_input_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, says in [
        (("--menu", "sushi-go", "maki3", "eel"), "eel is not on the menu sushi-go"),
        (("--menu", "sushi-go", "maki3", "tempora"), "did you mean 'tempura'"),
        (("--menu", "sushi-go", "squid*2", "squid*2"), "more than the 3 the menu's deck holds"),
        (("--menu", "master-menu", "temaki", "-"), "spoon is not used with 2 players"),
        (("maki3", "maki2"), "a Party round needs its menu"),
        (("--menu", "sushi-go", "maki3", "-", "--rule", "edamame_caps=round"), "did you mean 'edamame_cap'"),
        (("--menu", "points-platter", "uramaki5*2", "-", "-"), "give the round turn by turn"),
        (("--menu", "party-sampler", "menu-7", "-"), "a menu is discarded once played"),
        (("--menu", "points-platter", "special-order", "-", "-"), "names its copy"),
    ]:
        code, out, err = run(capsys, "score", "--game", "party", *argv)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and says in err, (argv, err)
    code, _, err = run(capsys, "score", "--menu", "sushi-go", "maki3", "maki2")
    assert code == 2 and "add --game party" in err


def test_score_game_base_names_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "score", "--game", "base", "tempura*2", "sashimi")[1] == \
        run(capsys, "score", "tempura*2", "sashimi")[1]


def test_the_python_api_scores_party() -> None:
    got = sushigo.score(["wasabi+squid salmon*2 tea", "tea"], game="party", menu="my-first-meal")
    assert got["rounds"][0]["seats"][0]["points"]["tea"] == 4  # RB p15's tea example
    got = sushigo.score(["edamame*3", "edamame*2", "edamame"], game="party", menu="points-platter",
                        rule={"edamame_cap": "round"})
    assert [s["points"]["edamame"] for s in got["rounds"][0]["seats"]] == [4, 4, 2]


def test_rules_game_party_lists_kinds_and_readings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--game", "party", "--json", "--rule", "edamame_cap=round")
    doc = json.loads(out)
    assert code == 0
    readings = {r["name"]: r for r in doc["readings"]}
    assert readings["edamame_cap"]["value"] == "round" and readings["edamame_cap"]["default"] == "card"
    assert {"temaki_all_tied", "pudding_all_tied", "flipped_colour", "tea_desserts", "final_tie",
            "uramaki_split", "menu_short_deck"} <= set(readings)
    assert [k["tile"] for k in doc["kinds"]][:3] == ["nigiri", "maki", "temaki"]
    code, out, _ = run(capsys, "rules", "--game", "party")
    assert "open questions, each a reading" in out and "R-PARTY-URAMAKI" in out
    code, _, err = run(capsys, "rules", "--game", "party", "--rule", "tea_desert=no")
    assert code == 2 and "did you mean 'tea_desserts'" in err


_WORDS = ["maki3", "wasabi+squid", "uramaki5", "special-order:eel", "special-order", "flipped", "menu-7:eel",
          "takeout-10:tofu", "chopsticks-1:tempura", "spoon-4:-", "pudding*3", "miso", "-", "x", "a+b+c",
          "tempura*0", "eel:tofu", "fruit-orange", "onigiri-square*99", "tea", "soy-sauce", ":", "*"]


@given(st.lists(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=3).map(" ".join), min_size=1,
                max_size=5),
       st.sampled_from(["sushi-go", "master-menu", "dinner-for-two", "cutthroat-combo", "bogus"]),
       st.booleans())
@settings(max_examples=60, deadline=None)
def test_any_party_input_is_answered_or_one_line(texts: list[str], menu: str, turns: bool) -> None:
    """Whatever the words, a Party score is a result or one InputError line, never a traceback."""
    from sushigo.spec.errors import SushiGoError

    data = {"menu": menu, "rounds": [{"turns": [texts, texts]} if turns else texts]}
    try:
        sushigo.score(data, game="party")
    except SushiGoError as exc:
        assert "\n" not in str(exc)
