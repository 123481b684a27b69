"""``sushigo``: parse the command line, call the library, print. Exit codes: 0 answered,
1 a check failed or the answer is "no", 2 bad input, 130 (143) stopped by SIGINT (SIGTERM).

A stop reaches the work in progress, Z3 calls on any thread included
(:func:`sushigo.spec.model.budget.stop_on_signals`); a command that can report what it had
found prints it, and the exit code still says the run was stopped, never that it answered."""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import sushigo.commands
from sushigo.spec.errors import SushiGoError, Unsettled

EXIT_OK, EXIT_NO, EXIT_BAD_INPUT = 0, 1, 2
EXIT_UNKNOWN = EXIT_NO  # "unknown" is not an answer: exit 1, like a "no"
EXIT_SIGNAL_BASE = 128  # the shell's convention: 130 for SIGINT, 143 for SIGTERM


#: A word of an error line longer than this (a pasted document, a 400-digit number, a path)
#: is shown by its two ends and its length: the line stays one readable line.
MAX_WORD = 200


def one_line(text: str) -> str:
    """``text`` as one line (whitespace runs become one space), each overlong word shortened."""
    return " ".join(w if len(w) <= MAX_WORD else f"{w[:60]}...[{len(w)} characters]...{w[-20:]}"
                    for w in text.split())


class _Parser(argparse.ArgumentParser):
    """Every parser of the CLI: no abbreviated long options (``check --rule`` must never be read
    as ``--ruleset``), and a parse error is one line naming the command and its ``--help``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)

    def _print_message(self, message: str, file: Any = None) -> None:
        # argparse drops a failed write (help to a full device would exit 0, its text lost):
        # let it reach main(), which reports it like any other failed write.
        # (``file`` is None only when standard output is closed: like print(), write nothing.)
        if message and file is not None:
            file.write(message)

    def error(self, message: str) -> None:  # type: ignore[override]
        # One line, like every other bad input (the usage is one --help away).
        print(f"{self.prog}: error: {one_line(message)} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # A misspelt command or choice ('sushigo scroe') names the nearest one, as card and
        # ruleset names do.
        if action.choices is not None and value not in action.choices:
            choices = ", ".join(map(repr, action.choices))
            hint = nearest(str(value), action.choices)
            raise argparse.ArgumentError(action, f"invalid choice: {value!r} (choose from {choices}){hint}")

    def unknown_options(self, extra: Sequence[str]) -> None:
        """Report the words this parser did not recognise, naming the nearest option of each
        misspelt one ('--player' -> --players)."""
        options = [o for o in self._option_string_actions if o.startswith("--")]
        hints = [nearest(w.partition("=")[0], options, quote=False)
                 for w in extra if w.startswith("--")]
        self.error(f"unrecognized arguments: {' '.join(extra)}{next((h for h in hints if h), '')}")


def nearest(word: str, choices: Any, quote: bool = True) -> str:
    """'; did you mean X?' naming the choice nearest ``word`` ('' when none is near)."""
    import difflib  # only an error line needs it

    near = difflib.get_close_matches(word, [str(c) for c in choices], n=1, cutoff=0.6)
    if not near:
        return ""
    return f"; did you mean {near[0]!r}?" if quote else f"; did you mean {near[0]}?"


class _VersionAction(argparse.Action):
    """``sushigo --version``: the installed distribution's version, looked up only when asked."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            text = version(DISTRIBUTION)
        except PackageNotFoundError:
            text = "unknown (not installed)"
        print(f"sushigo {text}")
        raise SystemExit(EXIT_OK)


#: The distribution (pyproject's name) whose version --version prints.
DISTRIBUTION = "sushigo-spec"


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
    parser.add_argument("--version", action=_VersionAction, help="print the installed version and exit")
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


