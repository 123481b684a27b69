"""Is a Sushi Go Party! scoresheet possible? A witness game, or the rule ids that forbid it.

The sheet (schema ``party-scoresheet``; docs/party.md)::

    {"format": "sushigo-party-scoresheet/1", "menu": "sushi-go", "readings": {"edamame_cap": "round"},
     "players": ["Ana", "Ben", "Cy"], "rounds": [[12, 7, 3], [9, 14, 0], [6, 6, 21]],
     "desserts": [6, 0, -6], "totals": [33, 27, 18]}

``rounds`` holds 1 to 3 rows of round scores; ``desserts`` (the dessert's points at game end)
needs all three; ``totals`` is the sum of the rounds given and, with three rounds, the desserts'
points. Each round is one :func:`.party_tableaux.party_round` (its scope is the module's there:
final tableaux of normal plays), the desserts are carried over the rounds into the game model's
dessert term (:class:`sushigo.spec.party.model.GameModel`), and every constraint is guarded by
a literal of its rule id and every cell by its own, so an unsat core names the cells and the
Party rules (their ids) that cannot all hold. The core is made minimal by deletion.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from sushigo.solver.party_tableaux import (
    DEAL_RULE,
    PartyRound,
    dessert_limits,
    party_round,
    rescored,
    scope_gaps,
    seat_tableau,
)
from sushigo.solver.scoresheet.sheet import _int_row
from sushigo.spec.answer import Answer, PossibleStatus
from sushigo.spec.errors import BudgetSpent, InputError
from sushigo.spec.model.budget import decide
from sushigo.spec.party.catalogue import PARTY_CATALOGUE
from sushigo.spec.party.menus import ROUNDS, Menu, parse_menu
from sushigo.spec.party.model import GameModel
from sushigo.spec.party.readings import PartyRules, party_rules
from sushigo.spec.party.scoring import dessert_cards, score_game, score_round
from sushigo.spec.party.tableau import PartyTableau, format_party_tableau

if TYPE_CHECKING:
    import z3

SHEET_FORMAT: Final = "sushigo-party-scoresheet/1"
#: The sheet's own arithmetic: a total is the rounds' scores plus the desserts' points (RB p7).
TOTAL_RULE: Final = "R-PARTY-TOTAL"


@dataclass(frozen=True)
class PartySheet:
    menu: Menu
    rules: PartyRules
    players: tuple[str, ...]
    rounds: tuple[tuple[int, ...], ...]
    desserts: tuple[int, ...] | None = None
    totals: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Cell:
    row: str  # "round 2", "desserts", "total"
    seat: int
    value: int


@dataclass(frozen=True)
class PartyVerdict(Answer[PossibleStatus]):
    """possible (``rounds``: a table per round, ``dessert_points``), impossible (``cells`` and
    ``rule_ids`` of a minimal core, ``explanation``), or unknown (``reason``)."""

    status: PossibleStatus
    rounds: tuple[tuple[PartyTableau, ...], ...] = ()
    dessert_points: tuple[int, ...] | None = None
    cells: tuple[Cell, ...] = ()
    rule_ids: tuple[str, ...] = ()
    explanation: tuple[str, ...] = ()
    reason: str = ""

    def to_json(self, sheet: PartySheet) -> dict[str, Any]:
        out: dict[str, Any] = {"possible": {"possible": True, "impossible": False}.get(self.status),
                               "menu": sheet.menu.label, "readings": sheet.rules.as_json()}
        if self.status == "possible":
            out["witness"] = {"seats": list(sheet.players),
                              "rounds": [[format_party_tableau(t) for t in row] for row in self.rounds],
                              "dessert_points": (None if self.dessert_points is None
                                                 else list(self.dessert_points))}
        if self.status == "impossible":
            out["explanation"] = list(self.explanation)
            out["core"] = {"cells": [{"row": c.row, "player": sheet.players[c.seat], "value": c.value}
                                     for c in self.cells], "rules": list(self.rule_ids)}
        if self.status == "unknown":
            out["reason"] = self.reason
        return out


def parse_party_sheet(data: object, menu: str | None = None, rule: Sequence[str] = ()) -> PartySheet:
    """A Party sheet from its JSON (module docstring); ``menu`` and ``rule`` override its own."""
    if not isinstance(data, Mapping):
        raise InputError('a Party scoresheet is a JSON object like {"menu": M, "players": [...], '
                         '"rounds": [[...]]}')
    unknown = set(data) - {"format", "menu", "readings", "players", "rounds", "desserts", "totals", "note"}
    if unknown:
        raise InputError(f"unknown Party scoresheet field(s) {sorted(unknown)}; fields: format, menu, "
                         "readings, players, rounds, desserts, totals")
    fmt = data.get("format", SHEET_FORMAT)
    if fmt != SHEET_FORMAT:
        raise InputError(f"format {fmt!r}: a Party scoresheet is {SHEET_FORMAT!r}")
    name = menu if menu is not None else data.get("menu")
    if not isinstance(name, str):
        raise InputError("a Party scoresheet names its \"menu\" (or give --menu)")
    readings = data.get("readings", {})
    if not isinstance(readings, Mapping):
        raise InputError("\"readings\" is an object of NAME: VALUE (sushigo rules --game party lists them)")
    rules = party_rules(rule, readings)
    players = data.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        raise InputError(f'"players" must be a list of player names, got {players!r}')
    if len(set(players)) != len(players):
        raise InputError(f'"players" has a repeated name: {players!r}')
    chosen = parse_menu(name, uramaki=rules.uramaki_split)
    chosen.check_players(len(players))
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not 1 <= len(rounds) <= ROUNDS:
        raise InputError(f'"rounds" must be a list of 1 to {ROUNDS} rows of round scores, got {rounds!r}')
    n = len(players)
    rows = tuple(_int_row(r, n, f"round {k + 1}") for k, r in enumerate(rounds))
    desserts = None
    if data.get("desserts") is not None:
        if len(rows) != ROUNDS:
            raise InputError(f"a desserts row needs all {ROUNDS} rounds (desserts score at game end); "
                             f"the sheet has {len(rows)}")
        desserts = _int_row(data["desserts"], n, "desserts")
    totals = _int_row(data["totals"], n, "totals") if data.get("totals") is not None else None
    return PartySheet(chosen, rules, tuple(players), rows, desserts, totals)


class _Tracked:
    """The sheet's constraints, each behind the literal of its rule id or its cell."""

    def __init__(self, sheet: PartySheet) -> None:
        import z3

        self.sheet = sheet
        n = len(sheet.players)
        self.solver = z3.Solver()
        self.rule_lit: dict[str, z3.BoolRef] = {}
        self.cell_lit: dict[Cell, z3.BoolRef] = {}
        self.rounds: list[PartyRound] = [party_round(sheet.menu, n, sheet.rules, round_no=r + 1,
                                                     prefix=f"r{r + 1}_") for r in range(len(sheet.rounds))]
        totals: list[list[z3.ArithRef]] = []
        for r, pr in enumerate(self.rounds):
            for rule, c in pr.tagged:
                self._rule(rule, c)
            row = []
            for s in range(n):
                named = []
                for cat, term in pr.model.points[s].items():
                    x = z3.Int(f"r{r + 1}_points_{s}_{cat}")
                    self._rule(pr.model.rules_of[cat], x == term)
                    named.append(x)
                row.append(z3.Sum(named))
                self._cell(Cell(f"round {r + 1}", s, sheet.rounds[r][s]), row[s] == sheet.rounds[r][s])
            totals.append(row)
        for rule, c in dessert_limits(self.rounds):
            self._rule(rule, c)
        self.dessert: list[z3.ArithRef] = []
        if len(self.rounds) == ROUNDS:
            game = GameModel(sheet.menu, n, sheet.rules)
            dessert = sheet.menu.dessert.name
            for c in game.domain.values():
                self._rule(DEAL_RULE, c)
            for s in range(n):
                for v, x in enumerate(game.held[s]):
                    self._rule(DEAL_RULE, x == z3.Sum([pr.model.n[s][dessert][v] for pr in self.rounds]))
                d = z3.Int(f"dessert_points_{s}")
                self._rule(game.rule, d == game.points[s])
                self.dessert.append(d)
                if sheet.desserts is not None:
                    self._cell(Cell("desserts", s, sheet.desserts[s]), d == sheet.desserts[s])
        if sheet.totals is not None:
            for s in range(n):
                t = z3.Int(f"total_{s}")
                parts = [row[s] for row in totals] + ([self.dessert[s]] if self.dessert else [])
                self._rule(TOTAL_RULE, t == z3.Sum(parts))
                self._cell(Cell("total", s, sheet.totals[s]), t == sheet.totals[s])

    def _rule(self, rule: str, c: z3.BoolRef) -> None:
        import z3

        if rule == "scope":  # not a rule of the game: always on
            self.solver.add(c)
            return
        lit = self.rule_lit.setdefault(rule, z3.Bool(f"rule {rule}"))
        self.solver.add(z3.Implies(lit, c))

    def _cell(self, cell: Cell, c: z3.BoolRef) -> None:
        import z3

        lit = self.cell_lit[cell] = z3.Bool(f"cell {cell.row} {cell.seat}")
        self.solver.add(z3.Implies(lit, c))

    def holds(self, lits: Sequence[z3.BoolRef]) -> bool:
        """Whether the constraints behind ``lits`` can all hold (a spent budget raises BudgetSpent)."""
        answer = decide(self.solver, assumptions=lits)
        if answer.unknown:
            raise answer.spent()
        return answer.sat


