"""From the round scores of a whole table back to its tableaux (``sushigo table``).

A table is one tableau per seat, each holding exactly the hand size's number of
cards, all within the deck together, whose round scores (maki ranking
included) are exactly the given ones. Optional knowledge narrows it: a partial
tableau per player (at least these tokens), exact counts of a card or stack,
exact maki icons. In the dummy-2p variant the dummy is a hidden third seat
unless its score is given too.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

import z3
from sushigo.solver.tableaux import without_tokens
from sushigo.spec.answer import Answer, PossibleStatus
from sushigo.spec.cards import Card, Token
from sushigo.spec.document import check_format
from sushigo.spec.errors import BudgetSpent, InputError
from sushigo.spec.model import budget
from sushigo.spec.model.budget import Budget
from sushigo.spec.model.core import Model
from sushigo.spec.model.scoring import card_count_terms, round_terms, size_term, tableau_vars
from sushigo.spec.numbers import parse_whole
from sushigo.spec.record import rules_fields
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.tableau import Tableau, tableau_from_json

DEFAULT_TIMEOUT_MS = 120_000  # wall-clock safety net only
#: Optional format tag of a table query document (older ones have none).
QUERY_FORMAT = "sushigo-table-query/1"
DEFAULT_RLIMIT = 300_000_000  # Z3 resource units per call (deterministic, about 10 s of CPU)


@dataclass(frozen=True)
class Known:
    """What is known about one player's tableau."""

    has: Tableau | None = None  # at least these tokens
    counts: tuple[tuple[str, int], ...] = ()  # exact: card name (physical cards) or stack name
    icons: int | None = None


@dataclass(frozen=True)
class TableQuery:
    rules: Ruleset
    scores: tuple[int, ...]  # per player (the dummy's too, when given)
    known: tuple[Known, ...] = ()
    names: tuple[str, ...] = ()

    @property
    def players(self) -> int:
        if self.rules.dummy_2p and len(self.scores) == 3:
            return 2
        return len(self.scores)

    @property
    def seats(self) -> int:
        return self.rules.seats(self.players)

    def seat_name(self, i: int) -> str:
        if i < len(self.names):
            return self.names[i]
        return "dummy" if i >= self.players else f"P{i + 1}"


def parse_query(data: Mapping[str, Any], rules: Ruleset) -> TableQuery:
    """A query from JSON: ``{"scores": [...], "names": [...], "known": [{"player": 1, "has": "...",
    "counts": {"squid": 2}, "icons": 5}, ...]}`` (players numbered from 1)."""
    check_format(data, QUERY_FORMAT, "table query")
    scores = data.get("scores")
    if not isinstance(scores, list) or not scores or not all(isinstance(x, int) for x in scores):
        raise InputError(f'"scores" must be a list of round scores, one per player, got {scores!r}')
    names = data.get("names", [])
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
        raise InputError(f'"names" must be a list of player names, got {names!r}')
    q = TableQuery(rules, tuple(scores), (), tuple(names))
    rules.hand_size(q.players)  # a wrong player count is reported here
    known = [Known() for _ in range(q.seats)]
    entries = data.get("known", [])
    if not isinstance(entries, list):
        raise InputError(f'"known" must be a list of {{"player": N, ...}} objects, got {entries!r}')
    for e in entries:
        if not isinstance(e, dict) or not isinstance(e.get("player"), int):
            raise InputError(f'each "known" entry needs "player": a number from 1, got {e!r}')
        p = e["player"]
        if not 1 <= p <= q.seats:
            raise InputError(f"known player {p} is not at the table (players 1..{q.seats})")
        has = tableau_from_json(e["has"], f"known player {p} has") if "has" in e else None
        counts = e.get("counts", {})
        if not isinstance(counts, dict) or not all(isinstance(v, int) and v >= 0 for v in counts.values()):
            raise InputError(f'"counts" must map card names to counts, got {counts!r}')
        for name in counts:
            without_tokens(name)  # validates the name, with a suggestion
        icons = e.get("icons")
        if icons is not None and (not isinstance(icons, int) or icons < 0):
            raise InputError(f'"icons" must be a count of maki icons, got {icons!r}')
        old = known[p - 1]
        merged_has = has if old.has is None else (
            old.has if has is None else Tableau(tuple(a + b for a, b in zip(old.has.counts, has.counts,
                                                                            strict=True))))
        known[p - 1] = Known(merged_has, old.counts + tuple(counts.items()), icons if icons is not None
                             else old.icons)
    return TableQuery(rules, q.scores, tuple(known), q.names)


