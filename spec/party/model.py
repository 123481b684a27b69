"""Sushi Go Party!'s round and game scoring as a Z3 model (issue 28 item 4).

:mod:`.scoring` scores final tableaux in plain Python; this module states the same scoring a
second time, as Z3 integer terms over count variables, so a solver can answer questions about
every tableau at once ("the most one player can score", "why can no one score that"). Every
number is read from the kinds (:mod:`.kinds`), their shapes (:mod:`spec.shapes`, whose own Z3
readings are used), the menu's deck (:mod:`.menus`) and the readings (:mod:`.readings`); none
is restated here.

A seat's tableau is abstracted to the counts a scorer looks at (:class:`SeatCounts`): cards
scoring as each kind per card of its tile (a special order counted as what it copies), how
many of those are special orders, the nigiri on a wasabi, and the flipped cards. The model's
variables are those counts for every seat; its *domain* (named constraints, so an unsat core
says which rule forbids a score) bounds them by the menu's deck (copies per card, the special
orders' copies, the desserts shuffled in for round 1), the hand size (RB p5), and what a final
tableau cannot show (a used menu or takeout box; uramaki of 10 icons or more when the race is
not given). Each seat's points per category are named terms with the category's rule id.

Not modelled: the ``discarded_colours=yes`` reading (it needs the cards discarded during the
round, which no final tableau shows); the uramaki race itself is an input (:class:`RacePaid`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from sushigo.spec.kinds import PerCard, Sets
from sushigo.spec.model.budget import decide
from sushigo.spec.party.kinds import (
    FLIPPED_POINTS,
    KIND,
    LargestColour,
    MostColours,
    Nigiri,
    Race,
    Unscored,
    shape_of,
)
from sushigo.spec.party.menus import Menu, desserts_per_round, hand_size
from sushigo.spec.party.readings import DEFAULT, PartyRules
from sushigo.spec.party.scoring import RacePaid, counts, round_categories
from sushigo.spec.party.tableau import FLIPPED, SPECIAL, PartyTableau, kind_name
from sushigo.spec.shapes import GameEnd

if TYPE_CHECKING:
    import z3

#: Kinds a final tableau cannot hold (discarded once played, RB p12, p15).
GONE: Final = ("menu", "takeout")


@dataclass(frozen=True)
class SeatCounts:
    """What the scorer reads of one seat's final tableau (see the module docstring)."""

    cards: Mapping[str, tuple[int, ...]]  # tile -> cards scoring as it, per card of the tile
    copies: Mapping[str, int]  # tile -> how many of those are special orders
    stacked: tuple[int, ...]  # nigiri on a wasabi, per nigiri card
    flipped: int


def seat_counts(tableau: PartyTableau, menu: Menu) -> SeatCounts:
    """The counts of one final tableau, for every kind on ``menu``."""
    cards = {t: tuple(counts(tableau, KIND[t])) for t in menu.kinds}
    copies = dict.fromkeys(menu.kinds, 0)
    stacked = [0] * len(KIND["nigiri"].cards)
    flipped = 0
    for item in tableau:
        for part in item.parts():
            if part.flipped:
                flipped += 1
            elif part.copy:
                copies[kind_name(part.copy)] += 1
        if item.under is not None:
            top = item.top.scores_as
            stacked[0 if kind_name(top) == top else KIND["nigiri"].cards.index(top)] += 1
    return SeatCounts(cards, copies, tuple(stacked), flipped)


def _max(terms: Sequence[z3.ArithRef]) -> z3.ArithRef:
    import z3

    out = terms[0]
    for t in terms[1:]:
        out = z3.If(t > out, t, out)
    return out


