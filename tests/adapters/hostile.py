"""A correct scorer that misbehaves on purpose, chosen by the environment (for the tests).

``SUSHIGO_HOSTILE`` names the misbehaviour. The first group fires on rounds where a seat holds
exactly three tempura (a handful of cases), except ``print`` (every call) and ``import-exit`` /
``hang-all``. The second group is the adversary of issue 32: it fails on every call, tampers with
its own process, or attacks its parent, its files and the machine.

The process names itself ``sushigo-called`` at its first call (seen in ``/proc/PID/comm`` from
outside any sandbox), so a test knows when the target was called without it writing a file.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _good import good

MODE = os.environ.get("SUSHIGO_HOSTILE", "")
_calls = 0


def _forge() -> None:
    # Blindly write a plausible reply into every descriptor this process holds.
    for name in os.listdir("/proc/self/fd"):
        try:
            os.write(int(name), b'{"ok": [0, 0]}\n{"n": 1, "ok": [0, 0]}\n')
        except OSError:
            pass


if MODE == "import-exit":
    sys.exit(3)
if MODE == "print-import":
    print("loading the engine...")
if MODE == "dumps":
    import json

    json.dumps = lambda *a, **k: '{"ok": "forged"}'
if MODE == "forge-import":
    _forge()
if MODE == "fork":
    os.fork()  # two processes answer from here on


def _trigger(tableaux: list[list[str]]) -> bool:
    return any(cards.count("tempura") == 3 for cards in tableaux)


def _first_call() -> None:
    try:
        import ctypes

        ctypes.CDLL(None).prctl(15, b"sushigo-called", 0, 0, 0)  # PR_SET_NAME
    except Exception:
        pass
    if MODE in ("sigstop-parent", "sigusr1-parent", "sigkill-parent"):
        sig = {"sigstop-parent": signal.SIGSTOP, "sigusr1-parent": signal.SIGUSR1,
               "sigkill-parent": signal.SIGKILL}[MODE]
        os.kill(os.getppid(), sig)
        time.sleep(0.2)
    if MODE == "setsid-grandchild" and os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(3600)
        os._exit(0)
    if MODE == "forkbomb":
        while True:
            try:
                if os.fork() == 0:
                    time.sleep(3600)
                    os._exit(0)
            except OSError:
                time.sleep(0.01)
    if MODE == "builtins":  # the harness's own code in this process sees them: int(3) is now "x"
        import builtins

        real_int, real_isinstance = builtins.int, builtins.isinstance
        builtins.int = lambda *a: "x"  # type: ignore[assignment]
        builtins.isinstance = lambda o, t: real_isinstance(o, real_int if t is builtins.int else t)
    if MODE == "delete-cwd":
        for name in os.listdir("."):
            try:
                os.remove(name)
            except OSError:
                pass


def score_round(tableaux: list[list[str]]) -> object:
    global _calls
    _calls += 1
    if _calls == 1:
        _first_call()
    if MODE == "print":
        print("debug: scoring", tableaux)
    if MODE == "exit-all":
        sys.exit(0)
    if MODE == "forge":
        _forge()
    if MODE == "hang-all" or (MODE == "hang" and _trigger(tableaux)) or (
            MODE == "loop-dumplings" and any("dumpling" in cards for cards in tableaux)):
        while True:
            pass
    right = good.score_round(tableaux)
    if (MODE == "random5" and random.random() < 0.05) or (MODE == "drift" and _calls > 200):
        return [right[0] + 1, *right[1:]]
    if _trigger(tableaux):
        if MODE == "exit0":
            sys.exit(0)
        if MODE == "os-exit0":
            os._exit(0)
        if MODE == "wrong-type":
            return {"scores": "many"}
        if MODE == "huge":
            return [10**6] * len(tableaux)
        if MODE == "segfault":
            import ctypes

            ctypes.string_at(0)
        if MODE == "memory":
            return [len(bytearray(8 << 30))] * len(tableaux)
    return right


score_puddings: object = good.score_puddings
if MODE == "puddings-3":
    score_puddings = 3
