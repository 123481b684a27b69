"""Packed count vectors: a hand (12 counts by Card) and a tableau (15 counts by Token) as one int,
one byte a field, and the pattern of a hand in a tableau that its legal turns depend on.

A hand hashes and compares as one int, a tableau unpacks with ``int.to_bytes`` (C speed), and a
turn's effect is one addition to each (see :mod:`spec.engine.options`).
"""

from __future__ import annotations

from collections.abc import Sequence

from sushigo.spec.cards import Card, Token

N_CARDS = len(Card)
N_TOKENS = len(Token)
PUD_TOKEN = int(Token.PUDDING)

BITS = 8
WC_SHIFT = BITS * int(Token.WASABI)  # free wasabi and chopsticks are adjacent tokens (10, 11)
ONES = sum(1 << (BITS * c) for c in range(N_CARDS))
CARD_BIT: tuple[int, ...] = tuple(1 << (BITS * c) for c in range(N_CARDS))
# The top bit of every hand field: a hand count never exceeds 127, so a packed hand with one of
# these bits set is a hand that gave a card it did not hold (the field went below 0 and borrowed).
HIGH = sum(0x80 << (BITS * c) for c in range(N_CARDS))
# Added to a packed hand, these set a field's top bit iff its count is at least 1 (AT_LEAST_1)
# or 2 (AT_LEAST_2): no field carries into the next while counts stay below 128 (see HIGH).
AT_LEAST_1 = 0x7F * ONES
AT_LEAST_2 = 0x7E * ONES
# The 4,096 sets of kinds (one bit a byte apart, as pattern() gives them) leave 4,096 distinct
# remainders modulo 2**13 + 1 (tests/test_game.py checks it): an index into a plain list.
DENSE = 8193

Change = tuple[int, int]  # (change of the packed hand, change of the packed tableau)


def pack(counts: Sequence[int]) -> int:
    return int.from_bytes(bytes(counts), "little")


def unpack(value: int, n: int) -> bytes:
    return value.to_bytes(n, "little")


WC_FIELD = (1 << (2 * BITS)) - 1
TWICE_BITS = 2 * sum(1 << (BITS * c) for c in range(N_CARDS))  # bit 1 of every hand field
PATTERN_SHIFT = BITS * N_CARDS
KINDS = (1 << PATTERN_SHIFT) - 1


# The tableau state part of a chopsticks pattern key, by the free wasabi byte: the free wasabi up
# to 2, and the chopsticks bit (a look-up instead of min() and two operations per seat and turn).
CHOP_STATE = tuple((min(wasabi, 2) | 256) << PATTERN_SHIFT for wasabi in range(256))


def pattern(hand: int, tab: int) -> int:
    """What the legal turns of a packed hand in a packed tableau depend on (exactly):

    which kinds the hand holds; with chopsticks in the tableau also which it holds twice (a
    pair of one kind) and the free wasabi up to 2 (two nigiri in one turn); without, only
    whether a wasabi is free. Counts beyond that change what is left, never what may be taken.
    """
    wc = (tab >> WC_SHIFT) & WC_FIELD
    once = ((hand + AT_LEAST_1) & HIGH) >> 7
    if wc < 256:  # no chopsticks: singles only
        return once | ((wc > 0) << PATTERN_SHIFT)
    twice = ((hand + AT_LEAST_2) & HIGH) >> 6
    return once | twice | CHOP_STATE[wc & 0xFF]
