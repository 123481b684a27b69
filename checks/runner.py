"""Run the properties under Hypothesis, programmatically, and report.

Each property runs once per named ruleset (``--ruleset`` narrows it to one)
with ``ceil(budget * weight / rulesets)`` examples each, so a family reaches
the budget in total and every ruleset gets its share. Hypothesis is driven
from code: the property's check is wrapped in ``@given`` with
``derandomize=True`` by default (the same examples on every run), or
``hypothesis.seed(S)`` with ``--seed S``; ``database=None`` so nothing leaks
between runs. A failing example is shrunk by Hypothesis and the
:class:`~checks.properties.Mismatch` raised by the shrunk example is the one
reported.

Edge cases are not drawn: every enumerated case runs, under one
representative of each group of rulesets that share the relevant readings.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import hypothesis
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisDeprecationWarning
from hypothesis.stateful import run_state_machine_as_test
from sushigo.checks import edge_cases as E
from sushigo.checks import strategies as S
from sushigo.checks.properties import (
    _STEPS,
    Mismatch,
    Property,
    all_properties,
    check_pick_order,
    compare_maki,
    compare_pudding,
    compare_round,
    release_models,
    release_templates,
)
from sushigo.checks.storage import use_hypothesis_home
from sushigo.checks.strategies import tableau_of_picks
from sushigo.spec.cards import Card, Token
from sushigo.spec.errors import BudgetSpent
from sushigo.spec.model.budget import Budget, ceiling
from sushigo.spec.ruleset import PARAMETERS, RULESETS, Ruleset
from sushigo.spec.tableau import Tableau

use_hypothesis_home()

BATCH = 10
INCOMPLETE = "incomplete"  # the row of a property a stop (Ctrl-C, SIGTERM) cut short
PROFILES: dict[str, int] = {"quick": 300, "default": 2000, "long": 20000}


@dataclass
class Failure:
    prop: str
    ruleset: str
    case: str
    expected: str
    actual: str
    expected_by: str
    actual_by: str
    rule_ids: tuple[str, ...]
    seed: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "property": self.prop, "ruleset": self.ruleset, "case": self.case,
            "expected": self.expected, "actual": self.actual, "expected_by": self.expected_by,
            "actual_by": self.actual_by, "rule_ids": list(self.rule_ids), "seed": self.seed,
        }

    def text(self) -> str:
        seed = f" {self.seed}" if self.seed.startswith("--seed") else ""
        rows = [("case:", self.case), (self.expected_by + ":", self.expected),
                (self.actual_by + ":", self.actual),
                ("rules:", ", ".join(self.rule_ids) or "(no rule id found)"),
                ("seed:", self.seed or "(enumerated case: no seed)")]
        width = max(len(k) for k, _ in rows)
        return "\n".join([f"FAILED {self.prop} under --ruleset {self.ruleset}",
                          *[f"  {k:<{width}} {v}" for k, v in rows],
                          f"  reproduce: sushigo check --only {self.prop} --ruleset {self.ruleset}{seed}"])


@dataclass
class PropertyResult:
    """One property's run: ok, FAIL, skipped or incomplete, with what it saw (its JSON word is
    "result"; the cases the solver left unknown are counted, never read as ok or FAIL)."""

    prop: str
    family: str
    description: str
    rulesets: int = 0
    examples: int = 0
    seconds: float = 0.0
    status: str = "ok"  # ok | FAIL | skipped | incomplete
    note: str = ""
    unknown: int = 0  # cases the solver could not settle within its budget: not compared
    failure: Failure | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "property": self.prop, "family": self.family, "description": self.description,
            "rulesets": self.rulesets, "examples": self.examples, "seconds": round(self.seconds, 3),
            "result": self.status, "note": self.note, "unknown": self.unknown,
            "failure": self.failure.as_dict() if self.failure else None,
        }


@dataclass
class Options:
    examples: int = PROFILES["default"]
    seed: int | None = None
    rulesets: Sequence[Ruleset] = field(default_factory=lambda: list(RULESETS.values()))
    only: Sequence[str] = ()
    edge: bool = True
    stop_early: bool = False  # stop at the first failing property (mutant runs)
    budget: Budget | None = None  # --timeout/--rlimit: the most any one Z3 call may spend
    deadline: float | None = None  # --timeout: wall-clock end of the whole run (time.time())
    progress: Callable[[str], None] | None = None


def _seed_text(seed: int | None) -> str:
    return f"--seed {seed}" if seed is not None else "(derandomized default)"


def _settings(n: int, seed: int | None) -> settings:
    return settings(
        max_examples=max(1, n), derandomize=seed is None, database=None, deadline=None,
        suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet, print_blob=False,
        report_multiple_bugs=False, phases=[Phase.explicit, Phase.generate, Phase.shrink],
    )


def _failure(prop: str, rules: Ruleset, exc: Mismatch, seed: int | None) -> Failure:
    return Failure(prop, rules.name, exc.case, str(exc.expected), str(exc.actual), exc.expected_by,
                   exc.actual_by, exc.rule_ids, _seed_text(seed))


def _crash(prop: str, rules: Ruleset, case: str, exc: Exception, seed: str) -> Failure:
    """The failure of a property whose code raised instead of answering."""
    return Failure(prop, rules.name, case, "no error", f"{type(exc).__name__}: {exc}", "rules", "executor",
                   (), seed)


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.time() >= deadline


@contextmanager
def _bounded(opts: Options) -> Iterator[None]:
    """The run's budget on every Z3 call of this process (a worker process enters it too)."""
    if opts.budget is None:
        yield
        return
    with ceiling(opts.budget):
        yield


