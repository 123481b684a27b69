"""Concrete facts (a deal, picks, tableaux, scores) as extra constraints on a model.

Facts are groups like the model's own, tagged ``FACT`` and labelled with where
they come from (``r1 t3 p2 pick``), so an unsat core names both the facts and
the rules they break. Nothing here runs the executor: a record is read as
data and stated as equations over the model's variables.

:func:`check` answers sat / unsat / unknown (with the reason and the budget),
never a guess.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3
from sushigo.spec.answer import Answer, Z3Status
from sushigo.spec.cards import NIGIRI, STACK_OF, Card, Token
from sushigo.spec.errors import InputError
from sushigo.spec.model.budget import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS, Budget, decide
from sushigo.spec.model.core import Model, assert_all, core_rule_ids, mk_eq, mk_ge, mk_if, mk_sum
from sushigo.spec.model.game import GameModel
from sushigo.spec.model.turns import SeatTurn
from sushigo.spec.record import GameRecord
from sushigo.spec.tableau import Tableau
from sushigo.spec.turns import Pick, parse_pick

FACT = "FACT"
Group = tuple[str, str, list[z3.BoolRef]]


def _record(record: GameRecord | dict[str, Any]) -> GameRecord:
    return record if isinstance(record, GameRecord) else GameRecord.from_json(record)


def deal_facts(gm: GameModel, round_index: int, hands: Sequence[Sequence[Card]]) -> list[Group]:
    """The hands as dealt in a round (order does not matter to the model)."""
    rm = gm.rounds[round_index]
    if len(hands) != rm.seats:
        raise InputError(f"round {round_index + 1}: {len(hands)} hands for {rm.seats} seats")
    out: list[Group] = []
    for i, hand in enumerate(hands):
        counts = [0] * len(Card)
        for c in hand:
            counts[int(c)] += 1
        out.append((FACT, f"r{round_index} p{i} deal",
                    [mk_eq(v, k) for v, k in zip(rm.deal[i], counts, strict=True)]))
    if rm.draws:
        # dummy-2p: the dummy's pile is listed top card first, one drawn per turn.
        pile = hands[gm.players]
        if len(pile) != len(rm.draws):
            raise InputError(f"round {round_index + 1}: the dummy pile has {len(pile)} cards, "
                             f"not {len(rm.draws)}")
        for t, c in enumerate(pile):
            out.append((FACT, f"r{round_index} t{t} dummy draw",
                        [mk_eq(v, 1 if k == int(c) else 0) for k, v in enumerate(rm.draws[t])]))
    return out


def _pick_facts(st: SeatTurn, first: Pick, rest: Sequence[Pick]) -> list[z3.BoolRef]:
    """A turn's picks: the first card, then the cards taken with chopsticks.

    Every token count the record settles is stated as a unit equation (zeros
    included), so the solver's preprocessing turns a whole record into
    constants without search.
    """
    out: list[z3.BoolRef] = [mk_eq(st.uses, len(rest))]
    out += _placed(st.first, [first], st.free)
    out += _placed(st.second, list(rest), st.free_mid)
    return out


def _placed(v: list[z3.ArithRef], picks: Sequence[Pick], free: z3.ArithRef) -> list[z3.BoolRef]:
    """Token counts of some picks; a bare nigiri name means "on a free wasabi if there is one"."""
    counts = [0] * len(Card)
    for p in picks:
        counts[int(p.card)] += 1
    out: list[z3.BoolRef] = []
    for c in Card:
        k = counts[int(c)]
        if c not in NIGIRI:
            out.append(mk_eq(v[int(c)], k))
            continue
        plain, stack = v[int(c)], v[int(STACK_OF[c])]
        if k == 0:
            out += [mk_eq(plain, 0), mk_eq(stack, 0)]
            continue
        out.append(mk_eq(mk_sum([plain, stack]), k))
        if len(picks) != 1:
            continue  # an illegal multi-pick turn: the card counts are the fact
        pick = picks[0]
        if pick.wasabi is None:
            out.append(mk_eq(stack, mk_if(mk_ge(free, 1), 1, 0)))
        else:
            out.append(mk_eq(stack, 1 if pick.wasabi else 0))
    return out


def turn_facts(
    gm: GameModel, round_index: int, turn: int, seat: int, picks: Sequence[str | Pick]
) -> list[Group]:
    """One seat's picks at one turn (any number, so that an illegal record can be stated)."""
    if not picks:
        raise InputError(f"round {round_index + 1}, turn {turn + 1}, player {seat}: a turn takes a card")
    ps = [p if isinstance(p, Pick) else parse_pick(p) for p in picks]
    st = gm.rounds[round_index].turns[turn][seat]
    return [(FACT, f"r{round_index} t{turn} p{seat} pick", _pick_facts(st, ps[0], ps[1:]))]


def tableau_facts(gm: GameModel, round_index: int, tableaux: Sequence[Tableau]) -> list[Group]:
    """The final tableaux of a round."""
    final = gm.rounds[round_index].final
    return [(FACT, f"r{round_index} p{i} tableau",
             [mk_eq(v, k) for v, k in zip(final[i], tab.counts, strict=True)])
            for i, tab in enumerate(tableaux)]


def score_facts(gm: GameModel, round_index: int, scores: Sequence[int]) -> list[Group]:
    return [(FACT, f"r{round_index} p{i} score", [mk_eq(gm.scores[round_index][i]["total"], s)])
            for i, s in enumerate(scores)]


