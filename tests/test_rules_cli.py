"""``sushigo rules`` end to end through ``sushigo.cli.main``."""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest
from sushigo.spec.ruleset import PARAMETERS, RULESETS, SINGLE_READING_VARIANTS, format_value

from sushigo.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["rules", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def rules_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def _catalogue_module() -> Any:
    try:
        return importlib.import_module("sushigo.spec.model.catalogue")
    except ImportError:
        return None


def test_default_view_has_every_parameter_text_and_variant(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys)
    assert code == 0 and err == ""
    for p in PARAMETERS:
        assert p.name in out and p.rule_id in out
    for name in ("official", "english", "slovenian", "french", "dutch"):
        assert name in out.splitlines()[1]  # the header row of the first table
    for name in SINGLE_READING_VARIANTS:
        assert f"\n{name} " in out
    for language in ("English", "Slovenian", "French", "Dutch"):
        assert language in out
    assert "108" in out and "rule numbers" in out


def test_text_table_values_match_the_rulesets(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "official", "dutch", "slovenian")
    lines = out.splitlines()
    assert lines[1].split() == ["parameter", "official", "dutch", "slovenian"]
    rows = {line.split()[0]: line.split()[1:] for line in lines[3:3 + len(PARAMETERS)]}
    for p in PARAMETERS:
        assert rows[p.name] == [
            format_value(getattr(RULESETS[n], p.name)) for n in ("official", "dutch", "slovenian")
        ]


def test_variant_table_lists_exactly_the_changed_reading(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys)
    line = next(x for x in out.splitlines() if x.startswith("pudding-floor "))
    assert line.split()[1:] == ["pudding_penalty_rounding=toward-minus-infinity"]
    line = next(x for x in out.splitlines() if x.startswith("dummy-2p "))
    assert line.split()[1:] == ["dummy_2p=yes"]


def test_all_shows_every_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--all")
    assert code == 0
    assert out.splitlines()[1].split() == ["parameter", *RULESETS]


def test_json_every_parameter_value_and_support(capsys: pytest.CaptureFixture[str]) -> None:
    data = rules_json(capsys, "--all")
    assert [p["name"] for p in data["parameters"]] == [p.name for p in PARAMETERS]
    for entry, param in zip(data["parameters"], PARAMETERS, strict=True):
        assert entry["values"] == list(param.values)
        supported = [s["value"] for s in entry["support"]]
        assert sorted(map(str, supported)) == sorted(map(str, param.values)), param.name
        assert all(s["texts"] for s in entry["support"])
        for name, rules in RULESETS.items():
            assert entry["rulesets"][name] == getattr(rules, param.name)
    assert [r["name"] for r in data["rulesets"]] == list(RULESETS)
    deck = data["numbers"]["deck"]
    assert sum(deck) == 108 and deck[3:6] == [6, 12, 8]  # maki1, maki2, maki3 (rulebook)
    assert data["catalogue"] is None  # only with --catalogue


def test_unknown_ruleset_suggests(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "frnch")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "did you mean 'french'" in err


def test_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--catalogue", "--players", "6")
    assert code == 2 and "2 to 5 players" in err


def test_catalogue(capsys: pytest.CaptureFixture[str]) -> None:
    module = _catalogue_module()
    code, out, err = run(capsys, "--catalogue")
    assert code == 0, err
    data = rules_json(capsys, "--catalogue", "official", "wasabi-optional")
    if module is None:
        assert "not available" in out and len(out.strip().splitlines()) == 1
        assert data["catalogue"] is None and "not available" in data["note"]
        return
    ids = list(module.RULE_CATALOGUE)
    for rule_id in ids:
        assert rule_id in out
    assert [r["id"] for r in data["catalogue"]["rules"]][: len(ids)] == ids
    want = module.constraint_counts(RULESETS["wasabi-optional"], 4)
    for item in data["catalogue"]["rules"]:
        assert item["constraints"]["wasabi-optional"] == want.get(item["id"], 0)