class _Settled:
    """A property whose check leaves out a case the solver could not settle (or one past the
    run's deadline): counted as unknown, never as compared, never as a mismatch."""

    def __init__(self, prop: Property, counter: list[int], deadline: float | None, steps: bool) -> None:
        self.prop, self.counter, self.deadline, self.steps = prop, counter, deadline, steps

    def check(self, case: Any, rules: Ruleset) -> None:
        try:
            if not _past(self.deadline):
                self.prop.check(case, rules)
                return
        except BudgetSpent:
            pass
        self.counter[1] += 1
        if self.steps:  # the body adds the steps this case ran: none
            _STEPS[0] = 0
        else:  # the body adds one compared case: take it back
            self.counter[0] -= 1


def _body(prop: Property, rules: Ruleset, counter: list[int], deadline: float | None = None
          ) -> Callable[[Any], None]:
    steps = prop.extra.get("count") == "steps"
    prop = _Settled(prop, counter, deadline, steps)  # type: ignore[assignment]

    # Hypothesis derives a derandomized run's cases from this function's source: keep it as
    # it is, or every case (and the counts the docs show) changes.
    def body(cases: list[Any]) -> None:
        for case in cases:
            prop.check(case, rules)
            counter[0] += _STEPS[0] if steps else 1

    return body


def run_given(prop: Property, opts: Options) -> PropertyResult:
    with _bounded(opts):
        return _run_given(prop, opts)


