"""Readings as data: every contested reading is declared once, in ``spec.ruleset.PARAMETERS``.

These tests fail when a parameter lacks any of its metadata, when a list elsewhere in the
toolkit misses a parameter or a value, when a reading's helper silently takes a value it
does not know, and when ``diff`` cannot tell a single-reading variant from official (or
claims two rulesets agree on a parameter no search of its looked at).
"""

from __future__ import annotations

import enum
import json
from typing import Any

import jsonschema
import pytest
import sushigo.solver.diff as diff_module
import sushigo.solver.diff.parameters as diff_parameters
from sushigo.checks.conform.pitfalls import PUDDING_READINGS, ROUND_READINGS
from sushigo.checks.properties import all_properties
from sushigo.checks.runner import EDGE_NAMES
from sushigo.solver.scoresheet import RULE_WORDS
from sushigo.spec.errors import RulesError
from sushigo.spec.model.catalogue import RULE_CATALOGUE, constraint_counts
from sushigo.spec.ruleset import (
    OFFICIAL,
    PARAMETERS,
    RULESETS,
    SINGLE_READING_VARIANTS,
    Effect,
    Observability,
    Parameter,
    Ruleset,
)

# The rule texts a support note may cite (RULES.md: the four texts and the printed rulebook),
# or the admission that no text says it.
SOURCES = ("English", "Slovenian", "French", "Dutch", "rulebook", "Rulebook", "All four texts",
           "No text", "Not covered by any text")

VARIANTS: list[tuple[str, Any]] = [
    (p.name, v) for p in PARAMETERS for v in p.values if v != getattr(OFFICIAL, p.name)
]


def _id(case: tuple[str, Any]) -> str:
    return f"{case[0]}={case[1]}"


# --------------------------------------------------------------------------- the table itself


@pytest.mark.parametrize("param", PARAMETERS, ids=lambda p: p.name)
def test_parameter_has_every_piece_of_metadata(param: Parameter) -> None:
    # the values: one enumeration (a StrEnum, or the two booleans), the official one among them
    assert len(param.values) >= 2
    if all(type(v) is bool for v in param.values):
        assert set(param.values) == {False, True}
    else:
        kinds = {type(v) for v in param.values}
        assert len(kinds) == 1 and issubclass(kinds.pop(), enum.StrEnum)
        assert param.values == tuple(type(param.values[0]))
    assert getattr(OFFICIAL, param.name) in param.values
    # rule ids, each stated in the catalogue
    assert param.rule_ids and param.rule_ids[0] == param.rule_id
    for rid in param.rule_ids:
        assert rid.startswith("R-") and rid in RULE_CATALOGUE, rid
    # support: every value exactly once, each citing a text (or saying none says it)
    assert [v for v, _ in param.support] == list(param.values)
    for value, texts in param.support:
        assert any(src in texts for src in SOURCES), (param.name, value, texts)
    # observability, effect, the check that exercises it, its catalogue line
    assert isinstance(param.observability, Observability)
    assert param.observable == (param.observability is not Observability.NONE)
    assert isinstance(param.effect, Effect)
    assert param.check_family in {*EDGE_NAMES, *(p.name for p in all_properties())}
    assert param.statement and param.question


@pytest.mark.parametrize("name, value", [pytest.param(n, v, id=_id((n, v))) for n, v in VARIANTS])
def test_every_value_has_a_named_single_reading_variant(name: str, value: Any) -> None:
    named = [n for n in SINGLE_READING_VARIANTS if getattr(RULESETS[n], name) == value]
    assert named, f"no named variant of official reads {name}={value}"
    for n in named:
        diffs = {p.name for p in PARAMETERS if getattr(RULESETS[n], p.name) != getattr(OFFICIAL, p.name)}
        assert diffs == {name}, n


