"""Best score for one player's turns, certified with Z3.

Encoding (pseudo-Boolean, so Z3's cardinality reasoning does the work):

* ``t<turn>_a_<card>``: the first (or only) pick of the turn is that card;
  exactly one per turn (R-PICK).
* ``t<turn>_b_<card>``: the second pick of a chopsticks turn; at most one,
  and only when a chopsticks card taken on an earlier turn is still in the
  tableau (R-CHOPSTICKS-EARLIER, R-CHOPSTICKS-ONCE). Each use removes one
  chopsticks card from the tableau and puts it back in the hand that is
  passed on (R-CHOPSTICKS-RETURN).
* ``t<turn>_a_<nigiri>_on`` / ``t<turn>_b_<nigiri>_on``: that pick lands on a
  free wasabi. Free wasabi before a pick = wasabi taken before it minus
  nigiri laid before it; the second pick also sees a wasabi taken first in
  the same turn when ``wasabi_same_turn`` holds (R-WASABI-SAME-TURN). A
  nigiri can only go on a free wasabi (R-WASABI-ONE) and, under automatic
  placement, must (R-WASABI-PLACE).
* Hand contents are the cards dealt to the pile minus what was taken from it
  earlier (by this player, a variable, or by the others, a constant), plus the
  chopsticks put back. In the puzzle form every turn has its own pile.

The score is a weighted sum of indicator literals: ``tempura_k`` (at least k
sets), ``sashimi_k``, ``dumpling_k`` (weights are the increments of the point
table), nigiri picks and the extra for laying one on wasabi, and one
``maki_<icons>`` literal per icon total worth points against the opponents'
constant totals (its weight is :func:`spec.scoring.maki_points`). Indicators
only imply their condition, so the sum never exceeds the true score, and the
true score is always reachable; both are what the certificate needs.

Certification: after a pick sequence of score v is found, the solver must
show "score >= v + 1" unsatisfiable; only then is the status ``optimal``. The
bound comes with a consequence of itself and the model that Z3 propagates turn
by turn (:func:`credit_bound`), never a restriction of its own. If
the time budget runs out first, the answer is ``unknown`` with the best score
found so far. Every answer is then checked twice more: the final tableau is
scored by the Z3 terms of :mod:`spec.model.scoring` (dish, icon and maki
terms), and the picks are replayed through :mod:`spec.turns` and scored with
:mod:`spec.scoring`.
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import z3
from sushigo.solver.search import (
    STATUS_OPTIMAL,
    STATUS_UNKNOWN,
    BestResult,
    Hindsight,
    OtherPick,
    Puzzle,
    TurnSpec,
    finish_hindsight,
    hindsight_problem,
    puzzle_turns,
    replay_puzzle,
    search_turns,
    solve_hindsight_search,
    solve_search,
)
from sushigo.spec.answer import BestStatus
from sushigo.spec.cards import MAKI, NIGIRI, STACK_OF, Card, Token
from sushigo.spec.errors import IllegalMoveError
from sushigo.spec.kinds import KINDS, ByCount, Icons, PerCard, Sets, resolve
from sushigo.spec.model.agree import TermChecker
from sushigo.spec.model.budget import Budget, Z3Answer, current_ceiling, decide
from sushigo.spec.model.core import Model, assert_all, ast_array, int_array, mk_implies
from sushigo.spec.model.scoring import dish_terms, icons_term, maki_terms, total_term
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import maki_points, token_points
from sushigo.spec.turns import Turn, apply_turn, legal_turns, resolve_turn

ENGINES = ("z3", "search")
N_CARDS = len(Card)
_W = int(Card.WASABI)
_CHOP = int(Card.CHOPSTICKS)
_NIGIRI = tuple(int(c) for c in NIGIRI)
_MAKI = tuple(int(c) for c in MAKI)

Weighted = list[tuple[z3.BoolRef, int]]


@dataclass
class PickModel:
    """The constraints and named literals of one player's turns."""

    constraints: list[z3.BoolRef] = field(default_factory=list)
    first: list[dict[int, z3.BoolRef]] = field(default_factory=list)
    second: list[dict[int, z3.BoolRef]] = field(default_factory=list)
    first_on: list[dict[int, z3.BoolRef]] = field(default_factory=list)
    second_on: list[dict[int, z3.BoolRef]] = field(default_factory=list)
    #: Per turn, not(two), "no second pick" (made once: the pile and chopsticks constraints of
    #: every later turn read it).
    not_two: list[z3.BoolRef] = field(default_factory=list)
    objective: Weighted = field(default_factory=list)
    #: Per card counted by indicators (tempura, sashimi, dumpling): each indicator with the count
    #: of picks of the card it needs and its weight (see :func:`credit_bound`).
    counted: dict[int, list[tuple[z3.BoolRef, int, int]]] = field(default_factory=dict)
    #: :func:`credit_bound`'s terms, limit at v = 0 and scale, made at its first call.
    credits: tuple[Weighted, int, int] | None = None


