"""Puddings carried into a round's endgame: what ``exact`` solves in the rounds before the last.

The endgame solver (:mod:`solver.endgame`) values a round before the last by its own points: a
pudding scores nothing there, so at equilibrium it is given away. Puddings score at the game's
end, by who holds more (RULES.md, End of game), so a pudding taken now is worth what it changes
in that race. :func:`pudding_outlook` says how much: with ``a`` and ``b`` puddings held at the end
of this round, the expected pudding points of seat 0 less those of seat 1 once the game is over,
when the puddings of the rounds still to come are dealt from what is left of the deck (a
hypergeometric count) and each dealt pudding goes to either seat with even chance.

:func:`solve_carry` is the fast exact search (:mod:`solver.endgame.exact`) with that value added
to the round's points difference at every leaf: the round's margin plus the expected margin of
the pudding race. The pudding counts are kept whole (not clipped to their sign as in the last
round, where only the sign matters: here the size of a lead matters, puddings are still to come).
Values are in 1/``SCALE`` points, rounded at the leaves, so the search stays on integers.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from fractions import Fraction
from math import comb

from sushigo.solver.endgame.canonical import Canon
from sushigo.solver.endgame.exact import _Exact, _search
from sushigo.solver.endgame.position import Position, Tab
from sushigo.solver.endgame.reference import check_two, root_offset
from sushigo.solver.endgame.result import EndgameDraft, EndgameResult
from sushigo.solver.endgame.state import _PUD, _Rules
from sushigo.spec.cards import Card
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import pudding_points, round_totals

__all__ = ["SCALE", "pudding_outlook", "solve_carry"]

#: The search's unit: values are whole numbers of 1/SCALE points.
SCALE = 16


def pudding_outlook(rules: Ruleset, round_number: int, unseen: int) -> Callable[[int, int], Fraction]:
    """``f(a, b)``: the expected end-of-game pudding points of seat 0 less seat 1 (two players) when
    they hold ``a`` and ``b`` puddings at the end of round ``round_number`` (from 1) and ``unseen``
    puddings are neither kept nor in this round's hands or tableaux. Later rounds deal their hands
    from the deck left after this round's deal; each pudding dealt goes to either seat with chance
    one half. In the last round there is nothing to come and ``f`` is the pudding scoring itself."""
    players = 2
    deck_left = rules.deck_size() - rules.hand_size(players) * players * round_number
    drawn = min(deck_left, rules.hand_size(players) * players * (rules.rounds - round_number))
    unseen = max(0, min(unseen, deck_left))
    total = comb(deck_left, drawn)
    # P(k puddings among the cards still to be dealt), hypergeometric.
    chance = [Fraction(comb(unseen, k) * comb(deck_left - unseen, drawn - k), total)
              for k in range(min(unseen, drawn) + 1)]
    cache: dict[tuple[int, int], Fraction] = {}

    def outlook(a: int, b: int) -> Fraction:
        got = cache.get((a, b))
        if got is None:
            got = Fraction(0)
            for k, p in enumerate(chance):
                if not p:
                    continue
                for j in range(k + 1):  # j of the k go to seat 0
                    pts = pudding_points([a + j, b + k - j], rules)
                    got += p * Fraction(comb(k, j), 2 ** k) * (pts[0] - pts[1])
            cache[(a, b)] = got
        return got

    return outlook


def unseen_puddings(pos: Position) -> int:
    """Puddings of the ruleset's deck not kept, not in this round's tableaux and not in its hands."""
    here = (sum(pos.puddings) + sum(t[_PUD] for t in pos.tableaux)
            + sum(h[int(Card.PUDDING)] for h in pos.hands))
    return max(0, pos.rules.copies(Card.PUDDING) - here)


class _Carry(_Exact):
    """The exact search with the pudding race's expected margin at the leaves (objective ``diff``)."""

    def __init__(self, pos: Position, max_nodes: int, time_limit: float | None) -> None:
        super().__init__(pos, "diff", max_nodes, time_limit)
        # Puddings are live cards here (never merged as dead) and their counts kept whole.
        self.gen = _Rules(pos.rules, keep_pudding=True)
        self.canon = Canon(pos.rules, "diff", True, (pos.puddings[0], pos.puddings[1]))
        self.canon.pudding_rank = False
        self.outlook = pudding_outlook(pos.rules, pos.round, unseen_puddings(pos))
        self.leaves: dict[tuple[int, int], int] = {}

    def leaf(self, t0: Tab, t1: Tab, d: int) -> int:
        tot = round_totals([t0, t1], self.rules)
        key = (self.pos.puddings[0] + t0[_PUD], self.pos.puddings[1] + t1[_PUD])
        carried = self.leaves.get(key)
        if carried is None:
            carried = self.leaves[key] = round(self.outlook(*key) * SCALE)
        return SCALE * (tot[0] - tot[1]) + carried

    def _banked(self, g0: int, g1: int, d: int) -> tuple[int, int]:
        return SCALE * (g0 - g1), d


def solve_carry(pos: Position, max_nodes: int, time_limit: float | None = None) -> EndgameResult:
    """A two-player round's endgame valued by its points plus the pudding race's expected margin
    (:func:`pudding_outlook`); the result's values are in 1/:data:`SCALE` points (objective ``diff``)."""
    check_two(pos, "diff")
    s = _Carry(pos, max_nodes, time_limit)
    off, d, t0, t1 = root_offset(s)
    result = EndgameDraft(pos, "diff")
    collecting = gc.isenabled()
    gc.disable()
    try:
        _search(s, result, off * SCALE, d, t0, t1)
    finally:
        if collecting:
            gc.enable()
    return result.freeze()
