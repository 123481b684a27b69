"""``sushigo conform`` treats the engine as an adversary (issue 32): it cannot fool conform, hurt
it, outlive it, or reach the user's files, and one that fails on every call gets its verdict soon.

Each test runs conform in a process of its own (an engine that signals its parent must not
reach pytest) under each sandbox the machine has: "process" always, "bwrap" where bubblewrap
works. The engine is tests/adapters/hostile.py: a correct scorer (examples/conform_adapter.py)
plus the misbehaviour ``SUSHIGO_HOSTILE`` names, so every expected verdict follows from what
the mode does: a correct scorer that only tampers with its own process conforms (exit 0); one
that breaks the protocol or the process is an adapter fault (exit 1); one that does not meet
the protocol at load is refused (exit 2).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from sushigo.checks.conform.engine import _bwrap

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = str(ROOT / "tests" / "adapters" / "hostile.py")
BUGGY = str(ROOT / "examples" / "buggy_adapter.py")
SANDBOXES = ["process"] + (["bwrap"] if sys.platform.startswith("linux") and _bwrap() else [])
#: One seat count (three: two players and the dummy) makes the edge cases in a second, not ten.
FAST = ["--rules", "dummy-2p", "--examples", "10", "--call-timeout", "0.5", "--time-limit", "60"]

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def marked(mark: str) -> list[int]:
    """Live processes whose environment holds ``SUSHIGO_MARK=mark`` (every process conform and
    the engine start inherits it, whatever session or namespace it is in)."""
    out = []
    needle = f"SUSHIGO_MARK={mark}".encode()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as fh:
                env = fh.read().split(b"\0")
            with open(f"/proc/{name}/stat", "rb") as fh:
                state = fh.read().rpartition(b")")[2].split()[0]
        except OSError:
            continue
        if needle in env and state not in (b"Z", b"X"):
            out.append(int(name))
    return out


def comm_of(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as fh:
            return fh.read().strip()
    except OSError:
        return ""


def cmdline_of(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().decode("utf-8", "replace")
    except OSError:
        return ""


def environment(mode: str, sandbox: str, mark: str) -> dict[str, str]:
    return {**os.environ, "SUSHIGO_HOSTILE": mode, "SUSHIGO_CONFORM_SANDBOX": sandbox, "SUSHIGO_MARK": mark}


def conform(mode: str, sandbox: str, *args: str, cwd: Path | None = None, timeout: float = 90
            ) -> tuple[int, dict[str, Any] | None, str, float, str]:
    """(exit code, the --json document or None, stderr, seconds, the mark); no process left."""
    mark = uuid.uuid4().hex
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "sushigo", "conform", HOSTILE, *args, "--json"],
                            cwd=cwd or ROOT / "tests" / "adapters", env=environment(mode, sandbox, mark),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:  # a frozen or hung conform: this test fails, nothing is left behind
            for pid in marked(mark):
                os.kill(pid, 9)
            proc.wait()
    took = time.monotonic() - t0
    assert "Traceback" not in err, err
    doc = json.loads(out) if out else None
    return proc.returncode, doc, err, took, mark


def _no_process_left(mark: str) -> None:
    for _ in range(20):
        left = marked(mark)
        if not left:
            return
        time.sleep(0.1)
    pytest.fail(f"left running: {[(p, cmdline_of(p)[:80]) for p in left]}")


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("mode", ["sigstop-parent", "sigusr1-parent", "sigkill-parent"])
def test_signalling_its_parent_cannot_stop_or_kill_conform(mode: str, sandbox: str) -> None:
    # Before: SIGSTOP froze conform past its time limit; SIGUSR1 killed it (exit 138, no verdict).
    code, doc, err, took, mark = conform(mode, sandbox, *FAST, timeout=60)
    assert doc is not None, err
    assert took < 50
    if code == 1:  # the process sandbox: the supervisor, not conform, was killed; named as such
        kinds = {(f["kind"], "supervisor" in f["detail"]) for f in doc["adapter_faults"]}
        assert mode == "sigkill-parent" and kinds == {("crashed", True)}, doc["adapter_faults"]
    else:  # the signal did nothing to conform (bwrap: the kernel drops it at pid 1)
        assert code == 0 and doc["verdict"] == "conforms", doc
    assert doc["sandbox"] == sandbox
    _no_process_left(mark)


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_grandchild_in_a_session_of_its_own_does_not_outlive_conform(sandbox: str) -> None:
    code, doc, err, _, mark = conform("setsid-grandchild", sandbox, *FAST)
    assert code == 0 and doc is not None and doc["verdict"] == "conforms", err
    _no_process_left(mark)


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_the_users_files_are_out_of_reach(sandbox: str, tmp_path: Path) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_text("the user's work\n")
    code, doc, err, _, mark = conform("delete-cwd", sandbox, *FAST, cwd=tmp_path)
    assert code == 0 and doc is not None, err
    assert precious.read_text() == "the user's work\n"
    _no_process_left(mark)


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_forking_without_bound_is_stopped_at_the_process_limit(sandbox: str) -> None:
    # Before: load 255 on the test machine and the time limit ignored. The engine forks in a
    # loop at its first call; past 64 processes every one is killed and the fault named.
    # A call may take 10 s here, so a loaded machine's slow forks reach 64 before the call's limit.
    code, doc, err, took, mark = conform("forkbomb", sandbox, *FAST[:4], "--call-timeout", "10", timeout=120)
    assert code == 1 and doc is not None, err
    kinds = {f["kind"] for f in doc["adapter_faults"]}
    assert "processes" in kinds, doc["adapter_faults"]
    assert any("more than the limit of 64" in f["detail"] for f in doc["adapter_faults"])
    assert took < 100
    _no_process_left(mark)


# The channel's checks do not depend on the sandbox: one (bwrap where the machine has it).
@pytest.mark.parametrize("sandbox", SANDBOXES[-1:])
@pytest.mark.parametrize(("mode", "expect"), [
    ("dumps", 0), ("builtins", 1), ("forge", 1), ("forge-import", 2), ("fork", 1)])
def test_tampering_with_its_own_process_is_never_a_traceback(mode: str, expect: int, sandbox: str) -> None:
    # Before: four tracebacks in conform's parent (exit 1, read as "faults").
    code, doc, err, _, mark = conform(mode, sandbox, *FAST)
    if expect == 2:  # lines forged before the first reply: the target does not meet the protocol
        assert code == 2 and doc is None
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "without this run's token" in lines[0], err
        _no_process_left(mark)
        return
    assert doc is not None, err
    if expect == 0:  # it replaced json.dumps in its own process; our replies were bound before
        assert code == 0 and doc["verdict"] == "conforms"
    else:
        assert code == 1 and doc["verdict"] == "faults" and doc["faults"] == []
        kinds = {f["kind"] for f in doc["adapter_faults"]}
        assert kinds <= {"protocol", "exited", "crashed"} and kinds, doc["adapter_faults"]
        if mode in ("forge", "fork"):
            assert kinds == {"protocol"}
        if mode == "forge":  # every call is forged: given up after GIVE_UP calls in a row
            assert doc["stopped"].startswith("conform gave the target up")
        if mode == "fork":
            # Which of the two processes reads a window of requests is the kernel's choice: when
            # the one that took the handshake takes the next window too, its answers are right
            # and count. So the run is given up, or it ends with the second process named.
            assert doc["stopped"] is None or doc["stopped"].startswith("conform gave the target up")
            assert any("second process" in f["detail"] for f in doc["adapter_faults"]), doc["adapter_faults"]
    _no_process_left(mark)


@pytest.mark.parametrize("sandbox", SANDBOXES[-1:])
@pytest.mark.parametrize(("mode", "why"), [
    ("print-import", "printed to standard output while loading"),
    ("puddings-3", "defines score_puddings as a int, not a function")])
def test_a_target_that_does_not_meet_the_protocol_at_load_exits_2(mode: str, why: str, sandbox: str) -> None:
    code, doc, err, _, mark = conform(mode, sandbox, *FAST)
    assert code == 2 and doc is None
    lines = err.strip().splitlines()
    assert len(lines) == 1 and why in lines[0], err
    _no_process_left(mark)


@pytest.mark.parametrize("sandbox", SANDBOXES[-1:])
@pytest.mark.parametrize("mode", ["random5", "drift"])
def test_an_engine_whose_answers_change_is_nondeterministic_once(mode: str, sandbox: str) -> None:
    # Before: "wrong 5% of the time at random" gave six independent faults with rule ids;
    # "right for 200 calls, then one point too many for the first seat" gave seven.
    code, doc, err, _, mark = conform(mode, sandbox, *FAST[:2], "--examples", "100", "--seed", "1")
    assert code == 1 and doc is not None, err
    assert doc["faults"] == []
    (entry,) = [f for f in doc["adapter_faults"] if f["kind"] == "nondeterministic"]
    assert entry["function"] == "score_round" and "asked again in fresh processes" in entry["detail"]
    assert len(doc["disagreements"]) == len(doc["adapter_faults"])
    _no_process_left(mark)


@pytest.mark.parametrize("sandbox", SANDBOXES[-1:])
@pytest.mark.parametrize(("mode", "detail"), [
    ("exit-all", "exited with code 0"),
    pytest.param("loop-dumplings", "timed out after 2 s", marks=pytest.mark.slow)])
def test_an_engine_failing_the_same_way_on_every_call_gets_its_verdict_within_30_s(
        mode: str, detail: str, sandbox: str) -> None:
    # Default options (2000 examples, 2 s a call). Before: more than 4 minutes.
    code, doc, err, took, mark = conform(mode, sandbox, timeout=120)
    assert code == 1 and doc is not None, err
    assert took < 30, f"{took:.1f} s"
    assert doc["verdict"] == "faults"
    assert [f["detail"] for f in doc["adapter_faults"]] == [detail]
    assert detail in doc["stopped"]
    _no_process_left(mark)


@pytest.mark.slow
def test_the_minimised_cases_are_the_same_whatever_the_jobs() -> None:
    # Before: "puddings [1, 0, 0, 0, 0]" with --jobs 2 and "[0, 0, 1, 0, 0]" in this process.
    outs = []
    for extra in ([], ["--jobs", "2"]):
        proc = subprocess.run([sys.executable, "-m", "sushigo", "conform", BUGGY, "--examples", "300",
                               "--json", *extra], cwd=ROOT / "tests" / "adapters", capture_output=True,
                              text=True, timeout=600)
        assert proc.returncode == 1, proc.stderr
        doc = json.loads(proc.stdout)
        doc.pop("seconds")
        outs.append(json.dumps(doc))
    assert outs[0] == outs[1]
