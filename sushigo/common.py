"""Shared plumbing for the sub-commands: rules options, JSON input, output."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

from sushigo.limits import MAX_BUDGET_COUNT, MAX_BUDGET_SECONDS, MAX_JOBS, in_range
from sushigo.spec.errors import InputError, NotationError


def add_rules_args(parser: argparse.ArgumentParser, default: str | None = "official") -> None:
    parser.add_argument(
        "--rules",
        default=default,
        metavar="NAME",
        help="named ruleset (see 'sushigo rules'), or a rules file FILE.toml (sushigo rules --export); "
        "default: official"
        + ("" if default else ", or the file's own \"rules\""),
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override one rule parameter or number (repeatable), e.g. maki_first_tie=each, "
        "tempura_points=6, dumpling_points=1,3,6,10,15,21, deck.squid=10 (list: sushigo rules)",
    )


def add_game_args(parser: argparse.ArgumentParser, party: str, menu: str = "") -> None:
    """``--game base|party`` and ``--menu MENU`` (Sushi Go Party!; docs/party.md): ``party`` says
    what the command does with Party, ``menu`` what it does with the menu."""
    parser.add_argument("--game", choices=("base", "party"), default="base",
                        help=f"base: Sushi Go! (default); party: Sushi Go Party!: {party} (docs/party.md)")
    parser.add_argument("--menu", default=None, metavar="MENU",
                        help="with --game party: a suggested menu's name, or its kinds separated by commas "
                        "(1 roll, 3 appetizers, 2 specials, 1 dessert)" + (f"; {menu}" if menu else ""))


def add_json_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON for machines")


def add_jobs_args(parser: argparse.ArgumentParser,
                  jobs_help: str = "local worker processes (default 1)") -> None:
    """``--jobs N`` and ``--cluster ADDRESS``: where the batch work runs (:mod:`sushigo.jobs`)."""
    parser.add_argument("--jobs", type=jobs_count, default=None, metavar="N",
                        help=f"{jobs_help}; at most {MAX_JOBS}")
    parser.add_argument("--cluster", default=None, metavar="ADDRESS",
                        help="run the work on the Dask scheduler at ADDRESS (tcp://HOST:8786), or "
                        "'local' to start a local Dask cluster (--jobs workers); needs "
                        "pip install 'sushigo-spec[dask]' (docs/scale.md)")


def load_json(path: str, schema: str | None = None) -> Any:
    """A JSON document from a file or ``-`` (standard input), checked against ``schema`` if named.

    Every problem (size, encoding, nesting, syntax, schema) is an InputError of one line;
    see :mod:`sushigo.schemas.loader`.
    """
    from sushigo.schemas.loader import read_json

    return read_json(path, schema)


def _budget(text: str, convert: Callable[[str], float], maximum: int, what: str) -> float:
    try:
        value = convert(text)
    except ValueError:
        value = math.nan
    if not in_range(value, 0, maximum):
        raise argparse.ArgumentTypeError(f"{text!r} is not a budget: give {what} above 0, at most {maximum}")
    return value


def budget_seconds(text: str) -> float:
    """argparse type of a time budget: finite seconds above 0 (no nan, inf or negatives)."""
    return _budget(text, float, MAX_BUDGET_SECONDS, "a number of seconds")


def budget_whole_seconds(text: str) -> int:
    """argparse type of a time budget in whole seconds."""
    return int(_budget(text, int, MAX_BUDGET_SECONDS, "a whole number of seconds"))


def budget_count(text: str) -> int:
    """argparse type of a count budget (Z3 resource limit, search nodes, examples)."""
    return int(_budget(text, int, MAX_BUDGET_COUNT, "a whole number"))


def add_budget_args(parser: argparse.ArgumentParser) -> None:
    """``--timeout SECONDS`` and ``--rlimit N``: the most any one Z3 call may spend (default: the
    solver's own budget); past it the answer is unknown."""
    parser.add_argument("--timeout", type=budget_seconds, default=None, metavar="SECONDS",
                        help="wall-clock seconds each Z3 call may spend; past it the answer is unknown")
    parser.add_argument("--rlimit", type=budget_count, default=None, metavar="N",
                        help="Z3 resource units each call may spend (machine-independent)")


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """argparse type of a whole number from ``low`` to ``high``, read by
    :func:`sushigo.spec.numbers.parse_whole` (ASCII digits, measured before converted)."""

    def whole(text: str) -> int:
        from sushigo.spec.numbers import parse_whole

        try:
            return parse_whole(text, "", low, high)
        except NotationError as exc:
            raise argparse.ArgumentTypeError(str(exc).strip()) from exc

    whole.__name__ = f"whole number from {low} to {high}"
    return whole


#: argparse type of ``--jobs``: 1 to :data:`sushigo.limits.MAX_JOBS` worker processes.
jobs_count = whole_number(1, MAX_JOBS)


def print_json(value: Any) -> None:
    import json  # lazy: a command printing tables starts without it

    print(json.dumps(value, indent=2, sort_keys=False))


def print_table(rows: list[list[Any]], headers: list[str], title: str | None = None) -> None:
    from sushigo.cli import printable  # imported already when a command prints

    if title:
        print(title)
    # Control characters (a player named '\x1b[31mRED') are escaped before the columns are laid
    # out, not after as standard output escapes them: tabulate measured an escape sequence as no
    # width and the table came out askew.
    rows = [[printable(v) if isinstance(v, str) else v for v in row] for row in rows]
    headers = [printable(h) if isinstance(h, str) else h for h in headers]
    text = simple_table(rows, headers)
    if text is None:  # a cell plain text cannot lay out alike: tabulate does
        from tabulate import tabulate  # lazy: JSON output and 'import sushigo' do without it

        text = tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)
    print(text)


def _plain(value: Any) -> str | None:
    """``value``'s cell text, if tabulate would print it as it stands (None: let tabulate lay it out)."""
    if value is None:
        return ""
    if not isinstance(value, str | int):  # a float, a date, bytes ...: tabulate formats them
        return None
    text = str(value)
    if not (text.isascii() and text.isprintable()) or text != text.strip():
        return None  # wide or control characters, ANSI colours, edge whitespace: tabulate's rules
    return text


def simple_table(rows: list[list[Any]], headers: list[str]) -> str | None:
    """The table tabulate's "simple" format prints for ``rows`` (numbers not parsed), laid out
    here when every cell is plain one-line ASCII text, a whole number or None: printing a table
    then costs no import of tabulate, which reads its own version with importlib.metadata, most
    of 'sushigo score''s start-up (benchmarks/bench_startup.py). None for any other table.
    ``tests/test_startup.py`` holds the two layouts equal."""
    cells: list[list[str]] = []
    for row in [headers, *rows]:
        texts = [_plain(v) for v in row]
        if len(texts) != len(headers) or any(t is None for t in texts):
            return None
        cells.append([t for t in texts if t is not None])
    if not headers:
        return None
    head, body = cells[0], cells[1:]
    # a column is as wide as its widest cell, and its header and two spaces more
    widths = [max([len(h) + 2, *(len(row[i]) for row in body)]) for i, h in enumerate(head)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
             for row in [head, ["-" * w for w in widths], *body]]
    return "\n".join(lines)


def require(cond: bool, message: str) -> None:
    if not cond:
        raise InputError(message)
