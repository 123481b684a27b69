"""The properties ``sushigo check`` runs: the executor held against the Z3 model.

Each :class:`Property` has a strategy (per ruleset) and a check that raises
:class:`Mismatch` with the case in project notation, both results and the rule
ids involved. The executor side is always called through its module
(``scoring.score_round``, ``turns.apply_turn``) at call time, so a mutant that
patches a module attribute is what the check sees.

The Z3 side asserts the concrete case as facts in a :class:`spec.model.core.Model`
and reads the terms; one solver per (ruleset, seats) is reused with push/pop
(about 4 ms a case against 10 ms for a fresh solver). When the two sides
disagree, a second, tracked solver asserts the facts plus the executor's values
and its unsat core names the rules the executor broke.
"""

from __future__ import annotations

import contextlib
import importlib
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import sushigo.spec.scoring as scoring
import sushigo.spec.turns as turns
from hypothesis import strategies as st
from sushigo.checks import strategies as S
from sushigo.spec.cards import NIGIRI, STACK_OF, Card, Token
from sushigo.spec.errors import IllegalMoveError, SushiGoError
from sushigo.spec.model.agree import TermChecker
from sushigo.spec.model.budget import Budget, Z3Answer, decide
from sushigo.spec.model.core import Core, Model, core_rule_ids, minimal_core
from sushigo.spec.model.evaluate import Undecided
from sushigo.spec.model.rulevars import Rules, RuleVars, shape_of
from sushigo.spec.model.scoring import (
    icons_term,
    maki_terms,
    pudding_terms,
    round_terms,
    tableau_vars,
    winner_terms,
)
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.tableau import Tableau, format_tableau

ROUND_KEYS = (*scoring.CATEGORIES, "total")  # the round's columns, from the kinds (spec.kinds)
_NOT_RULES = ("FACT", "CLAIM", "R-DOMAIN")
_MAKI_TOKENS = (Token.MAKI1, Token.MAKI2, Token.MAKI3)


class Mismatch(SushiGoError, AssertionError):
    """The two sides disagree on one case."""

    def __init__(self, case: str, expected: object, actual: object, rule_ids: Sequence[str],
                 expected_by: str = "Z3 model", actual_by: str = "executor") -> None:
        super().__init__(f"{case}: {expected_by} {expected} != {actual_by} {actual}")
        self.case = case
        self.expected = expected
        self.actual = actual
        self.rule_ids = tuple(rule_ids)
        self.expected_by = expected_by
        self.actual_by = actual_by


@dataclass(frozen=True)
class Property:
    name: str
    family: str
    description: str
    strategy: Callable[[Ruleset], st.SearchStrategy[Any]]
    check: Callable[[Any, Ruleset], None]
    requires: tuple[str, ...] = ()
    weight: float = 1.0  # share of the family budget (the state machine's examples are long)
    kind: str = "given"  # "given" or "machine"
    extra: dict[str, Any] = field(default_factory=dict)

    def missing(self) -> list[str]:
        """The required modules that are not there at all (the property is skipped). A module
        that is there but fails to import (a name it cannot import, a dependency of its own
        missing) raises its ImportError: a broken install is a failure, never a skip."""
        out = []
        for mod in self.requires:
            try:
                importlib.import_module(mod)
            except ImportError as exc:
                absent = isinstance(exc, ModuleNotFoundError) and exc.name is not None and (
                    mod == exc.name or mod.startswith(exc.name + "."))
                if not absent:
                    raise ImportError(f"{mod} does not import ({type(exc).__name__}: {exc}); "
                                      "reinstall sushigo-spec") from exc
                out.append(mod)
        return out


# --------------------------------------------------------------------------- Z3 side


#: Every Z3 call of the checks runs under this budget (one case's question takes far less); an
#: unknown is reported as such (:class:`~sushigo.spec.errors.BudgetSpent`), never read as
#: agreement or mismatch.
CHECK_BUDGET = Budget(timeout_ms=20_000, rlimit=100_000_000)


def explain(m: Model, facts: Sequence[Any], claims: Sequence[Any],
            limit: Budget = CHECK_BUDGET) -> list[str]:
    """Rule ids in the (minimised) unsat core of facts + claims (empty if the model agrees).

    Z3's core minimisation runs inside ``check()``, under the budget; if it runs out, the core
    is asked for again without minimisation (a larger core, still a true one), under the budget
    again; if that runs out too, no rule is named rather than a guess.
    """
    for minimise in (True, False):
        s = m.solver(track=True)
        s.set("core.minimize", minimise)
        for k, f in enumerate(facts):
            s.assert_and_track(f, f"FACT|{k}")
        for k, c in enumerate(claims):
            s.assert_and_track(c, f"CLAIM|{k}")
        answer = decide(s, limit)
        if answer.sat:
            return []
        if answer.unsat:
            return [r for r in core_rule_ids(s.unsat_core()) if r not in _NOT_RULES]
    return []


#: What one explanation may spend: each ``check()`` 1 s and rlimit 20 000 000 (``timeout_ms``,
#: ``rlimit``), all of them together 10 s (``run_seconds``).
EXPLAIN_BUDGET = Budget(timeout_ms=1000, rlimit=20_000_000, run_seconds=10.0)


def explain_limits(budget: Budget) -> tuple[int, int, int]:
    """An explanation's budget as (ms a check, rlimit a check, ms in all); a limit the budget
    leaves open is :data:`EXPLAIN_BUDGET`'s."""
    timeout_ms = budget.timeout_ms if budget.timeout_ms is not None else EXPLAIN_BUDGET.timeout_ms
    rlimit = budget.rlimit if budget.rlimit is not None else EXPLAIN_BUDGET.rlimit
    run = budget.run_seconds if budget.run_seconds is not None else EXPLAIN_BUDGET.run_seconds
    assert timeout_ms is not None and rlimit is not None and run is not None
    return timeout_ms, rlimit, round(run * 1000)