@dataclass
class TableModel:
    query: TableQuery
    model: Model
    tabs: list[list[z3.ArithRef]]
    terms: list[dict[str, z3.ArithRef]]


def build(q: TableQuery) -> TableModel:
    rules = q.rules
    k = rules.hand_size(q.players)
    m = Model()
    tabs = [tableau_vars(m, f"tab_p{i}", rules) for i in range(q.seats)]
    for i, t in enumerate(tabs):
        m.add("R-HAND-SIZE", size_term(t) == k, q.seat_name(i))
    used = [card_count_terms(t) for t in tabs]
    for card in Card:
        m.add("R-DECK", z3.Sum([u[int(card)] for u in used]) <= rules.copies(card), card.label)
    terms = round_terms(m, "round", tabs, rules)
    for i, score in enumerate(q.scores):
        m.add("SCORE", terms[i]["total"] == score, q.seat_name(i))
    for i, kn in enumerate(q.known):
        t = tabs[i]
        if kn.has is not None:
            m.add("KNOWN", [t[int(tok)] >= n for tok, n in zip(Token, kn.has.counts, strict=True) if n],
                  q.seat_name(i))
        for name, n in kn.counts:
            m.add("KNOWN", z3.Sum([t[int(tok)] for tok in without_tokens(name)]) == n, q.seat_name(i))
        if kn.icons is not None:
            m.add("KNOWN", terms[i]["icons"] == kn.icons, q.seat_name(i))
    return TableModel(q, m, tabs, terms)


@dataclass(frozen=True)
class MakiFact:
    seat: int
    place: str  # "first" | "second" | "none"


#: A budget for a whole run (the name ``sushigo table`` has used): :meth:`Budget.for_run`.
RunBudget = Budget.for_run

#: No budget for the run as a whole (each call keeps its own safety nets).
NO_BUDGET = RunBudget()


@dataclass(frozen=True)
class Spent:
    """What a run used: wall-clock seconds and Z3 resource units (all its calls together)."""

    seconds: float
    rlimit: int

    def describe(self) -> str:
        return f"{self.seconds:.1f} s, rlimit {self.rlimit}"


@dataclass(frozen=True)
class TableAnswer(Answer[PossibleStatus]):
    """Whether a table of scores can come from one round: possible (a witness, the count of tables
    and what every table shares), impossible, or unknown (the budget it spent)."""

    status: PossibleStatus
    witness: tuple[Tableau, ...] | None = None
    count: int = 0
    complete: bool = False  # count is exact (else a lower bound)
    maki: tuple[MakiFact, ...] = ()
    minimum: tuple[tuple[int, ...], ...] = ()  # [seat][card] proved minimum
    reason: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    budget: Budget = NO_BUDGET
    spent: Spent | None = None
    finished: bool = True  # False: the run budget ran out; witness and count are what it had so far


