"""``sushigo completion bash|zsh|fish``: a script that names every command and option, and that bash
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


def test_fish_script_names_every_command_and_completes_files(capsys: pytest.CaptureFixture[str]) -> None:
    # shtab writes fish scripts (issue 31: 'completion fish' was refused); fish itself is not
    # installed here, so the script is read, not run.
    text = _script("fish", capsys)
    [line] = [ln for ln in text.splitlines() if ln.startswith("set -g _shtab_sushigo_commands ")]
    assert line.split()[3:] == _commands()
    assert "complete -c sushigo -n '_shtab_sushigo_using score' -l rules" in text
    assert "-l record -xka \"(__fish_complete_path" in text  # play --record FILE completes files


def test_unknown_shell_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", "tcsh"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'tcsh' (choose from 'bash', 'zsh', 'fish')" in err
    assert len(err.strip().splitlines()) == 1
