"""docs/extending.md against the code: its example runs, its file lists name real files."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "extending.md").read_text(encoding="utf-8")


def test_the_card_kind_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", PAGE, flags=re.S)
    assert blocks, "docs/extending.md lost its Python example"
    for block in blocks:
        exec(compile(block, "docs/extending.md", "exec"), {})  # its asserts hold the hand-worked values


def test_every_listed_file_exists() -> None:
    listed = re.findall(r"^- `([^`]+)`:", PAGE, flags=re.M)
    assert len(listed) >= 15
    missing = [p for p in listed if "<" not in p and not (ROOT / p).exists()]
    assert not missing, f"docs/extending.md names files that do not exist: {missing}"
    # Templates (``solver/<question>.py``) name a folder that exists.
    for p in listed:
        if "<" in p:
            assert (ROOT / p.split("<")[0]).parent.is_dir(), p


def test_every_builder_and_description_named_exists() -> None:
    import sushigo.spec.kinds as kinds
    import sushigo.spec.model.scoring as model

    for name in ("PerCard", "Sets", "ByCount", "Icons", "Ranked", "Unscored", "CardKind", "tokens_of"):
        assert f"`{name}" in PAGE or f" {name}(" in PAGE or name in PAGE
        assert hasattr(kinds, name), name
    for name in ("scoring_term", "tableau_vars", "round_terms"):
        assert name in PAGE and hasattr(model, name), name
