"""``sushigo table``: a budget for the whole run (``--timeout``, ``--rlimit``) and progress on a
terminal (issue 18, item 5).

Expected counts come from brute force (``_brute_tables`` of tests/test_table.py pairs every
tableau of 10 cards with the plain scorer), never from the solver under test.
"""

from __future__ import annotations

import io
import json
import os
import select
import signal
import subprocess
import sys
import time

import pytest
from sushigo.solver.table import NO_BUDGET, RunBudget, TableAnswer, parse_query, solve
from sushigo.spec.ruleset import OFFICIAL
from sushigo.spec.scoring import round_totals
from test_interrupts import _assert_stopped, _moment, _stop
from test_table import _brute_tables

from sushigo import schemas
from sushigo.cli import main
from sushigo.progress import TerminalProgress, terminal_progress

# 42 and 36 with 10 cards each: twelve tables (brute force), enough for a budget to stop the
# count part-way. 10 and 10: thousands of tables, the "would take long" case.
SMALL = [42, 36]
LARGE = [10, 10]


def _solve(scores: list[int], limit: int, run: RunBudget = NO_BUDGET) -> TableAnswer:
    return solve(parse_query({"scores": scores}, OFFICIAL), limit=limit, run=run)


def _assert_tables(a: TableAnswer, scores: list[int]) -> None:
    """The witness, whatever the budget, is a real table: re-scored by the plain scorer."""
    assert a.witness is not None
    assert round_totals([t.counts for t in a.witness]) == scores
    assert all(t.size == OFFICIAL.hand_size(len(scores)) for t in a.witness)


@pytest.fixture(scope="module")
def small_full() -> int:
    return _brute_tables(SMALL, OFFICIAL.hand_size(2))


def test_wall_clock_budget_stops_a_long_count() -> None:
    t0 = time.monotonic()
    a = _solve(LARGE, limit=10**6, run=RunBudget(seconds=2.0))
    elapsed = time.monotonic() - t0
    assert a.status == "unknown" and not a.finished
    assert a.count >= 1 and not a.complete  # a lower bound, never the full table
    assert not a.maki and not a.minimum  # no fact is claimed for every solution
    _assert_tables(a, LARGE)
    # spent up to the budget (Z3's timer works in whole milliseconds: allow it one early tick)
    assert a.spent is not None and a.spent.seconds >= 1.99
    # the budget is the whole run's: building the model and reading the answer come on top
    assert elapsed < 2.0 + 20.0, elapsed
    assert a.reason is not None and "timeout 2 s" in a.reason


