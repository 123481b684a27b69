"""``sushigo``: parse the command line, call the library, print. Exit codes: 0 answered,
1 a check failed or the answer is "no", 2 bad input."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType

import sushigo.commands
from sushigo.spec.errors import SushiGoError

EXIT_OK, EXIT_NO, EXIT_BAD_INPUT = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"sushigo: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


def command_names() -> list[str]:
    """The module names of sushigo/commands (one per command, named as the command)."""
    folder = os.path.dirname(sushigo.commands.__file__)
    return sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".py") and not f.startswith("_"))


def command_modules(names: list[str] | None = None) -> list[ModuleType]:
    """The command modules (all, or these), in help order."""
    modules = [importlib.import_module(f"sushigo.commands.{name}") for name in names or command_names()]
    modules.sort(key=lambda m: (getattr(m, "ORDER", 100), m.__name__))
    return modules


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser. With ``only`` naming a command, that command alone (start-up: 'sushigo
    score' imports and builds one command, not fourteen); with any other ``only`` ('' for no
    command, or a misspelt one), every command as its name and help line, for the top-level
    help and the error that lists the commands."""
    parser = _Parser(
        prog="sushigo",
        description="The rules of Sushi Go! stated formally, and questions answered about them.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    if only is not None and only in command_names():
        command_modules([only])[0].register(subparsers)
        return parser
    for module in command_modules():
        if only is None:
            module.register(subparsers)
        else:
            subparsers.add_parser(module.__name__.rpartition(".")[2], help=module.HELP)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(only=next((w for w in words if not w.startswith("-")), ""))
    args = parser.parse_args(words)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        code: int = args.func(args)
        return code
    except SushiGoError as exc:
        print(f"sushigo {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
