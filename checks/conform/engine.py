"""The target engine in its own process: a time limit per call, a memory limit, restarts.

The adapter is imported by ``_child.py`` in a child process (``sys.executable``, its own
session so a terminal's Ctrl-C reaches only us) and asked one case at a time over pipes
we own. Whatever the adapter does (prints, reads stdin, exits, crashes, hangs, allocates
without end) stays in that process: each call comes back as an :class:`Answer`, a dead
or hung child is killed and a fresh one is started for the next call.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from sushigo.spec.errors import InputError, SushiGoError

CHILD = Path(__file__).with_name("_child.py")
_WINDOW_BYTES = 16_384  # requests written at once: a quarter of a Linux pipe's buffer


class BadTarget(InputError):
    """The target cannot be loaded or does not expose ``score_round``."""


class OutOfTime(SushiGoError):
    """The run's time limit ran out while the target was loading (not the target's fault)."""


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM: the run stops, exit 128 + the signal number, no verdict."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.code = 128 + signum


# Signals received by :func:`sushigo.checks.conform.interruptible`'s handler. Its exception can be
# lost: raised while the garbage collector runs a ``__del__`` (a Z3 object's, say), Python prints
# "Exception ignored" and goes on. The run then stops at the next :func:`stop_point` instead.
pending: list[int] = []


def stop_point() -> None:
    """Raise :class:`Interrupted` if a stop signal arrived (its own exception may have been lost)."""
    if pending:
        raise Interrupted(pending[0])


@dataclass(frozen=True)
class Limits:
    """Budgets of one run; each is shown in the report."""

    call_timeout: float = 2.0  # seconds per call of the adapter
    memory_mb: int = 2048  # address space of the adapter's process (0: no limit)
    time_limit: float = 600.0  # seconds for the whole run
    load_timeout: float = 30.0  # seconds to import the adapter

    def as_dict(self) -> dict[str, Any]:
        return {"call_timeout_s": self.call_timeout, "memory_mb": self.memory_mb,
                "time_limit_s": self.time_limit, "load_timeout_s": self.load_timeout}


@dataclass(frozen=True)
class Answer:
    """One call's outcome: ``value``, or the adapter fault ``kind`` with its ``detail``."""

    value: tuple[int, ...] | None
    kind: str = ""  # "" | raised | wrong type | absurd | timed out | exited | crashed
    detail: str = ""
    printed: str = ""  # what the call wrote to standard output


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


