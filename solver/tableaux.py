"""From one round score back to the tableaux that make it (``sushigo tableaux``).

Semantics (issue 5, pinned): the tableaux are the multisets of the 15 tokens
holding exactly K cards (a stack counts as 2), within the deck's copies, whose
round score is exactly S when the player's maki points are M; M > 0 needs at
least one maki icon, M = 0 allows maki rolls that won nothing.

Enumeration: the Z3 model (:mod:`spec.model.scoring`) holds every constraint.
Models are enumerated with blocking clauses over the *scoring* keys only
(full tempura pairs, full sashimi sets, dumpling, nigiri and stacks); the
cards whose points are fixed whatever their number (a tempura or sashimi
beyond full sets, maki rolls, whose points are the given M, pudding,
chopsticks, a lone wasabi) are then expanded in closed form within their
limits. Every scoring assignment the solver returns has at least one
such completion, because the solver proved the whole tableau exists.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import z3
from sushigo.spec.cards import Card, Token, parse_card, parse_token
from sushigo.spec.errors import BudgetSpent, InputError, NotationError
from sushigo.spec.kinds import KINDS
from sushigo.spec.model.budget import Budget, current_ceiling, decide
from sushigo.spec.model.core import Model, ast_array
from sushigo.spec.model.scoring import (
    card_count_terms,
    dish_terms,
    icons_term,
    size_term,
    tableau_vars,
    total_term,
)
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.tableau import N_TOKENS, Tableau

#: Tokens whose points depend on their counts (a dish kind's, a stack): the solver enumerates
#: these, in token order (tempura and sashimi first: their leftovers are expanded below).
SCORING: tuple[Token, ...] = tuple(t for t in Token if KINDS[int(t.cards[-1])].dish)
#: Tokens scoring nothing by themselves (maki points are given as M): expanded in closed form.
FILLER: tuple[Token, ...] = tuple(t for t in Token if t not in SCORING)

DEFAULT_RLIMIT = 50_000_000


#: The name Z3's giving up raised under before :class:`BudgetSpent` was the one "ran out"
#: exception; kept, library code catches it (raise ``BudgetSpent.unknown(reason, budget)``).
SolverUnknown = BudgetSpent


#: Each check of the enumeration: the solvers are built with ``DEFAULT_RLIMIT`` (a command's
#: ``--timeout``/``--rlimit`` lower it, see :func:`sushigo.spec.model.budget.ceiling`).
CHECK_BUDGET = Budget.kept()


def check(s: z3.Solver | z3.Optimize, *assumptions: z3.BoolRef, budget: str = "") -> bool:
    """True for sat, False for unsat; an unknown raises :class:`BudgetSpent`."""
    answer = decide(s, CHECK_BUDGET, assumptions)
    if answer.unknown:
        limit = Budget(None, DEFAULT_RLIMIT).within(current_ceiling())
        raise BudgetSpent.unknown(s.reason_unknown(), budget or limit.describe())
    return answer.sat


@dataclass(frozen=True)
class Filters:
    """``--must`` (a partial tableau: at least these tokens) and ``--without`` (names)."""

    must: Tableau = field(default_factory=lambda: Tableau((0,) * N_TOKENS))
    without: tuple[str, ...] = ()

    def bounds(self, rules: Ruleset) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Per-token (lower, upper) bounds implied by the filters and the deck."""
        lo = list(self.must.counts)
        hi = [min(rules.copies(c) for c in t.cards) for t in Token]
        for name in self.without:
            for t in without_tokens(name):
                hi[int(t)] = 0
        return tuple(lo), tuple(hi)


def without_tokens(name: str) -> tuple[Token, ...]:
    """A card name rules out every token holding that card; a stack name only that stack."""
    if "+" in name:
        return (parse_token(name),)
    card = parse_card(name)
    return tuple(t for t in Token if card in t.cards)


def parse_filters(must: Sequence[str] = (), without: Sequence[str] = ()) -> Filters:
    counts = [0] * N_TOKENS
    for text in must:
        part = Tableau.parse(text)
        counts = [a + b for a, b in zip(counts, part.counts, strict=True)]
    for name in without:
        without_tokens(name)  # validates the name early, with a suggestion
    return Filters(Tableau(tuple(counts)), tuple(without))


