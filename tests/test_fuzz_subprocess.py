"""The subprocess fuzz campaign (tools/fuzz_cli.py) on a seeded sample: every command, each
try in its own process, with hostile files, special files, rules files, overrides, numbers,
option combinations and outputs that cannot be written. No run may show a traceback, exit
outside 0/1/2, hang, print --json its schema refuses, or end in exit 2 without one line
``sushigo CMD: error: ...``.

A longer campaign: ``python tools/fuzz_cli.py --seed 1 --cases 100 --jobs 2`` (``--cases 0``
runs every case). ``FUZZ_SUBPROCESS_CASES=N`` sets the cases per command here.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "fuzz_cli.py"
SEED = 20261201
CASES = int(os.environ.get("FUZZ_SUBPROCESS_CASES", "4"))


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_cli", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_cli"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


fuzz = _load()


# --- the oracle flags what it must (a fuzzer that cannot fail proves nothing) -------------------

CASE = fuzz.Case("score", "oracle", ("score", "egg", "egg", "--json"))


@pytest.mark.parametrize(("code", "out", "err", "fault"), [
    (1, "", "Traceback (most recent call last):\n  ...\nValueError: x\n", "traceback"),
    (3, "", "", "exit code 3"),
    (None, "", "", "hang"),
    (2, "", "error: bad\n", "without 'sushigo score: error: ...'"),
    (2, "", "sushigo table: error: bad\n", "without 'sushigo score: error: ...'"),
    (2, "", "usage: sushigo score\nsushigo score: error: bad\n", "exit 2 with 2 lines"),
    (0, "{not json", "", "is not JSON"),
    (0, '{"totals": [1, 1]}', "", "no first key 'format'"),
    (0, '{"format": "sushigo-score-result/1", "rounds": "many"}', "", "does not match"),
    (0, '{"format": "sushigo-nothing/1"}', "", "names no schema"),
    (1, "", "sushigo: error: cannot write\n", "does not name the command"),
])
def test_the_oracle_flags_each_fault(code: int | None, out: str, err: str, fault: str) -> None:
    found = fuzz.judge(CASE, code, 0.1, out, err)
    assert any(fault in f for f in found), found


@pytest.mark.parametrize(("case", "code", "out", "err", "fault"), [
    (fuzz.Case("score", "stream", ("score", "egg"), stdout="closed"), 0, "", "", "exit 0 after lost output"),
    (fuzz.Case("score", "stream", ("score", "egg"), stdout="full"), 0, "", "", "exit 0 after lost output"),
    (fuzz.Case("score", "stream", ("score", "--x"), stderr="full", expect=2), 1, "", "", "not 2"),
    (fuzz.Case("score", "cwd", ("score",), cwd="deleted"), 1, "",
     "sushigo score: error: cannot write the output: No such file or directory; free space on the device\n",
     "a deleted working directory"),
    (fuzz.Case("conform", "engine exits-every-call", ("conform", "x.py")), 0, "", "",
     "a broken engine conforms"),
    (fuzz.Case("table", "encoding ascii names", ("table",)), 0, "\x1b[2J", "", "raw control character"),
    (fuzz.Case("score", "stream", ("score",)), 70, "", "sushigo score: internal error: x\n",
     "internal error"),
], ids=["stdout-closed", "stdout-full", "stderr-full", "cwd-deleted", "engine", "control", "crash"])
def test_the_oracle_flags_each_fault_of_a_hostile_world(case: object, code: int, out: str, err: str,
                                                       fault: str) -> None:
    found = fuzz.judge(case, code, 0.1, out, err)
    assert any(fault in f for f in found), found


def test_a_full_disk_is_seen(tmp_path: Path) -> None:
    disk = fuzz._FullDisk(tmp_path / "disk")
    try:
        assert disk.faults(2) == []
        (disk.path / "good.json").write_bytes(b"{")
        assert any("good.json damaged" in f for f in disk.faults(2))
        assert any("exit 0 after a write to a full disk" in f for f in disk.faults(0))
    finally:
        disk.close()


#: One case of each class of the hostile world, on quick commands.
WORLD = [
    fuzz.Case("score", "digits notation", ("score", "squid*" + "9" * 5000, "egg", "--json")),
    fuzz.Case("table", "encoding ascii names", ("table", "--scores", "9,0", "--names", "Jos\u00e9,\x1b[2J",
                                                 "--limit", "1", "--timeout", "5"),
              env=(("PYTHONIOENCODING", "ascii"),)),
    fuzz.Case("score", "stream stdout-closed", ("score", "egg", "egg"), stdout="closed"),
    fuzz.Case("score", "stream stderr-full bad", ("score", "egg", "--x"), stderr="full", expect=2),
    fuzz.Case("score", "cwd deleted relative", ("score", "--rules", "mine.toml", "egg", "egg"),
              cwd="deleted"),
    fuzz.Case("play", "disk record", ("play", "--players", "3", "--record", "{K}/good.json"), disk=True),
    fuzz.Case("score", "stream stdout-disk", ("score", "egg", "egg", "--json"), stdout="disk", disk=True),
]


@pytest.mark.parametrize("case", WORLD, ids=[c.kind for c in WORLD])
def test_no_fault_in_a_hostile_world(case: object) -> None:
    result = fuzz.run_case(case)
    assert not result.faults, (result.faults, result.code, result.stderr[-300:])


def test_the_oracle_passes_a_good_run() -> None:
    import sushigo

    assert fuzz._json_faults(json.dumps(sushigo.score(["egg", "tempura*2"]))) == []
    assert fuzz.judge(CASE, 2, 0.1, "", "sushigo score: error: bad input; fix it\n") == []
    assert fuzz.judge(CASE, 0, 0.1, "", "") == []


def test_the_sample_is_reproducible_and_covers_every_command() -> None:
    first = fuzz.sample(SEED, CASES)
    assert first == fuzz.sample(SEED, CASES)
    assert first != fuzz.sample(SEED + 1, CASES)
    assert {c.command for c in first} == set(fuzz.COMMANDS)


# --- the campaign ------------------------------------------------------------------------------

@pytest.mark.parametrize("command", fuzz.COMMANDS)
def test_no_fault_in_a_seeded_sample(command: str) -> None:
    results = fuzz.campaign(fuzz.sample(SEED, CASES, [command]))
    faults = [f"{r.case.label()}: {'; '.join(r.faults)} (exit {r.code}): {r.stderr.strip()[-300:]}"
              for r in results if r.faults]
    # ASCII only: a case's bytes (lone surrogates) in a failure report broke pytest-xdist's
    # reporting (an INTERNALERROR that hid which case failed)
    assert not faults, "\n".join(faults).encode("ascii", "backslashreplace").decode("ascii")


# --- the long slice's bookkeeping: --interleave, --log and the counts by fault kind -------------


def test_interleave_lets_the_commands_take_turns() -> None:
    cases = fuzz.sample(5, 3, ["score", "rules", "play"])
    turns = fuzz.by_turns(cases)
    assert sorted(map(id, turns)) == sorted(map(id, cases))  # the same cases, reordered
    assert [c.command for c in turns[:3]] == ["score", "play", "rules"]  # sample's command order
    for command in ("score", "rules", "play"):  # each command's own order kept
        assert [c for c in turns if c.command == command] == [c for c in cases if c.command == command]


@pytest.mark.parametrize(("fault", "kind"), [
    ("traceback", "traceback"),
    ("hang: no end within 30 s", "hang"),
    ("exit 0 after lost output", "exit 0 after lost output"),
    ("exit 0 after a write to a full disk", "exit 0 after lost output"),
    ("exit code 70 (an internal error)", "exit code 70 (an internal error)"),
])
def test_each_fault_counts_under_its_kind(fault: str, kind: str) -> None:
    assert fuzz.fault_kind(fault) == kind


def test_the_log_holds_a_line_per_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "fuzz.jsonl"
    code = fuzz.main(["--seed", "3", "--cases", "1", "--command", "schema", "--command", "completion",
                      "--interleave", "--log", str(log)])
    out = capsys.readouterr().out
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert code == 0 and [r["command"] for r in rows] == ["schema", "completion"]
    assert all(r["faults"] == [] and r["code"] in (0, 1, 2) for r in rows)
    assert "faults by kind: 0 traceback, 0 exit 0 after lost output, 0 hang, 0 other" in out
