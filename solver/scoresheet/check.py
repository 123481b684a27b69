"""``check_sheet``: possible (with a witness), impossible (with a minimised core), or unknown."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import z3
from sushigo.solver.scoresheet.explain import explain, pudding_rows
from sushigo.solver.scoresheet.model import (
    DEFAULT_RLIMIT,
    DEFAULT_TIMEOUT_MS,
    Cell,
    SheetModel,
    _round_model,
    build,
)
from sushigo.solver.scoresheet.sheet import Sheet
from sushigo.solver.scoresheet.staged import STAGE_SHARE, _staged_search
from sushigo.solver.scoresheet.witness import Witness, _over_deck, _rescore, _witness
from sushigo.spec.answer import Answer, PossibleStatus
from sushigo.spec.cards import Card
from sushigo.spec.model.budget import Budget, decide
from sushigo.spec.model.scoring import card_count_terms
from sushigo.spec.record import record_from_tableaux, rules_fields


@dataclass(frozen=True)
class SheetAnswer(Answer[PossibleStatus]):
    """Whether a score sheet can come from a legal game: possible (the witness), impossible (the
    cells and rule ids of a core) or unknown (the reason)."""

    status: PossibleStatus
    witness: Witness | None = None
    cells: tuple[Cell, ...] = ()
    rule_ids: tuple[str, ...] = ()
    explanation: tuple[str, ...] = ()
    reason: str | None = None

    def to_json(self, sheet: Sheet) -> dict[str, Any]:
        out: dict[str, Any] = {"possible": {"possible": True, "impossible": False}.get(self.status)}
        if self.witness is not None:
            names = [sheet.seat_name(i) for i in range(sheet.seats)]
            out["witness"] = {
                "seats": names,
                "rounds": [[str(t) for t in row] for row in self.witness.rounds],
                "puddings": list(self.witness.puddings),
                **rules_fields(sheet.rules),
                # the same game dealt and played: 'sushigo replay' re-executes it
                "record": record_from_tableaux(self.witness.rounds, sheet.rules, len(sheet.players)),
            }
        if self.status == "impossible":
            out["explanation"] = list(self.explanation)
            out["core"] = {
                "cells": [{"row": c.row, "player": sheet.seat_name(c.seat), "value": c.value}
                          for c in self.cells],
                "rules": list(self.rule_ids),
            }
        if self.status == "unknown":
            out["reason"] = self.reason
        return out


class _Tracked:
    """One solver; every rule id, every sheet cell and every card's cross-round deck limit is
    guarded by its own literal, so a check under a subset of literals is a check of a
    subset of the sheet and the rules, and an unsat core names cells and rules."""

    def __init__(self, sm: SheetModel, timeout_ms: int, rlimit: int) -> None:
        self.sm = sm
        self.timeout_ms = timeout_ms
        self.rlimit = rlimit
        s = z3.Solver()
        s.set("timeout", timeout_ms)
        self.rules: dict[str, z3.BoolRef] = {}
        self.deck: dict[Card, z3.BoolRef] = {}
        for rid, label, cs in sm.model.groups:
            if rid == "R-DOMAIN":
                s.add(*cs)  # variable domains: never part of an explanation
                continue
            if rid == "R-DECK":
                lit = self.deck.setdefault(Card[label.upper()], z3.Bool(f"rule:R-DECK:{label}"))
            else:
                lit = self.rules.setdefault(rid, z3.Bool(f"rule:{rid}"))
            s.add(z3.Implies(lit, z3.And(*cs)))
        # Each round alone within the deck: implied by R-DECK, added so that the cross-round
        # limits can be left out at first (they are what makes the full problem slow).
        per_round = self.rules.setdefault("R-DECK", z3.Bool("rule:R-DECK"))
        for row in sm.tabs:
            used = [card_count_terms(t) for t in row]
            for card in Card:
                cap = sm.sheet.rules.copies(card)
                s.add(z3.Implies(per_round, z3.Sum([u[int(card)] for u in used]) <= cap))
        self.cells: list[tuple[Cell, z3.BoolRef]] = []
        for k, (cell, c) in enumerate(sm.cells):
            lit = z3.Bool(f"cell:{k}")
            s.add(z3.Implies(lit, c))
            self.cells.append((cell, lit))
        self.s = s

    def check(self, lits: Sequence[z3.BoolRef], rlimit: int | None = None) -> z3.CheckSatResult:
        return decide(self.s, Budget(self.timeout_ms, rlimit or self.rlimit), lits).as_z3()


def check_sheet(sheet: Sheet, timeout_ms: int = DEFAULT_TIMEOUT_MS,
                rlimit: int = DEFAULT_RLIMIT, *, budget: Budget | None = None) -> SheetAnswer:
    """Possible (with a witness re-scored by :func:`spec.scoring.score_game`), impossible (with
    an explanation from a minimised unsat core), or unknown (with the reason and the budget).
    Each main call runs within ``timeout_ms`` and ``rlimit``, or ``budget``'s (a limit it leaves
    open is the default)."""
    if budget is not None:
        timeout_ms = timeout_ms if budget.timeout_ms is None else budget.timeout_ms
        rlimit = rlimit if budget.rlimit is None else budget.rlimit
    sm = build(sheet)
    tr = _Tracked(sm, timeout_ms, rlimit)
    limits = f"rlimit {rlimit} per solver call, timeout {timeout_ms} ms"
    rules = list(tr.rules.values())
    cells = tr.cells
    # Local checks first: each round's row alone, the pudding row alone. Most wrong sheets
    # fail one of these. Each row is tried in a small model of its own: far cheaper than a
    # row on the tracked whole-sheet model, which runs (for the core) only when one looks wrong.
    rows: dict[str, list[z3.BoolRef]] = {}
    for cell, lit in cells:
        rows.setdefault(cell.row, []).append(lit)
    plausible = _rows_plausible(sheet, timeout_ms, max(1, rlimit // STAGE_SHARE))
    for row, lits in rows.items() if not plausible else ():
        if row != "total" and tr.check(rules + lits, rlimit=max(1, rlimit // 10)) == z3.unsat:
            return _impossible(tr, list(tr.s.unsat_core()))
    # A constructive pre-pass: the rounds one at a time (see :func:`_staged`). It finds a
    # witness for almost every possible sheet in a fraction of the whole model's time.
    staged = _staged_search(sheet, timeout_ms, rlimit)
    if staged is not None:
        _rescore(sheet, staged)
        return SheetAnswer("possible", witness=staged)
    # The whole sheet, untracked: tracking literals slow the search for a witness several-fold.
    # Search times are heavy-tailed: restart with another random seed and a longer budget.
    for attempt, share in enumerate((4, 2, 1)):
        plain = sm.model.solver(timeout_ms=timeout_ms, rlimit=max(1, rlimit // share))
        plain.set("random_seed", attempt)
        plain.add(*[c for _, c in sm.cells])
        r = decide(plain, Budget.kept()).as_z3()  # built with its share of the budget
        if r == z3.sat:
            witness = _witness(sm, plain.model())
            _rescore(sheet, witness)
            return SheetAnswer("possible", witness=witness)
        if r == z3.unsat:
            break
    # Impossible (or too hard untracked): the tracked solver for the core, adding each card's
    # cross-round deck limit only once a witness breaks it.
    active: list[z3.BoolRef] = []
    everything = rules + [lit for _, lit in cells]
    for _ in range(len(Card) + 1):
        r2 = tr.check(everything + active)
        if r2 == z3.unknown:
            return SheetAnswer("unknown", reason=f"{tr.s.reason_unknown()} ({limits})")
        if r2 == z3.unsat:
            return _impossible(tr, list(tr.s.unsat_core()))
        witness = _witness(sm, tr.s.model())
        over = _over_deck(sheet, witness)
        if not over:
            _rescore(sheet, witness)
            return SheetAnswer("possible", witness=witness)
        active += [tr.deck[c] for c in over]
    raise AssertionError("every deck limit was added and the witness still breaks one")


def _rows_plausible(sheet: Sheet, timeout_ms: int, rlimit: int) -> bool:
    """Each round's row alone has a table (a small untracked model each) and the pudding row
    comes from some pudding counts. False (or out of budget) only sends the check to the
    tracked row checks, which name the cells of an impossible row."""
    rules = sheet.rules
    deck = [rules.copies(c) for c in Card]
    for r in range(len(sheet.rounds)):
        m, _ = _round_model(sheet, r, deck)
        if not decide(m.solver(timeout_ms=timeout_ms, rlimit=rlimit), Budget.kept()).sat:
            return False
    if sheet.pudding is not None:
        n = len(sheet.players)
        return tuple(sheet.pudding) in {p[:n] for p in pudding_rows(rules, sheet.seats)}
    return True


def _impossible(tr: _Tracked, core: list[z3.BoolRef]) -> SheetAnswer:
    core, minimal = _minimise(tr, core)
    by_name = {str(lit): cell for cell, lit in tr.cells}
    cells = tuple(by_name[str(b)] for b in core if str(b) in by_name)
    names = {str(b) for b in core}
    rids = [rid for rid, lit in tr.rules.items() if str(lit) in names]
    if any(str(lit) in names for lit in tr.deck.values()) and "R-DECK" not in rids:
        rids.append("R-DECK")
    sheet = tr.sm.sheet
    words = explain(sheet, cells, rids)
    if not minimal:
        words.append("(the solver could not finish shrinking this explanation: it may name more than needed)")
    return SheetAnswer("impossible", cells=cells, rule_ids=tuple(rids), explanation=tuple(words))


def _minimise(tr: _Tracked, core: list[z3.BoolRef]) -> tuple[list[z3.BoolRef], bool]:
    """Deletion: drop each literal whose removal keeps the rest unsat. (core, proved minimal)"""
    kept = list(core)
    minimal = True
    for lit in list(core):
        if not any(b.eq(lit) for b in kept):
            continue
        trial = [b for b in kept if not b.eq(lit)]
        r = tr.check(trial, rlimit=max(1, tr.rlimit // 6))
        if r == z3.unknown:
            minimal = False
        elif r == z3.unsat:
            # z3's own core of the smaller set may be smaller still
            smaller = {str(b) for b in tr.s.unsat_core()}
            kept = [b for b in trial if str(b) in smaller]
    return kept, minimal
