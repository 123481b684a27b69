"""Players as policies: what a player sees, and the two shipped ways to choose a turn.

A policy only ever receives a :class:`PlayerView`: its own hand, every tableau
on the table as it lay at the start of the turn (picks are simultaneous), the
puddings and the scores so far. It never sees other hands, the undealt deck or
the random generator that shuffled it (the executor gives policies their own
generator, seeded from 64 bits drawn after the shuffle, so the deck cannot be
reconstructed from it).

The executor also hands the policy the legal turns, in the order of
:func:`spec.turns.legal_turns`; a policy returns one of them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import dish_points, maki_icons, maki_points
from sushigo.spec.turns import Turn, apply_turn


@dataclass(frozen=True)
class PlayerView:
    """Everything one player may know when choosing.

    ``target`` is the seat whose tableau the pick goes to: the player's own
    seat, or the dummy's seat when a dummy-2p controller chooses the dummy's card.
    """

    seat: int
    target: int
    players: int  # players who can win (the dummy is not counted)
    round_index: int  # from 0
    turn: int  # from 0, within the round
    hand: tuple[int, ...]  # 12 counts by Card
    tableaux: tuple[tuple[int, ...], ...]  # 15 counts by Token, per seat, at the start of the turn
    puddings: tuple[int, ...]  # pudding cards per seat: earlier rounds plus this round's tableau
    scores: tuple[tuple[int, ...], ...]  # round totals of the finished rounds, per seat
    rules: Ruleset

    @property
    def tableau(self) -> tuple[int, ...]:
        """The tableau the pick lands in."""
        return self.tableaux[self.target]

    @property
    def for_dummy(self) -> bool:
        return self.target != self.seat


@runtime_checkable  # so a function taking "a spec or a Policy" can tell them apart
class Policy(Protocol):
    name: str

    def choose(self, view: PlayerView, options: Sequence[Turn], rng: random.Random) -> Turn:
        """One of ``options`` (never empty)."""
        ...


class RandomPolicy:
    """Uniform over the legal turns as spec.turns.legal_turns lists them (chopsticks uses
    included; two listed turns may leave the same tableau and hand, docs/executor.md says which).

    Draws one ``rng.random()`` per decision with more than one option, and
    none otherwise; :func:`spec.executor.fast_random_games` relies on exactly that.
    """

    name = "random"

    def choose(self, view: PlayerView, options: Sequence[Turn], rng: random.Random) -> Turn:
        if len(options) == 1:
            return options[0]
        return options[int(rng.random() * len(options))]


def _own_points(tableaux: Sequence[Sequence[int]], seat: int, rules: Ruleset) -> int:
    """Round points of ``seat`` if the round ended with the table as it is."""
    dishes = sum(dish_points(tableaux[seat], rules))
    maki = maki_points([maki_icons(t, rules) for t in tableaux], rules)[seat]
    return dishes + maki


class GreedyPolicy:
    """Maximise the immediate round points of its own tableau (maki against the table as seen).

    Choosing the dummy's card, it gives the dummy the card that gains the dummy
    least. Ties are broken uniformly with the policy generator (seeded, so
    games are reproducible).
    """

    name = "greedy"

    def choose(self, view: PlayerView, options: Sequence[Turn], rng: random.Random) -> Turn:
        if len(options) == 1:
            return options[0]
        rules = view.rules
        target = view.target
        tables = [list(t) for t in view.tableaux]
        before = _own_points(tables, target, rules)
        sign = -1 if view.for_dummy else 1
        best: list[Turn] = []
        best_gain = 0
        for turn in options:
            mine = list(view.tableau)
            apply_turn(list(view.hand), mine, turn, rules)
            tables[target] = mine
            gain = sign * (_own_points(tables, target, rules) - before)
            if not best or gain > best_gain:
                best, best_gain = [turn], gain
            elif gain == best_gain:
                best.append(turn)
        tables[target] = list(view.tableau)
        return best[0] if len(best) == 1 else best[int(rng.random() * len(best))]


#: Policy factories by name.
POLICIES: dict[str, Callable[[], Policy]] = {
    "random": RandomPolicy,
    "greedy": GreedyPolicy,
}