def _run_given(prop: Property, opts: Options) -> PropertyResult:
    out = PropertyResult(prop.name, prop.family, prop.description)
    try:
        missing = prop.missing()
    except ImportError as exc:  # there, but broken: the property fails (its cases never ran)
        where = opts.rulesets[0].name if opts.rulesets else ""
        out.failure = Failure(prop.name, where, "(import)", "the modules it needs import",
                              str(exc), "install", "import", (), _seed_text(opts.seed))
        out.status = "FAIL"
        return out
    if missing:
        out.status, out.note = "skipped", f"{', '.join(missing)} not available"
        return out
    t0 = time.perf_counter()
    rulesets = list(opts.rulesets)
    if prop.extra.get("once"):
        rulesets = rulesets[:1]  # the property draws its own readings
    per = math.ceil(opts.examples * prop.weight / max(1, len(rulesets)))
    skipped: list[str] = []
    for rules in rulesets:
        if rules.dummy_2p and "no_dummy" in prop.extra:
            skipped.append(f"{rules.name}: {prop.extra['no_dummy']}")
            continue
        counter = [0, 0]  # cases compared, cases the solver (or the run's time) left unknown
        body = _body(prop, rules, counter, opts.deadline)
        if _past(opts.deadline):  # the run's time is up: this ruleset's cases are unknown
            out.unknown += per
            continue

        try:
            if prop.kind == "machine":
                machine: Any = prop.strategy(rules)
                # A machine's examples are whole runs; the budget counts steps (see extra).
                steps = prop.extra.get("steps", 30)
                mst = settings(_settings(math.ceil(per / steps), opts.seed), stateful_step_count=steps)
                if opts.seed is not None:
                    machine = hypothesis.seed(opts.seed)(machine)
                machine.steps_run = 0
                try:
                    run_state_machine_as_test(machine, settings=mst)
                finally:
                    counter[0] = machine.steps_run
            else:
                # Cases come in fixed-size batches: Hypothesis' own cost per example
                # (about 5 ms) is paid once per batch; the failing case is still shrunk.
                # Lists of 1..BATCH (Hypothesis averages about BATCH / 2): a failing list shrinks
                # by deleting the other cases first, which is far cheaper than shrinking each.
                batch = max(1, min(BATCH, per))
                test = given(st.lists(prop.strategy(rules), min_size=1, max_size=batch))(body)
                test = _settings(math.ceil(per * 3 / (batch + 1)), opts.seed)(test)
                if opts.seed is not None:
                    test = hypothesis.seed(opts.seed)(test)
                test()
        except Mismatch as exc:
            out.failure = _failure(prop.name, rules, exc, opts.seed)
            out.status = "FAIL"
        except BudgetSpent as exc:  # a machine run the solver could not settle: unknown, not a failure
            counter[1] += 1
            skipped.append(f"{rules.name}: unknown ({exc})")
        except Exception as exc:  # a crash in the code under test is a failure, never a traceback
            out.failure = _crash(prop.name, rules, "(see error)", exc, _seed_text(opts.seed))
            out.status = "FAIL"
        finally:
            release_models()
        out.examples += counter[0]
        out.unknown += counter[1]
        out.rulesets += 1
        if out.failure:
            break
    if skipped:
        out.note = "; ".join(skipped)
    if out.unknown:
        unsettled = f"{out.unknown} cases unknown within the solver's budget (not compared)"
        out.note = "; ".join([*skipped, unsettled])
    if prop.extra.get("once"):
        out.note = "readings drawn per case (any combination)"
    out.seconds = time.perf_counter() - t0
    return out


# --------------------------------------------------------------------------- edge cases


def _edge_outcome(name: str, description: str, params: Sequence[str], opts: Options,
                  cases: Callable[[Ruleset], list[E.EdgeCase]],
                  run: Callable[[E.EdgeCase, Ruleset], None]) -> PropertyResult:
    with _bounded(opts):
        return _edge_run(name, description, params, opts, cases, run)


