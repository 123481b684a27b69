"""Rulesets: named variants, overrides, numbers from the rulebook."""

from __future__ import annotations

import pytest
from sushigo.spec.cards import Card
from sushigo.spec.errors import RulesError
from sushigo.spec.ruleset import OFFICIAL, PARAMETERS, RULESETS, SINGLE_READING_VARIANTS, get_ruleset


def test_deck_composition_from_the_rulebook() -> None:
    # Rulebook component list: 108 cards; maki 6x1, 12x2, 8x3; 10 salmon, 5 squid, 5 egg.
    expected = {
        Card.TEMPURA: 14, Card.SASHIMI: 14, Card.DUMPLING: 14,
        Card.MAKI1: 6, Card.MAKI2: 12, Card.MAKI3: 8,
        Card.EGG: 5, Card.SALMON: 10, Card.SQUID: 5,
        Card.PUDDING: 10, Card.WASABI: 6, Card.CHOPSTICKS: 4,
    }
    assert {c: OFFICIAL.copies(c) for c in Card} == expected
    assert OFFICIAL.deck_size() == 108


def test_hand_sizes() -> None:
    assert [OFFICIAL.hand_size(n) for n in (2, 3, 4, 5)] == [10, 9, 8, 7]
    with pytest.raises(RulesError, match="2 to 5 players"):
        OFFICIAL.hand_size(6)
    assert RULESETS["dummy-2p"].hand_size(2) == 9


def test_single_reading_variants_differ_from_official_in_one_parameter() -> None:
    base = OFFICIAL.readings()
    for name in SINGLE_READING_VARIANTS:
        readings = RULESETS[name].readings()
        assert sum(readings[k] != base[k] for k in base) == 1, name


def test_every_reading_has_a_named_ruleset() -> None:
    for p in PARAMETERS:
        values = {getattr(r, p.name) for r in RULESETS.values()}
        assert values == set(p.values), p.name


def test_overrides() -> None:
    r = get_ruleset("official", ["maki_first_tie=each", "pudding-penalty-2p=yes"])
    assert r.maki_first_tie == "each" and r.pudding_penalty_2p is True
    assert "maki_first_tie=each" in r.name


@pytest.mark.parametrize(
    ("name", "overrides", "message"),
    [
        ("oficial", [], "did you mean 'official'"),
        ("official", ["maki_first_tie=double"], "choose one of split, each, half"),
        ("official", ["nonsense=1"], "unknown rule parameter"),
        ("official", ["maki_first_tie"], "NAME=VALUE"),
        ("official", ["pudding_penalty_2p=maybe"], "choose one of no, yes"),
    ],
)
def test_bad_rules(name: str, overrides: list[str], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        get_ruleset(name, overrides)


def test_pass_both_ways_passes_right_in_round_two() -> None:
    r = RULESETS["pass-both-ways"]
    assert [r.pass_offset(i) for i in range(3)] == [1, -1, 1]
    assert [OFFICIAL.pass_offset(i) for i in range(3)] == [1, 1, 1]