def _order_matters(c1: int, c2: int) -> bool:
    nigiri = (c1 in _NIGIRI) + (c2 in _NIGIRI)
    return nigiri == 2 or (nigiri == 1 and _W in (c1, c2))


def _pb(make: Callable[..., Any], lits: Sequence[tuple[z3.BoolRef, int]], k: int) -> z3.BoolRef:
    """A pseudo-Boolean constraint made by one call to the C API.

    ``z3.PbGe`` checks and coerces every argument in Python, which cost more than solving
    the puzzle did; the literals here are Boolean constants already, so nothing is lost.
    """
    n = len(lits)
    args = ast_array(n)()
    coeffs = int_array(n)()
    for i, (v, w) in enumerate(lits):
        args[i] = v.as_ast()
        coeffs[i] = w
    ctx = lits[0][0].ctx
    return z3.BoolRef(make(ctx.ref(), n, args, coeffs, k), ctx)


# Boolean terms by direct C API calls: z3.Not, z3.And, z3.Implies and z3.Bool check and coerce
# every argument in Python, which made up most of the time of building a puzzle's model. The
# arguments here are Boolean terms of the main context already.


# A named constant is the same term in every model of the main context (Z3 shares equal terms),
# so each is made once, with its negation: the literals of a puzzle are mostly the last one's.
_LITERALS: dict[str, z3.BoolRef] = {}
_NEGATIONS: dict[int, tuple[z3.BoolRef, z3.BoolRef]] = {}  # id() of a literal above: it, its negation
_TERMS: dict[tuple[int, int], tuple[z3.BoolRef, z3.ArithRef]] = {}  # (id(), w): it, ite(it, w, 0)
_CLAUSES: dict[tuple[int, int, int], tuple[z3.BoolRef, z3.BoolRef, z3.BoolRef]] = {}  # see _order_clause


def _bool(name: str) -> z3.BoolRef:
    hit = _LITERALS.get(name)
    if hit is not None:
        return hit
    ctx = z3.main_ctx()
    c = ctx.ref()
    v = z3.BoolRef(z3.Z3_mk_const(c, z3.Z3_mk_string_symbol(c, name), z3.Z3_mk_bool_sort(c)), ctx)
    if len(_LITERALS) >= 20_000:  # names grow with the number of turns: keep the cache bounded
        _LITERALS.clear()
        _NEGATIONS.clear()
        _TERMS.clear()
        _CLAUSES.clear()
    _LITERALS[name] = v
    _NEGATIONS[id(v)] = (v, z3.BoolRef(z3.Z3_mk_not(c, v.as_ast()), ctx))
    return v


def _order_clause(t: int, c1: int, c2: int, first: z3.BoolRef, second: z3.BoolRef) -> z3.BoolRef:
    """``not first or not second`` for turn ``t``'s first pick ``c1`` and second pick ``c2``: made
    of named literals only, so the same term in every puzzle (kept like them)."""
    key = (t, c1, c2)
    hit = _CLAUSES.get(key)
    if hit is None or hit[0] is not first or hit[1] is not second:
        hit = _CLAUSES[key] = (first, second, _or(_not(first), _not(second)))
    return hit[2]


def _not(v: z3.BoolRef) -> z3.BoolRef:
    hit = _NEGATIONS.get(id(v))
    if hit is not None and hit[0] is v:
        return hit[1]
    return z3.BoolRef(z3.Z3_mk_not(v.ctx.ref(), v.as_ast()), v.ctx)


def _nary(make: Callable[..., Any], xs: Sequence[z3.BoolRef]) -> z3.BoolRef:
    args = ast_array(len(xs))()
    for i, x in enumerate(xs):
        args[i] = x.as_ast()
    ctx = xs[0].ctx
    return z3.BoolRef(make(ctx.ref(), len(xs), args), ctx)


def _and(*xs: z3.BoolRef) -> z3.BoolRef:
    return _nary(z3.Z3_mk_and, xs)


def _or(*xs: z3.BoolRef) -> z3.BoolRef:
    return _nary(z3.Z3_mk_or, xs)


def _at_least(lits: Sequence[tuple[z3.BoolRef, int]], k: int) -> z3.BoolRef:
    if k <= 0:
        return z3.BoolVal(True)
    if not lits:
        return z3.BoolVal(False)
    return _pb(z3.Z3_mk_pbge, lits, k)


def _at_most(lits: Sequence[tuple[z3.BoolRef, int]], k: int) -> z3.BoolRef:
    if not lits:
        return z3.BoolVal(k >= 0)
    return _pb(z3.Z3_mk_pble, lits, k)


def _maki_values(opponents_maki: Sequence[int], rules: Ruleset, top: int) -> list[int]:
    """Maki points of 0..top rolls against the opponents' totals."""
    return [maki_points([j, *opponents_maki], rules)[0] for j in range(top + 1)]


