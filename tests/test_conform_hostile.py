"""``sushigo conform`` survives hostile engines and is never read as success when interrupted (issue 18).

The adapter (tests/adapters/hostile.py) is a correct scorer that misbehaves on the rounds where a
seat holds exactly three tempura; each misbehaviour must be reported as what it is, with exit 1
and a ``--json`` that parses (the adapter's prints never reach it).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from sushigo.checks import conform as C
from sushigo.spec.ruleset import OFFICIAL
from test_conform_adversary import cmdline_of, comm_of, marked

from sushigo.cli import main

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = str(ROOT / "tests" / "adapters" / "hostile.py")
GOOD = str(ROOT / "examples" / "conform_adapter.py")


def _conform(mode: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             *extra: str) -> tuple[int, dict[str, object]]:
    monkeypatch.setenv("SUSHIGO_HOSTILE", mode)
    code = main(["conform", HOSTILE, "--examples", "10", "--call-timeout", "0.5", "--json", *extra])
    out = capsys.readouterr().out
    return code, json.loads(out)  # parses: nothing but our JSON on stdout


@pytest.mark.parametrize(("mode", "kind", "detail"), [
    ("exit0", "exited", "exited with code 0"),
    ("os-exit0", "exited", "exited with code 0"),
    ("hang", "timed out", "timed out after 0.5 s"),
    ("wrong-type", "wrong type", "returned {'scores': 'many'}, not a list of 2 ints"),
    ("huge", "absurd", "returned [1000000, 1000000]"),
    ("segfault", "crashed", "crashed (SIGSEGV)"),
    ("print", "printed", "printed to stdout: 'debug: scoring"),
])
def test_a_hostile_engine_is_reported_as_what_it_did(mode: str, kind: str, detail: str,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _conform(mode, monkeypatch, capsys)
    assert code == 1 and report["conforms"] is False and report["verdict"] == "faults"
    faults = report["adapter_faults"]
    assert isinstance(faults, list)
    mine = [f for f in faults if f["kind"] == kind]
    assert len(mine) == 1, faults
    assert mine[0]["detail"].startswith(detail), mine[0]
    assert report["faults"] == []  # the answers it did give are right: no scoring fault
    if kind in ("wrong type", "absurd"):
        assert mine[0]["case"] == "picks tempura tempura tempura | -"  # minimised
    assert report["completed"] is True


def test_the_memory_limit_is_the_childs(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _conform("memory", monkeypatch, capsys, "--memory-limit", "1024")
    faults = report["adapter_faults"]
    assert code == 1 and isinstance(faults, list)
    assert faults[0]["detail"] == "raised MemoryError (memory limit 1024 MB)"


def test_an_exit_at_import_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SUSHIGO_HOSTILE", "import-exit")
    assert main(["conform", HOSTILE, "--json"]) == 2
    cap = capsys.readouterr()
    assert cap.out == ""
    lines = cap.err.strip().splitlines()
    assert len(lines) == 1 and "sys.exit(3) while loading" in lines[0]


@pytest.mark.parametrize(("option", "value"), [
    ("--examples", "1e9"), ("--examples", "1000000000"), ("--examples", "0"), ("--call-timeout", "-1"),
    ("--time-limit", "forever"), ("--memory-limit", "1.5"),
])
def test_budgets_are_bounded(option: str, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", GOOD, option, value]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and option in err[0] and repr(value) in err[0]


def test_a_run_out_of_time_is_unknown_not_success() -> None:
    ticks = iter(range(10**6))
    report = C.conform(C.load_target(GOOD), OFFICIAL, examples=5,
                       limits=C.Limits(time_limit=3), clock=lambda: float(next(ticks)))
    assert report.stopped.startswith("the time limit of 3 s ran out")
    assert report.verdict == "unknown" and not report.ok and report.as_dict()["conforms"] is False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(("sig", "mode", "when"), [
    (signal.SIGINT, "", "loaded"), (signal.SIGTERM, "", "loaded"),
    (signal.SIGINT, "hang-all", "called"), (signal.SIGTERM, "hang-all", "called"),
])
def test_an_interrupted_run_claims_no_verdict(sig: int, mode: str, when: str) -> None:
    rng = random.Random(f"{sig}-{mode}")  # seeded: the same moments on every run
    mark = uuid.uuid4().hex
    env = {**os.environ, "SUSHIGO_HOSTILE": mode, "SUSHIGO_MARK": mark}
    cmd = [sys.executable, "-c", "import sys; from sushigo.cli import main; sys.exit(main())",
           "conform", HOSTILE, "--examples", "20", "--call-timeout", "60"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def there() -> bool:  # the engine loaded (its supervisor runs _child.py), or called
        pids = [p for p in marked(mark) if p != proc.pid]
        if when == "called":
            return any(comm_of(p) == "sushigo-called" for p in pids)
        return any("_child.py" in cmdline_of(p) for p in pids)

    deadline = time.monotonic() + 120
    while not there() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert there(), proc.communicate()
    time.sleep(rng.uniform(0, 0.8))
    sent = time.monotonic()
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    took = time.monotonic() - sent
    assert proc.returncode == 128 + sig, err
    assert took < 2.0
    assert out == b""  # no verdict, no half report
    assert b"no verdict" in err and b"Traceback" not in err
    time.sleep(0.2)
    assert marked(mark) == []


def test_a_stop_lost_inside_a_destructor_still_stops(capfd: pytest.CaptureFixture[str]) -> None:
    """Seen in CI: the signal landed while the garbage collector ran a Z3 object's __del__;
    Python swallowed the handler's exception ("Exception ignored ... Traceback") and the run went on."""

    class SignalsOnDelete:
        def __del__(self) -> None:
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):  # the handler runs here, inside __del__
                pass

    with pytest.raises(C.Interrupted) as caught, C.interruptible():
        obj = SignalsOnDelete()
        del obj
    assert caught.value.code == 128 + signal.SIGINT
    assert "Traceback" not in capfd.readouterr().err