def explain_json(budget: Budget) -> dict[str, int]:
    """What the conform report says an explanation may spend."""
    timeout_ms, rlimit, total_ms = explain_limits(budget)
    return {"timeout_ms": timeout_ms, "rlimit": rlimit, "total_ms": total_ms}


def explain_within(m: Model, facts: Sequence[Any], claims: Sequence[Any],
                   budget: Budget = EXPLAIN_BUDGET) -> Core:
    """:func:`explain` under a budget: the rule ids, or "unknown" with the budget that ran out."""
    core = minimal_core(m, [*facts, *claims], *explain_limits(budget))
    return Core(core.status, tuple(r for r in core.rule_ids if r not in _NOT_RULES), core.reason)


#: What answers "agrees" before the solver where it can (benchmarks/bench_check.py times each):
#: "compiled" (:class:`CompiledEvaluator`: the model's terms as Python, the default),
#: "substitution" (:class:`Evaluator`: ``Z3_substitute`` and ``z3.simplify`` per case, the
#: reference the tests hold the compiled one to), or "solver" (every question to the solver).
EVALUATOR = ["compiled"]
#: Cases a model leaves to the solver before its evaluator is built (see :meth:`Checker.agrees`).
#: The compiled evaluator costs about what the solver's first case does (making the solver and
#: its first check), and the solver is then never made where every case agrees: from the first.
EVALUATE_AFTER = {"compiled": 0, "substitution": 8, "solver": 0}


class Checker(TermChecker):
    """Concrete inputs in, terms out: one solver reused for every case (:class:`TermChecker`).

    ``agrees`` asks one question: are the facts plus the executor's values
    satisfiable? Every output term is a function of the inputs, so sat means
    equal. The literals ``var == value`` are built once and passed as
    assumptions (no push/pop, no model evaluation: about 3x faster). Only on
    a disagreement is the model's own answer read and the rule ids found.
    """

    def __init__(self, m: Model, inputs: Sequence[Any], outputs: Sequence[Any]) -> None:
        super().__init__(m, inputs, outputs, CHECK_BUDGET)
        self.calls = 0

    def agrees(self, inputs: Sequence[int], outputs: Sequence[object], kind: str | None = None) -> bool:
        """Agreement by the evaluator :data:`EVALUATOR` names where it decides it; a disagreement
        (and any case it cannot reduce) is asked of the solver, so a reported mismatch is always
        the solver's. ``kind`` names another evaluator for this question.

        A model asks the solver for its first ``EVALUATE_AFTER`` cases, so that one seeing only
        a few does not pay for building an evaluator it would hardly use."""
        self.calls += 1
        kind = kind or EVALUATOR[0]
        use = kind if kind != "solver" and self.calls > EVALUATE_AFTER[kind] else None
        return super().agrees(inputs, outputs, use)

    def explain(self, inputs: Sequence[int], outputs: Sequence[object]) -> list[str]:
        return explain(self.m, self.facts(inputs), self.claims(outputs))

    def explain_within(self, inputs: Sequence[int], outputs: Sequence[object],
                       budget: Budget = EXPLAIN_BUDGET) -> Core:
        return explain_within(self.m, self.facts(inputs), self.claims(outputs), budget)


# Z3 models kept per builder. Each holds its own solver (a few MB); a named ruleset needs one per
# seat count (2..5, or 3 with the dummy), and mixed-readings draws a new ruleset per case but
# mostly revisits the last few (Hypothesis mutates recent cases): 16 keep its hits (264 of 394
# cases, as with 128) while its worker peaks at 135 MB instead of 490.
MODELS_KEPT = 16


def _round_parts(m: Model, rules: Rules, seats: int) -> tuple[list[Any], list[Any]]:
    """Inputs: 15 token counts per seat; outputs: the categories and total per seat."""
    tabs = [tableau_vars(m, f"p{i}", rules) for i in range(seats)]
    terms = round_terms(m, "r", tabs, rules)
    return [v for t in tabs for v in t], [d[k] for d in terms for k in ROUND_KEYS]


def _count(m: Model, name: str, rules: Rules, card: Card, seat_bound: bool = True) -> Any:
    """A count of ``card`` between 0 and the deck's copies (a template: its copies input)."""
    if isinstance(rules, RuleVars):
        v = m.int(name, 0)
        m.add("R-DOMAIN", v <= rules.copies(int(card)), f"{name} copies")
        return v
    return m.int(name, 0, rules.copies(card))


def _maki_parts(m: Model, rules: Rules, seats: int) -> tuple[list[Any], list[Any]]:
    """Inputs: maki1..maki3 counts per seat; outputs: maki points per seat (the edge cases' model)."""
    counts = [[_count(m, f"p{i}_{t.label}", rules, Card(int(t))) for t in _MAKI_TOKENS]
              for i in range(seats)]
    icons = []
    for i, c in enumerate(counts):
        vec: list[Any] = [0] * len(Token)
        for t, v in zip(_MAKI_TOKENS, c, strict=True):
            vec[int(t)] = v
        ic = m.int(f"p{i}_maki_icons", 0)
        m.add("R-MAKI-ICONS", ic == icons_term(vec, rules), f"p{i}")
        icons.append(ic)
    return [v for c in counts for v in c], maki_terms(m, "r", icons, rules)


def _pudding_parts(m: Model, rules: Rules, seats: int) -> tuple[list[Any], list[Any]]:
    puds = [_count(m, f"p{i}_puddings", rules, Card.PUDDING) for i in range(seats)]
    return puds, pudding_terms(m, "g", puds, rules)