def _edge_run(name: str, description: str, params: Sequence[str], opts: Options,
              cases: Callable[[Ruleset], list[E.EdgeCase]],
              run: Callable[[E.EdgeCase, Ruleset], None]) -> PropertyResult:
    out = PropertyResult(name, "edge cases", description)
    t0 = time.perf_counter()
    chosen = {r.name for r in opts.rulesets}
    impossible: set[tuple[int, str]] = set()
    for rules, names in E.distinct_rulesets(params):
        covered = [n for n in names if n in chosen]
        if not covered:
            continue
        rep = RULESETS[covered[0]] if covered[0] in RULESETS else rules
        if _past(opts.deadline):  # the run's time is up: this group is not enumerated
            out.unknown += 1
            out.rulesets += len(covered)
            continue
        try:
            group = cases(rep)
        except Exception as exc:  # a crash enumerating the cases is a failure, never a traceback
            out.failure = _crash(name, rep, "(enumerating the cases)", exc, "")
            out.status = "FAIL"
            break
        if any(c.unknown for c in group):
            E.forget_unknown()  # cached cases the run's budget left open: not kept for later runs
        for case in group:
            if case.unknown or _past(opts.deadline):  # out of budget: never read as impossible
                out.unknown += 1
                continue
            if case.value is None:
                impossible.add((case.seats, case.structure))
                continue
            try:
                run(case, rep)
            except Mismatch as exc:
                exc.case = f"{case.kind} structure {case.structure}: {exc.case}"
                out.failure = _failure(name, rep, exc, None)
                out.failure.seed = ""
                out.status = "FAIL"
                break
            except Exception as exc:  # a crash in the code under test is a failure, never a traceback
                out.failure = _crash(name, rep, f"{case.kind} structure {case.structure}", exc, "")
                out.status = "FAIL"
                break
            out.examples += 1
        out.rulesets += len(covered)
        if out.failure:
            break
    if impossible:
        out.note = f"{len(impossible)} structures impossible within the deck (solver: unsat)"
    out.seconds = time.perf_counter() - t0
    return out


def _maki(rules: Ruleset) -> list[E.EdgeCase]:
    return [c for n in E.seat_range(rules) for c in E.maki_cases(n, rules)]


def _pudding(rules: Ruleset) -> list[E.EdgeCase]:
    return [c for n in E.seat_range(rules) for c in E.pudding_cases(n, rules)]


def _run_round(case: E.EdgeCase, rules: Ruleset) -> None:
    assert case.value is not None
    compare_round(case.value, rules)  # type: ignore[arg-type]


def _run_maki(case: E.EdgeCase, rules: Ruleset) -> None:
    assert case.value is not None
    compare_maki(case.value, rules)  # type: ignore[arg-type]


def _run_pudding(case: E.EdgeCase, rules: Ruleset) -> None:
    assert case.value is not None
    compare_pudding(case.value, rules)  # type: ignore[arg-type]


def _wasabi(rules: Ruleset) -> list[E.EdgeCase]:
    empty = Tableau((0,) * len(Token))
    seats = min(E.seat_range(rules))
    rest = [empty] * (seats - 1)
    return [E.EdgeCase("wasabi", S.format_picks(o), seats, (tableau_of_picks(o, rules), *rest))
            for o in E.wasabi_orders()]


def _run_wasabi(case: E.EdgeCase, rules: Ruleset) -> None:
    # The executor plays the order one card a turn (check_pick_order), then the table is scored.
    check_pick_order(S.Table((tuple(Card[w.upper()] for w in case.structure.split()),)), rules)
    compare_round(case.tableaux(), rules)


def _exercised_by(family: str) -> tuple[str, ...]:
    """The readings whose parameter names ``family`` as the check that exercises them."""
    return tuple(p.name for p in PARAMETERS if p.check_family == family)


EDGE_NAMES = ("edge-maki-ties", "edge-pudding-ties", "edge-dish-counts", "edge-wasabi-orders")


def run_edges(opts: Options) -> list[PropertyResult]:
    jobs = [
        ("edge-maki-ties", "every maki icon tie structure, 2..5 seats, scored: executor = Z3 model",
         _exercised_by("edge-maki-ties"), _maki, _run_maki),
        ("edge-pudding-ties", "every pudding tie structure, 2..5 seats: executor = Z3 model",
         _exercised_by("edge-pudding-ties"), _pudding, _run_pudding),
        ("edge-dish-counts", "every count of every scoring card one tableau can hold",
         (), E.dish_cases, _run_round),
        ("edge-wasabi-orders", "every order of up to 4 wasabi and nigiri picks, played and scored",
         _exercised_by("edge-wasabi-orders"), _wasabi, _run_wasabi),
    ]
    outs = []
    for name, desc, params, cases, run in jobs:
        if opts.only and name not in opts.only:
            continue
        if opts.progress:
            opts.progress(name)
        outs.append(_edge_outcome(name, desc, params, opts, cases, run))
        if opts.stop_early and outs[-1].failure:
            break
    return outs


