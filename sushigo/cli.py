"""``sushigo``: parse the command line, call the library, print.

Exit codes (``sushigo --help`` lists them, docs/exit-codes.md explains each):

* 0: answered (and the whole answer written);
* 1: a check failed or the answer is "no" (or "unknown"), or the output could not be written
  (a closed or full standard output, a full disk): never 0 when the answer was lost;
* 2: bad input (one line naming the problem and the fix); it stays 2 when even that line cannot
  be written (a full or closed standard error);
* 70: an internal error, a fault of sushigo and not of the input (sysexits' EX_SOFTWARE): one
  line naming the command, the error and the file holding the traceback (``sushigo --debug
  CMD ...`` prints it instead); never read as "no";
* 130 (143): stopped by SIGINT (SIGTERM).

A stop reaches the work in progress, Z3 calls on any thread included
(:func:`sushigo.spec.model.interrupts.stop_on_signals`); a command that can report what it had
found prints it, and the exit code still says the run was stopped, never that it answered.
A closed pipe (``sushigo ... | head``) ends quietly with exit 0, as Unix filters do: the reader
chose to stop reading."""

from __future__ import annotations

import argparse
import codecs
import errno
import importlib
import io
import os
import signal
import sys
from collections.abc import Sequence

import sushigo.commands
from sushigo.spec.errors import BudgetSpent, SushiGoError

TYPE_CHECKING = False  # as typing's, without importing it (start-up: sushigo/__init__.py)
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

EXIT_OK, EXIT_NO, EXIT_BAD_INPUT = 0, 1, 2
EXIT_UNKNOWN = EXIT_NO  # "unknown" is not an answer: exit 1, like a "no"
EXIT_LOST_OUTPUT = EXIT_NO  # the answer did not reach its reader: never 0
EXIT_INTERNAL = 70  # sysexits' EX_SOFTWARE: a fault of ours, neither an answer nor bad input
EXIT_SIGNAL_BASE = 128  # the shell's convention: 130 for SIGINT, 143 for SIGTERM

#: ``sushigo --help``'s closing lines.
EXIT_CODES = """\
exit codes: 0 answered; 1 a check failed, the answer is no or unknown, or the output could not
be written; 2 bad input; 70 internal error (a fault of sushigo: the line names the file holding
the traceback; --debug prints it); 130/143 stopped by SIGINT/SIGTERM (docs/exit-codes.md)"""


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
        # Every ``type=int`` option (a seed, --round, --players ...) is read by the one parser of
        # whole numbers, as notation counts are: int() took '1_0' and Arabic-Indic digits, and a
        # number of 5,000 digits came back as "invalid int value" (Python's integer-string limit).
        self.register("type", int, int_option)

    def _get_formatter(self) -> argparse.HelpFormatter:
        # The width argparse would find, found without importing shutil (and the compression
        # modules it brings): every add_argument builds a formatter, so each command paid for it.
        # Every formatter class here is a HelpFormatter (typeshed's protocol names ``prog`` alone).
        make: Any = self.formatter_class
        formatter: argparse.HelpFormatter = make(prog=self.prog, width=_columns() - 2)
        return formatter

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


#: The most digits a ``type=int`` option reads (a seed of 30 digits is past any a user types);
#: each count-like option also holds its value to its own documented bound.
MAX_INT_DIGITS = 30


def int_option(text: str) -> int:
    """argparse's ``type=int`` for every parser here: an optional sign and at most
    :data:`MAX_INT_DIGITS` ASCII digits, read by :func:`sushigo.spec.numbers.parse_whole`."""
    from sushigo.spec.errors import NotationError
    from sushigo.spec.numbers import parse_whole, quoted

    high = 10**MAX_INT_DIGITS - 1
    try:
        return parse_whole(text, "", -high, high)
    except NotationError as exc:
        if "out of range" in str(exc):
            raise argparse.ArgumentTypeError(
                f"{quoted(text)} is too long: give a whole number of at most {MAX_INT_DIGITS} digits"
            ) from exc
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number: give one in ASCII digits, "
                                         "e.g. 3") from exc