class _Run:
    """Every check of one run, under the run's budget, in a Z3 context of its own (so the same
    question takes the same steps whatever the process asked before: an rlimit stop lands on
    the same table every time); reports progress before each call."""

    def __init__(self, tm: TableModel, run: Budget, timeout_ms: int,
                 progress: Callable[[str], None] | None) -> None:
        self.ctx = z3.Context()
        budget.watch(self.ctx)  # a stop (Ctrl-C) interrupts this context's checks
        self.s = z3.Solver(ctx=self.ctx)
        self.s.add(*[c.translate(self.ctx) for c in tm.model.constraints()])
        self.tabs = [[v.translate(self.ctx) for v in t] for t in tm.tabs]
        self.run = run
        self.timeout_ms = timeout_ms
        self.progress = progress
        self.start = time.monotonic()
        self.rlimit_spent = 0
        self.doing = "looking for a table"

    def spent(self) -> Spent:
        return Spent(time.monotonic() - self.start, self.rlimit_spent)

    def _count(self) -> int:
        stats = self.s.statistics()
        return int(stats.get_key_value("rlimit count")) if "rlimit count" in stats.keys() else 0

    def ask(self, *assumptions: z3.BoolRef) -> bool:
        """sat or unsat; an unknown raises :class:`BudgetSpent`, ``whole_run`` when the run's
        budget was the one that ran out, else not (the per-call safety net). ``assumptions``
        are terms of the model's (main) context."""
        if self.progress is not None:
            self.progress(f"table: {self.doing}")
        call = self.run.next_call(self.start, self.rlimit_spent, self.timeout_ms, DEFAULT_RLIMIT)
        if call is None:
            raise BudgetSpent(whole_run=True)
        timeout_ms, rlimit, capped = call
        before = self._count()
        try:
            answer = budget.decide(self.s, budget.Budget(timeout_ms, rlimit),
                                   [a.translate(self.ctx) for a in assumptions])
        finally:
            self.rlimit_spent += max(0, self._count() - before)
        if answer.status == "unknown":
            if capped:
                raise BudgetSpent(whole_run=True)
            raise BudgetSpent.unknown(self.s.reason_unknown(), f"rlimit {DEFAULT_RLIMIT} per call")
        return answer.sat

    def read(self) -> tuple[Tableau, ...]:
        """The table of the last sat answer."""
        mdl = self.s.model()
        return tuple(Tableau(tuple(mdl.eval(v, model_completion=True).as_long() for v in t))
                     for t in self.tabs)

    def block(self, table: tuple[Tableau, ...]) -> None:
        """Every later answer differs from ``table`` (the count's blocking clause)."""
        self.s.add(z3.Or([v != n for t, tab in zip(self.tabs, table, strict=True)
                          for v, n in zip(t, tab.counts, strict=True)]))


