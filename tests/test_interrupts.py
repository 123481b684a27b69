"""Ctrl-C and SIGTERM end every long command: exit 130 (143), within the bound, no child left,
no verdict claimed that the run had not finished (issue 16 item 4, issue 18 item 2).

Each test starts the CLI in its own process group, waits a moment drawn from a seeded generator
(the seed is in the test id), sends the signal to the command's process only, and then checks
the exit code, the time from the signal to the exit, the output, and that no process of the
group is left. The bound is 2 s on a quiet machine (measured: under 1.3 s with the load average
near 10 on 2 cores); ``SUSHIGO_STOP_SECONDS`` (default 5) leaves room for a loaded CI box.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

STOP_SECONDS = float(os.environ.get("SUSHIGO_STOP_SECONDS", "5"))
SEED = 16  # of the moments the signals are sent at


@dataclass
class Stopped:
    code: int
    after_signal: float
    stdout: str
    stderr: str
    left: list[int]  # processes of the command's group still alive after it exited


def _group_members(pgid: int) -> list[int]:
    """Live processes whose process group is ``pgid`` (read from /proc; psutil is not a dependency)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        # fields after the command name: state, ppid, pgrp, ...
        if fields[0] != "Z" and int(fields[2]) == pgid:
            pids.append(int(entry.name))
    return pids


