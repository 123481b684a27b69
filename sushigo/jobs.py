"""Batch work as tasks of plain JSON: one runner for local processes and for a Dask cluster.

A task is a stable key and a JSON payload; the function that does it is named by its import
path (``"sushigo.checks.runner:run_task"``), so a Dask worker imports it from its own install.
The payload leaves as JSON text and the answer comes back as JSON text: no Z3 object, no
``Ruleset``, nothing but JSON crosses a process boundary (a ruleset travels as
:func:`ruleset_json`). Answers are returned in task order, whatever order the tasks finished
in, so what a command prints never depends on the scheduling (docs/scale.md).

Backends: ``jobs=0`` (a command's default where it was serial before) runs the tasks one by
one in this process; ``--jobs N`` on N forked worker processes, one fresh process per task;
``--cluster ADDRESS`` on a Dask distributed scheduler, where each task also runs in a process
forked for it by the worker; ``--cluster local`` starts a ``distributed.LocalCluster`` on the
loopback address for the run. A fresh process per task is what makes the backends agree: Z3's
choice among equally good answers (a witness game) depends on what its context already holds,
so a task must not inherit the terms of the tasks that ran before it. A stop (SIGINT, SIGTERM)
ends the workers this run started and cancels its tasks on a cluster; the answers that had
arrived were passed to ``done`` and the stop goes on as :class:`KeyboardInterrupt`.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sushigo.limits import MAX_JOBS
from sushigo.spec import errors
from sushigo.spec.errors import InputError
from sushigo.spec.numbers import check_whole

#: What ``--cluster`` says when the extra is not installed.
INSTALL_HINT = "pip install 'sushigo-spec[dask]'"
#: ``--cluster local``: start a local Dask cluster for the run.
LOCAL = "local"
#: How long to wait for a scheduler to answer, and for its first worker.
CONNECT_SECONDS = 10.0
WORKER_SECONDS = 30.0

Done = Callable[[int, Any], None]


@dataclass(frozen=True)
class Task:
    """One unit of batch work: ``key`` names it stably (the same on every run), ``payload`` is JSON.
    ``slow`` tasks are started first, so that the workers finish together."""

    key: str
    payload: Any
    slow: bool = False


@dataclass(frozen=True)
class Runner:
    """Where tasks run: ``jobs`` local processes (0: in this process), or the Dask scheduler at
    ``cluster``."""

    jobs: int = 0
    cluster: str | None = None

    def describe(self) -> str:
        if self.cluster == LOCAL:
            return f"a local Dask cluster of {self.jobs} workers"
        if self.cluster:
            return f"the Dask scheduler at {self.cluster}"
        if self.jobs == 0:
            return "this process"
        return f"{self.jobs} local process{'es' if self.jobs != 1 else ''}"

    @property
    def spread(self) -> bool:
        """Whether the tasks run in processes of their own (not in this process)."""
        return self.jobs > 0 or self.cluster is not None


def runner(jobs: int | None = None, cluster: str | None = None, default_jobs: int = 0) -> Runner:
    """The runner of ``--jobs`` / ``--cluster``; ``--jobs`` with a scheduler's address is refused
    (that cluster's workers do the work), with ``--cluster local`` it counts the local workers."""
    if jobs is not None:
        check_whole(jobs, "--jobs", 1, MAX_JOBS)
    if cluster is None:
        return Runner(jobs if jobs is not None else default_jobs)
    address = cluster.strip()
    if not address:
        raise InputError("--cluster needs an address (tcp://HOST:8786) or 'local'")
    if address != LOCAL and jobs is not None:
        raise InputError(f"--jobs {jobs} and --cluster {address}: the cluster's workers do the work; "
                         "drop --jobs (it counts the workers of --cluster local only)")
    _require_dask()
    workers = jobs if jobs is not None else max(1, min(2, os.cpu_count() or 1))
    return Runner(workers if address == LOCAL else 1, address)


def run(function: str, tasks: Sequence[Task], where: Runner, done: Done | None = None) -> list[Any]:
    """Run ``function`` (``"module:name"``, taking and returning JSON) on every task's payload;
    the answers in task order. ``done(index, answer)`` is called as each answer arrives."""
    keys = [t.key for t in tasks]
    if len(set(keys)) != len(keys):
        raise ValueError("task keys must be unique")
    results: dict[int, Any] = {}

    def arrived(k: int, text: str) -> None:
        results[k] = _unwrap(text)
        if done is not None:
            done(k, results[k])

    from sushigo.spec.model.budget import stop_point

    stop_point()  # no new work after a stop, whoever runs it
    order = sorted(range(len(tasks)), key=lambda k: not tasks[k].slow)  # stable: slow ones first
    texts = [json.dumps(t.payload, sort_keys=True) for t in tasks]
    if where.cluster:
        _run_dask(function, tasks, texts, order, where, arrived)
    elif where.jobs == 0:
        for k in range(len(tasks)):
            stop_point()  # a task that caught a stop ends the run here, as a worker's would
            arrived(k, call(function, texts[k]))
    else:
        _run_pool(function, texts, order, where.jobs, arrived)
    return [results[k] for k in range(len(tasks))]


def call(function: str, text: str) -> str:
    """Do one task (in a worker): JSON text in, JSON text out. The project's errors come back as
    data and are raised again by the caller; anything else is a bug and travels as itself."""
    module, _, name = function.partition(":")
    fn = getattr(importlib.import_module(module), name)
    try:
        answer = {"answer": fn(json.loads(text))}
    except errors.SushiGoError as exc:
        answer = {"error": type(exc).__name__, "message": str(exc)}
    return json.dumps(answer, sort_keys=False)


def call_forked(function: str, text: str) -> str:
    """:func:`call` in a child forked for this task alone (on a Dask worker: the worker's own
    process never runs a task, so every task starts from the same state). The child dies with
    its parent (a killed worker leaves no task running)."""
    import signal
    import traceback

    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: do the task, write the answer, leave at once
        status = 0
        try:
            os.close(reader)
            _die_with_parent(signal.SIGKILL)
            try:
                data = call(function, text)
            except BaseException:
                data = json.dumps({"crash": traceback.format_exc()})
            with os.fdopen(writer, "w", encoding="utf-8") as fh:
                fh.write(data)
        except BaseException:
            status = 1
        finally:
            os._exit(status)
    os.close(writer)
    with os.fdopen(reader, encoding="utf-8") as fh:
        data = fh.read()
    _, status = os.waitpid(pid, 0)
    if not data:
        raise RuntimeError(f"the process of task {function} ended without an answer (status {status})")
    if '"crash"' in data[:10]:
        raise RuntimeError(json.loads(data)["crash"])
    return data


def _die_with_parent(sig: int) -> None:
    """Linux: deliver ``sig`` to this process when its parent dies (prctl PR_SET_PDEATHSIG)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, sig)
    except (OSError, AttributeError):
        pass


def _unwrap(text: str) -> Any:
    doc = json.loads(text)
    if "error" in doc:
        cls = getattr(errors, doc["error"], errors.SushiGoError)
        raise (cls if isinstance(cls, type) and issubclass(cls, errors.SushiGoError)
               else errors.SushiGoError)(doc["message"])
    return doc["answer"]


# --------------------------------------------------------------------------- rulesets as JSON


def ruleset_json(rules: Any) -> dict[str, Any]:
    """A ruleset as JSON: every field (tuples as lists), so any override survives the trip."""
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}


def ruleset_from_json(doc: dict[str, Any]) -> Any:
    """The ruleset :func:`ruleset_json` wrote (its fields hold numbers, words and tuples only)."""
    from sushigo.spec.ruleset import Ruleset

    def tuples(value: Any) -> Any:
        return tuple(tuples(v) for v in value) if isinstance(value, list) else value

    return Ruleset(**{k: tuples(v) for k, v in doc.items()})


# --------------------------------------------------------------------------- local processes


def _run_pool(function: str, texts: Sequence[str], order: Sequence[int], jobs: int,
              arrived: Callable[[int, str], None]) -> None:
    """The tasks on ``jobs`` forked workers, one fresh worker per task (``maxtasksperchild=1``:
    Z3 contexts, Hypothesis' caches and a grown heap die with the task; forking from this small
    parent is cheap). Workers ignore SIGINT: the parent alone handles a stop, terminates them
    and waits for them, so no worker outlives the run."""
    import multiprocessing

    from sushigo.spec.model.interrupts import child_signals, stops_held

    ctx = multiprocessing.get_context("fork")
    # Never more workers than tasks: --jobs 1000 for two tasks forked 1000 processes. The pool's
    # threads, which fork the workers, hold the stop signals back (stops_held).
    with stops_held():
        pool = ctx.Pool(processes=max(1, min(jobs, len(texts))), initializer=child_signals,
                        maxtasksperchild=1)
    finished = False
    try:
        pending = {k: pool.apply_async(call, (function, texts[k])) for k in order}
        while pending:
            ready = [k for k in pending if pending[k].ready()]
            for k in ready:
                arrived(k, pending.pop(k).get())
            if not ready:
                next(iter(pending.values())).wait(0.05)
        finished = True
    finally:
        if finished:
            # Let the idle workers leave by themselves: terminating them could catch one just
            # forked, before it stopped sharing this process's signal wake-up pipe, and its
            # SIGTERM would read here as a stop of the whole run.
            pool.close()
        else:
            pool.terminate()
        pool.join()


# --------------------------------------------------------------------------- Dask


def _require_dask() -> Any:
    try:
        import distributed
    except ImportError:
        raise InputError(f"--cluster needs Dask's distributed scheduler: {INSTALL_HINT}") from None
    return distributed


def installed_version() -> str:
    """This toolkit's installed version (a worker's must equal the caller's)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sushigo-spec")
    except PackageNotFoundError:
        return "unknown (not installed)"


@contextmanager
def dask_client(address: str, workers: int = 2) -> Iterator[Any]:
    """A client of the scheduler at ``address`` (``local``: a LocalCluster of ``workers`` worker
    processes of one thread each, on 127.0.0.1, closed on the way out). Every worker must run
    one thread (Z3's main context and the mutants of ``check --mutants`` are per process) and
    the same version of this toolkit; otherwise one line names the worker and the fix."""
    import logging

    distributed = _require_dask()
    cluster = None
    try:
        if address == LOCAL:
            # The dashboard on a free port (the default, 8787, may be taken by another cluster);
            # the workers' own log lines stay quiet (a task's failure reaches us as its error).
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                               host="127.0.0.1", dashboard_address=":0",
                                               silence_logs=logging.CRITICAL)
            client = distributed.Client(cluster)
        else:
            try:
                client = distributed.Client(address, timeout=CONNECT_SECONDS)
            except (OSError, TimeoutError, ValueError) as exc:
                raise InputError(f"--cluster {address}: cannot reach a Dask scheduler there "
                                 f"({' '.join(str(exc).split()) or type(exc).__name__}); start one "
                                 "with 'dask scheduler' or use --cluster local") from None
        try:
            _check_workers(client, address)
            yield client
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


