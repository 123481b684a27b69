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


def _loaded_after(argv: list[str]) -> set[str]:
    """Every module name (not just the top level) loaded after ``main(argv)`` in a fresh interpreter."""
    script = ("import contextlib, io, sys\nfrom sushigo.cli import main\n"
              "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
              f"    main({argv!r})\n"
              "loaded = sorted(sys.modules)\nimport json\nprint(json.dumps(loaded))")  # json after the count
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_top_level_help_builds_no_command_and_no_stop_machinery() -> None:
    # The top-level help lists each command by its HELP line, read from the table in
    # sushigo.commands._index: it imports no command module, none of the library behind them
    # (sushigo.api.*) and not the stop machinery (its threads and signal handling).
    loaded = _loaded_after(["--help"])
    assert not {m for m in loaded if m.startswith("sushigo.commands.") and m != "sushigo.commands._index"}
    assert not {m for m in loaded if m.startswith("sushigo.api")}, sorted(loaded)
    assert "sushigo.spec.model.interrupts" not in loaded and "dataclasses" not in loaded


def test_the_help_table_is_each_command_modules_own_help() -> None:
    # The independent side is each module itself: its name, ORDER and HELP.
    from sushigo import cli
    from sushigo.commands._index import COMMANDS

    modules = cli.command_modules()  # every module of sushigo/commands, in ORDER
    assert len(modules) == len(cli.command_names()) > 10
    expected = [(m.__name__.rpartition(".")[2], m.HELP) for m in modules]
    listing = "\n".join(f"    {row!r}," for row in expected)
    assert list(COMMANDS) == expected, f"sushigo/commands/_index.py's COMMANDS should read:\n{listing}"


def test_the_top_level_help_lists_every_command_with_its_help_line() -> None:
    import contextlib
    import io

    from sushigo import cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["--help"]) == 0
    text = " ".join(out.getvalue().split())  # argparse wraps the help lines
    for module in cli.command_modules():
        name = module.__name__.rpartition(".")[2]
        assert " ".join([name, *module.HELP.split()]) in text, name


def test_score_builds_no_z3_answers_and_no_socket() -> None:
    # The stop scope every command enters is spec.model.interrupts: a command that asks Z3
    # nothing builds neither spec.model.budget (its dataclasses, the answers' enum) nor a
    # socket pair (socket and selectors were a tenth of its start-up); what only an error line,
    # JSON, one Ruleset method or a rules file needs is not imported either.
    loaded = _loaded_after(["score", "tempura tempura", "sashimi"])
    assert "sushigo.spec.model.interrupts" in loaded  # the probe sees the stop scope
    unwanted = {"sushigo.spec.model.budget", "socket", "selectors", "shutil", "json", "difflib", "fractions",
                "sushigo.spec.rulefile", "typing"}
    assert not loaded & unwanted, sorted(loaded & unwanted)


def test_score_imports_no_typing_and_its_dataclasses_have_no_class_variables() -> None:
    # Without typing imported, dataclasses cannot see a ClassVar annotation (it looks for typing in
    # sys.modules) and would make it a field: no dataclass that score builds may have one.
    code = ("import contextlib, io, sys, dataclasses\nfrom sushigo.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    main(['score', 'tempura tempura', 'sashimi'])\n"
            "bad = [f'{m.__name__}.{k}' for m in list(sys.modules.values()) if m and m.__name__.startswith('sushigo')"
            " for k, v in vars(m).items() if isinstance(v, type) and dataclasses.is_dataclass(v)"
            " and any('ClassVar' in str(f.type) or 'InitVar' in str(f.type) for f in dataclasses.fields(v))]\n"
            "print('typing' in sys.modules, bad)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False []"


def test_assert_never_fails_as_typings_does() -> None:
    # The independent side is typing.assert_never itself.
    import typing

    from sushigo.spec.errors import assert_never

    for value in ["each", 3, "x" * 300, None]:
        with pytest.raises(AssertionError) as mine:
            assert_never(value)  # type: ignore[arg-type]
        with pytest.raises(AssertionError) as theirs:
            typing.assert_never(value)  # type: ignore[arg-type]
        assert str(mine.value) == str(theirs.value)


def test_the_outcome_is_the_named_tuple_typing_would_build() -> None:
    # The independent side: the class typing.NamedTuple builds from the fields as they were declared.
    from typing import Any, NamedTuple

    from sushigo.api.base import Outcome

    class Declared(NamedTuple):
        data: Any
        code: int = 0
        detail: Any = None

    assert Outcome._fields == Declared._fields and Outcome._field_defaults == Declared._field_defaults
    assert Outcome.__mro__[1:] == Declared.__mro__[1:] and Outcome.__module__ == "sushigo.api.base"
    assert Outcome({"a": 1}) == Declared({"a": 1}) == ({"a": 1}, 0, None)
    import pickle

    assert pickle.loads(pickle.dumps(Outcome(1, 2, 3))) == Outcome(1, 2, 3)


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


def test_the_run_time_aliases_read_as_the_typing_ones() -> None:
    # The aliases are written without typing's Any at run time; sushigo.api.arguments reads them
    # (which values a parameter takes, and its error message's words). The independent side is
    # each alias as written for type checkers, built here with typing.Any.
    import os
    from collections.abc import Mapping, Sequence
    from typing import Any

    from sushigo.api import base, score
    from sushigo.api.arguments import _matches, describe
    from sushigo.spec.tableau import Tableau, parse_tableau

    declared = {
        "Document": (base.Document, Mapping[str, Any] | Sequence[Any] | str | os.PathLike[str]),
        "Rules": (base.Rules, str | os.PathLike[str] | Mapping[str, Any] | None),
        "ScoreInput": (score.ScoreInput, Mapping[str, Any] | str | os.PathLike[str] | Sequence[str | Tableau]),
    }
    values = [{}, {"a": 1}, [], [1, "a"], ["tempura"], (), "x", 3, 1.5, None, b"x", [None],
              [parse_tableau("tempura")], os.path, __import__("pathlib").Path("x")]
    for name, (mine, theirs) in declared.items():
        assert describe(mine) == describe(theirs), name
        assert describe(mine, plural=True) == describe(theirs, plural=True), name
        assert [_matches(v, mine) for v in values] == [_matches(v, theirs) for v in values], name
