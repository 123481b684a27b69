"""What one seat knows: the hands it has seen pass, where they are now, and the cards unseen.

A :class:`PlayerView` holds only the present (hand, tableaux, puddings, scores). A seat that
remembers its earlier views knows more: the hand it held ``k`` turns ago is now held by the seat
``k`` passes downstream, less the cards each holder took meanwhile, and those show as the
change of the holders' tableaux from one turn to the next (cards move only between a hand and a
tableau, so a tableau's gain in cards is its hand's loss; a chopsticks turn's returned
chopsticks is the tableau's loss of that card). In two players that gives both hands from the
second turn on. :class:`Memory` keeps those views within a game (a new game starts when round 1,
turn 1 is seen again); :func:`knowledge` reads them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from sushigo.spec.cards import Card, Token
from sushigo.spec.policies import PlayerView

N_CARDS = len(Card)
_TOKEN_CARDS: tuple[tuple[int, ...], ...] = tuple(tuple(int(c) for c in t.cards) for t in Token)
_PUD_TOKEN = int(Token.PUDDING)

__all__ = ["Knowledge", "Memory", "determinise", "knowledge", "tableau_cards"]


def tableau_cards(tableau: Sequence[int]) -> list[int]:
    """Card counts (by Card) of a tableau's token counts."""
    out = [0] * N_CARDS
    for tok, n in enumerate(tableau):
        if n:
            for c in _TOKEN_CARDS[tok]:
                out[c] += n
    return out


class Memory:
    """The views one seat was shown this game, round by round (reset when a new game starts)."""

    def __init__(self) -> None:
        self.round_index = -1
        self.hands: list[tuple[int, ...]] = []  # this round, by turn: the hand held
        self.tableaux: list[tuple[tuple[int, ...], ...]] = []  # this round, by turn
        self.gone = [0] * N_CARDS  # cards of finished rounds known to be out of play
        self.complete = False  # whether every view of this game was seen (else: hands unknown)

    def see(self, view: PlayerView) -> None:
        if view.round_index == 0 and view.turn == 0:
            self.__init__()  # type: ignore[misc]  # a new game
            self.complete = True
        if view.round_index != self.round_index:
            if self.hands and self.round_index >= 0:
                # the finished round's cards: the tableaux last seen, and the last card this seat took
                for tab in self.tableaux[-1]:
                    for c, n in enumerate(tableau_cards(tab)):
                        self.gone[c] += n
                for c, n in enumerate(self.hands[-1]):
                    self.gone[c] += n
            self.round_index = view.round_index
            self.hands, self.tableaux = [], []
            if view.turn != 0:
                self.complete = False
        if len(self.hands) != view.turn:  # asked twice in a turn (a dummy's card), or a gap
            if len(self.hands) == view.turn + 1:
                return
            self.complete = False
            self.hands = [()] * view.turn
            self.tableaux = [()] * view.turn
        self.hands.append(view.hand)
        self.tableaux.append(view.tableaux)


@dataclass(frozen=True)
class Knowledge:
    """Per seat the hand it holds if known (None if not), and the cards whose place is unknown
    (the undealt deck, the unknown hands, unseen picks of finished rounds), by Card."""

    hands: tuple[tuple[int, ...] | None, ...]
    unseen: tuple[int, ...]


def knowledge(view: PlayerView, memory: Memory, offset: int) -> Knowledge:
    """What ``view.seat`` knows now, from ``memory`` (which has seen ``view``); ``offset`` is the
    round's pass offset (seat i hands to seat i + offset)."""
    n, s, t = view.players, view.seat, view.turn
    hands: list[tuple[int, ...] | None] = [None] * n
    hands[s] = view.hand
    offset %= n
    usable = memory.complete and len(memory.hands) == t + 1 and memory.round_index == view.round_index
    if offset and usable:
        for k in range(1, min(t, n - 1) + 1):
            held = list(memory.hands[t - k])
            holder = s
            for u in range(t - k, t):
                before, after = memory.tableaux[u][holder], memory.tableaux[u + 1][holder]
                for c, (x, y) in enumerate(zip(tableau_cards(after), tableau_cards(before), strict=True)):
                    held[c] -= x - y
                holder = (holder + offset) % n
            if min(held) < 0:
                break  # not the hand it seemed (a view missed): stop reading further back
            hands[holder] = tuple(held)
    unseen = list(view.rules.deck)
    for c in range(N_CARDS):
        unseen[c] -= memory.gone[c] if memory.complete else 0
    for hand in hands:
        if hand is not None:
            for c in range(N_CARDS):
                unseen[c] -= hand[c]
    for tab in view.tableaux:
        for c, k in enumerate(tableau_cards(tab)):
            unseen[c] -= k
    # Puddings of finished rounds stay on the table: known even without a memory of them.
    if not memory.complete:
        unseen[int(Card.PUDDING)] -= sum(p - tab[_PUD_TOKEN] for p, tab in zip(view.puddings, view.tableaux,
                                                                              strict=False))
    return Knowledge(tuple(hands), tuple(max(0, u) for u in unseen))


def determinise(known: Knowledge, size: int, rng: random.Random) -> list[tuple[int, ...]]:
    """Every seat's hand: the known ones as they are, the others ``size`` cards drawn from the
    unseen cards without replacement (so the hands are consistent with what the seat has seen)."""
    pool = [c for c, k in enumerate(known.unseen) for _ in range(k)]
    missing = sum(1 for h in known.hands if h is None)
    need = missing * size
    if len(pool) < need:  # a memory that misread: fill from the deck shape (never happens in play)
        pool += [c for c in range(N_CARDS)] * (need - len(pool))
    drawn = rng.sample(pool, need) if need else []
    out = []
    at = 0
    for hand in known.hands:
        if hand is None:
            counts = [0] * N_CARDS
            for c in drawn[at : at + size]:
                counts[c] += 1
            at += size
            out.append(tuple(counts))
        else:
            out.append(hand)
    return out