def _winner_parts(m: Model, rules: Rules, seats: int) -> tuple[list[Any], list[Any]]:
    shape = rules.shape if isinstance(rules, RuleVars) else rules
    totals = [m.int(f"p{i}_total", None) for i in range(seats)]
    puds = [m.int(f"p{i}_puddings", 0) for i in range(seats)]
    wins = winner_terms(m, "g", totals, puds, rules, S.players_of(shape, seats))
    return [*totals, *puds], wins


def _game_parts(m: Model, rules: Rules, seats: int) -> tuple[list[Any], list[Any]]:
    """Inputs: every round's tableaux; outputs: pudding points, game totals, winner flags."""
    shape = rules.shape if isinstance(rules, RuleVars) else rules
    n_rounds = shape.rounds
    tabs = [[tableau_vars(m, f"in{r}_p{i}", rules) for i in range(seats)] for r in range(n_rounds)]
    rounds = [round_terms(m, f"r{r}", tabs[r], rules) for r in range(n_rounds)]
    puds = []
    for i in range(seats):
        p = m.int(f"p{i}_puddings", 0)
        m.add("R-PUDDING-KEEP", p == sum(tabs[r][i][int(Token.PUDDING)] for r in range(n_rounds)))
        puds.append(p)
    pudding = pudding_terms(m, "g", puds, rules)
    totals = []
    for i in range(seats):
        t = m.int(f"p{i}_game_total", None)
        m.add("R-GAME-TOTAL", t == sum(rd[i]["total"] for rd in rounds) + pudding[i])
        totals.append(t)
    wins = winner_terms(m, "g", totals, puds, rules, S.players_of(shape, seats))
    return [v for r in tabs for t in r for v in t], [*pudding, *totals, *wins]


Parts = Callable[[Model, Rules, int], tuple[list[Any], list[Any]]]


def _checker(parts: Parts, rules: Ruleset, seats: int) -> Checker:
    m = Model()
    return Checker(m, *parts(m, rules, seats))


@lru_cache(maxsize=MODELS_KEPT)
def round_model(rules: Ruleset, seats: int) -> Checker:
    """Inputs: 15 token counts per seat; outputs: the categories and total per seat."""
    return _checker(_round_parts, rules, seats)


@lru_cache(maxsize=MODELS_KEPT)
def maki_model(rules: Ruleset, seats: int) -> Checker:
    """Inputs: maki1..maki3 counts per seat; outputs: maki points per seat (the edge cases' model)."""
    return _checker(_maki_parts, rules, seats)


@lru_cache(maxsize=MODELS_KEPT)
def pudding_model(rules: Ruleset, seats: int) -> Checker:
    return _checker(_pudding_parts, rules, seats)


@lru_cache(maxsize=MODELS_KEPT)
def winner_model(rules: Ruleset, seats: int) -> Checker:
    return _checker(_winner_parts, rules, seats)


@lru_cache(maxsize=MODELS_KEPT)
def game_model(rules: Ruleset, seats: int) -> Checker:
    """Inputs: every round's tableaux; outputs: pudding points, game totals, winner flags."""
    return _checker(_game_parts, rules, seats)


# --------------------------------------------------------------------------- one model per shape


@dataclass
class Template:
    """One model for every ruleset of a shape (:mod:`spec.model.rulevars`): its checker's inputs
    are the rule inputs (``rule_vars.vars``) and then the case's."""

    checker: Checker
    rule_vars: RuleVars


#: Templates by (builder, shape, seats): a handful a run (one per seat count and builder for the
#: named rulesets, which share one shape), kept for the whole run, unlike the models per ruleset.
_TEMPLATES: dict[tuple[Any, ...], Template] = {}
_BUILDERS: dict[str, tuple[Parts, Callable[[Ruleset, int], Checker]]] = {
    "round": (_round_parts, round_model), "maki": (_maki_parts, maki_model),
    "pudding": (_pudding_parts, pudding_model), "winner": (_winner_parts, winner_model),
    "game": (_game_parts, game_model)}


def template(kind: str, rules: Ruleset, seats: int) -> Template:
    """The template of builder ``kind`` for ``rules``' shape and ``seats`` (built at the first ask)."""
    key = (kind, shape_of(rules), seats)
    hit = _TEMPLATES.get(key)
    if hit is None:
        m = Model()
        rv = RuleVars(m, rules)
        inputs, outputs = _BUILDERS[kind][0](m, rv, seats)
        hit = _TEMPLATES[key] = Template(Checker(m, [*rv.vars, *inputs], outputs), rv)
    return hit


class ShapedChecker:
    """A ruleset's checker answering agreement through its shape's template.

    :meth:`agrees` asks the template's compiled evaluator with the ruleset's values in front
    of the case's; where it says yes, no model of this ruleset is built. Anything else (a no,
    a case it cannot reduce, another evaluator named by :data:`EVALUATOR`) and every other
    question (``expected``, ``explain``) go to this ruleset's own :class:`Checker`, built then,
    so a reported mismatch, its values and its rule ids are those of the ruleset's own model.
    """

    def __init__(self, kind: str, rules: Ruleset, seats: int) -> None:
        self.kind, self.rules, self.seats = kind, rules, seats
        self.template = template(kind, rules, seats)
        self.values = self.template.rule_vars.values(rules)
        self.outputs = self.template.checker.outputs

    @property
    def own(self) -> Checker:
        """This ruleset's own model (memoised per ruleset as before)."""
        return _BUILDERS[self.kind][1](self.rules, self.seats)

    def agrees(self, inputs: Sequence[int], outputs: Sequence[object]) -> bool:
        if EVALUATOR[0] == "compiled":
            ev = self.template.checker.evaluator("compiled")
            if ev is not None:
                with contextlib.suppress(Undecided):
                    if ev.agrees([*self.values, *inputs], outputs):
                        return True
        return self.own.agrees(inputs, outputs)

    def expected(self, inputs: Sequence[int]) -> list[object] | None:
        return self.own.expected(inputs)

    def explain(self, inputs: Sequence[int], outputs: Sequence[object]) -> list[str]:
        return self.own.explain(inputs, outputs)


