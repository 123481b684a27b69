"""The target engine in its own processes: a sandbox, a supervisor, a private channel, restarts.

The engine is treated as an adversary. ``conform`` starts ``_child.py`` (the supervisor, see
its docstring), which forks the engine: its own session, its own empty working directory
(a fresh temporary directory, removed at the end), ``RLIMIT_AS``, a bound on its processes,
and the supervisor between it and us, so signalling its parent cannot stop or kill
``conform``. Where bubblewrap works (``bwrap``, the system package) the supervisor runs as
pid 1 of a new pid namespace over a read-only view of the file system (only the working
directory is writable); elsewhere the same processes run without it (:func:`sandbox_of`).

Requests and replies travel over two pipes made for this engine; every reply must carry the
per-start random token and the request's number and be well formed, else it is a
``protocol`` adapter fault (forged, malformed, duplicated or out of order: never taken as an
answer, never a traceback here), and the engine is killed and started again.

Whatever the adapter does (prints, reads stdin, exits, crashes, hangs, allocates without end,
forks, signals its parent) comes back as a :class:`Reply`. A target whose process ends the
same way on :data:`GIVE_UP` calls in a row (it exits on every call), or whose time-outs cost
:data:`GIVE_UP_SECONDS` (it hangs on every round with dumplings), is not asked further:
:attr:`Engine.gave_up` says why, and the cases not asked leave no verdict but that fault.
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from sushigo.checks.conform._child import _WIRE_LIMIT, BASE_PROTOCOL, processes, sweep
from sushigo.spec.errors import BudgetSpent, InputError, SushiGoError
from sushigo.spec.model.budget import Budget

CHILD = Path(__file__).with_name("_child.py")
_WINDOW_BYTES = 16_384  # requests written at once: a quarter of a Linux pipe's buffer
_LINE_BYTES = 65_536  # a reply is a few hundred bytes; a longer line is a protocol fault
_SHOWN = 400  # characters of a text from the engine kept in a report
#: Calls in a row whose process ended the same way (kind) before the target is no longer asked.
GIVE_UP = 5
#: Seconds of calls lost to time-outs before the target is no longer asked (5 of the default 2 s).
GIVE_UP_SECONDS = 10.0
#: Kinds of answer that end the engine's process (each costs a restart).
ENDS_PROCESS = ("timed out", "exited", "crashed", "protocol", "processes")
SANDBOXES = ("auto", "bwrap", "process")
#: The adapter protocols by name (:attr:`Limits.protocol`): the functions the child looks for.
PROTOCOLS: dict[str, dict[str, Any]] = {
    "base": BASE_PROTOCOL,
    "party": {"required": ["score_party_round", "score_party_round(case) -> list[int]"],
              "optional": ["score_party_desserts", "score_party_desserts(case) -> list[int]"],
              "docs": "docs/party.md"},
}


class BadTarget(InputError):
    """The target cannot be loaded, or does not meet the adapter protocol."""


#: The run's time limit ran out while the target was loading (not the target's fault): the one
#: "ran out" exception under the name it had here (kept, library code catches it).
OutOfTime = BudgetSpent


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
    """The limits of one run's adapter processes, each shown in the report; ``time_limit`` is
    the run's own budget (:meth:`budget`: the one :class:`Budget` type)."""

    call_timeout: float = 2.0  # seconds per call of the adapter
    memory_mb: int = 2048  # address space of each of the adapter's processes (0: no limit)
    time_limit: float = 600.0  # seconds for the whole run
    load_timeout: float = 30.0  # seconds to import the adapter
    max_procs: int = 64  # processes the adapter may have at once (0: no limit)
    sandbox: str = "auto"  # auto (bwrap where it works) | bwrap | process
    protocol: str = "base"  # the adapter's functions (PROTOCOLS): base | party

    def budget(self) -> Budget:
        """The whole run's budget: ``time_limit`` seconds of wall clock."""
        return Budget.for_run(self.time_limit)

    def as_dict(self) -> dict[str, Any]:
        return {"call_timeout_s": self.call_timeout, "memory_mb": self.memory_mb,
                "time_limit_s": self.time_limit, "load_timeout_s": self.load_timeout,
                "max_processes": self.max_procs}


