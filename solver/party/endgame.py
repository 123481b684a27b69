"""``endgame --game party``: the rest of a Party round played exactly when every hand is known.

Two players: a zero-sum game of simultaneous picks, seat 0's round points minus seat 1's; each
turn's matrix of joint moves is solved exactly with mixed strategies (:mod:`sushigo.solver.matrixgame`),
the entries being the values of the positions they lead to (memo over positions). Three to
eight players: seat 0's paranoid value, its own round points against the other seats choosing
together to hold them down (the column player of each matrix is their joint move).

A position (JSON, ``sushigo-party-position/1``)::

    {"format": "sushigo-party-position/1", "menu": "sushi-go", "readings": {},
     "hands": ["squid tempura egg", "wasabi maki3 tempura"],
     "turns": [["maki2", "dumpling"], ["chopsticks-1", "tempura"]],
     "undealt": ["eel", "tofu", "squid", "egg"]}

``hands``: every seat's hand now (the same size); ``turns``: this round's turns so far, in the
turn-by-turn notation; ``undealt``: the undealt deck, top first, which menus draw from (the top
four; the cards not played stay on top in order, the shuffle of RB p12 not being modelled).
Moves are those of :class:`.search.SeatMoves` (the executor's, every takeout choice); a spoon
asks for any card another seat holds, and finds it, or nothing, once the normal plays are made.
Positions are played by :mod:`sushigo.spec.party.turns`; no rule is stated here.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from sushigo.solver.matrixgame import Number, solve
from sushigo.spec.answer import Answer, BestStatus
from sushigo.spec.errors import InputError
from sushigo.spec.party.menus import Menu, parse_menu
from sushigo.spec.party.readings import PartyRules, party_rules
from sushigo.spec.party.tableau import kind_name
from sushigo.spec.party.turns import RoundTable, finish_round

from .puzzle import _cards, pass_turn, spoon_giver
from .search import OutOfTime, SeatMoves, clone

FORMAT: Final = "sushigo-party-position/1"
FIELDS: Final = ("format", "menu", "readings", "hands", "turns", "undealt")
MENU_DRAW: Final = 4
_CHECK: Final = 64
_MENU_PLAY: Final = re.compile(r"menu-\d+:([^:\s]+)")


@dataclass(frozen=True)
class PartyPosition:
    menu: Menu
    rules: PartyRules
    hands: tuple[tuple[str, ...], ...]
    turns: tuple[tuple[str, ...], ...]
    undealt: tuple[str, ...] = ()

    @property
    def players(self) -> int:
        return len(self.hands)


def parse_position(data: Mapping[str, Any], rule: Sequence[str] = (),
                   where: str = "position") -> PartyPosition:
    """A position from its JSON form (module docstring)."""
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise InputError(f"{where}: unknown field(s) {', '.join(map(repr, unknown))}; a Party position has "
                         f"{', '.join(repr(f) for f in FIELDS)}")
    if data.get("format", FORMAT) != FORMAT:
        raise InputError(f"{where}: format {data.get('format')!r}, expected {FORMAT!r}")
    if not isinstance(data.get("menu"), str):
        raise InputError(f"{where}: name the \"menu\" (a suggested menu or KIND,KIND,...)")
    rules = party_rules(rule, data.get("readings") or {})
    menu = parse_menu(data["menu"], uramaki=rules.uramaki_split)
    raw = data.get("hands")
    if not isinstance(raw, list) or len(raw) < 2:
        raise InputError(f"{where}: \"hands\" lists every seat's hand (2 to 8 seats)")
    hands = tuple(_cards(h, f"{where}: hand of seat {k}", menu) for k, h in enumerate(raw))
    menu.check_players(len(hands))
    if len({len(h) for h in hands}) != 1 or not hands[0]:
        raise InputError(f"{where}: every hand holds the same number of cards, at least 1; got "
                         f"{', '.join(str(len(h)) for h in hands)}")
    turns = data.get("turns") or []
    if not isinstance(turns, list) or not all(isinstance(t, list) and len(t) == len(hands) for t in turns):
        raise InputError(f"{where}: \"turns\" is a list of turns, each one play per seat ({len(hands)})")
    undealt = _cards(data.get("undealt") or [], f"{where}: undealt", menu)
    position = PartyPosition(menu, rules, hands, tuple(tuple(map(str, t)) for t in turns), undealt)
    table = start_table(position)
    if table.turn + len(hands[0]) > table.last:
        raise InputError(f"{where}: {table.turn} turns played and {len(hands[0])} cards a hand, but "
                         f"{len(hands)} players are dealt {table.last}")
    return position


def start_table(position: PartyPosition) -> RoundTable:
    table = RoundTable(position.players, position.rules)
    for plays in position.turns:
        table.play_turn(list(plays))
    return table


@dataclass(frozen=True)
class PartyEndgameResult(Answer[BestStatus]):
    """``optimal``: the exact value with each side's mixed strategy for the first turn."""

    value: Fraction | int | None
    objective: str
    status: BestStatus
    seconds: float
    rows: tuple[tuple[str, Number], ...] = ()  # seat 0's first moves played with probability > 0
    cols: tuple[tuple[str, Number], ...] = ()  # the other side's
    budget: float | None = None
    reason: str | None = None
    stats: dict[str, int] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": "party", "objective": self.objective, "status": self.status,
                               "value": None if self.value is None else str(self.value)}
        if self.status == "optimal":
            out["seat0"] = [{"move": m, "probability": str(p)} for m, p in self.rows]
            out["others"] = [{"move": m, "probability": str(p)} for m, p in self.cols]
        else:
            out["reason"], out["budget_seconds"] = self.reason, self.budget
        return out


