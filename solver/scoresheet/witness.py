"""A witness game for a possible sheet, read from a model and re-scored by the plain scorer."""

from __future__ import annotations

from dataclasses import dataclass

import z3
from sushigo.solver.scoresheet.model import SheetModel
from sushigo.solver.scoresheet.sheet import Sheet
from sushigo.spec.cards import Card
from sushigo.spec.scoring import score_game
from sushigo.spec.tableau import Tableau


@dataclass(frozen=True)
class Witness:
    rounds: tuple[tuple[Tableau, ...], ...]  # [round][seat]
    puddings: tuple[int, ...]


def _witness(sm: SheetModel, mdl: z3.ModelRef) -> Witness:
    rounds = tuple(
        tuple(Tableau(tuple(mdl.eval(v, model_completion=True).as_long() for v in t)) for t in row)
        for row in sm.tabs
    )
    puds = tuple(mdl.eval(p, model_completion=True).as_long() for p in sm.puddings)
    return Witness(rounds, puds)


def _over_deck(sheet: Sheet, w: Witness) -> list[Card]:
    used = [0] * len(Card)
    for row in w.rounds:
        for t in row:
            for c, n in enumerate(t.card_counts()):
                used[c] += n
    return [c for c in Card if used[int(c)] > sheet.rules.copies(c)]


def _rescore(sheet: Sheet, w: Witness) -> None:
    """The witness must give back the sheet through the executor's scoring, or this is a bug."""
    problem = _mismatch(sheet, w)
    if problem:
        raise AssertionError(problem)


def _mismatch(sheet: Sheet, w: Witness) -> str | None:
    """What the witness, re-scored by :func:`spec.scoring.score_game`, gets wrong (None: nothing)."""
    game = score_game(w.rounds, sheet.rules, players=len(sheet.players))
    n = len(sheet.players)
    for r, row in enumerate(sheet.rounds):
        got = [s.total for s in game.rounds[r][:n]]
        if list(row) != got:
            return f"witness re-scores round {r + 1} to {got}, sheet says {list(row)}"
    if sheet.pudding is not None and (game.pudding is None or list(game.pudding[:n]) != list(sheet.pudding)):
        return f"witness pudding {game.pudding} differs from the sheet {sheet.pudding}"
    if sheet.totals is not None and list(game.totals[:n]) != list(sheet.totals):
        return f"witness totals {game.totals} differ from the sheet {sheet.totals}"
    for t in (t for row in w.rounds for t in row):
        if t.size != sheet.hand_size:
            return f"witness tableau {t} holds {t.size} cards, not {sheet.hand_size}"
    if _over_deck(sheet, w):
        return f"witness uses more {', '.join(c.label for c in _over_deck(sheet, w))} than the deck holds"
    return None
