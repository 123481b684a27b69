"""A seeded local search for good games over all deals: the starting point of the certified search.

The Z3 model of :mod:`solver.alldeals` proves upper bounds well once it has the
category caps, but finding a strong game (two seats both near the top, the
question "the best total that still loses") takes it long. This search finds
such games by simulated annealing; the solver then only has to beat the start
or prove that one point more is unreachable. Nothing here is a proof: the
search's game is replayed by the executor like any witness, and the status
``optimal`` still needs the solver's unsat answer.

State: for every round and seat a multiset of cards of exactly hand size, plus
the undealt rest of the deck. A move swaps one card between two of these
places (so sizes and deck limits hold by construction). Every seat lays its
wasabi on its best nigiri (squid, then salmon, then egg), which maximises its
dishes without touching maki or puddings; :func:`spec.record.pick_order` can
lay any such tableau. The objective is the player's total (seat 0), or for the
losing question ``min(total0, total1 - 1)``, which is the player's total when
seat 1 finishes higher and smaller otherwise.

Deterministic: the same seed and step count give the same game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from sushigo.spec.cards import STACK_OF, Card, Token
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import pudding_points, round_totals
from sushigo.spec.tableau import Tableau

_W = int(Card.WASABI)
_PUD = int(Card.PUDDING)
# Wasabi goes on the most valuable nigiri first.
_STACKING = tuple((int(c), int(STACK_OF[c])) for c in (Card.SQUID, Card.SALMON, Card.EGG))


def tokens(cards: Sequence[int]) -> list[int]:
    """Token counts of a seat's cards, each wasabi on the best nigiri available."""
    out = list(cards) + [0] * (len(Token) - len(Card))
    free = out[_W]
    for nig, stack in _STACKING:
        k = min(free, out[nig])
        out[nig] -= k
        out[stack] += k
        free -= k
    out[_W] = free
    return out


class _Game:
    def __init__(self, players: int, rounds: int, rules: Ruleset, losing: bool, rng: random.Random) -> None:
        self.rules = rules
        self.losing = losing
        self.rounds = rounds
        self.seats = rules.seats(players)
        size = rules.hand_size(players)
        deck = [int(c) for c in Card for _ in range(rules.copies(c))]
        rng.shuffle(deck)
        # places[r * seats + s] is a seat-round; the last place is the undealt rest of the deck.
        self.places: list[list[int]] = []
        for _ in range(rounds * self.seats):
            cards = [0] * len(Card)
            for c in deck[:size]:
                cards[c] += 1
            deck = deck[size:]
            self.places.append(cards)
        rest = [0] * len(Card)
        for c in deck:
            rest[c] += 1
        self.places.append(rest)
        self.round_scores = [self._score_round(r) for r in range(rounds)]

    def _score_round(self, r: int) -> list[int]:
        s = self.seats
        return round_totals([tokens(p) for p in self.places[r * s:(r + 1) * s]], self.rules)

    def totals(self) -> list[int]:
        tot = [sum(rs[i] for rs in self.round_scores) for i in range(self.seats)]
        if self.rounds == self.rules.rounds:
            puddings = [sum(self.places[r * self.seats + i][_PUD] for r in range(self.rounds))
                        for i in range(self.seats)]
            tot = [t + p for t, p in zip(tot, pudding_points(puddings, self.rules), strict=True)]
        return tot

    def value(self) -> tuple[float, float]:
        """The player's total if the game answers the question (else minus infinity), and the
        shaped value the search climbs: ``min(total0, total1 - 1)`` plus a little of the two
        seats' sum, which keeps the search moving on the plateaus."""
        t = self.totals()
        if not self.losing:
            return t[0], float(t[0])
        v = min(t[0], t[1] - 1)
        return (t[0] if t[1] > t[0] else -math.inf), v + 0.25 * (t[0] + t[1])

    def swap_seats(self, r: int) -> None:
        """Exchange the player's and seat 1's tableaux in round ``r``."""
        a, b = r * self.seats, r * self.seats + 1
        self.places[a], self.places[b] = self.places[b], self.places[a]
        self.round_scores[r] = self._score_round(r)

    def swap(self, a: int, b: int, ca: int, cb: int) -> None:
        pa, pb = self.places[a], self.places[b]
        pa[ca] -= 1
        pb[ca] += 1
        pb[cb] -= 1
        pa[cb] += 1
        for p in {a, b}:
            if p < len(self.places) - 1:
                r = p // self.seats
                self.round_scores[r] = self._score_round(r)

    def tableaux(self) -> tuple[tuple[Tableau, ...], ...]:
        s = self.seats
        return tuple(tuple(Tableau(tuple(tokens(p))) for p in self.places[r * s:(r + 1) * s])
                     for r in range(self.rounds))


def _move(g: _Game, rng: random.Random, scored: Sequence[int]) -> Callable[[], None] | None:
    """Make a random move on ``g`` and return what undoes it (None: no move this time)."""
    if g.losing and rng.random() < 0.02:
        r = rng.randrange(g.rounds)
        g.swap_seats(r)
        return lambda: g.swap_seats(r)
    # One side of most swaps is a scored seat (the player or the seat that beats them).
    n_places = len(g.places)
    a = rng.choice(scored) if rng.random() < 0.8 else rng.randrange(n_places)
    b = rng.randrange(n_places)
    if a == b:
        return None
    pa, pb = g.places[a], g.places[b]
    ca = rng.choice([c for c in range(len(Card)) if pa[c]])
    cb = rng.choice([c for c in range(len(Card)) if pb[c]])
    if ca == cb:
        return None
    g.swap(a, b, ca, cb)
    return lambda: g.swap(a, b, cb, ca)


def anneal(
    players: int, kind: str, rules: Ruleset, losing: bool, seed: int, steps: int = 60_000, restarts: int = 3,
    on_best: Callable[[int, tuple[tuple[Tableau, ...], ...]], None] | None = None,
) -> tuple[int, tuple[tuple[Tableau, ...], ...]]:
    """The best total of the player found (for ``losing``, in a game seat 1 finishes higher) and
    its tableaux (per round, per seat); ``(-1, ())`` if no such game was met. ``on_best`` hears
    each better game as it is met (so a stop in the middle still has it)."""
    rounds = rules.rounds if kind == "game" else 1
    best_value: float = -math.inf
    best_tabs: tuple[tuple[Tableau, ...], ...] = ()
    for k in range(restarts):
        rng = random.Random(f"alldeals-anneal/{seed}/{k}")
        g = _Game(players, rounds, rules, losing, rng)
        scored = [r * g.seats + i for r in range(rounds) for i in (0, 1)]
        value, cur = g.value()
        if value > best_value:
            best_value, best_tabs = value, g.tableaux()
        for step in range(steps):
            temp = 4.0 * (0.02 / 4.0) ** (step / steps)  # geometric cooling from 4 points to 0.02
            undo = _move(g, rng, scored)
            if undo is None:
                continue
            value, new = g.value()
            if new >= cur or rng.random() < math.exp((new - cur) / temp):
                cur = new
                if value > best_value:
                    best_value, best_tabs = value, g.tableaux()
                    if on_best is not None and best_value > -math.inf:
                        on_best(int(best_value), best_tabs)
            else:
                undo()
    if not best_tabs:
        return -1, ()
    return int(best_value), best_tabs
