"""A hostile-input campaign on the whole ``sushigo`` CLI, each try in its own subprocess.

Every try is one :class:`Case`: the arguments, the files it reads (written into a fresh
directory), what standard input and standard output are (a pipe, closed, ``/dev/full``).
The cases come from input classes (a wrong JSON type at every position of every document the
schemas describe, hostile bytes and special files, TOML rules files, ``--rule`` overrides,
every numeric option, contradicting options, hostile output) and a hostile world (issue 32:
digit strings around every limit in every numeric place and notation count, encodings and
control characters in names, standard output and error closed or full, a deleted working
directory, a full disk, broken engines for conform), and are drawn with a seed, so a campaign
replays exactly. A run is flagged when:

- standard error holds a traceback, or the exit code is not 0, 1 or 2 (70 is a crash);
- it runs past the time limit (every case gives the command a small budget);
- ``--json`` output (exit 0 or 1) is not JSON, has no first key "format", or does not match
  the schema its format names;
- exit 2 is not one line ``sushigo CMD: error: ...`` naming the command;
- it exits 0 after its output was lost (standard output closed, full, or on a full disk), a bad
  option does not exit 2 when standard error is full or closed, a deleted working directory is
  reported as a full device, a failed write damaged the good file that was there or left a
  temporary file, text output carries a raw control character, or a broken engine conforms.

The full disk is a 64 KiB tmpfs, filled, where the machine lets this process mount one (root);
elsewhere a file-size limit (RLIMIT_FSIZE, 4 KiB) stands in for it.

A campaign (``--cases 0``: every case of every class; ``--class world``: the hostile world only)::

    python tools/fuzz_cli.py --seed 1 --cases 2000 [--command score] [--class world] [--jobs 2]

The long slice by hand (issue 32: at least 10,000 cases over every command), the commands taking
turns and one JSON line per case logged, so a run stopped early still counts what it tried::

    nice -n 10 python tools/fuzz_cli.py --seed 32 --cases 1100 --jobs 2 --interleave --log fuzz.jsonl

``tests/test_fuzz_subprocess.py`` runs a seeded sample of the same cases on every test run.
"""

from __future__ import annotations

import argparse
import copy
import functools
import json
import os
import random
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
#: Past this a run is a hang: every case gives its command a budget of a few seconds.
TIME_LIMIT = 30.0

#: Special files a path may name instead of a document (made in the case's directory).
SPECIAL = (
    "directory",
    "fifo",
    "dev-zero",
    "dev-null",
    "unreadable",
    "missing",
    "empty-name",
    "symlink-loop",
    "too-big",
)

#: Values of every JSON type, each put at every position of a document.
WRONG_VALUES: tuple[tuple[str, str], ...] = (
    ("null", "null"),
    ("true", "true"),
    ("false", "false"),
    ("zero", "0"),
    ("minus-one", "-1"),
    ("huge-int", "1" + "0" * 400),
    ("minus-huge-int", "-1" + "0" * 400),
    ("float-int", "1.0"),
    ("float-big", "1e308"),
    ("float-overflow", "1e309"),
    ("minus-zero", "-0.0"),
    ("minus-zero-int", "-0"),
    ("nan", "NaN"),
    ("infinity", "Infinity"),
    ("empty-string", '""'),
    ("long-string", json.dumps("x" * 100_000)),
    ("word", '"squid"'),
    ("nul-string", '"a\\u0000b"'),
    ("surrogate", '"\\ud800"'),
    ("rtl", '"\\u202e\\u00e9"'),
    ("empty-list", "[]"),
    ("empty-object", "{}"),
    ("list-of-null", "[null]"),
    ("object-nested", '{"a": {"b": []}}'),
    ("big-list", "[" + ",".join(["0"] * 5000) + "]"),
)

