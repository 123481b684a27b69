"""Every ``$ sushigo ...`` transcript in the README and docs/ runs as shown.

A transcript is a fenced code block whose lines starting with ``$ `` are shell commands and
whose following lines are what the command prints. Each command runs with bash, in a fresh
copy of ``examples/`` (every file the text reads ships there under the name the text uses),
with the installed ``sushigo`` on the path; its standard output and standard error together
must equal the lines shown.

Conventions in the text (documented in docs/transcripts.md):

* a line ``...`` alone stands for any number of lines (an excerpt);
* ``<!-- transcript: times -->`` just before a block: numbers followed by a time unit
  (``0.12 s``, ``48.8 s``, ``3 ms``) are compared as ``<time>``, since they vary by machine;
* ``<!-- transcript: skip REASON -->`` just before a block: not run (the reason is shown by
  pytest); used only where a command needs far more than a test's time.

``cat FILE`` commands are checked too (the file must ship with the content shown). Other
commands (``python -m benchmarks...``) print measurements and are not run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^```[\w-]*\n(.*?)^```", re.M | re.S)
DIRECTIVE = re.compile(r"<!--\s*transcript:\s*(\w+)\s*(.*?)\s*-->\s*\Z", re.S)
TIME = re.compile(r"\b\d+(?:[.,]\d+)?\s?(?:s|ms|min)\b")
RUNNABLE = ("sushigo ", "sushigo\n", "cat ")


@dataclass(frozen=True)
class Transcript:
    document: str
    line: int
    command: str
    expected: tuple[str, ...]
    times: bool
    skip: str | None

    @property
    def id(self) -> str:
        return f"{self.document}:{self.line}"


def _transcripts() -> list[Transcript]:
    found: list[Transcript] = []
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        for block in FENCE.finditer(text):
            before = text[max(0, block.start() - 300):block.start()]
            directive = DIRECTIVE.search(before)
            kind, arg = (directive.group(1), directive.group(2)) if directive else ("", "")
            first_line = text.count("\n", 0, block.start(1)) + 1
            lines = block.group(1).splitlines()
            i = 0
            while i < len(lines):
                if not lines[i].startswith("$ "):
                    i += 1
                    continue
                command, start = lines[i][2:], i
                i += 1
                out: list[str] = []
                while i < len(lines) and not lines[i].startswith("$ "):
                    out.append(lines[i])
                    i += 1
                if command.startswith(RUNNABLE):
                    found.append(Transcript(
                        str(path.relative_to(REPO)), first_line + start, command, tuple(out),
                        times=kind == "times", skip=arg or "skipped" if kind == "skip" else None,
                    ))
    return found


def _normalise(lines: list[str] | tuple[str, ...], times: bool) -> list[str]:
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return [TIME.sub("<time>", line) for line in out] if times else out


def _matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line, a lone ``...`` matching any run of lines (backtracking)."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(_matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and _matches(expected[1:], actual[1:])


TRANSCRIPTS = _transcripts()


def test_transcripts_found() -> None:
    """The scan itself: the README's tour has dozens of sushigo commands."""
    assert sum(t.document == "README.md" for t in TRANSCRIPTS) >= 20


@pytest.mark.parametrize("transcript", TRANSCRIPTS, ids=[t.id for t in TRANSCRIPTS])
def test_transcript_runs_as_shown(transcript: Transcript, tmp_path: Path) -> None:
    if transcript.skip:
        pytest.skip(transcript.skip)
    work = tmp_path / "examples"
    shutil.copytree(EXAMPLES, work, ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["COLUMNS"] = "100"
    env.pop("HYPOTHESIS_PROFILE", None)
    proc = subprocess.run(
        ["bash", "-o", "pipefail", "-c", transcript.command], cwd=work, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900,
    )
    actual = _normalise(proc.stdout.splitlines(), transcript.times)
    expected = _normalise(transcript.expected, transcript.times)
    assert _matches(expected, actual), (
        f"{transcript.id}: $ {transcript.command}\n--- shown\n" + "\n".join(expected)
        + "\n--- printed\n" + "\n".join(actual)
    )
    # A command that writes a shipped file (--record FILE) writes the bytes that ship.
    changed = [p.name for p in EXAMPLES.iterdir()
               if p.is_file() and (work / p.name).read_bytes() != p.read_bytes()]
    assert changed == [], f"{transcript.id} rewrote shipped examples differently: {changed}"
