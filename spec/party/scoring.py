"""Scoring Sushi Go Party!: a round from its final tableaux, a game from its rounds (issue 28 item 3).

Every kind is scored by its one definition in :mod:`.kinds` (a shape of :mod:`spec.shapes`
or one of the small descriptions there), under the readings of :mod:`.readings`; each seat's
points are booked per kind under the kind's rule id. Pure functions, no I/O.

Uramaki are paid during the round (RB p9), so a final tableau alone cannot say who finished
first: :func:`score_round` takes what the race paid (``race``, from a round given turn by turn,
:mod:`.turns`), and with none it scores the uramaki left over and refuses a tableau showing
10 or more icons (that player was paid during the round and discarded them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from sushigo.spec.errors import InputError
from sushigo.spec.kinds import PerCard, Sets
from sushigo.spec.party.kinds import (
    FLIPPED_POINTS,
    FLIPPED_RULE,
    KIND,
    LargestColour,
    MostColours,
    Nigiri,
    PartyKind,
    Race,
    Unscored,
    card_index,
    icons,
    shape_of,
)
from sushigo.spec.party.menus import Menu, desserts_per_round
from sushigo.spec.party.readings import DEFAULT, PartyRules
from sushigo.spec.party.tableau import FLIPPED, SPECIAL, Part, PartyTableau, cards_of, kind_name
from sushigo.spec.shapes import GameEnd

#: The winner's tie-break and its rule id (RB p7: the most dessert cards).
WINNER_RULE: Final = "R-PARTY-WINNER"


@dataclass(frozen=True)
class RacePaid:
    """What an uramaki race paid during a round: points per seat and the places used up."""

    paid: tuple[int, ...]
    places_used: int


@dataclass(frozen=True)
class RoundScore:
    """One round: per seat the points by category (a kind's tile, or ``flipped``), each
    category's rule id, and the desserts each seat played (card -> count) for game end."""

    points: tuple[dict[str, int], ...]
    rules: dict[str, str]
    desserts: tuple[dict[str, int], ...]

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(p.values()) for p in self.points)

    def as_json(self) -> dict[str, Any]:
        return {"categories": list(self.rules), "rule_ids": dict(self.rules),
                "seats": [{"points": dict(p), "total": sum(p.values()), "desserts": dict(d)}
                          for p, d in zip(self.points, self.desserts, strict=True)]}


@dataclass(frozen=True)
class GameScore:
    """Rounds, the desserts' points (once every round is given), totals, dessert cards, winners."""

    rounds: tuple[RoundScore, ...]
    dessert: str
    dessert_points: tuple[int, ...] | None
    dessert_cards: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...] = field(default=())

    def as_json(self) -> dict[str, Any]:
        return {"rounds": [r.as_json() for r in self.rounds], "dessert": self.dessert,
                "dessert_rule_id": KIND[self.dessert].rule,
                "dessert_points": None if self.dessert_points is None else list(self.dessert_points),
                "dessert_cards": list(self.dessert_cards), "totals": list(self.totals),
                "winners": list(self.winners), "winner_rule_id": WINNER_RULE}


# --- what a tableau shows --------------------------------------------------------------------


def _kind(part: Part) -> PartyKind | None:
    card = part.scores_as
    return KIND[kind_name(card)] if card else None


def _variant(card: str) -> int:
    """The card's place among its tile's cards (a bare numbered name: the first)."""
    return 0 if kind_name(card) == card else card_index(card)


def counts(tableau: PartyTableau, kind: PartyKind) -> list[int]:
    """Cards scoring as ``kind``, per card of its tile (special orders counted as what they copy)."""
    return list(_tally(tableau).get(kind.tile) or [0] * max(len(kind.cards), 1))