def run_all(opts: Options) -> list[PropertyResult]:
    outs: list[PropertyResult] = []
    if opts.edge:
        outs += run_edges(opts)
        if opts.stop_early and any(o.failure for o in outs):
            return outs
    for prop in all_properties():
        if opts.only and prop.name not in opts.only:
            continue
        if opts.progress:
            opts.progress(prop.name)
        outs.append(run_given(prop, opts))
        if opts.stop_early and outs[-1].failure:
            break
    return outs


def table_rows(outs: Sequence[PropertyResult]) -> list[list[Any]]:
    rows = []
    for o in outs:
        result = o.status if not o.note else f"{o.status}: {o.note}"
        rows.append([o.prop, o.family, o.rulesets, o.examples, f"{o.seconds:.1f}", result])
    return rows


HEADERS = ["property", "family", "rulesets", "examples", "time (s)", "result"]


def terminal_progress(enabled: bool) -> Callable[[str], None] | None:
    if not enabled or not sys.stderr.isatty():
        return None

    def show(name: str) -> None:
        print(f"\r\033[K  checking {name} ...", end="", file=sys.stderr, flush=True)

    return show


# --------------------------------------------------------------------------- mutants

#: Cheap properties first: a mutant run stops at the first property that catches it.
MUTANT_ORDER = ("pudding-scores", "turn-rules", "pick-orders", "round-scores", "winners", "turn-machine",
                "edge-pudding-ties", "edge-dish-counts", "edge-wasabi-orders", "edge-maki-ties",
                "executor-games", "game-totals")


@dataclass
class MutantOutcome:
    name: str
    pitfall: str
    rule_id: str
    caught_by: str | None
    ruleset: str
    case: str
    seconds: float
    complete: bool = True  # False: a stop came before every property had run against it

    def as_dict(self) -> dict[str, Any]:
        return {"mutant": self.name, "pitfall": self.pitfall, "rule_id": self.rule_id,
                "caught_by": self.caught_by, "ruleset": self.ruleset, "case": self.case,
                "seconds": round(self.seconds, 3), "complete": self.complete}


def _ordered(names: Sequence[str]) -> list[str]:
    rank = {n: k for k, n in enumerate(MUTANT_ORDER)}
    return sorted(names, key=lambda n: rank.get(n, len(rank)))


def run_one(name: str, opts: Options) -> PropertyResult:
    # The models built once per shape serve every ruleset of the task; they go with it, so a
    # serial run holds one task's templates at a time (a worker of a parallel run ends anyway).
    try:
        if name in EDGE_NAMES:
            sub = Options(examples=opts.examples, seed=opts.seed, rulesets=opts.rulesets, only=(name,),
                          budget=opts.budget, deadline=opts.deadline)
            return run_edges(sub)[0]
        prop = next(p for p in all_properties() if p.name == name)
        return run_given(prop, opts)
    finally:
        release_templates()


