"""Shared plumbing for the sub-commands: rules options, JSON input, output."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from sushigo.spec.errors import InputError

if TYPE_CHECKING:
    from sushigo.spec.ruleset import Ruleset


def add_rules_args(parser: argparse.ArgumentParser, default: str | None = "official") -> None:
    parser.add_argument(
        "--rules",
        default=default,
        metavar="NAME",
        help="named ruleset (see 'sushigo rules'); default: official"
        + ("" if default else ", or the file's own \"rules\""),
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override one rule parameter (repeatable), e.g. maki_first_tie=each",
    )


def add_json_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON for machines")


def rules_from_args(args: argparse.Namespace, file_rules: object = None) -> Ruleset:
    """The ruleset: --rules if given, else the document's "rules", else official; then --rule."""
    from sushigo.api.base import rules_from_options

    return rules_from_options(args.rules, list(args.rule), file_rules)


def load_json(path: str) -> Any:
    """Read a JSON document from a file or ``-`` (standard input), with a clear error."""
    try:
        if path == "-":
            text = sys.stdin.read()
            where = "standard input"
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            where = path
    except OSError as exc:
        raise InputError(f"cannot read {path!r}: {exc.strerror}; give a readable file or '-'") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{where} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from exc


def print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, sort_keys=False))


def print_table(rows: list[list[Any]], headers: list[str], title: str | None = None) -> None:
    from tabulate import tabulate  # lazy: JSON output and 'import sushigo' do without it

    if title:
        print(title)
    print(tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True))


def require(cond: bool, message: str) -> None:
    if not cond:
        raise InputError(message)
