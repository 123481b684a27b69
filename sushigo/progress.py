"""Progress of a long command on a terminal: one line on standard error, rewritten in place.

The mechanism the other long commands use (``check``, ``play``, ``diff --matrix``): the line
is written only when standard error is a terminal and the command was not asked for
``--json``, so pipes, files and JSON documents never see it; it is redrawn at most every
``interval`` seconds and cleared when the work ends, however it ends (an answer, an error,
Ctrl-C).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

#: Seconds between two redraws of the line.
INTERVAL = 0.2


class TerminalProgress:
    """Shows ``message, T s`` (T: whole seconds since the start) on ``stream``.

    A solver loop may report thousands of steps a second, or none for minutes while one question
    runs: a call draws at once only when the line is older than ``interval``, else it records
    the message for the next draw. :meth:`draw` writes the line when its text changed;
    :meth:`run` draws from a thread every ``interval`` seconds until :meth:`clear`, so the last
    step shows even when the next is minutes away, and the seconds keep counting."""

    def __init__(self, stream: TextIO, interval: float = INTERVAL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.interval = interval
        self.clock = clock
        self.start = clock()
        self._message: str | None = None
        self._drawn: str | None = None
        self._last: float | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __call__(self, message: str) -> None:
        self._message = message
        if self._last is None or self.clock() - self._last >= self.interval:
            self.draw()  # at once when the line is not fresh; else the next draw shows it

    def draw(self) -> None:
        message = self._message
        if message is None:
            return
        now = self.clock()
        text = f"{message}, {now - self.start:.0f} s"
        with self._lock:
            self._last = now
            if text != self._drawn and not self._stop.is_set():
                self.stream.write(f"\r\033[K{text}")
                self.stream.flush()
                self._drawn = text

    def run(self) -> None:
        """Draw from a daemon thread every ``interval`` seconds until :meth:`clear`."""
        def loop() -> None:
            while not self._stop.wait(self.interval):
                self.draw()

        self._thread = threading.Thread(target=loop, name="sushigo-progress", daemon=True)
        self._thread.start()

    def clear(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            if self._drawn is not None:
                self.stream.write("\r\033[K")
                self.stream.flush()
                self._drawn = None


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
    shown.run()
    try:
        yield shown
    finally:
        shown.clear()
