"""The README: the first screen a newcomer reads.

It is written by hand (the long form lives in the docs site, docs/), so what is checked here is
its contract: it starts with the two commands, stays short, and its Python example runs. Its
``$ sushigo`` transcripts are run by tests/test_transcripts.py like every docs page's.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
# Issue 31: a README a newcomer reads in two minutes; the project's before-stop hook checks it too.
MAX_LINES = 200


def _text() -> str:
    return README.read_text(encoding="utf-8")


def test_readme_starts_with_the_two_commands() -> None:
    text = _text()
    block = text.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert len(block) == 2
    assert block[0] == (
        "python3 -m venv .venv && . .venv/bin/activate && python -m pip install -e . && sushigo check"
    )
    assert block[1] == (
        "python3 -m venv .venv && . .venv/bin/activate && python -m pip install -e '.[test]'"
        " && python -m pytest -n 2"
    )
    # Nothing but the title and one paragraph comes before them.
    before = text.split("```sh\n", 1)[0]
    assert before.count("\n## ") == 0 and before.count("```") == 0


def test_readme_is_at_most_200_lines() -> None:
    lines = _text().splitlines()
    assert len(lines) <= MAX_LINES, f"README.md has {len(lines)} lines; at most {MAX_LINES}"


def test_readme_holds_no_measurements() -> None:
    """Load averages, dates and before/after history belong in docs/performance.md."""
    text = _text()
    assert not re.search(r"load average|\b20\d\d-\d\d-\d\d\b|\bbefore\b.*\bafter\b", text, re.I)
    assert "docs/performance.md" in text


def test_readme_command_table_is_complete() -> None:
    """Every command of ``sushigo --help`` has a row in the README's command table."""
    from sushigo.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    table = [line for line in _text().splitlines() if line.startswith("| `sushigo")]
    named = {m for line in table for m in re.findall(r"`(?:sushigo )?([a-z]+)", line.split("|")[1])}
    assert set(commands) <= named, sorted(set(commands) - named)


def test_readme_links_exist() -> None:
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", _text()):
        if "://" not in target:
            assert (REPO / target).exists(), target


@pytest.mark.skipif(
    not all(importlib.util.find_spec(m) for m in ("pyspiel", "pettingzoo")),
    reason="the README's bot example needs the openspiel and pettingzoo extras",
)
def test_readme_python_example_runs(tmp_path: Path) -> None:
    code = _text().split("```python\n", 1)[1].split("```", 1)[0]
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    # The rulebook's maki example (icons 5, 3, 3, 2) under the French text, where both tied for
    # second take the full 3: 6, 3, 3, 0 (worked by hand in docs/api.md), as the comment says.
    assert proc.stdout.splitlines()[0] == "[6, 3, 3, 0]", proc.stdout
