"""The rule catalogue covers every rule id, and its constraint counts are the model's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import sushigo.checks
import sushigo.solver
import sushigo.spec
from sushigo.spec.model.catalogue import RULE_CATALOGUE, constraint_counts
from sushigo.spec.model.game import build_game
from sushigo.spec.party.catalogue import PARTY_CATALOGUE
from sushigo.spec.ruleset import PARAMETERS, RULESETS

import sushigo

# Where each package's source lives: the repository's folders in a development install, the
# installed package in a wheel install.
PACKAGE_DIRS = [Path(m.__file__).parent for m in (sushigo.spec, sushigo.solver, sushigo.checks, sushigo)]
RULE_ID = re.compile(r"\bR-[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*\b")


def test_every_rule_id_in_the_source_is_catalogued() -> None:
    found: set[str] = set()
    for folder in PACKAGE_DIRS:
        for path in folder.rglob("*.py"):
            found |= set(RULE_ID.findall(path.read_text(encoding="utf-8")))
    assert found, "no rule ids found: the scan is broken"
    party = {rid for rid in found if rid.startswith("R-PARTY-")}
    assert party, "no Party rule ids found: the scan is broken"
    assert sorted(party - set(PARTY_CATALOGUE)) == []
    assert sorted(found - party - set(RULE_CATALOGUE)) == []


def test_party_statements() -> None:
    assert not set(PARTY_CATALOGUE) & set(RULE_CATALOGUE)
    for rid, text in PARTY_CATALOGUE.items():
        assert rid.startswith("R-PARTY-") and text and "\n" not in text and text.endswith("."), rid


def test_parameters_and_statements() -> None:
    assert {p.rule_id for p in PARAMETERS} <= set(RULE_CATALOGUE)
    for rid, text in RULE_CATALOGUE.items():
        assert text and "\n" not in text and text.endswith("."), rid


@pytest.mark.parametrize(("name", "players"), [("official", 3), ("wasabi-strict", 2), ("dutch", 5),
                                               ("pass-both-ways", 4), ("dummy-2p", 2)])
def test_counts_are_the_model_groups(name: str, players: int) -> None:
    rules = RULESETS[name]
    m = build_game(rules, players).model
    want: dict[str, int] = {}
    for rid, _, cs in m.groups:
        want[rid] = want.get(rid, 0) + len(cs)
    assert constraint_counts(rules, players) == want
    assert set(want) <= set(RULE_CATALOGUE)
    # Readings that change the turn rules change which constraints exist.
    if name == "wasabi-strict":
        assert want["R-WASABI-SAME-TURN"] > 0
    else:
        assert "R-WASABI-SAME-TURN" not in want


def test_counts_for_every_named_ruleset() -> None:
    for name, rules in RULESETS.items():
        counts = constraint_counts(rules, 2 if rules.dummy_2p else 4)
        assert counts["R-MAKI-TIE-FIRST"] > 0 and counts["R-WINNER-TIE"] > 0, name
        assert set(counts) <= set(RULE_CATALOGUE), name
    assert "R-WASABI-PLACE" not in constraint_counts(RULESETS["wasabi-optional"], 4)
    with pytest.raises(ValueError, match="players"):
        constraint_counts(RULESETS["official"], 7)


def test_named_variables() -> None:
    gm = build_game(RULESETS["official"], 3)
    m = gm.model
    for name in ("p2_r1_t3_pick_squid", "p2_r1_t3_pick_wasabi_squid", "p2_r1_t3_pick2_tempura",
                 "p0_r2_t0_hand_maki3", "p1_r0_t4_chopsticks", "p0_r1_t9_tab_pudding", "p0_puddings",
                 "r2_p0_maki_icons", "p0_game_total"):
        assert name in m.vars, name
    for name in ("p0_r2_maki_icons", "p0_r2_total", "p0_r2_maki_points", "p0_r2_final_pudding"):
        assert name in m.terms, name
    assert "r1_pass_left" in m.bools and "game_p0_wins" in m.bools
    assert gm.model.size()[0] == len(m.vars) + len(m.bools)
