"""``sushigo conform --jobs N`` / ``--cluster ADDRESS``: the cases made and asked on workers.

The same seed gives byte-identical ``--json`` (the measured seconds left out) with ``--jobs 1``,
``--jobs 2`` and a two-worker Dask cluster on the loopback address; every independent fault the
run in this process finds (tests/test_conform_faults.py, whose expected values are worked by hand
from RULES.md) is found on workers too, with the same rule ids, attribution and case; a SIGINT
ends the run with 130, and neither a worker nor a target process started by one is left.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_conform_adversary import comm_of, marked
from test_jobs import _group_alive

ROOT = Path(__file__).resolve().parent.parent
# Run from a folder without the checkout\'s sushigo/: CI tests the installed package.
OUTSIDE = ROOT / "tests" / "adapters"
ADAPTERS = ROOT / "tests" / "adapters"
BUGGY = str(ROOT / "examples" / "buggy_adapter.py")
HOSTILE = str(ADAPTERS / "hostile.py")
STOP_SECONDS = float(os.environ.get("SUSHIGO_STOP_SECONDS", "5"))


def _conform(*argv: str, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any], str]:
    """The command in a process of its own (a test process that used Z3 would hand its context
    to the workers it forks: docs/scale.md)."""
    proc = subprocess.run([sys.executable, "-m", "sushigo", "conform", *argv, "--json"], cwd=OUTSIDE,
                          capture_output=True, text=True, timeout=600, env={**os.environ, **(env or {})})
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout), proc.stdout


def _untimed(text: str) -> str:
    doc = json.loads(text)
    assert isinstance(doc.pop("seconds"), float)
    return json.dumps(doc)


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def test_the_same_seed_prints_the_same_bytes_on_any_workers(address: str) -> None:
    outs = []
    for extra in (["--jobs", "1"], ["--jobs", "2"], ["--cluster", address]):
        code, doc, out = _conform(BUGGY, "--examples", "40", "--seed", "5", *extra)
        assert code == 1 and doc["verdict"] == "faults" and doc["completed"] is True, extra
        outs.append(_untimed(out))
    assert outs[0] == outs[1] == outs[2]
    # The buggy adapter's pudding fault, worked by hand (RULES.md): 4 seats tied for fewest
    # share -6 as -1 each (the remainder is dropped); the adapter rounds toward minus infinity.
    doc = json.loads(outs[0])
    assert doc["seed"] == 5 and doc["round_cases_run"] == doc["round_cases"] > 40
    split = [f for f in doc["faults"] if f["rule_ids"] == ["R-PUDDING-SPLIT"]]
    assert len(split) == 1
    assert split[0]["attribution"]["by"] == "pudding_penalty_rounding=toward-minus-infinity"


def _fault_keys(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(f["kind"], f["category"], f["case"], tuple(f["expected"]), tuple(f["got"]), tuple(f["rule_ids"]),
             f["attribution"]["method"], f["attribution"]["by"], f["cases"]) for f in doc["faults"]]


@pytest.mark.parametrize("adapter", ["two_faults.py", "three_faults.py", "round_total.py"])
def test_every_independent_fault_is_found_on_workers(adapter: str) -> None:
    code, here, _ = _conform(str(ADAPTERS / adapter), "--examples", "20")
    code2, spread, _ = _conform(str(ADAPTERS / adapter), "--examples", "20", "--jobs", "2")
    assert code == code2 == 1
    assert _fault_keys(spread) == _fault_keys(here) and here["faults"]
    assert spread["fingerprint"] == here["fingerprint"]
    assert spread["round_cases"] == here["round_cases"] and spread["completed"] is True


def test_the_two_faults_on_workers_are_the_hand_worked_ones() -> None:
    # tests/test_conform_faults.py: no maki icons score 0 (the planted fault ranks the zeros:
    # 3 each); 6 dumplings score 15 (the planted table says 21).
    code, doc, _ = _conform(str(ADAPTERS / "two_faults.py"), "--examples", "20", "--jobs", "2")
    faults = {f["category"]: f for f in doc["faults"]}
    assert code == 1 and set(faults) == {"maki", "dumpling"}
    assert faults["maki"]["case"] == "picks - | -" and faults["maki"]["expected"] == [0, 0]
    assert faults["maki"]["got"] == [3, 3] and faults["maki"]["rule_ids"] == ["R-MAKI-ZERO"]
    dump = faults["dumpling"]
    assert dump["case"].count("dumpling") == 6 and dump["rule_ids"] == ["R-DUMPLING"]
    assert [g - e for g, e in zip(dump["got"], dump["expected"], strict=True)] == [6, 0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigint_on_workers_exits_130_and_leaves_no_process() -> None:
    # Every call of the target hangs (its own limit is 60 s): the workers' targets are mid-call
    # when the signal comes. Every process started inherits the mark in its environment (the
    # target's run in sessions and sandboxes of their own), so all must be gone.
    mark = uuid.uuid4().hex
    env = {**os.environ, "SUSHIGO_HOSTILE": "hang-all", "SUSHIGO_MARK": mark}
    proc = subprocess.Popen([sys.executable, "-m", "sushigo", "conform", HOSTILE, "--examples", "300",
                             "--call-timeout", "60", "--jobs", "2", "--json"], cwd=OUTSIDE, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)

    def called() -> list[int]:
        return [p for p in marked(mark) if comm_of(p) == "sushigo-called"]

    try:
        deadline = time.monotonic() + 240
        while not called() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert called(), proc.communicate()
        time.sleep(0.3)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert took < STOP_SECONDS, f"{took:.2f} s"
    assert out == b"" and b"no verdict" in err and b"Traceback" not in err
    time.sleep(0.3)
    assert marked(mark) == [] and _group_alive(proc.pid) == []
