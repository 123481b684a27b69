"""From the round scores of a whole table back to its tableaux (``sushigo table``).

A table is one tableau per seat, each holding exactly the hand size's number of
cards, all within the deck together, whose round scores (maki ranking
included) are exactly the given ones. Optional knowledge narrows it: a partial
tableau per player (at least these tokens), exact counts of a card or stack,
exact maki icons. In the dummy-2p variant the dummy is a hidden third seat
unless its score is given too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3
from sushigo.solver.tableaux import SolverUnknown, without_tokens
from sushigo.spec.cards import Card, Token
from sushigo.spec.document import check_format
from sushigo.spec.errors import InputError
from sushigo.spec.model.budget import Budget, decide
from sushigo.spec.model.core import Model
from sushigo.spec.model.scoring import card_count_terms, round_terms, size_term, tableau_vars
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


@dataclass(frozen=True)
class TableAnswer:
    status: str  # "possible" | "impossible" | "unknown"
    witness: tuple[Tableau, ...] | None = None
    count: int = 0
    complete: bool = False  # count is exact (else a lower bound)
    maki: tuple[MakiFact, ...] = ()
    minimum: tuple[tuple[int, ...], ...] = ()  # [seat][card] proved minimum
    reason: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _check(s: z3.Solver, *assumptions: z3.BoolRef) -> bool:
    answer = decide(s, Budget.kept(), assumptions)  # built with its timeout and DEFAULT_RLIMIT
    if answer.unknown:
        raise SolverUnknown(s.reason_unknown(), f"rlimit {DEFAULT_RLIMIT} per call")
    return answer.sat


def solve(q: TableQuery, limit: int = 20, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> TableAnswer:
    """One witness, the number of tables (exact up to ``limit``), maki places and minimum cards
    that hold in every solution (each proved by an unsat check)."""
    tm = build(q)
    s = tm.model.solver(timeout_ms=timeout_ms, rlimit=DEFAULT_RLIMIT)
    assert isinstance(s, z3.Solver)
    try:
        if not _check(s):
            return TableAnswer("impossible")
        witness = _read(tm, s.model())
        # count: enumerate with blocking clauses up to the limit
        s.push()
        count = 0
        complete = False
        while count < limit:
            if not _check(s):
                complete = True
                break
            mdl = s.model()
            count += 1
            s.add(z3.Or([v != mdl.eval(v, model_completion=True) for t in tm.tabs for v in t]))
        s.pop()
        maki = []
        for i in range(q.seats):
            first = tm.model.bools[f"round_p{i}_maki_first"]
            second = tm.model.bools[f"round_p{i}_maki_second"]
            if not _check(s, z3.Not(first)):
                maki.append(MakiFact(i, "first"))
            elif not _check(s, z3.Not(second)):
                maki.append(MakiFact(i, "second"))
            elif not _check(s, z3.Or(first, second)):
                maki.append(MakiFact(i, "none"))
        minimum = []
        wit_cards = [t.card_counts() for t in witness]
        for i, t in enumerate(tm.tabs):
            cc = card_count_terms(t)
            row = []
            for c in Card:
                lo = 0
                # raise the bound while "fewer than lo + 1" is impossible; the witness caps the search
                while lo < wit_cards[i][int(c)] and not _check(s, cc[int(c)] <= lo):
                    lo += 1
                row.append(lo)
            minimum.append(tuple(row))
    except SolverUnknown as exc:
        return TableAnswer("unknown", reason=str(exc))
    return TableAnswer("possible", witness, count, complete, tuple(maki), tuple(minimum))


def _read(tm: TableModel, mdl: z3.ModelRef) -> tuple[Tableau, ...]:
    return tuple(Tableau(tuple(mdl.eval(v, model_completion=True).as_long() for v in t)) for t in tm.tabs)


def answer_json(q: TableQuery, a: TableAnswer) -> dict[str, Any]:
    out: dict[str, Any] = {"possible": {"possible": True, "impossible": False}.get(a.status)}
    if a.witness is not None:
        out.update(rules_fields(q.rules))  # the witness re-scores to the scores under these rules
        out["seats"] = [q.seat_name(i) for i in range(q.seats)]
        out["witness"] = [str(t) for t in a.witness]
        out["count"] = a.count
        out["more"] = not a.complete
        out["maki"] = {q.seat_name(f.seat): f.place for f in a.maki}
        out["minimum"] = {
            q.seat_name(i): {c.label: n for c, n in zip(Card, row, strict=True) if n}
            for i, row in enumerate(a.minimum)
        }
    if a.reason:
        out["reason"] = a.reason
    return out


def parse_player_item(text: str, what: str) -> tuple[int, str]:
    """``P:REST`` from the command line (players numbered from 1)."""
    head, sep, rest = text.partition(":")
    if not sep or not head.strip().isdigit():
        raise InputError(f"{what} {text!r} must look like PLAYER:VALUE with PLAYER a number from 1")
    return int(head), rest.strip()


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
        known.append({"player": p, "counts": {name.strip(): int(n)}})
    for item in icons:
        p, rest = parse_player_item(item, "--icons")
        if not rest.isdigit():
            raise InputError(f"--icons {item!r} must look like PLAYER:N, e.g. 2:5")
        known.append({"player": p, "icons": int(rest)})
    return parse_query({"scores": list(scores), "names": list(names), "known": known}, rules)
