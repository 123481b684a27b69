"""Write sushigo/schemas/ruleset.json from the rule-number table (spec.rulefile.json_schema).

``python tools/ruleset_schema.py`` writes the file; ``--check`` only says whether the shipped
file is the generated one (exit 1 if not). tests/test_rule_numbers.py fails when they differ.
"""

from __future__ import annotations

import sys

from sushigo.spec import rulefile


def main(argv: list[str]) -> int:
    if "--check" in argv:
        with open(rulefile.schema_path(), encoding="utf-8") as fh:
            same = fh.read() == rulefile.json_schema_text()
        verdict = "the generated schema" if same else "differs from the generated schema; run " \
            "python tools/ruleset_schema.py"
        print(f"{rulefile.schema_path()}: {verdict}")
        return 0 if same else 1
    changed = rulefile.write_json_schema()
    print(f"{rulefile.schema_path()}: {'written' if changed else 'already the generated schema'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