def check_party_sheet(sheet: PartySheet) -> PartyVerdict:
    """Decide ``sheet`` (module docstring); a call out of its budget answers unknown with the reason."""
    try:
        return _check(sheet)
    except BudgetSpent as exc:
        return PartyVerdict("unknown", reason=exc.reason)


def _check(sheet: PartySheet) -> PartyVerdict:
    tracked = _Tracked(sheet)
    lits = [*tracked.rule_lit.values(), *tracked.cell_lit.values()]
    if tracked.holds(lits):
        return _witness(sheet, tracked)
    core = list(tracked.solver.unsat_core())
    for lit in list(core):  # deletion: keep a literal only if the rest is satisfiable without it
        rest = [x for x in core if not x.eq(lit)]
        if not tracked.holds(rest):
            core = rest
    in_core = {str(x) for x in core}
    cells = tuple(c for c, lit in tracked.cell_lit.items() if str(lit) in in_core)
    rules = tuple(sorted(r for r, lit in tracked.rule_lit.items() if str(lit) in in_core))
    gaps = scope_gaps(sheet.menu)
    listed = "; ".join(f"{c.row}: {sheet.players[c.seat]} {c.value}" for c in cells) \
        or "(no cell: the rules alone)"
    if gaps:
        return PartyVerdict("unknown", reason=f"no game of final tableaux of normal plays gives {listed}; "
                            f"the menu's {' and '.join(gaps)} are not modelled, so it is not proved "
                            "impossible")
    lines = [f"these cells cannot all hold together: {listed}"]
    lines += [f"{r}: {PARTY_CATALOGUE.get(r, r)}" for r in rules]
    return PartyVerdict("impossible", cells=cells, rule_ids=rules, explanation=tuple(lines))


