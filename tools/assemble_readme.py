"""Write README.md from its sections, docs/readme/*.md in name order, one blank line between.

    python tools/assemble_readme.py          # rewrite README.md
    python tools/assemble_readme.py --check  # exit 1 if README.md is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def assemble() -> str:
    pages = sorted((REPO / "docs" / "readme").glob("*.md"))
    parts = [p.read_text(encoding="utf-8").rstrip("\n") + "\n" for p in pages]
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    text = assemble()
    readme = REPO / "README.md"
    if "--check" in argv:
        if readme.read_text(encoding="utf-8") != text:
            print("README.md is out of date: run python tools/assemble_readme.py", file=sys.stderr)
            return 1
        return 0
    readme.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
