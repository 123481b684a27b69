"""Start-up: a command imports only what it uses (issue 12, item 4). Not timed (the benchmark
benchmarks/bench_startup.py measures the time); this checks which modules got imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_top_level_help_builds_no_command_and_no_stop_machinery() -> None:
    # The top-level help lists each command by its HELP line: it imports the command modules
    # but none of the library behind them (sushigo.api.*) and not the stop machinery (its
    # dataclasses, threads and signal handling), which took it past 4x a bare start (measured
    # in a fresh wheel install: 5.7x before, 3.8x after; benchmarks/bench_startup.py).
    script = ("import contextlib, io, json, sys\nfrom sushigo.cli import main\n"
              "with contextlib.redirect_stdout(io.StringIO()):\n    main(['--help'])\n"
              "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stdout.strip().splitlines()[-1]))
    assert "sushigo.commands.check" in loaded  # the listing did import the command modules
    assert not {m for m in loaded if m.startswith("sushigo.api")}, sorted(loaded)
    assert "sushigo.spec.model.budget" not in loaded and "dataclasses" not in loaded


# ------------------------------------------------------------------ tables without tabulate (issue 31 item 5)

_CELL_TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=12)
_CELL = st.one_of(_CELL_TEXT, st.integers(-10**6, 10**6), st.none(), st.booleans(),
                  st.sampled_from([" edge", "edge ", "tab\there", "wide \u00fc", "\x1b[31mred\x1b[0m", 1.5]))


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.lists(_CELL_TEXT, min_size=n, max_size=n),
    st.lists(st.lists(_CELL, min_size=n, max_size=n), max_size=5))))
def test_a_plain_table_is_laid_out_as_tabulate_lays_it_out(
        table: tuple[list[str], list[list[object]]]) -> None:
    # The independent side is tabulate itself, as print_table called it before.
    from tabulate import tabulate

    from sushigo.common import simple_table

    headers, rows = table
    mine = simple_table(rows, headers)  # type: ignore[arg-type]
    if mine is not None:
        assert mine == tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)


def test_score_prints_its_tables_without_importing_tabulate() -> None:
    from sushigo.common import simple_table

    assert "tabulate" not in _after_cli(["score", "tempura tempura", "sashimi"])
    # the probe sees it where a cell needs tabulate (a float, which it formats)
    assert "tabulate" in _modules_after("from sushigo.common import print_table\nprint_table([[1.5]], ['x'])")
    assert simple_table([["p0", 5, None]], ["player", "total", "x"]) is not None  # the property's fast path
