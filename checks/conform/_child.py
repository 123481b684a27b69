"""The adapter's own processes for ``sushigo conform`` (run as a script; imports nothing of ours).

    python _child.py SETUP_JSON

This process is the *supervisor*: it forks the *engine*, which imports the adapter and
answers, and stays between the engine and ``conform``. The engine is an adversary:

* its parent is the supervisor, which ignores every signal it can (``os.kill(os.getppid(),
  SIGUSR1)`` does nothing; SIGSTOP or SIGKILL stop or kill the supervisor, not ``conform``,
  which never waits on it without a deadline and then cleans up itself);
* the supervisor is a child subreaper (``PR_SET_CHILD_SUBREAPER``): a grandchild that calls
  ``setsid`` and is orphaned becomes its child, so :func:`sweep` finds and kills it;
* it counts the engine's processes and kills them all past ``max_procs`` (``RLIMIT_NPROC``
  is set too, but it counts per user and does not bind root);
* it kills every process of the engine when the engine ends or when ``conform`` closes the
  control pipe (its standard input) or dies.

Under bubblewrap (``conform`` starts ``bwrap ... --as-pid-1 python _child.py``) the
supervisor is pid 1 of a new pid namespace: the kernel drops the engine's signals to it, the
engine cannot name ``conform``'s pid at all, and the whole namespace dies with pid 1.

Protocol, one JSON object a line over the two pipes ``conform`` passed (their numbers are in
SETUP_JSON; the engine's fd 0 is /dev/null and its fd 1 a capture file, so what the adapter
prints or reads never touches the protocol). The first request line is a random token; every
reply carries it and the request's number, so a line the adapter forges (written blindly into
an inherited descriptor), a reply from a second process after a fork, a duplicate or an
out-of-order reply is seen by ``conform`` as a protocol fault, never taken as an answer.

    -> {"n": 1, "fn": "score_round", "arg": [[...], ...], "seats": 2}
    <- {"t": TOKEN, "n": 1, "ok": [3, 0]} | ... "raised": "KeyError: 'squid'" | ... "wrong": "..."
       | ... "absurd": [...], each with "printed": "..." when the call wrote to standard output

The supervisor writes one line on its standard output (a pipe to ``conform``) when it ends
the engine: ``ended exit N``, ``ended signal N`` or ``procs N`` (more than max_procs).
"""

from __future__ import annotations

import faulthandler
import importlib
import importlib.util
import json
import os
import select
import signal
import sys
import tempfile
import time
from typing import Any

#: Ints beyond this are not sent back (JSON of a huge int is slow or refused); the parent
#: judges plausibility against the ruleset with a far smaller bound.
_WIRE_LIMIT = 10**15
_SHOWN = 200
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
#: Bound of the supervisor's wait between two looks at the engine's processes.
_TICK = 0.02
#: A full count of the engine's processes at least this often (seconds), whatever the task total says.
_FULL_COUNT = 1.0
#: The functions an adapter offers (the required one, the optional one, with the signatures an
#: error names, and where the protocol is documented): the base game's unless SETUP_JSON says.
BASE_PROTOCOL: dict[str, Any] = {
    "required": ["score_round", "score_round(tableaux) -> list[int]"],
    "optional": ["score_puddings", "score_puddings(counts) -> list[int]"],
    "docs": "docs/checks.md",
}
# Bound before the adapter can replace them (a hostile adapter may patch json or builtins).
_dumps, _loads, _write = json.dumps, json.loads, os.write


# --------------------------------------------------------------------------- processes


def _prctl(option: int, arg: int) -> bool:
    """Linux prctl(2); False elsewhere or when refused."""
    try:
        import ctypes

        return int(ctypes.CDLL(None, use_errno=True).prctl(option, arg, 0, 0, 0)) == 0
    except Exception:
        return False