def check_question(cards: int, maki_points: int) -> None:
    """A tableau holds 0 or more cards, and maki points are never negative."""
    if cards < 0:
        raise InputError(f"--cards must be 0 or more, got {cards}")
    if maki_points < 0:
        raise InputError(f"--maki-points must be 0 or more, got {maki_points}")


@dataclass
class TableauModel:
    """The Z3 model of one tableau of K cards scoring S - M dish points (S left free)."""

    model: Model
    counts: list[z3.ArithRef]
    total: z3.ArithRef
    cards: int
    maki_points: int
    rules: Ruleset
    filters: Filters


def build(
    cards: int, maki_points: int = 0, rules: Ruleset = OFFICIAL, filters: Filters | None = None
) -> TableauModel:
    check_question(cards, maki_points)
    filters = filters or Filters()
    prefix = "t"
    m = Model()
    c = tableau_vars(m, prefix, rules)
    used = card_count_terms(c)
    m.add("R-DECK", [n <= rules.copies(card) for card, n in zip(Card, used, strict=True)], prefix)
    m.add("R-HAND-SIZE", size_term(c) == cards, prefix)
    # dish_terms names its terms <prefix>_tempura...: a distinct prefix, or they would be the token counts
    d = dish_terms(m, f"{prefix}_points", c, rules)
    if maki_points > 0:
        # R-MAKI-ZERO: maki points are only ever paid to a player with at least one icon.
        m.add("R-MAKI-ZERO", icons_term(c, rules) >= 1, prefix)
    # Enumeration keys: a tempura or sashimi beyond full sets adds a card but no points, so those
    # leftovers are expanded in closed form, like the other cards worth nothing by themselves.
    t_sets = m.int("t_tempura_sets", 0)
    s_sets = m.int("t_sashimi_sets", 0)
    m.add("R-TEMPURA", t_sets == c[int(Token.TEMPURA)] / rules.tempura_set, prefix)
    m.add("R-SASHIMI", s_sets == c[int(Token.SASHIMI)] / rules.sashimi_set, prefix)
    total = m.int(f"{prefix}_total", None)
    m.add("R-ROUND-TOTAL", total == total_term(d, maki_points), prefix)
    lo, hi = filters.bounds(rules)
    m.add("FILTER", [c[i] >= lo[i] for i in range(N_TOKENS) if lo[i] > 0]
          + [c[i] <= hi[i] for i in range(N_TOKENS)], prefix)
    return TableauModel(m, c, total, cards, maki_points, rules, filters)


def _solver(tm: TableauModel) -> z3.Solver:
    # The linear-integer solver is about a third faster than the default portfolio when
    # enumerating thousands of small models with blocking clauses.
    s = z3.SolverFor("QF_LIA")
    s.set("rlimit", DEFAULT_RLIMIT)
    s.add(*tm.model.constraints())
    return s


