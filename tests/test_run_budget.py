"""One budget type: a whole run's budget (``sushigo table --timeout/--rlimit``) is a
:class:`Budget` (``Budget.for_run``), and each call of the run gets what is left of it.

Expected values are worked by hand from the arithmetic of the account (a run of rlimit 100 that
has spent 40 has 60 left), independent of the table solver that keeps the account.
"""

from __future__ import annotations

import time

from sushigo.solver.table import NO_BUDGET, RunBudget
from sushigo.spec.model.budget import Budget


def test_a_run_budget_is_a_budget_with_no_per_call_limits() -> None:
    run = Budget.for_run(2.5, 7)
    assert isinstance(run, Budget) and RunBudget(2.5, 7) == run
    assert (run.timeout_ms, run.rlimit, run.run_seconds, run.run_rlimit) == (None, None, 2.5, 7)
    assert run.describe_run() == "timeout 2.5 s, rlimit 7"
    assert run.run_json() == {"timeout_seconds": 2.5, "rlimit": 7}
    assert NO_BUDGET == Budget.for_run() and NO_BUDGET.describe_run() == "none"
    assert Budget.for_run(seconds=600.0).describe_run() == "timeout 600 s"
    assert Budget.for_run(rlimit=3).within(Budget.for_run(9.0, 5)) == Budget.for_run(9.0, 3)


def test_each_call_gets_what_is_left_of_the_runs_rlimit() -> None:
    run = Budget.for_run(rlimit=100)
    now = time.monotonic()
    assert run.next_call(now, 40, 5_000, 1_000) == (5_000, 60, True)  # the run's 60 bind
    assert run.next_call(now, 40, 5_000, 50) == (5_000, 50, False)  # the call's own 50 bind
    assert run.next_call(now, 100, 5_000, 1_000) is None  # spent
    assert run.next_call(now, 130, 5_000, 1_000) is None


def test_each_call_gets_what_is_left_of_the_runs_seconds() -> None:
    run = Budget.for_run(seconds=5.0)
    assert run.next_call(time.monotonic() - 10.0, 0, 1_000, 1_000) is None  # began 10 s ago
    timeout_ms, rlimit, capped = run.next_call(time.monotonic(), 0, 60_000, 1_000) or (0, 0, False)
    assert 4_000 < timeout_ms <= 5_000 and rlimit == 1_000 and capped
    assert run.next_call(time.monotonic(), 0, 1_000, 1_000) == (1_000, 1_000, False)


def test_without_run_limits_a_call_keeps_its_own() -> None:
    assert NO_BUDGET.next_call(time.monotonic() - 1e6, 10**12, 1_000, 2_000) == (1_000, 2_000, False)


def test_the_endgame_reads_the_one_budgets_nodes_and_seconds() -> None:
    # A two-player position with 3 cards each: more than one state to search, so a budget of
    # one state runs out (unknown, no value claimed) and the default budget solves it.
    from sushigo.solver.endgame import random_position, solve_position
    from sushigo.spec.ruleset import OFFICIAL

    pos = random_position(7, 2, 3, OFFICIAL, 1)  # 3 cards a hand left
    tight = solve_position(pos, budget=Budget(None, None, nodes=1))
    assert tight.status == "unknown" and tight.value is None
    assert tight.reason is not None and "1 states" in tight.reason
    assert solve_position(pos, budget=Budget(None, None)).status == "solved"  # nodes left open: default
    assert solve_position(pos, max_nodes=1).status == "unknown"  # the old spelling says the same