class Engine:
    """One adapter, one child process at a time. ``time_left`` (seconds left in the run; None:
    no run deadline) caps every wait on the child: a wait the run's deadline cuts short is not
    charged to the target (no "timed out" fault); :meth:`call_many` then answers fewer cases."""

    def __init__(self, target: str, limits: Limits, bound: int | None = None,
                 time_left: Callable[[], float] | None = None) -> None:
        self.target, self.limits, self.bound = target, limits, bound
        self.time_left = time_left
        self.proc: subprocess.Popen[bytes] | None = None
        self.score_puddings = False
        self.restarts = 0
        self._buf = b""
        self._stderr: IO[bytes] | None = None

    def __enter__(self) -> Engine:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ process

    def start(self) -> None:
        """Start the child and wait until the adapter is loaded; BadTarget with its error if not."""
        self.close()
        if "\x00" in self.target:  # no command line can hold one; a library call can
            raise BadTarget(f"target {self.target!r} cannot be a module or a file: it holds a NUL "
                            "character; give a module name or a path to a .py file")
        self._stderr = tempfile.TemporaryFile()
        self._buf = b""
        self.proc = subprocess.Popen(
            [sys.executable, str(CHILD), self.target, str(self.limits.memory_mb), json.dumps(sys.path)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, start_new_session=True,
        )
        wait, cut = self._wait(self.limits.load_timeout)
        line = self._read(wait)
        if line is None:
            self.close()
            if cut:
                raise OutOfTime(f"the time limit ran out while target {self.target!r} was loading")
            raise BadTarget(f"target {self.target!r} did not finish loading within "
                            f"{self.limits.load_timeout:g} s")
        if not line:
            why = self._death()
            self.close()
            raise BadTarget(f"target {self.target!r} {why} while loading")
        msg = json.loads(line)
        if "load_error" in msg:
            self.close()
            raise BadTarget(msg["load_error"])
        self.score_puddings = bool(msg.get("score_puddings"))

    def _wait(self, limit: float) -> tuple[float, bool]:
        """How long to wait for the child: ``limit``, or less when the run ends sooner (then True)."""
        if self.time_left is None:
            return limit, False
        left = self.time_left()
        return (left, True) if left < limit else (limit, False)

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    proc.kill()
            proc.wait()
            for f in (proc.stdin, proc.stdout):
                if f is not None:
                    f.close()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def _read(self, timeout: float) -> bytes | None:
        """One reply line; b"" when the child closed the pipe (it died), None on timeout."""
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            stop_point()
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            if not select.select([fd], [], [], min(left, 0.1))[0]:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return b""
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line

    def _death(self) -> str:
        """How the child ended: "exited with code N" or "crashed (SIGSEGV): <last stderr line>"."""
        assert self.proc is not None
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "closed its output and stopped answering"
        if code >= 0:
            return f"exited with code {code}"
        tail = ""
        if self._stderr is not None:
            self._stderr.seek(0)
            lines = [ln for ln in self._stderr.read()[-4000:].decode("utf-8", "replace").splitlines() if ln]
            tail = next((ln for ln in lines if "Fatal Python error" in ln), lines[-1] if lines else "")
        return f"crashed ({_signal_name(code)})" + (f": {tail.strip()}" if tail else "")

    # ------------------------------------------------------------------ calls

    def call(self, fn: str, arg: Any, seats: int) -> Answer:
        return self.call_many(fn, [(arg, seats)])[0]

    def call_many(self, fn: str, items: list[tuple[Any, int]]) -> list[Answer]:
        """Answers in order; fewer (a prefix) when the run's deadline comes first. Requests are
        pipelined (a window at a time, well under a pipe's buffer) so a busy machine does not
        charge a context switch per case; the child answers one at a time, so each call's time
        limit runs from the previous answer."""
        out: list[Answer] = []
        while len(out) < len(items):
            if self.time_left is not None and self.time_left() <= 0:
                return out
            if self.proc is None or self.proc.poll() is not None:
                try:
                    self.restarts += 1
                    self.start()
                except OutOfTime:
                    self.restarts -= 1
                    return out
                except BadTarget as exc:
                    out.append(Answer(None, "crashed", f"could not be restarted: {exc}"))
                    continue
            assert self.proc is not None and self.proc.stdin is not None
            window: list[int] = []
            data = b""
            for _arg, seats in items[len(out):]:
                line = (json.dumps({"fn": fn, "arg": _arg, "seats": seats}) + "\n").encode()
                if window and len(data) + len(line) > _WINDOW_BYTES:
                    break
                data += line
                window.append(seats)
            try:
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError):
                out.append(self._dead())
                continue
            for seats in window:
                wait, cut = self._wait(self.limits.call_timeout)
                reply = self._read(wait)
                if reply is None:
                    self.close()
                    if cut:  # the run's deadline, not the target: no answer, no fault
                        return out
                    out.append(Answer(None, "timed out", f"timed out after {self.limits.call_timeout:g} s"))
                    break
                if not reply:
                    out.append(self._dead())
                    break
                out.append(self._answer(json.loads(reply), seats))
        return out

    def _dead(self) -> Answer:
        why = self._death()
        self.close()
        return Answer(None, "exited" if why.startswith("exited") else "crashed", why)

    def _answer(self, msg: dict[str, Any], seats: int) -> Answer:
        printed = str(msg.get("printed", ""))
        if "raised" in msg:
            detail = f"raised {msg['raised']}"
            if msg["raised"].startswith("MemoryError") and self.limits.memory_mb:
                detail += f" (memory limit {self.limits.memory_mb} MB)"
            return Answer(None, "raised", detail, printed)
        if "wrong" in msg:
            return Answer(None, "wrong type", str(msg["wrong"]), printed)
        if "absurd" in msg:
            return Answer(None, "absurd", f"returned {msg['absurd']}: an absurd number of points", printed)
        value = tuple(int(v) for v in msg["ok"])
        if self.bound is not None and any(abs(v) > self.bound for v in value):
            return Answer(None, "absurd", f"returned {list(value)}: beyond {self.bound} points, more than "
                          "any case can score", printed)
        return Answer(value, "", "", printed)
