"""The Z3 model of a sheet (every cell a tracked term) and the budgets of its solver calls."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import z3
from sushigo.solver.scoresheet.sheet import Sheet
from sushigo.spec.cards import Card, Token
from sushigo.spec.model.core import Model
from sushigo.spec.model.scoring import card_count_terms, pudding_terms, round_terms, size_term, tableau_vars

DEFAULT_TIMEOUT_MS = 120_000  # a wall-clock safety net only


#: The budget of the main solver calls, in Z3 resource units (deterministic across machines and
#: load, unlike a timeout); about 10 s of CPU here. Local row checks and core shrinking get less.
DEFAULT_RLIMIT = 300_000_000


@dataclass(frozen=True)
class Cell:
    row: str  # "round 2", "pudding", "total"
    seat: int
    value: int

    def describe(self, sheet: Sheet) -> str:
        return f"{self.row}: {sheet.seat_name(self.seat)} {self.value}"


@dataclass
class SheetModel:
    sheet: Sheet
    model: Model
    tabs: list[list[list[z3.ArithRef]]]  # [round][seat] -> 15 counts
    round_totals: list[list[z3.ArithRef]]
    puddings: list[z3.ArithRef]
    pudding_pts: list[z3.ArithRef] | None
    game_totals: list[z3.ArithRef]
    cells: list[tuple[Cell, z3.BoolRef]] = field(default_factory=list)


def build(sheet: Sheet) -> SheetModel:
    rules = sheet.rules
    seats, k = sheet.seats, sheet.hand_size
    m = Model()
    tabs: list[list[list[z3.ArithRef]]] = []
    totals: list[list[z3.ArithRef]] = []
    for r in range(len(sheet.rounds)):
        row = [tableau_vars(m, f"tab_r{r + 1}_p{i}", rules) for i in range(seats)]
        for i, t in enumerate(row):
            m.add("R-HAND-SIZE", size_term(t) == k, f"round {r + 1}, {sheet.seat_name(i)}")
        terms = round_terms(m, f"r{r + 1}", row, rules)
        tabs.append(row)
        totals.append([d["total"] for d in terms])
    used = [card_count_terms(t) for row in tabs for t in row]
    for card in Card:
        m.add("R-DECK", z3.Sum([u[int(card)] for u in used]) <= rules.copies(card), card.label)
    puddings = []
    for i in range(seats):
        p = m.int(f"puddings_p{i}", 0)
        kept = z3.Sum([row[i][int(Token.PUDDING)] for row in tabs])
        m.add("R-PUDDING-CARRY", p == kept, sheet.seat_name(i))
        puddings.append(p)
    pud_pts = pudding_terms(m, "game", puddings, rules) if len(sheet.rounds) == rules.rounds else None
    game_totals = []
    for i in range(seats):
        g = m.int(f"game_p{i}_total", None)
        parts = [row[i] for row in totals] + ([pud_pts[i]] if pud_pts is not None else [])
        m.add("R-GAME-TOTAL", g == z3.Sum(parts), sheet.seat_name(i))
        game_totals.append(g)
    sm = SheetModel(sheet, m, tabs, totals, puddings, pud_pts, game_totals)
    for r, values in enumerate(sheet.rounds):
        for i, v in enumerate(values):
            sm.cells.append((Cell(f"round {r + 1}", i, v), totals[r][i] == v))
    if sheet.pudding is not None and pud_pts is not None:
        for i, v in enumerate(sheet.pudding):
            sm.cells.append((Cell("pudding", i, v), pud_pts[i] == v))
    if sheet.totals is not None:
        for i, v in enumerate(sheet.totals):
            sm.cells.append((Cell("total", i, v), game_totals[i] == v))
    return sm


def _round_model(sheet: Sheet, r: int, caps: Sequence[int]) -> tuple[Model, list[list[z3.ArithRef]]]:
    """Round ``r`` of the sheet alone: its tableaux (at most ``caps[card]`` cards of each kind
    together), its maki ranking and its row of scores."""
    rules = sheet.rules
    m = Model()
    row = [tableau_vars(m, f"st_tab_p{i}", rules) for i in range(sheet.seats)]
    for t in row:
        m.add("R-HAND-SIZE", size_term(t) == sheet.hand_size)
    terms = round_terms(m, "st", row, rules)
    used = [card_count_terms(t) for t in row]
    for c in Card:
        m.add("R-DECK", z3.Sum([u[int(c)] for u in used]) <= caps[int(c)])
    for i, v in enumerate(sheet.rounds[r]):
        m.add("cell", terms[i]["total"] == v)
    return m, row