def _tally(tableau: PartyTableau) -> dict[str, list[int]]:
    """:func:`counts` for every kind the tableau shows, in one pass: tile -> per card of the tile."""
    out: dict[str, list[int]] = {}
    for item in tableau:
        for part in item.parts():
            card = part.scores_as
            if not card:
                continue
            tile = kind_name(card)
            row = out.get(tile)
            if row is None:
                row = out[tile] = [0] * max(len(KIND[tile].cards), 1)
            row[0 if tile == card else card_index(card)] += 1  # _variant, its tile known
    return out


def _colour(part: Part, rules: PartyRules) -> str | None:
    """A card's background colour for soy sauce and tea (``None``: it has none)."""
    if part.flipped:
        return None if rules.flipped_colour == "none" else FLIPPED
    if part.copy and rules.special_order_colour == "rainbow":
        return KIND[SPECIAL].colour
    kind = _kind(part)
    return kind.colour if kind is not None else None


def colours(tableau: PartyTableau, rules: PartyRules, desserts: bool = True) -> dict[str, int]:
    """Cards per colour (``desserts=False`` leaves this round's desserts out)."""
    out: dict[str, int] = {}
    for item in tableau:
        for part in item.parts():
            kind = _kind(part)
            if not desserts and kind is not None and kind.dessert:
                continue
            colour = _colour(part, rules)
            if colour is not None:
                out[colour] = out.get(colour, 0) + 1
    return out


def uramaki_icons(tableau: PartyTableau) -> int:
    return sum(icons(p.scores_as) for item in tableau for p in item.parts()
               if (k := _kind(p)) is not None and k.tile == "uramaki")


# --- a round ---------------------------------------------------------------------------------


def _nigiri(tableau: PartyTableau, rule: Nigiri) -> int:
    out = 0
    for item in tableau:
        kind = _kind(item.top)
        if kind is not None and kind.tile == "nigiri":
            points = rule.points[_variant(item.top.scores_as)]
            out += points * (rule.wasabi if item.under is not None else 1)
    return out


def leftover_uramaki(seat_icons: Sequence[int], rule: Race, places_used: int) -> list[int]:
    """Round end: the most remaining icons (above none) take the next unpaid place (RB p9)."""
    top = max(seat_icons, default=0)
    place = rule.points[places_used] if places_used < len(rule.points) else 0
    return [place if top > 0 and n == top else 0 for n in seat_icons]


def _kind_points(kind: PartyKind, tableaux: Sequence[PartyTableau], rules: PartyRules,
                 race: RacePaid | None, shown: Sequence[PartyTableau],
                 tallies: Sequence[Mapping[str, list[int]]]) -> list[int]:
    """Every seat's round points for ``kind`` (``shown``: the cards whose colours count;
    ``tallies``: each tableau's :func:`_tally`)."""
    s = shape_of(kind, rules)
    empty = [0] * max(len(kind.cards), 1)
    seats = [list(t.get(kind.tile) or empty) for t in tallies]
    if isinstance(s, Nigiri):
        return [_nigiri(t, s) for t in tableaux]
    if isinstance(s, Race):
        left = [uramaki_icons(t) for t in tableaux]
        if race is None:
            over = [k for k, n in enumerate(left) if n >= s.goal]
            if over:
                raise InputError(f"player {over[0]}'s tableau shows {left[over[0]]} uramaki icons: uramaki "
                                 f"reaching {s.goal} are paid and discarded during the round; give the round "
                                 "turn by turn (docs/party.md)")
            race = RacePaid((0,) * len(tableaux), 0)
        end = leftover_uramaki(left, s, race.places_used)
        return [a + b for a, b in zip(race.paid, end, strict=True)]
    if isinstance(s, MostColours):
        held = [sum(c) for c in seats]
        many = [len(colours(t, rules)) for t in shown]  # nobody played one: nobody scores
        return [s.points * n if many[k] == max(many) else 0 for k, n in enumerate(held)]
    if isinstance(s, LargestColour):
        groups = [colours(t, rules, desserts=rules.tea_desserts == "yes") for t in shown]
        return [s.per * sum(c) * max(g.values(), default=0) for c, g in zip(seats, groups, strict=True)]
    if isinstance(s, (Sets, PerCard)):
        return [s.score(sum(c), None) for c in seats]
    if isinstance(s, (Unscored, GameEnd)):
        return [0] * len(tableaux)
    return list(s.points(seats, None))