def _columns() -> int:
    """The terminal's width as :func:`shutil.get_terminal_size` gives it (which argparse asks):
    ``COLUMNS`` if it is a positive number, else standard output's terminal, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


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
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_VersionAction, help="print the installed version and exit")
    parser.add_argument("--debug", action="store_true",
                        help="on an internal error (exit 70), print the traceback (before COMMAND)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    if only is not None and only in command_names():
        command_modules([only])[0].register(subparsers)
        return parser
    if only is None:
        for module in command_modules():
            module.register(subparsers)
        return parser
    from sushigo.commands._index import COMMANDS  # the modules' HELP, without importing them

    for name, line in COMMANDS:
        subparsers.add_parser(name, help=line)
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
    # (threading, the stop machinery), and start-up is most of their time. The stop handling
    # itself, not spec.model.budget (its dataclasses, the answers' enum): a command that asks
    # Z3 nothing need not build them.
    from sushigo.spec.model import interrupts

    with interrupts.stop_on_signals():
        code = _run(args)
    signum = interrupts.stopped_by()
    if signum is not None:
        # Whatever the command printed, it did not finish: never exit as if it had.
        sys.stdout.flush()
        return EXIT_SIGNAL_BASE + signum
    return code


def _run(args: argparse.Namespace) -> int:
    try:
        code: int = args.func(args)
        return code
    except BudgetSpent as exc:  # the budget ran out where the command has no "unknown" answer of its own
        _say(f"sushigo {args.command}: unknown: {one_line(str(exc))}")
        return EXIT_UNKNOWN
    except SushiGoError as exc:
        _say(f"sushigo {args.command}: error: {one_line(str(exc))}")
        return EXIT_BAD_INPUT


def _say(line: str) -> None:
    """``line`` on standard error, if it can be written: a full or closed standard error loses
    the line, never the exit code it explains (exit 2 stays 2; see :class:`_Diagnostics`)."""
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _drop_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the exit code as the module docstring lists them. A closed pipe ends
    quietly; an output that cannot be written is one line naming its cause, exit 1; an internal
    error one line naming the traceback's file, exit 70."""
    saved = sys.stdout, sys.stderr
    # Descriptor 2 closed (2>&-): print(file=None) would write to standard output, and
    # sys.stderr.isatty() would raise; the diagnostics go nowhere instead.
    nowhere = open(os.devnull, "w", encoding="utf-8") if sys.stderr is None else None
    sys.stderr = _Diagnostics(sys.stderr if nowhere is None else nowhere)
    if sys.stdout is not None:
        sys.stdout = _Output(sys.stdout)
    try:
        code = _main(argv)
    finally:
        sys.stdout, sys.stderr = saved
        if nowhere is not None:
            nowhere.close()
    _forget_caught_interrupts()
    return code


def _escapes() -> dict[int, str]:
    """What a terminal would act on instead of showing: the C0 controls but tab and newline,
    DEL, the C1 controls, and the bidirectional overrides (text that reorders what follows it);
    each becomes its Python escape (``\\x1b``, ``\\u202e``)."""
    codes = [*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0),
             *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
    return {c: ascii(chr(c))[1:-1] for c in codes}


_ESCAPES = _escapes()
#: The controls the progress lines on standard error use on purpose: back to the line's start, and
#: clear to its end (``\r\033[K``); kept there, escaped on standard output.
_CLEAR_LINE = "\033[K"
_DIAGNOSTIC_ESCAPES = {c: e for c, e in _ESCAPES.items() if c != ord("\r")}


def printable(text: str) -> str:
    """``text`` with every control character and escape sequence shown as its escape: a player
    named ``\\x1b[2J`` prints as that, and clears no screen."""
    return text.translate(_ESCAPES)


