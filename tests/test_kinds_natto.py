"""Adding a card kind that only scores is one definition (issue 27, "Done when").

The test copies the package to a scratch folder, adds ONE line to the copy's ``spec/kinds.py``
(``natto``: 4 points a card, 6 copies in the deck) and changes nothing else, then runs the
commands on the copy: ``score``, ``play``, ``replay``, ``best`` (both engines), ``tableaux``,
``diff``, ``check``, ``conform`` and ``endgame``. If any other file had to know about the new
kind (a fast path, a column list, a schema, a category table), one of them fails here.

Expected values are worked by hand from the definition (4 points per natto card) and the
printed rules (RULES.md "Tempura": a pair scores 5; "Nigiri": an egg scores 1).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
#: The repository's folders and where setup.py's ROOTS put them in the installed package.
ROOTS = {"sushigo": "sushigo", "spec": "sushigo/spec", "solver": "sushigo/solver", "checks": "sushigo/checks"}
CHOPSTICKS = '    CardKind("chopsticks", 4, Unscored(), "", "", ("chop", "cs"), "chopsticks"),\n'
NATTO = '    CardKind("natto", 6, PerCard(4), "natto", "R-NATTO"),\n'
# The copy must win over an installed sushigo, an editable one too (its finder sits on
# sys.meta_path ahead of PYTHONPATH): drop that finder before anything imports sushigo.
SITECUSTOMIZE = (
    "import sys\n"
    "sys.meta_path[:] = [f for f in sys.meta_path if '__editable__' not in repr(f)]\n"
)
# An end-of-round position with natto in both hands (round 3, 7 turns taken of 10).
POSITION = {
    "rules": "official", "round": 3,
    "hands": [["natto", "salmon", "chopsticks"], ["tempura", "natto", "salmon"]],
    "taken": [[["maki2"], ["sashimi"], ["chopsticks"], ["tempura", "tempura"], ["natto"], ["salmon"],
               ["tempura"]],
              [["squid"], ["tempura"], ["sashimi"], ["sashimi"], ["sashimi"], ["wasabi"], ["natto"]]],
    "puddings": [0, 0], "scores": [4, 22],
}
# A scorer that knows natto: the example adapter's points plus 4 a natto card.
NATTO_ADAPTER = """
import importlib.util
spec = importlib.util.spec_from_file_location("base", {base!r})
base = importlib.util.module_from_spec(spec)
spec.loader.exec_module(base)

def score_round(tableaux):
    plain = base.score_round([[c for c in t if c != "natto"] for t in tableaux])
    return [p + 4 * t.count("natto") for p, t in zip(plain, tableaux)]

