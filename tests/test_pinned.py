"""Every pinned position (spec/data/pinned.json) under every named ruleset.

The expected values in the data file were worked by hand from the rules; each
case names its source and shows its arithmetic in "why".
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
import sushigo.spec as spec
from hypothesis import given, settings
from hypothesis import strategies as st
from sushigo.spec.cards import Card
from sushigo.spec.document import check_rounds
from sushigo.spec.ruleset import OFFICIAL, PARAMETER_BY_NAME, PARAMETERS, RULESETS, Effect, Ruleset
from sushigo.spec.scoring import (
    CATEGORIES,
    maki_points,
    pudding_points,
    round_totals,
    score_game,
    score_round,
    winners,
)
from sushigo.spec.tableau import N_TOKENS, Tableau, parse_tableau

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
SCORING_PARAMETERS = tuple(p.name for p in PARAMETERS if p.effect is Effect.SCORING)


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


# --- the fast scorer against a naive one written here --------------------------------
# spec.scoring.round_totals and maki_points are optimised (precomputed share tables,
# sorted ranks); this independent, deliberately plain scorer pins their results.

_DISH_TOKENS = {
    "egg": ("egg", 1), "salmon": ("salmon", 1), "squid": ("squid", 1),
    "wasabi+egg": ("egg", 3), "wasabi+salmon": ("salmon", 3), "wasabi+squid": ("squid", 3),
}


def naive_maki(icons: list[int], rules: Ruleset) -> list[int]:
    out = [0] * len(icons)
    places = sorted({v for v in icons if v > 0}, reverse=True)
    if not places:
        return out
    leaders = [k for k, v in enumerate(icons) if v == places[0]]
    if len(leaders) == 1:
        out[leaders[0]] = rules.maki_first_points
        if len(places) > 1:
            seconds = [k for k, v in enumerate(icons) if v == places[1]]
            for k in seconds:
                if rules.maki_second_tie == "each":
                    out[k] = rules.maki_second_points
                else:
                    out[k] = math.floor(rules.maki_second_points / len(seconds))
        return out
    for k in leaders:
        if rules.maki_first_tie == "each":
            out[k] = rules.maki_first_points
        elif rules.maki_first_tie == "half":
            out[k] = math.floor(rules.maki_first_points / 2)
        else:
            out[k] = math.floor(rules.maki_first_points / len(leaders))
    return out


def naive_round(tableaux: list[Tableau], rules: Ruleset) -> list[int]:
    nigiri_value = dict(zip(("egg", "salmon", "squid"), rules.nigiri_points, strict=True))
    icon_value = dict(zip(("maki1", "maki2", "maki3"), rules.maki_icons, strict=True))
    totals, icons = [], []
    for t in tableaux:
        names = [tok.label for tok in t.tokens()]
        points = (names.count("tempura") // rules.tempura_set) * rules.tempura_points
        points += (names.count("sashimi") // rules.sashimi_set) * rules.sashimi_points
        dumplings = names.count("dumpling")
        points += rules.dumpling_points[min(dumplings, len(rules.dumpling_points) - 1)]
        for name in names:
            if name in _DISH_TOKENS:
                nigiri, factor = _DISH_TOKENS[name]
                points += nigiri_value[nigiri] * (rules.wasabi_multiplier if factor > 1 else 1)
        totals.append(points)
        icons.append(sum(icon_value.get(name, 0) for name in names))
    return [p + m for p, m in zip(totals, naive_maki(icons, rules), strict=True)]


_token_counts = st.lists(st.integers(0, 4), min_size=N_TOKENS, max_size=N_TOKENS)


@settings(max_examples=300)
@given(
    seats=st.lists(_token_counts, min_size=1, max_size=6),
    ruleset=st.sampled_from(list(RULESETS)),
)
def test_fast_scoring_matches_naive(seats: list[list[int]], ruleset: str) -> None:
    rules = RULESETS[ruleset]
    tableaux = [Tableau(tuple(c)) for c in seats]
    want = naive_round(tableaux, rules)
    assert round_totals([t.counts for t in tableaux], rules) == want
    assert [s.total for s in score_round(tableaux, rules)] == want


@settings(max_examples=300)
@given(
    icons=st.lists(st.integers(0, 8), min_size=0, max_size=6),
    ruleset=st.sampled_from(list(RULESETS)),
)
def test_maki_points_match_naive(icons: list[int], ruleset: str) -> None:
    rules = RULESETS[ruleset]
    assert maki_points(icons, rules) == naive_maki(icons, rules)


def test_maki_points_ties_hand_checked() -> None:
    # Shapes where fast paths branch: lone leader with lone/tied/no second, tied leaders.
    assert maki_points([4, 0, 0], OFFICIAL) == [6, 0, 0]
    assert maki_points([2, 4, 2], OFFICIAL) == [1, 6, 1]
    assert maki_points([3, 3], OFFICIAL) == [3, 3]
    assert maki_points([0, 0], OFFICIAL) == [0, 0]
    assert maki_points([7], OFFICIAL) == [6]
    assert maki_points([], OFFICIAL) == []