@lru_cache(maxsize=MODELS_KEPT)
def shaped(kind: str, rules: Ruleset, seats: int) -> ShapedChecker:
    """The checker ``sushigo check`` asks for builder ``kind`` under ``rules`` at ``seats``."""
    return ShapedChecker(kind, rules, seats)


def release_templates() -> None:
    """Drop the templates too (a run keeps them; tests that count models call this)."""
    _TEMPLATES.clear()
    _GAME_TEMPLATES.clear()


def compare_maki(tabs: Sequence[Tableau], rules: Ruleset) -> None:
    """Maki-only tableaux: the executor's maki points and totals equal the model's maki points."""
    model = shaped("maki", rules, len(tabs))
    facts = [t.counts[int(k)] for t in tabs for k in _MAKI_TOKENS]
    case = f"tableaux {_fmt_tabs(tabs)}"
    try:
        scores = executor_round(tabs, rules)
    except Exception as exc:
        raise _crash(case, exc) from exc
    maki = [d["maki"] for d in scores]
    totals = [d["total"] for d in scores]
    if model.agrees(facts, maki) and maki == totals:
        return
    bad = maki if not model.agrees(facts, maki) else totals
    raise Mismatch(case, f"maki {model.expected(facts)}", f"maki {maki} totals {totals}",
                   model.explain(facts, bad))



def release_models() -> None:
    """Drop the memoised Z3 models (each holds its own solver and terms, several MB a game model).

    A model serves one ruleset; the runner calls this when it moves to the next one, so a
    worker holds one ruleset's models at a time instead of every ruleset's for its lifetime.
    The templates (one per shape, :func:`template`) stay: they serve the next ruleset too.
    """
    for cached in (round_model, maki_model, pudding_model, winner_model, game_model, _game_turn_model,
                   shaped):
        cached.cache_clear()
    tableaux = sys.modules.get("sushigo.solver.tableaux")  # only if a check has loaded it
    if tableaux is not None:
        tableaux.release_enumerators()


# --------------------------------------------------------------------------- checks


def _fmt_tabs(tabs: Sequence[Tableau]) -> str:
    return " | ".join(format_tableau(t) for t in tabs)


def executor_round(tabs: Sequence[Tableau], rules: Ruleset) -> list[dict[str, int]]:
    """The executor's round score per seat; the fast path's total stands if it differs."""
    out = [sc.as_dict() for sc in scoring.score_round(tabs, rules)]
    fast = scoring.round_totals([t.counts for t in tabs], rules)
    for d, f in zip(out, fast, strict=True):
        d["total"] = f
    return out


def _flat_round(scores: Sequence[dict[str, int]]) -> list[object]:
    return [d[k] for d in scores for k in ROUND_KEYS]


def _unflat_round(values: Sequence[object]) -> list[dict[str, int]]:
    n = len(ROUND_KEYS)
    return [dict(zip(ROUND_KEYS, values[i:i + n], strict=True))  # type: ignore[arg-type]
            for i in range(0, len(values), n)]


def _crash(case: str, exc: Exception) -> Mismatch:
    return Mismatch(case, "a score", f"raised {type(exc).__name__}: {exc}", [])


def compare_round(tabs: Sequence[Tableau], rules: Ruleset) -> None:
    model = shaped("round", rules, len(tabs))
    facts = [n for t in tabs for n in t.counts]
    case = f"tableaux {_fmt_tabs(tabs)}"
    try:
        actual = executor_round(tabs, rules)
    except Exception as exc:  # a crash on a legal table is a disagreement too
        raise _crash(case, exc) from exc
    flat = _flat_round(actual)
    if model.agrees(facts, flat):
        return
    expected = model.expected(facts)
    if expected is None:
        raise Mismatch(case, "impossible (outside the deck)", "scored", ["R-DECK"])
    e, a = _diff_seats(_unflat_round(expected), actual)
    raise Mismatch(case, e, a, model.explain(facts, flat))


def _diff_seats(expected: Sequence[dict[str, int]], actual: Sequence[dict[str, int]]) -> tuple[str, str]:
    e_parts, a_parts = [], []
    for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
        keys = [k for k in ROUND_KEYS if e.get(k) != a.get(k)]
        if keys:
            e_parts.append(f"seat {i} " + " ".join(f"{k}={e[k]}" for k in keys))
            a_parts.append(f"seat {i} " + " ".join(f"{k}={a.get(k)}" for k in keys))
    return "; ".join(e_parts), "; ".join(a_parts)


def check_round(table: S.Table, rules: Ruleset) -> None:
    compare_round(table.tableaux(rules), rules)


def compare_pudding(counts: Sequence[int], rules: Ruleset) -> None:
    model = shaped("pudding", rules, len(counts))
    case = f"puddings {list(counts)} ({S.players_of(rules, len(counts))} players)"
    try:
        actual = list(scoring.pudding_points(counts, rules))
    except Exception as exc:
        raise _crash(case, exc) from exc
    if not model.agrees(counts, actual):
        raise Mismatch(case, model.expected(counts), actual, model.explain(counts, actual))


def check_pudding(counts: tuple[int, ...], rules: Ruleset) -> None:
    compare_pudding(counts, rules)


def check_winners(case: tuple[tuple[int, ...], tuple[int, ...]], rules: Ruleset) -> None:
    totals, puds = case
    model = shaped("winner", rules, len(totals))
    actual = list(scoring.winners(totals, puds, rules, S.players_of(rules, len(totals))))
    flags = [i in actual for i in range(len(model.outputs))]
    facts = [*totals, *puds]
    if not model.agrees(facts, flags):
        want = model.expected(facts) or []
        raise Mismatch(f"totals {list(totals)} puddings {list(puds)}",
                       f"winners {[i for i, w in enumerate(want) if w]}", f"winners {actual}",
                       model.explain(facts, flags))