#: Whole-file contents that are not a document (or are one in an unusual encoding).
HOSTILE_BYTES: tuple[tuple[str, Callable[[bytes], bytes]], ...] = (
    ("empty", lambda doc: b""),
    ("whitespace", lambda doc: b" \n\t\r\n"),
    ("bom", lambda doc: b"\xef\xbb\xbf" + doc),
    ("double-bom", lambda doc: b"\xef\xbb\xbf\xef\xbb\xbf" + doc),
    ("utf16", lambda doc: doc.decode("utf-8").encode("utf-16")),
    ("utf16le-no-bom", lambda doc: doc.decode("utf-8").encode("utf-16-le")),
    ("utf32", lambda doc: doc.decode("utf-8").encode("utf-32")),
    ("latin1", lambda doc: b'{"rules": "caf\xe9"}'),
    ("nul-only", lambda doc: b"\x00" * 64),
    ("nul-after", lambda doc: doc + b"\x00"),
    ("nul-inside", lambda doc: doc[:1] + b"\x00" + doc[1:]),
    ("truncated", lambda doc: doc[: len(doc) // 2]),
    ("trailing-garbage", lambda doc: doc + b"}"),
    ("two-documents", lambda doc: doc + b"\n" + doc),
    ("jsonl", lambda doc: b"\n".join([json.dumps(json.loads(doc)).encode()] * 2)),
    ("null", lambda doc: b"null"),
    ("string", lambda doc: b'"official"'),
    ("number", lambda doc: b"3"),
    ("huge-int", lambda doc: b"9" * 5000),
    ("deep-list", lambda doc: b"[" * 100_000 + b"]" * 100_000),
    ("deep-object", lambda doc: b'{"a":' * 50_000 + b"1" + b"}" * 50_000),
    ("nan", lambda doc: b"NaN"),
    ("list-of-it", lambda doc: b"[" + doc + b"]"),
    ("duplicate-keys", lambda doc: b'{"rules": "french", ' + doc.lstrip()[1:]),
    ("long-line", lambda doc: b'"' + b"x" * 1_000_000 + b'"'),
    ("crlf", lambda doc: doc.replace(b"\n", b"\r\n")),
    ("control-chars", lambda doc: doc.replace(b'"official"', b'"off\\u0007icial\\u001b[31m"')),
    ("overlong-utf8", lambda doc: b'{"rules": "\xc0\xaf"}'),
)


@dataclass(frozen=True)
class Slot:
    """One place a command reads a document: the arguments with ``{F}`` for the file."""

    name: str
    command: str
    argv: tuple[str, ...]
    example: str  # the file in examples/ that is a valid document for it
    json_output: bool = True


SLOTS: tuple[Slot, ...] = (
    Slot("score", "score", ("score", "{F}"), "game-score.json"),
    Slot("replay", "replay", ("replay", "{F}"), "record-2p.json"),
    Slot("best-puzzle", "best", ("best", "{F}", "--timeout", "3"), "puzzle.json"),
    Slot(
        "best-round",
        "best",
        ("best", "{F}", "--round", "1", "--seat", "0", "--timeout", "3"),
        "record-2p.json",
    ),
    Slot(
        "diff-game",
        "diff",
        ("diff", "official", "french", "--game", "{F}", "--timeout", "3"),
        "record-2p.json",
    ),
    Slot(
        "endgame", "endgame", ("endgame", "{F}", "--max-nodes", "2000", "--time-limit", "3"), "position.json"
    ),
    Slot(
        "endgame-batch",
        "endgame",
        ("endgame", "--batch", "{F}", "--max-nodes", "2000", "--time-limit", "3"),
        "positions.json",
    ),
    Slot("scoresheet", "scoresheet", ("scoresheet", "{F}", "--timeout", "5"), "sheet.json"),
    Slot("table", "table", ("table", "--input", "{F}", "--limit", "1", "--timeout", "5"), "table.json"),
)

#: A short valid run of every command (no file): the base the option cases change.
BASE: dict[str, tuple[str, ...]] = {
    "score": ("score", "tempura*2", "sashimi*3"),
    "play": ("play", "--games", "1", "--players", "2"),
    "replay": ("replay", "{E}/record-2p.json"),
    "best": ("best", "{E}/puzzle.json", "--timeout", "3"),
    "tableaux": ("tableaux", "--cards", "3", "--score", "6", "--limit", "2", "--timeout", "3"),
    "table": ("table", "--scores", "9,0", "--limit", "1", "--timeout", "5"),
    "scoresheet": ("scoresheet", "{E}/sheet2.json", "--timeout", "5"),
    "diff": ("diff", "official", "french", "--players", "2", "--timeout", "3"),
    "endgame": ("endgame", "{E}/position.json", "--max-nodes", "2000", "--time-limit", "3"),
    "puzzle": ("puzzle", "--show", "1"),
    "check": ("check", "--examples", "1", "--jobs", "1", "--only", "no-such-property"),
    "conform": ("conform", "{E}/conform_adapter.py", "--examples", "3", "--time-limit", "10"),
    "rules": ("rules",),
    "schema": ("schema", "record"),
    "balance": ("balance", "french", "--games", "3", "--no-maxima", "--no-diff"),
    "completion": ("completion", "bash"),
    "ladder": ("ladder", "--policies", "random,greedy", "--games", "2", "--bootstrap", "10"),
    "evaluate": ("evaluate", "greedy", "--positions", "2", "--games", "0"),
}
COMMANDS = tuple(BASE)
NO_JSON = {"completion"}

#: Values every numeric option is given.
NUMBERS = (
    "0",
    "-1",
    "-0",
    "1e9",
    "1000000000",
    "nan",
    "inf",
    "-inf",
    "",
    "x",
    "1.5",
    "1" + "0" * 400,
    " 3",
    "3 ",
    "\u0663",
    "1_0",
    "0x10",
    "+2",
    "9" * 5000,
    "2**70",
    "1e-9",
    "0.0",
)


@dataclass(frozen=True)
class Case:
    """One try: ``argv`` after ``sushigo`` with ``{F}`` (the file), ``{D}`` (the case's directory)
    and ``{E}`` (examples/) filled in."""

    command: str
    kind: str  # the input class, for the report
    argv: tuple[str, ...]
    files: tuple[tuple[str, bytes], ...] = ()
    special: str = ""  # one of SPECIAL: what {F} is instead of a file
    stdin: bytes | None = None  # None: /dev/null; b"<closed>": closed
    stdout: str = "pipe"  # pipe | closed | full | disk (a file on a full disk)
    stderr: str = "pipe"  # pipe | closed | full
    env: tuple[tuple[str, str], ...] = ()  # set in the command's environment
    cwd: str = "case"  # case | deleted (the working directory removed before the command starts)
    disk: bool = False  # {K} is a directory on a full disk holding good.json and good.png
    expect: int | None = None  # the exit code the case must end with (a bad option: 2)

    def label(self) -> str:
        extra = f" [{self.special}]" if self.special else ""
        out = "" if self.stdout == "pipe" else f" >{self.stdout}"
        err = "" if self.stderr == "pipe" else f" 2>{self.stderr}"
        env = "".join(f"{k}={v} " for k, v in self.env)
        where = " (cwd deleted)" if self.cwd == "deleted" else " (disk full)" if self.disk else ""
        shown = " ".join(a if len(a) < 60 else a[:57] + "..." for a in self.argv)
        return f"{self.kind}: {env}sushigo {shown}{extra}{out}{err}{where}"


@dataclass
class Result:
    case: Case
    code: int | None
    seconds: float
    stdout: str
    stderr: str
    faults: list[str] = field(default_factory=list)


# --- documents -----------------------------------------------------------------------------


def example_bytes(name: str) -> bytes:
    if name == "positions.json":  # the batch form: a JSON list of positions
        lines = (EXAMPLES / "positions.jsonl").read_text(encoding="utf-8").splitlines()
        return json.dumps([json.loads(line) for line in lines[:2] if line.strip()]).encode()
    return (EXAMPLES / name).read_bytes()


def positions(doc: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every position of ``doc`` (the root first)."""
    yield path
    children = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for key, value in children:
        yield from positions(value, (*path, key))


_MARK = "\u2603SUSHIGO-FUZZ\u2603"


def template(doc: Any, path: tuple[Any, ...]) -> str:
    """``doc`` as JSON text with a mark where the value at ``path`` is (put a value with
    ``.replace(MARKED, raw)``): one copy of the document per position, not per value."""
    if not path:
        return MARKED
    doc = copy.deepcopy(doc)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = _MARK
    return json.dumps(doc)


MARKED = json.dumps(_MARK)


def removed(doc: Any, path: tuple[Any, ...]) -> bytes:
    doc = copy.deepcopy(doc)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    del parent[path[-1]]
    return json.dumps(doc).encode()


def added(doc: Any, path: tuple[Any, ...]) -> bytes | None:
    doc = copy.deepcopy(doc)
    node = doc
    for key in path:
        node = node[key]
    if isinstance(node, dict):
        node["\u00fcnknown key"] = 1
    elif isinstance(node, list):
        node.append(node[-1] if node else 0)
    else:
        return None
    return json.dumps(doc).encode()


def slot_cases(slot: Slot) -> Iterator[Case]:
    """Every hostile form of the document ``slot`` reads: wrong values at every position,
    removed and added keys, hostile bytes, special files, and the same through standard input."""
    raw = example_bytes(slot.example)
    doc = json.loads(raw)
    argv = (*slot.argv, "--json") if slot.json_output else slot.argv

    def case(kind: str, data: bytes | None = None, special: str = "", stdin: bool = False) -> Case:
        if stdin:
            return Case(
                slot.command,
                f"{slot.name} stdin {kind}",
                tuple("-" if a == "{F}" else a for a in argv),
                stdin=data,
            )
        files = () if data is None else (("doc.json", data),)
        return Case(slot.command, f"{slot.name} {kind}", argv, files=files, special=special)

    for path in positions(doc):
        where = "$" + "".join(f"[{k!r}]" for k in path)
        text = template(doc, path)
        for name, value in WRONG_VALUES:
            yield case(f"{name} at {where}", text.replace(MARKED, value).encode())
        if path:
            yield case(f"removed {where}", removed(doc, path))
        extra = added(doc, path)
        if extra is not None:
            yield case(f"added to {where}", extra)
    for name, make in HOSTILE_BYTES:
        yield case(f"bytes {name}", make(raw))
        yield case(f"bytes {name}", make(raw), stdin=True)
    for special in SPECIAL:
        yield case(f"file {special}", special=special)
    yield case("stdin closed", b"<closed>", stdin=True)
    yield case("stdin /dev/zero", b"<zero>", stdin=True)


# --- rules files and overrides ---------------------------------------------------------------

OFFICIAL_TOML = """extends = "official"
tempura_points = 5
maki_first_tie = "split"
"""

HOSTILE_TOML: tuple[tuple[str, bytes], ...] = (
    ("empty", b""),
    ("bom", b"\xef\xbb\xbf" + OFFICIAL_TOML.encode()),
    ("utf16", OFFICIAL_TOML.encode("utf-16")),
    ("nul", b'extends = "off\x00icial"\n'),
    ("not-toml", b"{this is not toml"),
    ("json", b'{"extends": "official"}'),
    ("unknown-key", b'extends = "official"\ntempura_pointz = 6\n'),
    ("string-for-int", b'tempura_points = "6"\n'),
    ("float-for-int", b"tempura_points = 6.0\n"),
    ("bool-for-int", b"tempura_points = true\n"),
    ("huge-int", b"tempura_points = 9223372036854775807\n"),
    ("negative", b"tempura_points = -5\n"),
    ("nan", b"tempura_points = nan\n"),
    ("inf", b"tempura_points = inf\n"),
    ("date", b"tempura_points = 1979-05-27\n"),
    ("datetime", b"extends = 1979-05-27T07:32:00Z\n"),
    ("array-for-int", b"tempura_points = [6]\n"),
    ("table-for-int", b"[tempura_points]\nx = 1\n"),
    ("reading-wrong", b'maki_first_tie = "sometimes"\n'),
    ("reading-int", b"maki_first_tie = 1\n"),
    ("bool-as-string", b'pudding_penalty_2p = "false"\n'),
    ("deck-negative", b"[deck]\nsquid = -1\n"),
    ("deck-huge", b"[deck]\nsquid = 1000000000\n"),
    (
        "deck-zero-all",
        b"[deck]\n"
        + b"".join(
            f"{c} = 0\n".encode()
            for c in (
                "tempura",
                "sashimi",
                "dumpling",
                "maki1",
                "maki2",
                "maki3",
                "salmon",
                "squid",
                "egg",
                "pudding",
                "wasabi",
                "chopsticks",
            )
        ),
    ),
    ("deck-unknown-card", b"[deck]\nsquidd = 3\n"),
    ("deck-not-table", b"deck = 3\n"),
    ("deck-nested", b"[deck.squid]\nx = 1\n"),
    ("dumpling-short", b"dumpling_points = [1, 3]\n"),
    ("dumpling-empty", b"dumpling_points = []\n"),
    ("dumpling-strings", b'dumpling_points = ["1", "3", "6", "10", "15"]\n'),
    ("dumpling-decreasing", b"dumpling_points = [15, 10, 6, 3, 1]\n"),
    ("dumpling-long", b"dumpling_points = [" + b", ".join(str(i).encode() for i in range(1000)) + b"]\n"),
    ("deep-tables", b"[" + b".".join([b"a"] * 2000) + b"]\nx = 1\n"),
    ("deep-arrays", b"tempura_points = " + b"[" * 5000 + b"]" * 5000 + b"\n"),
    ("extends-self", b'extends = "rules.toml"\n'),
    ("extends-self-dot", b'extends = "./rules.toml"\n'),
    ("extends-missing", b'extends = "missing.toml"\n'),
    ("extends-unknown-name", b'extends = "officiall"\n'),
    ("extends-empty", b'extends = ""\n'),
    ("extends-int", b"extends = 3\n"),
    ("extends-dir", b'extends = "sub/"\n'),
    ("extends-cycle", b'extends = "other.toml"\n'),
    ("extends-dev-zero", b'extends = "/dev/zero"\n'),
    ("extends-absolute-root", b'extends = "/"\n'),
    ("extends-home", b'extends = "~/nope.toml"\n'),
    ("long-string", b'extends = "' + b"x" * 100_000 + b'"\n'),
    ("format-wrong", b'format = 3\nextends = "official"\n'),
    ("name-key", b'name = "mine"\n'),
    ("hand-sizes-huge-key", b'extends = "official"\n[hand_sizes]\n' + b"9" * 5000 + b" = 3\n"),
    ("hand-sizes-superscript-key", b'extends = "official"\n[hand_sizes]\n"\xc2\xb2" = 3\n'),
    ("name-escape", b'extends = "official"\nname = "\\u001b[2J\\u202e"\n'),
    ("source-key", b"source = 3\n"),
)

HOSTILE_RULE = (
    "",
    "=",
    "=6",
    "tempura_points",
    "tempura_points=",
    "tempura_points=x",
    "tempura_points=6.0",
    "tempura_points=1e309",
    "tempura_points=nan",
    "tempura_points=-1",
    "tempura_points=0",
    "tempura_points=" + "9" * 5000,
    "tempura_points=99999999999999999999",
    "Tempura_Points=6",
    " tempura_points=6",
    "tempura_points =6",
    "tempura_points= 6",
    "tempura_points==6",
    "deck.squid=-1",
    "deck.squid=0",
    "deck.squid=1000000000",
    "deck.=3",
    "deck=3",
    "deck.squidd=3",
    "deck.squid.x=3",
    "dumpling_points=1,3",
    "dumpling_points=,,,",
    "dumpling_points=1,3,6,10,15,21,28,36",
    "dumpling_points=" + ",".join(["1"] * 10_000),
    "maki_first_tie=",
    "maki_first_tie=EACH",
    "pudding_penalty_2p=yes",
    "pudding_penalty_2p=1",
    "wasabi_same_turn=True",
    "dummy_2p=true",
    "passing=right",
    "extends=french",
    "name=x",
    "format=x",
    "source=x",
    "a\u2400b=1",
    "\u00e9=1",
    "R-TEMPURA=6",
    "hand_size.2=0",
    "hand_size=0",
    "hand_size.9=3",
    "players=9",
)

#: Commands and where their ruleset goes: ``{R}`` for ``--rules``' value, ``{O}`` for ``--rule``.
RULES_USERS: dict[str, tuple[str, ...]] = {
    "score": ("score", "--rules", "{R}", "tempura*2", "sashimi*3", "--json"),
    "play": ("play", "--games", "1", "--players", "2", "--rules", "{R}", "--json"),
    "replay": ("replay", "{E}/record-2p.json", "--rules", "{R}", "--json"),
    "best": ("best", "{E}/puzzle.json", "--timeout", "3", "--rules", "{R}", "--json"),
    "tableaux": (
        "tableaux",
        "--cards",
        "3",
        "--score",
        "6",
        "--limit",
        "2",
        "--timeout",
        "3",
        "--rules",
        "{R}",
        "--json",
    ),
    "table": ("table", "--scores", "9,0", "--limit", "1", "--timeout", "5", "--rules", "{R}", "--json"),
    "scoresheet": ("scoresheet", "{E}/sheet2.json", "--timeout", "5", "--rules", "{R}", "--json"),
    "diff": ("diff", "{R}", "official", "--players", "2", "--timeout", "3", "--json"),
    "endgame": (
        "endgame",
        "{E}/position.json",
        "--max-nodes",
        "2000",
        "--time-limit",
        "3",
        "--rules",
        "{R}",
        "--json",
    ),
    "puzzle": ("puzzle", "--show", "1", "--rules", "{R}", "--json"),
    "check": ("check", "--examples", "1", "--jobs", "1", "--only", "no-such-property", "--rules", "{R}"),
    "conform": (
        "conform",
        "{E}/conform_adapter.py",
        "--examples",
        "3",
        "--time-limit",
        "10",
        "--rules",
        "{R}",
        "--json",
    ),
    "rules": ("rules", "--export", "{R}", "--json"),
    "balance": ("balance", "{R}", "--games", "3", "--no-maxima", "--no-diff", "--json"),
}
#: The option that takes overrides, per command (diff and balance name their sides).
RULE_OPTION = {"diff": "--rule-a", "balance": "--rule"}


def rules_cases(command: str) -> Iterator[Case]:
    template = RULES_USERS[command]
    for name, text in HOSTILE_TOML:
        files = [("rules.toml", text), ("other.toml", b'extends = "rules.toml"\n')]
        yield Case(
            command,
            f"rules-file {name}",
            tuple("{D}/rules.toml" if a == "{R}" else a for a in template),
            files=tuple(files),
        )
    for special in SPECIAL:
        yield Case(
            command,
            f"rules-file {special}",
            tuple("{F}" if a == "{R}" else a for a in template),
            special=special,
        )
    for name in ("", " ", "-", "officiall", "OFFICIAL", "x.toml", "{D}", "/dev/null", "a\u00e9", "x" * 5000):
        yield Case(command, f"rules-name {name[:20]!r}", tuple(name if a == "{R}" else a for a in template))
    option = RULE_OPTION.get(command, "--rule")
    official = tuple("official" if a == "{R}" else a for a in template)
    for rule in HOSTILE_RULE:
        yield Case(command, f"rule {rule[:30]!r}", (*official, option, rule))
    for a, b in (
        ("maki_first_tie=each", "maki_first_tie=split"),
        ("tempura_points=6", "tempura_points=7"),
        ("deck.squid=3", "deck.squid=0"),
    ):
        yield Case(command, "rule contradicting repeats", (*official, option, a, option, b))


# --- options -----------------------------------------------------------------------------------


def numeric_options() -> dict[str, list[str]]:
    """Per command, every option that takes a value (from the parser itself)."""
    from sushigo.cli import build_parser  # the installed package (CI tests the wheel, not the tree)

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found: dict[str, list[str]] = {}
    for name, p in sub.choices.items():
        found[name] = sorted(
            o
            for a in p._actions
            if a.nargs != 0 and a.option_strings
            for o in a.option_strings[:1]
            if o not in ("--rules", "--rule", "--cluster")
        )
    return found


def option_cases(command: str, options: list[str]) -> Iterator[Case]:
    base = BASE[command]
    json_flag = () if command in NO_JSON else ("--json",)
    for option in options:
        kept = _without(base, option)
        for value in NUMBERS:
            yield Case(command, f"option {option} {value[:12]!r}", (*kept, option, value, *json_flag))
        yield Case(command, f"option {option} missing value", (*kept, *json_flag, option))
        yield Case(command, f"option {option} twice", (*kept, option, "1", option, "2", *json_flag))
    yield Case(command, "option unknown", (*base, "--no-such-option"))
    yield Case(command, "option abbreviated", (*base, "--js"))
    yield Case(command, "option --json=1", (*base, "--json=1"))
    yield Case(command, "argument extra", (*base, "extra", "words"))
    yield Case(command, "argument nul-like", (*base, "\u2400"))
    yield Case(command, "argument surrogate", (*base, "\udcff"))
    yield Case(command, "output closed", (*base, *json_flag), stdout="closed")
    yield Case(command, "output /dev/full", (*base, *json_flag), stdout="full")
    yield Case(command, "output /dev/full no json", base, stdout="full")


def _without(argv: tuple[str, ...], option: str) -> tuple[str, ...]:
    """``argv`` without ``option`` and its value."""
    out: list[str] = []
    skip = False
    for i, word in enumerate(argv):
        if skip:
            skip = False
            continue
        if word == option:
            skip = i + 1 < len(argv) and not argv[i + 1].startswith("--")
            continue
        out.append(word)
    return tuple(out)


#: Options that contradict each other or the game, written by hand.
CONTRADICTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("best", ("best", "{E}/puzzle.json", "--game", "--timeout", "3")),
    ("best", ("best", "{E}/puzzle.json", "--round", "1", "--timeout", "3")),
    ("best", ("best", "{E}/puzzle.json", "--seat", "1", "--timeout", "3")),
    ("best", ("best", "{E}/record-2p.json", "--round", "4", "--seat", "0", "--timeout", "3")),
    ("best", ("best", "{E}/record-2p.json", "--round", "1", "--seat", "2", "--timeout", "3")),
    ("best", ("best", "{E}/record-2p.json", "--round", "0", "--seat", "0", "--timeout", "3")),
    ("best", ("best", "--round", "1", "--players", "6", "--timeout", "3")),
    ("best", ("best", "--round", "1", "--players", "2", "--seat", "5", "--timeout", "3")),
    ("best", ("best", "--timeout", "3")),
    ("best", ("best", "{E}/puzzle.json", "--engine", "search", "--rlimit", "1000")),
    ("best", ("best", "{E}/puzzle.json", "--players", "3", "--timeout", "3")),
    ("best", ("best", "{E}/puzzle.json", "--jobs", "2", "--timeout", "3")),
    ("play", ("play", "--players", "2", "--policy", "greedy", "greedy", "greedy")),
    ("play", ("play", "--players", "6")),
    ("play", ("play", "--players", "1")),
    ("play", ("play", "--players", "3", "--rule", "dummy_2p=true")),
    ("play", ("play", "--players", "2", "--policy", "nosuch")),
    ("play", ("play", "--players", "2", "--policy")),
    ("play", ("play", "--players", "2", "--record", "")),
    ("play", ("play", "--players", "2", "--record", "{D}")),
    ("play", ("play", "--players", "2", "--record", "/dev/full")),
    ("play", ("play", "--players", "2", "--record", "{D}/no/such/dir/r.json")),
    ("play", ("play", "--players", "2", "--record", "-", "--json")),
    ("play", ("play", "--players", "2", "--games", "3", "--record", "-")),
    ("play", ("play", "--players", "2", "--seed", "-1", "--json")),
    ("play", ("play", "--players", "2", "--seed", "1" + "0" * 400, "--json")),
    ("play", ("play", "--players", "2", "--seed", str(2**64), "--json")),
    ("play", ("play", "--players", "2", "--jobs", "1000", "--games", "2", "--json")),
    ("play", ("play", "--players", "2", "--jobs", "0", "--games", "2")),
    ("play", ("play", "--players", "2", "--cluster", "tcp://127.0.0.1:1", "--games", "2")),
    ("play", ("play", "--players", "2", "--cluster", "", "--games", "2")),
    ("tableaux", ("tableaux", "--cards", "3", "--score", "6", "--count", "--facts", "--unreachable")),
    ("tableaux", ("tableaux", "--cards", "0", "--score", "0", "--json")),
    ("tableaux", ("tableaux", "--cards", "99", "--score", "6", "--json")),
    ("tableaux", ("tableaux", "--cards", "3", "--json")),
    ("tableaux", ("tableaux", "--cards", "3", "--score", "6", "--must", "squid*9", "--json")),
    ("tableaux", ("tableaux", "--cards", "3", "--score", "6", "--must", "", "--json")),
    (
        "tableaux",
        ("tableaux", "--cards", "3", "--score", "6", "--must", "squid", "--without", "squid", "--json"),
    ),
    ("tableaux", ("tableaux", "--cards", "3", "--score", "6", "--without", "nosuch", "--json")),
    (
        "tableaux",
        (
            "tableaux",
            "--cards",
            "3",
            "--score",
            "6",
            "--maki-points",
            "3",
            "--without",
            "maki1",
            "--without",
            "maki2",
            "--without",
            "maki3",
            "--json",
        ),
    ),
    ("tableaux", ("tableaux", "--cards", "3", "--all-scores", "--json")),
    ("tableaux", ("tableaux", "--cards", "3", "--score", "6", "--limit", "0", "--json")),
    ("table", ("table", "--scores", "9,0", "--input", "{E}/table.json", "--limit", "1")),
    ("table", ("table", "--scores", ",", "--limit", "1")),
    ("table", ("table", "--scores", "9", "--limit", "1")),
    ("table", ("table", "--scores", "9,0,0,0,0,0", "--limit", "1")),
    ("table", ("table", "--scores", "9,0", "--names", "A", "--limit", "1")),
    ("table", ("table", "--scores", "9,0", "--names", "A,A", "--limit", "1", "--json")),
    ("table", ("table", "--scores", "9,0", "--has", "3:squid", "--limit", "1")),
    ("table", ("table", "--scores", "9,0", "--has", "0:squid", "--limit", "1")),
    ("table", ("table", "--scores", "9,0", "--count", "1:squid=-1", "--limit", "1")),
    ("table", ("table", "--scores", "9,0", "--count", "1:squid=99", "--limit", "1")),
    ("table", ("table", "--scores", "9,0", "--count", "1:squid", "--limit", "1")),
    ("table", ("table", "--scores", "9,0", "--icons", "1:-1", "--limit", "1")),
    ("table", ("table", "--scores", "9,0", "--icons", "x", "--limit", "1")),
    ("table", ("table", "--scores", "9,0", "--icons", "1:99999999999999999999", "--limit", "1", "--json")),
    ("table", ("table", "--scores", "1e3,0", "--limit", "1")),
    ("table", ("table", "--scores", "99999999999999999999999,0", "--limit", "1", "--timeout", "5")),
    ("table", ("table", "--scores", "-5,0", "--limit", "1", "--timeout", "5")),
    ("table", ("table", "--scores", "true,0", "--limit", "1")),
    ("diff", ("diff", "official", "--timeout", "3")),
    ("diff", ("diff", "--timeout", "3")),
    ("diff", ("diff", "official", "official", "--players", "2", "--timeout", "3", "--json")),
    ("diff", ("diff", "official", "french", "--matrix", "--timeout", "3")),
    ("diff", ("diff", "official", "french", "--players", "1", "--timeout", "3")),
    ("diff", ("diff", "official", "french", "--players", "6", "--timeout", "3")),
    ("diff", ("diff", "official", "french", "--players", "2", "--players", "2", "--timeout", "3", "--json")),
    ("diff", ("diff", "official", "french", "--game", "{E}/record-2p.json", "--all", "--timeout", "3")),
    ("diff", ("diff", "official", "dummy-2p", "--players", "3", "--timeout", "3")),
    (
        "diff",
        ("diff", "official", "french", "--game", "{E}/record-3p.json", "--players", "2", "--timeout", "3"),
    ),
    ("diff", ("diff", "official", "french", "--game", "-", "--timeout", "3")),
    ("endgame", ("endgame", "--hands", "squid egg / tempura", "--taken", "", "--json")),
    ("endgame", ("endgame", "--hands", "", "--json")),
    ("endgame", ("endgame", "--hands", "/", "--json")),
    ("endgame", ("endgame", "--hands", "squid / egg / tempura / salmon / egg / squid", "--json")),
    ("endgame", ("endgame", "--hands", "squid", "--json")),
    ("endgame", ("endgame", "--hands", "squid / egg", "--round", "0", "--json")),
    ("endgame", ("endgame", "--hands", "squid / egg", "--round", "4", "--json")),
    ("endgame", ("endgame", "--hands", "squid / egg", "--puddings", "1", "--json")),
    ("endgame", ("endgame", "--hands", "squid / egg", "--scores", "x,y", "--json")),
    ("endgame", ("endgame", "--hands", "squid / egg", "--scores", "1e999,0", "--json")),
    ("endgame", ("endgame", "--hands", "squid / egg", "--puddings", "-1,0", "--json")),
    ("endgame", ("endgame", "--hands", "squid / egg", "--puddings", "99,0", "--json")),
    ("endgame", ("endgame", "--hands", "squid*20 / egg*20", "--json", "--max-nodes", "1000")),
    ("endgame", ("endgame", "--hands", "squid egg / tempura", "--json")),
    ("endgame", ("endgame", "--hands", "squid / egg", "--certify", "--objective", "win", "--json")),
    ("endgame", ("endgame", "--hands", "squid / egg / tempura", "--certify", "--json")),
    ("endgame", ("endgame", "{E}/position.json", "--hands", "squid / egg", "--json")),
    ("endgame", ("endgame", "{E}/position.json", "--batch", "{E}/position.json", "--json")),
    ("endgame", ("endgame", "--hands", "squid / egg", "--taken", "egg / egg / egg", "--json")),
    ("endgame", ("endgame", "--hands", "squid / egg", "--taken", "squid*10, squid*10 / egg", "--json")),
    ("endgame", ("endgame", "--json")),
    ("endgame", ("endgame", "--hands", "squid / egg", "--policy", "greedy", "--json")),
    ("endgame", ("endgame", "--hands", "squid / egg", "--jobs", "2", "--json")),
    ("puzzle", ("puzzle", "--show", "0")),
    ("puzzle", ("puzzle", "--show", "99999")),
    ("puzzle", ("puzzle", "--show", "-1")),
    ("puzzle", ("puzzle", "--list", "--solution")),
    ("puzzle", ("puzzle", "--list", "--show", "1")),
    ("puzzle", ("puzzle",)),
    ("puzzle", ("puzzle", "--list", "--timeout", "1")),
    ("puzzle", ("puzzle", "--show", "1", "--rules", "french", "--json")),
    ("puzzle", ("puzzle", "--show", "1", "--rule", "deck.squid=0", "--json")),
    ("check", ("check", "--mutant", "x", "--only", "no-such-property")),
    ("check", ("check", "--profile", "quick", "--examples", "1", "--only", "no-such-property")),
    ("check", ("check", "--jobs", "0", "--only", "no-such-property")),
    ("check", ("check", "--jobs", "1000", "--only", "no-such-property", "--examples", "1")),
    ("check", ("check", "--seed", "1" + "0" * 400, "--only", "no-such-property", "--examples", "1")),
    ("check", ("check", "--seed", "-1", "--only", "no-such-property", "--examples", "1")),
    ("check", ("check", "--mutants", "--mutant", "nosuch", "--examples", "1", "--jobs", "1")),
    ("conform", ("conform", "{D}", "--examples", "3")),
    ("conform", ("conform", "", "--examples", "3")),
    ("conform", ("conform", "os", "--examples", "3", "--time-limit", "10")),
    ("conform", ("conform", "no.such.module", "--examples", "3")),
    ("conform", ("conform", "{E}/puzzle.json", "--examples", "3")),
    (
        "conform",
        ("conform", "{E}/conform_adapter.py", "--examples", "3", "--seed", "-1", "--time-limit", "10"),
    ),
    (
        "conform",
        (
            "conform",
            "{E}/conform_adapter.py",
            "--examples",
            "3",
            "--seed",
            "1" + "0" * 400,
            "--time-limit",
            "10",
        ),
    ),
    (
        "conform",
        ("conform", "{E}/conform_adapter.py", "--examples", "3", "--memory-limit", "1", "--time-limit", "10"),
    ),
    (
        "conform",
        (
            "conform",
            "{E}/conform_adapter.py",
            "--examples",
            "3",
            "--call-timeout",
            "0.001",
            "--time-limit",
            "10",
        ),
    ),
    (
        "conform",
        ("conform", "{E}/conform_adapter.py", "--examples", "3", "--time-limit", "10", "--jobs", "1000"),
    ),
    ("rules", ("rules", "nosuch")),
    ("rules", ("rules", "--vs", "nosuch")),
    ("rules", ("rules", "--catalogue", "--players", "6")),
    ("rules", ("rules", "--catalogue", "--players", "1", "--json")),
    ("rules", ("rules", "--export", "official", "--vs", "french", "--catalogue")),
    ("rules", ("rules", "--players", "3")),
    ("rules", ("rules", "--all", "official", "french", "--json")),
    ("rules", ("rules", "official", "official", "--json")),
    ("schema", ("schema", "nosuch")),
    ("schema", ("schema", "")),
    ("schema", ("schema", "../../../etc/passwd")),
    ("schema", ("schema", "/etc/passwd")),
    ("schema", ("schema", "record.json")),
    ("schema", ("schema", "Record")),
    ("schema", ("schema", "loader")),
    ("schema", ("schema", "__init__")),
    ("schema", ("schema", "record", "--json")),
    (
        "balance",
        ("balance", "official", "--vs", "official", "--games", "3", "--no-maxima", "--no-diff", "--json"),
    ),
    ("balance", ("balance", "french", "--games", "0", "--no-maxima", "--no-diff")),
    ("balance", ("balance", "french", "--games", "3", "--players", "6", "--no-maxima", "--no-diff")),
    ("balance", ("balance", "french", "--games", "3", "--policy", "x", "--no-maxima", "--no-diff")),
    ("balance", ("balance", "french", "--games", "3", "--plot", "{D}/x.txt", "--no-maxima", "--no-diff")),
    ("balance", ("balance", "french", "--games", "3", "--plot", "", "--no-maxima", "--no-diff")),
    ("balance", ("balance", "french", "--games", "3", "--plot", "{D}", "--no-maxima", "--no-diff")),
    ("balance", ("balance", "french", "--games", "3", "--plot", "/dev/full.png", "--no-maxima", "--no-diff")),
    ("balance", ("balance", "dummy-2p", "--games", "3", "--players", "4", "--no-maxima", "--no-diff")),
    ("balance", ("balance", "french", "--games", "3", "--rule-vs", "x=1", "--no-maxima", "--no-diff")),
    ("completion", ("completion", "fish")),
    ("completion", ("completion", "")),
    ("completion", ("completion",)),
    ("score", ("score",)),
    ("score", ("score", "tempura")),
    ("score", ("score", "", "")),
    ("score", ("score", "squid*0", "egg")),
    ("score", ("score", "squid*-1", "egg")),
    ("score", ("score", "squid*" + "9" * 400, "egg")),
    ("score", ("score", "squid*1e9", "egg")),
    ("score", ("score", "squid*99", "egg", "--json")),
    ("score", ("score", "wasabi+wasabi", "egg")),
    ("score", ("score", "wasabi+", "egg")),
    ("score", ("score", "+squid", "egg")),
    ("score", ("score", "squid:wasabi", "egg")),
    ("score", ("score", "squid egg", "egg", "egg", "egg", "egg", "egg")),
    ("score", ("score", "-", "egg")),
    ("score", ("score", "{E}/game-score.json", "egg")),
    ("score", ("score", "{E}/game-score.json", "{E}/game-score.json")),
    ("score", ("score", "squid\u00a0egg", "egg")),
    ("score", ("score", "\uff53quid", "egg")),
    ("score", ("score", "SQUID", "egg")),
    ("score", ("score", "squid,egg", "egg")),
    ("score", ("score", "maki0", "maki4")),
    ("score", ("score", "x" * 100_000, "egg")),
    ("score", ("score", "squid*2*3", "egg")),
    ("score", ("score", "squid(3)", "egg")),
    ("score", ("score", "[squid]", "egg")),
    ("score", ("score", "{D}", "egg")),
    ("score", ("score", "nosuch.json", "egg")),
    ("score", ("score", "nosuch.json")),
    ("replay", ("replay",)),
    ("replay", ("replay", "{E}/record-2p.json", "{E}/record-2p.json")),
    ("replay", ("replay", "{E}/record-2p.json", "--rules", "dummy-2p", "--json")),
    ("replay", ("replay", "{E}/record-3p.json", "--rules", "dummy-2p", "--json")),
    ("replay", ("replay", "{E}/game-score.json", "--json")),
    ("replay", ("replay", "{E}/tampered.json", "--json")),
    ("scoresheet", ("scoresheet", "{E}/sheet.json", "--rlimit", "1", "--json")),
    ("scoresheet", ("scoresheet", "{E}/sheet.json", "--timeout", "0.001", "--json")),
    ("scoresheet", ("scoresheet", "{E}/game-score.json", "--json")),
)


def contradiction_cases() -> Iterator[Case]:
    for command, argv in CONTRADICTIONS:
        yield Case(command, "combination", argv)


# --- a hostile world (issue 32): numbers, encodings, streams, a deleted cwd, a full disk ---------

#: Digit strings around every limit: 64-bit, float range, Python's 4,300-digit integer-string
#: limit, and far past it (leading zeros and signs too).
DIGITS = (
    "9" * 19,
    "9" * 20,
    "1" + "0" * 308,
    "9" * 4300,
    "9" * 4301,
    "0" * 5000 + "1",
    "-" + "9" * 5000,
    "+" + "9" * 30,
    "9" * 100_000,
)

#: Where notation reads a count or a number (``{N}``: the digit string).
NOTATION: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("score", ("score", "squid*{N}", "egg", "--json")),
    ("score", ("score", "{N}*squid", "egg")),
    ("tableaux", ("tableaux", "--cards", "3", "--score", "6", "--must", "squid*{N}", "--timeout", "3")),
    ("table", ("table", "--scores", "9,0", "--has", "1:squid*{N}", "--limit", "1", "--timeout", "5")),
    ("table", ("table", "--scores", "9,0", "--count", "1:squid={N}", "--limit", "1", "--timeout", "5")),
    ("table", ("table", "--scores", "9,0", "--count", "{N}:squid=1", "--limit", "1", "--timeout", "5")),
    ("table", ("table", "--scores", "9,0", "--icons", "1:{N}", "--limit", "1", "--timeout", "5")),
    ("table", ("table", "--scores", "{N},0", "--limit", "1", "--timeout", "5")),
    ("best", ("best", "{E}/record-2p.json", "--round", "{N}", "--seat", "0", "--timeout", "3")),
    ("best", ("best", "{E}/record-2p.json", "--round", "1", "--seat", "{N}", "--timeout", "3")),
    ("endgame", ("endgame", "{E}/position.json", "--round", "{N}", "--max-nodes", "2000",
                 "--time-limit", "3")),
    ("puzzle", ("puzzle", "--show", "{N}")),
    ("rules", ("rules", "--players", "{N}")),
    ("check", ("check", "--examples", "{N}", "--only", "no-such-property")),
    ("play", ("play", "--players", "2", "--games", "{N}")),
    ("balance", ("balance", "french", "--games", "{N}", "--no-maxima", "--no-diff")),
    ("conform", ("conform", "{E}/conform_adapter.py", "--examples", "{N}", "--time-limit", "10")),
)

#: Names no terminal should act on, and names an encoding cannot carry.
NAMES = (
    "Jos\u00e9,Zo\u00eb",
    "\u2603,\U0001f363",
    "\x1b[2J\x1b[31mRED,\x1b]0;owned\x07",
    "\u202eevil,\x08\x08\x08",
    "caf\u00e9\r,\x9b31m",
)
ENCODINGS = (
    (("PYTHONIOENCODING", "ascii"),),
    (("PYTHONIOENCODING", "latin-1"),),
    (("PYTHONIOENCODING", "cp1252"),),
    (("LC_ALL", "C"), ("LANG", "C"), ("PYTHONUTF8", "0"), ("PYTHONCOERCECLOCALE", "0")),
    (("PYTHONIOENCODING", "utf-8"),),
)
#: Raw characters a text output must never carry (escaped as \x1b, \x07, \u202e ...).
RAW_CONTROLS = re.compile("[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

#: An engine for conform that fails one way (only the CLI's exit code is judged here; how
#: conform treats an adversary is its own campaign, checks/conform). ``broken``: it must not conform.
ENGINES: tuple[tuple[str, bool, str], ...] = (
    ("exit-at-import", True, "import sys\nsys.exit(0)\n"),
    ("raise-at-import", True, "raise RuntimeError('engine broken')\n"),
    ("syntax-error", True, "def score_round(:\n"),
    ("not-callable", True, "score_round = 3\n"),
    ("no-entry-point", True, "x = 1\n"),
    ("exits-every-call", True, "import os\ndef score_round(t):\n    os._exit(3)\n"),
    ("raises-every-call", True, "def score_round(t):\n    raise ValueError('no')\n"),
    ("returns-text", True, "def score_round(t):\n    return 'x'\n"),
    ("returns-huge", True, "def score_round(t):\n    return [10**5000] * len(t)\n"),
    ("returns-nan", True, "def score_round(t):\n    return [float('nan')] * len(t)\n"),
    ("wrong-length", True, "def score_round(t):\n    return [0]\n"),
    ("prints-on-call", True, "def score_round(t):\n    print('hello')\n    return [0] * len(t)\n"),
    ("control-chars", True, "def score_round(t):\n    raise ValueError('\\x1b[2J\\u202e')\n"),
)


def world_cases(command: str) -> Iterator[Case]:
    """The hostile world around ``command``: digit strings in every numeric place, encodings and
    control characters, closed and full streams, a deleted working directory, a full disk."""
    base = BASE[command]
    json_flag = () if command in NO_JSON else ("--json",)
    for option in numeric_options().get(command, []):
        kept = _without(base, option)
        for digits in DIGITS:
            yield Case(command, f"digits {option} {len(digits)}", (*kept, option, digits, *json_flag))
    for name, argv in NOTATION:
        if name == command:
            for digits in DIGITS:
                yield Case(command, f"digits notation {len(digits)}",
                           tuple(a.replace("{N}", digits) for a in argv))
    for env in ENCODINGS:
        shown = ",".join(v for _, v in env[:1])
        yield Case(command, f"encoding {shown} base", base, env=env)
        if command == "table":
            for names in NAMES:
                yield Case(command, f"encoding {shown} names", (*base, "--names", names), env=env)
                yield Case(command, f"encoding {shown} names", (*base, "--names", names, "--json"), env=env)
        if command == "scoresheet":
            for names in NAMES:
                sheet = json.dumps({"players": names.split(","), "rounds": [[12, 3]]}).encode()
                for extra in ((), ("--json",)):
                    argv = ("scoresheet", "{D}/sheet.json", "--timeout", "5", *extra)
                    yield Case(command, f"encoding {shown} names", argv, files=(("sheet.json", sheet),),
                               env=env)
        if command in RULES_USERS:
            for names in NAMES:
                text = f'extends = "official"\nname = {json.dumps(names)}\n'.encode()
                argv = tuple("{D}/named.toml" if a == "{R}" else a for a in RULES_USERS[command])
                yield Case(command, f"encoding {shown} rules-name", tuple(a for a in argv if a != "--json"),
                           files=(("named.toml", text),), env=env)
    bad = (*base, "--no-such-option")
    yield Case(command, "stream stderr-full bad", bad, stderr="full", expect=2)
    yield Case(command, "stream stderr-closed bad", bad, stderr="closed", expect=2)
    yield Case(command, "stream stderr-full", (*base, *json_flag), stderr="full")
    yield Case(command, "stream stderr-closed", (*base, *json_flag), stderr="closed")
    yield Case(command, "stream stdout-closed", base, stdout="closed")
    yield Case(command, "stream stdout-closed help", (command, "--help"), stdout="closed")
    yield Case(command, "stream stdout-full help", (command, "--help"), stdout="full")
    yield Case(command, "stream both-full", (*base, *json_flag), stdout="full", stderr="full")
    yield Case(command, "stream stdout-disk", (*base, *json_flag), stdout="disk", disk=True)
    yield Case(command, "cwd deleted", base, cwd="deleted")
    yield Case(command, "cwd deleted relative", (*base, "--rules", "mine.toml") if command in RULES_USERS
               else base, cwd="deleted")
    if command == "play":
        for games in ("1", "3"):
            yield Case(command, "disk record", ("play", "--players", "3", "--games", games, "--record",
                                                "{K}/good.json"), disk=True)
        yield Case(command, "disk record", ("play", "--players", "2", "--record", "{K}/new.json"), disk=True)
    if command == "balance":
        yield Case(command, "disk plot", ("balance", "french", "--games", "3", "--no-maxima", "--no-diff",
                                          "--plot", "{K}/good.png"), disk=True)
    if command == "conform":
        for name, _, text in ENGINES:
            argv = ("conform", "{D}/engine.py", "--examples", "3", "--time-limit", "20", "--json")
            yield Case(command, f"engine {name}", argv, files=(("engine.py", text.encode()),))


@functools.cache
def all_cases() -> dict[str, list[Case]]:
    """Every case of every class, by command, in a fixed order."""
    by_command: dict[str, list[Case]] = {c: [] for c in COMMANDS}
    for slot in SLOTS:
        by_command[slot.command].extend(slot_cases(slot))
    for command in RULES_USERS:
        by_command[command].extend(rules_cases(command))
    for command, options in numeric_options().items():
        by_command[command].extend(option_cases(command, options))
    for case in contradiction_cases():
        by_command[case.command].append(case)
    for command in COMMANDS:
        by_command[command].extend(world_cases(command))
    return by_command


#: The input classes of the hostile world (the first word of a case's kind).
WORLD = ("digits", "encoding", "stream", "cwd", "disk", "engine")


def _interleave(rng: random.Random, groups: dict[str, list[Any]]) -> list[Any]:
    """Every item of every group, shuffled within its group, the groups taking turns."""
    queues = [rng.sample(group, len(group)) for _, group in sorted(groups.items())]
    rng.shuffle(queues)
    out: list[Any] = []
    while any(queues):
        for queue in queues:
            if queue:
                out.append(queue.pop())
    return out


def _grouped(cases: list[Case], word: int) -> dict[str, list[Case]]:
    groups: dict[str, list[Case]] = {}
    for case in cases:
        words = case.kind.split()
        groups.setdefault(words[word] if len(words) > word else "", []).append(case)
    return groups


def classes_of(names: list[str]) -> set[str]:
    """The input classes ``names`` name ('world': every class of :data:`WORLD`)."""
    return {c for name in names for c in (WORLD if name == "world" else (name,))}


def sample(seed: int, per_command: int, commands: list[str] | None = None,
           classes: set[str] | None = None) -> list[Case]:
    """``per_command`` cases of each command (0: all), drawn with ``seed``: the input classes
    (the kind's first word: a document slot, rules-file, rule, option, ...) take turns, and
    within a class its forms (the second word: the wrong value, the option) take turns, so a
    document's many positions do not crowd out the rest. The same seed, the same cases in the
    same order."""
    rng = random.Random(seed)
    chosen: list[Case] = []
    for command, every in all_cases().items():
        if commands and command not in commands:
            continue
        cases = [c for c in every if not classes or c.kind.split()[0] in classes]
        if per_command <= 0 or per_command >= len(cases):
            chosen.extend(cases)
            continue
        by_class = {name: _interleave(rng, _grouped(group, 1)) for name, group in _grouped(cases, 0).items()}
        chosen.extend(_interleave_prefix(rng, by_class, per_command))
    return chosen


def _interleave_prefix(rng: random.Random, classes: dict[str, list[Case]], count: int) -> list[Case]:
    """The first ``count`` cases when the classes take turns, each in its own order."""
    queues = [list(reversed(classes[name])) for name in sorted(classes)]
    rng.shuffle(queues)
    out: list[Case] = []
    while len(out) < count and any(queues):
        for queue in queues:
            if queue and len(out) < count:
                out.append(queue.pop())
    return out


# --- running ---------------------------------------------------------------------------------


def _make_special(kind: str, where: Path) -> str:
    path = where / "doc.json"
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        return "/dev/zero"
    elif kind == "dev-null":
        return "/dev/null"
    elif kind == "unreadable":
        path.write_text("{}", encoding="utf-8")
        path.chmod(0)
    elif kind == "missing":
        pass
    elif kind == "empty-name":
        return ""
    elif kind == "symlink-loop":
        path.symlink_to(path)
    elif kind == "too-big":  # past the loader's 8 MiB limit, made here (not held by every case)
        with path.open("wb") as fh:
            fh.truncate(9 * 1024 * 1024)
    return str(path)


def _fill(word: str, files: dict[str, str]) -> str:
    for key, value in files.items():
        word = word.replace(key, value)
    return word


_ERROR_LINE = re.compile(r"sushigo (?P<command>[a-z]+): (error|unknown): .+")


def judge(case: Case, code: int | None, seconds: float, out: str, err: str) -> list[str]:
    """What is wrong with one run (nothing: an empty list)."""
    faults = []
    if code is None:
        faults.append(f"hang: no end within {TIME_LIMIT:g} s")
        return faults
    if "Traceback" in err:
        faults.append("traceback")
    if code not in (0, 1, 2):
        faults.append(f"exit code {code}" + (" (an internal error)" if code == 70 else ""))
    if code == 0 and case.stdout in ("closed", "full"):
        faults.append("exit 0 after lost output")
    if case.expect is not None and code != case.expect:
        faults.append(f"exit {code}, not {case.expect}, with the error line lost")
    if case.cwd == "deleted" and "free space" in err:
        faults.append("a deleted working directory reported as a full device")
    if case.kind.startswith("engine ") and code == 0 and any(
            case.kind == f"engine {name}" and broken for name, broken, _ in ENGINES):
        faults.append("a broken engine conforms (exit 0)")
    if case.kind.startswith("encoding") and "--json" not in case.argv and RAW_CONTROLS.search(out):
        faults.append(f"raw control character in text output: {RAW_CONTROLS.search(out)[0]!r}")  # type: ignore[index]
    lines = [line for line in err.splitlines() if line.strip()]
    if case.stderr != "pipe":
        return faults  # nothing to read on standard error
    if code == 2:
        if len(lines) != 1:
            faults.append(f"exit 2 with {len(lines)} lines on stderr")
        if not lines or not (m := _ERROR_LINE.fullmatch(lines[-1])) or m["command"] != case.command:
            faults.append(f"exit 2 without 'sushigo {case.command}: error: ...'")
    elif code == 1 and lines and lines[-1].startswith("sushigo") and not _ERROR_LINE.fullmatch(lines[-1]):
        faults.append(f"error line does not name the command: {lines[-1][:80]!r}")
    if "--json" in case.argv and code in (0, 1) and case.stdout == "pipe" and out.strip():
        faults.extend(_json_faults(out))
    return faults


def _json_faults(out: str) -> list[str]:
    from sushigo import schemas

    try:
        doc = json.loads(out)
    except ValueError as exc:
        return [f"--json output is not JSON: {exc}"]
    if isinstance(doc, list):  # play --record - prints records; each is checked
        docs = doc
    else:
        docs = [doc]
    faults = []
    for one in docs:
        if isinstance(one, dict) and "$schema" in one:  # 'sushigo schema NAME' prints the schema itself
            continue
        if not isinstance(one, dict) or next(iter(one), None) != "format":
            faults.append("--json output has no first key 'format'")
            continue
        # The schemas whose documents may carry this tag (a result's tag may sit in a branch).
        candidates = [n for n in schemas.names() if one["format"] in schemas.formats(n)]
        problems = [(n, schemas.first_problem(one, n)) for n in candidates]
        if not candidates:
            faults.append(f"--json format {one['format']!r} names no schema")
        elif all(problem is not None for _, problem in problems):
            faults.append(f"--json output does not match {problems[0][0]}: {problems[0][1]}")
    return faults


def run_case(case: Case, time_limit: float = TIME_LIMIT) -> Result:
    """Run ``case`` in a fresh directory; the result carries what :func:`judge` found."""
    try:
        return _run_case(case, time_limit)
    except (OSError, ValueError) as exc:  # the case itself cannot be set up or started
        return Result(case, None, 0.0, "", "", [f"case not run: {exc}"])


def _run_case(case: Case, time_limit: float) -> Result:
    where = Path(tempfile.mkdtemp(prefix="sushigo-fuzz-"))
    try:
        names = {"{D}": str(where), "{E}": str(EXAMPLES)}
        for name, data in case.files:
            (where / name).write_bytes(data)
        (where / "sub").mkdir(exist_ok=True)
        names["{F}"] = _make_special(case.special, where) if case.special else str(where / "doc.json")
        disk = _FullDisk(where / "disk") if case.disk else None
        if disk is not None:
            names["{K}"] = str(disk.path)
        # No PYTHONPATH of the checkout: its sushigo/ folder is not the installed package (spec/,
        # solver/ and checks/ install inside it), and CI runs the installed wheel.
        env = dict(
            os.environ,
            HOME=str(where),
            COLUMNS="100",
        )
        env.update(case.env)
        argv = [_fill(a, names) for a in case.argv]
        try:
            code, seconds, out, err = _spawn(case, argv, where, env, time_limit, disk)
            faults = judge(case, code, seconds, out, err) + (disk.faults(code) if disk else [])
        finally:
            if disk is not None:
                disk.close()
        return Result(case, code, seconds, out, err, faults)
    finally:
        for path in where.rglob("*"):
            if not path.is_symlink():
                try:
                    path.chmod(stat.S_IRWXU)
                except OSError:
                    pass
        shutil.rmtree(where, ignore_errors=True)


#: A good record and picture on the full disk: a failed write must leave them byte for byte.
GOOD = {"good.json": (EXAMPLES / "record-2p.json").read_bytes(),
        "good.png": b"\x89PNG\r\n\x1a\n" + b"\0" * 3000}


@functools.cache
def _can_mount() -> bool:
    """Whether this process may mount a small tmpfs (root on Linux, no container forbidding it)."""
    probe = Path(tempfile.mkdtemp(prefix="sushigo-fuzz-mount-"))
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe)],
                              capture_output=True, check=False)
        if done.returncode != 0:
            return False
        subprocess.run(["umount", str(probe)], capture_output=True, check=False)
        return True
    except OSError:
        return False
    finally:
        shutil.rmtree(probe, ignore_errors=True)


class _FullDisk:
    """A directory on a full disk holding :data:`GOOD`: a 64 KiB tmpfs filled up where the machine
    lets it be mounted, else a plain directory and a file-size limit on the command (RLIMIT_FSIZE:
    a write past 4 KiB fails with EFBIG, as one on a full disk fails with ENOSPC)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir()
        self.mounted = _can_mount() and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(path)], capture_output=True,
            check=False).returncode == 0
        try:
            self._fill()
        except BaseException:  # never leave a mount behind
            self.close()
            raise

    def _fill(self) -> None:
        path = self.path
        for name, data in GOOD.items():
            (path / name).write_bytes(data)
        if self.mounted:
            fd = os.open(path / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                while os.write(fd, b"\0" * 1024):
                    pass
            except OSError:  # full: the point
                pass
            finally:
                os.close(fd)

    def limit(self) -> None:
        """In the command's process (preexec): the file-size limit when there is no full tmpfs."""
        if not self.mounted:
            import resource

            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    def faults(self, code: int | None) -> list[str]:
        found = [f"{name} damaged by a failed write" for name, data in GOOD.items()
                 if (self.path / name).read_bytes() != data]
        litter = sorted(p.name for p in self.path.iterdir() if p.name not in (*GOOD, "filler", "out.txt"))
        if litter:
            found.append(f"left behind on the full disk: {', '.join(litter)}")
        out = self.path / "out.txt"
        # Under the file-size limit an output shorter than the limit is written whole: no loss.
        lost = self.mounted or not out.exists() or out.stat().st_size >= 4096
        if code == 0 and lost:
            found.append("exit 0 after a write to a full disk")
        return found

    def close(self) -> None:
        if self.mounted:
            subprocess.run(["umount", "-l", str(self.path)], capture_output=True, check=False)


def _spawn(
    case: Case, argv: list[str], where: Path, env: dict[str, str], time_limit: float,
    disk: _FullDisk | None = None,
) -> tuple[int | None, float, str, str]:
    command = [sys.executable, "-m", "sushigo", *argv]
    stdin: Any = subprocess.DEVNULL
    if case.stdin == b"<zero>":
        stdin = open("/dev/zero", "rb")  # closed below
    elif case.stdin is not None and case.stdin != b"<closed>":
        stdin = subprocess.PIPE
    closing = []
    if case.stdin == b"<closed>":
        closing.append("<&-")
    if case.stdout == "closed":
        closing.append(">&-")
    if case.stderr == "closed":
        closing.append("2>&-")
    enter = ""
    if case.cwd == "deleted":  # the shell enters the directory and removes it, then runs the command
        gone = where / "gone"
        gone.mkdir()
        enter = f'cd "{gone}" && rmdir "{gone}" && '
    if closing or enter:  # the shell closes the descriptor, then becomes the command
        command = ["/bin/sh", "-c", f'{enter}exec "$@" {" ".join(closing)}', "sh", *command]
    stdout: Any = subprocess.PIPE
    if case.stdout == "full":
        stdout = open("/dev/full", "wb")  # closed below
    elif case.stdout == "disk" and disk is not None:
        stdout = open(disk.path / "out.txt", "wb")  # closed below
    stderr: Any = subprocess.PIPE
    if case.stderr == "full":
        stderr = open("/dev/full", "wb")  # closed below
    start = time.monotonic()
    proc = subprocess.Popen(
        command,
        cwd=where,
        env=env,
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        start_new_session=True,
        preexec_fn=None if disk is None else disk.limit,
    )
    try:
        data = case.stdin if stdin is subprocess.PIPE else None
        out, err = proc.communicate(data, timeout=time_limit)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        code = None
    finally:
        for handle in (stdin, stdout, stderr):
            if hasattr(handle, "close"):
                handle.close()
    seconds = time.monotonic() - start
    if code is not None and code < 0:
        code = 128 - code  # killed by a signal: the shell's number
    return (code, seconds, (out or b"").decode("utf-8", "replace"), (err or b"").decode("utf-8", "replace"))


def campaign(
    cases: list[Case],
    jobs: int = 1,
    time_limit: float = TIME_LIMIT,
    progress: Callable[[Result], None] | None = None,
) -> list[Result]:
    """Run every case (``jobs`` at a time); results in the order of ``cases``."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = []
        for result in pool.map(lambda c: run_case(c, time_limit), cases):
            results.append(result)
            if progress is not None:
                progress(result)
    return results


def by_turns(cases: list[Case]) -> list[Case]:
    """``cases`` with the commands taking turns, each command's cases in their own order."""
    queues: dict[str, list[Case]] = {}
    for case in cases:
        queues.setdefault(case.command, []).append(case)
    out: list[Case] = []
    depth = max((len(q) for q in queues.values()), default=0)
    for i in range(depth):
        out.extend(q[i] for q in queues.values() if i < len(q))
    return out


#: The fault kinds the closing note counts one by one (issue 32's "Done when"); the rest are "other".
FAULT_KINDS = ("traceback", "exit 0 after lost output", "hang")


def fault_kind(fault: str) -> str:
    """The kind of one of :func:`judge`'s faults: one of :data:`FAULT_KINDS` or the fault itself."""
    if fault.startswith("hang"):
        return "hang"
    if fault in ("exit 0 after lost output", "exit 0 after a write to a full disk"):
        return "exit 0 after lost output"
    return fault


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample (default 1)")
    parser.add_argument("--cases", type=int, default=40, help="cases per command (0: every case; default 40)")
    parser.add_argument("--command", action="append", default=[], help="only this command (repeatable)")
    parser.add_argument("--jobs", type=int, default=1, help="runs at a time (default 1)")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT, help="seconds before a run is a hang")
    parser.add_argument("--list", action="store_true", help="list the cases, run nothing")
    parser.add_argument("--class", dest="classes", action="append", default=[],
                        help="only cases of this input class (the kind's first word: digits, encoding, "
                        "stream, cwd, disk, engine, option, rule, ...; 'world' for the six of a hostile "
                        "world; repeatable)")
    parser.add_argument("--log", metavar="FILE", default=None,
                        help="write one JSON line per case as it ends (command, kind, exit code, seconds, "
                        "faults), so a long campaign stopped early still gives its counts")
    parser.add_argument("--interleave", action="store_true",
                        help="run the commands' cases in turns (one of each command, then the next), so a "
                        "campaign stopped early has tried every command")
    args = parser.parse_args(argv)
    cases = sample(args.seed, args.cases, args.command, classes_of(args.classes))
    if args.interleave:
        cases = by_turns(cases)
    if args.list:
        for case in cases:
            print(case.label())
        return 0
    tries: Counter[str] = Counter()
    faulty: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # closed below

    def report(result: Result) -> None:
        tries[result.case.command] += 1
        if log is not None:
            log.write(json.dumps({"command": result.case.command, "case": result.case.label(),
                                  "code": result.code, "seconds": round(result.seconds, 3),
                                  "faults": result.faults}) + "\n")
            log.flush()
        if result.faults:
            faulty[result.case.command] += 1
            kinds.update(fault_kind(f) for f in result.faults)
            tail = " | ".join(result.stderr.strip().splitlines()[-2:])[:300]
            print(
                f"FAULT {'; '.join(result.faults)}: {result.case.label()} -> exit {result.code} "
                f"({result.seconds:.1f} s): {tail}",
                flush=True,
            )

    try:
        results = campaign(cases, args.jobs, args.time_limit, report)
    finally:
        if log is not None:
            log.close()
    print(f"\nseed {args.seed}, {len(results)} cases:")
    for command in sorted(tries):
        print(f"  {command:<11} {tries[command]:>5} tries  {faulty[command]:>4} faulty")
    counts = ", ".join(f"{kinds[k]} {k}" for k in FAULT_KINDS)
    print(f"faults by kind: {counts}, {sum(kinds.values()) - sum(kinds[k] for k in FAULT_KINDS)} other")
    return 1 if any(r.faults for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
