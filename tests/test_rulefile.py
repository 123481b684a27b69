"""Rulesets as TOML files (spec/rulefile.py): export, load, extends, errors, the schema.

Expected values come from hand-written files and the named rulesets of spec/ruleset/named.py, and
scores from the rulebook (a tempura pair, a nigiri's points), never from the loader itself."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from sushigo.spec.cards import Card
from sushigo.spec.errors import RulesError, SushiGoError
from sushigo.spec.rulefile import load_rules_file, rules_value, ruleset_from_value, to_toml
from sushigo.spec.ruleset import OFFICIAL, RULESETS, get_ruleset

from sushigo.cli import main
from sushigo.schemas import first_problem

# The printed deck (rulebook component list): kind -> copies.
PRINTED_DECK = {"tempura": 14, "sashimi": 14, "dumpling": 14, "maki1": 6, "maki2": 12, "maki3": 8,
                "egg": 5, "salmon": 10, "squid": 5, "pudding": 10, "wasabi": 6, "chopsticks": 4}


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- round trip ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(RULESETS))
def test_export_load_export_is_exact(name: str, tmp_path: Path) -> None:
    text = to_toml(RULESETS[name])
    path = write(tmp_path, "exported.toml", text)
    loaded = load_rules_file(path)
    assert loaded == RULESETS[name]  # the name too: the file says it
    assert to_toml(loaded) == text


@pytest.mark.parametrize("name", list(RULESETS))
def test_the_exported_file_validates_against_the_schema(name: str) -> None:
    data = tomllib.loads(to_toml(RULESETS[name]))
    assert first_problem(data, "ruleset") is None
    assert first_problem({**data, "tempura_points": "6"}, "ruleset") is not None
    assert first_problem({**data, "tempura_pionts": 6}, "ruleset") is not None


def test_rules_export_prints_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = cli(capsys, "rules", "--export", "dutch")
    assert code == 0 and err == ""
    data = tomllib.loads(out)
    assert data["maki_first_tie"] == "half" and data["pudding_all_tied"] == "both"  # the Dutch text
    assert data["deck"] == PRINTED_DECK
    assert data["dumpling_points"] == [0, 1, 3, 6, 10, 15]
    assert load_rules_file(write(tmp_path, "d.toml", out)) == RULESETS["dutch"]
    # a designer's comments: every key line says what it means
    for line in out.splitlines():
        if "=" in line and not line.startswith(("#", "[")) and line.split("=")[0].strip() not in PRINTED_DECK:
            assert "  # " in line, line


def test_export_of_an_unknown_name_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "rules", "--export", "offical")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "official" in err


# --- hand-written files ----------------------------------------------------------------------


def test_a_file_extending_official_changes_only_what_it_says(tmp_path: Path) -> None:
    path = write(tmp_path, "tempura6.toml", 'extends = "official"\ntempura_points = 6\n')
    rules = load_rules_file(path)
    assert rules.name == "tempura6"  # the file's stem
    assert rules.tempura_points == 6
    assert rules.replace(tempura_points=5, name="official") == OFFICIAL


def test_deck_and_hand_sizes_merge_kind_by_kind(tmp_path: Path) -> None:
    path = write(tmp_path, "x.toml", 'extends = "dutch"\nhand_sizes = { 5 = 6 }\n[deck]\nsquid = 10\n')
    rules = load_rules_file(path)
    assert rules.maki_first_tie == "half" and rules.wasabi_placement == "optional"  # from dutch
    assert dict(zip((c.label for c in Card), rules.deck, strict=True)) == PRINTED_DECK | {"squid": 10}
    assert dict(rules.hand_sizes) == {2: 10, 3: 9, 4: 8, 5: 6}


def test_a_file_may_extend_a_file_relative_to_it(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    write(tmp_path, "base.toml", 'extends = "french"\nsashimi_points = 12\n')
    path = write(tmp_path / "sub", "top.toml", 'extends = "../base.toml"\nname = "mine"\n')
    rules = load_rules_file(path)
    assert rules.name == "mine" and rules.sashimi_points == 12 and rules.maki_first_tie == "each"


def test_a_cycle_of_files_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "a.toml", 'extends = "b.toml"\n')
    write(tmp_path, "b.toml", 'extends = "./a.toml"\n')
    with pytest.raises(RulesError, match="cycle"):
        load_rules_file(tmp_path / "a.toml")


def test_rules_path_is_accepted_by_get_ruleset(tmp_path: Path) -> None:
    path = write(tmp_path, "m.toml", "maki_first_points = 7\n")
    rules = get_ruleset(str(path), ["maki_first_tie=each"])
    assert rules.maki_first_points == 7 and rules.maki_first_tie == "each"


def test_no_named_ruleset_is_named_like_a_rules_file() -> None:
    # get_ruleset looks a name up among the named rulesets before it asks spec.rulefile whether
    # it is a path; that order is only right while no name could be one.
    from sushigo.spec.rulefile import is_rules_path

    assert [name for name in RULESETS if is_rules_path(name) or is_rules_path(name.upper())] == []
    assert is_rules_path("official.toml") and is_rules_path("./official")  # the probe can say yes


def test_a_rules_file_named_after_a_named_ruleset_is_read_as_a_file(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "french.toml", "tempura_points = 7\n")
    assert get_ruleset("french.toml").tempura_points == 7
    assert get_ruleset("./french.toml").name == "french"  # the file's stem
    assert get_ruleset("french") == RULESETS["french"] and get_ruleset(" French ") == RULESETS["french"]


def test_score_under_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, "t6.toml", 'extends = "official"\ntempura_points = 6\n')
    code, out, err = cli(capsys, "score", "--rules", str(path), "tempura tempura", "egg", "--json")
    assert code == 0, err
    # one tempura pair scores the file's 6; an egg nigiri 1 (rulebook)
    assert json.loads(out)["totals"] == [6, 1]


# --- documents carry the ruleset -------------------------------------------------------------


def test_a_document_names_a_named_ruleset_and_holds_any_other(tmp_path: Path) -> None:
    assert rules_value(RULESETS["dutch"]) == "dutch"
    custom = OFFICIAL.replace(name="t6", tempura_points=6)
    value = rules_value(custom)
    assert isinstance(value, dict) and value["tempura_points"] == 6
    assert first_problem(value, "ruleset") is None
    assert ruleset_from_value(json.loads(json.dumps(value))) == custom
    # a renamed official is not official
    assert isinstance(rules_value(OFFICIAL.replace(name="official", sashimi_points=1)), dict)


def test_an_inline_ruleset_may_extend_a_name_only() -> None:
    assert ruleset_from_value({"extends": "french", "tempura_points": 4}).maki_first_tie == "each"
    with pytest.raises(RulesError, match="names a file"):
        ruleset_from_value({"extends": "x.toml"})


# --- bad files: one line, exit 2, the file, the key and the fix -------------------------------


BAD = [
    ("notoml.toml", "tempura_points = = 6\n", ["notoml.toml", "not TOML", "line 1"]),
    ("unknown.toml", "tempura_point = 6\n",
     ["unknown.toml", "'tempura_point'", "did you mean 'tempura_points'"]),
    ("type.toml", 'tempura_points = "6"\n', ["type.toml", "tempura_points", "whole number"]),
    ("list.toml", "nigiri_points = [1, 2]\n", ["list.toml", "nigiri_points", "3 whole numbers"]),
    ("reading.toml", 'maki_first_tie = "third"\n',
     ["reading.toml", "maki_first_tie", '"split" or "each" or "half"']),
    ("bool.toml", 'dummy_2p = "yes"\n', ["bool.toml", "dummy_2p", "false or true"]),
    ("kind.toml", "[deck]\nsquids = 4\n", ["kind.toml", "deck.squids", "did you mean 'squid'"]),
    ("extends.toml", 'extends = "offical"\n', ["extends.toml", "extends", "did you mean 'official'"]),
    ("missing.toml", None, ["missing.toml", "cannot read", "--export"]),
]


@pytest.mark.parametrize(("name", "text", "words"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_file_is_one_line_and_exit_2(name: str, text: str | None, words: list[str], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / name if text is None else write(tmp_path, name, text)
    code, out, err = cli(capsys, "score", "--rules", str(path), "egg", "egg")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1, err
    for word in words:
        assert word in err, (word, err)


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.toml"
    with open(path, "wb") as fh:
        fh.truncate(64 * 1024 * 1024)  # sparse: nothing is written or read
    with pytest.raises(SushiGoError, match="KiB"):
        load_rules_file(path)


# --- every command, documents and workers under a file ----------------------------------------

TEMPURA6 = 'extends = "official"\ntempura_points = 6\n'


def test_a_record_played_under_a_file_replays_without_it(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "tempura6.toml", TEMPURA6)
    record = tmp_path / "game.json"
    code, _, err = cli(capsys, "play", "--rules", str(path), "--seed", "3", "--record", str(record))
    assert code == 0, err
    path.unlink()  # the record holds the ruleset itself, not the path
    data = json.loads(record.read_text())
    assert data["rules"]["tempura_points"] == 6
    assert first_problem(data, "record") is None
    code, out, err = cli(capsys, "replay", str(record))
    assert code == 0, err
    assert "valid" in out
    # the same picks under official score otherwise (seed 3 takes tempura pairs): replay says so
    code, out, err = cli(capsys, "replay", "--rules", "official", str(record))
    assert code == 1


def test_jobs_carry_the_file_ruleset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "tempura6.toml", TEMPURA6)
    runs = {}
    for rules, jobs in ((str(path), "1"), (str(path), "2"), ("official", "1")):
        code, out, err = cli(capsys, "play", "--rules", rules, "--seed", "5", "--games", "4",
                             "--jobs", jobs, "--json")
        assert code == 0, err
        runs[rules, jobs] = json.loads(out)
    assert runs[str(path), "1"] == runs[str(path), "2"]
    assert runs[str(path), "1"] != {**runs["official", "1"]}  # the workers did play tempura6


def test_documents_hold_a_ruleset_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = {"rules": {"extends": "official", "tempura_points": 6}, "rounds": [["tempura*2", "egg"]]}
    path = write(tmp_path, "score.json", json.dumps(doc))
    code, out, err = cli(capsys, "score", str(path), "--json")
    assert code == 0, err
    assert json.loads(out)["totals"] == [6, 1]  # a tempura pair at the document's 6; an egg 1
    doc["rules"] = "tempura6.toml"  # a document never names a file
    path.write_text(json.dumps(doc))
    code, out, err = cli(capsys, "score", str(path))
    assert code == 2 and "names a file" in err


def test_the_library_takes_a_path_a_ruleset_or_an_object(tmp_path: Path) -> None:
    import sushigo

    path = write(tmp_path, "tempura6.toml", TEMPURA6)
    custom = OFFICIAL.replace(name="t6", tempura_points=6)
    for rules in (str(path), path, custom, {"tempura_points": 6}):
        assert sushigo.score(["tempura*2", "egg"], rules=rules)["totals"] == [6, 1], rules


# --- sushigo rules FILE.toml: beside official, changes marked ---------------------------------


def test_rules_shows_a_file_beside_official(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "tempura6.toml", TEMPURA6)
    code, out, err = cli(capsys, "rules", str(path))
    assert code == 0, err
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line[:1].isalpha()}
    assert rows["tempura_points"] == ["6", "*", "5"]
    assert rows["sashimi_points"] == ["10", "10"]  # unchanged, unmarked
    assert sum(line.count(" * ") + line.endswith(" *") for line in out.splitlines()) == 1


def test_rules_json_lists_exactly_the_changed_keys(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # dutch's readings (spec/ruleset/named.py: the Dutch text read literally) plus one number and one kind
    path = write(tmp_path, "mine.toml", 'extends = "dutch"\ntempura_points = 6\n[deck]\nsquid = 10\n')
    code, out, err = cli(capsys, "rules", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert first_problem(data, "rules-result") is None
    beside = data["beside"]
    assert beside["vs"] == "official"
    changed = {k["key"]: (k["vs"], k["values"]["mine"]) for k in beside["keys"] if k["changed"]}
    assert changed == {"tempura_points": (5, 6), "maki_first_tie": ("split", "half"),
                       "pudding_all_tied": ("nobody", "both"),
                       "wasabi_placement": ("automatic", "optional"), "deck.squid": (5, 10)}
    code, out, err = cli(capsys, "rules", str(path), "--vs", "dutch", "--json")
    changed = {k["key"] for k in json.loads(out)["beside"]["keys"] if k["changed"]}
    assert changed == {"tempura_points", "deck.squid"}


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize("argv", [
    ("endgame", "position.json"), ("table", "--input", "table.json"), ("scoresheet", "sheet4.json"),
    ("best", "puzzle.json"), ("score", "tempura*2", "egg"),
], ids=lambda a: a[0])
def test_json_outputs_under_a_file_match_their_schema(argv: tuple[str, ...], tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(EXAMPLES)
    path = write(tmp_path, "tempura6.toml", TEMPURA6)
    code, out, err = cli(capsys, *argv, "--rules", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert first_problem(data, f"{argv[0]}-result") is None
    if isinstance(data.get("rules"), dict):  # a document's ruleset, whole: it reads back as the file
        assert ruleset_from_value(data["rules"]) == load_rules_file(path)