def test_a_value_outside_the_enumeration_is_refused() -> None:
    for p in PARAMETERS:
        with pytest.raises(RulesError, match=p.name):
            Ruleset(**{p.name: "no-such-reading"})
    # a text becomes the enum member, so Ruleset values compare and hash alike either way
    assert Ruleset(maki_first_tie="each") == RULESETS["maki-first-each"].replace(name="official")


# Every helper that decides a reading must refuse a value it does not know (assert_never),
# not fall into another value's branch as an `else` would.
_DECIDERS: dict[str, Any] = {
    "maki_first_tie": lambda r: r.maki_share(True, 2),
    "maki_second_tie": lambda r: r.maki_share(False, 2),
    "pudding_penalty_rounding": lambda r: r.penalty_share(4),
    "pudding_all_tied": lambda r: r.all_tied_score_nothing,
    "wasabi_placement": lambda r: r.wasabi_automatic,
    "winner_tie": lambda r: r.tied_winners_share,
    "passing": lambda r: r.pass_offset(1),
}


@pytest.mark.parametrize("name", sorted(_DECIDERS))
def test_a_smuggled_unknown_value_is_not_silently_read_as_another(name: str) -> None:
    rules = Ruleset()
    object.__setattr__(rules, name, "a-new-reading")  # past __post_init__'s check
    with pytest.raises(AssertionError):
        _DECIDERS[name](rules)


def test_every_enumerated_reading_has_an_exhaustive_decider() -> None:
    enumerated = {p.name for p in PARAMETERS if not isinstance(p.values[0], bool)}
    assert enumerated == set(_DECIDERS)


def test_helpers_give_the_rule_texts_numbers() -> None:
    """Hand-worked from RULES.md's disagreement table (6 first-place points, 3 second, 6 penalty)."""
    r = RULESETS
    assert [OFFICIAL.maki_share(True, k) for k in (2, 3, 4)] == [3, 2, 1]  # English: split, rounded down
    assert r["french"].maki_share(True, 3) == 6 and r["french"].maki_share(False, 2) == 3  # French: each
    assert r["dutch"].maki_share(True, 2) == 3  # Dutch: "these players get 3"
    assert OFFICIAL.maki_share(False, 2) == 1  # English: split the 3
    assert OFFICIAL.penalty_share(4) == -1 and r["slovenian"].penalty_share(4) == -2
    assert OFFICIAL.penalty_share(3) == -2 and r["slovenian"].penalty_share(3) == -2
    assert [r["pass-both-ways"].pass_offset(k) for k in range(3)] == [1, -1, 1]
    # a place held alone is no tie: full points under every reading (the Z3 model relies on it)
    for rules in RULESETS.values():
        assert (rules.maki_share(True, 1), rules.maki_share(False, 1)) == (6, 3), rules.name


# --------------------------------------------------------------------------- derived lists


def test_catalogue_states_every_reading_after_the_rule_it_follows() -> None:
    ids = list(RULE_CATALOGUE)
    for p in PARAMETERS:
        assert RULE_CATALOGUE[p.rule_id] == p.statement
        assert ids.index(p.rule_id) > ids.index(p.listed_after)
    # and the model encodes each reading's rule: a 4-player game (2 for the dummy) has its constraints
    for p in PARAMETERS:
        rules = OFFICIAL.replace(**{p.name: p.values[-1]})
        counts = constraint_counts(rules, 2 if rules.dummy_2p else 4)
        assert counts.get(p.rule_id, 0) > 0 or p.name in ("wasabi_same_turn", "wasabi_placement"), p.name


def test_diff_searches_every_parameter_exactly_once() -> None:
    lists = (diff_parameters.SCORING_PARAMS, diff_parameters.PICK_PARAMS, diff_parameters.DEAL_PARAMS)
    names = [n for lst in lists for n in lst]
    assert sorted(names) == sorted(p.name for p in PARAMETERS)