def end_facts(gm: GameModel, record: GameRecord) -> list[Group]:
    """Pudding cards, pudding points, game totals and winners of a complete record."""
    out: list[Group] = [
        (FACT, "puddings", [mk_eq(v, k) for v, k in zip(gm.puddings, record.puddings, strict=True)])
    ]
    if gm.pudding is not None and record.pudding is not None:
        out.append((FACT, "pudding", [mk_eq(v, k) for v, k in zip(gm.pudding, record.pudding, strict=True)]))
    out.append((FACT, "totals", [mk_eq(v, k) for v, k in zip(gm.totals, record.totals, strict=True)]))
    out.append((FACT, "winners", [w if i in record.winners else z3.Not(w) for i, w in enumerate(gm.wins)]))
    return out


def record_facts(
    gm: GameModel,
    record: GameRecord | dict[str, Any],
    *,
    deal: bool = True,
    picks: bool = True,
    tableaux: bool = False,
    scores: bool = False,
    end: bool = False,
    upto: tuple[int, int] | None = None,
) -> list[Group]:
    """A game record as facts: the deals and picks by default; tableaux, scores, end optionally.

    Only the rounds the model has are used, so a 1-round model checks the first
    round of a record. ``upto=(round, turn)`` states the picks up to and
    including that turn only (the later ones are left free), which is how the
    first illegal step of a record is isolated. Use :func:`check` with the model to decide them.
    """
    rec = _record(record)
    if rec.seats != gm.seats:
        raise InputError(f"the record has {rec.seats} seats but the model {gm.seats}")
    if len(rec.rounds) < len(gm.rounds):
        raise InputError(f"the record has {len(rec.rounds)} rounds but the model {len(gm.rounds)}")
    out: list[Group] = []
    for r, (rm, rr) in enumerate(zip(gm.rounds, rec.rounds, strict=False)):
        if deal:
            out += deal_facts(gm, r, rr.hands)
        if picks:
            if len(rr.turns) != rm.hand_size:
                raise InputError(f"round {r + 1} of the record has {len(rr.turns)} turns, not {rm.hand_size}")
            for t, step in enumerate(rr.turns):
                if upto is not None and (r, t) > upto:
                    break
                for i, turn in enumerate(step):
                    out += turn_facts(gm, r, t, i, turn)
        if tableaux:
            out += tableau_facts(gm, r, rr.tableaux)
        if scores:
            out += score_facts(gm, r, rr.scores)
    if end and gm.complete:
        out += end_facts(gm, rec)
    return out


@dataclass(frozen=True)
class CheckResult(Answer[Z3Status]):
    """``status`` is sat, unsat or unknown; ``model`` on sat, ``core`` (rule ids) on unsat."""

    status: Z3Status
    model: z3.ModelRef | None = None
    core: list[str] = field(default_factory=list)
    core_labels: list[str] = field(default_factory=list)
    reason: str = ""

    def value(self, term: z3.ExprRef) -> int | bool:
        assert self.model is not None
        v = self.model.eval(term, model_completion=True)
        if z3.is_bool(v):
            return bool(z3.is_true(v))
        return int(v.as_long())


def check(
    m: Model,
    facts: Iterable[Group] = (),
    *,
    track: bool = False,
    exclude: Iterable[str] = (),
    timeout_ms: int | None = DEFAULT_TIMEOUT_MS,
    rlimit: int | None = DEFAULT_RLIMIT,
    solve_eqs: bool = False,
    want_model: bool = True,
) -> CheckResult:
    """Decide the model plus facts; with ``track``, an unsat answer carries a minimised core.

    ``exclude`` drops every group of the given rule ids: if dropping a rule
    makes an unsat record satisfiable, that rule is what the record breaks.

    ``solve_eqs`` (without ``track``): facts that fix every variable (a whole record) are
    decided fastest by substituting the unit equations first (Z3's propagate-values and
    solve-eqs tactics), then Z3's complete ``smt`` tactic: half the time of the default
    solver's own preprocessing on a game record, and the same sat / unsat (an unknown is still
    unknown). ``want_model=False`` leaves a sat answer without its model (fetching one costs
    several milliseconds on a game).
    """
    skip = set(exclude)
    limit = Budget(timeout_ms, rlimit)
    if solve_eqs and not track:
        s = z3.Then("simplify", "propagate-values", "solve-eqs", "smt").solver()
    else:
        s = z3.Solver()
    if track:
        s.set("core.minimize", True)  # the minimisation runs inside check(), under the budget
    groups = [g for g in m.groups if g[0] not in skip] + list(facts)
    if track:
        for k, (rid, label, cs) in enumerate(groups):
            s.assert_and_track(z3.And(*cs), z3.Bool(f"{rid}|{label or k}|{k}"))
    else:
        assert_all(s, (c for _, _, cs in groups for c in cs))
    answer = decide(s, limit)
    if answer.sat:
        return CheckResult("sat", model=s.model() if want_model else None)
    if answer.unsat:
        core = list(s.unsat_core()) if track else []
        return CheckResult("unsat", core=core_rule_ids(core), core_labels=[str(b) for b in core])
    return CheckResult("unknown", reason=answer.reason)


def token_counts(result: CheckResult, counts: Sequence[z3.ArithRef]) -> tuple[int, ...]:
    """Concrete counts from a sat answer (e.g. a final tableau, 15 by Token)."""
    return tuple(int(result.value(v)) for v in counts)


def tableau_of(result: CheckResult, counts: Sequence[z3.ArithRef]) -> Tableau:
    assert len(counts) == len(Token)
    return Tableau(token_counts(result, counts))
