"""Every pinned position (spec/data/pinned.json) under every named ruleset.

The expected values in the data file were worked by hand from the rules; each
case names its source and shows its arithmetic in "why".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import spec
from spec.cards import Card
from spec.document import check_rounds
from spec.ruleset import OFFICIAL, PARAMETER_BY_NAME, RULESETS, Ruleset
from spec.scoring import CATEGORIES, pudding_points, round_totals, score_game, score_round, winners
from spec.tableau import parse_tableau

PINNED = Path(spec.__file__).parent / "data" / "pinned.json"
DATA: dict[str, Any] = json.loads(PINNED.read_text(encoding="utf-8"))
CASES: list[dict[str, Any]] = DATA["cases"]
KINDS = {"round", "pudding", "game", "deck", "winners"}


def expected(case: dict[str, Any], ruleset: str) -> dict[str, Any]:
    exp: dict[str, Any] = case["expect"].get(ruleset, case["expect"]["default"])
    return exp


def evaluate(case: dict[str, Any], rules: Ruleset) -> dict[str, Any]:
    """What spec.scoring (and spec.ruleset for the deck) says about the case's input."""
    kind, inp = case["kind"], case["input"]
    if kind == "round":
        tableaux = [parse_tableau(t) for t in inp["tableaux"]]
        scores = score_round(tableaux, rules)
        out: dict[str, Any] = {c: [getattr(s, c) for s in scores] for c in CATEGORIES}
        out["totals"] = [s.total for s in scores]
        return out
    if kind == "pudding":
        return {"pudding": pudding_points(inp["puddings"], rules)}
    if kind == "winners":
        return {"winners": winners(inp["totals"], inp["puddings"], rules)}
    if kind == "game":
        game = score_game([[parse_tableau(t) for t in r] for r in inp["rounds"]], rules)
        return {
            "pudding": None if game.pudding is None else list(game.pudding),
            "totals": list(game.totals),
            "winners": list(game.winners),
        }
    assert kind == "deck"
    sizes = range(2, 6) if not rules.dummy_2p else range(2, 3)
    return {
        "counts": {c.label: rules.copies(c) for c in Card},
        "total": rules.deck_size(),
        "hand_sizes": {str(n): rules.hand_size(n) for n in sizes},
        "seats": {str(n): rules.seats(n) for n in sizes},
    }


@pytest.mark.parametrize("ruleset", list(RULESETS))
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_pinned_case(case: dict[str, Any], ruleset: str) -> None:
    rules = RULESETS[ruleset]
    exp = expected(case, ruleset)
    got = evaluate(case, rules)
    for key, value in exp.items():
        assert got[key] == value, f"{case['id']} under {ruleset}: {key} {got[key]} != {value}"


@pytest.mark.parametrize("ruleset", list(RULESETS))
@pytest.mark.parametrize(
    "case", [c for c in CASES if c["kind"] == "round"], ids=lambda c: c["id"]
)
def test_fast_round_totals_match_pinned(case: dict[str, Any], ruleset: str) -> None:
    rules = RULESETS[ruleset]
    counts = [parse_tableau(t).counts for t in case["input"]["tableaux"]]
    assert round_totals(counts, rules) == expected(case, ruleset)["totals"]


def test_data_file_is_well_formed() -> None:
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    for case in CASES:
        assert case["kind"] in KINDS, case["id"]
        assert case["source"].strip() and case["why"].strip(), case["id"]
        assert "default" in case["expect"], case["id"]
        unknown = set(case["expect"]) - {"default"} - set(RULESETS)
        assert not unknown, f"{case['id']}: unknown rulesets {unknown}"


@pytest.mark.parametrize(
    "case", [c for c in CASES if c["kind"] in ("round", "game")], ids=lambda c: c["id"]
)
def test_inputs_are_legal_documents(case: dict[str, Any]) -> None:
    """Every pinned round and game could be a real one: deck limits, hand sizes, player counts."""
    inp = case["input"]
    rounds = [inp["tableaux"]] if case["kind"] == "round" else inp["rounds"]
    check_rounds([[parse_tableau(t) for t in r] for r in rounds], OFFICIAL)


# Parameters whose readings change how a final position scores; each reading of each
# must be pinned by at least one case whose expectation differs from official's.
SCORING_PARAMETERS = (
    "maki_first_tie",
    "maki_second_tie",
    "pudding_penalty_rounding",
    "pudding_all_tied",
    "pudding_penalty_2p",
    "winner_tie",
    "dummy_2p",
)


@pytest.mark.parametrize("name", SCORING_PARAMETERS)
def test_every_scoring_reading_is_pinned(name: str) -> None:
    param = PARAMETER_BY_NAME[name]
    for value in param.values:
        if value == getattr(OFFICIAL, name):
            continue
        users = [n for n, r in RULESETS.items() if getattr(r, name) == value]
        distinguishing = [
            c["id"]
            for c in CASES
            for n in users
            if n in c["expect"] and c["expect"][n] != c["expect"]["default"]
        ]
        assert distinguishing, f"no pinned case tells {name}={value} apart from official"
