"""The card vocabulary: 12 card kinds and the 15 tableau tokens.

A *card* is one of the 12 kinds printed in the deck. A *token* is what can lie
in a final tableau: any card, or a nigiri lying on a wasabi (``wasabi+squid``),
which is two cards forming one scoring unit.

Each kind is defined once, as data, in :mod:`spec.kinds`; the enumerations below are
derived from those definitions (one ``Card`` member per kind, one ``Token`` member per
token of :func:`spec.kinds.tokens_of`, in that order), and so are the groups, stacks and
aliases. Type checkers cannot read a derived enumeration, so they are shown a
declaration of the members the code names (``Card.TEMPURA``) under ``TYPE_CHECKING``;
``tests/test_cards.py`` holds that declaration to the derived members. Hand sizes and the
other rule numbers live in :mod:`spec.ruleset`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import IntEnum, auto
TYPE_CHECKING = False

from sushigo.spec.errors import NotationError
from sushigo.spec.kinds import KINDS, Icons, aliases_of, tokens_of


class CardEnum(IntEnum):
    """A card kind; the members (one per definition in :data:`spec.kinds.KINDS`) are derived."""

    @property
    def label(self) -> str:
        return self.name.lower()

    def __str__(self) -> str:
        return self.label


class TokenEnum(IntEnum):
    """A tableau token; the members (one per :func:`spec.kinds.tokens_of` token) are derived."""

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


_LABEL = re.compile(r"[a-z][a-z0-9]*(\+[a-z][a-z0-9]*)?")


def _members(labels: Iterable[str]) -> list[tuple[str, int]]:
    """(member name, value) per label, numbered from 0: ``wasabi+egg`` is ``WASABI_EGG``.

    A label must read back from its member name (``label`` lowers it and turns ``_`` into
    ``+``), so a kind's name is lower-case letters and digits.
    """
    out = []
    for i, label in enumerate(labels):
        if not _LABEL.fullmatch(label):
            raise ImportError(f"card kind {label!r} in spec.kinds: use lower-case letters and digits")
        out.append((label.upper().replace("+", "_"), i))
    return out


if TYPE_CHECKING:
    # What type checkers see: the members the code names. The real members are derived below;
    # tests/test_cards.py checks every name here is one of them, in the same order, and that
    # every member the code names (``Card.TEMPURA``) is declared here. A kind the code never names
    # (one that only scores) needs no line here.
    class Card(CardEnum):
        TEMPURA = auto()
        SASHIMI = auto()
        DUMPLING = auto()
        MAKI1 = auto()
        MAKI2 = auto()
        MAKI3 = auto()
        EGG = auto()
        SALMON = auto()
        SQUID = auto()
        PUDDING = auto()
        WASABI = auto()
        CHOPSTICKS = auto()

    class Token(TokenEnum):
        TEMPURA = auto()
        SASHIMI = auto()
        DUMPLING = auto()
        MAKI1 = auto()
        MAKI2 = auto()
        MAKI3 = auto()
        EGG = auto()
        SALMON = auto()
        SQUID = auto()
        PUDDING = auto()
        WASABI = auto()
        CHOPSTICKS = auto()
        WASABI_EGG = auto()
        WASABI_SALMON = auto()
        WASABI_SQUID = auto()
else:
    # module and qualname make the members pickle by reference (they travel to worker processes).
    Card = CardEnum("Card", _members(k.name for k in KINDS), module=__name__, qualname="Card")
    Token = TokenEnum("Token", _members(t.label for t in tokens_of(KINDS)), module=__name__, qualname="Token")

CARDS: tuple[Card, ...] = tuple(Card)
TOKENS: tuple[Token, ...] = tuple(Token)


NIGIRI: tuple[Card, ...] = tuple(Card(i) for i, k in enumerate(KINDS) if k.role == "nigiri")
MAKI: tuple[Card, ...] = tuple(Card(i) for i, k in enumerate(KINDS) if isinstance(k.scoring, Icons))
STACKS: tuple[Token, ...] = tuple(Token(i) for i, t in enumerate(tokens_of(KINDS)) if len(t.cards) > 1)

TOKEN_CARDS: dict[TokenEnum, tuple[Card, ...]] = {
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
    import difflib  # only an error line needs it

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