@lru_cache(maxsize=4096)
def _fillers(room: int, wasabi_left: int, need_icon: bool, lo: tuple[int, ...], hi: tuple[int, ...],
             icons: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every filling of ``room`` cards by the filler tokens within their bounds (``icons``: the
    maki rolls of each filler token)."""
    caps = [hi[int(t)] for t in FILLER]
    caps[FILLER.index(Token.WASABI)] = min(caps[FILLER.index(Token.WASABI)], wasabi_left)
    lows = [lo[int(t)] for t in FILLER]
    out: list[tuple[int, ...]] = []
    cur = [0] * len(FILLER)

    def rec(k: int, left: int) -> None:
        if k == len(FILLER) - 1:
            if lows[k] <= left <= caps[k]:
                cur[k] = left
                if not need_icon or sum(i * n for i, n in zip(icons, cur, strict=True)) > 0:
                    out.append(tuple(cur))
            return
        for n in range(lows[k], min(caps[k], left) + 1):
            cur[k] = n
            rec(k + 1, left - n)

    if room >= 0:
        rec(0, room)
    return tuple(out)


def _completions(tm: TableauModel, part: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every tableau with these scoring keys: the tempura and sashimi left over beyond full sets
    (worth nothing) and the filler tokens are expanded here, within the same bounds."""
    rules = tm.rules
    lo, hi = tm.filters.bounds(rules)
    t_sets, s_sets, *rest = part
    fixed = dict(zip(SCORING[2:], rest, strict=True))
    size = sum(n * t.size for t, n in fixed.items())
    stacks = sum(n for t, n in fixed.items() if t.size == 2)
    from sushigo.spec.scoring import maki_icons

    filler_icons = tuple(maki_icons([int(u == t) for u in range(N_TOKENS)], rules) for t in FILLER)
    out: list[tuple[int, ...]] = []
    for t_left in range(rules.tempura_set):
        tem = t_sets * rules.tempura_set + t_left
        if not lo[int(Token.TEMPURA)] <= tem <= hi[int(Token.TEMPURA)]:
            continue
        for s_left in range(rules.sashimi_set):
            sas = s_sets * rules.sashimi_set + s_left
            if not lo[int(Token.SASHIMI)] <= sas <= hi[int(Token.SASHIMI)]:
                continue
            room = tm.cards - size - tem - sas
            for f in _fillers(room, rules.copies(Card.WASABI) - stacks, tm.maki_points > 0, lo, hi,
                              filler_icons):
                counts = [0] * N_TOKENS
                counts[int(Token.TEMPURA)] = tem
                counts[int(Token.SASHIMI)] = sas
                for t, n in fixed.items():
                    counts[int(t)] = n
                for t, n in zip(FILLER, f, strict=True):
                    counts[int(t)] = n
                out.append(tuple(counts))
    return out


def _keys(tm: TableauModel) -> list[z3.ArithRef]:
    """What the enumeration blocks on: full tempura and sashimi sets, then the other scoring tokens."""
    return [tm.model.vars["t_tempura_sets"], tm.model.vars["t_sashimi_sets"],
            *[tm.counts[int(t)] for t in SCORING[2:]]]


def scoring_parts(tm: TableauModel, score: int) -> Iterator[tuple[int, ...]]:
    """Every assignment of the scoring tokens that some tableau scoring ``score`` extends."""
    s = _solver(tm)
    s.add(tm.total == score)
    yield from _each_part(s, _keys(tm))


def _each_part(s: z3.Solver, keys: Sequence[z3.ArithRef]) -> Iterator[tuple[int, ...]]:
    """The keys' values in every model of ``s``, each blocked once read (asks until unsat)."""
    while check(s):
        values = _values(s.model(), keys)
        yield values
        s.add(_blocking(keys, values))


def _values(mdl: z3.ModelRef, keys: Sequence[z3.ArithRef]) -> tuple[int, ...]:
    """The keys' values in ``mdl`` (a key the model leaves free reads 0, as ``model_completion``
    gives it), read through the C API: the Python wrappers cost more than the check itself."""
    ctx = mdl.ctx.ref()
    m = mdl.model
    out = []
    r = ast_array(1)()
    for k in keys:
        if not z3.Z3_model_eval(ctx, m, k.as_ast(), True, r):
            raise BudgetSpent.unknown(f"the model has no value for {k}", f"rlimit {DEFAULT_RLIMIT}")
        out.append(int(z3.Z3_get_numeral_string(ctx, r[0])))
    return tuple(out)


def _blocking(keys: Sequence[z3.ArithRef], values: Sequence[int]) -> z3.BoolRef:
    """``Or(k != v for each key)``: no later model repeats these values (built through the C API)."""
    ctx = keys[0].ctx
    ref = ctx.ref()
    # Each disequality is wrapped (a reference held) before the next is built: Z3 may free an
    # unreferenced term at any later call.
    parts = []
    for k, v in zip(keys, values, strict=True):
        a = k.as_ast()
        eq = z3.Z3_mk_eq(ref, a, z3.Z3_mk_int(ref, v, z3.Z3_get_sort(ref, a)))
        parts.append(z3.BoolRef(z3.Z3_mk_not(ref, eq), ctx))
    args = ast_array(len(parts))(*[p.as_ast() for p in parts])
    return z3.BoolRef(z3.Z3_mk_or(ref, len(parts), args), ctx)


class _Enumerator:
    """One built model and one solver for every score of (cards, maki points, rules, filters):
    each score is asked in its own push/pop scope, so its blocking clauses go with it."""

    def __init__(self, tm: TableauModel) -> None:
        self.tm = tm
        self.solver = _solver(tm)
        self.keys = _keys(tm)

    def parts(self, score: int) -> list[tuple[int, ...]]:
        s = self.solver
        s.push()
        try:
            s.add(self.tm.total == score)
            return list(_each_part(s, self.keys))
        finally:
            s.pop()


def _enumerator(cards: int, maki_points: int, rules: Ruleset, filters: Filters | None) -> _Enumerator:
    check_question(cards, maki_points)
    # A solver belongs to one thread: the thread is part of the key.
    return _cached_enumerator(cards, maki_points, rules, filters or Filters(), threading.get_ident())


#: The solver-tableaux check asks about at most 24 (cards, maki points) pairs of one ruleset, and
#: 16 entries already hit every repeat of its 1,136 cases (272 builds; 32 entries: the same 272).
#: Each entry holds a model and a solver, about 1.5 MB: 16 of them add about 25 MB to a process.
ENUMERATORS_CACHED = 16


@lru_cache(maxsize=ENUMERATORS_CACHED)
def _cached_enumerator(cards: int, maki_points: int, rules: Ruleset, filters: Filters, thread: int
                       ) -> _Enumerator:
    del thread  # a cache key only
    return _Enumerator(build(cards, maki_points, rules, filters))


def release_enumerators() -> None:
    """Drop the kept models and solvers (``sushigo check`` moves to the next ruleset: they serve
    the last one only)."""
    _cached_enumerator.cache_clear()


def _parts(score: int, cards: int, maki_points: int, rules: Ruleset, filters: Filters | None
           ) -> tuple[TableauModel, list[tuple[int, ...]]]:
    """The scoring parts of ``score``, from the kept solver when it settles them.

    The kept solver is incremental (a scope per score): when it runs out of budget, Z3 says why
    in other words ("canceled") than a fresh solver does, and a budget (``--timeout``/``--rlimit``,
    a ceiling) would stay set on it. So under a ceiling, and whenever the kept solver does not
    settle the question, the question is asked of a fresh solver: the reference path, whose
    answer (or unknown) stands.
    """
    if current_ceiling() is None:
        en = _enumerator(cards, maki_points, rules, filters)
        try:
            return en.tm, en.parts(score)
        except BudgetSpent:
            pass
    tm = build(cards, maki_points, rules, filters)
    return tm, list(scoring_parts(tm, score))


@dataclass(frozen=True)
class Enumeration:
    score: int
    cards: int
    maki_points: int
    count: int
    tableaux: tuple[Tableau, ...]  # up to the limit, in canonical (sorted) order
    complete: bool  # all tableaux listed


def count_tableaux(score: int, cards: int, maki_points: int = 0, rules: Ruleset = OFFICIAL,
                   filters: Filters | None = None) -> int:
    """The count by Z3 enumeration: the reference that :mod:`solver.counting` (the fast,
    exact count ``tableaux --count`` uses) is tested against."""
    tm = build(cards, maki_points, rules, filters)
    return sum(len(_completions(tm, p)) for p in scoring_parts(tm, score))


def enumerate_tableaux(score: int, cards: int, maki_points: int = 0, rules: Ruleset = OFFICIAL,
                       filters: Filters | None = None, limit: int | None = None) -> Enumeration:
    tm, parts = _parts(score, cards, maki_points, rules, filters)
    found: list[Tableau] = []
    count = 0
    for part in parts:
        fills = _completions(tm, part)
        count += len(fills)
        found.extend(Tableau(f) for f in fills)
    found.sort(key=_order)
    shown = found if limit is None else found[:limit]
    return Enumeration(score, cards, maki_points, count, tuple(shown), len(shown) == count)


def _order(t: Tableau) -> tuple[int, ...]:
    # most cards of the earlier tokens first, the way a player reads a tableau left to right
    return tuple(-n for n in t.counts)


def counts_by_score(cards: int, maki_points: int = 0, rules: Ruleset = OFFICIAL,
                    filters: Filters | None = None) -> dict[int, int]:
    """Number of tableaux per score, for every score: one solver, one scope per score (the Z3
    reference for :func:`solver.counting.score_counts`)."""
    tm = build(cards, maki_points, rules, filters)
    s = _solver(tm)
    keys = _keys(tm)
    hi = maximum(tm)
    out: dict[int, int] = {}
    if hi is None:
        return out
    for score in range(maki_points, hi + 1):
        s.push()
        s.add(tm.total == score)
        n = sum(len(_completions(tm, values)) for values in _each_part(s, keys))
        s.pop()
        if n:
            out[score] = n
    return out


def maximum(tm: TableauModel) -> int | None:
    """The highest round score any tableau of the model reaches (None: no tableau), proved."""
    opt = tm.model.solver(optimize=True, rlimit=DEFAULT_RLIMIT)
    assert isinstance(opt, z3.Optimize)
    h = opt.maximize(tm.total)
    if not check(opt):
        return None
    best = h.value().as_long()
    s = _solver(tm)
    if check(s, tm.total > best):
        raise BudgetSpent.unknown("the optimiser's maximum was not confirmed", f"rlimit {DEFAULT_RLIMIT}")
    return int(best)


def unreachable(cards: int, maki_points: int = 0, rules: Ruleset = OFFICIAL,
                filters: Filters | None = None) -> tuple[int | None, list[int]]:
    """(maximum, every score in 0..maximum that no tableau of ``cards`` cards reaches)."""
    tm = build(cards, maki_points, rules, filters)
    hi = maximum(tm)
    if hi is None:
        return None, []
    s = _solver(tm)
    missing = [score for score in range(0, hi + 1) if not check(s, tm.total == score)]
    return hi, missing


@dataclass(frozen=True)
class TokenFact:
    token: Token
    low: int
    high: int
    cap: int  # what the deck and hand size alone allow


def facts(score: int, cards: int, maki_points: int = 0, rules: Ruleset = OFFICIAL,
          filters: Filters | None = None) -> list[TokenFact] | None:
    """Per token, min and max count over every consistent tableau (None: there is none).

    Each bound is found by the optimiser and then proved: the solver shows that
    one below the minimum and one above the maximum are unsatisfiable.
    """
    tm = build(cards, maki_points, rules, filters)
    s = _solver(tm)
    s.add(tm.total == score)
    if not check(s):
        return None
    out = []
    for t in Token:
        v = tm.counts[int(t)]
        lo = _optimum(tm, score, v, minimise=True)
        hi = _optimum(tm, score, v, minimise=False)
        if check(s, v < lo) or check(s, v > hi) or not check(s, v == lo) or not check(s, v == hi):
            raise BudgetSpent.unknown(f"bound for {t.label} was not confirmed", f"rlimit {DEFAULT_RLIMIT}")
        cap = min(min(rules.copies(c) for c in t.cards), cards // t.size)
        out.append(TokenFact(t, lo, hi, cap))
    return out


def _optimum(tm: TableauModel, score: int, v: z3.ArithRef, minimise: bool) -> int:
    opt = tm.model.solver(optimize=True, rlimit=DEFAULT_RLIMIT)
    assert isinstance(opt, z3.Optimize)
    opt.add(tm.total == score)
    h = opt.minimize(v) if minimise else opt.maximize(v)
    if not check(opt):
        raise BudgetSpent.unknown("optimiser found no tableau after the solver did",
                                  f"rlimit {DEFAULT_RLIMIT}")
    return int(h.value().as_long())


def breakdown(t: Tableau, rules: Ruleset = OFFICIAL) -> str:
    """'tempura 5 + nigiri 9' style label for grouping the output."""
    from sushigo.spec.scoring import DISH_CATEGORIES, dish_points

    points = dish_points(t.counts, rules)
    parts = [f"{name} {p}" for name, p in zip(DISH_CATEGORIES, points, strict=True) if p]
    return " + ".join(parts) if parts else "no dish points"


__all__ = [
    "Enumeration", "Filters", "NotationError", "SolverUnknown", "TokenFact", "build", "count_tableaux",
    "counts_by_score", "enumerate_tableaux", "facts", "maximum", "parse_filters", "unreachable",
]
