"""``sushigo check --game party`` (issue 28 item 4): the Party families run from the command line,
agree on the honest executor, and report a planted fault with exit 1 and its rule id; the base
game's options are refused with exit 2. Planted faults are worked from the rulebook: a tempura
pair is 5 points (RB p11), the most puddings 6 (RB p16), a turn's card stays in the tableau."""

from __future__ import annotations

import dataclasses
import json

import pytest
import sushigo.checks.party_check as party_check
import sushigo.spec.party.scoring as scoring

from sushigo import schemas
from sushigo.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["check", "--game", "party", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_families_agree_on_a_small_budget(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--examples", "8")
    assert code == 0, err
    items = " ".join(out.split("\n\n")[0].split()).split("- ")[1:]  # one statement per family, unwrapped
    assert len(items) == 3
    assert items[0].strip().endswith("the executor and the model agree")
    assert "Party games' desserts" in items[1]
    assert items[1].strip().endswith("the executor and the model agree")
    assert "turn by turn" in items[2] and items[2].strip().endswith("the two readings agree")
    assert ", 8 per property family, seed derandomized" in out
    assert "FAILED" not in out


def test_the_same_seed_gives_the_same_cases(capsys: pytest.CaptureFixture[str]) -> None:
    first = json.loads(run(capsys, "--examples", "5", "--seed", "3", "--json")[1])
    again = json.loads(run(capsys, "--examples", "5", "--seed", "3", "--json")[1])
    strip = [{k: v for k, v in p.items() if k != "seconds"} for p in first["properties"]]
    assert strip == [{k: v for k, v in p.items() if k != "seconds"} for p in again["properties"]]


def test_json_matches_the_check_result_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--examples", "4", "--menu", "sushi-go", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["ok"] is True and doc["outcome"] == "proved"
    assert [p["property"] for p in doc["properties"]] == ["party-round-scores", "party-dessert-scores",
                                                          "party-turns"]
    assert schemas.first_problem(doc, "check-result") is None


def test_a_planted_tempura_fault_is_reported_with_its_rule_id(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    honest = scoring.score_round

    def faulty(tableaux, menu, rules=scoring.DEFAULT, race=None, discarded=None):  # type: ignore[no-untyped-def]
        out = honest(tableaux, menu, rules, race, discarded)
        for seat in out.points:  # a pair pays 6, not 5 (RB p11)
            if "tempura" in seat:
                seat["tempura"] = seat["tempura"] // 5 * 6
        return out

    monkeypatch.setattr(scoring, "score_round", faulty)
    code, out, _ = run(capsys, "--examples", "30", "--menu", "sushi-go")
    assert code == 1
    assert "FAILED party-round-scores under --game party" in out
    assert "  rules:    R-PARTY-TEMPURA" in out
    assert "tempura" in out.split("case:")[1].splitlines()[0]


def test_a_planted_pudding_fault_is_reported(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    honest = scoring.score_game

    def faulty(rounds, menu, rules=scoring.DEFAULT, total_rounds=3):  # type: ignore[no-untyped-def]
        out = honest(rounds, menu, rules, total_rounds)
        bumped = tuple(p + 1 if p > 0 else p for p in out.dessert_points or ())  # most puddings 7, not 6
        return dataclasses.replace(out, dessert_points=bumped)

    monkeypatch.setattr(scoring, "score_game", faulty)
    code, out, _ = run(capsys, "--examples", "40", "--menu", "sushi-go", "--json")
    doc = json.loads(out)
    assert code == 1 and doc["ok"] is False
    rows = {p["property"]: p for p in doc["properties"]}
    assert rows["party-round-scores"]["result"] == "ok"
    assert rows["party-dessert-scores"]["result"] == "FAIL"
    assert rows["party-dessert-scores"]["failure"]["rule_ids"] == ["R-PARTY-PUDDING"]
    assert schemas.first_problem(doc, "check-result") is None


def test_a_turn_that_loses_a_card_is_reported(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    honest = party_check.play_round

    def faulty(turns, menu, *rest):  # type: ignore[no-untyped-def]
        return honest(turns[:-1] or turns, menu, *rest) if len(turns) > 1 else honest(turns, menu, *rest)

    monkeypatch.setattr(party_check, "play_round", faulty)
    code, out, _ = run(capsys, "--examples", "30")
    assert code == 1
    assert "FAILED party-turns under --game party" in out
    assert "  rules:" in out and "R-PARTY-TURNS" in out


@pytest.mark.parametrize(("argv", "says"), [
    (["--mutants"], "--mutants applies to the base game's checks only"),
    (["--only", "round-scores"], "--only applies to the base game's checks only"),
    (["--ruleset", "dutch"], "--rules/--ruleset applies"),
    (["--examples", "0"], "--examples"),
    (["--menu", "no-such-menu"], "no-such-menu"),
])
def test_options_that_do_not_apply_are_one_line_exit_2(argv: list[str], says: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_menu_without_party_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "--menu", "sushi-go"])
    err = capsys.readouterr().err
    assert code == 2 and "add --game party" in err and len(err.strip().splitlines()) == 1
