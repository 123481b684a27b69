"""Every ``$ sushigo ...`` transcript in the README and every page under docs/ runs as shown.

A transcript is a fenced code block whose lines starting with ``$ `` are shell commands and
whose following lines are what the command prints. Each command runs with bash, in a fresh
copy of ``examples/`` (every file the text reads ships there under the name the text uses; the
test adapters sit at ``../tests/adapters/`` beside it, as in a clone),
with the installed ``sushigo`` on the path; its standard output and standard error together
must equal the lines shown.

Conventions in the text (documented in docs/transcripts.md):

* a line ``...`` alone stands for any number of lines (an excerpt);
* ``<!-- transcript: times -->`` just before a block: numbers followed by a time unit
  (``0.12 s``, ``48.8 s``, ``3 ms``), and the cells of a table column headed by a time unit
  (``s``, ``time (s)``), are compared as ``<time>``, since they vary by machine;
* ``<!-- transcript: skip REASON -->`` just before a block: not run (the reason is shown by
  pytest); used only where a command needs far more than a test's time.

``cat FILE`` commands are checked too (the file must ship with the content shown), and so are
``sushigo`` commands behind environment assignments (``SUSHIGO_HOSTILE=exit0 sushigo ...``).
Commands that print measurements (``python -m benchmarks...``, ``python examples/...``) are not
run, and nothing else may be left unrun: a ``$`` line of any other kind fails the scan.

A skipped block is where drift hides (the tempura6 witness of docs/designing.md changed under
one), so every skipped transcript must have a tested one of the same command (``sushigo
balance``, ``sushigo check --mutants``) in its page: the quick run that stands for it.
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
# The README and every page of the docs site, at any depth.
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```[\w-]*\n(.*?)^```", re.M | re.S)
DIRECTIVE = re.compile(r"<!--\s*transcript:\s*(\w+)\s*(.*?)\s*-->\s*\Z", re.S)
TIME = re.compile(r"\b\d+(?:[.,]\d+)?\s?(?:s|ms|min)\b")
# Leading NAME=VALUE assignments, then the program: sushigo or cat are run.
ENVIRONMENT = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*")
RUNNABLE = re.compile(r"(?:sushigo|cat)(?:\s|$)")
# Commands that print measurements of this machine: shown, never run.
MEASUREMENTS = re.compile(r"python (?:-m benchmarks\.|examples/)")
RULE = re.compile(r"^-+(?: +-+)*$")
TIME_HEADER = re.compile(r"(?:time )?\(?(?:s|ms|min)\)?")
NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


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


def _program(command: str) -> str:
    """The command without its leading environment assignments."""
    return command[ENVIRONMENT.match(command).end():]  # type: ignore[union-attr]


def _transcripts() -> tuple[list[Transcript], list[str]]:
    """Every runnable transcript, and every ``$`` line that is neither run nor a measurement."""
    found: list[Transcript] = []
    unrun: list[str] = []
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
                where = f"{path.relative_to(REPO)}:{first_line + start}"
                if RUNNABLE.match(_program(command)):
                    found.append(Transcript(
                        str(path.relative_to(REPO)), first_line + start, command, tuple(out),
                        times=kind == "times", skip=arg or "skipped" if kind == "skip" else None,
                    ))
                elif not MEASUREMENTS.match(command):
                    unrun.append(f"{where}: $ {command}")
    return found, unrun


def _column_starts(rule: str) -> list[int] | None:
    """Start of each column of a table's dash rule (``----  ------``), or None."""
    if not RULE.match(rule):
        return None
    return [m.start() for m in re.finditer(r"-+", rule)]


def _fits(line: str, starts: list[int]) -> bool:
    """Whether ``line`` is a row of the table whose columns start at ``starts``."""
    return bool(line) and all(s >= len(line) or line[s - 1] == " " for s in starts[1:])


def _mask_time_columns(lines: list[str]) -> list[str]:
    """Cells of a table column headed by a time unit (``s``, ``time (s)``, ``ms``) become ``<time>``.

    The column's padding (and its dash rule) is normalised too, since its width follows the
    widest time printed; every other column is compared as printed.
    """
    out = list(lines)
    for i in range(1, len(out)):
        starts = _column_starts(out[i])
        if starts is None or not _fits(out[i - 1], starts):
            continue
        bounds = [*starts, None]
        headers = [out[i - 1][bounds[k]:bounds[k + 1]].strip() for k in range(len(starts))]
        timed = [k for k, header in enumerate(headers) if TIME_HEADER.fullmatch(header)]
        if not timed:
            continue
        j = i - 1
        while j < len(out) and (j <= i or _fits(out[j], starts)):
            cells = [out[j][bounds[k]:bounds[k + 1]] for k in range(len(starts))]
            for k in timed:
                cell = cells[k].strip()
                cell = "<time>" if NUMBER.fullmatch(cell) else "-" if j == i else cell
                cells[k] = cell if k == len(starts) - 1 else cell + " "
            out[j] = "".join(cells).rstrip()
            j += 1
    return out