@dataclass(frozen=True)
class Reply:
    """One call's reply (a value or a fault, not an answer to a question): ``value``, or the
    adapter fault ``kind`` with its ``detail``."""

    value: tuple[int, ...] | None
    kind: str = ""  # "" | raised | wrong type | absurd | timed out | exited | crashed | protocol | processes
    detail: str = ""
    printed: str = ""  # what the call wrote to standard output


class _Forged(SushiGoError):
    """A reply that is not the harness's own (its text says what was wrong). Never leaves the
    engine module: every catch turns it into an adapter fault or BadTarget."""


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(code).name
    except ValueError:
        return f"signal {code}"


def _bwrap_args(work: str) -> list[str]:
    """A new pid namespace with our supervisor as its pid 1, a new session, the file system
    read-only but for the working directory, a private /dev, /proc and IPC; dies with us."""
    return ["--die-with-parent", "--new-session", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
            "--as-pid-1", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
            "--bind", work, work, "--chdir", work]


@functools.cache
def _bwrap() -> str | None:
    """The bwrap executable if it can make its namespaces here (an unprivileged container may not)."""
    exe = shutil.which("bwrap")
    if exe is None:
        return None
    work = tempfile.mkdtemp(prefix="sushigo-conform-probe-")
    try:
        done = subprocess.run([exe, *_bwrap_args(work), "--", sys.executable, "-c", "pass"],
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return exe if done.returncode == 0 else None


def sandbox_of(choice: str) -> str:
    """The sandbox a run uses: "bwrap" where it works (``auto``; ``SUSHIGO_CONFORM_SANDBOX``
    overrides auto, for tests and for a machine where bwrap misbehaves), else "process"."""
    if choice == "auto":
        choice = os.environ.get("SUSHIGO_CONFORM_SANDBOX", "auto") or "auto"
    if choice not in SANDBOXES:
        raise InputError(f"sandbox must be one of {', '.join(SANDBOXES)}, got {choice!r}")
    if choice == "process":
        return "process"
    if _bwrap() is not None:
        return "bwrap"
    if choice == "bwrap":
        raise InputError("the bwrap sandbox was asked for, but bubblewrap is not installed or cannot "
                         "make a pid namespace here; install it (apt-get install bubblewrap) or use auto")
    return "process"


def _where(target: str) -> str:
    """A file target as an absolute path (the engine runs in a directory of its own)."""
    if target.endswith(".py") or os.sep in target or os.path.isfile(target):
        return os.path.abspath(target)
    return target


def _short(data: bytes | str) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return repr(text[:80] + ("..." if len(text) > 80 else ""))


class Engine:
    """One adapter, one sandboxed process tree at a time. ``time_left`` (seconds left in the
    run; None: no run deadline) caps every wait on the child: a wait the run's deadline cuts
    short is not charged to the target (no "timed out" fault); :meth:`call_many` then answers
    fewer cases, as it does once the target is given up (:attr:`gave_up`)."""

    def __init__(self, target: str, limits: Limits, bound: int | None = None,
                 time_left: Callable[[], float] | None = None) -> None:
        self.target, self.limits, self.bound = target, limits, bound
        self.time_left = time_left
        self.sandbox = sandbox_of(limits.sandbox)
        self.proc: subprocess.Popen[bytes] | None = None
        self.score_puddings = False
        self.restarts = 0
        self.gave_up = ""  # why the target is no longer asked ("": it is)
        self._row: tuple[str, int] = ("", 0)  # the kind that ended the last calls, how many in a row
        self._lost = 0.0  # seconds of calls lost to time-outs
        self._timeouts = 0
        self._buf = b""
        self._stderr: IO[bytes] | None = None
        self._work: str | None = None
        self._req = self._rep = -1
        self._token = ""
        self._sent = 0  # requests numbered so far in this process
        self._status = b""

    def __enter__(self) -> Engine:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ process

    def start(self) -> None:
        """Start the sandbox and wait until the adapter is loaded; BadTarget with its error if not."""
        self.close()
        if "\x00" in self.target:  # no command line can hold one; a library call can
            raise BadTarget(f"target {self.target!r} cannot be a module or a file: it holds a NUL "
                            "character; give a module name or a path to a .py file")
        self._stderr = tempfile.TemporaryFile()
        self._work = tempfile.mkdtemp(prefix="sushigo-conform-")
        self._buf, self._status, self._sent = b"", b"", 0
        req_r, self._req = os.pipe()
        self._rep, rep_w = os.pipe()
        where = _where(self.target)
        path = [os.path.abspath(p) if p else os.getcwd() for p in sys.path]
        if where != self.target or os.path.isabs(where):  # a file: its folder first, as `python FILE`
            path.insert(0, os.path.dirname(where))  # puts it (an adapter imports its engine beside it)
        setup = {"target": where, "name": self.target, "memory_mb": self.limits.memory_mb,
                 "max_procs": self.limits.max_procs, "fds": [req_r, rep_w], "path": path,
                 "protocol": PROTOCOLS[self.limits.protocol]}
        cmd = [sys.executable, str(CHILD), json.dumps(setup)]
        if self.sandbox == "bwrap":
            exe = _bwrap()
            assert exe is not None  # sandbox_of saw it work
            cmd = [exe, *_bwrap_args(self._work), "--", *cmd]
        try:
            self.proc = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, cwd=self._work,
                env={**os.environ, "TMPDIR": self._work}, pass_fds=(req_r, rep_w), start_new_session=True)
        finally:
            os.close(req_r)
            os.close(rep_w)
        self._token = secrets.token_hex(16)
        try:
            self._send(self._token.encode() + b"\n")
        except OSError:
            pass  # it ended already: the read below sees it
        wait, cut = self._wait(self.limits.load_timeout)
        try:
            line = self._read(wait)
            msg = None if not line else self._message(line, 0)
        except _Forged as exc:
            self.close()
            raise BadTarget(f"target {self.target!r} {exc} while loading") from None
        if line is None:
            self.close()
            if cut:
                raise OutOfTime(f"the time limit ran out while target {self.target!r} was loading")
            raise BadTarget(f"target {self.target!r} did not finish loading within "
                            f"{self.limits.load_timeout:g} s")
        if msg is None:
            _kind, why = self._death()
            self.close()
            raise BadTarget(f"target {self.target!r} {why} while loading")
        if isinstance(msg.get("load_error"), str):
            self.close()
            raise BadTarget(msg["load_error"][:2 * _SHOWN])
        if msg.get("ready") is not True or not isinstance(msg.get("score_puddings"), bool):
            self.close()
            raise BadTarget(f"target {self.target!r} sent a malformed first message on the protocol "
                            "channel while loading")
        self.score_puddings = msg["score_puddings"]

    def _wait(self, limit: float) -> tuple[float, bool]:
        """How long to wait for the child: ``limit``, or less when the run ends sooner (then True)."""
        if self.time_left is None:
            return limit, False
        left = self.time_left()
        return (left, True) if left < limit else (limit, False)

    def close(self) -> None:
        """Kill every process of the engine (a grandchild in a session of its own included:
        the supervisor is a subreaper, so each one is still below it), then the supervisor."""
        proc, self.proc = self.proc, None
        if proc is not None:
            if proc.poll() is None and not os.path.isdir("/proc"):
                # No /proc to sweep from here: the supervisor kills the engine when its control
                # pipe closes (its own sweep finds no more there either).
                if proc.stdin is not None:
                    proc.stdin.close()
                try:
                    proc.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    pass
            if proc.poll() is None:
                try:
                    os.kill(proc.pid, signal.SIGSTOP)  # it reaps nothing meanwhile: orphans stay below it
                except OSError:
                    pass
                sweep(proc.pid)
                proc.kill()
            proc.wait()
            for f in (proc.stdin, proc.stdout):
                if f is not None and not f.closed:
                    f.close()
        for fd in (self._req, self._rep):
            if fd >= 0:
                os.close(fd)
        self._req = self._rep = -1
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
        if self._work is not None:
            shutil.rmtree(self._work, ignore_errors=True)
            self._work = None

    def _send(self, data: bytes) -> None:
        while data:
            data = data[os.write(self._req, data):]

    def _unfreeze(self) -> None:
        """The engine may SIGSTOP its supervisor (its parent, outside bwrap): let it go on."""
        assert self.proc is not None
        try:
            with open(f"/proc/{self.proc.pid}/stat", "rb") as fh:
                stopped = fh.read().rpartition(b")")[2].split()[0] in (b"T", b"t")
        except (OSError, IndexError):
            return
        if stopped:
            os.kill(self.proc.pid, signal.SIGCONT)

    def _read(self, timeout: float) -> bytes | None:
        """One reply line; b"" when the engine ended (its pipe closed, or the supervisor says so),
        None on timeout."""
        assert self.proc is not None and self.proc.stdout is not None
        status = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            stop_point()
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready = select.select([self._rep, status], [], [], min(left, 0.1))[0]
            if not ready:
                self._unfreeze()
                continue
            if status in ready and not self._status_read(status):
                return b""  # the supervisor ended the engine (or was killed)
            if self._rep in ready:
                chunk = os.read(self._rep, 1 << 16)
                if not chunk:
                    return b""
                self._buf += chunk
                if b"\n" not in self._buf and len(self._buf) > _LINE_BYTES:
                    raise _Forged(f"sent a line longer than {_LINE_BYTES} bytes on the protocol channel")
        line, _, self._buf = self._buf.partition(b"\n")
        return line

    def _status_read(self, fd: int) -> bool:
        """Read what the supervisor says; False once it is done (its pipe closed)."""
        chunk = os.read(fd, 1 << 12)
        self._status += chunk
        return bool(chunk)

    def _death(self) -> tuple[str, str]:
        """(kind, how the engine ended): "exited with code N", "crashed (SIGSEGV): <last stderr
        line>", more processes than the limit, or its supervisor killed."""
        assert self.proc is not None and self.proc.stdout is not None
        self._unfreeze()
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "crashed", "closed its output and stopped answering"
        while self._status_read(self.proc.stdout.fileno()):
            pass
        words = self._status.decode("ascii", "replace").split()
        if words[:1] == ["procs"]:
            return "processes", (f"had {words[1]} processes at once, more than the limit of "
                                 f"{self.limits.max_procs}; every one was killed")
        if words[:2] == ["ended", "exit"]:
            return "exited", f"exited with code {words[2]}"
        if words[:2] == ["ended", "signal"]:
            return "crashed", f"crashed ({_signal_name(int(words[2]))})" + self._tail()
        # No word from the supervisor: the engine stopped or killed its own parent.
        return "crashed", (f"killed its supervisor process ({_signal_name(-code)})" if code < 0 else
                           f"ended its supervisor process (exit {code})")

    def _tail(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0)
        lines = [ln for ln in self._stderr.read()[-4000:].decode("utf-8", "replace").splitlines() if ln]
        tail = next((ln for ln in lines if "Fatal Python error" in ln), lines[-1] if lines else "")
        return f": {tail.strip()}" if tail else ""

    # ------------------------------------------------------------------ calls

    def call(self, fn: str, arg: Any, seats: int) -> Reply:
        return self.call_many(fn, [(arg, seats)])[0]

    def call_many(self, fn: str, items: list[tuple[Any, int]]) -> list[Reply]:
        """Answers in order; fewer (a prefix) when the run's deadline comes first or the target
        is given up. Requests are pipelined (a window at a time, well under a pipe's buffer) so a
        busy machine does not charge a context switch per case; the child answers one at a time,
        so each call's time limit runs from the previous answer."""
        out: list[Reply] = []
        while len(out) < len(items) and not self.gave_up:
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
                    self._note(out, Reply(None, "crashed", f"could not be restarted: {exc}"))
                    continue
            window: list[int] = []
            data = b""
            for _arg, seats in items[len(out):]:
                self._sent += 1
                line = (json.dumps({"n": self._sent, "fn": fn, "arg": _arg, "seats": seats}) + "\n").encode()
                if window and len(data) + len(line) > _WINDOW_BYTES:
                    self._sent -= 1
                    break
                data += line
                window.append(seats)
            first = self._sent - len(window) + 1
            try:
                self._send(data)
            except OSError:
                self._note(out, self._dead())
                continue
            for k, seats in enumerate(window):
                wait, cut = self._wait(self.limits.call_timeout)
                try:
                    reply = self._read(wait)
                    got = None if not reply else self._answer(self._message(reply, first + k), seats)
                except _Forged as exc:
                    self.close()
                    self._note(out, Reply(None, "protocol", f"{exc}; not taken as an answer"))
                    break
                if reply is None:
                    self.close()
                    if cut:  # the run's deadline, not the target: no answer, no fault
                        return out
                    why = f"timed out after {self.limits.call_timeout:g} s"
                    self._note(out, Reply(None, "timed out", why))
                    break
                if got is None:
                    self._note(out, self._dead())
                    break
                out.append(got)
                self._row = ("", 0)
        return out

    def _note(self, out: list[Reply], ans: Reply) -> None:
        """Keep an answer that ended the process. A target whose process ended the same way on
        GIVE_UP calls in a row (it exits on every call), or whose time-outs cost GIVE_UP_SECONDS
        (it hangs on every round with dumplings), is given up; one that fails now and then is not."""
        out.append(ans)
        kind, row = self._row
        self._row = (ans.kind, row + 1 if kind == ans.kind else 1)
        if ans.kind == "timed out":
            self._timeouts += 1
            self._lost += self.limits.call_timeout
        if self._row[1] >= GIVE_UP:
            why = f"on {GIVE_UP} calls in a row"
        elif self._lost >= GIVE_UP_SECONDS and ans.kind == "timed out":
            why = f"on {self._timeouts} calls, {self._lost:g} s lost"
        else:
            return
        self.gave_up = (f"its process ended the same way ({ans.kind}: {ans.detail}) {why}, so it was "
                        "asked nothing more")
        self.close()

    def _dead(self) -> Reply:
        kind, why = self._death()
        self.close()
        return Reply(None, kind, why)

    def _message(self, line: bytes, n: int) -> dict[str, Any]:
        """A reply, checked: JSON, this start's token, the request number due."""
        try:
            msg = json.loads(line)
        except (ValueError, RecursionError):
            raise _Forged(f"sent a line that is not JSON on the protocol channel: {_short(line)}") from None
        if not isinstance(msg, dict) or msg.get("t") != self._token:
            raise _Forged("sent a line without this run's token on the protocol channel (forged, or "
                          f"written into an inherited descriptor): {_short(line)}")
        got = msg.get("n")
        if type(got) is not int or got != n:
            raise _Forged(f"answered request {got!r} where request {n} was due (a duplicate, out of "
                          "order, or a second process answering)")
        return msg

    def _answer(self, msg: dict[str, Any], seats: int) -> Reply:
        printed = msg.get("printed", "")
        outcome = [k for k in ("ok", "raised", "wrong", "absurd") if k in msg]
        if not isinstance(printed, str) or len(outcome) != 1:
            raise _Forged("sent a reply with no single outcome on the protocol channel")
        printed, key = printed[:_SHOWN], outcome[0]
        body = msg[key]
        if key in ("raised", "wrong"):
            if not isinstance(body, str):
                raise _Forged(f"sent a malformed {key!r} reply on the protocol channel")
            if key == "wrong":
                return Reply(None, "wrong type", body[:_SHOWN], printed)
            detail = f"raised {body[:_SHOWN]}"
            if body.startswith("MemoryError") and self.limits.memory_mb:
                detail += f" (memory limit {self.limits.memory_mb} MB)"
            return Reply(None, "raised", detail, printed)
        signs = ("+", "-") if key == "absurd" else ()
        if not isinstance(body, list) or len(body) != seats or not all(
                (type(v) is int and (key == "ok" or abs(v) <= _WIRE_LIMIT)) or v in signs for v in body):
            raise _Forged(f"sent a malformed {key!r} reply on the protocol channel: {_short(repr(body))}")
        if key == "absurd":
            return Reply(None, "absurd", f"returned {body}: an absurd number of points", printed)
        value = tuple(body)
        if self.bound is not None and any(abs(v) > self.bound for v in value):
            return Reply(None, "absurd", f"returned {list(value)}: beyond {self.bound} points, more than "
                          "any case can score", printed)
        return Reply(value, "", "", printed)


__all__ = [
    "ENDS_PROCESS",
    "GIVE_UP",
    "GIVE_UP_SECONDS",
    "BadTarget",
    "Engine",
    "Interrupted",
    "Limits",
    "OutOfTime",
    "Reply",
    "pending",
    "processes",
    "sandbox_of",
    "stop_point",
]
