"""Start-up: a command imports only what it uses (issue 12, item 4). Not timed (the benchmark
benchmarks/bench_startup.py measures the time); this checks which modules got imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("z3", "hypothesis")


def _modules_after(code: str) -> set[str]:
    """The top-level module names loaded after running ``code`` in a fresh interpreter."""
    script = code + "\nimport json, sys\nprint(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def _after_cli(argv: list[str]) -> set[str]:
    code = ("import contextlib, io\nfrom sushigo.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()):\n    main({argv!r})")
    return _modules_after(code)


def test_import_sushigo_loads_nothing_heavy() -> None:
    loaded = _modules_after("import sushigo")
    assert not loaded & {"z3", "hypothesis", "tabulate"}


def test_the_public_names_resolve_lazily() -> None:
    loaded = _modules_after("import sushigo\nsushigo.Ruleset, sushigo.Tableau, sushigo.score, sushigo.play")
    assert not loaded & set(HEAVY)


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["rules"],
        ["rules", "--json"],
        ["score", "tempura tempura", "sashimi"],
        ["score", "tempura tempura", "sashimi", "--json"],
        ["play", "--seed", "3"],
        ["play", "--games", "3", "--policy", "greedy", "--json"],
        ["best", "--help"],
        ["check", "--help"],
    ],
    ids=lambda argv: " ".join(argv),
)
def test_light_commands_import_neither_z3_nor_hypothesis(argv: list[str]) -> None:
    code = ("import contextlib, io\nfrom sushigo.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    try:\n        main({argv!r})\n    except SystemExit:\n        pass")
    loaded = _modules_after(code)
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_replay_imports_neither_z3_nor_hypothesis(tmp_path: Path) -> None:
    import sushigo

    path = tmp_path / "game.json"
    path.write_text(json.dumps(sushigo.play(seed=4)))
    assert not _after_cli(["replay", str(path)]) & set(HEAVY)
    assert not _after_cli(["replay", str(path), "--json"]) & set(HEAVY)


def test_a_solver_command_does_import_z3() -> None:
    """The probe can see an import (so the tests above can fail)."""
    assert "z3" in _after_cli(["tableaux", "--score", "9", "--cards", "2"])