class _Solver:
    def __init__(self, position: PartyPosition, deadline: float | None) -> None:
        self.position, self.deadline = position, deadline
        self.gens = [SeatMoves(position.rules, k) for k in range(position.players)]
        self.memo: dict[tuple[Any, ...], Number] = {}
        self.nodes = 0

    def score(self, table: RoundTable) -> Number:
        totals = finish_round(table, self.position.menu, self.position.rules).score.totals
        return totals[0] - totals[1] if self.position.players == 2 else totals[0]

    def seat_moves(self, table: RoundTable, hands: Sequence[Sequence[str]], undealt: Sequence[str],
                   k: int) -> list[str]:
        others = [c for j, h in enumerate(hands) if j != k for c in h]
        acted = sum(1 for p in table.seats[k].discarded if kind_name(p.card) == "menu")
        draws = [()] * acted + [tuple(undealt[:MENU_DRAW])]
        return self.gens[k].moves(table, hands[k], others, draws)

    def joint(self, table: RoundTable, hands: Sequence[Sequence[str]], undealt: Sequence[str],
              plays: Sequence[str]) -> tuple[RoundTable, list[list[str]], tuple[str, ...]]:
        """The position after one turn of ``plays`` (a spoon asking for what nobody holds once the
        normal plays are made finds nothing)."""
        held = [list(h) for h in hands]
        for k, play in enumerate(plays):
            head = play.split()[0].partition(":")[0]
            held[k].remove(head)
        texts = []
        for k, play in enumerate(plays):
            words = play.split()
            for i, b in enumerate(words[1:], 1):
                tool, _, rest = b.rpartition(":") if b.count(":") == 1 else (b, "", "")
                if tool and kind_name(tool) == "spoon" and rest != "-":
                    card = rest.partition(":")[0]
                    if spoon_giver(held, k, card) is None:
                        words[i] = f"{tool}:-"
            texts.append(" ".join(words))
        out = clone(table)
        out.play_turn(texts)
        new_hands, _ = pass_turn(hands, texts)
        deck = list(undealt)
        for text in texts:
            for card in _MENU_PLAY.findall(text):  # the card a menu played leaves the deck
                if card != "-" and card in deck[:MENU_DRAW]:
                    deck.remove(card)
        return out, new_hands, tuple(deck)

    def key(self, table: RoundTable, hands: Sequence[Sequence[str]],
            undealt: Sequence[str]) -> tuple[Any, ...]:
        seats = tuple((tuple(sorted((str(s.part), s.holds is not None, s.on is not None)
                                    for s in seat.slots)),
                       tuple(sorted(str(p) for p in seat.discarded))) for seat in table.seats)
        return (table.turn, seats, tuple(tuple(sorted(h)) for h in hands), tuple(undealt), tuple(table.paid),
                table.places)

    def matrix(self, table: RoundTable, hands: Sequence[Sequence[str]], undealt: Sequence[str]
               ) -> tuple[list[str], list[tuple[str, ...]], list[list[Number]]]:
        moves = [self.seat_moves(table, hands, undealt, k) for k in range(len(hands))]
        rows = moves[0]
        cols = list(itertools.product(*moves[1:]))
        grid = [[self.value(*self.joint(table, hands, undealt, [r, *c])) for c in cols] for r in rows]
        return rows, cols, grid

    def value(self, table: RoundTable, hands: Sequence[Sequence[str]], undealt: Sequence[str]) -> Number:
        if not hands[0]:
            return self.score(table)
        key = self.key(table, hands, undealt)
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        if self.deadline is not None and self.nodes % _CHECK == 0 and time.monotonic() > self.deadline:
            raise OutOfTime
        _, _, grid = self.matrix(table, hands, undealt)
        v = solve(grid).value
        self.memo[key] = v
        return v


def solve_party_endgame(position: PartyPosition, timeout: float | None = None) -> PartyEndgameResult:
    """The position's exact value (2 players: seat 0's points minus seat 1's; more: seat 0's
    paranoid points) and the first turn's optimal mixed strategies; unknown past ``timeout``."""
    start = time.monotonic()
    objective = "diff" if position.players == 2 else "paranoid"
    s = _Solver(position, None if timeout is None else start + timeout)
    try:
        table = start_table(position)
        rows, cols, grid = s.matrix(table, [list(h) for h in position.hands], position.undealt)
        sol = solve(grid)
    except OutOfTime:
        return PartyEndgameResult(None, objective, "unknown", time.monotonic() - start, budget=timeout,
                                  reason="the search's time ran out")
    mix_rows = tuple((m, p) for m, p in zip(rows, sol.rows, strict=True) if p)
    mix_cols = tuple((" | ".join(c), p) for c, p in zip(cols, sol.cols, strict=True) if p)
    value = sol.value if isinstance(sol.value, Fraction) and sol.value.denominator != 1 else int(sol.value)
    return PartyEndgameResult(value, objective, "optimal", time.monotonic() - start, mix_rows, mix_cols,
                              stats={"positions": s.nodes + 1})
