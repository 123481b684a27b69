"""The card vocabulary: 12 card kinds and the 15 tableau tokens.

A *card* is one of the 12 kinds printed in the deck. A *token* is what can lie
in a final tableau: any card, or a nigiri lying on a wasabi (``wasabi+squid``),
which is two cards forming one scoring unit.

The deck composition and hand sizes are rule numbers and live in
:mod:`spec.ruleset`; this module only names things.
"""

from __future__ import annotations

import difflib
from enum import IntEnum

from sushigo.spec.errors import NotationError


class Card(IntEnum):
    TEMPURA = 0
    SASHIMI = 1
    DUMPLING = 2
    MAKI1 = 3
    MAKI2 = 4
    MAKI3 = 5
    EGG = 6
    SALMON = 7
    SQUID = 8
    PUDDING = 9
    WASABI = 10
    CHOPSTICKS = 11

    @property
    def label(self) -> str:
        return self.name.lower()

    def __str__(self) -> str:
        return self.label


class Token(IntEnum):
    TEMPURA = 0
    SASHIMI = 1
    DUMPLING = 2
    MAKI1 = 3
    MAKI2 = 4
    MAKI3 = 5
    EGG = 6
    SALMON = 7
    SQUID = 8
    PUDDING = 9
    WASABI = 10
    CHOPSTICKS = 11
    WASABI_EGG = 12
    WASABI_SALMON = 13
    WASABI_SQUID = 14

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", "+")

    @property
    def cards(self) -> tuple[Card, ...]:
        """The physical cards this token is made of (a stack is wasabi plus its nigiri)."""
        return TOKEN_CARDS[self]

    @property
    def size(self) -> int:
        return len(TOKEN_CARDS[self])

    def __str__(self) -> str:
        return self.label


CARDS: tuple[Card, ...] = tuple(Card)
TOKENS: tuple[Token, ...] = tuple(Token)
NIGIRI: tuple[Card, ...] = (Card.EGG, Card.SALMON, Card.SQUID)
MAKI: tuple[Card, ...] = (Card.MAKI1, Card.MAKI2, Card.MAKI3)
STACKS: tuple[Token, ...] = (Token.WASABI_EGG, Token.WASABI_SALMON, Token.WASABI_SQUID)

#: The stack token a nigiri forms when it lies on a wasabi.
STACK_OF: dict[Card, Token] = {
    Card.EGG: Token.WASABI_EGG,
    Card.SALMON: Token.WASABI_SALMON,
    Card.SQUID: Token.WASABI_SQUID,
}
#: The nigiri lying in each stack.
NIGIRI_OF: dict[Token, Card] = {stack: nigiri for nigiri, stack in STACK_OF.items()}

TOKEN_CARDS: dict[Token, tuple[Card, ...]] = {
    **{Token(int(c)): (c,) for c in Card},
    **{stack: (Card.WASABI, nigiri) for stack, nigiri in NIGIRI_OF.items()},
}

#: Short names accepted on input (never produced on output).
ALIASES: dict[str, str] = {
    "tem": "tempura",
    "sas": "sashimi",
    "dum": "dumpling",
    "dumplings": "dumpling",
    "m1": "maki1",
    "m2": "maki2",
    "m3": "maki3",
    "sal": "salmon",
    "sq": "squid",
    "pud": "pudding",
    "was": "wasabi",
    "wa": "wasabi",
    "chop": "chopsticks",
    "cs": "chopsticks",
}

_CARD_BY_NAME: dict[str, Card] = {c.label: c for c in Card}
_TOKEN_BY_NAME: dict[str, Token] = {t.label: t for t in Token}


def _suggest(name: str, choices: list[str]) -> str:
    near = difflib.get_close_matches(name, choices, n=1, cutoff=0.5)
    return f"; did you mean {near[0]!r}?" if near else ""


def _canonical(name: str) -> str:
    low = name.strip().lower()
    if "+" in low:
        left, _, right = low.partition("+")
        return f"{ALIASES.get(left, left)}+{ALIASES.get(right, right)}"
    return ALIASES.get(low, low)


def parse_card(name: str) -> Card:
    """A card kind from its name or alias, case-insensitive."""
    key = _canonical(name)
    card = _CARD_BY_NAME.get(key)
    if card is None:
        raise NotationError(
            f"unknown card {name!r}{_suggest(key, list(_CARD_BY_NAME))} "
            f"(cards: {', '.join(_CARD_BY_NAME)})"
        )
    return card


def parse_token(name: str) -> Token:
    """A tableau token: a card name or a stack ``wasabi+egg|salmon|squid``."""
    key = _canonical(name)
    token = _TOKEN_BY_NAME.get(key)
    if token is None:
        raise NotationError(
            f"unknown card {name!r}{_suggest(key, list(_TOKEN_BY_NAME))} "
            f"(tokens: {', '.join(_TOKEN_BY_NAME)})"
        )
    return token