def build_pick_model(
    turns: Sequence[TurnSpec],
    opponents_maki: Sequence[int],
    rules: Ruleset,
    others: Sequence[OtherPick] = (),
) -> PickModel:
    pm = PickModel()
    add = pm.constraints.append
    optional = not rules.wasabi_automatic
    for t, spec in enumerate(turns):
        earlier = [u for u in range(t) if turns[u].pile == spec.pile]
        returned_chop = any(True for _ in earlier)  # my own used chopsticks may come back round
        kinds = [c for c in range(N_CARDS) if spec.base[c] > 0 or (c == _CHOP and returned_chop)]
        a = {c: _bool(f"t{t}_a_{Card(c).label}") for c in kinds}
        # A second pick needs a chopsticks card taken on an earlier turn (R-CHOPSTICKS-EARLIER):
        # without one there is no second-pick literal at all.
        chop_before = any(_CHOP in x for x in pm.first + pm.second)
        b = {c: _bool(f"t{t}_b_{Card(c).label}") for c in kinds} if spec.size >= 2 and chop_before else {}
        add(_pb(z3.Z3_mk_pbeq, [(v, 1) for v in a.values()], 1))
        if b:
            add(_at_most([(v, 1) for v in b.values()], 1))
        two: z3.BoolRef = _or(*b.values()) if b else z3.BoolVal(False)
        # Symmetry: the order of two picks matters only for two nigiri (which one finds the
        # free wasabi) and for wasabi with a nigiri; everywhere else fix it (card order).
        for c1 in b:
            for c2 in b:
                if c2 < c1 and not _order_matters(c1, c2):
                    add(_order_clause(t, c1, c2, a[c1], b[c2]))
        # R-PICK: the pile holds base minus my earlier picks from it plus the chopsticks I put back.
        for c in kinds:
            mine: list[tuple[z3.BoolRef, int]] = [(a[c], 1)] + ([(b[c], 1)] if c in b else [])
            back = 0
            for u in earlier:
                mine += [(pm.first[u][c], 1)] if c in pm.first[u] else []
                mine += [(pm.second[u][c], 1)] if c in pm.second[u] else []
                if c == _CHOP and pm.second[u]:
                    mine.append((pm.not_two[u], 1))  # -two = not(two) - 1
                    back += 1
            if len(mine) > spec.base[c] + back:  # fewer literals than cards: the limit holds anyway
                add(_at_most(mine, spec.base[c] + back))
        # R-CHOPSTICKS-EARLIER: chopsticks taken before minus those used before >= 1.
        if b:
            chop = [(x[_CHOP], 1) for x in pm.first + pm.second if _CHOP in x]
            used = [(w, 1) for w in pm.not_two]
            add(mk_implies(two, _at_least(chop + used, len(used) + 1)))
        # Free wasabi before this turn, as literals: wasabi picks and not(laid) over earlier turns.
        wasabi = [(x[_W], 1) for x in pm.first + pm.second if _W in x]
        laid = [(_not(v), 1) for x in pm.first_on + pm.second_on for v in x.values()]
        # A nigiri can land on a wasabi only if one was taken before (R-WASABI-ONE): no literal otherwise.
        a_on = {c: _bool(f"t{t}_a_{Card(c).label}_on") for c in _NIGIRI if c in a and wasabi}
        free1 = _at_least(wasabi + laid, 1 + len(laid))
        for c, v in a_on.items():
            add(mk_implies(v, _and(a[c], free1)))  # R-WASABI-ONE
            if not optional:
                add(mk_implies(_and(a[c], free1), v))  # R-WASABI-PLACE
        extra = [(a[_W], 1)] if (_W in a and rules.wasabi_same_turn) else []
        b_on = {c: _bool(f"t{t}_b_{Card(c).label}_on") for c in _NIGIRI if c in b and (wasabi or extra)}
        if b_on:
            laid2 = laid + [(_not(v), 1) for v in a_on.values()]
            free2 = _at_least(wasabi + extra + laid2, 1 + len(laid2))
            for c, v in b_on.items():
                add(mk_implies(v, _and(b[c], free2)))
                if not optional:
                    add(mk_implies(_and(b[c], free2), v))
        pm.first.append(a)
        pm.second.append(b)
        pm.first_on.append(a_on)
        pm.second_on.append(b_on)
        pm.not_two.append(_not(two))
    # The other seats' recorded picks must stay possible: the pile they hold keeps enough cards.
    for o in others:
        mine = []
        back = 0
        for u, spec in enumerate(turns[: o.turn]):
            if spec.pile != o.pile:
                continue
            mine += [(pm.first[u][o.card], 1)] if o.card in pm.first[u] else []
            mine += [(pm.second[u][o.card], 1)] if o.card in pm.second[u] else []
            if o.card == _CHOP and pm.second[u]:
                mine.append((pm.not_two[u], 1))
                back += 1
        add(_at_most(mine, o.spare + back))
    pm.objective = _objective(pm, opponents_maki, rules)
    return pm


def _picks(pm: PickModel, c: int) -> list[z3.BoolRef]:
    return [x[c] for x in pm.first + pm.second if c in x]


