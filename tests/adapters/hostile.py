"""A correct scorer that misbehaves on purpose, chosen by the environment (for the tests).

``SUSHIGO_HOSTILE`` names the misbehaviour; it fires on rounds where a seat holds exactly three
tempura (a handful of cases), except ``print`` (every call) and ``import-exit``/``hang-all``.
``SUSHIGO_HOSTILE_PIDFILE`` (optional) receives this process's pid at import, and
``SUSHIGO_HOSTILE_CALLED`` (optional) is created at the first call.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _good import good

MODE = os.environ.get("SUSHIGO_HOSTILE", "")
if os.environ.get("SUSHIGO_HOSTILE_PIDFILE"):
    with open(os.environ["SUSHIGO_HOSTILE_PIDFILE"], "a") as fh:
        fh.write(f"{os.getpid()}\n")
if MODE == "import-exit":
    sys.exit(3)


def _trigger(tableaux: list[list[str]]) -> bool:
    return any(cards.count("tempura") == 3 for cards in tableaux)


def score_round(tableaux: list[list[str]]) -> object:
    called = os.environ.get("SUSHIGO_HOSTILE_CALLED")
    if called and not os.path.exists(called):
        open(called, "w").close()
    if MODE == "print":
        print("debug: scoring", tableaux)
    if MODE == "hang-all" or (MODE == "hang" and _trigger(tableaux)):
        while True:
            pass
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
    return good.score_round(tableaux)


score_puddings = good.score_puddings
