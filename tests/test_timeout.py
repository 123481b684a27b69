"""Every solving command given ``--timeout 1`` returns soon, with outcome proved or unknown, never
a traceback and never a claim it has not proved (issue 13, "Done when").

Each case runs the real CLI on a hard input. When the answer is ``proved`` within the second,
it is checked against an independent computation (another engine, the plain scorer, the
counting by generating functions) or against the unbounded answer. ``table`` gets its
``--timeout`` from another branch; ``conform`` still spends its case generation before its
first deadline check (docs/answers.md).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sushigo.spec.ruleset import get_ruleset
from sushigo.spec.scoring import dish_points, score_game
from sushigo.spec.tableau import parse_tableau

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: Generous: the box runs several test suites at once; unloaded these take 2 to 6 s.
WALL_SECONDS = 30.0

HANDS = ("squid egg salmon tempura tempura sashimi maki2 dumpling pudding wasabi / "
         "wasabi salmon egg maki3 pudding chopsticks tempura squid sashimi dumpling")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("timeout")
    for f in EXAMPLES.iterdir():
        if f.is_file():
            shutil.copy(f, d / f.name)
    return d


def _run(workdir: Path, *args: str) -> tuple[dict[str, Any], int, float]:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "sushigo", *args, "--timeout", "1", "--json"],
                          cwd=workdir, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    wall = time.perf_counter() - t0
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1), proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["outcome"] in ("proved", "unknown"), doc["outcome"]
    assert wall < WALL_SECONDS, f"{args}: {wall:.1f} s"
    # exit 0 only for a settled answer (a proved "no", like a failed check, also exits 1)
    if proc.returncode == 0:
        assert doc["outcome"] == "proved"
    return doc, proc.returncode, wall


def test_best(workdir: Path) -> None:
    doc, code, _ = _run(workdir, "best", "record-4p.json", "--round", "1", "--seat", "0")
    if doc["outcome"] == "unknown":
        assert doc["status"] == "unknown" and code == 1
        return
    from sushigo.api.best import best

    # the exhaustive dynamic programme: an engine that shares no code with the Z3 encoding
    other = best(str(workdir / "record-4p.json"), engine="search", round=1, seat=0)
    assert doc["status"] == other["status"] == "optimal"
    assert doc["score"] == other["score"]


def test_tableaux(workdir: Path) -> None:
    doc, _code, _ = _run(workdir, "tableaux", "--cards", "10", "--score", "40")
    if doc["outcome"] == "unknown":
        assert doc["status"] == "unknown" and "budget" in doc
        return
    from sushigo.spec.ruleset import OFFICIAL

    from sushigo.api.tableaux import tableaux

    # the count by generating functions (no Z3); each listed tableau re-scored by the plain
    # scorer: 10 cards, 40 dish points (no maki points were asked for)
    assert doc["count"] == tableaux(cards=10, score=40, count=True)["count"]
    for text in doc["tableaux"]:
        t = parse_tableau(text)
        assert t.size == 10
        assert sum(dish_points(t.counts, OFFICIAL)) == 40


def test_scoresheet(workdir: Path) -> None:
    doc, code, _ = _run(workdir, "scoresheet", "sheet4.json")
    if doc["outcome"] == "unknown":
        assert code == 1
        return
    assert doc["possible"] is True
    sheet = json.loads((workdir / "sheet4.json").read_text())
    w = doc["witness"]
    rounds = [[parse_tableau(t) for t in rnd] for rnd in w["rounds"]]
    score = score_game(rounds, get_ruleset(w["rules"]))  # the plain scorer, not the Z3 model
    assert [list(r) for r in zip(*[[s.total for s in rnd] for rnd in score.rounds], strict=True)] \
        == [list(c) for c in zip(*sheet["rounds"], strict=True)]
    assert list(score.totals) == sheet["totals"]


def test_diff(workdir: Path) -> None:
    doc, _code, _ = _run(workdir, "diff", "official", "french")
    if doc["outcome"] == "unknown":
        assert doc["status"] == "unknown"
        return
    from sushigo.api.diff import diff

    unbounded = diff("official", "french", timeout=600.0)
    assert doc["status"] == unbounded["status"]
    if doc["status"] == "differ":
        assert (doc["witness"]["players"], doc["witness"]["cards"]) == \
            (unbounded["witness"]["players"], unbounded["witness"]["cards"])


def test_endgame(workdir: Path) -> None:
    doc, code, _ = _run(workdir, "endgame", "--hands", HANDS)
    if doc["outcome"] == "unknown":
        assert doc["status"] == "unknown" and doc["value"] is None and code == 1
        return
    from sushigo.api.endgame import endgame

    # proved within a second: the same search without the second's limit gives the same value
    assert endgame(hands=HANDS, time_limit=600.0)["value"] == doc["value"]


def test_puzzle_verify(workdir: Path) -> None:
    doc, _code, _ = _run(workdir, "puzzle", "--verify")
    if doc["outcome"] == "unknown":
        assert doc["unknown"], "unknown names the puzzles not re-solved"
        assert doc["problems"] == []  # those that were re-solved hold
        return
    assert doc["problems"] == [] and doc["unknown"] == []


def test_check(workdir: Path) -> None:
    doc, code, _ = _run(workdir, "check")
    if doc["outcome"] == "unknown":
        assert code == 1 and any(p["unknown"] for p in doc["properties"])
        return
    assert doc["ok"] is True
