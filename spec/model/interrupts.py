"""A stop (Ctrl-C, SIGTERM) that reaches a Z3 call in progress: signal handling, the watcher
thread that interrupts running checks, and the traces a stop may leave.

Two facts about Z3 shape this module:

* By default Z3 installs its own SIGINT handler for the length of each ``check()`` and turns
  Ctrl-C into an ``unknown`` answer ("interrupted from keyboard"). A caller that reads unknown
  as a result then reports it: ``check --mutants`` counted a mutant as caught that way (issue
  18). :func:`stop_on_signals` switches that off (the global ``ctrl_c`` parameter).
* With Z3's handler off, Python's own handler runs only after ``check()`` returns, which may be
  minutes away, and never on another thread. So the signal also wakes a watcher thread (through
  a pipe given to :func:`signal.set_wakeup_fd`), which calls ``interrupt()`` on the main context
  and on every context registered with :func:`watch`: each running ``check()`` returns at once,
  and the main thread raises :class:`KeyboardInterrupt` at its next step.

After a stop, :func:`stop_point` (called by :func:`spec.model.budget.decide` before and after
every check) raises :class:`KeyboardInterrupt` again, so an ``unknown`` caused by the stop is never
read as an answer and no new question is started. SIGTERM is handled like SIGINT; :func:`stopped_by`
tells the CLI which one came (exit 130 or 143).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


_stop = threading.Event()
_signum: list[int] = []
_contexts: weakref.WeakSet[Any] = weakref.WeakSet()  # z3.Context (z3 is imported lazily)
_scope_active = threading.Event()
_quiet = threading.Event()  # Z3's Ctrl-C handler is off in this scope already
_contexts_lock = threading.Lock()


def watch(ctx: Any) -> None:
    """Register a context (of a worker thread) whose running check a stop must interrupt."""
    with _contexts_lock:
        _contexts.add(ctx)
    if _stop.is_set():
        interrupt(ctx)


def interrupt(ctx: Any) -> None:
    """Interrupt whatever ``ctx`` (a z3.Context) is running, from any thread.

    Z3's Python wrapper checks the context's error code after every call, and ``Z3_interrupt``
    does not clear it: a context whose last call failed (a push cancelled by an earlier
    interrupt, say) makes ``ctx.interrupt()`` raise that old error after the interrupt was
    delivered. That error belongs to the earlier call, so it is dropped here (seen in CI: a stop
    during ``diff --matrix`` ended with a traceback and exit 1 instead of 130).
    """
    z3 = sys.modules["z3"]
    try:
        ctx.interrupt()
    except z3.Z3Exception:
        pass


def stop_requested() -> bool:
    return _stop.is_set()


def stopped_by() -> int | None:
    """The signal that requested the stop (SIGINT or SIGTERM), if any."""
    return _signum[0] if _signum else None


def stop_point() -> None:
    """Raise :class:`KeyboardInterrupt` if a stop was requested: no new work after a stop."""
    if _stop.is_set():
        raise KeyboardInterrupt


def request_stop(signum: int = signal.SIGINT) -> None:
    """Stop: remember the signal and interrupt every running check (any thread may call this)."""
    if not _signum:
        _signum.append(signum)
    _stop.set()
    with _contexts_lock:
        # z3 may be half imported when the signal lands (main_ctx not defined yet): then no
        # check can be running on its main context.
        main_ctx = getattr(sys.modules.get("z3"), "main_ctx", None)
        contexts = ([main_ctx()] if main_ctx is not None else []) + [*_contexts]
    for ctx in contexts:
        interrupt(ctx)


def _reset() -> None:
    """Forget a recorded stop, and let the main context work again.

    A stop interrupts the main context, and ``Z3_interrupt`` leaves it cancelled until its next
    ``check()``. Meanwhile ``simplify`` silently stops early, and a model built then can come out
    wrong: a stale cancel made ``diff official french`` report two empty tables as a difference.
    A stop requested outside :func:`stop_on_signals` (a library call, a command without the scope)
    is not cleared by the scope's exit, so forgetting it clears the context here too."""
    was_stopped = _stop.is_set()
    _stop.clear()
    _signum.clear()
    z3 = sys.modules.get("z3")
    if was_stopped and z3 is not None and getattr(z3, "main_ctx", None) is not None:
        from sushigo.spec.model.budget import _clear_cancel  # the one place of a check()

        _clear_cancel(z3)


