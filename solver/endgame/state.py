"""Compact search states: move generation and the exact reduction of tableaux."""

from __future__ import annotations

from dataclasses import dataclass

from sushigo.solver.endgame.position import N_TOKENS, Hand, Tab
from sushigo.solver.reduce import reduce_tableau
from sushigo.spec.cards import Token
from sushigo.spec.errors import Unsettled
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.turns import Turn, apply_turn, legal_turns

_PUD = int(Token.PUDDING)
_WAS = int(Token.WASABI)
_CHOP = int(Token.CHOPSTICKS)
_MAKI = (int(Token.MAKI1), int(Token.MAKI2), int(Token.MAKI3))

OBJECTIVES = ("diff", "own", "win")
POLICIES = ("greedy",)
DEFAULT_MAX_NODES = 2_000_000



class BudgetExceeded(Unsettled):
    """The node budget ran out; the answer is unknown."""


@dataclass(frozen=True)
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

    def reduce(self, tab: list[int]) -> tuple[Tab, int]:
        """(reduced tableau, banked points): points(full + future) = banked + points(reduced + future)."""
        return reduce_tableau(tab, self.rules, self.keep_pudding)

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
        if got is not None:
            return got
        out: list[Move] = []
        seen: set[tuple[Hand, Tab, int]] = set()
        for turn in legal_turns(hand, tab, self.rules):
            h, t = list(hand), list(tab)
            apply_turn(h, t, turn, self.rules)
            if full:
                nt, gain = self.reduce(t)
            else:
                nt, gain = self.reduce_other(t), 0
            k = (tuple(h), nt, gain)
            if k not in seen:
                seen.add(k)
                out.append(Move(turn, tuple(h), nt, gain))
        self._moves[key] = out
        return out

