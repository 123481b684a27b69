"""README.md is assembled from docs/readme/*.md; the two must not drift apart."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_readme_is_its_sections_joined() -> None:
    sections = sorted((REPO / "docs" / "readme").glob("*.md"))
    assert sections, "no README sections found"
    # An independent join of the sections (tools/assemble_readme.py writes the same).
    want = "\n".join(p.read_text(encoding="utf-8").rstrip("\n") + "\n" for p in sections)
    assert (REPO / "README.md").read_text(encoding="utf-8") == want, (
        "README.md is out of date with docs/readme/: run python tools/assemble_readme.py"
    )


def test_readme_starts_with_the_two_commands() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = text.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert len(block) == 2
    assert block[0].endswith("sushigo check")
    assert block[1].endswith("python -m pytest -n 2")
