"""Bad input and a hostile environment: one line on standard error and exit 2 (exit 1 when the
output cannot be written), never a traceback (issue 16 item 3: each reproduction is a test)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sushigo.spec.errors import InputError

from sushigo.cli import main
from sushigo.schemas import loader

PUZZLE = {"rules": "official", "hands": [["wasabi", "tempura"], ["squid", "tempura"]]}


def one_line_refusal(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2, (code, err)
    assert out == "" and "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def sushigo(*argv: str, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    """The real program in its own process (standard streams can be closed or full there)."""
    capture = kwargs.pop("capture", True)
    return subprocess.run([sys.executable, "-m", "sushigo", *argv], capture_output=capture,
                          timeout=120, **kwargs)  # type: ignore[call-overload,no-any-return]


@pytest.fixture
def puzzle_file(tmp_path: Path) -> str:
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(PUZZLE), encoding="utf-8")
    return str(path)


# --- the reproductions of issue 16 ---------------------------------------------------------


@pytest.mark.parametrize("command", [("score",), ("best",), ("replay",), ("endgame",), ("scoresheet",),
                                     ("table", "--input"), ("diff", "official", "french", "--game")])
def test_not_utf8(command: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"rules": "officiél"}'.encode("latin-1"))
    line = one_line_refusal(capsys, *command, str(path))
    assert "is not UTF-8 text: byte 0xe9 at offset 17" in line


@pytest.mark.parametrize("command", ["score", "best", "replay"])
def test_deep_nesting(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    line = one_line_refusal(capsys, command, str(path))
    assert f"nests arrays and objects 100000 deep; documents nest at most {loader.MAX_DEPTH} deep" in line


def test_closed_standard_input() -> None:
    res = sushigo("score", "-", stdin=None,
                  preexec_fn=lambda: os.close(0))
    assert res.returncode == 2
    assert res.stderr.decode().strip().splitlines() == [
        "sushigo score: error: standard input is closed; pipe a document in, or give a file name"
    ]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_full_device() -> None:
    with open("/dev/full", "wb") as full:
        res = sushigo("rules", stdout=full, capture=False, stderr=subprocess.PIPE)
    assert res.returncode == 1
    assert res.stderr.decode().strip().splitlines() == [
        "sushigo rules: error: cannot write the output: No space left on device; free space on the device "
        "or write the output elsewhere"]


def test_closed_pipe_ends_quietly() -> None:
    # 'sushigo rules | head -1': the reader goes away after one line.
    proc = subprocess.Popen([sys.executable, "-m", "sushigo", "rules", "--all"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0
    assert err == ""


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (("best", "{puzzle}", "--timeout", "nan"), "--timeout"),
        (("best", "{puzzle}", "--timeout", "inf"), "--timeout"),
        (("best", "{puzzle}", "--timeout", "-1"), "--timeout"),
        (("best", "{puzzle}", "--timeout", "1e300"), "--timeout"),
        (("diff", "official", "french", "--timeout=-inf"), "--timeout"),
        (("diff", "official", "french", "--rlimit", "-1"), "--rlimit"),
        (("diff", "official", "french", "--rlimit", "99999999999"), "--rlimit"),
        (("scoresheet", "x.json", "--rlimit", "0"), "--rlimit"),
        (("scoresheet", "x.json", "--timeout", "nan"), "--timeout"),
        (("endgame", "--hands", "squid / egg", "--max-nodes", "-5"), "--max-nodes"),
        (("endgame", "--hands", "squid / egg", "--time-limit", "NaN"), "--time-limit"),
    ],
)
def test_budgets_must_be_finite_and_positive(argv: tuple[str, ...], option: str, puzzle_file: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    line = one_line_refusal(capsys, *(a.format(puzzle=puzzle_file) for a in argv))
    assert f"argument {option}: " in line and "is not a budget" in line and "above 0, at most" in line


def test_more_opponents_than_seats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Sushi Go! seats 2 to 5 players: the puzzle's player and at most 4 opponents.
    path = tmp_path / "p.json"
    for engine in ("z3", "search"):
        path.write_text(json.dumps(PUZZLE | {"opponents_maki": [1, 2, 3, 4, 5]}), encoding="utf-8")
        line = one_line_refusal(capsys, "best", str(path), "--engine", engine)
        assert "lists 5 opponents, but Sushi Go! seats at most 5 players" in line
    path.write_text(json.dumps(PUZZLE | {"opponents_maki": [1, 2, 3, 4]}), encoding="utf-8")
    assert main(["best", str(path), "--engine", "search"]) == 0


def test_more_maki_icons_than_the_deck_holds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Found by tools/fuzz_cli.py --seed 95: opponents_maki [10**400] ran past any --timeout (the
    search tabulated maki points up to the total). The deck's maki cards hold 6 x 1 + 12 x 2 +
    8 x 3 = 54 icons (RULES.md, the 108 cards): every opponent's icons are among them."""
    path = tmp_path / "p.json"
    for total in ([10**400], [30, 25], [55]):
        path.write_text(json.dumps(PUZZLE | {"opponents_maki": total}), encoding="utf-8")
        for engine in ("z3", "search"):
            line = one_line_refusal(capsys, "best", str(path), "--engine", engine, "--timeout", "3")
            assert "icons, but the deck's maki cards hold 54 in all" in line
            assert total[0] > 100 or f"add up to {sum(total)} icons" in line
    path.write_text(json.dumps(PUZZLE | {"opponents_maki": [30, 24]}), encoding="utf-8")
    assert main(["best", str(path), "--engine", "search"]) == 0