def _check_workers(client: Any, address: str) -> None:
    try:
        client.wait_for_workers(1, timeout=WORKER_SECONDS)
    except TimeoutError:
        raise InputError(f"--cluster {address}: no worker joined within {WORKER_SECONDS:g} s; start "
                         f"one with 'dask worker {address} --nthreads 1'") from None
    for name, info in client.scheduler_info()["workers"].items():
        if info.get("nthreads", 1) != 1:
            raise InputError(f"--cluster {address}: worker {name} runs {info['nthreads']} threads; start "
                             "workers with '--nthreads 1' (Z3 and the planted mutants are per process)")
    mine = installed_version()
    for name, theirs in client.run(installed_version).items():
        if theirs != mine:
            raise InputError(f"--cluster {address}: worker {name} has sushigo-spec {theirs}, this "
                             f"machine {mine}; install the same version on every worker")


def _run_dask(function: str, tasks: Sequence[Task], texts: Sequence[str], order: Sequence[int],
              where: Runner, arrived: Callable[[int, str], None]) -> None:
    """The tasks as Dask futures. A worker that dies mid-task has its task re-run on another
    (the scheduler's own recovery); answers are matched to tasks by key, never by arrival."""
    distributed = _require_dask()
    assert where.cluster is not None
    run_id = uuid.uuid4().hex[:12]
    with dask_client(where.cluster, where.jobs) as client:
        futures = []
        index: dict[str, int] = {}
        for rank, k in enumerate(order):
            key = f"sushigo-{run_id}-{k}-{tasks[k].key}"
            index[key] = k
            futures.append(client.submit(call_forked, function, texts[k], key=key, pure=False,
                                         priority=len(order) - rank))
        try:
            for future in distributed.as_completed(futures):
                arrived(index[future.key], future.result())
        finally:
            client.cancel(futures)


__all__ = ["INSTALL_HINT", "LOCAL", "Runner", "Task", "call", "dask_client", "installed_version",
           "ruleset_from_json", "ruleset_json", "run", "runner"]