@contextmanager
def _stops_at_calls() -> Iterator[None]:
    """Within :func:`budget.stop_on_signals`, a stop (SIGINT, SIGTERM) is raised at the run's next
    solver call (:func:`budget.decide` raises KeyboardInterrupt there) instead of wherever Python
    happens to be: the count makes and drops thousands of Z3 terms, and a KeyboardInterrupt
    raised in a term's finalizer is printed as an ignored exception and lost."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.getsignal(sig) for sig in budget.STOP_SIGNALS}
    if not all(h is budget._handler for h in previous.values()):  # the caller handles stops itself
        yield
        return

    def defer(signum: int, frame: FrameType | None) -> None:
        budget.request_stop(signum)  # interrupts the running check; decide raises after it

    try:
        for sig in previous:
            signal.signal(sig, defer)
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
        budget.stop_point()  # a stop that came after the last call still ends the run


def solve(q: TableQuery, limit: int = 20, timeout_ms: int = DEFAULT_TIMEOUT_MS, run: Budget = NO_BUDGET,
          progress: Callable[[str], None] | None = None) -> TableAnswer:
    """One witness, the number of tables (exact up to ``limit``), maki places and minimum cards
    that hold in every solution (each proved by an unsat check).

    ``run`` bounds the whole run; when it runs out the answer is "unknown" with ``finished``
    False, holding the witness and the tables counted so far (a lower bound) and no facts.
    ``progress`` is told what the run is doing before every solver call (``sushigo table``
    shows it on a terminal). A stop (Ctrl-C, SIGTERM) raises KeyboardInterrupt."""
    with _stops_at_calls():
        tm = build(q)
        r = _Run(tm, run, timeout_ms, progress)
        try:
            return _solve(q, tm, r, limit)
        except z3.Z3Exception:
            # A stop that lands between a check and reading its model cancels the read.
            if not budget.stop_requested():
                raise
            # Any call that resets the context's error code: Z3_interrupt (a second stop
            # request) would otherwise raise the stale "canceled".
            z3.IntSort(r.ctx)
            raise KeyboardInterrupt from None


def _solve(q: TableQuery, tm: TableModel, r: _Run, limit: int) -> TableAnswer:
    run = r.run
    witness: tuple[Tableau, ...] | None = None
    count = 0
    complete = False
    try:
        if not r.ask():
            return TableAnswer("impossible", budget=run, spent=r.spent())
        # count: enumerate with blocking clauses up to the limit (the witness is the first table)
        witness = r.read()
        r.s.push()
        r.block(witness)
        count = 1
        while count < limit:
            r.doing = f"{count} table{'' if count == 1 else 's'} counted"
            if not r.ask():
                complete = True
                break
            r.block(r.read())
            count += 1
        r.s.pop()
        r.doing = f"{count}{'' if complete else ' or more'} tables; proving what every solution holds"
        maki = []
        for i in range(q.seats):
            first = tm.model.bools[f"round_p{i}_maki_first"]
            second = tm.model.bools[f"round_p{i}_maki_second"]
            if not r.ask(z3.Not(first)):
                maki.append(MakiFact(i, "first"))
            elif not r.ask(z3.Not(second)):
                maki.append(MakiFact(i, "second"))
            elif not r.ask(z3.Or(first, second)):
                maki.append(MakiFact(i, "none"))
        minimum = []
        wit_cards = [t.card_counts() for t in witness]
        for i, t in enumerate(tm.tabs):
            cc = card_count_terms(t)
            row = []
            for c in Card:
                lo = 0
                # raise the bound while "fewer than lo + 1" is impossible; the witness caps the search
                while lo < wit_cards[i][int(c)] and not r.ask(cc[int(c)] <= lo):
                    lo += 1
                row.append(lo)
            minimum.append(tuple(row))
    except BudgetSpent as exc:
        if not exc.whole_run:
            return TableAnswer("unknown", reason=str(exc), budget=run, spent=r.spent())
        spent = r.spent()
        reason = f"run budget spent ({run.describe_run()}; used {spent.describe()}) while {r.doing}"
        return TableAnswer("unknown", witness, count, complete, reason=reason, budget=run, spent=spent,
                           finished=False)
    return TableAnswer("possible", witness, count, complete, tuple(maki), tuple(minimum), budget=run,
                       spent=r.spent())


def answer_json(q: TableQuery, a: TableAnswer) -> dict[str, Any]:
    out: dict[str, Any] = {"possible": {"possible": True, "impossible": False}.get(a.status)}
    if a.witness is not None:
        out.update(rules_fields(q.rules))  # the witness re-scores to the scores under these rules
        out["seats"] = [q.seat_name(i) for i in range(q.seats)]
        out["witness"] = [str(t) for t in a.witness]
        out["count"] = a.count
        out["more"] = not a.complete
        if a.finished:  # after a spent budget no fact was proved for every solution: none shown
            out["maki"] = {q.seat_name(f.seat): f.place for f in a.maki}
            out["minimum"] = {
                q.seat_name(i): {c.label: n for c, n in zip(Card, row, strict=True) if n}
                for i, row in enumerate(a.minimum)
            }
    if a.reason:
        out["reason"] = a.reason
    out["complete"] = a.status != "unknown"
    if a.spent is not None and (a.budget != NO_BUDGET or not a.finished):
        out["budget"] = {**a.budget.run_json(), "seconds_spent": round(a.spent.seconds, 3),
                         "rlimit_spent": a.spent.rlimit}
    return out


def parse_player_item(text: str, what: str) -> tuple[int, str]:
    """``P:REST`` from the command line (players numbered from 1)."""
    head, sep, rest = text.partition(":")
    if not sep or not head.strip().isdigit():
        raise InputError(f"{what} {text!r} must look like PLAYER:VALUE with PLAYER a number from 1")
    return parse_whole(head, f"{what} {text!r}: player", 1), rest.strip()


def query_from_options(rules: Ruleset, scores: Sequence[int], names: Sequence[str], has: Sequence[str],
                       counts: Sequence[str], icons: Sequence[str]) -> TableQuery:
    known: list[dict[str, Any]] = []
    for item in has:
        p, rest = parse_player_item(item, "--has")
        known.append({"player": p, "has": rest})
    for item in counts:
        p, rest = parse_player_item(item, "--count")
        name, sep, n = rest.partition("=")
        if not sep or not n.strip().isdigit():
            raise InputError(f"--count {item!r} must look like PLAYER:NAME=N, e.g. 1:squid=2")
        known.append({"player": p, "counts": {name.strip(): parse_whole(n, f"--count {item!r}: count")}})
    for item in icons:
        p, rest = parse_player_item(item, "--icons")
        if not rest.isdigit():
            raise InputError(f"--icons {item!r} must look like PLAYER:N, e.g. 2:5")
        known.append({"player": p, "icons": parse_whole(rest, f"--icons {item!r}: icons")})
    return parse_query({"scores": list(scores), "names": list(names), "known": known}, rules)