def check_game(game: S.Game, rules: Ruleset) -> None:
    rounds = game.tableaux(rules)
    seats = game.seats
    model = shaped("game", rules, seats)
    case = "game " + " / ".join(_fmt_tabs(r) for r in rounds)
    gs = scoring.score_game(rounds, rules, S.players_of(rules, seats))
    nwin = len(model.outputs) - 2 * seats
    actual: list[object] = [*(gs.pudding or [0] * seats), *gs.totals, *[i in gs.winners for i in range(nwin)]]
    facts = [n for r in rounds for t in r for n in t.counts]
    if model.agrees(facts, actual):
        return
    want = model.expected(facts)
    if want is None:
        raise Mismatch(case, "impossible (outside the deck)", "scored", ["R-DECK"])

    def show(v: Sequence[object]) -> str:
        wins = [i for i, w in enumerate(v[2 * seats:]) if w]
        return f"pudding {list(v[:seats])} totals {list(v[seats:2 * seats])} winners {wins}"

    raise Mismatch(case, show(want), show(actual), model.explain(facts, actual))


# --------------------------------------------------------------------------- turn rules


_RULE_RE = re.compile(r"\((R-[A-Z0-9-]+)\)")
_NIG = {int(c) for c in NIGIRI}
_STACK = {int(c): int(t) for c, t in STACK_OF.items()}


def oracle_turn(hand: Sequence[int], tableau: Sequence[int], picks: Sequence[tuple[Card, bool | None]],
                rules: Ruleset) -> tuple[str | None, tuple[int, ...], tuple[int, ...]]:
    """An independent reading of the turn rules: (broken rule id or None, hand after, tableau after)."""
    h, t = list(hand), list(tableau)
    chop, was = int(Card.CHOPSTICKS), int(Card.WASABI)
    if len(picks) == 2 and tableau[chop] < 1:
        return "R-CHOPSTICKS-EARLIER", tuple(h), tuple(t)
    free_at_start = tableau[was]
    taken_this_turn = 0
    used = 0
    for card, flag in picks:
        c = int(card)
        if h[c] < 1:
            return "R-PICK", tuple(hand), tuple(tableau)
        h[c] -= 1
        free = free_at_start - used + (taken_this_turn if rules.wasabi_same_turn else 0)
        if c in _NIG:
            if flag is True and free < 1:
                return "R-WASABI-ONE", tuple(hand), tuple(tableau)
            if flag is False and free > 0 and rules.wasabi_automatic:
                return "R-WASABI-PLACE", tuple(hand), tuple(tableau)
            if free > 0 and flag is not False:
                used += 1
                t[was] -= 1
                t[_STACK[c]] += 1
            else:
                t[c] += 1
        else:
            t[c] += 1
            if c == was:
                taken_this_turn += 1
    if len(picks) == 2:
        t[chop] -= 1
        h[chop] += 1
    return None, tuple(h), tuple(t)


def _turn_text(case: S.TurnCase) -> str:
    hand = " ".join(f"{c.label}*{n}" if n > 1 else c.label for c in Card if (n := case.hand[int(c)]))
    picks = " ".join(c.label + ("" if f is None else ":wasabi" if f else ":plain") for c, f in case.picks)
    return f"hand [{hand}] tableau [{format_tableau(Tableau(case.tableau))}] turn [{picks}]"


def check_turn(case: S.TurnCase, rules: Ruleset) -> None:
    want_rule, want_h, want_t = oracle_turn(case.hand, case.tableau, case.picks, rules)
    h, t = list(case.hand), list(case.tableau)
    turn = tuple(turns.Pick(c, f) for c, f in case.picks)
    got_rule: str | None = None
    try:
        turns.apply_turn(h, t, turn, rules)
    except IllegalMoveError as exc:
        m = _RULE_RE.search(str(exc))
        got_rule = m.group(1) if m else "illegal"
        h, t = list(case.hand), list(case.tableau)

    def show(rule: str | None, hh: Sequence[int], tt: Sequence[int]) -> str:
        if rule:
            return f"illegal ({rule})"
        return f"legal -> tableau [{format_tableau(Tableau(tuple(tt)))}], {sum(hh)} cards passed on"

    if (want_rule is None) != (got_rule is None) or (
        want_rule is None and (tuple(h), tuple(t)) != (want_h, want_t)
    ):
        ids = [r for r in (want_rule, got_rule) if r and r != "illegal"]
        if not ids:
            nigiri = any(c in NIGIRI for c, _ in case.picks)
            ids = ["R-WASABI-ONE", "R-WASABI-PLACE"] if nigiri else ["R-PICK"]
        raise Mismatch(_turn_text(case), show(want_rule, want_h, want_t), show(got_rule, h, t),
                       ids, expected_by="rules (independent reading)")


def check_pick_order(table: S.Table, rules: Ruleset) -> None:
    """Playing each seat's picks one card a turn through the executor leaves the expected tableau."""
    for picks in table.picks:
        want = S.tableau_of_picks(picks, rules)
        hand = [0] * len(Card)
        for c in picks:
            hand[int(c)] += 1
        tab = [0] * len(Token)
        try:
            for c in picks:
                turns.apply_turn(hand, tab, (turns.Pick(c),), rules)
            got = format_tableau(Tableau(tuple(tab)))
        except (IllegalMoveError, ValueError) as exc:
            got = f"raised {exc}"
        if got != format_tableau(want):
            raise Mismatch(f"picks [{S.format_picks(picks)}]", format_tableau(want), got,
                           ["R-WASABI-PLACE", "R-WASABI-ONE"], expected_by="rules (independent reading)")


# --------------------------------------------------------------------------- registry