def test_partial_counts_are_lower_bounds(small_full: int) -> None:
    full = _solve(SMALL, limit=1000)
    assert full.status == "possible" and full.complete and full.count == small_full == 12
    assert full.spent is not None
    spent = full.spent.rlimit
    counts = []
    for share in (32, 8, 4, 2):
        a = _solve(SMALL, limit=1000, run=RunBudget(rlimit=spent // share))
        assert a.status == "unknown" and not a.finished, share
        assert a.spent is not None and a.spent.rlimit <= spent // share
        assert a.count <= small_full
        if a.witness is not None:
            _assert_tables(a, SMALL)
        counts.append(a.count)
    # a larger budget counts at least as far (the runs are the same calls until the budget ends)
    assert counts == sorted(counts)
    assert any(0 < c < small_full for c in counts), counts


def test_rlimit_budget_is_deterministic() -> None:
    runs = [_solve(LARGE, limit=10**6, run=RunBudget(rlimit=3_000_000)) for _ in range(2)]
    assert runs[0].status == runs[1].status == "unknown"
    assert runs[0].count == runs[1].count and runs[0].witness == runs[1].witness


def test_within_budget_the_answer_is_the_unbudgeted_one(small_full: int) -> None:
    free = _solve(SMALL, limit=50)
    assert free.spent is not None
    held = _solve(SMALL, limit=50, run=RunBudget(seconds=600.0, rlimit=4 * free.spent.rlimit + 1))
    assert held.status == free.status == "possible" and held.finished
    assert held.count == free.count == small_full and held.complete
    assert (held.witness, held.maki, held.minimum) == (free.witness, free.maki, free.minimum)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_unknown_is_honest(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "table", "--scores", "10,10", "--limit", "1000000", "--rlimit",
                          "2000000", "--json")
    assert code == 1 and err == ""
    doc = json.loads(out)
    assert schemas.first_problem(doc, "table-result") is None
    assert doc["possible"] is None and doc["complete"] is False and doc["more"] is True
    assert "maki" not in doc and "minimum" not in doc
    assert doc["budget"]["rlimit"] == 2_000_000 and doc["budget"]["timeout_seconds"] is None
    assert 0 < doc["budget"]["rlimit_spent"] <= 2_000_000
    code, out, err = _run(capsys, "table", "--scores", "10,10", "--limit", "1000000", "--rlimit", "2000000")
    assert code == 1
    assert "tables counted before the budget ran out:" in out and "(incomplete)" in out
    assert "unknown: run budget spent (rlimit 2000000" in out
    assert "\ntables:" not in out and "every solution" not in out


def test_cli_within_budget(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "table", "--scores", "42,36", "--json")
    plain = json.loads(out)
    code2, out2, _ = _run(capsys, "table", "--scores", "42,36", "--timeout", "600", "--rlimit",
                          "4000000000", "--json")
    held = json.loads(out2)
    assert code == code2 == 0 and schemas.first_problem(held, "table-result") is None
    assert held.pop("budget")["timeout_seconds"] == 600
    assert held == plain and held["complete"] is True


@pytest.mark.parametrize("option,value", [("--timeout", "nan"), ("--timeout", "inf"), ("--timeout", "-1"),
                                          ("--timeout", "0"), ("--rlimit", "-1"), ("--rlimit", "0"),
                                          ("--rlimit", "1.5")])
def test_bad_budget_one_line_exit_2(capsys: pytest.CaptureFixture[str], option: str, value: str) -> None:
    code, out, err = _run(capsys, "table", "--scores", "45,36", option, value)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and option in lines[0] and repr(value) in lines[0]


def test_library_refuses_bad_budgets() -> None:
    from sushigo.spec.errors import InputError

    from sushigo.api.table import table_outcome

    for kwargs in ({"timeout": float("nan")}, {"timeout": -1.0}, {"rlimit": 0}, {"timeout": True}):
        with pytest.raises(InputError):
            table_outcome(scores="45,36", **kwargs)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- progress


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_the_latest_step_and_is_cleared() -> None:
    now = [0.0]
    stream = FakeTerminal()
    shown = TerminalProgress(stream, interval=0.2, clock=lambda: now[0])
    shown.draw()  # nothing reported yet: nothing drawn
    for k in range(10):  # the first step is drawn at once, the others within 0.2 s are held
        now[0] = k * 0.01
        shown(f"table: {k} tables counted")
    shown.draw()  # the latest
    shown.draw()  # the same text is not drawn again
    now[0] = 5.0  # no step for 5 s: the seconds still count
    shown.draw()
    assert stream.getvalue() == ("\r\033[Ktable: 0 tables counted, 0 s"
                                 "\r\033[Ktable: 9 tables counted, 0 s"
                                 "\r\033[Ktable: 9 tables counted, 5 s")
    shown.clear()
    assert stream.getvalue().endswith("\r\033[K")
    shown.draw()  # after clear, never again
    assert stream.getvalue().endswith("\r\033[K")


def test_progress_thread_draws_until_cleared() -> None:
    stream = FakeTerminal()
    shown = TerminalProgress(stream, interval=0.01)
    shown.run()
    shown("best game, 3 players: 97 found, 98..104 open")
    deadline = time.monotonic() + 30
    while "97 found" not in stream.getvalue() and time.monotonic() < deadline:
        time.sleep(0.01)
    shown.clear()
    assert stream.getvalue().startswith("\r\033[Kbest game, 3 players: 97 found, 98..104 open, ")
    assert stream.getvalue().endswith("\r\033[K")


def test_progress_only_on_a_terminal_and_cleared_on_error() -> None:
    pipe = io.StringIO()
    with terminal_progress(True, pipe) as show:
        assert show is None
    tty = FakeTerminal()
    with terminal_progress(False, tty) as show:  # --json
        assert show is None
    with pytest.raises(KeyboardInterrupt), terminal_progress(True, tty) as show:
        assert show is not None
        show("table: 3 tables counted")
        raise KeyboardInterrupt
    shown = tty.getvalue()
    assert shown.startswith("\r\033[Ktable: 3 tables counted") and shown.endswith("\r\033[K")


def _on_pty(argv: list[str], seconds: float = 60.0) -> tuple[int, str, str]:
    """Run the CLI with standard error on a pseudo-terminal, standard output on a pipe."""
    master, slave = os.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "sushigo", *argv], stdout=subprocess.PIPE,
                                stderr=slave, text=True)
        os.close(slave)
        err = b""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # the child closed its end
                    break
                if not chunk:
                    break
                err += chunk
            elif proc.poll() is not None:
                break
        out, _ = proc.communicate(timeout=seconds)
    finally:
        os.close(master)
    return proc.returncode, out, err.decode()


def test_progress_on_a_terminal_not_in_json() -> None:
    argv = ["table", "--scores", "10,10", "--limit", "1000000", "--timeout", "3"]
    code, out, err = _on_pty(argv)
    assert code == 1 and "tables counted before the budget ran out" in out
    assert "table: " in err and " tables counted, " in err
    assert err.endswith("\r\033[K")  # cleared before the answer
    assert "\033[K" not in out
    code, out, err = _on_pty([*argv, "--json"])
    assert code == 1 and json.loads(out)["complete"] is False
    assert err == ""


def test_no_progress_on_a_pipe() -> None:
    done = subprocess.run([sys.executable, "-m", "sushigo", "table", "--scores", "10,10", "--limit",
                           "1000000", "--timeout", "2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and done.stderr == ""
    assert "\033[K" not in done.stdout


def test_interrupt_exits_130() -> None:
    res = _stop(["table", "--scores", "10,10", "--limit", "1000000"], _moment(2.0, 4.0, 30))
    _assert_stopped(res, 130)
    assert "interrupted" in res.stderr
    assert "tables:" not in res.stdout and "every solution" not in res.stdout


def test_sigterm_exits_143() -> None:
    res = _stop(["table", "--scores", "10,10", "--limit", "1000000", "--timeout", "600"],
                _moment(2.0, 4.0, 31), signal.SIGTERM)
    _assert_stopped(res, 143)
    assert "tables:" not in res.stdout