class RoundModel:
    """One round of ``players`` seats on ``menu`` under ``rules``: variables, domain, named terms.

    ``points[seat][category]`` is a Z3 term, ``rules_of[category]`` its rule id (the categories
    of :func:`.scoring.round_categories`); ``domain`` maps a constraint's name to it."""

    def __init__(self, menu: Menu, players: int, rules: PartyRules = DEFAULT, race: RacePaid | None = None,
                 prefix: str = "") -> None:
        import z3

        menu.check_players(players)
        self.menu, self.players, self.rules, self.race = menu, players, rules, race
        p = prefix
        tiles = {t.name: t for t in menu.tiles}
        specials = tiles[SPECIAL].copies if SPECIAL in tiles else 0
        self.n = [{t: [z3.Int(f"{p}n_{s}_{t}_{v}") for v in range(len(KIND[t].cards))] for t in menu.kinds}
                  for s in range(players)]
        self.c = [{t: z3.Int(f"{p}copy_{s}_{t}") for t in menu.kinds} for s in range(players)]
        nigiri = range(len(KIND["nigiri"].cards))
        self.w = [[z3.Int(f"{p}wasabi_{s}_{v}") for v in nigiri] for s in range(players)]
        self.f = [z3.Int(f"{p}flipped_{s}") for s in range(players)]
        self.domain: dict[str, z3.BoolRef] = {}
        dom = self.domain
        hand = hand_size(players)
        for s in range(players):
            n, c = self.n[s], self.c[s]
            for t in menu.kinds:
                copies = [k for _, k in tiles[t].cards]
                dom[f"seat {s}: {t} counts within the deck, copies included"] = z3.And(
                    *[z3.And(x >= 0, x <= k + c[t]) for x, k in zip(n[t], copies, strict=True)],
                    c[t] >= 0, c[t] <= z3.Sum(n[t]))
                if t in GONE or t == SPECIAL:
                    dom[f"seat {s}: no {t} in a final tableau"] = z3.Sum(n[t]) == 0
            dom[f"seat {s}: each stacked nigiri on a wasabi"] = z3.And(
                *[z3.And(x >= 0, x <= y) for x, y in zip(self.w[s], n["nigiri"], strict=True)],
                z3.Sum(self.w[s]) <= (z3.Sum(n["wasabi"]) if "wasabi" in n else 0))
            dom[f"seat {s}: flipped cards only with the takeout box"] = z3.And(
                self.f[s] >= 0, self.f[s] <= (hand if "takeout" in tiles else 0))
            dom[f"seat {s}: at most {hand} cards (hand size, RB p5)"] = self.cards(s) <= hand
            if "uramaki" in n and race is None:
                goal = KIND["uramaki"].scoring
                assert isinstance(goal, Race)
                dom[f"seat {s}: uramaki under {goal.goal} icons (paid and discarded at {goal.goal})"] = \
                    self.icons(s) < goal.goal
        for t in menu.kinds:
            printed = z3.Sum([x for s in range(players) for x in self.n[s][t]]) \
                - z3.Sum([self.c[s][t] for s in range(players)])
            limit = tiles[t].copies
            if tiles[t].course == "dessert":
                limit = min(limit, desserts_per_round(players)[0])
            dom[f"deck: {t} has {limit} printed cards"] = printed <= limit
        dom[f"deck: {specials} special orders"] = z3.Sum(
            [self.c[s][t] for s in range(players) for t in menu.kinds]) <= specials
        self.rules_of = round_categories(menu)
        self.points = [self._seat_points(s) for s in range(players)]

    # --- terms -------------------------------------------------------------------------------

    def cards(self, s: int) -> z3.ArithRef:
        """Cards in seat ``s``'s tableau (a stack is two, a special order one)."""
        import z3

        return z3.Sum([x for t in self.menu.kinds for x in self.n[s][t]] + [self.f[s]])

    def icons(self, s: int) -> z3.ArithRef:
        import z3

        return z3.Sum([x * i for x, i in zip(self.n[s]["uramaki"], KIND["uramaki"].icons, strict=True)])

    def total(self, s: int) -> z3.ArithRef:
        import z3

        return z3.Sum(list(self.points[s].values()))

    def colours(self, s: int, desserts: bool = True) -> list[z3.ArithRef]:
        """Seat ``s``'s cards per colour (as :func:`.scoring.colours`, under the readings)."""
        import z3

        rainbow = self.rules.special_order_colour == "rainbow"
        groups: dict[str, list[z3.ArithRef]] = {}
        for t in self.menu.kinds:
            kind = KIND[t]
            if not desserts and kind.dessert:
                continue
            held = z3.Sum(self.n[s][t])
            groups.setdefault(kind.colour, []).append(held - self.c[s][t] if rainbow else held)
            if rainbow:
                groups.setdefault(KIND[SPECIAL].colour, []).append(self.c[s][t])
        if self.rules.flipped_colour != "none":
            groups.setdefault(FLIPPED, []).append(self.f[s])
        return [z3.Sum(g) for g in groups.values()]

    def _seat_points(self, s: int) -> dict[str, z3.ArithRef]:
        return {cat: (FLIPPED_POINTS * self.f[s] if cat == FLIPPED else self._kind_term(cat, s))
                for cat in self.rules_of}

    def _kind_term(self, tile: str, s: int) -> z3.ArithRef:
        import z3

        kind = KIND[tile]
        shape = shape_of(kind, self.rules)
        held = z3.Sum(self.n[s][tile])
        if isinstance(shape, Nigiri):
            return z3.Sum([pts * (n - w) + pts * shape.wasabi * w
                           for pts, n, w in zip(shape.points, self.n[s][tile], self.w[s], strict=True)])
        if isinstance(shape, Race):
            mine = self.icons(s)
            top = z3.And(mine > 0, *[mine >= self.icons(j) for j in range(self.players)])
            used = self.race.places_used if self.race else 0
            place = shape.points[used] if used < len(shape.points) else 0
            paid = self.race.paid[s] if self.race else 0
            return z3.If(top, place, 0) + paid
        if isinstance(shape, MostColours):
            many = [z3.Sum([z3.If(g > 0, 1, 0) for g in self.colours(j)]) for j in range(self.players)]
            return z3.If(z3.And(*[many[s] >= m for m in many]), shape.points * held, 0)
        if isinstance(shape, LargestColour):
            groups = self.colours(s, desserts=self.rules.tea_desserts == "yes")
            largest = _max(groups)
            expr: z3.ArithRef = z3.IntVal(0)  # case by case on the seat's count: no product of variables
            for k in range(hand_size(self.players), 0, -1):
                expr = z3.If(held == k, shape.per * k * largest, expr)
            return expr
        if isinstance(shape, (Sets, PerCard)):
            from sushigo.spec.model.scoring import scoring_term

            return scoring_term(shape, held, None)  # type: ignore[arg-type]
        if isinstance(shape, (Unscored, GameEnd)):
            return z3.IntVal(0)
        return shape.terms([self.n[j][tile] for j in range(self.players)], None, self._most(tile))[s]

    def _specials(self) -> int:
        tiles = {t.name: t for t in self.menu.tiles}
        return tiles[SPECIAL].copies if SPECIAL in tiles else 0

    def _most(self, tile: str) -> list[int]:
        """The most cards of each card of ``tile`` a seat can show: its copies and every special order."""
        tiles = {t.name: t for t in self.menu.tiles}
        return [k + self._specials() for _, k in tiles[tile].cards]

    def named(self) -> tuple[list[dict[str, z3.ArithRef]], dict[str, z3.BoolRef]]:
        """Each seat's points per category as a named integer (``points_SEAT_CATEGORY``) and the
        definitions tying each to its term, keyed ``RULE-ID seat S`` so a tracked solver's unsat
        core names the rules it used."""
        import z3

        names = [{cat: z3.Int(f"points_{s}_{cat}") for cat in seat} for s, seat in enumerate(self.points)]
        defs = {f"{self.rules_of[cat]} seat {s}": names[s][cat] == term
                for s, seat in enumerate(self.points) for cat, term in seat.items()}
        return names, defs

    # --- solving -----------------------------------------------------------------------------

    def fix(self, s: int, held: SeatCounts) -> list[z3.BoolRef]:
        """Constraints setting seat ``s``'s variables to ``held``."""
        out = [self.f[s] == held.flipped]
        out += [x == v for x, v in zip(self.w[s], held.stacked, strict=True)]
        for t in self.menu.kinds:
            out += [x == v for x, v in zip(self.n[s][t], held.cards[t], strict=True)]
            out.append(self.c[s][t] == held.copies[t])
        return out

    def solve(self, tableaux: Sequence[PartyTableau]) -> list[dict[str, int]] | None:
        """Every seat's points per category with the counts fixed to ``tableaux``'s (None: the
        domain refuses them; a spent budget raises :class:`~spec.errors.BudgetSpent`)."""
        fixes = [f for s, t in enumerate(tableaux) for f in self.fix(s, seat_counts(t, self.menu))]
        m = _model_with(self.domain, fixes)
        if m is None:
            return None
        return [{cat: m.eval(term, model_completion=True).as_long() for cat, term in seat.items()}
                for seat in self.points]


