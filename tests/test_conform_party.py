"""``sushigo conform --game party`` (issue 28 item 5): a user's Party scorer held to the reference.

tests/adapters/party_good.py is a second Party scorer written from the rulebook apart from the
toolkit (it imports none of it); the party_*.py adapters beside it each plant one public
implementation's known mistake (PARTY.md 4.9). The expected values of the reported cases are
worked by hand from the rulebook pages named beside them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from sushigo.checks.conform import party as P
from sushigo.spec.party.menus import parse_menu
from sushigo.spec.party.readings import DEFAULT

from sushigo.cli import main

ROOT = Path(__file__).resolve().parent.parent
ADAPTERS = ROOT / "tests" / "adapters"
FAST = ["--examples", "60", "--json"]


def _run(name: str, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict[str, Any]]:
    code = main(["conform", "--game", "party", str(ADAPTERS / name), *FAST, *extra])
    return code, json.loads(capsys.readouterr().out)


def _faults(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["category"]: f for f in report["faults"]}


def test_the_correct_party_scorer_conforms(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _run("party_good.py", capsys)
    assert code == 0 and report["verdict"] == "conforms" and report["conforms"] is True
    assert report["game"] == "party" and report["pudding_checked"] is True
    assert report["faults"] == [] and report["adapter_faults"] == []
    assert report["round_cases_run"] == report["round_cases"] > 60
    seen = [r for r in report["fingerprint"] if r["evidence"] != "no discriminating case"]
    assert seen and all(r["follows"] == r["reference"] for r in seen)


def test_the_correct_scorer_agrees_with_the_reference_on_every_generated_case() -> None:
    """Two implementations, one from the toolkit's kinds, one from the rulebook's pages."""
    sys.path.insert(0, str(ADAPTERS))
    import party_good as good

    cases = P.round_cases(DEFAULT, 400, 5, lambda: False) + P.dessert_cases(DEFAULT, 100, 5, lambda: False)
    assert {c.form for c in cases} == {"tableaux", "turns", "desserts"}
    assert {c.players for c in cases} == set(range(2, 9))
    ref = P.Scorer(DEFAULT)
    for c in cases:
        req = c.request(parse_menu(c.menu))
        got = good.score_party_desserts(req) if c.form == "desserts" else good.score_party_round(req)
        assert got == ref.total(c), str(c)


@pytest.mark.parametrize(("adapter", "category", "pitfall", "rule", "case", "expected", "got"), [
    # RB p8: with 2-5 players maki pays 6 / 3; [MLY] pays 6 / 4 / 2 at every count
    ("party_maki_642.py", "maki", "maki-6-4-2-always", "R-PARTY-MAKI",
     "menu sushi-go, tableaux maki2 | maki1", [6, 3], [6, 4]),
    # RB p9: uramaki left at round end take the next unpaid place, 8 when none was paid; [BRI] 10
    ("party_uramaki_10852.py", "uramaki", "uramaki-10-8-5-2", "R-PARTY-URAMAKI",
     "menu dinner-for-two, tableaux - | uramaki4", [0, 8], [0, 10]),
    # RB p11: 5 a pair, the third card scores nothing; [BRI] scores only an exact multiple
    ("party_tempura_exact.py", "tempura", "tempura-exact", "R-PARTY-TEMPURA",
     "menu sushi-go, tableaux - | tempura tempura tempura", [0, 5], [0, 0]),
    # RB p10: 1 a card per opponent holding edamame: 2 cards x 1 holder, 1 card x 1 holder;
    # [RYS] counts the opponents' 2 cards for the single card
    ("party_edamame_cards.py", "edamame", "edamame-opponent-cards", "R-PARTY-EDAMAME",
     "menu points-platter, tableaux edamame edamame | edamame | -", [2, 1, 0], [2, 2, 0]),
])
def test_each_public_mistake_is_caught_minimised_and_named(
        adapter: str, category: str, pitfall: str, rule: str, case: str, expected: list[int], got: list[int],
        capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _run(adapter, capsys)
    assert code == 1 and report["verdict"] == "faults"
    assert list(_faults(report)) == [category]
    f = _faults(report)[category]
    assert f["rule_ids"] == [rule]
    assert f["attribution"]["method"] == "pitfall" and f["attribution"]["by"] == pitfall
    assert (f["case"], f["expected"], f["got"]) == (case, expected, got)
    assert report["adapter_faults"] == []


def test_independent_faults_and_a_reading_are_told_apart(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _run("party_two_faults.py", capsys)
    assert code == 1 and report["pudding_checked"] is False
    faults = _faults(report)
    assert list(faults) == ["temaki", "maki", "eel"]
    # RB p8: two players, no temaki: both are most and fewest, +4 each with 2 players (no penalty)
    temaki = faults["temaki"]
    assert temaki["attribution"]["method"] == "reading"
    assert temaki["attribution"]["by"] == "temaki_all_tied=nothing"
    assert (temaki["expected"], temaki["got"]) == ([4, 4], [0, 0])
    # RB p10: two or more eel score 7; [RYS] 5
    eel = faults["eel"]
    assert eel["attribution"]["by"] == "eel-5" and eel["rule_ids"] == ["R-PARTY-EEL"]
    assert [e - g for e, g in zip(eel["expected"], eel["got"], strict=True)].count(2) == 1
    rows = {r["parameter"]: r for r in report["fingerprint"]}
    assert rows["temaki_all_tied"]["follows"] == "nothing"


def test_the_planted_uramaki_mistake_reaches_the_race() -> None:
    """RB p9's example: two players reach 12 in one turn, both 8, 5 is never paid, the third's
    11 takes 2; under [BRI]'s 10 / 8 / 5 / 2 the two take 10 and the third 5."""
    race = P.turn_edges()[0]
    assert P.Scorer(DEFAULT).total(race) == [8, 8, 2]
    bri = next(p for p in P.PITFALLS if p.name == "uramaki-10-8-5-2")
    assert P.Scorer(DEFAULT, (("uramaki", bri.scoring),)).total(race) == [10, 10, 5]