class _Output:
    """Standard output for one run: text with its control characters escaped (:func:`printable`;
    names and rules files come from users). JSON has none (``json.dumps`` escapes them), so its
    bytes are unchanged. Everything else is the stream's own."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(printable(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Diagnostics:
    """Standard error for one run: a write that fails (a full device, a closed descriptor) is
    dropped, never raised, so a lost diagnostic cannot change the exit code it explains (a full
    standard error turned exit 2 into 1); after one, descriptor 2 points at /dev/null so that
    the interpreter's last flush cannot fail again (which would end the process with 120).
    Control characters are escaped (:func:`printable`) but for the carriage return and line
    clearing of the progress lines. Everything else is the stream's own (``isatty``, ``fileno``,
    ``encoding``)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            self._stream.write(_CLEAR_LINE.join(part.translate(_DIAGNOSTIC_ESCAPES)
                                                for part in text.split(_CLEAR_LINE)))
        except (OSError, ValueError):
            self._lost()
        return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except (OSError, ValueError):
            self._lost()

    def _lost(self) -> None:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


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
    _escape_what_cannot_be_encoded()
    if sys.stdout is None:  # descriptor 1 closed (>&-): nothing written could reach anyone
        _say(f"{_prog(argv)}: error: cannot write the output: standard output is closed; "
             "give it somewhere to write (>/dev/null to discard it)")
        return EXIT_LOST_OUTPUT
    code: int | None = None
    try:
        try:
            code = _dispatch(argv)
        finally:
            sys.stdout.flush()
        return code
    except BrokenPipeError:
        # The reader stopped reading (| head): what it wanted it has; quiet, as Unix filters end.
        _drop_stdout()
        return EXIT_OK if code is None else code
    except OSError as exc:
        return _os_error(argv, exc, code)
    except KeyboardInterrupt:
        _quiet_stop_traces()
        return _interrupted()
    except Exception as exc:
        if _stopped_by() is None:
            return _crashed(argv, exc)
        _quiet_stop_traces()
        # A stop that lands while Python converts the arguments of a call into Z3's C library
        # reaches here wrapped (ctypes.ArgumentError: "argument 1: KeyboardInterrupt"): after a
        # stop, whatever breaks is the stop's doing, and the run did not finish.
        return _interrupted()


def _escape_what_cannot_be_encoded() -> None:
    """Standard output and error write what their encoding cannot carry as backslash escapes
    (``PYTHONIOENCODING=ascii`` and a player named José: ``Jos\\xe9``), never a crash. Where
    Python chose ``surrogateescape`` (the C locale), undecodable bytes of the command line still
    go back out as they came in, and only the rest is escaped. JSON is ASCII (``json.dumps``
    escapes), so its bytes never change."""
    for stream in (getattr(sys.stdout, "_stream", None), getattr(sys.stderr, "_stream", None)):
        if isinstance(stream, io.TextIOWrapper) and stream.errors in ("strict", "surrogateescape"):
            handler = "backslashreplace" if stream.errors == "strict" else _ESCAPE_BUT_SURROGATES
            try:
                stream.reconfigure(errors=handler)
            except (OSError, ValueError):
                pass


