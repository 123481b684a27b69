"""Every independent fault of a target, each minimised, each attributed by a test.

The search (one *side* at a time: round scoring, pudding scoring):

1. Compare every case; a case fails when the target's answer differs from the
   *composite*: the reference with every fault found so far planted in it.
2. Take the first failing case and split it into single-category cases (only maki,
   only dumplings, ...). The categories whose points differ isolate the fault; the
   first such category's case is minimised (single-category cases only).
3. Attribute it: a reading or pitfall that, planted in that category, reproduces the
   target on the minimised case, changes no case the target gets right, and reproduces
   it on the most failing cases of the category, models the fault. With none, the
   category's points are taken from the target itself from then on, and the rule ids
   come from the unsat core (under a budget) of the minimised case. A failure that no
   single-category case shows is a fault of the round total (R-ROUND-TOTAL).
4. Plant the fault in the composite and go on (1) until no case fails or time is up.

Last, each fault's reported case is minimised again among the cases on which it alone
explains the target and no other fault changes anything, so each one reads on its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sushigo.checks import edge_cases as E
from sushigo.checks.conform import cases as K
from sushigo.checks.conform.engine import Engine, Reply
from sushigo.checks.conform.pitfalls import Candidate, candidates
from sushigo.checks.properties import ROUND_KEYS, explain_within, pudding_model, round_model
from sushigo.spec.cards import Card
from sushigo.spec.model.budget import Budget
from sushigo.spec.model.core import Core
from sushigo.spec.ruleset import Ruleset

#: A case the run's deadline left unasked: no score, and no adapter fault either.
NO_ANSWER = Reply(None)
#: Fewer cases than this are asked here, not spread (starting a worker's engine costs more).
SPREAD_AT = 256
MAX_FAULTS = 24  # a target this broken is reported by its first 24 faults
_PADS = 30  # cases the target scores right tried as padding around a fault's trigger


class RunClock:
    """A run's wall-clock budget as it is spent: ``seconds`` from ``start`` (by default now) on
    ``clock`` (monotonic). ``phase`` names what the run is doing; the phase in which the deadline
    was first seen is kept in ``hit_in``. The budget itself is a :class:`Budget`
    (:meth:`of`); this is its account."""

    def __init__(self, seconds: float, clock: Callable[[], float], start: float | None = None) -> None:
        self.clock = clock
        self.seconds = seconds
        self.deadline = (clock() if start is None else start) + seconds
        self.hit = False
        self.phase = ""
        self.hit_in = ""

    @classmethod
    def of(cls, budget: Budget, clock: Callable[[], float], start: float | None = None) -> RunClock:
        """The account of ``budget``'s ``run_seconds`` (no limit: none is given, so it never ends)."""
        return cls(math.inf if budget.run_seconds is None else budget.run_seconds, clock, start)

    def expired(self) -> bool:
        if not self.hit and self.clock() >= self.deadline:
            self.hit, self.hit_in = True, self.phase
        return self.hit

    def spend(self) -> None:
        """The deadline was seen elsewhere (a worker stopped on it): the run is cut short here too."""
        if not self.hit:
            self.hit, self.hit_in = True, self.phase

    def left(self) -> float:
        """Seconds left (0 once expired): what a wait on the target may take at most."""
        return 0.0 if self.expired() else max(0.0, self.deadline - self.clock())


@dataclass
class Fault:
    side: str  # "round" | "pudding"
    category: str  # a score category, "pudding", or "round total"
    method: str  # reading | pitfall | isolation | round-total | not-isolated
    rule_ids: tuple[str, ...]
    how: str
    trigger: Any  # the minimised single-category case the attribution was made on
    candidate: Candidate | None = None
    case: Any = None  # the reported case
    expected: list[int] = field(default_factory=list)
    got: list[int] = field(default_factory=list)
    cases: int = 0
    first_seen: Any = None
    note: str = ""


