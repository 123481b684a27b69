"""The batch work on a Dask scheduler (``--cluster ADDRESS``, docs/scale.md).

A scheduler with two worker processes of one thread each is started on the loopback address for
this module and stopped after it. For every batch command the same seed gives byte-identical
``--json`` output with ``--jobs 1``, ``--jobs 2`` and ``--cluster ADDRESS`` (the measured seconds
are the only fields left out); a worker killed while tasks run loses no task. Skipped when
``distributed`` is not installed (``pip install 'sushigo-spec[dask]'``; CI installs it).
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

distributed = pytest.importorskip("distributed")

from test_jobs import _run, _untimed, cli  # noqa: E402

from sushigo import jobs as J  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def _same_everywhere(capsys: pytest.CaptureFixture[str], address: str, argv: list[str],
                     timed: bool = False) -> dict[str, Any]:
    """Run ``argv --json`` with --jobs 1, --jobs 2 and --cluster ADDRESS; the three outputs must be
    byte-identical (``timed``: once the measured seconds are left out)."""
    outs = []
    for extra in (["--jobs", "1"], ["--jobs", "2"], ["--cluster", address]):
        code, out, err = cli(*argv, "--json", *extra)
        assert code == 0, f"{argv + extra}: {err}"
        outs.append(json.dumps(_untimed(json.loads(out))) if timed else out)
    assert outs[0] == outs[1] == outs[2], argv
    doc: dict[str, Any] = json.loads(outs[0])
    return doc


def test_play(capsys: pytest.CaptureFixture[str], address: str) -> None:
    doc = _same_everywhere(capsys, address, ["play", "--games", "800", "--players", "5", "--seed", "11",
                                            "--rule", "winner_tie=none"])
    code, out, _ = _run(capsys, "play", "--games", "800", "--players", "5", "--seed", "11", "--rule",
                        "winner_tie=none", "--json")
    assert code == 0 and json.loads(out) == doc  # the in-process run, which makes no tasks


def test_check(capsys: pytest.CaptureFixture[str], address: str) -> None:
    doc = _same_everywhere(capsys, address, ["check", "--examples", "10", "--rules", "dutch", "--only",
                                            "pudding-scores", "--only", "winners", "--no-edge"], timed=True)
    assert [p["property"] for p in doc["properties"]] == ["pudding-scores", "winners"]
    assert doc["ok"] and all(p["examples"] > 0 for p in doc["properties"])


def test_check_mutants(capsys: pytest.CaptureFixture[str], address: str) -> None:
    doc = _same_everywhere(capsys, address, ["check", "--mutants", "--mutant", "pudding-all-tied-paid",
                                            "--mutant", "pudding-penalty-2p", "--examples", "20", "--only",
                                            "pudding-scores"], timed=True)
    assert [m["caught_by"] for m in doc["mutants"]] == ["pudding-scores", "pudding-scores"]


def test_endgame_batch(capsys: pytest.CaptureFixture[str], address: str, tmp_path: Path) -> None:
    from sushigo.solver.puzzles import load_puzzles

    path = tmp_path / "positions.jsonl"
    path.write_text("".join(json.dumps(p.to_json()["position"]) + "\n" for p in load_puzzles()[:4]),
                    encoding="utf-8")
    doc = _same_everywhere(capsys, address, ["endgame", "--batch", str(path)])
    # the puzzles' values were pinned when they were made (solver/data/puzzles.json)
    assert [a["value"] for a in doc["answers"]] == [p.value for p in load_puzzles()[:4]]


def test_diff_matrix(address: str) -> None:
    from sushigo.solver.diff import matrix

    from sushigo.api.diff import _matrix_tasks

    names = ["official", "dutch", "winner-tie-none"]  # witnesses found fast (an equivalence proof is not)
    cells = {}
    for where in (J.Runner(1), J.Runner(2), J.Runner(1, address)):
        cells[where] = [c.as_json() for c in _matrix_tasks(names, 30_000, None, where, lambda _m: None)]
    assert len({json.dumps(c) for c in cells.values()}) == 1
    assert next(iter(cells.values())) == [c.as_json() for c in matrix(names, timeout_ms=30_000)]


def test_best_over_all_deals(capsys: pytest.CaptureFixture[str], address: str) -> None:
    doc = _same_everywhere(capsys, address, ["best", "--round", "--players", "2"], timed=True)
    assert [(r["best"]["status"], r["best_losing"]["status"]) for r in doc["results"]] == [
        ("optimal", "optimal")]


def test_a_killed_worker_loses_no_task() -> None:
    """Kill a worker process (SIGKILL) as soon as the first answer arrives, while the others are
    queued or running: the scheduler runs its tasks again elsewhere and the answers are those of
    the run in this process."""
    from sushigo.spec.ruleset import OFFICIAL

    plain = {"players": 4, "rules": J.ruleset_json(OFFICIAL), "policies": ["greedy"] * 4}
    tasks = [J.Task(f"games-{s}", {**plain, "seed": s, "games": 30}) for s in range(0, 300, 30)]
    expected = J.run("sushigo.api.play:games_task", tasks, J.Runner(0))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0") as cluster:
        victim = next(iter(cluster.workers.values())).process.pid  # the worker's process (its nanny's child)
        killed: list[int] = []

        def done(k: int, _answer: Any) -> None:
            if not killed:
                os.kill(victim, signal.SIGKILL)
                killed.append(k)

        answers = J.run("sushigo.api.play:games_task", tasks, J.Runner(1, cluster.scheduler_address), done)
        assert killed
    assert answers == expected
