"""A Party player that plays for points now: ``greedy`` (issue 29 item 4).

At each decision it tries every option the executor lists on a copy of its own seat's table,
as if the others played nothing this turn, and scores the round with the rules' own scoring
(:func:`.scoring.score_round`, the uramaki race as :mod:`.turns` pays it). Desserts score at
game end, so an option's worth also counts the desserts of this round as if the game ended
with them (:func:`.scoring.score_game` over this one round). It picks the option that raises its
own points most; ties are broken by its seeded generator, so a game stays reproducible.

What it does not see: what the others play this turn (a miso it plays counts 3 even if another
comes), and whether a spoon finds the card it asks for (it counts the card as found). A menu
is worth nothing until it acts; then the card played from the draw is chosen the same way.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

from sushigo.spec.errors import InputError
from sushigo.spec.party.executor import Chooser, _slot_text
from sushigo.spec.party.scoring import RacePaid, score_game, score_round
from sushigo.spec.party.tableau import SPECIAL, kind_name
from sushigo.spec.party.turns import RoundTable

__all__ = ["GreedyChooser"]


def _with_seat_copied(table: RoundTable, k: int) -> RoundTable:
    """A copy of ``table`` in which only seat ``k`` may change (the other seats are shared; the
    cards are frozen values, so only the slots and their wasabi links are copied)."""
    new = copy.copy(table)
    new.seats = list(table.seats)
    seat = table.seats[k]
    mine = new.seats[k] = copy.copy(seat)
    twin = {id(s): copy.copy(s) for s in seat.slots}
    for s in twin.values():
        s.holds = None if s.holds is None else twin[id(s.holds)]
        s.on = None if s.on is None else twin[id(s.on)]
    mine.slots = [twin[id(s)] for s in seat.slots]
    mine.discarded, mine.played = list(seat.discarded), list(seat.played)
    new.paid = list(table.paid)
    new.events = []
    new.misos = []
    return new


class GreedyChooser(Chooser):
    """The option with the most immediate points for its seat (see the module docstring)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.game: Any = None
        self._desserts: dict[tuple[Any, ...], tuple[int, ...] | None] = {}

    def bind(self, game: Any) -> None:
        self.game = game
        self._desserts = {}

    def choose(self, what: str, seat: int, options: Sequence[Any]) -> Any:
        if len(options) == 1:
            return options[0]
        table = self.game.table
        self._shown = [s.tableau() for s in table.seats]
        self._memo: dict[tuple[Any, ...], int] = {}
        before = self._points(table, seat)
        best: list[Any] = []
        best_gain: float = 0
        for option in options:
            gain = self._value(what, seat, option) - before
            if not best or gain > best_gain:
                best, best_gain = [option], gain
            elif gain == best_gain:
                best.append(option)
        return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]

    # --- an option's worth -------------------------------------------------------------------

    def _value(self, what: str, seat: int, option: Any) -> float:
        """Seat ``seat``'s points after ``option``; an option that cannot be tried alone (it
        aims at a card played earlier this same turn) is worth least."""
        texts = self._texts(seat, option) if what == "play" else [str(option)]
        worth = -float("inf")
        for text in dict.fromkeys(texts):
            trial = _with_seat_copied(self.game.table, seat)
            plays = ["-"] * len(trial.seats)
            plays[seat] = text
            try:
                trial.play_turn(plays)
            except InputError:
                continue
            worth = max(worth, self._points(trial, seat))
        return worth

    def _texts(self, seat: int, option: tuple[str, str]) -> list[str]:
        """A (normal play, bonus action) pair in the turn notation of :mod:`.turns`: a spoon's
        ask becomes the card found (each target it may take, for a special order or a takeout box)."""
        normal, bonus = option
        if not bonus:
            return [normal]
        if "?" not in bonus:
            return [f"{normal} {bonus}"]
        spoon, _, card = bonus.partition("?")
        if kind_name(card) in (SPECIAL, "takeout"):
            found = self.game.expand(seat, card, True, spoon, [_slot_text(normal)])
            return [f"{normal} {spoon}:{t}" for t in found]
        return [f"{normal} {spoon}:{card}"]

    def _points(self, table: RoundTable, seat: int) -> int:
        """Seat ``seat``'s round points with the table as it is, and its desserts of the round."""
        game = self.game
        mine = table.seats[seat].tableau()
        key = (mine, tuple(table.paid), table.places)
        points = self._memo.get(key)
        if points is None:
            tableaux = list(self._shown)
            tableaux[seat] = mine
            score = score_round(tableaux, game.menu, game.rules, RacePaid(key[1], table.places))
            held = tuple(tuple(sorted(d.items())) for d in score.desserts)
            desserts = self._desserts.get(held)
            if desserts is None:  # the same holdings come back often: score them once a game
                desserts = self._desserts[held] = score_game([score], game.menu, game.rules, 1).dessert_points
            assert desserts is not None
            points = self._memo[key] = score.totals[seat] + desserts[seat]
        return points