@dataclass
class Composite:
    """Per category: a scorer, or None for "the target's own points" (an unmodelled fault)."""

    sources: dict[str, K.Scorer | None]
    interaction: bool = False


class Side:
    """One function of the protocol: how to ask the target, split cases and score them."""

    def __init__(self, kind: str, engine: Engine, rules: Ruleset, z3: Budget, budget: RunClock) -> None:
        self.kind, self.engine, self.rules, self.z3, self.budget = kind, engine, rules, z3, budget
        self.cats = K.CATEGORIES if kind == "round" else ("pudding",)
        self.ref = K.Scorer(rules)
        self.min_seats = min(E.seat_range(rules))
        self.answers: dict[Any, Reply] = {}
        self.calls: list[tuple[Any, Reply]] = []  # every call, in order (adapter faults are read here)
        self._memo: dict[tuple[int, Any, str], tuple[K.Scorer, list[int]]] = {}
        #: Asks many cases at once on other processes (``conform --jobs``); None: the engine here.
        self.spread: Callable[[Side, list[Any]], list[Reply | None]] | None = None

    # ----------------------------------------------------------------- the target

    def ask(self, case: Any) -> Reply:
        """The target's answer; past the deadline a case not asked yet gets :data:`NO_ANSWER`
        (not kept: it is neither a score nor an adapter fault)."""
        hit = self.answers.get(case)
        if hit is None:
            if self.budget.expired():
                return NO_ANSWER
            got = self.engine.call_many(self.fn, [self.request(case)])
            if not got:  # the deadline came during the call
                return NO_ANSWER
            hit = self.answers[case] = got[0]
            self.calls.append((case, hit))
        return hit

    @property
    def fn(self) -> str:
        return "score_round" if self.kind == "round" else "score_puddings"

    def request(self, case: Any) -> tuple[Any, int]:
        """What the target is given for ``case`` (JSON) and how many seats it must answer for."""
        return (K.names(case) if self.kind == "round" else list(case)), len(case)

    def prefetch(self, cases: Sequence[Any]) -> None:
        """Ask every case not asked yet, pipelined (or spread over workers, :attr:`spread`)."""
        todo = list(dict.fromkeys(c for c in cases if c not in self.answers))
        if self.spread is not None and len(todo) >= SPREAD_AT and not self.budget.expired():
            for case, got in zip(todo, self.spread(self, todo), strict=True):
                if got is not None:  # None: the deadline left it unasked
                    self.answers[case] = got
                    self.calls.append((case, got))
            return
        step = 256  # the deadline is looked at between batches
        for k in range(0, len(todo), step):
            if self.budget.expired():
                return
            batch = todo[k:k + step]
            for case, ans in zip(batch, self.engine.call_many(self.fn, [self.request(c) for c in batch]),
                                 strict=False):  # fewer answers when the deadline came
                self.answers[case] = ans
                self.calls.append((case, ans))

    def project_all(self, cases: Sequence[Any], cats: Sequence[str]) -> None:
        """Prefetch the single-category cases (and the empty rounds) of ``cases``."""
        if self.kind == "round":
            empties = [tuple(() for _ in x) for x in cases]
            self.prefetch([K.project(x, c) for x in cases for c in cats] + empties)

    def got(self, case: Any) -> list[int] | None:
        v = self.ask(case).value
        return list(v) if v is not None else None

    def target_cat(self, case: Any, cat: str) -> list[int] | None:
        """The target's points of one category: its answer on the category's case, less its
        answer on the empty round (every category but maki scores nothing there)."""
        if self.kind == "pudding":
            return self.got(case)
        part = self.got(K.project(case, cat))
        if cat == "maki" or part is None:
            return part
        empty = self.got(tuple(() for _ in case))
        return None if empty is None else [a - b for a, b in zip(part, empty, strict=True)]

    # ----------------------------------------------------------------- scorers

    def ref_total(self, case: Any) -> list[int]:
        return self.total(Composite({c: self.ref for c in self.cats}), case)  # type: ignore[return-value]

    def cat(self, comp: Composite, case: Any, cat: str) -> list[int] | None:
        src = comp.sources[cat]
        if src is None:
            return self.target_cat(case, cat)
        key = (id(src), case, cat)
        hit = self._memo.get(key)
        if hit is None:  # the scorer is kept in the entry, so its id stays unique
            hit = (src, src.pudding(case) if self.kind == "pudding" else src.category(case, cat))
            self._memo[key] = hit
        return hit[1]

    def total(self, comp: Composite, case: Any) -> list[int] | None:
        parts = [self.cat(comp, case, c) for c in self.cats]
        if any(p is None for p in parts):
            return None
        return [sum(col) for col in zip(*parts, strict=True)]

    def compose(self, faults: Sequence[Fault]) -> Composite:
        comp = Composite({c: self.ref for c in self.cats})
        for f in faults:
            if f.method == "round-total":
                comp.interaction = True
            elif f.category in comp.sources:
                src = comp.sources[f.category]
                planted = None if f.candidate is None or src is None else f.candidate.apply(src)
                comp.sources[f.category] = planted
        return comp

    def smaller(self, case: Any) -> list[Any]:
        floor = len(case) if self.rules.dummy_2p else self.min_seats
        return K.smaller_round(case, floor) if self.kind == "round" else K.smaller_pudding(case, floor)

    def fmt(self, case: Any) -> str:
        return K.fmt_round(case) if self.kind == "round" else K.fmt_pudding(case)

    def size(self, case: Any) -> tuple[int, int]:
        """(seats, cards or puddings): smaller cases first."""
        return K.size(case)

    def shrink(self, case: Any, keep: Callable[[Any], bool]) -> Any:
        return K.shrink(case, self.smaller, keep, self.budget.expired)

    # ----------------------------------------------------------------- rule ids

    def core(self, case: Any, cat: str, points: list[int]) -> Core:
        """Rule ids of the unsat core of "this category scores ``points`` on ``case``"."""
        if self.kind == "pudding":
            pm = pudding_model(self.rules, len(case))
            return pm.explain_within(list(case), points, self.z3)
        tabs = [K.reference_tableau(p, self.rules) for p in case]
        model = round_model(self.rules, len(tabs))
        facts = model.facts([n for t in tabs for n in t.counts])
        width = len(ROUND_KEYS)  # a seat's outputs: its columns, then its total
        first = width - 1 if cat == "round total" else K_INDEX[cat]
        terms = [model.outputs[k] for k in range(first, len(model.outputs), width)]
        return explain_within(model.m, facts, [t == v for t, v in zip(terms, points, strict=True)], self.z3)