def round_categories(menu: Menu) -> dict[str, str]:
    """The round's scoring columns and their rule ids: the menu's kinds that score in a round,
    and ``flipped`` when the takeout box is on the menu."""
    out = {k.tile: k.rule for k in (KIND[t] for t in menu.kinds) if k.when in ("round", "turn")}
    if "takeout" in menu.kinds:
        out[FLIPPED] = FLIPPED_RULE
    return out


def score_round(tableaux: Sequence[PartyTableau], menu: Menu, rules: PartyRules = DEFAULT,
                race: RacePaid | None = None, discarded: Sequence[PartyTableau] | None = None,
                kinds: Mapping[str, PartyKind] = KIND) -> RoundScore:
    """One round's points per seat and category from the final tableaux (see the module docstring);
    ``discarded``: the cards each seat played and lost during the round, which count as colours
    under ``discarded_colours=yes``; ``kinds``: the kinds' definitions (``sushigo conform``
    plants a public engine's mistakes in them)."""
    cats = round_categories(menu)
    shown = list(tableaux)
    if discarded is not None and rules.discarded_colours == "yes":
        shown = [(*t, *d) for t, d in zip(tableaux, discarded, strict=True)]
    tallies = [_tally(t) for t in tableaux]
    per_kind = {cat: _kind_points(kinds[cat], tableaux, rules, race, shown, tallies) for cat in cats
                if cat != FLIPPED}
    if FLIPPED in cats:
        per_kind[FLIPPED] = [FLIPPED_POINTS * sum(1 for i in t for p in i.parts() if p.flipped)
                             for t in tableaux]
    dessert = menu.dessert.name
    cards = KIND[dessert].cards
    held = [t.get(dessert) or [0] * max(len(cards), 1) for t in tallies]
    return RoundScore(
        tuple({cat: per_kind[cat][k] for cat in cats} for k in range(len(tableaux))),
        cats,
        tuple({c: n for c, n in zip(cards, h, strict=True) if n} for h in held),
    )


# --- a game ----------------------------------------------------------------------------------


def score_game(rounds: Sequence[RoundScore], menu: Menu, rules: PartyRules = DEFAULT,
               total_rounds: int = 3) -> GameScore:
    """Totals over the rounds; once all ``total_rounds`` are given, the desserts (RB p16) and the
    winner: the most points, then the most dessert cards (RB p7), then ``final_tie``."""
    if not rounds:
        raise InputError("a Party game needs at least one round")
    seats = len(rounds[0].points)
    dessert = KIND[menu.dessert.name]
    held = [[sum(r.desserts[k].get(c, 0) for r in rounds) for c in dessert.cards] for k in range(seats)]
    cards = tuple(sum(h) for h in held)
    totals = [sum(r.totals[k] for r in rounds) for k in range(seats)]
    points: tuple[int, ...] | None = None
    winners: tuple[int, ...] = ()
    if len(rounds) == total_rounds:
        shape = shape_of(dessert, rules)
        assert isinstance(shape, GameEnd)
        points = tuple(shape.points(held, None))
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        winners = _winners(totals, cards, rules)
    return GameScore(tuple(rounds), dessert.tile, points, cards, tuple(totals), winners)


def _winners(totals: Sequence[int], cards: Sequence[int], rules: PartyRules) -> tuple[int, ...]:
    best = max(totals)
    tied = [k for k, t in enumerate(totals) if t == best]
    most = max(cards[k] for k in tied)
    tied = [k for k in tied if cards[k] == most]
    return tuple(tied[:1]) if rules.final_tie == "first-seat" else tuple(tied)


