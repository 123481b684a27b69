"""A Party player's final tableau and its text notation.

What lies in front of a player when a round is scored: the cards played and kept (discarded
misos and uramaki, used menus and takeout boxes are gone). Notation, beside the base game's
(docs/notation.md)::

    maki3 maki1 tempura*2 wasabi+squid onigiri-circle special-order:tempura flipped*2

Items are separated by spaces or commas; ``item*N`` (or ``N*item``) is N of them; ``-`` is the
empty tableau. An item is

- a printed card's name, as issue 28 spells them (``egg``, ``uramaki4``, ``onigiri-square``,
  ``fruit-watermelon-orange``); the numbered specials with or without their corner number
  (``chopsticks`` or ``chopsticks-2``);
- ``wasabi+NIGIRI``: a nigiri on a wasabi (two cards, the nigiri scores triple);
- ``special-order:CARD``: a special order scoring as the card it copies (a copy of a copy is
  written as the card finally copied); it may stand on either side of a stack
  (``wasabi+special-order:squid``, ``special-order:wasabi+egg``);
- ``flipped``: a card turned face down by a takeout box (2 points, no identity; RB p15), or
  ``flipped:CARD`` to say which card it was (so the deck's copies are checked).

The canonical form lists items in the tiles' order, each once with ``*N``;
``parse_party_tableau(format_party_tableau(t)) == t``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Final

from sushigo.spec.errors import NotationError
from sushigo.spec.party.kinds import CARD_KIND, KINDS

EMPTY: Final = "-"
FLIPPED: Final = "flipped"
SPECIAL: Final = "special-order"

#: Names read for a card (never printed): the tiles' aliases and short forms.
CARD_ALIASES: Final[Mapping[str, str]] = {
    "miso-soup": "miso", "soy": "soy-sauce", "takeout-box": "takeout", "special": SPECIAL,
    "ice-cream": "green-tea-ice-cream", "green-tea": "green-tea-ice-cream", "watermelon": "fruit-watermelon",
    "orange": "fruit-orange", "pineapple": "fruit-pineapple",
}

#: Kinds whose cards carry a corner number: the bare kind name is read as any one of them.
NUMBERED: Final = frozenset(k.tile for k in KINDS if k.cards and k.cards[0] != k.tile
                            and k.cards[0].startswith(f"{k.tile}-") and k.cards[0][-1].isdigit())


@dataclass(frozen=True, order=True)
class Part:
    """One card of an item: ``card`` is the printed card (or a numbered kind's bare name; ``""``
    for a flipped card of unknown identity), ``copy`` the card a special order copies, ``flipped``
    a face-down card."""

    card: str
    copy: str = ""
    flipped: bool = False

    @cached_property  # read on every look at a table: worked out once a part
    def scores_as(self) -> str:
        """The card it scores as: a special order's copy, else the card (``""`` when flipped)."""
        if self.flipped:
            return ""
        return self.copy or self.card

    def __str__(self) -> str:
        if self.flipped:
            return f"{FLIPPED}:{self.card}" if self.card else FLIPPED
        return f"{SPECIAL}:{self.copy}" if self.copy else self.card


@dataclass(frozen=True, order=True)
class Item:
    """A card, or a nigiri (``top``) on a wasabi (``under``)."""

    top: Part
    under: Part | None = None

    def parts(self) -> tuple[Part, ...]:
        return (self.top,) if self.under is None else (self.under, self.top)

    def __str__(self) -> str:
        return str(self.top) if self.under is None else f"{self.under}+{self.top}"


#: A final tableau: its items in canonical order.
PartyTableau = tuple[Item, ...]

_RANK: Final = {card: (t, c) for t, k in enumerate(KINDS) for c, card in enumerate((k.tile, *k.cards))}


#: Card name -> tile, a bare numbered name its own tile: one lookup, the hottest of a game.
_TILE_OF: Final[Mapping[str, str]] = {**CARD_KIND, **{name: name for name in NUMBERED}}


def kind_name(card: str) -> str:
    """The tile of a card name (a bare numbered name is its own tile); ``KeyError`` for none."""
    return _TILE_OF[card]


def _order(item: Item) -> tuple[object, ...]:
    part = item.top
    if part.flipped:
        return (len(KINDS) + 1, str(item))
    card = part.scores_as
    return (*_RANK[card], item.under is not None, part.copy != "", str(item))