def _command_parser(parser: argparse.ArgumentParser, command: str | None) -> argparse.ArgumentParser:
    """The sub-parser of ``command`` (the top-level parser when there is none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            sub: argparse.ArgumentParser = action.choices[command]
            return sub
    return parser


def _words(argv: Sequence[str] | None) -> tuple[list[str], str]:
    """The command line's words, and the command they name: the first word that is not an
    option ('' when there is none)."""
    words = list(sys.argv[1:] if argv is None else argv)
    return words, next((w for w in words if not w.startswith("-")), "")


def _dispatch(argv: Sequence[str] | None) -> int:
    words, command = _words(argv)
    parser = build_parser(only=command)
    try:
        args, extra = parser.parse_known_args(words)
        if extra:  # reported by the command's own parser, so the line names the command
            sub = _command_parser(parser, getattr(args, "command", None))
            assert isinstance(sub, _Parser)
            sub.unknown_options(extra)
    except SystemExit as exc:  # --help, or a usage error already reported in one line
        return exc.code if isinstance(exc.code, int) else EXIT_OK if exc.code is None else EXIT_BAD_INPUT
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    # Imported here, not at the top: the top-level help and parse errors need none of it
    # (dataclasses, threading, the stop machinery), and start-up is most of their time.
    from sushigo.spec.model import budget

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
    except Unsettled as exc:  # the budget ran out where the command has no "unknown" answer of its own
        print(f"sushigo {args.command}: unknown: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_UNKNOWN
    except SushiGoError as exc:
        print(f"sushigo {args.command}: error: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _drop_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. A closed pipe ends quietly; a failed write (a full device) is one line, exit 1."""
    code = _main(argv)
    _forget_caught_interrupts()
    return code


def _forget_caught_interrupts() -> None:
    """Let the exit code stand after a stop that was caught.

    CPython (3.11, 3.12) remembers a KeyboardInterrupt raised inside code compiled from a string
    (``exec``: dataclasses and attrs build their methods so, on import) even when it was caught,
    and at exit ``python -m sushigo`` then kills itself with SIGINT instead of exiting with the
    code it was given: a SIGTERM landing during start-up ended as -2, not 143. Evaluating any
    string starts that memory afresh.
    """
    exec("None")


def _main(argv: Sequence[str] | None) -> int:
    try:
        try:
            code = _dispatch(argv)
        finally:
            if sys.stdout is not None:
                sys.stdout.flush()
        return code
    except BrokenPipeError:
        _drop_stdout()
        return EXIT_OK
    except OSError as exc:
        _drop_stdout()
        print(f"{_prog(argv)}: error: cannot write the output: {exc.strerror or exc}; "
              "free space on the device or write the output elsewhere", file=sys.stderr)
        return EXIT_NO
    except KeyboardInterrupt:
        _quiet_stop_traces()
        return _interrupted()
    except Exception:
        if _stopped_by() is None:
            raise
        _quiet_stop_traces()
        # A stop that lands while Python converts the arguments of a call into Z3's C library
        # reaches here wrapped (ctypes.ArgumentError: "argument 1: KeyboardInterrupt"): after a
        # stop, whatever breaks is the stop's doing, and the run did not finish.
        return _interrupted()


def _quiet_stop_traces() -> None:
    """The stop's traces in destructors (a half-built Z3 wrapper freed with this exception) print
    nothing while the stop is recorded."""
    budget = sys.modules.get("sushigo.spec.model.budget")
    if budget is not None:
        budget.quiet_stop_traces("cli", lambda: budget.stopped_by() is not None)


def _stopped_by() -> int | None:
    """The signal that stopped the command, if a stop scope ever ran (none before parsing)."""
    budget = sys.modules.get("sushigo.spec.model.budget")
    return None if budget is None else budget.stopped_by()


def _prog(argv: Sequence[str] | None) -> str:
    """``sushigo CMD`` for the command ``argv`` names (``sushigo`` when it names none), as every
    error line starts."""
    name = _words(argv)[1]
    return f"sushigo {name}" if name in command_names() else "sushigo"


def _interrupted() -> int:
    from sushigo.spec.model import budget

    signum = budget.stopped_by() or signal.SIGINT
    budget.request_stop(signum)
    print("interrupted", file=sys.stderr)
    return EXIT_SIGNAL_BASE + signum