def _handler(signum: int, frame: FrameType | None) -> None:
    request_stop(signum)
    raise KeyboardInterrupt


def _watcher(reader: int) -> None:
    while True:
        try:
            data = os.read(reader, 64)
        except OSError:
            return
        if not data:
            return
        for signum in data:
            if signum in STOP_SIGNALS:
                request_stop(signum)


def z3_loaded() -> None:
    """Inside :func:`stop_on_signals`, turn Z3's own Ctrl-C handler off (it turns a stop into an
    ``unknown`` answer, read as a result). Called on entry and by :mod:`sushigo.spec.model` when
    it first imports z3, so the CLI's start-up imports z3 only for commands that use it."""
    z3 = sys.modules.get("z3")
    if z3 is not None and _scope_active.is_set() and not _quiet.is_set():
        with _contexts_lock:  # one thread sets the global parameter, once a scope
            if not _quiet.is_set():
                z3.set_param("ctrl_c", False)
                _quiet.set()


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """SIGINT and SIGTERM stop the work in progress, Z3 calls on any thread included.

    Must be entered on the main thread. On leaving, the previous handlers come back and later
    Z3 calls run again; which signal stopped the work stays readable (:func:`stopped_by`) until
    the next entry.
    """
    _reset()
    if threading.current_thread() is not threading.main_thread():
        yield  # signals reach the main thread only; a caller on another thread stops its own way
        return
    # A pipe, not a socket pair: the same wake-up on POSIX, without importing socket and
    # selectors, which were a tenth of ``sushigo score``'s start-up (benchmarks/bench_startup.py).
    reader, writer = os.pipe()
    os.set_blocking(writer, False)
    previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    old_fd = signal.set_wakeup_fd(writer, warn_on_full_buffer=False)
    _scope_active.set()
    z3_loaded()  # z3 imported already: quiet its handler now; imported later: sushigo.spec.model does
    thread = threading.Thread(target=_watcher, args=(reader,), name="sushigo-stop-watcher", daemon=True)
    thread.start()
    try:
        with lost_stops_unprinted(_stop.is_set):
            for sig in STOP_SIGNALS:
                signal.signal(sig, _handler)
            yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
        signal.set_wakeup_fd(old_fd)
        _scope_active.clear()
        _quiet.clear()
        z3 = sys.modules.get("z3")
        if z3 is not None:
            z3.set_param("ctrl_c", True)
            if _stop.is_set():
                from sushigo.spec.model.budget import _clear_cancel  # the one place of a check()

                _clear_cancel(z3)
        _stop.clear()
        os.close(writer)  # the watcher's read sees end of file and returns
        thread.join(timeout=1.0)
        os.close(reader)