def card_names() -> tuple[str, ...]:
    """Every name the notation reads for a card (printed names, bare numbered kinds)."""
    return (*CARD_KIND, *sorted(NUMBERED))


def _card(word: str, text: str) -> str:
    return card_named(word, f"tableau {text!r}")


def card_named(word: str, where: str) -> str:
    """The card ``word`` names (an alias read as its card), or one line naming the nearest; ``where``
    opens the line."""
    key = CARD_ALIASES.get(word, word)
    if key in CARD_KIND or key in NUMBERED:
        return key
    import difflib  # only an error line needs it

    near = difflib.get_close_matches(key, [*card_names(), FLIPPED, *CARD_ALIASES], n=1, cutoff=0.5)
    hint = f"; did you mean {CARD_ALIASES.get(near[0], near[0])!r}?" if near else ""
    raise NotationError(f"{where}: no Party card is called {word!r}{hint} (cards: docs/party.md)")


def _part(word: str, text: str) -> Part:
    head, sep, tail = word.partition(":")
    if head == FLIPPED:
        return Part(_card(tail, text) if sep else "", flipped=True)
    if CARD_ALIASES.get(head, head) == SPECIAL and sep:
        copy = _card(tail, text)
        if copy == SPECIAL:
            raise NotationError(f"tableau {text!r}: {word!r}: a special order copying a special order is "
                                "written as the card finally copied")
        return Part(SPECIAL, copy)
    if sep:
        raise NotationError(f"tableau {text!r}: {word!r}: only special-order:CARD and flipped:CARD take a "
                            "card after ':'")
    return Part(_card(head, text))


def _item(word: str, text: str) -> Item:
    pieces = word.split("+")
    if len(pieces) == 1:
        return Item(_part(word, text))
    if len(pieces) != 2:
        raise NotationError(f"tableau {text!r}: {word!r}: a stack is one wasabi and one nigiri, wasabi+squid")
    under, top = _part(pieces[0], text), _part(pieces[1], text)
    if under.flipped or top.flipped or kind_name(under.scores_as) != "wasabi" \
            or kind_name(top.scores_as) != "nigiri":
        raise NotationError(f"tableau {text!r}: {word!r}: a stack is a wasabi under a nigiri "
                            "(wasabi+egg, wasabi+salmon, wasabi+squid; either may be special-order:...)")
    return Item(top, under)


_COUNT = re.compile(r"^(?:(\d+)\*)?([^*]+?)(?:\*(\d+))?$")


def parse_party_tableau(text: str) -> PartyTableau:
    """One player's final tableau from its notation (see the module docstring)."""
    words = [w for w in re.split(r"[\s,]+", text.strip().lower()) if w]
    if words == [EMPTY]:
        return ()
    if not words:
        raise NotationError("an empty tableau is written '-'")
    items: list[Item] = []
    for word in words:
        m = _COUNT.match(word)
        if m is None or (m.group(1) and m.group(3)):
            raise NotationError(f"tableau {text!r}: {word!r}: write NAME*N or N*NAME, once")
        count = int(m.group(1) or m.group(3) or 1)
        if count < 1 or count > 99:
            raise NotationError(f"tableau {text!r}: {word!r}: a count is a whole number from 1 to 99")
        items += [_item(m.group(2), text)] * count
    return canonical(items)


def canonical(items: Iterable[Item]) -> PartyTableau:
    """Items as a tableau in canonical order (what parsing their notation gives)."""
    return tuple(sorted(items, key=_order))


def format_party_tableau(tableau: Iterable[Item]) -> str:
    """The canonical notation: items in the tiles' order, each once with ``*N``."""
    items = sorted(tableau, key=_order)
    if not items:
        return EMPTY
    out: list[str] = []
    k = 0
    while k < len(items):
        n = 1
        while k + n < len(items) and items[k + n] == items[k]:
            n += 1
        out.append(str(items[k]) + (f"*{n}" if n > 1 else ""))
        k += n
    return " ".join(out)


def cards_of(tableau: Iterable[Item]) -> list[str]:
    """The printed cards an item list holds (a stack two; a flipped card of unknown identity none)."""
    return [p.card for item in tableau for p in item.parts() if p.card]


__all__ = ["CARD_ALIASES", "EMPTY", "FLIPPED", "NUMBERED", "SPECIAL", "Item", "Part", "PartyTableau",
           "canonical", "card_named", "card_names", "cards_of", "format_party_tableau", "kind_name",
           "parse_party_tableau"]
