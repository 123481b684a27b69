"""Final tableaux and their text notation.

A tableau is what lies in front of one player when a round is scored: a
multiset of the 15 tokens (:class:`spec.cards.Token`). Notation::

    tempura*2 sashimi*3 wasabi+squid egg

Tokens are separated by spaces or commas; a token is a card name or alias,
case-insensitive, or a stack ``wasabi+egg|salmon|squid``; ``name*N`` (or
``N*name``) is N copies. The canonical form lists tokens in :class:`Token`
order, each once, with ``*N`` when N > 1, separated by single spaces; the empty
tableau is ``-``. ``parse_tableau(format_tableau(t)) == t`` for every tableau.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from sushigo.spec.frozen import frozen

from sushigo.spec.cards import MAKI, Card, Token, parse_token
from sushigo.spec.errors import InputError, NotationError
from sushigo.spec.numbers import parse_whole

N_TOKENS = len(Token)
EMPTY = "-"


@frozen(order=True)
class Tableau:
    """Counts of every token, indexed by :class:`Token`."""

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.counts) != N_TOKENS:
            raise ValueError(f"a tableau has {N_TOKENS} token counts, got {len(self.counts)}")
        if any(c < 0 for c in self.counts):
            raise ValueError(f"negative token count in {self.counts!r}")

    @classmethod
    def of(cls, tokens: Iterable[Token] = (), **named: int) -> Tableau:
        counts = [0] * N_TOKENS
        for t in tokens:
            counts[int(t)] += 1
        for name, n in named.items():
            counts[int(parse_token(name))] += n
        return cls(tuple(counts))

    @classmethod
    def parse(cls, text: str) -> Tableau:
        return parse_tableau(text)

    def __getitem__(self, token: Token) -> int:
        return self.counts[int(token)]

    def __str__(self) -> str:
        return format_tableau(self)

    def __repr__(self) -> str:
        return f"Tableau.parse({format_tableau(self)!r})"

    def tokens(self) -> list[Token]:
        """Every token, repeated by its count, in canonical order."""
        return [t for t in Token for _ in range(self.counts[int(t)])]

    def card_counts(self) -> tuple[int, ...]:
        """Physical cards per :class:`Card` (a stack is one wasabi and one nigiri)."""
        out = [0] * len(Card)
        for t in Token:
            n = self.counts[int(t)]
            if n:
                for c in t.cards:
                    out[int(c)] += n
        return tuple(out)

    @property
    def size(self) -> int:
        """Number of cards (a stack counts as 2)."""
        return sum(self.card_counts())

    def maki_icons(self, icons: tuple[int, int, int] = (1, 2, 3)) -> int:
        return sum(icons[i] * self.counts[int(m)] for i, m in enumerate(MAKI))


_COUNT_RE = re.compile(r"^(?:(\d+)\*)?([A-Za-z0-9+]+?)(?:\*(\d+))?$")


def parse_tableau(text: str) -> Tableau:
    """Parse the tableau notation (see module docstring); counts from 0 to
    :data:`spec.numbers.MAX_COUNT`."""
    if not isinstance(text, str):
        raise NotationError(f"a tableau is text like 'tempura*2 squid', got {text!r}")
    stripped = text.strip()
    if stripped in ("", EMPTY):
        return Tableau((0,) * N_TOKENS)
    counts = [0] * N_TOKENS
    for part in re.split(r"[\s,]+", stripped):
        if not part:
            continue
        m = _COUNT_RE.match(part)
        if m is None or (m.group(1) and m.group(3)):
            raise NotationError(
                f"bad token {part!r} in tableau {text!r}: expected NAME, NAME*N or N*NAME"
            )
        token = parse_token(m.group(2))
        n = parse_whole(m.group(1) or m.group(3) or "1", f"count of {token.label} in tableau")
        counts[int(token)] += n
    return Tableau(tuple(counts))


def format_tableau(tableau: Tableau) -> str:
    return _notation(tableau.counts, _TOKEN_LABELS)


_TOKEN_LABELS = tuple(t.label for t in Token)
_CARD_LABELS = tuple(c.label for c in Card)


def _notation(counts: Iterable[int], labels: tuple[str, ...]) -> str:
    """The canonical text of ``counts`` by label: ``name`` once, ``name*N`` for more; ``-`` for none."""
    parts = [labels[k] if n == 1 else f"{labels[k]}*{n}" for k, n in enumerate(counts) if n]
    return " ".join(parts) if parts else EMPTY


def format_hand(counts: Iterable[int]) -> str:
    """A hand (counts by :class:`Card`) in the notation: ``tempura*2 squid``; ``-`` when empty."""
    return _notation(counts, _CARD_LABELS)


class HandCounts(tuple[int, ...]):
    """A hand as the step API returns it: a tuple of 12 counts by :class:`Card` (compared, hashed
    and indexed as that tuple) that prints in the notation: ``str`` is ``tempura*2 squid``."""

    __slots__ = ()

    def __str__(self) -> str:
        return format_hand(self)

    def __repr__(self) -> str:
        return f"HandCounts.parse({format_hand(self)!r})"

    @classmethod
    def parse(cls, text: str) -> HandCounts:
        """The hand of card names ``text`` (the tableau notation without stacks)."""
        tableau = parse_tableau(text)
        if any(tableau.counts[int(t)] for t in Token if len(t.cards) > 1):
            raise NotationError(f"a hand holds cards, not wasabi stacks: {text!r}")
        return cls(tableau.card_counts())


class TableauCounts(tuple[int, ...]):
    """A tableau as the step API returns it: a tuple of 15 counts by :class:`Token` that prints in
    the notation (``str`` is ``tempura*2 wasabi+squid``); ``.tableau()`` is the :class:`Tableau`."""

    __slots__ = ()

    def __str__(self) -> str:
        return _notation(self, _TOKEN_LABELS)

    def __repr__(self) -> str:
        return f"TableauCounts.parse({_notation(self, _TOKEN_LABELS)!r})"

    @classmethod
    def parse(cls, text: str) -> TableauCounts:
        return cls(parse_tableau(text).counts)

    def tableau(self) -> Tableau:
        return Tableau(tuple(self))


def tableau_from_json(value: object, where: str = "tableau") -> Tableau:
    """A tableau given in JSON: a notation string or a list of token names."""
    if isinstance(value, str):
        return parse_tableau(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return parse_tableau(" ".join(value))
    raise InputError(
        f"{where} must be a tableau string like 'tempura*2 squid' or a list of card names, "
        f"got {value!r}"
    )