def test_conform_fingerprint_reads_every_observable_reading() -> None:
    observable = {p.name for p in PARAMETERS if p.observable}
    assert set(ROUND_READINGS) | set(PUDDING_READINGS) == observable
    assert not set(ROUND_READINGS) & set(PUDDING_READINGS)


def test_scoresheet_explains_readings_in_their_parameters_words() -> None:
    for p in PARAMETERS:
        if p.words is not None:
            assert RULE_WORDS[p.rule_id] == p.words


def test_rules_json_shows_every_parameters_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    from sushigo.cli import main
    from sushigo.schemas import load_schema

    assert main(["rules", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    jsonschema.validate(data, load_schema("rules-result"))
    shown = {e["name"]: e for e in data["parameters"]}
    assert list(shown) == [p.name for p in PARAMETERS]
    for p in PARAMETERS:
        e = shown[p.name]
        assert e["rule_ids"] == list(p.rule_ids) and e["rule_ids"][0] == e["rule_id"]
        assert [s["value"] for s in e["support"]] == list(p.values)
        assert e["observable"] is p.observable and e["observability"] == p.observability.value
        assert e["check_family"] == p.check_family and e["effect"] == p.effect.value


# --------------------------------------------------------------------------- diff over the table

# Measured here (2 cores shared with other jobs): these searches take 4-7 s each; the
# other single-reading variants well under 2 s.
_SLOW = {("maki_first_tie", "half"), ("maki_second_tie", "each"),
         ("pudding_penalty_rounding", "toward-minus-infinity")}


def _variant_cases() -> list[Any]:
    return [pytest.param(n, v, id=_id((n, v)), marks=[pytest.mark.slow] if (n, v) in _SLOW else [])
            for n, v in VARIANTS]


@pytest.mark.parametrize("name, value", _variant_cases())
def test_diff_finds_a_witness_for_every_single_reading_variant(name: str, value: Any) -> None:
    variant = OFFICIAL.replace(name=f"official-{name}", **{name: value})
    res = diff_module.diff(OFFICIAL, variant, extend=False, timeout_ms=600_000)
    assert res.status == "differ", res.reason
    assert res.witness is not None and res.witness.causes == (name,)
    assert any(r.differs for r in res.witness.rows)
    assert name in res.covered
    assert res.as_json()["covered_parameters"] == list(res.covered)


@pytest.mark.parametrize("param", PARAMETERS, ids=lambda p: p.name)
def test_diff_does_not_claim_agreement_on_a_parameter_it_did_not_search(
    param: Parameter, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Take the parameter out of diff's list, as a stale side list would: with no search
    # looking at it, the answer must be unknown, never "equivalent". Every search reads the
    # lists from solver/diff/parameters.py, so that is the module to patch.
    for attr in ("SCORING_PARAMS", "PICK_PARAMS", "DEAL_PARAMS"):
        kept = tuple(n for n in getattr(diff_parameters, attr) if n != param.name)
        monkeypatch.setattr(diff_parameters, attr, kept)
    other = next(v for v in param.values if v != getattr(OFFICIAL, param.name))
    res = diff_module.diff(OFFICIAL, OFFICIAL.replace(**{param.name: other}), extend=False)
    assert res.status == "unknown"
    assert param.name in res.reason and param.name not in res.covered


def test_diff_reports_which_parameters_an_agreement_covers() -> None:
    res = diff_module.diff(OFFICIAL, RULESETS["english"], players=[2], extend=False, timeout_ms=600_000)
    assert res.status == "equivalent"
    assert set(res.covered) == set(diff_parameters.SCORING_PARAMS)


def test_rules_text_shows_every_parameters_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    from sushigo.cli import main

    assert main(["rules"]) == 0
    text = " ".join(capsys.readouterr().out.split())  # undo the wrapping
    for p in PARAMETERS:
        assert f"(rule ids {', '.join(p.rule_ids)}; acts on {p.effect.value};" in text, p.name
        assert f"exercised by sushigo check --only {p.check_family})" in text, p.name