def _objective(pm: PickModel, opponents_maki: Sequence[int], rules: Ruleset) -> Weighted:
    obj: Weighted = []

    def indicator(name: str, lits: Sequence[tuple[z3.BoolRef, int]], k: int, weight: int = 1) -> z3.BoolRef:
        """``g`` implies "at least k"; a negative weight (a point table that falls, under custom
        rule numbers) makes it an equivalence, else the solver would leave it false and gain."""
        g = _bool(name)
        pm.constraints.append(mk_implies(g, _at_least(lits, k)))
        if weight < 0:
            pm.constraints.append(_or(g, _at_most(lits, k - 1)))
        return g

    # The dish points, read from each kind's scoring description (spec.kinds), in deck order:
    # a set kind and a table kind by "at least k" indicators, a per-card kind by its picks.
    icons: list[tuple[z3.BoolRef, int]] = []
    for card, kind in enumerate(KINDS):
        scoring = kind.scoring
        lits = [(v, 1) for v in _picks(pm, card)]
        if isinstance(scoring, Sets):
            size, points = int(resolve(scoring.size, rules)), int(resolve(scoring.points, rules))
            for k in range(1, len(lits) // size + 1):
                g = indicator(f"{kind.name}_{k}", lits, k * size, points)
                obj.append((g, points))
                pm.counted.setdefault(card, []).append((g, k * size, points))
        elif isinstance(scoring, ByCount):
            table = resolve(scoring.table, rules)
            for k in range(1, min(len(lits), len(table) - 1) + 1):
                step = table[k] - table[k - 1]
                g = indicator(f"{kind.name}_{k}", lits, k, step)
                obj.append((g, step))
                pm.counted.setdefault(card, []).append((g, k, step))
        elif isinstance(scoring, PerCard):
            pts = scoring.score(1, rules)
            obj += [(v, pts) for v, _ in lits]
            if kind.role == "nigiri":  # on a wasabi: what its stack scores beyond the card itself
                extra = token_points(int(STACK_OF[Card(card)]), 1, rules) - pts
                obj += [(x[card], extra) for x in pm.first_on + pm.second_on if card in x]
        elif isinstance(scoring, Icons):
            icons += [(v, scoring.score(1, rules)) for v, _ in lits]
    opps = list(opponents_maki)
    cap = max(opps, default=0) + 1  # one icon above the best opponent: nothing changes beyond
    top = min(sum(w for _, w in icons), cap)
    values = _maki_values(opps, rules, top)
    if all(a <= b for a, b in itertools.pairwise(values)):
        # Points never fall as icons rise (the official tables, and every ruleset that ranks
        # more rolls no worse): one "at least j rolls" literal per step up, weighted by the step,
        # like the dumplings. The solver then never has to pin the icon total exactly.
        for j in range(1, top + 1):
            if values[j] > values[j - 1]:
                obj.append((indicator(f"maki_ge_{j}", icons, j), values[j] - values[j - 1]))
        return obj
    levels = []
    for j in range(1, top + 1):
        value = maki_points([j, *opps], rules)[0]
        if value <= 0:
            continue
        lit = _bool(f"maki_{j}")
        pm.constraints.append(mk_implies(lit, _at_least(icons, j)))
        if j < cap:
            pm.constraints.append(mk_implies(lit, _at_most(icons, j)))
        levels.append((lit, value))
    if len(levels) > 1:
        pm.constraints.append(_at_most([(v, 1) for v, _ in levels], 1))
    return obj + levels


def _term_key(x: z3.ExprRef) -> int:
    """A term's identity: Z3 shares equal terms, so the address of a live AST names its term
    (as ``get_id`` does, without a call into Z3)."""
    address: int = x.as_ast().value
    return address


def credit_bound(pm: PickModel, v: int) -> z3.BoolRef:
    """"Score >= v" restated per turn, so that picking a card that scores less costs at once.

    Each pick literal gets a credit: its own weight in the objective (nigiri) plus, for a card
    counted by indicators, the most the indicators give per card: ``max over n`` of (sum of the
    weights of the indicators needing at most n picks) / n. In any assignment the model admits,
    the indicators of a counted card give at most that sum for its n picks (a positive weight's
    indicator implies its count, a negative one's is equivalent to it), so at most credit * n;
    every other objective term (maki, a nigiri's extra on wasabi) is kept as it is. So the sum of
    the credits of the picks plus those other terms is at least the objective: "score >= v"
    implies "credit sum >= v", a consequence of the model, never a new restriction (the
    certificate stays sound). Each turn has exactly one first pick (R-PICK, a constraint of the
    model), so its credits sum to ``M - sum of (M - credit) * pick`` with M the largest credit
    in the hand: the constraint is stated as a budget of such losses, which Z3 propagates turn
    by turn (a sum of every card's credit would count every card of every hand as taken). It
    halves the conflicts of the proof of "one point more".
    """
    if pm.credits is None:
        pm.credits = _credits(pm)
    terms, limit, scale = pm.credits
    limit -= v * scale
    return _at_most(terms, limit) if terms else z3.BoolVal(limit >= 0)


def _credits(pm: PickModel) -> tuple[Weighted, int, int]:
    """:func:`credit_bound`'s terms and its limit for v = 0, and the scale of its weights (the
    same for every v: made once per model)."""
    key = _term_key
    counters = {key(g) for steps in pm.counted.values() for g, _, _ in steps}
    per_card: dict[int, Fraction] = {}
    for card, steps in pm.counted.items():
        # Every count the picks can reach (past the last indicator the sum stays, and with a
        # negative sum its share per card rises towards 0): the best sum / n, compared across.
        most = len(_picks(pm, card))
        best_sum, best_n = 0, 0
        for n in range(1, most + 1):
            total = sum(w for _, need, w in steps if need <= n)
            if best_n == 0 or total * best_n > best_sum * n:
                best_sum, best_n = total, n
        per_card[card] = Fraction(best_sum, best_n)
    # Whole numbers: every weight times the common denominator of the per-card credits.
    scale = math.lcm(1, *(q.denominator for q in per_card.values()))
    card_credit = [int(per_card.get(c, 0) * scale) for c in range(N_CARDS)]
    weight: dict[int, int] = {}  # of each literal in the objective, scaled
    for lit, w in pm.objective:
        k = key(lit)
        weight[k] = weight.get(k, 0) + w * scale
    picks = {key(x) for lits in pm.first + pm.second for x in lits.values()}
    # Every other term (maki, a nigiri's extra on wasabi) as it is: not(x) weighs w in the budget.
    terms = [(_not(lit), w * scale) for lit, w in pm.objective
             if key(lit) not in picks and key(lit) not in counters]
    limit = sum(w for _, w in terms)
    for a, b in zip(pm.first, pm.second, strict=True):
        credits = {c: weight.get(key(x), 0) + card_credit[c] for c, x in a.items()}
        top = max(credits.values())
        limit += top
        terms += [(a[c], top - q) for c, q in credits.items() if q != top]
        for c, x in b.items():  # (a budget per turn here too, through "two", gave more conflicts)
            q = weight.get(key(x), 0) + card_credit[c]
            if q:
                terms.append((_not(x), q))
                limit += q
    # top - losses + gains >= v for every turn's top credit: losses + sum(g * not(gain)) <= limit.
    return [(x, w) for x, w in terms if w], limit, scale


def _bound(pm: PickModel, v: int) -> list[z3.BoolRef]:
    """"Score >= v" and its per-turn consequence (:func:`credit_bound`)."""
    return [_at_least(pm.objective, v), credit_bound(pm, v)]


def _total(lits: Weighted) -> z3.ArithRef:
    """The objective as one integer term (sum of if-then-else), so a model is scored by one eval;
    made by C API calls for the reason given at :func:`_pb`."""
    ctx = lits[0][0].ctx
    c = ctx.ref()
    zero = z3.IntVal(0, ctx)
    terms = []
    for v, w in lits:
        hit = _TERMS.get((id(v), w))  # a cached literal's term (see _bool), made once
        if hit is not None and hit[0] is v:
            terms.append(hit[1])
            continue
        k = z3.IntVal(w, ctx)
        term = z3.ArithRef(z3.Z3_mk_ite(c, v.as_ast(), k.as_ast(), zero.as_ast()), ctx)
        neg = _NEGATIONS.get(id(v))
        if neg is not None and neg[0] is v:
            _TERMS[(id(v), w)] = (v, term)
        terms.append(term)
    args = ast_array(len(terms))()
    for i, term in enumerate(terms):
        args[i] = term.as_ast()
    return z3.ArithRef(z3.Z3_mk_add(c, len(terms), args), ctx)


def _value(model: z3.ModelRef, total: z3.ArithRef | None) -> int:
    if total is None:
        return 0
    value: int = model.eval(total, model_completion=True).as_long()
    return value


Certificate = tuple[BestStatus, z3.ModelRef | None, int | None, str | None]

_solvers = threading.local()  # per thread: a solver belongs to the thread (and context) that made it


def _new_solver() -> z3.Solver:
    s = z3.Solver()
    # Relevancy filtering off: every literal here is a pick or a counted indicator, none is
    # irrelevant, and the proofs of "one point more" took about a fifth less time without it.
    s.set("smt.relevancy", 0)
    # Each decision's phase by how often the literal occurs: on four sets of 80 new puzzles,
    # 0.91-0.96x the time of the default (phase caching), with the slowest puzzles a third
    # faster. Phase only steers the search: the answers are the same (tested against the DP).
    s.set("smt.phase_selection", 6)
    return s


def certify(
    pm: PickModel, timeout: float, seed: Seed | None = None,
    accepted: list[bool] | None = None, reuse: bool = False, cpu: dict[str, int] | None = None,
) -> Certificate:
    """Raise the bound until unsat. Returns (status, best model, its score, reason when unknown);
    the model is ``None`` when the best score is the seed's (the seed's line is the answer then).

    ``reuse``: ask in this thread's solver, inside a push and pop, instead of a new solver: a new
    one and its release cost over a millisecond, a sixth of a benchmark puzzle's proof. Only the
    puzzle form reuses it (its answer never depends on the model when the seed is optimal); the
    solver is dropped if a question ends in an exception (a stop), never reused half asked.
    ``cpu`` (when given) receives the CPU microseconds of the seed's check (``seed_check_us``)
    and of the other checks (``proof_us``, with their number in ``proof_checks``).

    ``seed``: a line found by a fast search, as (its score, the literals that pin its picks). One
    check under those literals shows the model admits it at that score; the climb then starts
    there, so most puzzles need one more check, the unsat of "one point more". A seed the model
    refuses is dropped (the climb starts from nothing, as without one). ``accepted`` (when given)
    receives True if the model admitted the seed's line at its score.
    """
    if not reuse:
        return _certify(_new_solver(), pm, timeout, seed, accepted, cpu)
    s: z3.Solver | None = getattr(_solvers, "solver", None)
    if s is None:
        s = _new_solver()
    elif _solvers.limited:
        s.set("rlimit", 0)  # a budget stays set on a solver: the last question's rlimit, undone
    ceiling = current_ceiling()
    _solvers.limited = ceiling is not None and ceiling.rlimit is not None  # (the only rlimit here)
    _solvers.solver = None  # taken: put back only after a clean pop
    s.push()
    out = _certify(s, pm, timeout, seed, accepted, cpu)
    try:
        s.pop()
    except z3.Z3Exception:  # the answer stands; a solver that cannot pop is not reused
        return out
    _solvers.solver = s
    return out


def _certify(s: z3.Solver, pm: PickModel, timeout: float, seed: Seed | None,
             accepted: list[bool] | None, cpu: dict[str, int] | None) -> Certificate:
    deadline = time.perf_counter() + timeout
    cpu = {} if cpu is None else cpu

    def timed(key: str, *args: Any) -> Z3Answer:
        t0 = time.process_time()
        try:
            return decide(s, *args)
        finally:
            cpu[key] = cpu.get(key, 0) + round((time.process_time() - t0) * 1e6)
    # Last made first: the objective's indicators, then the turns from the last (the smallest
    # hands) back. Z3 meets them in that order; paired on two sets of 100 benchmark puzzles, 0.98x
    # and 0.987x the time of the order they were made in (the objective first alone: no change).
    assert_all(s, pm.constraints[::-1])
    total: list[z3.ArithRef | None] = []  # the objective as one term, made at the first model read
    best_model: z3.ModelRef | None = None
    best: int | None = None

    def budget() -> Budget | None:
        left = deadline - time.perf_counter()
        return Budget(max(1, int(left * 1000)), None) if left > 0 else None  # the deadline bounds it

    if seed is not None and pm.objective:
        lower, pins = seed
        guard = _bool("seed_bound")
        # The line's literals behind one guard too: assumed one by one, they cost a fifth more.
        line = _bool("seed_line")
        assert_all(s, [mk_implies(guard, _at_least(pm.objective, lower)), mk_implies(line, _and(*pins))])
        spend = budget()
        if spend is None:
            return STATUS_UNKNOWN, None, None, "time budget exhausted"
        answer = timed("seed_check_us", spend, [guard, line])
        if answer.sat:
            # The line's score is the seed's (the caller replays it through the spec), so its
            # model is not read: the certificate is the unsat of one point more, and a model
            # that scored the line higher would show up there (a sat answer), then fail the
            # replay. The answer keeps no model then; the picks are the seed's line.
            best = lower
            assert_all(s, _bound(pm, best + 1))
            if accepted is not None:
                accepted.append(True)
        elif answer.unknown:
            return STATUS_UNKNOWN, None, None, f"solver gave up: {answer.reason}"
    while True:
        spend = budget()
        if spend is None:
            return STATUS_UNKNOWN, best_model, best, "time budget exhausted"
        answer = timed("proof_us", spend)
        cpu["proof_checks"] = cpu.get("proof_checks", 0) + 1
        if answer.sat:
            best_model = s.model()
            if not total:
                total.append(_total(pm.objective) if pm.objective else None)
            best = _value(best_model, total[0])
            # The unsat answer to this bound is the certificate that best is the maximum.
            assert_all(s, _bound(pm, best + 1))
        elif answer.unsat:
            if best is None:
                return STATUS_UNKNOWN, None, None, "no legal pick sequence (the input is inconsistent)"
            return STATUS_OPTIMAL, best_model, best, None
        else:
            return STATUS_UNKNOWN, best_model, best, f"solver gave up: {answer.reason}"


#: A seed for :func:`certify`: a score and the literals that pin the line reaching it.
Seed = tuple[int, list[z3.BoolRef]]


def seed_literals(pm: PickModel, hands: Sequence[Sequence[int]], picks: Sequence[Turn], rules: Ruleset
                  ) -> list[z3.BoolRef] | None:
    """The model's literals for a line of picks (played through :mod:`spec.turns`), or ``None``
    when a pick has no literal (the model and the turn rules disagree: no seed then).

    Two picks in an order the model fixes (card order, see :func:`build_pick_model`) are swapped
    into it. Only the line's own literals are pinned: each pick, "no second pick" on a one-card
    turn that could take two, and whether each nigiri picked lands on a wasabi. The model's
    constraints then fix every other literal of the turn (exactly one first pick, at most one
    second, a nigiri on a wasabi only if picked), so the line is the only one: a fifth of the
    literals of pinning each, and about 2% less time a puzzle.
    """
    tableau = [0] * len(Token)
    out: list[z3.BoolRef] = []
    for t, (hand, turn) in enumerate(zip(hands, picks, strict=True)):
        res = resolve_turn(hand, tableau, turn, rules)
        apply_turn(list(hand), tableau, turn, rules)
        cards = [int(pk.card) for pk in turn]
        placed = list(res.placed)
        if len(cards) == 2 and cards[1] < cards[0] and not _order_matters(*cards):
            cards.reverse()
            placed.reverse()
        slots = ((pm.first[t], pm.first_on[t]), (pm.second[t], pm.second_on[t]))
        for i, (lits, on) in enumerate(slots):
            card = cards[i] if i < len(cards) else None
            if card is not None and card not in lits:
                return None
            if card is not None:
                out.append(lits[card])
            elif i == 1 and lits:
                out.append(pm.not_two[t])
            if card is not None and placed[i] and card not in on:
                return None
            if card is not None and card in on:
                out.append(on[card] if placed[i] else _not(on[card]))
    return out


def chosen_tokens(model: z3.ModelRef, pm: PickModel, t: int) -> list[int]:
    """The tokens the model lays on turn ``t`` (a laid nigiri becomes its wasabi stack)."""
    out = []
    for picks, on in ((pm.first[t], pm.first_on[t]), (pm.second[t], pm.second_on[t])):
        for c, v in picks.items():
            if z3.is_true(model.eval(v, model_completion=True)):
                laid = c in on and z3.is_true(model.eval(on[c], model_completion=True))
                out.append(int(STACK_OF[Card(c)]) if laid else c)
    return sorted(out)


def turn_for_tokens(hand: Sequence[int], tableau: Sequence[int], tokens: list[int], rules: Ruleset) -> Turn:
    """A legal turn (with its pick order and wasabi choices) that lays exactly ``tokens``."""
    for turn in legal_turns(hand, tableau, rules, dedupe=False):
        res = resolve_turn(hand, tableau, turn, rules)
        if sorted(int(x) for x in res.tokens) == tokens:
            return turn
    raise IllegalMoveError(f"no legal turn lays {tokens} (model and turn rules disagree)")


_scorers = threading.local()  # per thread: a solver belongs to the thread (and context) that made it


def _scorer(rules: Ruleset, opponents: int) -> TermChecker:
    """The spec's round-score terms over symbolic token and opponent icon counts, asked through
    one :class:`TermChecker` per thread, ruleset and number of opponents: the compiled terms
    answer a yes in microseconds; a no, or terms they cannot read, go to the solver, which
    decides. The opponents' icon totals are the caller's, so the literals kept are bounded."""
    cache: dict[tuple[Ruleset, int], TermChecker] = _scorers.__dict__.setdefault("cache", {})
    hit = cache.get((rules, opponents))
    if hit is None:
        m = Model()
        counts = [z3.Int(f"tableau_{t.label.replace('+', '_')}") for t in Token]
        opps = [z3.Int(f"opp{i}_icons") for i in range(opponents)]
        dishes = dish_terms(m, "me", counts, rules)
        maki = maki_terms(m, "round", [icons_term(counts, rules), *opps], rules)[0]
        if len(cache) >= 16:
            cache.clear()
        hit = cache[(rules, opponents)] = TermChecker(m, [*counts, *opps], [total_term(dishes, maki)],
                                                      literals_kept=4096)
    return hit


def spec_model_total(tableau: Sequence[int], opponents_maki: Sequence[int], rules: Ruleset) -> int:
    """The round score of a final tableau by the Z3 terms of :mod:`spec.model.scoring`."""
    out = _scorer(rules, len(opponents_maki)).expected([*tableau, *opponents_maki])
    if out is None:
        raise AssertionError(f"the scoring terms admit no score for the tableau {list(tableau)}")
    total = out[0]
    assert isinstance(total, int)
    return total


def spec_model_agrees(tableau: Sequence[int], opponents_maki: Sequence[int], rules: Ruleset,
                      total: int) -> bool:
    """Do the Z3 terms of :mod:`spec.model.scoring` score a final tableau ``total``? (The terms
    compiled into Python say yes; anything else is the solver's verdict.)"""
    return _scorer(rules, len(opponents_maki)).agrees([*tableau, *opponents_maki], [total])


def solve_z3(puzzle: Puzzle, timeout: float = 60.0) -> BestResult:
    """The optimum with Z3, proved by showing one point more is unsatisfiable.

    ``stats`` of the result: CPU microseconds of the search (``search_us``), of building the
    model and the seed's literals (``model_us``), of :func:`certify` (``certify_us``; the checks in it
    apart too, see there) and of the replay and spec re-score (``recheck_us``)."""
    start = time.perf_counter()
    cpu: dict[str, int] = {}
    clock = [time.process_time()]

    def lap(key: str) -> None:
        now = time.process_time()
        cpu[key] = cpu.get(key, 0) + round((now - clock[0]) * 1e6)
        clock[0] = now

    rules = puzzle.rules
    turns = puzzle_turns(puzzle)
    pm = build_pick_model(turns, puzzle.opponents_maki, rules)
    lap("model_us")
    # A lower bound from the search engine, over lines without two-card turns (the optimum in
    # about three puzzles of four, at two fifths of the whole search's time): Z3 checks the line
    # in its own model, then proves one point more unsatisfiable (or finds more, and climbs on).
    lower, line, _ = search_turns(turns, puzzle.opponents_maki, rules, pairs=False)
    lap("search_us")
    pins = seed_literals(pm, puzzle.hands, line, rules) if lower >= 0 else None
    seed = (lower, pins) if pins is not None else None
    lap("model_us")
    left = max(0.0, timeout - (time.perf_counter() - start))  # the search's time counts too
    status, model, score, reason = certify(pm, left, seed, reuse=True, cpu=cpu)
    lap("certify_us")
    if score is None:
        return BestResult(0, (), STATUS_UNKNOWN, "z3", time.perf_counter() - start, timeout, reason,
                          stats=cpu)
    picks: list[Turn] = []
    tableau = [0] * len(Token)
    for t, hand in enumerate(puzzle.hands):
        if model is None:  # a score without a model is the seed's: the model admitted its line
            turn = line[t]
        else:
            turn = turn_for_tokens(hand, tableau, chosen_tokens(model, pm, t), rules)
        apply_turn(list(hand), tableau, turn, rules)
        picks.append(turn)
    running = replay_puzzle(puzzle, picks)
    assert running[-1] == score, f"z3 picks replay to {running[-1]}, not {score}"
    assert spec_model_agrees(tableau, puzzle.opponents_maki, rules, score)
    lap("recheck_us")
    return BestResult(score, tuple(picks), status, "z3", time.perf_counter() - start,
                      timeout if status != STATUS_OPTIMAL else None, reason, stats=cpu)


def solve_puzzle(puzzle: Puzzle, engine: str = "z3", timeout: float = 60.0, *,
                 budget: Budget | None = None) -> BestResult:
    """The optimum of a puzzle; the Z3 engine's deadline is ``timeout`` seconds, or ``budget``'s
    ``run_seconds`` (the one :class:`Budget`; the search is exact and needs none)."""
    if budget is not None and budget.run_seconds is not None:
        timeout = budget.run_seconds
    if engine == "search":
        return solve_search(puzzle)
    if engine == "z3":
        return solve_z3(puzzle, timeout)
    raise ValueError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")


def solve_hindsight_z3(h: Hindsight, timeout: float = 60.0) -> BestResult:
    """Form 2 with Z3: the seat's picks vary, the others' stay as recorded and must stay possible."""
    start = time.perf_counter()
    specs, others, icons = hindsight_problem(h)
    pm = build_pick_model(specs, icons, h.rules, others)
    status, model, score, reason = certify(pm, timeout)
    if model is None or score is None:
        return BestResult(0, (), STATUS_UNKNOWN, "z3", time.perf_counter() - start, timeout, reason)
    # Rebuild the turns in order, replaying the whole round so each hand is the real one.
    n, rules = h.seats, h.rules
    piles = [list(d) for d in h.deal]
    tabs = [[0] * len(Token) for _ in range(n)]
    picks: list[Turn] = []
    for t in range(len(specs)):
        for i in range(n):
            pile = piles[h.pile_at(i, t)]
            if i == h.seat:
                turn = turn_for_tokens(pile, tabs[i], chosen_tokens(model, pm, t), rules)
                picks.append(turn)
            else:
                turn = h.picks[i][t]
            apply_turn(pile, tabs[i], turn, rules)
    assert spec_model_agrees(tabs[h.seat], icons, rules, score)
    return finish_hindsight(h, score, picks, status, "z3", start,
                            timeout if status != STATUS_OPTIMAL else None, reason)


def solve_hindsight(h: Hindsight, engine: str = "z3", timeout: float = 60.0, *,
                    budget: Budget | None = None) -> BestResult:
    """As :func:`solve_puzzle`, for a seat's round in hindsight (the others' picks as recorded)."""
    if budget is not None and budget.run_seconds is not None:
        timeout = budget.run_seconds
    if engine == "search":
        return solve_hindsight_search(h)
    if engine == "z3":
        return solve_hindsight_z3(h, timeout)
    raise ValueError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