def run_mutants(opts: Options, names: Sequence[str] = ()) -> list[MutantOutcome]:
    from sushigo.checks.mutants import MUTANT_BY_NAME, MUTANTS

    chosen = [MUTANT_BY_NAME[n] for n in names] if names else list(MUTANTS)
    props = [p.name for p in all_properties()] + list(EDGE_NAMES)
    if opts.only:
        props = [p for p in props if p in opts.only]
    outs = []
    for k, mutant in enumerate(chosen):
        if opts.progress:
            opts.progress(f"mutant {mutant.name}")
        t0 = time.perf_counter()
        caught: PropertyResult | None = None
        try:
            with mutant.active():
                for name in _ordered(props):
                    o = run_one(name, opts)
                    if o.failure:
                        caught = o
                        break
        except KeyboardInterrupt:
            # Stopped: this mutant and the rest were neither caught nor missed.
            outs += [MutantOutcome(m.name, m.pitfall, m.rule_id, None, "", "", 0.0, complete=False)
                     for m in chosen[k:]]
            return outs
        f = caught.failure if caught else None
        outs.append(MutantOutcome(mutant.name, mutant.pitfall, mutant.rule_id,
                                  caught.prop if caught else None, f.ruleset if f else "",
                                  f.case if f else "", time.perf_counter() - t0))
    return outs


# --------------------------------------------------------------------------- parallel

#: The task function of one property, and of one mutant (:mod:`sushigo.jobs`: JSON in, JSON out).
TASK = "sushigo.checks.runner:run_task"
MUTANT_TASK = "sushigo.checks.runner:run_mutant_task"
#: Started first, so the workers finish together: the tasks of most CPU seconds at the default
#: budget, as ``benchmarks/bench_check.py --tasks`` measured them (2026-12-01, load 1.5:
#: executor-games 7.2 s, solver-best 3.8, game-totals 3.4, turn-machine 3.2, solver-tableaux 2.9,
#: mixed-readings 2.5, round-scores 2.4; the rest 1.8 or less).
SLOW = ("executor-games", "solver-best", "game-totals", "turn-machine", "solver-tableaux", "mixed-readings",
        "round-scores")


def options_json(opts: Options) -> dict[str, Any]:
    """``opts`` as a task's JSON (progress and stop_early stay with the caller)."""
    from sushigo.jobs import ruleset_json

    budget = None if opts.budget is None else dataclasses.asdict(opts.budget)
    return {"examples": opts.examples, "seed": opts.seed,
            "rulesets": [ruleset_json(r) for r in opts.rulesets], "only": list(opts.only), "edge": opts.edge,
            "budget": budget, "deadline": opts.deadline}


def options_from_json(doc: dict[str, Any]) -> Options:
    from sushigo.jobs import ruleset_from_json

    return Options(examples=doc["examples"], seed=doc["seed"],
                   rulesets=[ruleset_from_json(r) for r in doc["rulesets"]], only=tuple(doc["only"]),
                   edge=doc["edge"], budget=None if doc["budget"] is None else Budget(**doc["budget"]),
                   deadline=doc["deadline"])


def outcome_from_json(doc: dict[str, Any]) -> PropertyResult:
    """The :class:`PropertyResult` of :meth:`PropertyResult.as_dict` (``seconds`` as sent, unrounded)."""
    f = doc["failure"]
    failure = None if f is None else Failure(
        f["property"], f["ruleset"], f["case"], f["expected"], f["actual"], f["expected_by"],
        f["actual_by"], tuple(f["rule_ids"]), f["seed"])
    return PropertyResult(doc["property"], doc["family"], doc["description"], doc["rulesets"],
                          doc["examples"], doc["seconds"], doc["result"], doc["note"], unknown=doc["unknown"],
                          failure=failure)


@contextlib.contextmanager
def _worker_warnings() -> Iterator[None]:
    """On a Dask worker, the worker's own threads (heartbeats, the event loop) use the ``random``
    module while a strategy draws, and Hypothesis warns as if the strategy had: the examples do
    not depend on it (derandomized or seeded per task), so that warning is not shown."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Do not use the `random` module", HypothesisDeprecationWarning)
        yield


def run_task(doc: dict[str, Any]) -> dict[str, Any]:
    """One property (or edge-case family) ``doc["name"]`` under ``doc["options"]``: a job's task."""
    with _worker_warnings():
        out = run_one(doc["name"], options_from_json(doc["options"]))
    return {**out.as_dict(), "seconds": out.seconds}