def test_a_hostile_party_adapter_is_reported_per_fault(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _run("party_hostile.py", capsys, "--call-timeout", "0.3")
    assert code == 1
    kinds = {a["kind"]: a for a in report["adapter_faults"]}
    assert {"raised", "wrong type", "printed", "timed out"} <= set(kinds)
    assert "onigiri" in kinds["raised"]["case"] and "KeyError" in kinds["raised"]["detail"]
    assert "eel" in kinds["wrong type"]["case"] and "sashimi" in kinds["printed"]["case"]


def test_cases_stay_on_the_chosen_menu(capsys: pytest.CaptureFixture[str]) -> None:
    cases = P.round_cases(DEFAULT, 50, None, lambda: False, parse_menu("points-platter"))
    assert {c.menu for c in cases} == {"points-platter"}
    assert {c.players for c in cases} == {3, 4, 5, 6}  # edamame needs 3, special order 6 or fewer
    code, report = _run("party_good.py", capsys, "--menu", "points-platter")
    assert code == 0 and report["menu"] == "points-platter"


def test_the_request_an_adapter_gets() -> None:
    case = P.edge_cases()[0]
    assert case.request(parse_menu(case.menu)) == {
        "menu": "sushi-go", "kinds": ["nigiri", "maki", "tempura", "sashimi", "dumpling", "chopsticks",
                                      "wasabi", "pudding"],
        "players": 4, "tableaux": [["maki2", "maki3"], ["maki1", "maki2", "maki2"], ["maki3"], ["maki1"]]}


@pytest.mark.parametrize("args", [
    ["nope.py"],
    ["party_no_function.py"],
    ["party_good.py", "--rules", "french"],
    ["party_good.py", "--jobs", "2"],
    ["party_good.py", "--menu", "sushi-goo"],
    ["party_good.py", "--rule", "edamame_cap=rond"],
    ["party_good.py", "--examples", "0"],
    ["party_good.py", "--game", "base", "--menu", "sushi-go"],
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    target, *rest = args
    assert main(["conform", "--game", "party", str(ADAPTERS / target), *rest]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sushigo conform: error: ")
