"""Sushi Go Party!'s card kinds, one definition each (issue 28 item 2).

A :class:`PartyKind` is one menu tile's kind: its cards (read from :data:`.menus.TILES`, the one
source of their copies), the icons each card shows, its background colour (soy sauce and tea
count colours), how it scores and when, and the rule id its points are booked under. The
scoring of most kinds is a shape of :mod:`spec.shapes` (each states its plain and its Z3
reading once); the rest are the small descriptions below, each read by :mod:`.scoring` alone:

- :class:`Nigiri`: points per card, times ``wasabi`` on a wasabi (RB p8);
- :class:`Race`: uramaki, paid 8 / 5 / 2 as players reach 10 icons during the round (RB p9);
- :class:`MostColours`: soy sauce, 4 a card to the players with the most colours (RB p12);
- :class:`LargestColour`: tea, 1 a card of the largest colour group (RB p15);
- :class:`Unscored`: the specials whose part is in the turn (chopsticks, spoon, menu, takeout
  box, wasabi) and the special order, which scores as the card it copies (RB p14).

``when`` says when the points are paid: ``round`` (round end), ``game`` (game end: the
desserts), ``turn`` (during the turn: uramaki), ``never``. ``acts`` says what the kind does
in the turn: ``played`` (acts as it is played: uramaki, miso, wasabi, menu, takeout box,
special order; RB p6, p13), ``later`` (called on a later turn: chopsticks, spoon), ``""``.

The numbers here are the rulebook's (pages cited); the contested readings are
:mod:`.readings`, which a kind's shape takes (:func:`shape_of`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal

from sushigo.spec.kinds import PerCard, Sets
from sushigo.spec.party.menus import TILES, Course
from sushigo.spec.shapes import (
    FRUIT_ICONS,
    Distinct,
    GameEnd,
    MostFewest,
    Opponents,
    PerVariant,
    Places,
    Table,
)

if TYPE_CHECKING:
    from sushigo.spec.party.readings import PartyRules

When = Literal["round", "game", "turn", "never"]
Acts = Literal["played", "later", ""]


@dataclass(frozen=True)
class Nigiri:
    """Each card its own points (``points[k]`` for the tile's card ``k``), ``wasabi`` times on a wasabi."""

    points: tuple[int, ...]
    wasabi: int


@dataclass(frozen=True)
class Race:
    """Places paid during the round as players' un-discarded icons reach ``goal`` (``points`` by
    place); what is left at round end pays the next place to the most icons."""

    goal: int
    points: tuple[int, ...]


@dataclass(frozen=True)
class MostColours:
    """``points`` a card to every player showing the most different colours (ties all paid)."""

    points: int


@dataclass(frozen=True)
class LargestColour:
    """``per`` a card for each card of the player's largest group of one colour."""

    per: int


@dataclass(frozen=True)
class Unscored:
    """Scores nothing itself (its part is in the turn, or it scores as the card it copies)."""


Scoring = (Nigiri | Race | MostColours | LargestColour | Unscored | Table | Distinct | Opponents
           | MostFewest | Places | GameEnd | PerCard | Sets)


#: Tile -> its printed cards' names, read once from the tiles.
_CARDS: Final[Mapping[str, tuple[str, ...]]] = {name: tuple(card for card, _ in tile.cards)
                                                for name, tile in TILES.items()}


@dataclass(frozen=True)
class PartyKind:
    """One kind of Party: the tile, its cards and what they show, its colour, scoring, timing, rule id."""

    tile: str
    scoring: Scoring
    rule: str
    colour: str  # the background colour's name (soy sauce and tea count them)
    hex: str  # the tile's background as printed (PARTY.md corrections 2)
    when: When = "round"
    acts: Acts = ""
    #: The icons each card shows, in the tile's card order (rolls for maki and uramaki).
    icons: tuple[int, ...] = ()
    summary: str = ""  # one line in our words, for ``sushigo rules --game party``

    @property
    def course(self) -> Course:
        return TILES[self.tile].course

    @property
    def cards(self) -> tuple[str, ...]:
        """The printed cards' names, as the notation spells them (numbered specials with their number)."""
        return _CARDS[self.tile]

    @property
    def dessert(self) -> bool:
        return self.course == "dessert"


_TEMAKI = MostFewest(4, 4, penalty_from=3)
#: The uramaki race (RB p9): paid as players reach 10 icons, 8 / 5 / 2.
URAMAKI_RACE: Final = Race(10, (8, 5, 2))
_PUDDING = MostFewest(6, 6, penalty_from=3)

#: Every kind of Party, in the tiles' order (the nigiri first).
KINDS: Final[tuple[PartyKind, ...]] = (
    PartyKind("nigiri", Nigiri((1, 2, 3), 3), "R-PARTY-NIGIRI", "yellow", "#f8c020",
              summary="egg 1, salmon 2, squid 3; three times that on a wasabi (RB p8)"),
    PartyKind("maki", Places(icons=(1, 2, 3), tiers=((2, (6, 3)), (6, (6, 4, 2)))), "R-PARTY-MAKI",
              "red", "#d01828", icons=(1, 2, 3),
              summary="most icons 6, next distinct total 3 (6 / 4 / 2 with 6-8 players); every tied "
              "player paid in full (RB p8)"),
    PartyKind("temaki", _TEMAKI, "R-PARTY-TEMAKI", "plum", "#701858",
              summary="most cards +4, fewest (none counts) -4; with 2 players nobody loses (RB p8)"),
    PartyKind("uramaki", URAMAKI_RACE, "R-PARTY-URAMAKI", "chartreuse", "#d8e820", "turn", "played",
              icons=(3, 4, 5),
              summary="8 / 5 / 2 to the first players whose uramaki reach 10 icons, then discarded; "
              "left over at round end: the next place to the most icons (RB p9)"),
    PartyKind("tempura", Sets(2, 5), "R-PARTY-TEMPURA", "lilac", "#c088c8",
              summary="5 a pair (RB p11)"),
    PartyKind("sashimi", Sets(3, 10), "R-PARTY-SASHIMI", "lime", "#b8d810",
              summary="10 a set of three (RB p11)"),
    PartyKind("dumpling", Table((0, 1, 3, 6, 10, 15)), "R-PARTY-DUMPLING", "blue", "#6890d0",
              summary="1, 3, 6, 10, 15 for 1 to 5 or more (RB p10)"),
    PartyKind("eel", Table((0, -3, 7)), "R-PARTY-EEL", "indigo", "#402890",
              summary="one -3, two or more 7 (RB p10)"),
    PartyKind("tofu", Table((0, 2, 6, 0)), "R-PARTY-TOFU", "green", "#58a030",
              summary="one 2, two 6, three or more 0 (RB p11)"),
    PartyKind("onigiri", Distinct((0, 1, 4, 9, 16)), "R-PARTY-ONIGIRI", "magenta", "#d01890",
              summary="each set of different shapes 1 / 4 / 9 / 16; several sets score (RB p10)"),
    PartyKind("edamame", Opponents(1, 4), "R-PARTY-EDAMAME", "purple", "#882078",
              summary="1 a card per opponent with edamame, at most 4 a card (RB p10)"),
    PartyKind("miso", PerCard(3), "R-PARTY-MISO", "teal", "#589890", acts="played",
              summary="3 if the only miso played that turn; two or more in one turn are all "
              "discarded (RB p11)"),
    PartyKind("chopsticks", Unscored(), "R-PARTY-CHOPSTICKS", "mint", "#a0d8c8", "never", "later",
              summary="on a later turn, a second card from the hand after the normal plays; back "
              "into the hand (RB p12)"),
    PartyKind("spoon", Unscored(), "R-PARTY-SPOON", "grey", "#484848", "never", "later",
              summary="on a later turn, ask the players to the left for a card; the giver takes the "
              "spoon (RB p13)"),
    PartyKind("menu", Unscored(), "R-PARTY-MENU", "pale-yellow", "#f0e060", "never", "played",
              summary="play 1 of 4 cards drawn from the deck; discarded (RB p12)"),
    PartyKind("takeout", Unscored(), "R-PARTY-TAKEOUT", "tan", "#c09868", "never", "played",
              summary="flip earlier cards of this round face down, 2 each; discarded (RB p15)"),
    PartyKind("wasabi", Unscored(), "R-PARTY-WASABI", "yellow", "#f8c020", "never", "played",
              summary="the next nigiri goes on it and scores triple; empty 0 (RB p15)"),
    PartyKind("special-order", Unscored(), "R-PARTY-SPECIAL-ORDER", "rainbow", "", "never", "played",
              summary="copies one of the player's cards of this round, icons included (RB p14)"),
    PartyKind("soy-sauce", MostColours(4), "R-PARTY-SOY", "orange", "#f08040",
              summary="4 a card to the players with the most colours, if anyone played one (RB p12)"),
    PartyKind("tea", LargestColour(1), "R-PARTY-TEA", "maroon", "#881818",
              summary="1 for each card of the largest group of one colour (RB p15)"),
    PartyKind("pudding", GameEnd(_PUDDING), "R-PARTY-PUDDING", "pink", "#f8a0b0", "game",
              summary="at game end most +6, fewest -6; with 2 players nobody loses (RB p16)"),
    PartyKind("green-tea-ice-cream", GameEnd(Sets(4, 12)), "R-PARTY-ICE-CREAM", "sea-green", "#50a0b0",
              "game",
              summary="at game end 12 a set of four (RB p16)"),
    PartyKind("fruit", GameEnd(PerVariant((-2, 0, 1, 3, 6, 10), FRUIT_ICONS)), "R-PARTY-FRUIT", "coral",
              "#e86068", "game",
              summary="at game end each fruit by its icons: 0..5+ score -2, 0, 1, 3, 6, 10 (RB p16)"),
)

#: Kind by tile name.
KIND: Final[Mapping[str, PartyKind]] = {k.tile: k for k in KINDS}

#: A face-down card of a takeout box: 2 points, no identity (RB p15).
FLIPPED_POINTS: Final = 2
FLIPPED_RULE: Final = "R-PARTY-FLIPPED"

# Every tile has its kind, in the tiles' own order: one source for cards and copies.
assert tuple(KIND) == tuple(TILES), "spec/party/kinds.py and menus.TILES list different tiles"


def kind_of(card: str) -> PartyKind:
    """The kind of a printed card's name (``squid`` -> nigiri, ``spoon-5`` -> spoon)."""
    return KIND[CARD_KIND[card]]


#: Printed card name -> tile (the numbered specials' cards under their numbers).
CARD_KIND: Final[Mapping[str, str]] = {card: k.tile for k in KINDS for card in k.cards}


#: Printed card name -> its place among its tile's cards, and the roll icons it shows.
_INDEX: Final[Mapping[str, int]] = {card: k.cards.index(card) for k in KINDS for card in k.cards}
_ICONS: Final[Mapping[str, int]] = {card: k.icons[_INDEX[card]] if k.icons else 0
                                    for k in KINDS for card in k.cards}


def card_index(card: str) -> int:
    """The card's place among its tile's cards (``maki2`` -> 1)."""
    return _INDEX[card]


def icons(card: str) -> int:
    """The roll icons a maki or uramaki card shows (0 for every other card)."""
    return _ICONS[card]


def shape_of(kind: PartyKind, rules: PartyRules) -> Scoring:
    """The kind's scoring under the readings: the all-tied case of temaki and pudding, the
    edamame cap, and what a player with no fruit loses are readings (:mod:`.readings`)."""
    s = kind.scoring
    if kind.tile == "temaki" and isinstance(s, MostFewest):
        return dataclasses.replace(s, all_tied=rules.temaki_all_tied)
    if kind.tile == "edamame" and isinstance(s, Opponents):
        return dataclasses.replace(s, cap_per=rules.edamame_cap)
    if isinstance(s, GameEnd) and isinstance(s.inner, MostFewest):
        return GameEnd(dataclasses.replace(s.inner, all_tied=rules.pudding_all_tied))
    if isinstance(s, GameEnd) and isinstance(s.inner, PerVariant):
        return GameEnd(dataclasses.replace(s.inner, none=rules.fruit_none))
    return s


def document() -> list[dict[str, object]]:
    """The kinds as plain data (``sushigo rules --game party --json``)."""
    return [{"tile": k.tile, "course": k.course, "cards": list(k.cards), "icons": list(k.icons),
             "colour": k.colour, "hex": k.hex or None, "when": k.when, "acts": k.acts or None,
             "scoring": k.summary, "rule_id": k.rule} for k in KINDS]


__all__ = [
    "CARD_KIND",
    "FLIPPED_POINTS",
    "FLIPPED_RULE",
    "KIND",
    "KINDS",
    "URAMAKI_RACE",
    "LargestColour",
    "MostColours",
    "Nigiri",
    "PartyKind",
    "Race",
    "Unscored",
    "card_index",
    "document",
    "icons",
    "kind_of",
    "shape_of",
]