def _normalise(lines: list[str] | tuple[str, ...], times: bool) -> list[str]:
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return [TIME.sub("<time>", line) for line in _mask_time_columns(out)] if times else out


def _matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line, a lone ``...`` matching any run of lines (backtracking)."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(_matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and _matches(expected[1:], actual[1:])


TRANSCRIPTS, UNRUN = _transcripts()


def test_times_mask_only_times() -> None:
    """The times convention, on a table whose widths follow its times (written by hand)."""
    shown = ["a    s", "---  ---", "x 1  0.2", "done in 0.12 s"]
    fast = ["a    s", "---  ---", "x 1  0.9", "done in 3.5 s"]
    slow = ["a    s", "---  ----", "x 1  12.5", "done in 48 s"]
    assert _matches(_normalise(shown, True), _normalise(fast, True))
    assert _matches(_normalise(shown, True), _normalise(slow, True))
    assert not _matches(_normalise(shown, False), _normalise(fast, False))
    other = ["a    s", "---  ---", "x 2  0.2", "done in 0.12 s"]  # a number that is no time
    assert not _matches(_normalise(shown, True), _normalise(other, True))
    middle = ["time (s)    b", "----------  ---", "1.5         ok"]
    assert _normalise(middle, True) == ["time (s) b", "- ---", "<time> ok"]
    changed = ["time (s)    b", "----------  ---", "1.5         no"]
    assert not _matches(_normalise(middle, True), _normalise(changed, True))


def test_excerpt_marker() -> None:
    """A lone ``...`` stands for any run of lines, including none; other lines must match."""
    assert _matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert _matches(["a", "...", "d"], ["a", "d"])
    assert not _matches(["a", "...", "d"], ["a", "b", "c"])
    assert not _matches(["a", "..."], ["b", "c"])


def test_transcripts_found() -> None:
    """The scan itself: the README's tour and every user's page show sushigo commands."""
    assert sum(t.document == "README.md" for t in TRANSCRIPTS) >= 8
    for page in ("scoring", "best", "backwards", "diff", "designing", "checks", "endgame", "executor"):
        assert any(t.document == f"docs/{page}.md" for t in TRANSCRIPTS), page
    assert len(TRANSCRIPTS) >= 70  # 79 when the README became the short tour (issue 31)


def test_every_dollar_line_is_scanned() -> None:
    """A ``$ sushigo`` line outside a block the scan reads (an indented or ``~~~`` fence) would
    never run; so would a ``$`` line of a program the scan does not know. Neither may exist."""
    scanned = {(t.document, t.line) for t in TRANSCRIPTS}
    outside = []
    for path in DOCUMENTS:
        name = str(path.relative_to(REPO))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.match(r"\s*\$ ", line) and RUNNABLE.match(_program(line.lstrip()[2:])):
                if (name, number) not in scanned:
                    outside.append(f"{name}:{number}: {line.strip()}")
    assert outside == [], "sushigo commands the transcript scan does not run:\n" + "\n".join(outside)
    assert UNRUN == [], "commands neither run nor measurements:\n" + "\n".join(UNRUN)


def _subcommand(command: str) -> tuple[str, ...]:
    """``sushigo check --mutants --mutant x`` -> ("sushigo", "check", "--mutants"): the program,
    its command and the option that picks the mode, which a quick stand-in must share."""
    words = _program(command).split()
    head = tuple(words[:2])
    mode = next((w for w in words[2:3] if w.startswith("--")), None)
    return (*head, mode) if mode in {"--mutants"} else head


def test_every_skipped_transcript_has_a_tested_stand_in() -> None:
    """Drift hides in skipped blocks (designing.md's tempura6 witness showed p1 holding the pair
    long after the command printed p0): each one's page must run the same command quickly."""
    alone = []
    for skipped in (t for t in TRANSCRIPTS if t.skip):
        if not any(t.document == skipped.document and not t.skip
                   and _subcommand(t.command) == _subcommand(skipped.command) for t in TRANSCRIPTS):
            alone.append(f"{skipped.id}: $ {skipped.command}")
    assert alone == [], "skipped transcripts with no tested one of the same command:\n" + "\n".join(alone)


@pytest.mark.parametrize("transcript", TRANSCRIPTS, ids=[t.id for t in TRANSCRIPTS])
def test_transcript_runs_as_shown(transcript: Transcript, tmp_path: Path) -> None:
    if transcript.skip:
        pytest.skip(transcript.skip)
    work = tmp_path / "examples"
    shutil.copytree(EXAMPLES, work, ignore=shutil.ignore_patterns("__pycache__"))
    # The test adapters, where ../tests/adapters/NAME.py finds them from a clone's examples/.
    shutil.copytree(REPO / "tests" / "adapters", tmp_path / "tests" / "adapters",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["COLUMNS"] = "100"
    env.pop("HYPOTHESIS_PROFILE", None)
    # conform's budget line names the sandbox it ran in: bubblewrap where the machine has it, the
    # process-level fallback everywhere. The pages show the fallback, which every machine has.
    env["SUSHIGO_CONFORM_SANDBOX"] = "process"
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