#: Index of each category among a seat's outputs of the round model (checks.properties.ROUND_KEYS).
K_INDEX = {k: i for i, k in enumerate(ROUND_KEYS[:-1])}


def _rule_ids(side: Side, case: Any, cat: str, points: list[int]) -> tuple[tuple[str, ...], str]:
    """(rule ids, note) for an unmodelled fault; the note says when Z3 ran out of budget."""
    if cat == "other":
        ids = ["R-ROUND-TOTAL"] + (["R-PUDDING"] if any(Card.PUDDING in p for p in case) else [])
        return tuple(ids), ""
    core = side.core(case, cat, points)
    if core.status == "unknown":
        return (), f"rule ids unknown: {core.reason}"
    allowed = K.RULES_OF.get(cat)
    ids = [r for r in core.rule_ids if allowed is None or r in allowed]
    if cat == "nigiri" and "R-NIGIRI" in ids and any(Card.WASABI in p for p in case):
        # A placement mistake shows as wrong nigiri points; name the placement rules with it.
        ids += ["R-WASABI-ONE", "R-WASABI-PLACE"]
    return tuple(dict.fromkeys(ids)) or (("R-ROUND-TOTAL",) if cat == "round total" else ()), ""


def find_faults(side: Side, cases: Sequence[Any]) -> list[Fault]:
    """Every independent fault on ``cases`` (already asked), in the order found."""
    faults: list[Fault] = []
    valid = [x for x in cases if x in side.answers and side.answers[x].value is not None]
    skip: set[Any] = set()
    while len(faults) < MAX_FAULTS and not side.budget.expired():
        comp = side.compose(faults)
        side.project_all(valid, [c for c, src in comp.sources.items() if src is None])

        def fails(x: Any, comp: Composite = comp) -> bool:
            want = side.total(comp, x)
            if want is None or side.got(x) == want:
                return False
            return not comp.interaction or any(
                side.target_cat(x, c) != side.cat(comp, x, c) for c in side.cats)

        failing = [x for x in valid if x not in skip and fails(x)]
        if not failing:
            break
        x0 = failing[0]
        side.project_all([x0], side.cats)
        own = {c: side.target_cat(x0, c) for c in side.cats}
        if any(v is None for v in own.values()):
            faults.append(_not_isolated(side, comp, x0, failing, skip))
            continue
        bad = [c for c in side.cats if own[c] != side.cat(comp, x0, c)]
        if not bad:
            side.project_all(failing, side.cats)
            faults.append(_round_total(side, comp, x0, failing))
            continue
        side.project_all(failing, bad[:1])
        faults.append(_category_fault(side, comp, x0, bad[0], failing, valid))
    for k, f in enumerate(faults):
        if f.method in ("reading", "pitfall", "isolation"):
            _report_case(side, f, faults[:k] + faults[k + 1:], valid)
        else:
            f.case = f.trigger
        f.expected, f.got = side.ref_total(f.case), side.got(f.case) or []
    return faults


