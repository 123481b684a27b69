"""``sushigo schema``: the JSON Schemas of every document the toolkit reads or writes."""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from sushigo.common import add_json_arg, print_json, print_table

ORDER = 15
HELP = "list the JSON Schemas of the documents read and written, or print one"

_EPILOG = """\
examples:
  sushigo schema                      # every schema: name, what it describes, format tag
  sushigo schema record               # the game record's schema (JSON Schema, draft 2020-12)
  sushigo schema --json               # the list as JSON
documents are checked against their schema when read; the first problem is named by its JSON
path, e.g. $.rounds[0][1]. Details: docs/schemas.md
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "schema",
        help=HELP,
        description="List the JSON Schemas (draft 2020-12) of every input document and every "
        "--json output, or print the schema NAME.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("name", nargs="?", metavar="NAME", help="print this schema")
    add_json_arg(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sushigo.api.schema import schema_outcome

    out = schema_outcome(args.name)
    if args.name is not None:
        # The schema is JSON already: --json changes nothing.
        print(json.dumps(out.data, indent=2, ensure_ascii=False))
        return 0
    if args.json:
        print_json(out.data)
        return 0
    found = out.detail
    rows = [[s.name, s.direction, "\n".join(s.formats) or "-", textwrap.fill(s.description, 64)]
            for s in found]
    print_table(rows, ["schema", "kind", "format tag", "describes"])
    print("\nformat tags of input documents are optional (files written before them still load); "
          "'sushigo schema NAME' prints one schema")
    return 0