def _escape_but_surrogates(exc: UnicodeError) -> tuple[str | bytes, int]:
    """The codec error handler of a ``surrogateescape`` stream: the bytes a run of surrogates
    stands for, but a control character those bytes spell in UTF-8 (a name holding U+202E
    typed in a UTF-8 terminal under the C locale) as its escape; any other character the
    encoding cannot carry as its backslash escape."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = bytearray()
    for c in exc.object[exc.start:exc.end]:
        if 0xDC80 <= ord(c) <= 0xDCFF:
            out.append(ord(c) - 0xDC00)
        else:
            out += ascii(c)[1:-1].encode("ascii")
    spelt = bytes(out).decode("utf-8", "surrogateescape")  # what a UTF-8 terminal would show
    shown = bytearray()
    for c in spelt:
        if ord(c) in _ESCAPES:
            shown += _ESCAPES[ord(c)].encode("ascii")
        else:
            shown += c.encode("utf-8", "surrogateescape")
    return bytes(shown), exc.end


_ESCAPE_BUT_SURROGATES = "sushigo-escape"
codecs.register_error(_ESCAPE_BUT_SURROGATES, _escape_but_surrogates)


#: Errors of a write that did not reach its file or device: the output is lost, not the program.
_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF, errno.EPIPE,
                           errno.ECONNRESET, errno.ESHUTDOWN, errno.EROFS})


def _os_error(argv: Sequence[str] | None, exc: OSError, code: int | None) -> int:
    """An OSError that reached main: a lost output (one line naming the cause; exit 1, or the
    command's own code if it was not 0), a working directory that no longer exists (exit 2), or
    anything else an internal error (exit 70)."""
    if not _cwd_exists():
        _say(f"{_prog(argv)}: error: the working directory no longer exists (it was deleted): "
             f"{exc.strerror or exc}; run the command from a directory that exists")
        return EXIT_BAD_INPUT
    if exc.errno not in _WRITE_ERRORS and _stream_ok(sys.stdout):
        return _crashed(argv, exc)
    _drop_stdout()
    cause = exc.strerror or str(exc)
    name = errno.errorcode.get(exc.errno or 0)
    fix = {errno.ENOSPC: "free space on the device or write the output elsewhere",
           errno.EDQUOT: "free space on the device or write the output elsewhere",
           errno.EBADF: "give standard output somewhere to write (>/dev/null to discard it)",
           errno.EROFS: "write the output elsewhere"}.get(exc.errno or 0, "write the output elsewhere")
    shown = cause if exc.errno == errno.ENOSPC else f"{cause} ({name})" if name else cause
    _say(f"{_prog(argv)}: error: cannot write the output: {shown}; {fix}")
    return EXIT_LOST_OUTPUT if code in (None, EXIT_OK) else code


def _cwd_exists() -> bool:
    try:
        os.stat(os.getcwd())
    except OSError:
        return False
    return True


def _stream_ok(stream: Any) -> bool:
    """Whether ``stream`` still takes writes (its buffer flushes)."""
    try:
        stream.flush()
    except (OSError, ValueError):
        return False
    return True


def _crashed(argv: Sequence[str] | None, exc: BaseException) -> int:
    """An exception no command meant: one line naming the command, the error and where its
    traceback is (``--debug``: printed here instead), exit 70. Never exit 1, which says "no"."""
    import traceback

    text = "".join(traceback.format_exception(exc))
    prog = _prog(argv)
    error = one_line(f"{type(exc).__name__}: {exc}")
    if _debug(argv):
        _say(text.rstrip("\n"))
        where = "traceback above"
    else:
        where = _save_traceback(prog, argv, text)
    _say(f"{prog}: internal error: {error} ({where}; a fault of sushigo, not of the input: "
         "please report it)")
    return EXIT_INTERNAL


def _debug(argv: Sequence[str] | None) -> bool:
    """``--debug`` before the command (or SUSHIGO_DEBUG=1 in the environment)."""
    words, command = _words(argv)
    before = words[:words.index(command)] if command in words else words
    return "--debug" in before or os.environ.get("SUSHIGO_DEBUG", "") not in ("", "0")


def _save_traceback(prog: str, argv: Sequence[str] | None, text: str) -> str:
    """The traceback written to a new file in the temporary directory: where it is, said so."""
    import tempfile

    words = list(sys.argv[1:] if argv is None else argv)
    try:
        fd, path = tempfile.mkstemp(prefix="sushigo-crash-", suffix=".txt")
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as fh:
            fh.write(f"{prog}, arguments {words!r}\n{text}")
    except (OSError, ValueError) as exc:
        return f"the traceback could not be saved ({exc}): run 'sushigo --debug ...' to print it"
    return f"traceback in {path}"


#: The stop handling's module, looked up only once a stop scope may have run.
_INTERRUPTS = "sushigo.spec.model.interrupts"


def _quiet_stop_traces() -> None:
    """The stop's traces in destructors (a half-built Z3 wrapper freed with this exception) print
    nothing while the stop is recorded."""
    interrupts = sys.modules.get(_INTERRUPTS)
    if interrupts is not None:
        interrupts.quiet_stop_traces("cli", lambda: interrupts.stopped_by() is not None)


def _stopped_by() -> int | None:
    """The signal that stopped the command, if a stop scope ever ran (none before parsing)."""
    interrupts = sys.modules.get(_INTERRUPTS)
    return None if interrupts is None else interrupts.stopped_by()


def _prog(argv: Sequence[str] | None) -> str:
    """``sushigo CMD`` for the command ``argv`` names (``sushigo`` when it names none), as every
    error line starts."""
    name = _words(argv)[1]
    return f"sushigo {name}" if name in command_names() else "sushigo"


def _interrupted() -> int:
    from sushigo.spec.model import interrupts

    signum = interrupts.stopped_by() or signal.SIGINT
    interrupts.request_stop(signum)
    _say("interrupted")
    return EXIT_SIGNAL_BASE + signum