def processes() -> dict[int, tuple[int, str]]:
    """Every process of the machine (of the pid namespace under bwrap): pid -> (ppid, state)."""
    out: dict[int, tuple[int, str]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue  # ended meanwhile
        rest = stat.rpartition(b")")[2].split()  # the command name may hold spaces and parentheses
        if len(rest) > 1:
            out[int(name)] = (int(rest[1]), rest[0].decode("ascii", "replace"))
    return out


def descendants(root: int, table: dict[int, tuple[int, str]]) -> list[int]:
    """The live (not zombie) descendants of ``root`` in ``table``."""
    kids: dict[int, list[int]] = {}
    for pid, (ppid, _state) in table.items():
        kids.setdefault(ppid, []).append(pid)
    out, todo = [], list(kids.get(root, ()))
    while todo:
        pid = todo.pop()
        if table[pid][1] not in "ZX":
            out.append(pid)
        todo += kids.get(pid, ())
    return out


def sweep(root: int) -> int:
    """Stop, then kill, every descendant of ``root`` until none is left (a process stopped
    cannot fork, so a fork bomb is caught by the next round); returns how many were killed."""
    killed: set[int] = set()
    for _ in range(1000):
        alive = descendants(root, processes())
        if not alive:
            break
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            for pid in alive:
                try:
                    os.kill(pid, sig)
                except OSError:
                    pass
        killed.update(alive)
    return len(killed)


def _tasks() -> int:
    """Tasks (threads) on the machine, from /proc/loadavg: one read, no scan."""
    try:
        with open("/proc/loadavg", "rb") as fh:
            return int(fh.read().split()[3].split(b"/")[1])
    except (OSError, IndexError, ValueError):
        return 0


# --------------------------------------------------------------------------- the supervisor


def _reap(engine: int) -> int | None:
    """Reap every ended child (orphans come here too); the engine's wait status if it ended."""
    status = None
    while True:
        try:
            pid, st = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return status
        if pid == 0:
            return status
        if pid == engine:
            status = st


def supervise(setup: dict[str, Any]) -> None:
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    for sig in signal.Signals:
        if sig not in (signal.SIGKILL, signal.SIGSTOP, signal.SIGCHLD):
            try:
                signal.signal(sig, signal.SIG_IGN)
            except (OSError, ValueError):
                pass
    req, rep = setup["fds"]
    pid = os.fork()
    if pid == 0:
        try:
            for sig in signal.Signals:
                if sig not in (signal.SIGKILL, signal.SIGSTOP):
                    try:
                        signal.signal(sig, signal.SIG_DFL)
                    except (OSError, ValueError):
                        pass
            engine(setup, req, rep)
        except SystemExit as exc:  # the adapter's sys.exit(N): the exit code it asked for
            code = exc.code
            os._exit(code if isinstance(code, int) and 0 <= code < 256 else 0 if code is None else 1)
        except BaseException:
            import traceback

            traceback.print_exc()
            os._exit(1)
        os._exit(0)
    os.close(req)
    os.close(rep)  # the engine holds the only copies: its death closes the replies
    me, limit = os.getpid(), int(setup["max_procs"])
    base, last_full = _tasks(), 0.0
    report = ""
    while not report:
        if select.select([0], [], [], _TICK)[0]:
            try:
                if not os.read(0, 1 << 12):
                    break  # conform closed the control pipe, or died
            except OSError:
                break
        status = _reap(pid)
        if status is not None:
            report = (f"ended signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status)
                      else f"ended exit {os.WEXITSTATUS(status)}")
            break
        now, tasks = time.monotonic(), _tasks()
        base = min(base, tasks) if base else tasks
        if limit and (tasks - base > limit // 2 or now - last_full >= _FULL_COUNT):
            last_full = now
            count = len(descendants(me, processes()))
            if count > limit:
                report = f"procs {count}"
    try:
        os.kill(pid, signal.SIGKILL)  # where there is no /proc to sweep, at least the engine
    except OSError:
        pass
    sweep(me)
    _reap(pid)
    if report:
        try:
            _write(1, (report + "\n").encode())
        except OSError:
            pass


# --------------------------------------------------------------------------- the engine


def _limit(mb: int, procs: int) -> None:
    try:
        import resource
    except ImportError:
        return
    if mb > 0:
        try:
            resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))
        except (ValueError, OSError):
            pass
    if procs > 0:
        try:  # per user: binds an unprivileged user's engine, not root's (the supervisor counts)
            resource.setrlimit(resource.RLIMIT_NPROC, (procs, procs))
        except (ValueError, OSError):
            pass


