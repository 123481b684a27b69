"""The faults the subprocess fuzz campaign (tools/fuzz_cli.py) found, each reduced to its
smallest command: every one is one line ``sushigo CMD: error: ...`` and exit 2 (exit 1 for
an output that cannot be written), never a traceback and never a hang."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sushigo import schemas
from sushigo.cli import main


def refusal(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one error line of a run that must end in exit 2 (an exception escaping fails here)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2 and out == "", (code, out, err)
    assert len(lines) == 1, err
    assert lines[0].startswith(f"sushigo {argv[0]}: error: "), lines[0]
    return lines[0]


def sushigo(*argv: str, cwd: Path | None = None, timeout: float = 60,
            **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    """The real program in its own process (a hang is a TimeoutExpired here)."""
    return subprocess.run([sys.executable, "-m", "sushigo", *argv], cwd=cwd, timeout=timeout,
                          **kwargs)  # type: ignore[call-overload,no-any-return]


# --- rules files ----------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["tempura_points = " + "[" * 5000 + "]" * 5000 + "\n",
                                  "tempura_points = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n"],
                         ids=["arrays", "inline-tables"])
def test_a_rules_file_nested_too_deep(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Was: RecursionError out of tomllib, a traceback and exit 1.
    path = tmp_path / "deep.toml"
    path.write_text(text, encoding="utf-8")
    line = refusal(capsys, "score", "--rules", str(path), "egg", "egg")
    assert "deep.toml" in line and "nests arrays or inline tables too deep" in line


# --- --json output under a spent budget -------------------------------------------------------

@pytest.mark.parametrize("extra", [(), ("--facts",), ("--unreachable",)],
                         ids=["list", "facts", "unreachable"])
def test_tableaux_unknown_matches_its_schema(extra: tuple[str, ...],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    # Was: {"status", "reason", "budget"} refused by tableaux-result ("additional properties").
    code = main(["tableaux", "--cards", "3", "--score", "6", "--rlimit", "10", "--json", *extra])
    doc = json.loads(capsys.readouterr().out)
    assert code == 1 and doc["outcome"] == "unknown" and doc["budget"] == "rlimit 10"
    assert schemas.first_problem(doc, "tableaux-result") is None