score_puddings = base.score_puddings
"""


@pytest.fixture(scope="module")
def natto(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch folder: ``pkg/`` the package with natto defined, and room for documents."""
    root = tmp_path_factory.mktemp("natto")
    pkg = root / "pkg"
    for folder, dest in ROOTS.items():
        shutil.copytree(REPO / folder, pkg / dest, ignore=shutil.ignore_patterns("__pycache__"))
    kinds = pkg / "sushigo" / "spec" / "kinds.py"
    text = kinds.read_text(encoding="utf-8")
    assert text.count(CHOPSTICKS) == 1, "the chopsticks definition moved: update this test's anchor"
    kinds.write_text(text.replace(CHOPSTICKS, CHOPSTICKS + NATTO), encoding="utf-8")
    (pkg / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    (root / "position.json").write_text(json.dumps(POSITION), encoding="utf-8")
    example = REPO / "examples" / "conform_adapter.py"
    (root / "natto_adapter.py").write_text(NATTO_ADAPTER.format(base=str(example)), encoding="utf-8")
    return root


def sushigo(root: Path, *args: str, code: int = 0, out: str = "stdout") -> str:
    """Run the copy's CLI in ``root``; its exit code must be ``code``; its stdout (or stderr)."""
    env = {**os.environ, "PYTHONPATH": str(root / "pkg")}
    run = subprocess.run([sys.executable, "-m", "sushigo", *args], cwd=root, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == code, (args, run.returncode, run.stdout[-2000:], run.stderr[-2000:])
    assert "internal error" not in run.stderr, run.stderr
    return run.stdout if out == "stdout" else run.stderr


def test_the_copy_is_what_runs(natto: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(natto / "pkg")}
    where = subprocess.run([sys.executable, "-c", "import sushigo.spec.kinds as k; print(k.__file__)"],
                           cwd=natto, env=env, capture_output=True, text=True, check=True).stdout
    assert Path(where.strip()).is_relative_to(natto / "pkg")


def test_score(natto: Path) -> None:
    doc = json.loads(sushigo(natto, "score", "natto*3 tempura*2", "egg", "--json"))
    seat0, seat1 = doc["rounds"][0]
    assert seat0["natto"] == 12 and seat0["tempura"] == 5 and seat0["total"] == 17  # 3 x 4; a pair
    assert seat1["natto"] == 0 and seat1["total"] == 1  # an egg
    assert doc["winners"] == [0]
    table = sushigo(natto, "score", "natto*3 tempura*2", "egg")
    # A document with its own ruleset: the deck entry for natto passes the ruleset schema, the
    # output (with its natto column) passes the score-result schema, both read in the copy.
    game = {"rules": {"extends": "official", "deck": {"natto": 2}}, "rounds": [["natto*2", "egg"]]}
    (natto / "game.json").write_text(json.dumps(game), encoding="utf-8")
    doc = json.loads(sushigo(natto, "score", "game.json", "--json"))
    assert doc["rounds"][0][0]["natto"] == 8 and doc["totals"] == [8, 1]  # 2 x 4; an egg
    (natto / "natto.toml").write_text('extends = "official"\n\n[deck]\nnatto = 2\n', encoding="utf-8")
    refused = sushigo(natto, "score", "--rules", "natto.toml", "natto*3", "egg", code=2, out="stderr")
    assert "3 natto cards in the round, but the deck has only 2" in refused
    check = "import json, sys; from sushigo.schemas import first_problem; " \
            "print(first_problem(json.load(sys.stdin), 'score-result'))"
    env = {**os.environ, "PYTHONPATH": str(natto / "pkg")}
    got = subprocess.run([sys.executable, "-c", check], input=json.dumps(doc), cwd=natto, env=env,
                         capture_output=True, text=True, check=True).stdout
    assert got.strip() == "None", got
    header = next(line for line in table.splitlines() if line.startswith("player "))
    assert "natto" in header.split() and "winner: player 0 with 17 points" in table


def test_play_replay_best_diff(natto: Path) -> None:
    sushigo(natto, "play", "--players", "3", "--seed", "4", "--record", "rec.json")
    record = json.loads((natto / "rec.json").read_text(encoding="utf-8"))
    assert "natto" in json.dumps(record["rounds"][0]), "seed 4 deals natto in round 1"
    assert "valid" in sushigo(natto, "replay", "rec.json")
    found = {}
    for engine in ("search", "z3"):
        doc = json.loads(sushigo(natto, "best", "rec.json", "--round", "1", "--seat", "0",
                                 "--engine", engine, "--json"))
        assert doc["status"] == "optimal", doc
        found[engine] = doc["score"]
    assert found["search"] == found["z3"]
    assert "winners" in sushigo(natto, "diff", "official", "french", "--game", "rec.json")
    games = sushigo(natto, "play", "--players", "4", "--games", "200", "--seed", "1")
    assert "win share" in games


def test_tableaux(natto: Path) -> None:
    out = sushigo(natto, "tableaux", "--score", "16", "--cards", "4", "--must", "natto*4")
    assert out.splitlines()[0] == "1 tableaux of 4 cards score 16" and "natto*4" in out  # 4 x 4


def test_check(natto: Path) -> None:
    out = sushigo(natto, "check", "--examples", "20", "--ruleset", "official", "--no-edge", "--jobs", "1")
    assert "Every case agreed" in out


def test_conform(natto: Path) -> None:
    # The example adapter has never heard of natto: its natto points are the fault found.
    out = sushigo(natto, "conform", str(REPO / "examples" / "conform_adapter.py"), "--examples", "50", code=1)
    assert "round, natto" in out and "R-NATTO" in out
    sushigo(natto, "conform", "natto_adapter.py", "--examples", "50")


def test_endgame(natto: Path) -> None:
    out = sushigo(natto, "endgame", "position.json")
    assert "natto" in out.split("principal line:")[1]