def run_mutant_task(doc: dict[str, Any]) -> dict[str, Any]:
    """One mutant ``doc["name"]`` held against the properties: a job's task."""
    with _worker_warnings():
        out = run_mutants(options_from_json(doc["options"]), [doc["name"]])[0]
    return {**out.as_dict(), "seconds": out.seconds}


def task_names(opts: Options) -> list[str]:
    names = [*EDGE_NAMES] if opts.edge else []
    names += [p.name for p in all_properties()]
    return [n for n in names if not opts.only or n in opts.only]


def _where(jobs: int | Any) -> Any:
    from sushigo.jobs import Runner

    return jobs if isinstance(jobs, Runner) else Runner(jobs)


def run_parallel(opts: Options, jobs: int | Any) -> list[PropertyResult]:
    """Every property (and the edge cases) as its own task on ``jobs`` worker processes (or a
    :class:`sushigo.jobs.Runner`: local processes or a Dask cluster).

    Results are the same as a serial run: each task is deterministic on its own
    (derandomized or seeded per task), so the split does not change the examples.
    """
    from sushigo import jobs as J

    names = task_names(opts)
    where = _where(jobs)
    plain = options_json(opts)
    tasks = [J.Task(n, {"name": n, "options": plain}, slow=n in SLOW) for n in names]
    results: dict[str, PropertyResult] = {}

    def done(k: int, answer: dict[str, Any]) -> None:
        results[names[k]] = outcome_from_json(answer)
        if opts.progress and where.spread:
            opts.progress(f"{len(results)}/{len(names)} done ({names[k]})")
        elif opts.progress and k + 1 < len(names):
            opts.progress(names[k + 1])

    try:
        if opts.progress and names and not where.spread:
            opts.progress(names[0])
        J.run(TASK, tasks, where, done)
    except KeyboardInterrupt:
        # Stopped: the finished rows stand, every other row says it is incomplete (never "ok").
        return [results.get(n) or _incomplete(n) for n in names]
    return [results[n] for n in names]


def run_mutants_parallel(opts: Options, names: Sequence[str], jobs: int | Any) -> list[MutantOutcome]:
    """Every mutant as its own task (as :func:`run_parallel`); a stop leaves the unfinished ones
    incomplete, never caught or missed."""
    from sushigo.checks.mutants import MUTANT_BY_NAME, MUTANTS

    from sushigo import jobs as J

    chosen = [MUTANT_BY_NAME[n] for n in names] if names else list(MUTANTS)
    where = _where(jobs)
    plain = options_json(opts)
    tasks = [J.Task(m.name, {"name": m.name, "options": plain}) for m in chosen]
    results: dict[int, MutantOutcome] = {}

    def done(k: int, d: dict[str, Any]) -> None:
        results[k] = MutantOutcome(d["mutant"], d["pitfall"], d["rule_id"], d["caught_by"], d["ruleset"],
                                   d["case"], d["seconds"], d["complete"])
        if opts.progress and k + 1 < len(chosen):
            opts.progress(f"mutant {chosen[k + 1].name}" if not where.spread
                          else f"{len(results)}/{len(chosen)} mutants done ({chosen[k].name})")

    try:
        if opts.progress and chosen:
            opts.progress(f"mutant {chosen[0].name}")
        J.run(MUTANT_TASK, tasks, where, done)
    except KeyboardInterrupt:
        pass
    return [results.get(k) or MutantOutcome(m.name, m.pitfall, m.rule_id, None, "", "", 0.0, complete=False)
            for k, m in enumerate(chosen)]


def _incomplete(name: str) -> PropertyResult:
    prop = next((p for p in all_properties() if p.name == name), None)
    family, desc = (prop.family, prop.description) if prop else ("edge cases", name)
    return PropertyResult(name, family, desc, status=INCOMPLETE, note="interrupted before it finished")


def interrupted(outs: Sequence[PropertyResult]) -> bool:
    return any(o.status == INCOMPLETE for o in outs)