def _category_fault(side: Side, comp: Composite, x0: Any, cat: str, failing: list[Any],
                    valid: list[Any]) -> Fault:
    def differs(y: Any) -> bool:
        t = side.target_cat(y, cat)
        return t is not None and t != side.cat(comp, y, cat)

    start = K.project(x0, cat) if side.kind == "round" else x0
    trigger = side.shrink(start, differs)
    in_cat = [x for x in failing if differs(x)]
    base = comp.sources[cat]
    assert base is not None  # a category taken from the target cannot differ from it
    passing = [x for x in valid if side.got(x) == side.total(comp, x)]
    best: tuple[int, Candidate] | None = None
    near: tuple[int, int, Candidate] | None = None
    for cand in candidates(cat, side.rules):
        if side.budget.expired():
            break
        planted = replace(comp, sources={**comp.sources, cat: cand.apply(base)})
        if side.cat(planted, trigger, cat) != side.target_cat(trigger, cat):
            continue
        if any(side.cat(planted, x, cat) != side.cat(comp, x, cat) for x in passing):
            continue  # it would change a case the target gets right
        fires = [x for x in in_cat if side.cat(planted, x, cat) != side.cat(comp, x, cat)]
        hits = sum(1 for x in fires if side.cat(planted, x, cat) == side.target_cat(x, cat))
        if hits < len(fires):
            # It fires where the target does something else: not the target's fault, only near it.
            if near is None or hits > near[0]:
                near = (hits, len(fires), cand)
        elif best is None or hits > best[0]:
            best = (hits, cand)
    what = f"{cat} cards" if side.kind == "round" else "pudding counts"
    if best is not None:
        hits, cand = best
        rest = "" if hits == len(in_cat) else \
            f" (it does not fire on the other {len(in_cat) - hits}: a further fault)"
        how = (f"{cand.describe()} reproduces the target on every failing case where it changes the "
               f"score: {hits} cases isolated to {what}{rest}; it changes no case the target scores right")
        return Fault(side.kind, cat, cand.kind, (cand.rule_id,), how, trigger, cand, cases=hits,
                     first_seen=x0)
    points = side.target_cat(trigger, cat) or []
    ids, note = _rule_ids(side, trigger, cat, points)
    closest = "" if near is None else \
        f" (closest: {near[2].describe()}, right on {near[0]} of the {near[1]} cases where it fires)"
    how = (f"isolated by single-category cases: the target's points for {what} alone are wrong on "
           f"{len(in_cat)} failing cases; no reading or known pitfall reproduces them{closest}; rule ids "
           "from the unsat core of the minimised case")
    return Fault(side.kind, cat, "isolation", ids, how, trigger, None, cases=len(in_cat), first_seen=x0,
                 note=note)


