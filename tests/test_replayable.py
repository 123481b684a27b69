"""Everything the toolkit writes replays (issue 16 item 2).

Each writer's JSON output is read back the way a user would: a record through ``sushigo replay``
(under the ruleset the record itself names, overrides included), a witness through the scoring
functions under the ruleset it names. The expected scores are the ones the writer was asked
for (the scoresheet's rows, the table's scores) or the ones the record claims; the replay is the
executor, an implementation independent of the Z3 models that found the witnesses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sushigo.spec.executor import replay
from sushigo.spec.record import GameRecord, rules_from_record
from sushigo.spec.ruleset import RULESETS
from sushigo.spec.scoring import score_round
from sushigo.spec.tableau import parse_tableau

from sushigo.cli import main


def _run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> Any:
    main(argv)
    return json.loads(capsys.readouterr().out)


def _assert_replays(record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The record replays under its own rules to its own scores and winners (CLI and library)."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--json"]) == 0, capsys.readouterr().out
    capsys.readouterr()
    res = replay(GameRecord.from_json(record))
    assert res.ok and res.score is not None, res.error
    assert list(res.score.totals) == record["totals"]
    assert list(res.score.winners) == record["winners"]


# Every named ruleset against official: each single-reading variant differs in exactly one
# contested reading, so together they meet every reading the matrix compares.
OTHERS = [name for name in RULESETS if name != "official"]


@pytest.mark.parametrize("other", OTHERS)
def test_diff_witness_records_replay(other: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _run_json(capsys, ["diff", "official", other, "--json"])
    if doc["status"] != "differ":
        assert doc["status"] == "equivalent"
        return
    records = 0
    for w in doc["witnesses"]:
        ext = w.get("extension") or {}
        record = ext.get("record")
        if record is None:
            # no game written: the extension says why (out of budget on a loaded machine)
            assert ext.get("status") in (None, "unknown", "impossible") and (ext.get("reason") or not ext)
            continue
        records += 1
        _assert_replays(record, tmp_path, capsys)
        named = rules_from_record(record["rules"], record["readings"])
        if w["kind"] == "picks":
            # The record is the game under the side it is legal under, and says which.
            legal = [s["rules"] for s in ext["sides"] if s["legal"]]
            assert named.readings() in [RULESETS[n].readings() for n in legal]
        else:
            # The recorded scores are one side's scores of the witness game.
            assert record["totals"] in [s["totals"] for s in ext["scores"]]
    if other in ("wasabi-strict", "dutch"):  # the pairs of issue 16: quick to extend
        assert records, "a differing pair whose witnesses carry no full-game record"


def test_diff_picks_witness_names_its_ruleset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The case of issue 16: official vs wasabi-strict. The round is legal under official only
    (chopsticks then wasabi and egg in one turn); its winners are the seat with more points."""
    doc = _run_json(capsys, ["diff", "official", "wasabi-strict", "--json"])
    record = doc["witnesses"][0]["extension"]["record"]
    assert record["rules"] == "official" and record["readings"]["wasabi_same_turn"] is True
    totals = record["totals"]
    assert record["winners"] == [k for k, t in enumerate(totals) if t == max(totals)]
    _assert_replays(record, tmp_path, capsys)


def test_best_over_deals_witnesses_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _run_json(capsys, ["best", "--round", "--players", "2", "--timeout", "30", "--json"])
    witnesses = [r[k]["witness"] for r in doc["results"] for k in ("best", "best_losing")]
    assert any(witnesses)
    for res in doc["results"]:
        for key in ("best", "best_losing"):
            record = res[key]["witness"]
            if record is None:
                continue
            _assert_replays(record, tmp_path, capsys)
            assert record["rounds"][0]["scores"][0] == res[key]["score"]


def test_table_witness_rescores_under_its_rules(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _run_json(capsys, ["table", "--scores", "45,36", "--rule", "maki_first_tie=each", "--json"])
    rules = rules_from_record(doc["rules"], doc["readings"])
    assert rules.maki_first_tie == "each"
    tabs = [parse_tableau(t) for t in doc["witness"]]
    assert [s.total for s in score_round(tabs, rules)] == [45, 36]  # the scores asked for


def test_scoresheet_witness_replays_to_the_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = {"rules": "dutch", "players": ["Ana", "Ben", "Cy"], "rounds": [[12, 3, 7], [20, 9, 4]]}
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(sheet))
    doc = _run_json(capsys, ["scoresheet", str(path), "--json"])
    witness = doc["witness"]
    assert witness["rules"] == "dutch"
    record = witness["record"]
    _assert_replays(record, tmp_path, capsys)
    # the rows the scorekeeper wrote are the rows the replayed game scores
    assert [rnd["scores"] for rnd in record["rounds"]] == sheet["rounds"]


def test_endgame_result_names_its_rules(capsys: pytest.CaptureFixture[str]) -> None:
    taken0 = "wasabi,tempura,tempura,sashimi,sashimi,sashimi,dumpling,dumpling,dumpling"
    taken1 = "maki3,maki2,egg,salmon,pudding,tempura,dumpling,dumpling,chopsticks"
    doc = _run_json(capsys, ["endgame", "--hands", "squid / salmon", "--taken", f"{taken0} / {taken1}",
                             "--rules", "french", "--json"])
    assert rules_from_record(doc["rules"], doc["readings"]) == RULESETS["french"]