def _stop(argv: list[str], wait: float, sig: int = signal.SIGINT) -> Stopped:
    proc = subprocess.Popen([sys.executable, "-m", "sushigo", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        time.sleep(wait)
        assert proc.poll() is None, f"{argv} ended before the signal: give it more work"
        sent = time.perf_counter()
        os.kill(proc.pid, sig)
        out, err = proc.communicate(timeout=60)
        after = time.perf_counter() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    time.sleep(0.2)  # a terminated worker may take a moment to vanish from /proc
    return Stopped(proc.returncode, after, out, err, _group_members(proc.pid))


def _moment(low: float, high: float, k: int) -> float:
    return random.Random(f"interrupts/{SEED}/{k}").uniform(low, high)


def _assert_stopped(res: Stopped, code: int) -> None:
    assert res.code == code, (res.code, res.stdout[-800:], res.stderr[-800:])
    assert res.after_signal < STOP_SECONDS, f"took {res.after_signal:.2f} s to stop"
    assert res.left == [], f"processes left behind: {res.left}"
    assert "Traceback" not in res.stderr, res.stderr[-2000:]


@pytest.mark.parametrize("k", [0, 1])
def test_check_stops_and_claims_nothing_unfinished(k: int) -> None:
    res = _stop(["check", "--jobs", "2", "--table"], _moment(3.0, 8.0, k))
    _assert_stopped(res, 130)
    summary = [line for line in res.stdout.splitlines() if " cases in " in line]
    assert summary and summary[-1].startswith("interrupted:"), res.stdout[-800:]
    # The run takes minutes: stopped after seconds, some rows cannot have finished.
    lines = res.stdout.splitlines()
    rows = [line for line in lines  # the table's rows (the statement's lines start "-" or indented)
            if line.endswith("interrupted before it finished") and not line.startswith(("-", " "))]
    assert rows and all(" incomplete" in line for line in rows)
    # and the statement of what was established says so, claiming none of them
    assert any(line.startswith("- NOT FINISHED: ") for line in lines), res.stdout[-800:]
    assert any(line.startswith("Interrupted: ") for line in lines) and "Every case agreed" not in res.stdout


def test_check_one_job_sigterm_exits_143() -> None:
    res = _stop(["check", "--jobs", "1"], _moment(3.0, 8.0, 2), signal.SIGTERM)
    _assert_stopped(res, 143)
    assert "interrupted:" in res.stdout


def test_check_mutants_never_a_false_green() -> None:
    res = _stop(["check", "--mutants", "--json"], _moment(4.0, 10.0, 3))
    _assert_stopped(res, 130)
    import json

    doc = json.loads(res.stdout)
    assert doc["interrupted"] is True
    assert any(not m["complete"] for m in doc["mutants"])
    # an unfinished mutant is never counted as caught (the false green of issue 18)
    assert all(m["caught_by"] is None for m in doc["mutants"] if not m["complete"])


def test_diff_matrix_stops() -> None:
    res = _stop(["diff", "--matrix"], _moment(3.0, 8.0, 4))
    _assert_stopped(res, 130)
    assert "interrupted" in res.stderr


def test_best_over_all_deals_reports_what_it_found() -> None:
    # The threaded portfolio: 3 players, game question; the best game so far and the open range.
    res = _stop(["best", "--game", "--players", "3"], _moment(8.0, 12.0, 5))
    _assert_stopped(res, 130)
    assert "interrupted after" in res.stdout and "open range" in res.stdout, res.stdout[-1500:]


def test_portfolio_threads_stop_on_sigint() -> None:
    """In process: Ctrl-C while the losing-game portfolio (whole question + nine pudding cubes,
    each a Z3 context on its own thread) is on a hard question ends it within the bound."""
    import threading

    from sushigo.solver import alldeals as A
    from sushigo.spec.model import budget
    from sushigo.spec.ruleset import OFFICIAL

    m, tabs, totals = A._model(3, "game", True, OFFICIAL)
    cubes = A._pudding_cubes(tabs)
    timer = threading.Timer(2.0, os.kill, (os.getpid(), signal.SIGINT))
    try:
        with budget.stop_on_signals():
            timer.start()
            t0 = time.perf_counter()
            with pytest.raises(KeyboardInterrupt):
                # 92, one above the proved best losing 3-player game (91, docs/best.md): the
                # question whose unsat proof took minutes; 97 was settled in a fraction of a second
                A._ask(m, tabs, totals[0], 92, cubes, 120.0)
                budget.stop_point()
            elapsed = time.perf_counter() - t0
    finally:
        timer.cancel()  # never let a late signal reach the test runner
    assert budget.stopped_by() == signal.SIGINT
    assert elapsed < 2.0 + STOP_SECONDS, elapsed
    assert not [t for t in threading.enumerate() if t.name.startswith("ThreadPoolExecutor")]


def test_play_many_games_stops() -> None:
    res = _stop(["play", "--games", "10000000", "--seed", "1"], _moment(3.0, 6.0, 6), signal.SIGTERM)
    _assert_stopped(res, 143)
    assert "interrupted" in res.stderr


def test_an_error_raised_by_a_stop_is_reported_as_the_stop(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # A SIGINT that lands while ctypes converts the arguments of a Z3 call surfaces as
    # ctypes.ArgumentError("argument 1: KeyboardInterrupt") (seen in CI in diff --matrix): the run
    # was stopped, so it exits 130 with "interrupted", never a traceback; without a stop the same
    # error is a bug and is not hidden.
    import ctypes

    from sushigo.spec.model import budget

    from sushigo import cli
    from sushigo.commands import rules as rules_command

    def stopped(args: object) -> int:
        budget.request_stop(signal.SIGINT)
        raise ctypes.ArgumentError("argument 1: KeyboardInterrupt: ")

    def broken(args: object) -> int:
        raise ctypes.ArgumentError("argument 1: a bug")

    budget._reset()
    try:
        monkeypatch.setattr(rules_command, "run", stopped)
        assert cli.main(["rules"]) == 130
        assert capsys.readouterr().err.strip() == "interrupted"
    finally:
        budget._reset()
    monkeypatch.setattr(rules_command, "run", broken)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the traceback is saved
    assert cli.main(["rules"]) == 70  # a bug: the internal error's code (docs/exit-codes.md), never hidden
    line = capsys.readouterr().err.strip()
    assert line.startswith("sushigo rules: internal error: ArgumentError: argument 1: a bug (traceback in ")


def test_a_stop_before_the_run_began_still_reports_every_row_unfinished(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Seen in CI on a loaded box: SIGTERM landed while check was still preparing (importing
    # Hypothesis and Z3), and the run ended with a bare "interrupted" and no report. Here the
    # stop lands in the preparation (when the runner is chosen); the outcome must still be the
    # report of a stopped run: every property listed, none finished, nothing claimed.
    from sushigo.spec.model import budget

    from sushigo.api import check as check_api

    real = check_api.runner
    calls = []

    def stopped_while_preparing(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 1:
            budget.request_stop(signal.SIGTERM)
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(check_api, "runner", stopped_while_preparing)
    budget._reset()
    try:
        out = check_api.check_outcome(jobs=1, only=["round-scores", "turn-rules"], examples=5)
        calls.clear()
        budget._reset()
        mutants = check_api.check_outcome(jobs=1, mutants=True, mutant=["maki-zero-places"],
                                          examples=5)
    except KeyboardInterrupt:  # not pytest's own stop: fail this test alone
        pytest.fail("the stop escaped check_outcome: no report of the stopped run")
    finally:
        budget._reset()
    assert out.code == 1 and out.data["interrupted"] is True and out.data["ok"] is False
    assert [p["property"] for p in out.data["properties"]] == ["round-scores", "turn-rules"]
    assert all(p["result"] == "incomplete" and p["examples"] == 0 for p in out.data["properties"])
    assert mutants.data["interrupted"] is True
    assert [(m["mutant"], m["complete"], m["caught_by"]) for m in mutants.data["mutants"]] == [
        ("maki-zero-places", False, None)]


def test_an_interrupt_caught_earlier_leaves_the_exit_code_alone(tmp_path: Path) -> None:
    # CPython remembers a KeyboardInterrupt raised inside exec'd code (attrs and dataclasses build
    # methods so while Hypothesis is imported) even after it was caught, and 'python -m' then
    # ended by SIGINT (-2) instead of the code main returned (143 after a SIGTERM during start-up,
    # in CI). Here one is raised and caught that way just before main runs (everything main needs
    # imported beforehand, since a later exec would hide the fault).
    (tmp_path / "stopmain").mkdir()
    (tmp_path / "stopmain" / "__main__.py").write_text(
        "import contextlib, io\n"
        "from sushigo.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "    main(['rules', 'no-such-ruleset'])\n"
        "try:\n"
        "    exec('raise KeyboardInterrupt')\n"
        "except KeyboardInterrupt:\n"
        "    pass\n"
        "raise SystemExit(main(['rules', 'no-such-ruleset']))\n")
    res = subprocess.run([sys.executable, "-m", "stopmain"], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert res.returncode == 2, (res.returncode, res.stderr[-800:])
    assert "unknown ruleset 'no-such-ruleset'" in res.stderr
