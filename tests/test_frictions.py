"""Issue 31, item 4: the frictions a new user met, each held by a test that failed before its fix."""

from __future__ import annotations

import pytest

from sushigo.cli import main


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The command exits 2 with exactly one line on stderr, which is returned."""
    code = main(list(argv))
    err = capsys.readouterr().err
    assert code == 2, (argv, code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# ------------------------------------------------------------------ did-you-mean, commands and options


@pytest.mark.parametrize(("argv", "hint"), [
    (("scroe",), "did you mean 'score'?"),
    (("tablaeux",), "did you mean 'tableaux'?"),
    (("check", "--profile", "quik"), "did you mean 'quick'?"),
    (("completion", "fsh"), "did you mean 'fish'?"),  # any choice, not only commands
])
def test_a_misspelt_choice_names_the_nearest(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                             hint: str) -> None:
    line = refused(capsys, *argv)
    assert f"invalid choice: {argv[-1]!r}" in line and f"; {hint} (see '" in line, line


@pytest.mark.parametrize(("argv", "hint"), [
    (("play", "--player", "3"), "did you mean --players?"),
    (("play", "--player=3"), "did you mean --players?"),
    (("score", "tempura*2", "sashimi", "--jsno"), "did you mean --json?"),
    (("best", "examples/puzzle.json", "--engin", "z3"), "did you mean --engine?"),
])
def test_a_misspelt_option_names_the_nearest(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                             hint: str) -> None:
    line = refused(capsys, *argv)
    assert line.startswith(f"sushigo {argv[0]}: error: unrecognized arguments: "), line
    assert f"; {hint} (see 'sushigo {argv[0]} --help')" in line


def test_nothing_near_names_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert "did you mean" not in refused(capsys, "zzzzzz")
    assert "did you mean" not in refused(capsys, "play", "--qqqqqqqq")
