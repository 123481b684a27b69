"""``conform --jobs N`` / ``--cluster ADDRESS``: the harness's batch work as tasks of plain JSON.

Two kinds of task (:mod:`sushigo.jobs` runs them, each in a fresh process):

* ``cases_task``: one side's cases (the round cases, or the pudding counts), generated exactly
  as in this process: the edge cases (Z3, inside the worker) and the Hypothesis draw.
* ``ask_task``: a fixed slice of cases asked of the target. The worker starts the target itself
  (a ``.py`` file by its absolute path, or a module importable on the worker) in its own child
  process, under the same limits, and sends back each answer as JSON.

The fault search, its minimising and the fingerprint stay in this process: they are sequential
(each fault is planted before the next is looked for) and ask few cases at a time; the many
cases a step asks at once (:meth:`Side.prefetch`) are spread again. Slices have a fixed size, so
``--jobs 1``, ``--jobs 2`` and a cluster make the same tasks and print the same bytes. The run's
deadline travels as a wall-clock time (``time.time()``); a worker whose clock is ahead stops
early, never late, and a cut-short answer list only makes the verdict unknown.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Sequence
from typing import Any

from sushigo.checks.conform import cases as K
from sushigo.checks.conform.engine import BadTarget, Engine, Limits, OutOfTime, Reply
from sushigo.checks.conform.faults import RunClock, Side
from sushigo.spec.cards import Card
from sushigo.spec.model.budget import Budget, ceiling, current_ceiling

#: Cases per ask task: large enough that starting the target (a Python process) is paid rarely,
#: small enough that two workers share a side's few thousand cases evenly.
SLICE = 500
CASES = "sushigo.checks.conform.tasks:cases_task"
ASK = "sushigo.checks.conform.tasks:ask_task"


# --------------------------------------------------------------------------- JSON forms


def encode_case(case: Any) -> list[Any]:
    """A round case as card numbers per seat; a pudding case as it is."""
    return [[int(c) for c in seat] if isinstance(seat, tuple) else seat for seat in case]


def decode_case(kind: str, doc: list[Any]) -> Any:
    if kind == "round":
        return tuple(tuple(Card(c) for c in seat) for seat in doc)
    return tuple(int(v) for v in doc)


def _answer_json(a: Reply) -> list[Any]:
    return [list(a.value) if a.value is not None else None, a.kind, a.detail, a.printed]


def _answer(doc: list[Any]) -> Reply:
    value, kind, detail, printed = doc
    return Reply(tuple(value) if value is not None else None, kind, detail, printed)


def _limits_json(lim: Limits) -> dict[str, Any]:
    return {"call_timeout": lim.call_timeout, "memory_mb": lim.memory_mb, "time_limit": lim.time_limit,
            "load_timeout": lim.load_timeout, "max_procs": lim.max_procs, "sandbox": lim.sandbox,
            "protocol": lim.protocol}


def _ceiling_json() -> dict[str, Any]:
    """This process's Z3 ceiling (``--rlimit``, the run's deadline) for a worker to enter."""
    c = current_ceiling()
    return {} if c is None else {"timeout_ms": c.timeout_ms, "rlimit": c.rlimit, "deadline": c.deadline}


def _left(deadline: float) -> float:
    return max(0.0, deadline - time.time())


# --------------------------------------------------------------------------- in a worker


def cases_task(doc: dict[str, Any]) -> dict[str, Any]:
    """One side's cases, generated as :func:`~.cases.round_cases` / :func:`~.cases.pudding_cases` do
    in a run without workers, and how many tie structures Z3 left unknown."""
    from sushigo.jobs import ruleset_from_json

    rules = ruleset_from_json(doc["rules"])
    deadline = float(doc["deadline"])

    def expired() -> bool:
        return time.time() >= deadline

    with ceiling(Budget(**doc["z3"])) if doc["z3"] else contextlib.nullcontext():
        if doc["side"] == "round":
            made: list[Any] = K.round_cases(rules, doc["examples"], doc["seed"], expired)
        else:
            made = K.pudding_cases(rules, doc["examples"], doc["seed"], expired)
        unknown = 0 if expired() else K.unknown_edges(rules, (doc["side"],))
    return {"cases": [encode_case(c) for c in made], "unknown_edges": unknown, "expired": expired()}


def ask_task(doc: dict[str, Any]) -> dict[str, Any]:
    """The target's answers on a slice of cases (fewer when the run's deadline comes first)."""
    lim = Limits(**doc["limits"])
    deadline = float(doc["deadline"])
    engine = Engine(doc["target"], lim, doc["bound"], lambda: _left(deadline))
    items = [(arg, seats) for arg, seats in doc["items"]]
    try:
        engine.start()
        answers = engine.call_many(doc["fn"], items)
    except OutOfTime:
        answers = []
    except BadTarget as exc:  # it loaded in the parent: a worker that cannot load it says so per case
        answers = [Reply(None, "crashed", f"could not be started on a worker: {exc}")] * len(items)
    finally:
        engine.close()
    return {"answers": [_answer_json(a) for a in answers], "restarts": engine.restarts,
            "gave_up": engine.gave_up}


# --------------------------------------------------------------------------- in this process


class Spread:
    """Sends a run's batch work to ``where`` (a :class:`sushigo.jobs.Runner`)."""

    def __init__(self, where: Any, target: str, limits: Limits, bound: int, budget: RunClock) -> None:
        self.where, self.limits, self.bound, self.budget = where, limits, bound, budget
        # A file target travels by its absolute path (a worker's working directory may differ).
        self.target = os.path.abspath(target) if os.path.isfile(target) else target
        self.restarts = 0
        self.gave_up = ""  # a worker's engine stopped asking the target (Engine.gave_up)

    def _deadline(self) -> float:
        return time.time() + self.budget.left()

    def cases(self, rules: Any, examples: int, seed: int | None, sides: Sequence[str]
              ) -> tuple[dict[str, list[Any]], int]:
        """Each side's cases (generated on the workers, one task a side) and the unknown edges."""
        from sushigo import jobs as J

        common = {"rules": J.ruleset_json(rules), "examples": examples, "seed": seed,
                  "deadline": self._deadline(), "z3": _ceiling_json()}
        tasks = [J.Task(f"cases-{s}", {**common, "side": s}, slow=s == "round") for s in sides]
        out = J.run(CASES, tasks, self.where)
        if any(doc["expired"] for doc in out):
            self.budget.spend()
        made = {s: [decode_case(s, c) for c in doc["cases"]] for s, doc in zip(sides, out, strict=True)}
        return made, sum(doc["unknown_edges"] for doc in out)

    def __call__(self, side: Side, todo: list[Any]) -> list[Reply | None]:
        """The target's answers on ``todo`` (None where the deadline left a case unasked)."""
        from sushigo import jobs as J

        deadline = self._deadline()
        tasks = []
        for k in range(0, len(todo), SLICE):
            items = [list(side.request(c)) for c in todo[k:k + SLICE]]
            tasks.append(J.Task(f"ask-{side.kind}-{k}", {
                "target": self.target, "limits": _limits_json(self.limits), "bound": self.bound,
                "fn": side.fn, "items": items, "deadline": deadline}))
        out: list[Reply | None] = []
        cut = False
        for task, doc in zip(tasks, J.run(ASK, tasks, self.where), strict=True):
            got = [_answer(a) for a in doc["answers"]]
            self.restarts += doc["restarts"]
            self.gave_up = self.gave_up or doc["gave_up"]
            short = len(task.payload["items"]) - len(got)
            cut = cut or (short > 0 and not doc["gave_up"])
            out += got + [None] * short
        if cut:  # the deadline, not a target given up, left cases unasked
            self.budget.spend()
        return out