def _properties() -> list[Property]:
    props = [
        Property("round-scores", "scoring", "round scores per category: executor = Z3 model",
                 lambda r: S.tables(r), check_round),
        Property("pudding-scores", "scoring", "pudding points: executor = Z3 model",
                 lambda r: S.pudding_counts(r), check_pudding),
        Property("winners", "scoring", "winners from totals and puddings: executor = Z3 model",
                 lambda r: S.totals_and_puddings(r), check_winners),
        Property("game-totals", "scoring", "3-round game: pudding, totals, winners: executor = Z3 model",
                 lambda r: S.games(r), check_game, weight=0.25),
        Property("turn-rules", "turns", "one proposed turn: executor legality and result = rules",
                 lambda r: S.turn_cases(r), check_turn),
        Property("pick-orders", "turns", "pick orders played one card a turn give the expected tableau",
                 lambda r: S.tables(r), check_pick_order),
    ]
    props += _later_properties()
    return props


PROPERTIES: list[Property] = []


def all_properties() -> list[Property]:
    if not PROPERTIES:
        PROPERTIES.extend(_properties())
    return PROPERTIES


# --------------------------------------------------------------------------- executor games


@dataclass(frozen=True)
class GameCase:
    players: int
    seed: int
    policies: tuple[str, ...]


def game_cases(rules: Ruleset) -> st.SearchStrategy[GameCase]:
    from sushigo.spec.policies import POLICIES

    names = sorted(POLICIES)

    @st.composite
    def build(draw: st.DrawFn) -> GameCase:
        players = S.players_of(rules, draw(st.sampled_from(S.seat_counts(rules))))
        seed = draw(st.integers(0, 2**32 - 1))
        pols = tuple(draw(st.sampled_from(names)) for _ in range(players))
        return GameCase(players, seed, pols)

    return build()


@lru_cache(maxsize=MODELS_KEPT)
def _game_turn_model(rules: Ruleset, players: int) -> Any:
    from sushigo.spec.model.game import build_game

    return build_game(rules, players)


_GAME_TEMPLATES: dict[tuple[Any, ...], Any] = {}


def _game_template(rules: Ruleset, players: int) -> Any:
    """The whole-game template (:func:`spec.model.game.build_template`) of ``rules``' shape at
    ``players``, built for the first ruleset of that shape met and kept for the run."""
    from sushigo.spec.model.game import build_template

    key = shape_of(rules, players)
    hit = _GAME_TEMPLATES.get(key)
    if hit is None:
        hit = _GAME_TEMPLATES[key] = build_template(rules, players)
    return hit


_STEPS = [0]  # seat-turns checked by the last game (the runner counts them as cases)


def check_executor_game(case: GameCase, rules: Ruleset) -> None:
    """A played game: every card accounted for at every step; the whole record satisfies the model."""
    import sushigo.spec.executor as ex
    from sushigo.spec.model import facts as F

    where = f"game players={case.players} seed={case.seed} policies={','.join(case.policies)}"
    steps = 0
    for state in ex.iter_game(case.players, case.seed, rules, list(case.policies)):
        acc = ex.accounting(state)
        if not acc.ok:
            raise Mismatch(f"{where}, round {state.round_index + 1} after turn {state.turn} ({state.phase})",
                           "every card of the deck accounted for", "; ".join(acc.problems()), ["R-DECK"],
                           expected_by="rules.deck")
        if state.phase == "turn":
            steps += len(state.hands)
    _STEPS[0] = steps
    record = ex.play_game(case.players, case.seed, rules, list(case.policies))
    # The shape's template with this ruleset's numbers as facts decides a record that agrees; any
    # other answer is this ruleset's own model's to give (and to explain), as before.
    tm = _game_template(rules, case.players)
    assert tm.rule_vars is not None
    facts = [(F.FACT, "rules", tm.rule_vars.facts(rules)),
             *F.record_facts(tm, record, tableaux=True, scores=True, end=True)]
    if F.check(tm.model, facts, solve_eqs=True, want_model=False).status == "sat":
        return
    gm = _game_turn_model(rules, case.players)
    res = F.check(gm.model, F.record_facts(gm, record, tableaux=True, scores=True, end=True), track=False,
                  solve_eqs=True, want_model=False)
    if res.status == "sat":
        return
    if res.status == "unknown":
        raise Z3Answer("unknown", res.reason).spent()
    core = F.check(gm.model, F.record_facts(gm, record, tableaux=True, scores=True, end=True), track=True)
    if core.status == "unknown":  # the explanation ran out of budget: still never a mismatch
        raise Z3Answer("unknown", core.reason).spent()
    labels = [lab.split("|")[1] for lab in core.core_labels if lab.startswith("FACT|")]
    raise Mismatch(where, f"the model's turn constraints ({res.status})",
                   f"record breaks them at {', '.join(labels[:4]) or '?'}",
                   core.core or [res.reason], expected_by="Z3 turn model", actual_by="executor record")


# --------------------------------------------------------------------------- solver answers


@dataclass(frozen=True)
class PuzzleCase:
    hands: tuple[tuple[int, ...], ...]
    opponents: tuple[int, ...]


def puzzle_cases(rules: Ruleset) -> st.SearchStrategy[PuzzleCase]:
    """Small ``best`` puzzles: 2-3 turns, hands of 2-4 cards from the deck, 0-2 opponents' maki icons."""
    specials = [Card.CHOPSTICKS, Card.WASABI, *NIGIRI, Card.MAKI3, Card.TEMPURA, Card.DUMPLING]

    @st.composite
    def build(draw: st.DrawFn) -> PuzzleCase:
        left = list(rules.deck)
        turns_n = draw(st.integers(2, 3))
        size = draw(st.integers(turns_n, 4))
        hands = []
        for t in range(turns_n):
            hand = [0] * len(Card)
            for c in draw(st.lists(st.sampled_from(specials), min_size=size - t, max_size=size - t)):
                if left[int(c)] > 0:
                    left[int(c)] -= 1
                    hand[int(c)] += 1
            if sum(hand) == 0:
                hand[int(Card.EGG)] = 1
            hands.append(tuple(hand))
        opp = tuple(draw(st.lists(st.integers(0, 6), max_size=2)))
        return PuzzleCase(tuple(hands), opp)

    return build()


