"""Issue 32 (a hostile world): a crash has its own exit code, lost output is never a success,
every number is bounded and parsed once, every artefact is written whole or not at all, and text
output is safe in any encoding and against control characters.

Each test below failed on b6e1ce7 (noted per test: what happened then) and passes now. Expected
values are worked by hand from the exit-code contract in docs/exit-codes.md, not read off the
code under test.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from sushigo.spec.errors import InputError, NotationError
from sushigo.spec.files import replacing, write_atomic
from sushigo.spec.numbers import MAX_COUNT, check_whole, parse_whole
from sushigo.spec.tableau import Tableau, parse_tableau

import sushigo
from sushigo.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
HUGE = "9" * 5000  # past Python's 4,300-digit integer-string limit


def run_sushigo(*argv: str, timeout: float = 120, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "sushigo", *argv], timeout=timeout,  # type: ignore[call-overload,no-any-return]
                          capture_output="stdout" not in kwargs and "stderr" not in kwargs, **kwargs)


def one_error_line(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 2) -> str:
    got = main(list(argv))
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert got == code and out == "", (got, out, err)
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"sushigo {argv[0]}: "), lines[0]
    return lines[0]


# --- 1. a crash has its own exit code ---------------------------------------------------------

def _planted(monkeypatch: pytest.MonkeyPatch) -> None:
    import sushigo.commands.score as score

    def crash(args: object) -> int:
        raise RuntimeError("planted fault")

    monkeypatch.setattr(score, "run", crash)


def test_a_crash_is_exit_70_with_the_traceback_in_a_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    # Was: the traceback on standard error and exit 1, which says "no".
    _planted(monkeypatch)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.delenv("SUSHIGO_DEBUG", raising=False)
    line = one_error_line(capsys, "score", "egg", "egg", code=70)  # docs/exit-codes.md
    assert line.startswith("sushigo score: internal error: RuntimeError: planted fault (traceback in ")
    saved = list(tmp_path.glob("sushigo-crash-*.txt"))
    assert len(saved) == 1 and str(saved[0]) in line
    text = saved[0].read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text and "RuntimeError: planted fault" in text


def test_debug_prints_the_traceback(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    _planted(monkeypatch)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert main(["--debug", "score", "egg", "egg"]) == 70
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "RuntimeError: planted fault" in err
    assert err.strip().splitlines()[-1].startswith("sushigo score: internal error: RuntimeError")
    assert not list(tmp_path.glob("sushigo-crash-*"))


def test_the_exit_codes_are_documented() -> None:
    import sushigo.cli

    page = (ROOT / "docs" / "exit-codes.md").read_text(encoding="utf-8")
    for code in ("0", "1", "2", "70", "130", "143"):
        assert f"| {code} |" in page
        assert code in (sushigo.cli.__doc__ or "")
    help_text = run_sushigo("--help").stdout.decode()
    assert "70 internal error" in help_text and "exit codes:" in help_text


# --- 2. output lost is never success ------------------------------------------------------------

def _closed_stdout() -> None:
    os.close(1)


@pytest.mark.parametrize("argv", [("score", "egg", "egg"), ("rules",), ("schema", "record"), ("--help",),
                                  ("completion", "bash"), ("play", "--players", "2", "--json")],
                         ids=["score", "rules", "schema", "help", "completion", "play"])
def test_a_closed_standard_output_is_not_success(argv: tuple[str, ...]) -> None:
    # Was: exit 0 and nothing printed, for every command.
    res = subprocess.run([sys.executable, "-m", "sushigo", *argv], stderr=subprocess.PIPE,
                         preexec_fn=_closed_stdout, timeout=120)
    assert res.returncode == 1
    line = res.stderr.decode().strip()
    assert "cannot write the output: standard output is closed" in line and "\n" not in line


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_standard_error_keeps_exit_2() -> None:
    # Was: exit 1 (the failed error line raised again while it was reported).
    with open("/dev/full", "wb") as full:
        res = subprocess.run([sys.executable, "-m", "sushigo", "score", "egg", "--no-such-option"],
                             stdout=subprocess.PIPE, stderr=full, timeout=60)
    assert res.returncode == 2 and res.stdout == b""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_standard_error_keeps_exit_0_of_an_answer() -> None:
    with open("/dev/full", "wb") as full:
        res = subprocess.run([sys.executable, "-m", "sushigo", "score", "egg", "egg", "--json"],
                             stdout=subprocess.PIPE, stderr=full, timeout=60)
    assert res.returncode == 0 and json.loads(res.stdout)["format"] == "sushigo-score-result/1"


def _closed_stderr() -> None:
    os.close(2)


def test_a_closed_standard_error_keeps_errors_off_standard_output() -> None:
    # Was: print(file=sys.stderr) with sys.stderr None writes to standard output: the error line
    # landed in the output a pipeline reads.
    res = subprocess.run([sys.executable, "-m", "sushigo", "score", "egg", "squidd", "--json"],
                         stdout=subprocess.PIPE, preexec_fn=_closed_stderr, timeout=60)
    assert res.returncode == 2 and res.stdout == b""


def test_a_deleted_working_directory_is_named(tmp_path: Path) -> None:
    # Was: "cannot write the output: No such file or directory; free space on the device", exit 1.
    gone = tmp_path / "gone"
    gone.mkdir()
    script = ("import os, sys; os.chdir(sys.argv[1]); os.rmdir(sys.argv[1]); "
              "from sushigo.cli import main; sys.exit(main(sys.argv[2:]))")
    res = subprocess.run([sys.executable, "-c", script, str(gone), "score", "--rules", "mine.toml", "egg",
                          "egg"], capture_output=True, timeout=60)
    line = res.stderr.decode().strip()
    assert res.returncode == 2, line
    assert "the working directory no longer exists" in line and "free space" not in line


def test_a_write_failure_names_its_cause(tmp_path: Path) -> None:
    # Standard output open for reading only: every write fails with EBADF. Was: "free space on
    # the device", which is not the cause.
    target = tmp_path / "read-only"
    target.write_bytes(b"")
    with target.open("rb") as reading:
        res = subprocess.run([sys.executable, "-m", "sushigo", "score", "egg", "egg"], stdout=reading,
                             stderr=subprocess.PIPE, timeout=60)
    line = res.stderr.decode().strip()
    assert res.returncode == 1
    assert line.startswith("sushigo score: error: cannot write the output: Bad file descriptor (EBADF)")
    assert "free space" not in line


def test_a_closed_pipe_ends_quietly() -> None:
    # The Unix convention (docs/exit-codes.md): the reader has what it wanted; no traceback.
    proc = subprocess.Popen([sys.executable, "-m", "sushigo", "schema", "record"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0 and b"Traceback" not in err


# --- 3. every number bounded and parsed once ---------------------------------------------------

@pytest.mark.parametrize(("text", "low", "high", "value"), [
    ("0", 0, 10, 0), ("10", 0, 10, 10), (" 7 ", 0, 10, 7), ("007", 0, 10, 7), ("-3", -5, 5, -3),
    ("+4", 0, 10, 4), ("0" * 6000 + "5", 0, 10, 5),
])
def test_parse_whole_reads_what_it_should(text: str, low: int, high: int, value: int) -> None:
    assert parse_whole(text, "n", low, high) == value


@pytest.mark.parametrize("text", ["11", "-1", HUGE, "-" + HUGE, "", " ", "x", "1.5", "1e3", "1_0", "\u0663",
                                  "0x10", "--1", "2**70"])
def test_parse_whole_refuses_the_rest_with_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError, match=r"^n "):
        parse_whole(text, "n", 0, 10)


def test_check_whole_holds_library_values_to_the_bounds() -> None:
    assert check_whole(3, "--jobs", 1, 4) == 3
    for bad in (0, 5, True, 3.0, "3", None, 10**30):
        with pytest.raises(InputError, match=r"^--jobs must be a whole number from 1 to 4"):
            check_whole(bad, "--jobs", 1, 4)


def test_tableau_parse_refuses_non_text_and_overlong_counts_with_the_notation_error() -> None:
    # Was: AttributeError ('NoneType' object has no attribute 'strip') and a bare ValueError
    # naming Python's integer-string limit.
    with pytest.raises(NotationError, match="a tableau is text"):
        Tableau.parse(None)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match=r"count of squid in tableau .* out of range"):
        parse_tableau("squid*" + HUGE)
    with pytest.raises(NotationError, match="out of range"):
        parse_tableau(f"{MAX_COUNT + 1}*egg")
    assert parse_tableau(f"egg*{MAX_COUNT}")[parse_tableau("egg").tokens()[0]] == MAX_COUNT


@pytest.mark.parametrize("argv", [
    ("score", "squid*" + HUGE, "egg"),
    ("tableaux", "--cards", "3", "--score", "6", "--must", "squid*" + HUGE),
    ("table", "--scores", "9,0", "--has", "1:squid*" + HUGE),
    ("table", "--scores", "9,0", "--count", "1:squid=" + HUGE),
    ("table", "--scores", "9,0", "--icons", "1:" + HUGE),
    ("table", "--scores", "9,0", "--icons", "1:\u00b3"),
    ("check", "--examples", "99999999999999999999999"),
    ("check", "--examples", "1", "--jobs", str(10**23)),
    ("play", "--players", "2", "--games", "2", "--jobs", str(10**23)),
], ids=["score", "tableaux-must", "table-has", "table-count", "table-icons", "table-icons-superscript",
        "check-examples", "check-jobs", "play-jobs"])
def test_an_overlong_number_is_bad_input(argv: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    # Was: a traceback and exit 1 (the integer-string limit), or a run that never ended.
    line = one_error_line(capsys, *argv)
    assert ": error: " in line and len(line) < 1000


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"examples": 10**30}, "--examples must be a whole number from 1 to 100000"),
    ({"examples": 0}, "--examples must be a whole number from 1 to 100000"),
    ({"examples": 1, "jobs": 10**23}, "--jobs must be a whole number from 1 to 256"),
])
def test_the_library_bounds_counts_too(kwargs: dict[str, int], message: str) -> None:
    # Was: sushigo.check(examples=10**30) ran until killed.
    with pytest.raises(InputError, match=message):
        sushigo.check(**kwargs)  # type: ignore[arg-type]


# --- 4. every artefact written atomically ------------------------------------------------------

def test_a_failed_write_leaves_the_old_file_and_no_litter(tmp_path: Path) -> None:
    target = tmp_path / "record.json"
    target.write_text('{"good": true}\n', encoding="utf-8")
    with pytest.raises(OSError, match="disk full"), replacing(target) as fh:
        fh.write(b'{"half')
        raise OSError(28, "disk full")
    assert target.read_text(encoding="utf-8") == '{"good": true}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["record.json"]
    write_atomic(target, "new\n")
    assert target.read_text(encoding="utf-8") == "new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["record.json"]


def test_write_atomic_keeps_the_mode_and_writes_through_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old", encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_atomic(link, "new")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"
    assert real.stat().st_mode & 0o777 == 0o640


def _small_files() -> None:
    # Every file this process writes stops at 4 KiB (EFBIG, as a full disk gives ENOSPC).
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


def test_play_record_on_a_full_disk_keeps_the_good_file(tmp_path: Path) -> None:
    # Was: the target opened for writing (truncated) and a half-written, invalid JSON file left.
    target = tmp_path / "game.json"
    good = (EXAMPLES / "record-2p.json").read_bytes()
    assert len(good) > 4096
    target.write_bytes(good)
    res = subprocess.run([sys.executable, "-m", "sushigo", "play", "--players", "3", "--record", str(target)],
                         capture_output=True, preexec_fn=_small_files, timeout=120)
    line = res.stderr.decode().strip()
    assert res.returncode == 2, line
    assert line.startswith("sushigo play: error: cannot write record to ") and "File too large" in line
    assert target.read_bytes() == good
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


# --- 5. text is safe ---------------------------------------------------------------------------

SHEET = {"players": ["Jos\u00e9", "\u001b[2J\u001b[31mRED"], "rounds": [[12, 3]]}


@pytest.mark.parametrize("argv", [
    ("table", "--scores", "9,0", "--names", "Jos\u00e9,Zo\u00eb", "--limit", "1"),
    ("scoresheet", "{sheet}"),
], ids=["table", "scoresheet"])
def test_any_encoding_prints_without_a_crash(argv: tuple[str, ...], tmp_path: Path) -> None:
    # Was: UnicodeEncodeError, a traceback and exit 1.
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(SHEET), encoding="utf-8")
    words = [str(sheet) if a == "{sheet}" else a for a in argv]
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    res = run_sushigo(*words, env=env)
    assert res.returncode == 0, res.stderr
    assert b"Jos\\xe9" in res.stdout and b"Traceback" not in res.stderr
    plain = run_sushigo(*words, "--json", env=dict(os.environ, PYTHONIOENCODING="utf-8"))
    assert run_sushigo(*words, "--json", env=env).stdout == plain.stdout  # JSON: the same bytes


def test_control_characters_from_users_are_escaped(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # Was: the escape sequences printed raw (a player's name cleared the screen).
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(SHEET), encoding="utf-8")
    assert main(["scoresheet", str(sheet)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[2J\\x1b[31mRED" in out
    rules = tmp_path / "evil.toml"
    rules.write_text('extends = "official"\nname = "\\u001b]0;owned\\u0007x\\u202e"\n', encoding="utf-8")
    assert main(["score", "--rules", str(rules), "egg", "egg"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "rules: \\x1b]0;owned\\x07x\\u202e" in out
    assert main(["scoresheet", str(sheet), "--json"]) == 0
    out = capsys.readouterr().out  # JSON: escaped by json.dumps alone, the text unchanged
    assert "\\u001b[2J\\u001b[31mRED" in out and json.loads(out)["witness"]


@pytest.mark.parametrize(("name", "kwargs", "param"), [
    ("play", {"players": 2, "games": 10**5000}, "games"),
    ("table", {"scores": [10**5000, 0], "limit": 1}, "scores"),
    ("tableaux", {"cards": 3, "score": 6, "maki_points": 10**5000}, "maki_points"),
    ("rules", {"players": 10**5000}, "players"),
    ("scoresheet", {"input": {"players": ["A", "B"], "rounds": [[10**5000, 1]]}}, "input"),
])
def test_a_number_too_long_to_print_is_bad_input_in_the_library(name: str, kwargs: dict[str, object],
                                                                param: str) -> None:
    # Was: ValueError from Python's integer-string limit while the error message about the number
    # was formatted (str() of an int of more than 4,300 digits raises).
    with pytest.raises(InputError, match=f"sushigo.{name}: {param} holds a whole number of more than 4000"):
        getattr(sushigo, name)(**kwargs)
