"""The process of a policy adapter for ``sushigo evaluate`` (run as a script; imports nothing of ours).

    python _adapter_child.py TARGET MEMORY_MB PATH_JSON

One JSON object a line: observations arrive on the original standard input, replies leave on
the original standard output; both move to private descriptors before the adapter is imported,
so what the adapter prints or reads goes to a capture file or /dev/null, never into the protocol.
The first reply says whether the adapter loaded (docs/evaluate.md).

    -> {"observation": {...}}
    <- {"ok": <what choose returned, as JSON>} | {"raised": "KeyError: 'squid'"} | {"wrong": "..."}

An exit, a crash or a hang is seen by the parent as the pipe closing or staying silent. The
same isolation as ``sushigo conform``'s (checks/conform/_child.py), for another function.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
import tempfile
from typing import Any

_SHOWN = 200
FUNCTION = "choose"


def _die_with_parent() -> None:
    """Linux: the kernel kills this process when the parent dies (PR_SET_PDEATHSIG)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    except Exception:
        pass  # elsewhere the closed pipe ends the child


def _limit_memory(mb: int) -> None:
    if mb > 0:
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
            raise LookupError(f"adapter file {target!r} {what}; give a .py file or a module name")
        name = "_sushigo_policy_adapter_" + os.path.splitext(os.path.basename(target))[0]
        spec = importlib.util.spec_from_file_location(name, target)
        if spec is None or spec.loader is None:
            raise LookupError(f"cannot load {target!r} as a Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    return importlib.import_module(target)


def _json_value(value: Any) -> Any:
    """What ``choose`` returned, if it is JSON text or a list of texts (else None)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return [str(v) for v in value]
    return None


def main() -> None:
    target, memory_mb, path = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
    _die_with_parent()
    sys.path[:] = path
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

    try:
        module = _load(target)
    except LookupError as exc:
        send({"load_error": str(exc)})
        return
    except SystemExit as exc:
        send({"load_error": f"adapter {target!r} called sys.exit({exc.code!r}) while loading"})
        return
    except BaseException as exc:
        send({"load_error": f"adapter {target!r} failed while loading: {type(exc).__name__}: {exc}"})
        return
    fn = getattr(module, FUNCTION, None)
    if not callable(fn):
        send({"load_error": f"adapter {target!r} has no function {FUNCTION}(observation) -> turn "
                            "(see docs/evaluate.md, the policy adapter protocol)"})
        return
    send({"ready": True})
    for line in requests:
        req = json.loads(line)
        try:
            got = fn(req["observation"])
        except Exception as exc:
            try:
                text = str(exc)[:_SHOWN]
            except Exception:
                text = "<unprintable>"
            send({"raised": f"{type(exc).__name__}: {text}" if text else type(exc).__name__})
            continue
        value = _json_value(got)
        if value is None:
            send({"wrong": f"returned {_short(got)}, not a turn (a list of card names, or their text)"})
        else:
            send({"ok": value})
        os.ftruncate(1, 0)  # what it printed is dropped, never part of an answer
        os.lseek(1, 0, os.SEEK_SET)


if __name__ == "__main__":
    main()