def test_big_input_is_refused_from_its_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.json"
    with open(path, "wb") as fh:  # sparse: 50 MB by its size, nothing written
        fh.truncate(50_000_000)
    line = one_line_refusal(capsys, "score", str(path))
    assert "larger than the 8 MiB limit for a document (50000000 bytes)" in line


def test_big_input_on_standard_input_is_refused_at_the_limit(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    import io

    monkeypatch.setattr(loader, "MAX_DOCUMENT_BYTES", 1000)
    monkeypatch.setattr("sys.stdin", io.StringIO("[" + "1," * 2000 + "1]"))
    line = one_line_refusal(capsys, "score", "-")
    assert "standard input is larger than the 0.000953674 MiB limit" in line


def test_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = one_line_refusal(capsys, "replay", str(tmp_path))
    assert line.endswith("is a directory; give a JSON file, or '-' for standard input")


def test_a_nul_in_the_file_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert "embedded null byte" in one_line_refusal(capsys, "replay", "game\x00.json")


# --- the loader's steps --------------------------------------------------------------------


def test_depth_counts_brackets_outside_strings_only() -> None:
    assert loader.nesting_depth('{"a": [[1], {"b": "[[[[{{{"}]}') == 3
    assert loader.nesting_depth('["\\"[[[", [[]]]') == 3
    assert loader.nesting_depth("17") == 0


def test_json_that_is_not_standard_is_refused() -> None:
    for text, needle in (("[NaN]", "NaN is not JSON"), ("[1e400]", "too large for a float"),
                         ('["\\ud800"]', "lone surrogate"), ("[" + "9" * 5000 + "]", "not valid JSON")):
        with pytest.raises(InputError, match=needle):
            loader.parse(text, "doc")


def test_a_byte_order_mark_is_fine() -> None:
    assert loader.parse(loader.decode(b'\xef\xbb\xbf{"a": 1}', "doc"), "doc") == {"a": 1}


def test_the_cli_starts_without_jsonschema() -> None:
    code = ("import sys, sushigo.cli; sushigo.cli.build_parser(); "
            "print(sorted(m for m in ('jsonschema', 'referencing') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120).stdout
    assert out.strip() == "[]"
