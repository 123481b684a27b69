"""The same command with the same seed prints the same output, whatever the number of workers
(issue 16 item 6).

Decision: measured wall-clock times (``check``'s "time (s)" column and its "cases in X s" line,
the JSON "seconds" fields) are the one part of an output that is not a function of the input;
they are masked before the comparison. Everything else must be byte-identical. Each command
runs as its own process, as a user runs it, so nothing cached in one run reaches the other.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(argv: list[str]) -> str:
    done = subprocess.run([sys.executable, "-m", "sushigo", *argv], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    return done.stdout


def _without_seconds(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_seconds(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_without_seconds(v) for v in value]
    return value


def test_check_same_seed_same_output_on_one_or_two_workers() -> None:
    base = ["check", "--only", "pudding-scores", "--only", "turn-rules", "--only", "edge-pudding-ties",
            "--examples", "30", "--seed", "11"]
    one = _run([*base, "--jobs", "1", "--json"])
    two = _run([*base, "--jobs", "2", "--json"])
    assert _without_seconds(json.loads(one)) == _without_seconds(json.loads(two))
    # the text form too, with the times masked
    mask = re.compile(r"\d+\.\d s\b|(?<=\s)\d+\.\d(?=\s)")
    # a time of another width (9.5 s, 10.5 s) widens its column: compare with spaces collapsed
    text1 = re.sub(r" +", " ", mask.sub("T", _run([*base, "--jobs", "1"])))
    text2 = re.sub(r" +", " ", mask.sub("T", _run([*base, "--jobs", "2"])))
    assert text1 == text2


def test_play_games_same_seed_byte_identical() -> None:
    argv = ["play", "--players", "4", "--games", "40", "--seed", "5"]
    assert _run(argv) == _run(argv)
    argv_json = [*argv, "--json"]
    assert _run(argv_json) == _run(argv_json)


def test_conform_same_seed_byte_identical() -> None:
    # Everything but the measured "seconds" (the run's wall time, reported in its budget line).
    argv = ["conform", str(ROOT / "examples" / "buggy_adapter.py"), "--examples", "60", "--seed", "3",
            "--json"]
    one, two = _run(argv), _run(argv)
    assert _without_seconds(json.loads(one)) == _without_seconds(json.loads(two))
    assert json.loads(one)["faults"], "the buggy adapter's faults must be found (the run compared nothing)"


@pytest.mark.slow
def test_diff_matrix_byte_identical() -> None:
    # The whole matrix: every pair of named rulesets (2.5 min a run on a loaded 2-core box).
    # rlimit, not time, bounds each question (the same stop on any machine or load)
    argv = ["diff", "--matrix", "--json", "--timeout", "300", "--rlimit", "20000000"]
    assert _run(argv) == _run(argv)