def _model_with(domain: Mapping[str, z3.BoolRef], fixes: Sequence[z3.BoolRef]) -> z3.ModelRef | None:
    """A model of ``domain`` with ``fixes`` added, None when there is none; out of budget raises
    BudgetSpent (unknown, never a guess)."""
    import z3

    solver = z3.Solver()
    solver.add(*domain.values(), *fixes)
    answer = decide(solver)
    if answer.unknown:
        raise answer.spent()
    return solver.model() if answer.sat else None


class GameModel:
    """The desserts at game end: ``held[seat][card]`` count variables and each seat's dessert term."""

    def __init__(self, menu: Menu, players: int, rules: PartyRules = DEFAULT, rounds: int = 3) -> None:
        import z3

        menu.check_players(players)
        self.menu, self.players = menu, players
        self.kind = KIND[menu.dessert.name]
        self.rule = self.kind.rule
        cards = menu.dessert.cards
        tiles = {t.name: t for t in menu.tiles}
        specials = (tiles[SPECIAL].copies if SPECIAL in tiles else 0) * rounds
        self.held = [[z3.Int(f"dessert_{s}_{v}") for v in range(len(cards))] for s in range(players)]
        shuffled = min(menu.dessert.copies, sum(desserts_per_round(players)[:rounds]))
        self.domain: dict[str, z3.BoolRef] = {
            "dessert counts are whole": z3.And(*[x >= 0 for row in self.held for x in row]),
            f"deck: {shuffled} desserts shuffled in over {rounds} rounds, and {specials} special orders":
                z3.Sum([x for row in self.held for x in row]) <= shuffled + specials,
        }
        shape = shape_of(self.kind, rules)
        assert isinstance(shape, GameEnd)
        most = [k + specials for _, k in cards]
        self.points = shape.terms(self.held, None, most)

    def solve(self, held: Sequence[Sequence[int]]) -> list[int] | None:
        m = _model_with(self.domain, [x == v for row, vals in zip(self.held, held, strict=True)
                                      for x, v in zip(row, vals, strict=True)])
        if m is None:
            return None
        return [m.eval(t, model_completion=True).as_long() for t in self.points]


__all__ = ["GONE", "GameModel", "RoundModel", "SeatCounts", "seat_counts"]