def _witness(sheet: PartySheet, tracked: _Tracked) -> PartyVerdict:
    """The model's game as tableaux, scored again by the plain scorer (an independent path)."""
    m = tracked.solver.model()
    n = len(sheet.players)
    rounds = []
    scores = []
    kept = 0
    for r, pr in enumerate(tracked.rounds):
        table = tuple(seat_tableau(pr, m, s) for s in range(n))
        points = rescored(pr, table, dict(enumerate(sheet.rounds[r])), sheet.rules, r + 1, kept)
        kept += dessert_cards(table, sheet.menu)
        rounds.append(table)
        scores.append(score_round(table, sheet.menu, sheet.rules))
        assert [sum(p.values()) for p in points] == list(sheet.rounds[r])
    game = score_game(scores, sheet.menu, sheet.rules, ROUNDS)
    if sheet.desserts is not None:
        assert game.dessert_points == sheet.desserts, (game.dessert_points, sheet.desserts)
    if sheet.totals is not None:
        assert game.totals == sheet.totals, (game.totals, sheet.totals)
    return PartyVerdict("possible", rounds=tuple(rounds), dessert_points=game.dessert_points)


__all__ = ["SHEET_FORMAT", "TOTAL_RULE", "Cell", "PartySheet", "PartyVerdict", "check_party_sheet",
           "parse_party_sheet"]