def _brute_best(puzzle: Any, rules: Ruleset) -> int:
    """Every play of the puzzle through the executor's turn rules: the best final score."""
    from sushigo.solver.search import tableau_score

    best = -1

    def go(t: int, tab: list[int]) -> None:
        nonlocal best
        if t == len(puzzle.hands):
            best = max(best, tableau_score(tab, puzzle.opponents_maki, rules))
            return
        for turn in turns.legal_turns(puzzle.hands[t], tab, rules):
            nt = list(tab)
            turns.apply_turn(list(puzzle.hands[t]), nt, turn, rules)
            go(t + 1, nt)

    go(0, [0] * len(Token))
    return best


def check_best(case: PuzzleCase, rules: Ruleset) -> None:
    """``best``: the Z3 engine and the search engine agree, replay to their score, and no play beats them."""
    from sushigo.solver.best import solve_z3
    from sushigo.solver.search import Puzzle, replay_puzzle, solve_search

    puzzle = Puzzle(case.hands, case.opponents, rules)
    text = ("puzzle hands " + " / ".join(
        " ".join(c.label for c in Card for _ in range(h[int(c)])) for h in case.hands)
        + f" opponents_maki {list(case.opponents)}")
    search = solve_search(puzzle)
    z = solve_z3(puzzle, timeout=20.0)
    brute = _brute_best(puzzle, rules)
    for res in (search, z):
        if res.status != "optimal":
            continue  # an honest unknown is not a disagreement
        replayed = replay_puzzle(puzzle, res.picks)[-1]
        if replayed != res.score:
            raise Mismatch(text, f"picks replay to {replayed}", f"{res.engine} says {res.score}",
                           ["R-PICK"], expected_by="executor", actual_by=f"best ({res.engine})")
        if res.score != brute:
            raise Mismatch(text, f"best play {brute}", f"{res.engine} optimum {res.score}", ["R-ROUND-TOTAL"],
                           expected_by="every executor play", actual_by=f"best ({res.engine})")


@dataclass(frozen=True)
class TableauxCase:
    score: int
    cards: int
    maki_points: int