@contextmanager
def lost_stops_unprinted(recorded: Callable[[], bool]) -> Iterator[None]:
    """While inside, a stop's KeyboardInterrupt lost inside a ``__del__`` prints nothing.

    A signal handler that raises while the garbage collector runs a ``__del__`` loses its
    exception: Python prints "Exception ignored ... Traceback" and goes on. When ``recorded()``
    says the stop was recorded (its stop points raise it again), there is nothing to print.

    Nor does the other trace a stop leaves: a stop raised inside the constructor of a Z3 wrapper
    (``AstRef.__init__`` reads its context after allocating) leaves a half-built object, whose
    ``__del__`` then fails with AttributeError (no ``ctx``; seen in CI: SIGTERM during conform).
    """
    previous = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if not (_trace_of_a_stop(unraisable) and recorded()):
            previous(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = previous


_QUIETED: dict[str, Callable[[], bool]] = {}  # quiet_stop_traces' tests, by who gave them


def quiet_stop_traces(who: str, recorded: Callable[[], bool]) -> None:
    """From now on, while ``recorded()`` says a stop was recorded, the traces it leaves in
    destructors print nothing (as inside :func:`lost_stops_unprinted`).

    For a command that was stopped and is winding up: the exception that ended it still holds
    the frames of the interrupted work, and a half-built Z3 wrapper among them is freed only
    when that exception is, after every scope has been left. The hook is installed once per
    process; ``who`` names the test (a later call by the same caller replaces it). Each test is
    asked at the time, so once the stop is forgotten, errors show again."""
    first = not _QUIETED
    _QUIETED[who] = recorded
    if not first:
        return
    previous = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if not (_trace_of_a_stop(unraisable) and any(test() for test in list(_QUIETED.values()))):
            previous(unraisable)

    sys.unraisablehook = hook


def _trace_of_a_stop(unraisable: Any) -> bool:
    """What a stop leaves in a destructor: its own KeyboardInterrupt, lost there (also as ctypes
    reports it when it arrives while a Z3 call's arguments are converted), or a Z3 wrapper its
    constructor left half built."""
    return (isinstance(unraisable.exc_value, KeyboardInterrupt) or _half_built_z3(unraisable)
            or _interrupted_z3_call(unraisable))


def _in_z3_destructor(unraisable: Any) -> bool:
    where = unraisable.object
    return (getattr(where, "__name__", "") == "__del__"
            and str(getattr(where, "__module__", "")).split(".")[0] == "z3")


def _half_built_z3(unraisable: Any) -> bool:
    """The destructor of a Z3 wrapper whose constructor a stop cut short (no context to free in)."""
    return isinstance(unraisable.exc_value, AttributeError) and _in_z3_destructor(unraisable)


def _interrupted_z3_call(unraisable: Any) -> bool:
    """A Z3 destructor's C call hit by the stop's KeyboardInterrupt while ctypes converted its
    arguments: ctypes reports that as ``ArgumentError: argument 1: KeyboardInterrupt: ...``
    (seen in CI: SIGINT during ``diff --matrix``)."""
    import ctypes

    exc = unraisable.exc_value
    return (isinstance(exc, ctypes.ArgumentError) and "KeyboardInterrupt" in str(exc)
            and _in_z3_destructor(unraisable))


@contextmanager
def stops_held() -> Iterator[None]:
    """Inside, the calling thread holds SIGINT and SIGTERM back (they wait, pending, for a
    thread that takes them), and so does every thread started and every process forked inside.

    For a pool of forked workers: its threads fork the workers, and a worker forked with the
    signals open runs this process's handler until its initializer (:func:`child_signals`)
    replaces it. A SIGTERM from the pool's terminate() then ran :func:`request_stop` in the
    worker, where a lock another thread of the parent held at the fork is held for ever: the
    worker hung and the pool's join() with it (seen under load: ``check --jobs 2`` stopped by
    Ctrl-C did not exit within 60 s). Created inside, the pool's threads and workers never run
    the handler; the main thread takes the signals again on leaving."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def child_signals() -> None:
    """For a worker process forked from a stoppable parent: the parent alone handles Ctrl-C
    (and ends its workers); SIGTERM ends the worker at once. Forked inside :func:`stops_held`,
    the worker takes the signals only once these dispositions are set."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        signal.set_wakeup_fd(-1)
    except ValueError:  # not the main thread: nothing was inherited there
        pass
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def _after_fork_in_child() -> None:
    """A forked process starts with one thread: a lock another thread held at the fork would
    stay held for ever, so the child gets fresh ones."""
    global _contexts_lock
    _contexts_lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)


__all__ = [
    "STOP_SIGNALS",
    "child_signals",
    "interrupt",
    "lost_stops_unprinted",
    "quiet_stop_traces",
    "request_stop",
    "stop_on_signals",
    "stop_point",
    "stop_requested",
    "stopped_by",
    "stops_held",
    "watch",
    "z3_loaded",
]