def _short(value: object) -> str:
    try:
        text = repr(value)
    except BaseException as exc:  # a hostile __repr__
        text = f"<unprintable {type(value).__name__}: {type(exc).__name__}>"
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def _load(target: str, name: str) -> Any:
    if target.endswith(".py") or os.sep in target or os.path.isfile(target):
        if not os.path.isfile(target):
            what = "is not a regular file" if os.path.exists(target) else "does not exist"
            raise LookupError(f"target file {name!r} {what}; give a .py file or a module name")
        module_name = "_sushigo_conform_target_" + os.path.splitext(os.path.basename(target))[0]
        spec = importlib.util.spec_from_file_location(module_name, target)
        if spec is None or spec.loader is None:
            raise LookupError(f"cannot load {name!r} as a Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
        return module
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as exc:
        if exc.name and target.startswith(exc.name):
            raise LookupError(f"cannot import target {name!r}: {exc}; give a .py file or an importable "
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


def _printed() -> str:
    """What was written to the capture file (fd 1) since the last look; it is emptied."""
    try:
        sys.stdout.flush()
    except Exception:
        pass
    try:
        size = os.lseek(1, 0, os.SEEK_END)
        if not size:
            return ""
        text = os.pread(1, min(size, _SHOWN * 2), 0).decode("utf-8", "replace")
        os.ftruncate(1, 0)
        os.lseek(1, 0, os.SEEK_SET)
    except OSError:
        return ""
    return text or " "


def _load_error(target: str, name: str, protocol: dict[str, Any]) -> tuple[Any, str]:
    """(the module, "") or (None, why it does not meet the protocol)."""
    try:
        module = _load(target, name)
    except LookupError as exc:
        return None, str(exc)
    except SystemExit as exc:
        return None, f"target {name!r} called sys.exit({exc.code!r}) while loading"
    except BaseException as exc:
        return None, f"target {name!r} failed while loading: {type(exc).__name__}: {exc}"
    out = _printed()
    if out:
        return None, (f"target {name!r} printed to standard output while loading ({out.strip()[:80]!r}); "
                      "the adapter protocol forbids it (print to stderr, or not at all)")
    (need, need_sig), (opt, opt_sig), docs = protocol["required"], protocol["optional"], protocol["docs"]
    fn = getattr(module, need, None)
    if not callable(fn):
        return None, (f"target {name!r} has no function {need_sig} "
                      f"(see {docs}, the adapter protocol)")
    pud = getattr(module, opt, None)
    if pud is not None and not callable(pud):
        return None, (f"target {name!r} defines {opt} as a {type(pud).__name__}, not a function "
                      f"{opt_sig} (see {docs}, the adapter protocol)")
    return module, ""


def engine(setup: dict[str, Any], req: int, rep: int) -> None:
    os.setsid()
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)  # the supervisor killed: so is this process
    faulthandler.enable()  # a segfault leaves its traceback on stderr for the report
    sys.path[:] = setup["path"]
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    capture = tempfile.TemporaryFile()
    os.dup2(capture.fileno(), 1)
    _limit(int(setup["memory_mb"]), int(setup["max_procs"]))
    requests = os.fdopen(req, "rb")
    token = requests.readline().strip().decode("ascii", "replace")

    def send(n: int, obj: dict[str, Any]) -> None:
        data = (_dumps({"t": token, "n": n, **obj}) + "\n").encode()
        while data:
            data = data[_write(rep, data):]

    protocol = setup.get("protocol") or BASE_PROTOCOL
    module, error = _load_error(setup["target"], setup["name"], protocol)
    if module is None:
        send(0, {"load_error": error})
        return
    need, opt = protocol["required"][0], protocol["optional"][0]
    fns = {name: getattr(module, name, None) for name in (need, opt)}
    send(0, {"ready": True, "score_puddings": callable(fns[opt])})
    for line in requests:
        req_ = _loads(line)
        reply = _answer(fns[req_["fn"]], req_["arg"], req_["seats"])
        out = _printed()
        if out:
            reply["printed"] = out
        send(req_["n"], reply)


if __name__ == "__main__":
    supervise(json.loads(sys.argv[1]))
