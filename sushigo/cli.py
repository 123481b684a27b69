"""``sushigo``: parse the command line, call the library, print. Exit codes: 0 answered,
1 a check failed or the answer is "no", 2 bad input, 130 (143) stopped by SIGINT (SIGTERM).

A stop reaches the work in progress, Z3 calls on any thread included
(:func:`sushigo.spec.model.budget.stop_on_signals`); a command that can report what it had
found prints it, and the exit code still says the run was stopped, never that it answered."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import signal
import sys
from collections.abc import Sequence

import sushigo.commands
from sushigo.spec.errors import SushiGoError
from sushigo.spec.model import budget

EXIT_OK, EXIT_NO, EXIT_BAD_INPUT = 0, 1, 2
EXIT_SIGNAL_BASE = 128  # the shell's convention: 130 for SIGINT, 143 for SIGTERM


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"sushigo: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="sushigo",
        description="The rules of Sushi Go! stated formally, and questions answered about them.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    modules = []
    for info in pkgutil.iter_modules(sushigo.commands.__path__):
        modules.append(importlib.import_module(f"sushigo.commands.{info.name}"))
    modules.sort(key=lambda m: (getattr(m, "ORDER", 100), m.__name__))
    for module in modules:
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    with budget.stop_on_signals():
        code = _run(args)
    signum = budget.stopped_by()
    if signum is not None:
        # Whatever the command printed, it did not finish: never exit as if it had.
        sys.stdout.flush()
        return EXIT_SIGNAL_BASE + signum
    return code


def _run(args: argparse.Namespace) -> int:
    try:
        code: int = args.func(args)
        return code
    except SushiGoError as exc:
        print(f"sushigo {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        budget.request_stop(budget.stopped_by() or signal.SIGINT)
        print("interrupted", file=sys.stderr)
        return EXIT_SIGNAL_BASE + signal.SIGINT
