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
