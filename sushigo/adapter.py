"""A user's policy as an adapter: a Python file with ``choose(observation) -> turn``, run in its
own process under a time limit per call and a memory limit (docs/evaluate.md).

The observation is plain JSON (what :class:`spec.policies.PlayerView` holds, in card names, with
the legal turns); the reply is one of those turns. :class:`AdapterPolicy` makes the adapter a
:class:`spec.policies.Policy`, so the ladder and the regret measure use it as any other. A reply
that is not a legal turn, an exception, a wrong type, an exit, a crash or a hang is a broken
protocol: one :class:`AdapterError` (an :class:`InputError`: one line, exit 2) naming the adapter,
what it did and where (the game's seed or the position, round, turn and seat).
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
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from sushigo.spec.cards import Card, Token
from sushigo.spec.errors import InputError, NotationError
from sushigo.spec.policies import PlayerView
from sushigo.spec.turns import Turn, format_turn, parse_turn

CHILD = Path(__file__).with_name("_adapter_child.py")
PROTOCOL = "sushigo-policy-observation/1"


class AdapterError(InputError):
    """The adapter cannot be loaded, or broke the protocol (one line, exit 2)."""


@dataclass(frozen=True)
class Limits:
    """The adapter's budgets (shown in the report)."""

    call_timeout: float = 2.0  # seconds per call of choose
    memory_mb: int = 2048  # address space of its process (0: no limit)
    load_timeout: float = 30.0  # seconds to import it

    def as_dict(self) -> dict[str, Any]:
        return {"call_timeout_s": self.call_timeout, "memory_mb": self.memory_mb,
                "load_timeout_s": self.load_timeout}


def _names(counts: Sequence[int], kinds: Any) -> list[str]:
    return [kinds(i).label for i, n in enumerate(counts) for _ in range(n)]


def observation(view: PlayerView, options: Sequence[Turn], where: str = "") -> dict[str, Any]:
    """The JSON an adapter's ``choose`` receives (docs/evaluate.md)."""
    return {
        "format": PROTOCOL,
        "where": where,
        "rules": view.rules.name,
        "players": view.players,
        "seat": view.seat,
        "round": view.round_index + 1,
        "turn": view.turn + 1,
        "hand": _names(view.hand, Card),
        "tableaux": [_names(t, Token) for t in view.tableaux],
        "puddings": list(view.puddings),
        "scores": [list(s) for s in view.scores],
        "options": [format_turn(t) for t in options],
    }


class AdapterProcess:
    """One adapter, one child process (started at once, loaded or an AdapterError)."""

    def __init__(self, target: str, limits: Limits = Limits()) -> None:
        self.target, self.limits = target, limits
        self._buf = b""
        if "\x00" in target:
            raise AdapterError(f"adapter {target!r} holds a NUL character; give a .py file or a module name")
        self._stderr: IO[bytes] = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [sys.executable, str(CHILD), target, str(limits.memory_mb), json.dumps(sys.path)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, start_new_session=True)
        line = self._read(limits.load_timeout)
        if line is None:
            self.close()
            raise AdapterError(f"adapter {target!r} did not finish loading within {limits.load_timeout:g} s")
        if not line:
            why = self._death()
            self.close()
            raise AdapterError(f"adapter {target!r} {why} while loading")
        msg = json.loads(line)
        if "load_error" in msg:
            self.close()
            raise AdapterError(msg["load_error"])

    def __enter__(self) -> AdapterProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        proc = self.proc
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                proc.kill()
        proc.wait()
        for f in (proc.stdin, proc.stdout):
            if f is not None:
                f.close()
        self._stderr.close()

    def _read(self, timeout: float) -> bytes | None:
        """One reply line; b"" when the child closed the pipe, None on timeout."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
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
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "closed its output and stopped answering"
        if code >= 0:
            return f"exited with code {code}"
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"crashed ({name})"

    def ask(self, obs: dict[str, Any]) -> Any:
        """What ``choose(obs)`` returned (JSON text or a list of texts); AdapterError otherwise."""
        where = obs.get("where") or "a position"
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write((json.dumps({"observation": obs}) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise AdapterError(f"adapter {self.target!r} {self._death()} at {where}") from None
        line = self._read(self.limits.call_timeout)
        if line is None:
            raise AdapterError(f"adapter {self.target!r} timed out after {self.limits.call_timeout:g} s at "
                               f"{where} (--call-timeout)")
        if not line:
            raise AdapterError(f"adapter {self.target!r} {self._death()} at {where}")
        msg = json.loads(line)
        if "raised" in msg:
            extra = (f" (memory limit {self.limits.memory_mb} MB)"
                     if msg["raised"].startswith("MemoryError") and self.limits.memory_mb else "")
            raise AdapterError(f"adapter {self.target!r} raised {msg['raised']}{extra} at {where}")
        if "wrong" in msg:
            raise AdapterError(f"adapter {self.target!r} {msg['wrong']} at {where}")
        return msg["ok"]


def turn_of(reply: Any, options: Sequence[Turn], target: str, where: str) -> Turn:
    """The legal turn ``reply`` names, or one AdapterError naming the reply and the position."""
    try:
        turn = parse_turn(reply)
    except (NotationError, InputError, ValueError) as exc:
        raise AdapterError(f"adapter {target!r} returned {reply!r} at {where}: not a turn ({exc})") from None
    for option in options:
        if option == turn:
            return option
    legal = " | ".join(str(t) for t in options)
    raise AdapterError(f"adapter {target!r} returned the illegal turn {str(turn)!r} at {where}; "
                       f"legal: {legal}")


class AdapterPolicy:
    """The adapter as a :class:`spec.policies.Policy`; ``where`` names the game in errors."""

    def __init__(self, process: AdapterProcess, name: str | None = None, where: str = "") -> None:
        self.process = process
        self.name = name or process.target
        self.where = where

    def choose(self, view: PlayerView, options: Sequence[Turn], rng: Any) -> Turn:
        where = (f"{self.where}, " if self.where else "") + (
            f"round {view.round_index + 1}, turn {view.turn + 1}, seat {view.seat}")
        reply = self.process.ask(observation(view, options, where))
        return turn_of(reply, options, self.process.target, where)
