"""``sushigo completion bash|zsh``: a script that names every command and option, and that bash
parses."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from sushigo.cli import build_parser, command_modules, main


def _script(shell: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["completion", shell]) == 0
    return capsys.readouterr().out


def _commands() -> list[str]:
    return [m.__name__.rpartition(".")[2] for m in command_modules()]


def test_bash_script_names_every_command_and_parses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = _script("bash", capsys)
    [line] = [ln for ln in text.splitlines() if ln.startswith("_shtab_sushigo_subparsers=")]
    assert line.split("=(")[1].rstrip(")").split() == _commands()
    for option in ("--json", "--rules", "--max-nodes", "--rule-b", "--profile"):
        assert option in text
    assert "(z3 search)" in text  # choices are completed too (best --engine)
    script = tmp_path / "sushigo.bash"
    script.write_text(text)
    bash = shutil.which("bash")
    assert bash is not None
    done = subprocess.run([bash, "-n", str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_zsh_script_names_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    text = _script("zsh", capsys)
    assert text.startswith("#compdef sushigo")
    for name in _commands():
        assert f"\n    {name}:'" in text


def test_every_command_module_is_a_command() -> None:
    [sub] = [a for a in build_parser()._actions if a.dest == "command"]
    assert list(sub.choices) == _commands()  # type: ignore[attr-defined]


def test_unknown_shell_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", "fish"]) == 2
    assert "invalid choice: 'fish'" in capsys.readouterr().err