def tableaux_cases(rules: Ruleset) -> st.SearchStrategy[TableauxCase]:
    pts = sorted({0, rules.maki_first_points, rules.maki_second_points, rules.maki_first_points // 2})
    return st.builds(TableauxCase, st.integers(0, 24), st.integers(0, 5), st.sampled_from(pts))


def check_tableaux(case: TableauxCase, rules: Ruleset) -> None:
    """Every tableau ``tableaux`` lists has the size asked and re-scores (executor) to the score asked."""
    from sushigo.solver.tableaux import enumerate_tableaux

    en = enumerate_tableaux(case.score, case.cards, case.maki_points, rules, limit=40)
    for t in en.tableaux:
        got = sum(scoring.dish_points(t.counts, rules)) + case.maki_points
        icons = scoring.maki_icons(t.counts, rules)
        if t.size != case.cards or got != case.score or (case.maki_points > 0 and icons == 0):
            raise Mismatch(f"tableaux score={case.score} cards={case.cards} maki_points={case.maki_points}: "
                           f"{format_tableau(t)}", f"{case.cards} cards scoring {case.score}",
                           f"{t.size} cards scoring {got} ({icons} icons)",
                           ["R-ROUND-TOTAL", "R-HAND-SIZE", "R-MAKI-ZERO"],
                           expected_by="executor re-score", actual_by="tableaux")


def mixed_cases(rules: Ruleset) -> st.SearchStrategy[tuple[Ruleset, S.Table, tuple[int, ...]]]:
    """Any combination of the contested readings (not only the named rulesets), a table and puddings,
    under the rule numbers of ``rules``."""

    @st.composite
    def build(draw: st.DrawFn) -> tuple[Ruleset, S.Table, tuple[int, ...]]:
        mixed = draw(S.rulesets(rules))
        return mixed, draw(S.tables(mixed)), draw(S.pudding_counts(mixed))

    return build()


def check_mixed(case: tuple[Ruleset, S.Table, tuple[int, ...]], rules: Ruleset) -> None:
    del rules
    mixed, table, puds = case
    try:
        compare_round(table.tableaux(mixed), mixed)
        compare_pudding(puds, mixed)
    except Mismatch as exc:
        exc.case = f"readings {mixed.name}: {exc.case}"
        raise


def _later_properties() -> list[Property]:
    return [
        Property("mixed-readings", "scoring", "any combination of readings: round and pudding scores, "
                 "executor = Z3 model", mixed_cases, check_mixed, weight=0.25, extra={"once": True}),
        Property("solver-best", "solver", "best: Z3 = search = the best of every executor play; picks "
                 "replay to the score", puzzle_cases, check_best,
                 requires=("sushigo.solver.best", "sushigo.solver.search"), weight=0.5,
                 extra={"no_dummy": "puzzles are one player's turns; the dummy changes nothing"}),
        Property("solver-tableaux", "solver", "tableaux: every listed tableau re-scores to its score",
                 tableaux_cases, check_tableaux, requires=("sushigo.solver.tableaux",), weight=0.5),
        Property("executor-games", "executor", "played games: cards accounted every step; record "
                 "satisfies the Z3 turn model step by step", game_cases, check_executor_game,
                 requires=("sushigo.spec.executor", "sushigo.spec.model.game", "sushigo.spec.model.facts"),
                 weight=0.008, extra={"count": "steps"}),
        Property("turn-machine", "executor", "state machine: any legal turn, chopsticks, round end; "
                 "invariants after every step", _machine_for, _no_check,
                 requires=("sushigo.spec.executor",), kind="machine", weight=1.0,
                 extra={"steps": 40, "no_dummy": "the machine plays plain turns, not the dummy's"}),
    ]


def _no_check(case: Any, rules: Ruleset) -> None:
    del case, rules


def _machine_for(rules: Ruleset) -> Any:
    return make_machine(rules)


def make_machine(rules: Ruleset) -> type[Any]:
    """A RuleBasedStateMachine that plays a game turn by turn with the executor's parts.

    The deck comes from the executor (``deal_order``), every turn from
    ``spec.turns`` (any legal turn, chopsticks included, chosen by Hypothesis),
    and each round is scored by ``spec.scoring`` and held against the Z3 model.
    Invariants after every step: every card of the deck is somewhere (R-DECK),
    every hand holds the hand size minus the turns played (R-HAND-SIZE: one
    card net per turn, chopsticks returned), no count is negative.
    """
    import random

    import sushigo.spec.executor as ex
    from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

    players_choice = sorted({S.players_of(rules, n) for n in S.seat_counts(rules)})

    class TurnMachine(RuleBasedStateMachine):
        steps_run = 0

        def __init__(self) -> None:
            super().__init__()
            self.ready = False

        @initialize(players=st.sampled_from(players_choice), seed=st.integers(0, 2**32 - 1))
        def deal(self, players: int, seed: int) -> None:
            self.where = f"players={players} seed={seed}"
            self.players, self.seats = players, rules.seats(players)
            self.size = rules.hand_size(players)
            deck = ex.deal_order(rules)
            random.Random(seed).shuffle(deck)
            self.deck = deck
            self.round = 0
            self.kept = [0] * self.seats
            self.discard = [0] * len(Card)
            self.log: list[str] = []
            self._deal()
            self.ready = True

        def _deal(self) -> None:
            self.hands = []
            for _ in range(self.seats):
                block, self.deck = self.deck[:self.size], self.deck[self.size:]
                self.hands.append([block.count(c) for c in Card])
            self.tabs = [[0] * len(Token) for _ in range(self.seats)]
            self.turn = 0

        def _cards(self) -> list[int]:
            total = [self.deck.count(c) for c in Card]
            for h in self.hands:
                total = [a + b for a, b in zip(total, h, strict=True)]
            for t in self.tabs:
                total = [a + b for a, b in zip(total, Tableau(tuple(t)).card_counts(), strict=True)]
            total[int(Card.PUDDING)] += sum(self.kept)
            return [a + b for a, b in zip(total, self.discard, strict=True)]

        def _fail(self, expected: str, actual: str, ids: list[str]) -> None:
            steps = " / ".join(self.log[-3:])
            raise Mismatch(f"machine {self.where}, round {self.round + 1} turn {self.turn}"
                           + (f": {steps}" if steps else " (after the deal)"), expected, actual, ids,
                           expected_by="invariant")

        @precondition(lambda self: self.ready and sum(self.hands[0]) > 0)
        @rule(choices=st.lists(st.integers(0, 2**16), min_size=5, max_size=5))
        def play_turn(self, choices: list[int]) -> None:
            picks = []
            for seat in range(self.seats):
                options = turns.legal_turns(self.hands[seat], self.tabs[seat], rules)
                # Bias toward chopsticks uses: they are rare among the options but hold the rules.
                doubles = [o for o in options if len(o) == 2]
                pool = doubles if doubles and choices[seat] % 3 == 0 else options
                turn = pool[choices[seat] % len(pool)]
                turns.apply_turn(self.hands[seat], self.tabs[seat], turn, rules)
                picks.append(" ".join(turns.format_turn(turn)))
            self.log.append(f"turn {self.turn + 1}: " + " | ".join(picks))
            off = rules.pass_offset(self.round)
            self.hands = [self.hands[(i - off) % self.seats] for i in range(self.seats)]
            self.turn += 1
            TurnMachine.steps_run += self.seats

        @precondition(lambda self: self.ready and sum(self.hands[0]) == 0 and self.round < rules.rounds)
        @rule()
        def end_round(self) -> None:
            tabs = [Tableau(tuple(t)) for t in self.tabs]
            compare_round(tabs, rules)
            for i, t in enumerate(tabs):
                cards = list(t.card_counts())
                self.kept[i] += cards[int(Card.PUDDING)]
                cards[int(Card.PUDDING)] = 0
                self.discard = [a + b for a, b in zip(self.discard, cards, strict=True)]
            self.round += 1
            self.log.append(f"round {self.round} scored")
            if self.round < rules.rounds:
                self._deal()
            else:
                self.tabs = [[0] * len(Token) for _ in range(self.seats)]

        @precondition(lambda self: self.ready and self.round >= rules.rounds)
        @rule(players=st.sampled_from(players_choice), seed=st.integers(0, 2**32 - 1))
        def next_game(self, players: int, seed: int) -> None:
            self.deal(players, seed)

        @invariant()
        def every_card_accounted(self) -> None:
            if self.ready and self._cards() != list(rules.deck):
                self._fail(f"deck {list(rules.deck)}", f"cards found {self._cards()}", ["R-DECK"])

        @invariant()
        def hands_shrink_by_one(self) -> None:
            if not self.ready or self.round >= rules.rounds:
                return
            sizes = [sum(h) for h in self.hands]
            want = self.size - self.turn
            if any(n != want for n in sizes):
                self._fail(f"every hand holds {want} cards", f"hands hold {sizes}",
                           ["R-HAND-SIZE", "R-CHOPSTICKS-RETURN"])
            if any(v < 0 for t in self.tabs for v in t):
                self._fail("no negative count", f"tableaux {self.tabs}", ["R-TABLEAU"])

    return TurnMachine
