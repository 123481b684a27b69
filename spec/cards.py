"""The card vocabulary: 12 card kinds and the 15 tableau tokens.

A *card* is one of the 12 kinds printed in the deck. A *token* is what can lie
in a final tableau: any card, or a nigiri lying on a wasabi (``wasabi+squid``),
which is two cards forming one scoring unit.

Each kind is defined once, as data, in :mod:`spec.kinds`; the enumerations below are
its typed face (spelled out so that type checkers know ``Card.TEMPURA``) and are checked
against the definitions when this module loads, and the groups, stacks and aliases are
derived from them. Hand sizes and the other rule numbers live in :mod:`spec.ruleset`.
"""

from __future__ import annotations

import difflib
from enum import IntEnum

from sushigo.spec.errors import NotationError
from sushigo.spec.kinds import KINDS, Icons, aliases_of, tokens_of


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


def _check_enums() -> None:
    """The enumerations spell out :data:`spec.kinds.KINDS`: same names, same order."""
    want_cards = [k.name for k in KINDS]
    want_tokens = [t.label for t in tokens_of(KINDS)]
    if [c.label for c in Card] != want_cards or [t.label for t in Token] != want_tokens:
        raise ImportError(
            f"spec.cards is out of step with spec.kinds: Card must list {want_cards} "
            f"and Token {want_tokens} in this order"
        )


_check_enums()

NIGIRI: tuple[Card, ...] = tuple(Card(i) for i, k in enumerate(KINDS) if k.role == "nigiri")
MAKI: tuple[Card, ...] = tuple(Card(i) for i, k in enumerate(KINDS) if isinstance(k.scoring, Icons))
STACKS: tuple[Token, ...] = tuple(Token(i) for i, t in enumerate(tokens_of(KINDS)) if len(t.cards) > 1)

TOKEN_CARDS: dict[Token, tuple[Card, ...]] = {
    Token(i): tuple(Card(c) for c in t.cards) for i, t in enumerate(tokens_of(KINDS))
}
#: The stack token a nigiri forms when it lies on a wasabi.
STACK_OF: dict[Card, Token] = {TOKEN_CARDS[stack][-1]: stack for stack in STACKS}
#: The nigiri lying in each stack.
NIGIRI_OF: dict[Token, Card] = {stack: nigiri for nigiri, stack in STACK_OF.items()}

#: Short names accepted on input (never produced on output).
ALIASES: dict[str, str] = aliases_of(KINDS)

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
