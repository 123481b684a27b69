"""The docs site (mkdocs.yml) builds strictly, from the installed package, with every page.

CI also runs `mkdocs build --strict` as a step of its own (.ci/run), so a broken site fails
there even where this file skips; this test lets a developer see the same failure with pytest,
and checks what a plain build cannot: that every page under docs/ is in the navigation, that a
broken link really fails the strict build, and that the API reference holds the installed
package's docstrings. Skipped where the `docs` extra is not installed.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    not all(importlib.util.find_spec(m) for m in ("mkdocs", "material", "mkdocstrings_handlers.python")),
    reason="the docs extra (python -m pip install -e '.[docs]') is not installed",
)


def _build(config: Path, site: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    # From a folder outside the checkout, as CI runs it: the checkout must not be importable.
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=600,
    )


def _nav_pages(nav: Any) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [page for item in nav for page in _nav_pages(item)]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in _nav_pages(value)]
    return []


def _config() -> dict[str, Any]:
    import yaml

    # mkdocs.yml may carry !ENV and python tags; the safe loader is enough for ours.
    loaded: dict[str, Any] = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    return loaded


def test_every_page_is_in_the_navigation() -> None:
    pages = sorted(str(p.relative_to(REPO / "docs")) for p in (REPO / "docs").rglob("*.md"))
    nav = _nav_pages(_config()["nav"])
    assert sorted(set(pages) - set(nav)) == [], "pages under docs/ missing from mkdocs.yml's nav"
    assert sorted(set(nav) - set(pages)) == [], "nav entries with no page"


def test_the_site_builds_strictly_with_the_installed_api(tmp_path: Path) -> None:
    proc = _build(REPO / "mkdocs.yml", tmp_path / "site", tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    site = tmp_path / "site"
    for page in _nav_pages(_config()["nav"]):
        built = site / (page.removesuffix(".md") + "/index.html" if page != "index.md" else "index.html")
        assert built.is_file(), page
    reference = (site / "reference" / "index.html").read_text(encoding="utf-8")
    import sushigo.spec.game

    # Docstrings read from the installed sushigo.spec (absent from the checkout's sushigo/):
    # the first words of Game's, and a command function shown as a function with its own.
    game_doc = (sushigo.spec.game.Game.__doc__ or "").split()[:4]
    assert game_doc and " ".join(game_doc) in " ".join(reference.split())
    assert 'id="sushigo.score"' in reference
    assert ":class:" not in reference


def test_a_broken_link_fails_the_strict_build(tmp_path: Path) -> None:
    """The same validation settings on a two-page site with one link to a missing page."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nSee [the other page](other.md#no-such-heading).\n")
    (docs / "other.md").write_text("# Other\n\nSee [a page that is not there](missing.md).\n")
    config = _config()
    lines = [
        "site_name: broken",
        "validation:",
        *(f"  {key}: {value}" for key, value in config["validation"].items()),
        "nav: [index.md, other.md]",
    ]
    (tmp_path / "mkdocs.yml").write_text("\n".join(lines) + "\n")
    proc = _build(tmp_path / "mkdocs.yml", tmp_path / "site", tmp_path)
    assert proc.returncode != 0
    assert "missing.md" in proc.stdout + proc.stderr
    assert "no-such-heading" in proc.stdout + proc.stderr
    shutil.rmtree(tmp_path / "site", ignore_errors=True)
