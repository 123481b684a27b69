"""The faults the subprocess fuzz campaign (tools/fuzz_cli.py) found, each reduced to its
smallest command: every one is one line ``sushigo CMD: error: ...`` and exit 2 (exit 1 for
an output that cannot be written), never a traceback and never a hang."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sushigo.spec.errors import InputError

import sushigo
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


def run_sushigo(*argv: str, cwd: Path | None = None, timeout: float = 60,
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


# --- budgets: compared, never converted ---------------------------------------------------------

HUGE = "1" + "0" * 400


@pytest.mark.parametrize("argv", [("tableaux", "--cards", "3", "--score", "6", "--rlimit", HUGE),
                                  ("scoresheet", "x.json", "--rlimit", HUGE),
                                  ("endgame", "x.json", "--max-nodes", HUGE),
                                  ("conform", "x.py", "--rlimit", HUGE)],
                         ids=["tableaux", "scoresheet", "endgame", "conform"])
def test_a_huge_whole_budget(argv: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    # Was: OverflowError from math.isfinite(10**400), a traceback and exit 1.
    line = refusal(capsys, *argv)
    assert "is not a budget: give a whole number above 0, at most 4294967295" in line


LIBRARY_BUDGETS = [
    ("tableaux", {"cards": 3, "score": 6, "timeout": math.inf}, "--timeout"),
    ("tableaux", {"cards": 3, "score": 6, "timeout": 10**400}, "--timeout"),
    ("tableaux", {"cards": 3, "score": 6, "rlimit": 10**400}, "--rlimit"),
    ("diff", {"a": "official", "b": "french", "players": [2], "timeout": math.inf}, "--timeout"),
    ("diff", {"a": "official", "b": "french", "players": [2], "timeout": math.nan}, "--timeout"),
    ("scoresheet", {"input": {"players": ["A", "B"], "rounds": [[3, 2]]}, "timeout": 10**400}, "--timeout"),
    ("scoresheet", {"input": {"players": ["A", "B"], "rounds": [[3, 2]]}, "rlimit": -1}, "--rlimit"),
    ("balance", {"ruleset": "french", "games": 10**400}, "--games"),
    ("balance", {"ruleset": "french", "games": 3, "timeout": math.inf}, "--timeout"),
]


@pytest.mark.parametrize(("name", "kwargs", "option"), LIBRARY_BUDGETS,
                         ids=[f"{n}-{o}-{k.get(o[2:])!s:.8}" for n, k, o in LIBRARY_BUDGETS])
def test_the_library_refuses_an_unbounded_budget(name: str, kwargs: dict[str, object], option: str) -> None:
    # Was: OverflowError (int(inf * 1000), math.isfinite(10**400)), or a budget above the CLI's bound
    # taken silently; now the CLI's bounds hold for every caller (sushigo.api.base.budget_of).
    with pytest.raises(InputError, match=f"^{option} must be"):
        getattr(sushigo, name)(**kwargs)


# --- counts outside the game --------------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize("score", [10**400, 10**20], ids=["10**400", "10**20"])
def test_an_endgame_score_no_game_reaches(score: int, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    # Was: OverflowError (a Fraction of the value converted to float), a traceback and exit 1.
    doc = json.loads((EXAMPLES / "position.json").read_text(encoding="utf-8"))
    doc["scores"] = [score, 22]
    path = tmp_path / "position.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    line = refusal(capsys, "endgame", str(path), "--max-nodes", "2000")
    assert '"scores": player 0 has' in line and "more than a 2-player game can score" in line


# --- special files --------------------------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_nobody_writes_to(tmp_path: Path) -> None:
    # Was: a hang (open() of a pipe waits for a writer forever).
    fifo = tmp_path / "doc.json"
    os.mkfifo(fifo)
    res = run_sushigo("score", str(fifo), capture_output=True, timeout=30)
    assert res.returncode == 2
    assert res.stderr.decode().strip().splitlines() == [
        f"sushigo score: error: {str(fifo)!r} is a named pipe that nobody writes to; write the document "
        "into it, or give a file or '-'"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_with_a_slow_writer_is_read(tmp_path: Path) -> None:
    # The writer opens the pipe first, then takes its time: the reader waits for the document.
    fifo = tmp_path / "doc.json"
    os.mkfifo(fifo)
    doc = '{"rounds": [["tempura*2", "egg"]]}'
    writer = subprocess.Popen(["/bin/sh", "-c", f"exec > '{fifo}'; sleep 1; printf '%s' '{doc}'"])
    try:
        res = run_sushigo("score", str(fifo), "--json", capture_output=True, timeout=30)
    finally:
        writer.wait(timeout=30)
    assert res.returncode == 0, res.stderr
    # R-TEMPURA: a pair of tempura is 5; R-EGG: an egg nigiri is 1 (docs/rules).
    assert json.loads(res.stdout)["totals"] == [5, 1]


# --- output that cannot be written -----------------------------------------------------------------

FULL = ("cannot write the output: No space left on device; free space on the device or write the "
        "output elsewhere")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(("argv", "prog"), [(("score", "egg", "egg", "--json"), "sushigo score"),
                                            (("play", "--players", "2"), "sushigo play"),
                                            (("rules", "--help"), "sushigo rules"),
                                            (("--help",), "sushigo")],
                         ids=["score", "play", "rules-help", "help"])
def test_a_full_device_names_the_command(argv: tuple[str, ...], prog: str) -> None:
    # Was: 'sushigo: error: No space left on device' (no command named); with --help, exit 0 and
    # the text lost (argparse drops a failed write).
    with open("/dev/full", "wb") as full:
        res = run_sushigo(*argv, stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert res.returncode == 1
    assert res.stderr.decode().strip().splitlines() == [f"{prog}: error: {FULL}"]


# --- very long input in an error line -------------------------------------------------------------

@pytest.mark.parametrize(("argv", "word"), [
    (("score", "x" * 100_000, "egg"), "'" + "x" * 100_000 + "'"),
    (("tableaux", "--cards", "3", "--score", "6", "--rlimit", HUGE), f"'{HUGE}'"),
], ids=["card-name", "budget"])
def test_an_overlong_word_is_shown_by_its_ends(argv: tuple[str, ...], word: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    # Was: the whole 100,000-character token echoed into the one error line.
    line = refusal(capsys, *argv)
    assert len(line) < 1000
    assert f"{word[:60]}...[{len(word)} characters]...{word[-20:]}" in line


# --- duplicate keys -------------------------------------------------------------------------------

@pytest.mark.parametrize(("argv", "text", "key"), [
    (("score",), '{"rules": "official", "rules": "french", "rounds": [["maki3", "maki2"]]}', "rules"),
    (("scoresheet",), '{"players": ["A", "B"], "rounds": [[3, 2]], "rounds": [[9, 9]]}', "rounds"),
    (("table", "--limit", "1", "--input"), '{"scores": [9, 0], "names": ["A", "B"], "scores": [0, 9]}',
     "scores"),
], ids=["score", "scoresheet", "table"])
def test_a_key_given_twice_is_refused(argv: tuple[str, ...], text: str, key: str, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    # Was: the last value silently won (score read French rules from a document saying official).
    path = tmp_path / "doc.json"
    path.write_text(text, encoding="utf-8")
    line = refusal(capsys, *argv, str(path))
    assert f"is not valid JSON: the key {key!r} appears twice in one object; keep one" in line


def test_a_conform_target_that_is_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Was: "target file '.../engine.py' does not exist" for a directory (or a named pipe) that does.
    target = tmp_path / "engine.py"
    target.mkdir()
    line = refusal(capsys, "conform", str(target), "--examples", "3")
    assert f"target file {str(target)!r} is not a regular file; give a .py file or a module name" in line


# --- an empty output name -------------------------------------------------------------------------

@pytest.mark.parametrize(("argv", "words"), [
    (("play", "--players", "2", "--record", ""), "--record '': give a file name, or '-' for standard output"),
    (("play", "--players", "2", "--games", "2", "--record", " "), "--record ' ': give a file name"),
    (("balance", "french", "--games", "3", "--no-maxima", "--no-diff", "--plot", ""),
     "--plot '': give a file name ending in .png or .svg"),
], ids=["record", "record-blank", "plot"])
def test_an_empty_output_name_is_refused(argv: tuple[str, ...], words: str, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    # Was: exit 0 with nothing written (an empty name read as "no record", "no picture"; ' ' was
    # written as a file named ' ' in the working directory).
    monkeypatch.chdir(tmp_path)
    assert words in refusal(capsys, *argv)


# --- --jobs far above the work ----------------------------------------------------------------------

def test_no_more_workers_than_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    # Was: --jobs 1000 forked 1000 processes for two tasks (endgame --batch: 17 s, not 1 s).
    import multiprocessing

    from sushigo import jobs

    context = multiprocessing.get_context("fork")
    sizes: list[int] = []
    real_pool = context.Pool

    def pool(processes: int, **kwargs: object) -> object:
        sizes.append(processes)
        return real_pool(processes, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(context, "Pool", pool)
    tasks = [jobs.Task("a", [1, 2]), jobs.Task("b", [1, 2, 3])]
    assert jobs.run("builtins:len", tasks, jobs.Runner(1000)) == [2, 3]
    assert sizes == [2]


# --- a NUL character in a name ------------------------------------------------------------------

@pytest.mark.parametrize(("argv", "words"), [
    (("conform", "a\x00b", "--examples", "1"), "NUL character"),
    (("play", "--games", "1", "--record", "game\x00.json"), "cannot write record"),
    (("play", "--rules", "house\x00.toml"), "NUL character"),
    (("balance", "official", "--games", "2", "--no-maxima", "--no-diff", "--plot", "b\x00.png"),
     "NUL character"),
], ids=["conform-target", "play-record", "rules-file", "balance-plot"])
def test_a_nul_in_a_name_is_refused(argv: tuple[str, ...], words: str, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    # Was: "ValueError: embedded null byte" out of subprocess.Popen, open() or os.path.realpath.
    # No shell can pass a NUL in an argument; main() called from Python can (the fuzz campaign did).
    monkeypatch.chdir(tmp_path)
    assert words in refusal(capsys, *argv)


def test_a_rules_file_extending_a_name_with_a_nul(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.toml"
    path.write_text('extends = "base\\u0000.toml"\ntempura_points = 6\n', encoding="utf-8")
    assert "NUL character" in refusal(capsys, "rules", "--rules", str(path))


@pytest.mark.parametrize("limit", ["0", "-0"])
def test_conform_without_a_memory_limit_matches_its_schema(
    limit: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # --memory-limit 0 means no limit (its help says so); the JSON budget said memory_mb 0, which
    # the schema refused (minimum 1). Found by tools/fuzz_cli.py --seed 91.
    import jsonschema

    from sushigo.schemas import load_schema

    adapter = str(Path(__file__).resolve().parent.parent / "examples" / "conform_adapter.py")
    code = main(["conform", adapter, "--examples", "3", "--memory-limit", limit, "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["budget"]["memory_mb"] == 0
    jsonschema.validate(doc, load_schema("conform-result"))


# --- the hostile world (issue 32; tools/fuzz_cli.py --class world) ---------------------------------

C_LOCALE = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}


def test_the_c_locale_escapes_a_name_from_a_file(tmp_path: Path) -> None:
    # Found by tools/fuzz_cli.py --seed 3 --class world on the first fix: under the C locale
    # Python's streams use surrogateescape, which escapes nothing else; a scoresheet player named
    # José (from JSON) was a UnicodeEncodeError, now Jos\xe9.
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps({"players": ["Jos\u00e9", "B"], "rounds": [[12, 3]]}), encoding="utf-8")
    res = run_sushigo("scoresheet", str(sheet), capture_output=True, env={**os.environ, **C_LOCALE})
    assert res.returncode == 0, res.stderr
    assert b"Jos\\xe9" in res.stdout


def test_the_c_locale_gives_the_command_line_s_bytes_back() -> None:
    # The name's UTF-8 bytes arrive undecodable under the C locale and must go out as they came.
    res = subprocess.run([os.fsencode(sys.executable), b"-m", b"sushigo", b"table", b"--scores", b"9,0",
                          b"--names", "Zo\u00eb,B".encode(), b"--limit", b"1"], capture_output=True,
                         env={**os.environ, **C_LOCALE}, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "Zo\u00eb".encode() in res.stdout


@pytest.mark.parametrize("key", ["9" * 5000, '"\u00b2"'], ids=["5000-digits", "superscript-two"])
def test_a_hand_sizes_key_that_is_no_count(key: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    # Found while bounding every number (issue 32): str.isdigit() passed both keys, then int()
    # raised ValueError (the integer-string limit; '²' is a digit to isdigit, not to int): a
    # traceback, now exit 2.
    path = tmp_path / "sizes.toml"
    path.write_text(f'extends = "official"\n[hand_sizes]\n{key} = 3\n', encoding="utf-8")
    line = refusal(capsys, "score", "--rules", str(path), "egg", "egg")
    assert "must be a table of player count = cards" in line


def test_the_c_locale_escapes_a_control_character_given_on_the_command_line() -> None:
    # Found by tools/fuzz_cli.py --seed 32 (table, encoding C names): the bytes of U+202E and of
    # U+009B went back out as they came (surrogateescape), so a UTF-8 terminal reordered the
    # line or read a control sequence; now they print as their escapes.
    res = subprocess.run([os.fsencode(sys.executable), b"-m", b"sushigo", b"table", b"--scores", b"9,0",
                          b"--names", "\u202eevil,caf\u00e9\u009b31m".encode(), b"--limit", b"1"],
                         capture_output=True, env={**os.environ, **C_LOCALE}, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "\u202e".encode() not in res.stdout and "\u009b".encode() not in res.stdout
    assert b"\\u202eevil" in res.stdout and "caf\u00e9\\x9b31m".encode() in res.stdout
