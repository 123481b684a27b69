"""The distribution as users install it: one import package, nothing left out, sdist == tree.

CI (``.ci/run``) builds the sdist, the wheel from that sdist and a wheel straight from the
checkout, installs the first wheel into a fresh virtual environment outside the checkout and
runs this suite against it; it passes the three paths in ``SUSHIGO_SDIST``,
``SUSHIGO_WHEEL`` and ``SUSHIGO_TREE_WHEEL``. Run elsewhere, the tests build them
themselves (from a copy of the files git tracks, so stale ``build/`` folders cannot leak in),
which needs the ``build`` package and takes about half a minute.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import sushigo

REPO = Path(__file__).resolve().parent.parent
# The repository's folders and the import package each installs as (the product's layout).
ROOTS = {"sushigo": "sushigo", "spec": "sushigo/spec", "solver": "sushigo/solver", "checks": "sushigo/checks"}


def _tracked_files() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("needs a git checkout to know which files are the tree")
    return [line for line in out.stdout.splitlines() if (REPO / line).is_file()]


def _build(args: list[str], source: Path, outdir: Path) -> Path:
    if importlib.util.find_spec("build") is None:
        pytest.skip("the 'build' package is not installed (pip install build)")
    subprocess.run([sys.executable, "-m", "build", *args, "--outdir", str(outdir), str(source)],
                   check=True, capture_output=True)
    return outdir


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    given = {k: os.environ.get(f"SUSHIGO_{k.upper()}") for k in ("sdist", "wheel", "tree_wheel")}
    if all(given.values()):
        return {k: Path(v) for k, v in given.items() if v}
    tmp = tmp_path_factory.mktemp("dists")
    tree = tmp / "tree"
    for rel in _tracked_files():
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / rel, tree / rel)
    from_sdist = _build([], tree, tmp / "from-sdist")  # sdist, then the wheel built from it
    from_tree = _build(["--wheel"], tree, tmp / "from-tree")
    return {
        "sdist": next(from_sdist.glob("*.tar.gz")),
        "wheel": next(from_sdist.glob("*.whl")),
        "tree_wheel": next(from_tree.glob("*.whl")),
    }


def _wheel_files(path: Path) -> dict[str, str]:
    """Each file of a wheel with the hash of its bytes (RECORD lists those hashes, so it is left out)."""
    with zipfile.ZipFile(path) as zf:
        return {
            name: hashlib.sha256(zf.read(name)).hexdigest()
            for name in zf.namelist()
            if not name.endswith("/") and not name.endswith(".dist-info/RECORD")
        }


def test_wheel_installs_one_import_package(dists: dict[str, Path]) -> None:
    names = _wheel_files(dists["wheel"])
    top = {name.split("/", 1)[0] for name in names}
    dist_info = {t for t in top if t.endswith(".dist-info")}
    assert len(dist_info) == 1
    assert top - dist_info == {"sushigo"}
    top_level_txt = next(n for n in names if n.endswith(".dist-info/top_level.txt"))
    with zipfile.ZipFile(dists["wheel"]) as zf:
        assert zf.read(top_level_txt).decode().split() == ["sushigo"]


def test_wheel_holds_every_module_and_data_file_of_the_tree(dists: dict[str, Path]) -> None:
    """Walk the tracked tree independently: every .py, py.typed and data file of the four roots."""
    names = set(_wheel_files(dists["wheel"]))
    want = set()
    for rel in _tracked_files():
        folder, _, rest = rel.partition("/")
        if folder in ROOTS and rest and (rel.endswith((".py", ".json")) or rel.endswith("py.typed")):
            want.add(f"{ROOTS[folder]}/{rest}")
    assert want, "no package files found: the walk is broken"
    assert sorted(want - names) == []
    assert any(n.startswith("sushigo/spec/model/") for n in names)


def test_wheel_from_sdist_equals_wheel_from_tree(dists: dict[str, Path]) -> None:
    from_sdist, from_tree = _wheel_files(dists["wheel"]), _wheel_files(dists["tree_wheel"])
    assert sorted(set(from_tree) - set(from_sdist)) == [], "files the sdist leaves out"
    assert sorted(set(from_sdist) - set(from_tree)) == [], "files only the sdist build adds"
    assert [n for n in from_tree if from_tree[n] != from_sdist[n]] == []


def test_sdist_carries_the_tests_and_docs(dists: dict[str, Path]) -> None:
    with tarfile.open(dists["sdist"]) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    assert {"setup.py", "pyproject.toml", "README.md", "MANIFEST.in"} <= names
    assert {"spec/model/scoring.py", "tests/test_packaging.py", "docs/notation.md",
            "examples/conform_adapter.py", "benchmarks/run.py"} <= names


@pytest.mark.skipif(os.environ.get("SUSHIGO_TEST_INSTALLED") != "1",
                    reason="only where CI installed the wheel (SUSHIGO_TEST_INSTALLED=1)")
def test_suite_runs_against_the_installed_wheel() -> None:
    """The suite imports the installed package, not the checkout, and no generic names exist."""
    here = Path(sushigo.__file__).resolve()
    assert REPO not in here.parents, f"sushigo imported from the checkout: {here}"
    assert "site-packages" in here.parts
    for generic in ("spec", "solver", "checks"):
        assert importlib.util.find_spec(generic) is None, f"a top-level {generic!r} is importable"