# --- what a round may hold -------------------------------------------------------------------


def check_round(tableaux: Sequence[PartyTableau], menu: Menu, round_no: int = 1,
                earlier_desserts: int = 0) -> None:
    """Refuse, in one line, a round the menu cannot deal: a card not on the menu, more copies than
    its deck holds, more desserts than have been shuffled in by this round (RB p5)."""
    players = len(tableaux)
    menu.check_players(players)
    on_menu = set(menu.kinds)
    copies: dict[str, int] = {c: n for t in menu.tiles for c, n in t.cards}
    per_kind: dict[str, int] = {t.name: t.copies for t in menu.tiles}
    seen: dict[str, int] = {}
    seen_kind: dict[str, int] = {}
    for k, tableau in enumerate(tableaux):
        for item in tableau:
            for part in item.parts():
                card = part.card
                tile = kind_name(card) if card else ""
                if card and tile not in on_menu:
                    raise _off_menu(k, card, menu)
                if part.copy and kind_name(part.copy) not in on_menu:
                    raise _off_menu(k, part.copy, menu)
                if part.flipped and "takeout" not in on_menu:
                    raise InputError(f"player {k}: a flipped card needs the takeout box on the menu "
                                     f"{menu.label}")
                if card:  # counted as cards_of(tableau) lists it (the refusals above come first)
                    seen_kind[tile] = seen_kind.get(tile, 0) + 1
                    if card in copies:
                        seen[card] = seen.get(card, 0) + 1
    for card, n in seen.items():
        if n > copies[card]:
            raise InputError(f"the tableaux hold {n} {card}, more than the {copies[card]} the menu's deck "
                             "holds")
    for tile, n in seen_kind.items():
        limit = per_kind[tile]
        if menu.dessert.name == tile:
            limit = min(limit, sum(desserts_per_round(players)[:round_no]) - earlier_desserts)
            if n > limit:
                raise InputError(f"round {round_no}: the tableaux hold {n} {tile} cards, more than the "
                                 f"{limit} "
                                 f"left of the desserts shuffled in by then ({players} players: "
                                 f"{' / '.join(map(str, desserts_per_round(players)))})")
        if n > limit:
            raise InputError(f"the tableaux hold {n} {tile} cards, more than the {limit} the menu's deck "
                             "holds")


def _off_menu(k: int, card: str, menu: Menu) -> InputError:
    return InputError(f"player {k}: {card} is not on the menu {menu.label} (its kinds: "
                      f"{', '.join(menu.kinds)})")


def check_final(tableaux: Sequence[PartyTableau]) -> None:
    """Refuse cards no final tableau can hold: a used menu or takeout box is discarded (RB p12,
    p15), and so is a special order with nothing to copy (RB p14)."""
    for k, tableau in enumerate(tableaux):
        for item in tableau:
            for part in item.parts():
                if part.flipped or part.copy:
                    continue
                name = kind_name(part.card)
                if name in ("menu", "takeout"):
                    raise InputError(f"player {k}: {part.card} in a final tableau: a {name} is discarded "
                                     "once played; give what it did (flipped cards, the card it played)")
                if name == SPECIAL:
                    raise InputError(f"player {k}: a special order in a final tableau names its copy "
                                     "(special-order:CARD); one with nothing to copy is discarded")


def dessert_cards(tableaux: Iterable[PartyTableau], menu: Menu) -> int:
    """Printed dessert cards the tableaux hold (a special order's copy is no printed card)."""
    return sum(1 for t in tableaux for c in cards_of(t) if kind_name(c) == menu.dessert.name)


__all__ = ["WINNER_RULE", "GameScore", "RacePaid", "RoundScore", "check_final", "check_round", "colours",
           "counts", "dessert_cards", "leftover_uramaki", "round_categories", "score_game", "score_round",
           "uramaki_icons"]
