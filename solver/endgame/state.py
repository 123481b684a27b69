"""Compact search states: move generation and the exact reduction of tableaux."""

from __future__ import annotations

from dataclasses import dataclass

from sushigo.solver.endgame.position import N_TOKENS, Hand, Tab
from sushigo.solver.reduce import reduce_tableau
from sushigo.spec.cards import Token
from sushigo.spec.errors import BudgetSpent, InputError
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.turns import Turn, turn_effects

_PUD = int(Token.PUDDING)
_WAS = int(Token.WASABI)
_CHOP = int(Token.CHOPSTICKS)
_MAKI = (int(Token.MAKI1), int(Token.MAKI2), int(Token.MAKI3))

OBJECTIVES = ("diff", "own", "win")
POLICIES = ("greedy",)
DEFAULT_MAX_NODES = 2_000_000



#: The name a search's spent node or time budget raised under before :class:`BudgetSpent` was
#: the one "ran out" exception; kept, library code catches it.
BudgetExceeded = BudgetSpent


def check_budget(max_nodes: int, time_limit: float | None) -> None:
    """InputError for a node budget that is not a whole number of 0 or more, or a time limit that
    is not a number of seconds of 0 or more (None: no limit)."""
    if not isinstance(max_nodes, int) or isinstance(max_nodes, bool) or max_nodes < 0:
        raise InputError(f"max_nodes {max_nodes!r}: give a whole number of states, 0 or more")
    if time_limit is not None and (
        not isinstance(time_limit, int | float) or isinstance(time_limit, bool) or not time_limit >= 0
    ):
        raise InputError(f"time_limit {time_limit!r}: give seconds, a number of 0 or more (None: no limit)")


@dataclass(frozen=True, slots=True)
class Move:
    turn: Turn
    rest: Hand  # the hand passed on (a used chopsticks card back in it)
    tab: Tab  # the reduced tableau after the turn
    gain: int  # dish points banked by the reduction


class _Rules:
    """Move generation and the exact reduction of tableaux, cached per ruleset."""

    def __init__(self, rules: Ruleset, keep_pudding: bool) -> None:
        self.rules = rules
        self.keep_pudding = keep_pudding
        self._moves: dict[tuple[Hand, Tab, bool], list[Move]] = {}
        # Per (hand, chopsticks in front, free wasabi up to 2): each legal turn, the hand it leaves and
        # what it adds to the tableau (the tokens it changes), from spec.turns.turn_effects: turns
        # are resolved once per class instead of once per tableau.
        self._effects: dict[tuple[Hand, bool, int], list[tuple[Turn, Hand, tuple[tuple[int, int], ...]]]] = {}
        self._reduced: dict[tuple[int, ...], tuple[Tab, int]] = {}

    def reduce(self, tab: list[int]) -> tuple[Tab, int]:
        """(reduced tableau, banked points): points(full + future) = banked + points(reduced + future)."""
        key = tuple(tab)
        got = self._reduced.get(key)
        if got is None:
            got = self._reduced[key] = reduce_tableau(tab, self.rules, self.keep_pudding)
        return got

    def effects(self, hand: Hand, tab: Tab) -> list[tuple[Turn, Hand, tuple[tuple[int, int], ...]]]:
        """Each legal turn from ``hand`` with ``tab`` in front: (turn, hand left, tableau change)."""
        cls = (hand, tab[_CHOP] >= 1, min(tab[_WAS], 2))
        got = self._effects.get(cls)
        if got is None:
            got = self._effects[cls] = [
                (turn, left, tuple((k, d) for k, d in enumerate(delta) if d))
                for turn, left, delta in turn_effects(hand, cls[1], cls[2], self.rules)]
        return got

    def reduce_other(self, tab: list[int]) -> Tab:
        """What of an opponent's tableau can change player 0's own score or the opponent's options."""
        out = [0] * N_TOKENS
        for k in _MAKI:
            out[k] = tab[k]
        out[_CHOP] = tab[_CHOP]
        if self.keep_pudding:
            out[_PUD] = tab[_PUD]
        return tuple(out)

    def moves(self, hand: Hand, tab: Tab, full: bool = True) -> list[Move]:
        key = (hand, tab, full)
        got = self._moves.get(key)
        if got is None:
            got = self._moves[key] = self.build(hand, tab, full)
        return got

    def build(self, hand: Hand, tab: Tab, full: bool = True) -> list[Move]:
        """:meth:`moves` without its cache (for a caller that keeps the answer itself)."""
        out: list[Move] = []
        seen: set[tuple[Hand, Tab, int]] = set()
        for turn, rest, change in self.effects(hand, tab):
            t = list(tab)
            for i, c in change:
                t[i] += c
            if full:
                nt, gain = self.reduce(t)
            else:
                nt, gain = self.reduce_other(t), 0
            k = (rest, nt, gain)
            if k not in seen:
                seen.add(k)
                out.append(Move(turn, rest, nt, gain))
        return out

