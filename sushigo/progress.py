"""Progress of a long command on a terminal: one line on standard error, rewritten in place.

The mechanism the other long commands use (``check``, ``play``, ``diff --matrix``): the line
is written only when standard error is a terminal and the command was not asked for
``--json``, so pipes, files and JSON documents never see it; it is redrawn at most every
``interval`` seconds (a solver loop may report thousands of steps a second) and cleared when
the work ends, however it ends (an answer, an error, Ctrl-C).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

#: Seconds between two redraws of the line.
INTERVAL = 0.2


class TerminalProgress:
    """Shows ``message, T s`` (T: seconds since the start) on ``stream``, throttled."""

    def __init__(self, stream: TextIO, interval: float = INTERVAL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.interval = interval
        self.clock = clock
        self.start = clock()
        self._last: float | None = None
        self.shown = False

    def __call__(self, message: str) -> None:
        now = self.clock()
        if self._last is not None and now - self._last < self.interval:
            return
        self._last = now
        self.stream.write(f"\r\033[K{message}, {now - self.start:.0f} s")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False


def _is_terminal(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False


@contextmanager
def terminal_progress(enabled: bool, stream: TextIO | None = None) -> Iterator[Callable[[str], None] | None]:
    """A progress callback for the work inside the block: None unless ``enabled`` (the CLI passes
    ``not args.json``) and ``stream`` (default: standard error) is a terminal. The line is
    cleared when the block ends, by an answer or an exception (Ctrl-C) alike."""
    target = sys.stderr if stream is None else stream
    if not (enabled and _is_terminal(target)):
        yield None
        return
    shown = TerminalProgress(target)
    try:
        yield shown
    finally:
        shown.clear()
