"""The adapter's own process for ``sushigo conform`` (run as a script; imports nothing of ours).

    python _child.py TARGET MEMORY_MB PATH_JSON

Protocol, one JSON object a line: requests arrive on the original standard input,
replies leave on the original standard output; both are moved to private file
descriptors before the adapter is imported, so whatever the adapter prints or
reads goes to a capture file or /dev/null and never into the protocol (or into
``conform --json``). The first reply says whether the adapter loaded.

    -> {"fn": "score_round", "arg": [[...], ...], "seats": 2}
    <- {"ok": [3, 0]} | {"raised": "KeyError: 'squid'"} | {"wrong": "returned 0, not a list of 2 ints"}
       | {"absurd": "..."}, each with "printed": "..." when the call wrote to standard output

An exit (``sys.exit``, ``os._exit``), a crash or a hang is seen by the parent as
the pipe closing or staying silent; the parent kills and restarts this process.
"""

from __future__ import annotations

import faulthandler
import importlib
import importlib.util
import json
import os
import sys
import tempfile
from typing import Any

#: Ints beyond this are not sent back (JSON of a huge int is slow or refused); the parent
#: judges plausibility against the ruleset with a far smaller bound.
_WIRE_LIMIT = 10**15
_SHOWN = 200


def _die_with_parent() -> None:
    """Linux: the kernel kills this process when the parent dies (SIGTERM, crash, kill -9)."""
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass  # elsewhere the parent's cleanup and the closed pipe end the child


def _limit_memory(mb: int) -> None:
    if mb <= 0:
        return
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))
    except (ImportError, ValueError, OSError):
        pass


def _short(value: object) -> str:
    try:
        text = repr(value)
    except BaseException as exc:  # a hostile __repr__
        text = f"<unprintable {type(value).__name__}: {type(exc).__name__}>"
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def _load(target: str) -> Any:
    if target.endswith(".py") or os.sep in target or os.path.isfile(target):
        if not os.path.isfile(target):
            what = "is not a regular file" if os.path.exists(target) else "does not exist"
            raise LookupError(f"target file {target!r} {what}; give a .py file or a module name")
        name = "_sushigo_conform_target_" + os.path.splitext(os.path.basename(target))[0]
        spec = importlib.util.spec_from_file_location(name, target)
        if spec is None or spec.loader is None:
            raise LookupError(f"cannot load {target!r} as a Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as exc:
        if exc.name and target.startswith(exc.name):
            raise LookupError(f"cannot import target {target!r}: {exc}; give a .py file or an importable "
                              "module") from exc
        raise


def _answer(fn: Any, arg: Any, seats: int) -> dict[str, Any]:
    try:
        got = fn(arg)
    except Exception as exc:
        try:
            text = str(exc)[:_SHOWN]
        except Exception:
            text = "<unprintable>"
        return {"raised": f"{type(exc).__name__}: {text}" if text else type(exc).__name__}
    if not isinstance(got, list | tuple) or len(got) != seats or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in got
    ):
        return {"wrong": f"returned {_short(got)}, not a list of {seats} ints"}
    if any(abs(v) > _WIRE_LIMIT for v in got):
        return {"absurd": [v if abs(v) <= _WIRE_LIMIT else ("+" if v > 0 else "-") for v in got]}
    return {"ok": [int(v) for v in got]}


def main() -> None:
    target, memory_mb, path = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
    _die_with_parent()
    faulthandler.enable()  # a segfault leaves its traceback on stderr for the report
    sys.path[:] = path
    # The protocol gets private descriptors; fd 0 becomes /dev/null and fd 1 a capture file.
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    capture = tempfile.TemporaryFile()
    os.dup2(capture.fileno(), 1)
    _limit_memory(memory_mb)

    def send(obj: dict[str, Any]) -> None:
        replies.write(json.dumps(obj) + "\n")
        replies.flush()

    def printed() -> str:
        try:
            sys.stdout.flush()
        except Exception:
            pass
        size = os.lseek(1, 0, os.SEEK_END)
        if not size:
            return ""
        text = os.pread(1, min(size, _SHOWN * 2), 0).decode("utf-8", "replace")
        os.ftruncate(1, 0)
        os.lseek(1, 0, os.SEEK_SET)
        return text

    try:
        module = _load(target)
    except LookupError as exc:
        send({"load_error": str(exc)})
        return
    except SystemExit as exc:
        send({"load_error": f"target {target!r} called sys.exit({exc.code!r}) while loading"})
        return
    except BaseException as exc:
        send({"load_error": f"target {target!r} failed while loading: {type(exc).__name__}: {exc}"})
        return
    fns = {name: getattr(module, name, None) for name in ("score_round", "score_puddings")}
    if not callable(fns["score_round"]):
        send({"load_error": f"target {target!r} has no function score_round(tableaux) -> list[int] "
                            "(see docs/checks.md, the adapter protocol)"})
        return
    printed()
    send({"ready": True, "score_puddings": callable(fns["score_puddings"])})
    for line in requests:
        req = json.loads(line)
        reply = _answer(fns[req["fn"]], req["arg"], req["seats"])
        out = printed()
        if out:
            reply["printed"] = out
        send(reply)


if __name__ == "__main__":
    main()
