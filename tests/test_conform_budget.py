"""``sushigo conform`` under a short budget: it returns soon and claims only what it saw (issue 13).

``--timeout`` covers the whole run: the harness's import, loading the target, generating the
cases, the target's calls, Z3's questions and the minimising. Unloaded, ``--timeout 1`` returns in
about 2 s (Python's start-up included); before this bound held it took about 15 s unloaded and
60 s on a loaded machine (the cases were generated before the first look at the clock). The wall
bound below is far above the first and far below the others.

A fault reported by a cut-short run is checked against the target itself: the adapter module is
imported here and asked the reported case, and the reference's answer comes from the executor's
scorer (``spec.scoring`` through ``spec.turns``), not from the harness.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sushigo.checks.conform.cases import reference_round
from sushigo.spec.cards import parse_card
from sushigo.spec.ruleset import OFFICIAL

ROOT = Path(__file__).resolve().parent.parent
# Run from a folder without the checkout\'s sushigo/: CI tests the installed package.
OUTSIDE = ROOT / "tests" / "adapters"
GOOD = ROOT / "examples" / "conform_adapter.py"
BUGGY = ROOT / "examples" / "buggy_adapter.py"
HOSTILE = ROOT / "tests" / "adapters" / "hostile.py"
#: Far above the unloaded 2 s, far below the 60 s a loaded machine took before.
WALL_SECONDS = 15.0


def _conform(*args: str, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any], float]:
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "sushigo", "conform", *args, "--json"], cwd=OUTSIDE,
                          capture_output=True, text=True, timeout=300, env={**os.environ, **(env or {})})
    wall = time.monotonic() - t0
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, json.loads(proc.stdout), wall


def _case(text: str) -> list[list[str]]:
    """``picks egg wasabi | -`` as the adapter protocol's tableaux (canonical card names)."""
    seats = text.removeprefix("picks ").split(" | ")
    return [[parse_card(c).label for c in seat.split()] if seat != "-" else [] for seat in seats]


def _module(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(f"_adapter_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("target", [GOOD, BUGGY], ids=["conforming", "buggy"])
def test_timeout_1_returns_within_seconds_claiming_only_what_it_saw(target: Path) -> None:
    code, doc, wall = _conform(str(target), "--timeout", "1")
    assert wall < WALL_SECONDS, f"{wall:.1f} s"
    assert doc["outcome"] in ("proved", "unknown")
    assert doc["conforms"] is False and doc["verdict"] != "conforms"  # a second cannot settle it
    assert code == 1
    if doc["outcome"] == "unknown":
        assert doc["stopped"].startswith("the time limit of 1 s ran out")
    adapter = _module(target)
    for fault in doc["faults"]:  # a fault found in the second must be one the target really has
        if not fault["case"].startswith("picks "):
            continue
        case = _case(fault["case"])
        assert adapter.score_round(case) == fault["got"]
        picks = tuple(tuple(parse_card(c) for c in seat) for seat in case)
        assert reference_round(picks, OFFICIAL) == fault["expected"] != fault["got"]


def test_a_call_cut_by_the_deadline_is_no_adapter_fault() -> None:
    # Every call hangs; each call may take 60 s, the run 2 s: the deadline, not the target's
    # call limit, ends the wait, so no "timed out" fault is reported (none was observed).
    code, doc, wall = _conform(str(HOSTILE), "--examples", "10", "--call-timeout", "60", "--timeout", "2",
                               env={"SUSHIGO_HOSTILE": "hang-all"})
    assert wall < WALL_SECONDS, f"{wall:.1f} s"
    assert code == 1 and doc["outcome"] == "unknown" and doc["verdict"] == "unknown"
    assert doc["adapter_faults"] == [] and doc["faults"] == [] and doc["disagreements"] == []
    assert doc["round_cases_run"] == 0
    assert all(row["follows"] is None and row["evidence"] == "no discriminating case"
               for row in doc["fingerprint"])


def test_a_target_slower_to_load_than_the_run_is_unknown_not_bad(tmp_path: Path) -> None:
    slow = tmp_path / "slow_adapter.py"
    slow.write_text("import time\ntime.sleep(30)\n\ndef score_round(tableaux):\n"
                    "    return [0] * len(tableaux)\n")
    code, doc, wall = _conform(str(slow), "--timeout", "1")
    assert wall < WALL_SECONDS, f"{wall:.1f} s"
    assert code == 1 and doc["outcome"] == "unknown"  # not exit 2: the target did nothing wrong
    assert doc["stopped"] == "the time limit of 1 s ran out while loading the target"


def test_edge_cases_z3_could_not_build_leave_the_verdict_unknown() -> None:
    # Under --rlimit 1 no tie structure gets a witness: the run compares fewer cases than it
    # promises (every maki and pudding tie structure), so it may not say "conforms".
    code, doc, _ = _conform(str(GOOD), "--examples", "10", "--rlimit", "1")
    assert code == 1 and doc["outcome"] == "unknown" and doc["conforms"] is False
    assert "edge cases (tie structures) unknown" in doc["stopped"] and "rlimit 1" in doc["stopped"]
