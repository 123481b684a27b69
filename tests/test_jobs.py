"""sushigo.jobs: batch work as tasks of plain JSON on local processes (docs/scale.md).

Every batch command is run in this process (the code that was there before the runner) and on
one and on two worker processes; the outputs must be byte-identical (the in-process run is the
independent computation: it does not go through tasks, JSON or merging). Timings are the only
fields left out. The Dask backend is tested in tests/test_dask.py.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sushigo.spec.errors import InputError, RulesError
from sushigo.spec.ruleset import RULESETS, get_ruleset

from sushigo import jobs as J
from sushigo.cli import main

ROOT = Path(__file__).resolve().parent.parent


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cli(*argv: str) -> tuple[int, str, str]:
    """The command in a process of its own, as a user runs it: a test process may have used Z3
    already, and the workers it forks would inherit that context (docs/scale.md)."""
    proc = subprocess.run([sys.executable, "-m", "sushigo", *argv], capture_output=True, text=True,
                          timeout=600, check=False)
    return proc.returncode, proc.stdout, proc.stderr


def _untimed(doc: Any) -> Any:
    """``doc`` without its measured seconds (the one field a run cannot repeat)."""
    if isinstance(doc, dict):
        return {k: _untimed(v) for k, v in doc.items() if k != "seconds"}
    if isinstance(doc, list):
        return [_untimed(v) for v in doc]
    return doc


# --------------------------------------------------------------------------- the runner itself

def slow_echo(doc: dict[str, Any]) -> dict[str, Any]:
    """A task that finishes later the earlier it comes, so answers arrive out of order."""
    time.sleep(doc["sleep"])
    return {"k": doc["k"], "pid": os.getpid()}


def refuse(doc: dict[str, Any]) -> None:
    raise RulesError(f"no rule {doc['name']!r}")


def test_answers_come_back_in_task_order_whatever_finished_first() -> None:
    n = 6
    tasks = [J.Task(f"t{k}", {"k": k, "sleep": 0.25 * (n - k)}) for k in range(n)]
    arrived: list[int] = []
    answers = J.run(f"{__name__}:slow_echo", tasks, J.Runner(2), lambda k, _a: arrived.append(k))
    assert [a["k"] for a in answers] == list(range(n))
    assert sorted(arrived) == list(range(n)) and arrived != list(range(n))  # they did finish out of order
    # one fresh process per task, none of them this one
    pids = {a["pid"] for a in answers}
    assert len(pids) == n and os.getpid() not in pids


def test_in_process_runner_runs_here() -> None:
    answers = J.run(f"{__name__}:slow_echo", [J.Task("a", {"k": 1, "sleep": 0})], J.Runner(0))
    assert answers == [{"k": 1, "pid": os.getpid()}]


@pytest.mark.parametrize("jobs", [0, 2])
def test_a_tasks_error_comes_back_as_the_same_error(jobs: int) -> None:
    tasks = [J.Task("a", {"name": "x"}), J.Task("b", {"name": "y"})]
    with pytest.raises(RulesError, match="no rule 'x'"):
        J.run(f"{__name__}:refuse", tasks, J.Runner(jobs))


def test_task_keys_must_be_unique() -> None:
    with pytest.raises(ValueError, match="unique"):
        J.run(f"{__name__}:slow_echo", [J.Task("a", {}), J.Task("a", {})], J.Runner(0))


@pytest.mark.parametrize("name", list(RULESETS))
def test_a_ruleset_survives_the_trip_as_json(name: str) -> None:
    for rules in (RULESETS[name], get_ruleset(name, ["maki_first_tie=each", "winner_tie=none"])):
        back = J.ruleset_from_json(json.loads(json.dumps(J.ruleset_json(rules))))
        assert back == rules and back.name == rules.name and back.source == rules.source


def test_runner_options_are_checked() -> None:
    assert J.runner() == J.Runner(0) and J.runner(3) == J.Runner(3)
    with pytest.raises(InputError, match="--jobs"):
        J.runner(0)
    with pytest.raises(InputError, match="drop --jobs"):
        J.runner(2, "tcp://127.0.0.1:8786")
    with pytest.raises(InputError, match="address"):
        J.runner(None, "  ")


def test_cluster_without_dask_names_the_extra(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
    with pytest.raises(InputError, match=r"pip install 'sushigo-spec\[dask\]'"):
        J.runner(None, "local")
    for argv in (["play", "--games", "10", "--cluster", "local"], ["check", "--cluster", "tcp://h:8786"],
                 ["endgame", "--batch", "x.json", "--cluster", "local"]):
        code, out, err = _run(capsys, *argv)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and "pip install 'sushigo-spec[dask]'" in err, err


# --------------------------------------------------------------------------- play --games

PLAY = [
    ("--games", "1700", "--seed", "5"),
    ("--games", "900", "--players", "5", "--rule", "winner_tie=none"),  # games without a winner
    ("--games", "120", "--players", "3", "--policy", "greedy", "random", "random"),
    ("--games", "150", "--rules", "dummy-2p"),
]


@pytest.mark.parametrize("argv", PLAY, ids=" ".join)
def test_play_on_workers_prints_what_the_serial_run_prints(argv: tuple[str, ...],
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    outs = {}
    for extra in ((), ("--jobs", "1"), ("--jobs", "2")):
        for form in ((), ("--json",)):
            code, out, err = _run(capsys, "play", *argv, *extra, *form)
            assert code == 0, err
            outs[extra, form] = out
    for form in ((), ("--json",)):
        assert outs[("--jobs", "1"), form] == outs[(), form]
        assert outs[("--jobs", "2"), form] == outs[(), form]
    summary = json.loads(outs[(), ("--json",)])
    assert summary["games"] == int(argv[1])


def test_play_tasks_split_on_whole_chunks_and_cover_every_seed() -> None:
    from sushigo.api import play as P

    rules = RULESETS["official"]
    answers = P._play_tasks(4, 10, 1234, rules, ["random"] * 4, J.Runner(0), False)
    assert sum(len(a["winners"]) for a in answers) == 1234
    # each seat's totals are those of the games, as a multiset (the executor, game by game)
    from sushigo.spec.executor import play_game

    games = [play_game(4, s, rules, ["random"] * 4) for s in range(10, 1244)]
    for seat in range(4):
        got = sorted(t for a in answers for t, k in a["totals"][seat] for _ in range(k))
        assert got == sorted(g.totals[seat] for g in games)
    merged = list(P._merged(answers))
    assert [w for _, w in merged] == [g.winners for g in games]


# --------------------------------------------------------------------------- check

def test_check_in_process_and_on_workers_agree() -> None:
    from sushigo.checks import runner as R

    opts = R.Options(examples=15, rulesets=[RULESETS["official"], RULESETS["dutch"]],
                     only=("pudding-scores", "edge-pudding-ties"))
    here = [_untimed(o.as_dict()) for o in R.run_parallel(opts, J.Runner(0))]
    assert here == [_untimed(o.as_dict()) for o in R.run_parallel(opts, J.Runner(2))]
    assert [o["result"] for o in here] == ["ok", "ok"] and all(o["examples"] > 0 for o in here)


def test_check_mutants_on_workers_are_caught_as_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["check", "--mutants", "--mutant", "pudding-all-tied-paid", "--mutant", "pudding-penalty-2p",
            "--examples", "40", "--only", "pudding-scores", "--json"]
    docs = []
    for jobs in ("1", "2"):
        code, out, err = _run(capsys, *argv, "--jobs", jobs)
        assert code == 0, err
        docs.append(_untimed(json.loads(out)))
    assert docs[0] == docs[1]
    # each planted pitfall is caught by the property that checks its rule (docs/checks.md)
    assert [(m["mutant"], m["rule_id"], m["caught_by"]) for m in docs[0]["mutants"]] == [
        ("pudding-all-tied-paid", "R-PUDDING-ALL-TIED", "pudding-scores"),
        ("pudding-penalty-2p", "R-PUDDING-2P", "pudding-scores")]


# --------------------------------------------------------------------------- endgame --batch

def _puzzle_positions(n: int) -> list[dict[str, Any]]:
    from sushigo.solver.puzzles import load_puzzles

    return [p.to_json()["position"] for p in load_puzzles()[:n]]


def test_endgame_batch_answers_are_the_single_answers_in_order(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    positions = _puzzle_positions(5)
    listed = tmp_path / "positions.json"
    listed.write_text(json.dumps(positions), encoding="utf-8")
    lines = tmp_path / "positions.jsonl"
    lines.write_text("\n".join(json.dumps(p) for p in positions) + "\n\n", encoding="utf-8")
    singles = []
    for k, pos in enumerate(positions):
        one = tmp_path / f"p{k}.json"
        one.write_text(json.dumps(pos), encoding="utf-8")
        code, out, err = _run(capsys, "endgame", str(one), "--json")
        assert code == 0, err
        singles.append(json.loads(out))
    outs = set()
    for path, extra in ((listed, ()), (lines, ()), (listed, ("--jobs", "1")), (lines, ("--jobs", "2"))):
        code, out, err = _run(capsys, "endgame", "--batch", str(path), "--json", *extra)
        assert code == 0, err
        outs.add(out)
        doc = json.loads(out)
        assert next(iter(doc)) == "format" and doc["format"] == "sushigo-endgame-batch/1"
        assert doc["positions"] == 5 and doc["answers"] == singles
        from sushigo import schemas

        assert schemas.first_problem(doc, "endgame-result") is None
    assert len(outs) == 1
    code, out, _ = _run(capsys, "endgame", "--batch", str(listed))
    assert code == 0 and out.count("\n") == 5 + 4 and "5 of 5 positions solved" in out
    for k, single in enumerate(singles):
        row = out.splitlines()[2 + k].split()
        assert row[0] == str(k) and row[5] == f"{single['value']:g}"


#: {P} stands for a good position (examples/position.json on one line).
BAD_BATCHES = [
    ("[{hands", "not valid JSON"),
    ("[]", "non-empty JSON list"),
    ("", "holds no position"),
    ('[{P}, {"hands": "x"}]', "position 1 does not match the position schema at $.hands"),
    ('[{P}, {P}, {"hands": [["squid"], ["egg", "egg"]], "round": 1}]',
     "position 2: every hand must hold the same number of cards"),
    ('{P}\n{"hands": [["squid"], ["egg"]], "round": 9}\n', "position 1 (line 2): "),
    ("{P}\n\n{oops\n", "line 3 (position 1) is not valid JSON"),
]


@pytest.mark.parametrize(("content", "message"), BAD_BATCHES)
def test_endgame_batch_bad_input_is_one_line_naming_the_position(
        content: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = json.dumps(json.loads((ROOT / "examples" / "position.json").read_text(encoding="utf-8")))
    path = tmp_path / "bad.json"
    path.write_text(content.replace("{P}", good), encoding="utf-8")
    code, out, err = _run(capsys, "endgame", "--batch", str(path), "--jobs", "2")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_endgame_batch_options_that_contradict(capsys: pytest.CaptureFixture[str]) -> None:
    pos = str(ROOT / "examples" / "position.json")
    for argv in (["--batch", pos, pos], ["--batch", pos, "--hands", "squid / egg"], [pos, "--jobs", "2"]):
        code, _, err = _run(capsys, "endgame", *argv)
        assert code == 2 and err.count("\n") == 1, err


# --------------------------------------------------------------------------- diff --matrix, best

def test_matrix_tasks_give_the_serial_matrix() -> None:
    from sushigo.solver.diff import matrix

    from sushigo.api.diff import _matrix_tasks

    names = ["official", "english", "dutch", "winner-tie-none"]  # official and english share readings
    serial = matrix(names, timeout_ms=30_000)
    cells = _matrix_tasks(names, 30_000, None, J.Runner(2), lambda _m: None)
    assert [c.as_json() for c in cells] == [c.as_json() for c in serial]
    assert {c.status for c in cells} <= {"differ", "equivalent"}


def test_best_over_all_deals_on_workers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["best", "--round", "--players", "2", "--json"]
    code, out, err = _run(capsys, *argv)
    assert code == 0, err
    here = json.loads(out)
    docs = []
    for jobs in ("1", "2"):
        code, out, err = cli(*argv, "--jobs", jobs)  # Z3 may pick another witness after other work
        assert code == 0, err
        docs.append(_untimed(json.loads(out)))
    assert docs[0] == docs[1]
    # the scores are proved optimal either way (the witness game may be another optimal one)
    for a, b in zip(here["results"], docs[0]["results"], strict=True):
        for q in ("best", "best_losing"):
            assert (a[q]["score"], a[q]["status"]) == (b[q]["score"], b[q]["status"])
            assert b[q]["status"] == "optimal"


def test_jobs_refused_where_nothing_is_spread(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["diff", "official", "dutch", "--jobs", "2"],
                 ["best", str(ROOT / "examples" / "puzzle.json"), "--jobs", "2"]):
        code, _, err = _run(capsys, *argv)
        assert code == 2 and "--jobs" in err and err.count("\n") == 1, err


# --------------------------------------------------------------------------- a stop

def _group_alive(pgid: int) -> list[int]:
    alive = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z" and int(fields[2]) == pgid:
                alive.append(int(entry.name))
    return alive


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stop_ends_the_workers_and_claims_nothing(sig: int, code: int) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "sushigo", "play", "--games", "3000000", "--jobs", "2",
                             "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    time.sleep(4.0)
    assert proc.poll() is None
    os.kill(proc.pid, sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err
    assert out == "" and "interrupted" in err
    deadline = time.monotonic() + 5
    while _group_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _group_alive(proc.pid) == []