def _round_total(side: Side, comp: Composite, x0: Any, failing: list[Any]) -> Fault:
    def only_total(y: Any) -> bool:
        want = side.total(comp, y)
        return want is not None and side.got(y) not in (None, want) and all(
            side.target_cat(y, c) == side.cat(comp, y, c) for c in side.cats)

    trigger = side.shrink(x0, only_total)
    count = sum(1 for x in failing if only_total(x))
    how = ("every single-category part of the case scores right (each category's points as the "
           "reference gives them); only the round's sum is wrong, so nothing narrower explains it")
    return Fault(side.kind, "round total", "round-total", ("R-ROUND-TOTAL",), how, trigger, cases=count,
                 first_seen=x0)


def _not_isolated(side: Side, comp: Composite, x0: Any, failing: list[Any], skip: set[Any]) -> Fault:
    """The target fails on the single-category cases themselves (see the adapter faults)."""
    def wrong(y: Any) -> bool:
        want = side.total(comp, y)
        return want is not None and side.got(y) not in (None, want)

    trigger = side.shrink(x0, wrong)
    stuck = [x for x in failing if any(side.target_cat(x, c) is None for c in side.cats)]
    skip.update(stuck)
    cats = K.categories_in(trigger) if side.kind == "round" else ("pudding",)
    got = side.got(trigger) or []
    core = side.core(trigger, "round total", got) if side.kind == "round" else \
        side.core(trigger, "pudding", got)
    allowed = {r for c in cats for r in K.RULES_OF.get(c, ())}
    ids = tuple(r for r in core.rule_ids if r in allowed) or ("R-ROUND-TOTAL",)
    how = ("not isolated: the target fails on the single-category cases of this case (see the adapter "
           "faults); rule ids from the unsat core of the whole case, kept to its categories")
    note = f"rule ids unknown: {core.reason}" if core.status == "unknown" else ""
    return Fault(side.kind, "round total", "not-isolated", ids if not note else (), how, trigger,
                 cases=len(stuck), first_seen=x0, note=note)


def _report_case(side: Side, f: Fault, others: list[Fault], valid: list[Any]) -> None:
    """The smallest case on which this fault alone explains the target and no other fault fires."""
    alone, rest = side.compose([f]), side.compose(others)

    def clean(y: Any) -> bool:
        got = side.got(y)
        ref = side.ref_total(y)
        return got is not None and got != ref and side.total(alone, y) == got and side.total(rest, y) == ref

    start = f.trigger if clean(f.trigger) else None
    if start is None and side.kind == "round":
        # Cases that avoid the other faults' triggers: the trigger plus the other cards of a
        # case the target scores right (for a maki fault on empty tableaux: some maki).
        pads = sorted((x for x in valid if len(x) == len(f.trigger) and side.got(x) == side.ref_total(x)),
                      key=K.size)
        for z in pads[:_PADS]:
            y = K.merge(f.trigger, tuple(tuple(c for c in p if K.CATEGORY_OF[c] != f.category) for p in z))
            if clean(y):
                start = y
                break
    if start is None:
        wrong = sorted((x for x in valid if side.got(x) != side.ref_total(x)), key=K.size)
        if f.candidate is None and f.category in side.cats:
            side.project_all(wrong, [f.category])  # an unmodelled fault reads the target's category
        for x in wrong:
            if side.budget.expired():
                break
            if clean(x):
                start = x
                break
    if start is None:
        f.case = f.trigger
        f.note = (f.note + "; " if f.note else "") + "other faults also change the score of this case"
        return
    f.case = side.shrink(start, clean)
