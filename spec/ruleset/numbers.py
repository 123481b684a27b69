"""The rule numbers: every point value, set size, deck count, hand size and the number of rounds
that a :class:`~spec.ruleset.Ruleset` holds, declared once in :data:`NUMBERS` with its shape,
bounds and rule ids; their text form (``--rule NAME=VALUE``: :func:`parse_number`,
:func:`format_number`) and their validation (:func:`validate_numbers`).

``spec.rulefile`` reads its keys from this table, and the ruleset JSON Schema is generated from it.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from sushigo.spec.frozen import frozen
TYPE_CHECKING = False

from sushigo.spec.errors import RulesError, assert_never
from sushigo.spec.kinds import KINDS, Icons, aliases_of, deck_of
from sushigo.spec.ruleset.readings import Effect

if TYPE_CHECKING:
    from typing import Any

    from sushigo.spec.ruleset.value import Ruleset

# The printed deck, card kind -> copies (rulebook component list), from the kinds' definitions.
_DECK: tuple[int, ...] = deck_of(KINDS)


class Shape(enum.StrEnum):
    """How a rule number is written: ``--rule NAME=VALUE`` and the fields of a :class:`Ruleset`."""

    INTEGER = "integer"  # one whole number: tempura_points=6
    TABLE = "table"  # a comma list of whole numbers: dumpling_points=0,1,3,6,10,15
    HANDS = "hands"  # a hand size per player count: hand_sizes=2:10,3:9,4:8,5:7 (or 10,9,8,7)
    DECK = "deck"  # copies per card kind, one kind at a time: deck.squid=10


@frozen
class NumberParameter:
    """One rule number of :class:`Ruleset`, declared once with its shape, bounds and rule ids.

    ``minimum``/``maximum`` bound every whole number it holds (each entry of a table, each hand
    size, each kind's copies); ``length`` is a table's exact length (None: any length from 1).
    ``effect`` says which part of the game it acts on, as for the readings: ``diff`` and
    ``balance`` derive from it what a change can touch.
    """

    name: str
    shape: Shape
    minimum: int
    maximum: int
    effect: Effect
    rule_ids: tuple[str, ...]
    description: str
    length: int | None = None
    # A table by count whose text starts at count 1 (as the rulebook writes it: 1, 3, 6, 10, 15);
    # the field holds the 0 points of count 0 in front.
    from_one: bool = False

    @property
    def rule_id(self) -> str:
        return self.rule_ids[0]


# No point value is negative: the fewest-pudding penalty is written as the points lost (6), and
# the model, the searches' bounds and the pudding split all take points as non-negative.
# Zero is allowed everywhere a count of points is (a designer may switch a dish off), but a
# set size, a hand size and the number of rounds start at 1. The upper bounds keep every
# count within the precomputed score tables (spec.scoring) and the Z3 domains finite and small.
_POINTS_MAX = 100
NUMBERS: tuple[NumberParameter, ...] = (
    NumberParameter("deck", Shape.DECK, 0, 30, Effect.DEAL, ("R-DECK", "R-CARDS"),
                    "copies of each card kind in the deck, set per kind: deck.squid=10",
                    length=len(KINDS)),
    NumberParameter("hand_sizes", Shape.HANDS, 1, 20, Effect.DEAL, ("R-DEAL",),
                    "cards dealt to each hand, by player count"),
    NumberParameter("dummy_hand_size", Shape.INTEGER, 1, 20, Effect.DEAL, ("R-DUMMY", "R-DEAL"),
                    "cards in each of the three hands of the dummy-2p variant"),
    NumberParameter("rounds", Shape.INTEGER, 1, 5, Effect.DEAL, ("R-ROUNDS", "R-PUDDING"),
                    "rounds in a game"),
    NumberParameter("tempura_set", Shape.INTEGER, 1, 20, Effect.SCORING, ("R-TEMPURA",),
                    "tempura cards in a scoring set"),
    NumberParameter("tempura_points", Shape.INTEGER, 0, _POINTS_MAX, Effect.SCORING, ("R-TEMPURA",),
                    "points per complete tempura set"),
    NumberParameter("sashimi_set", Shape.INTEGER, 1, 20, Effect.SCORING, ("R-SASHIMI",),
                    "sashimi cards in a scoring set"),
    NumberParameter("sashimi_points", Shape.INTEGER, 0, _POINTS_MAX, Effect.SCORING, ("R-SASHIMI",),
                    "points per complete sashimi set"),
    NumberParameter("dumpling_points", Shape.TABLE, 0, _POINTS_MAX, Effect.SCORING, ("R-DUMPLING",),
                    "points for 0, 1, 2, ... dumplings; the last value holds for more (--rule lists them "
                    "from 1 dumpling: 1,3,6,10,15)", from_one=True),
    NumberParameter("nigiri_points", Shape.TABLE, 0, _POINTS_MAX, Effect.SCORING, ("R-NIGIRI",),
                    "points of an egg, a salmon and a squid nigiri",
                    length=sum(k.role == "nigiri" for k in KINDS)),
    NumberParameter("wasabi_multiplier", Shape.INTEGER, 0, 10, Effect.SCORING, ("R-NIGIRI",),
                    "a nigiri on a wasabi scores this many times its points"),
    NumberParameter("maki_icons", Shape.TABLE, 0, 10, Effect.SCORING, ("R-MAKI-ICONS",),
                    "maki icons on a maki1, a maki2 and a maki3 card",
                    length=sum(isinstance(k.scoring, Icons) for k in KINDS)),
    NumberParameter("maki_first_points", Shape.INTEGER, 0, _POINTS_MAX, Effect.SCORING,
                    ("R-MAKI-FIRST",), "points for the most maki icons (ties: maki_first_tie)"),
    NumberParameter("maki_second_points", Shape.INTEGER, 0, _POINTS_MAX, Effect.SCORING,
                    ("R-MAKI-SECOND",), "points for the second most maki icons (ties: maki_second_tie)"),
    NumberParameter("pudding_most_points", Shape.INTEGER, 0, _POINTS_MAX, Effect.SCORING,
                    ("R-PUDDING-MOST",), "end of game: points for the most puddings (shared when tied)"),
    NumberParameter("pudding_fewest_penalty", Shape.INTEGER, 0, _POINTS_MAX, Effect.SCORING,
                    ("R-PUDDING-FEWEST",), "end of game: points lost for the fewest puddings (a positive "
                    "number)"),
)

NUMBER_BY_NAME: dict[str, NumberParameter] = {n.name: n for n in NUMBERS}

#: The player counts a table seats. Not rule numbers of their own (``hand_sizes`` lists a size for
#: each count between them, and the rule numbers' searches read it there), but set the same way:
#: a rules file's ``max_players = 6`` and ``--rule max_players=6`` are one key.
PLAYER_LIMITS: tuple[NumberParameter, ...] = (
    NumberParameter("min_players", Shape.INTEGER, 1, 20, Effect.DEAL, ("R-DEAL",),
                    "fewest players at the table"),
    NumberParameter("max_players", Shape.INTEGER, 1, 20, Effect.DEAL, ("R-DEAL",),
                    "most players at the table"),
)
#: Every number a ruleset file or ``--rule`` sets, by name: the rule numbers and the player limits.
SETTABLE_BY_NAME: dict[str, NumberParameter] = {n.name: n for n in (*NUMBERS, *PLAYER_LIMITS)}

#: Card kind names and their aliases (as on input everywhere) -> index in the deck.
_KIND_INDEX: dict[str, int] = {
    **{k.name: i for i, k in enumerate(KINDS)},
    **{alias: [k.name for k in KINDS].index(name) for alias, name in aliases_of(KINDS).items()},
}


def format_number(param: NumberParameter, value: Any) -> str:
    """A number parameter's value as ``--rule`` takes it (``1,3,6``; ``2:10,3:9``)."""
    match param.shape:
        case Shape.INTEGER:
            return str(value)
        case Shape.TABLE | Shape.DECK:
            return ",".join(str(v) for v in value[1 if param.from_one else 0:])
        case Shape.HANDS:
            return ",".join(f"{n}:{size}" for n, size in value)
        case _:
            assert_never(param.shape)


def _whole(param: NumberParameter, value: Any, shown: str, text: bool = False) -> int:
    """``value`` (with ``text``, also its text) as a whole number within ``param``'s bounds, or one
    RulesError line saying so."""
    if isinstance(value, bool) or not isinstance(value, int):
        if text and isinstance(value, str):
            try:
                value = int(value.strip())
            except ValueError:
                value = None
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"rule {shown} is not allowed: {param.name} takes whole numbers "
                             f"from {param.minimum} to {param.maximum} ({param.description})")
    if not param.minimum <= value <= param.maximum:
        raise RulesError(f"rule {shown} is not allowed: {param.name} takes whole numbers from "
                         f"{param.minimum} to {param.maximum} ({param.description})")
    return value


def _kind_index(text: str, shown: str) -> int:
    key = text.strip().lower()
    if key not in _KIND_INDEX:
        import difflib

        near = difflib.get_close_matches(key, list(_KIND_INDEX), n=1, cutoff=0.5)
        hint = f"; did you mean deck.{near[0]}?" if near else ""
        raise RulesError(f"rule {shown}: unknown card kind {text.strip()!r}{hint} "
                         f"(kinds: {', '.join(k.name for k in KINDS)})")
    return _KIND_INDEX[key]


def _normalise_number(param: NumberParameter, value: Any) -> Any:
    """A number field as the Ruleset keeps it (tuples; a deck given by kind name becomes the printed
    deck with those kinds changed; a hand table given as a mapping becomes pairs)."""
    if param.shape is Shape.INTEGER or (type(value) is tuple and (
            param.shape is not Shape.HANDS or all(type(pair) is tuple for pair in value))):
        return value  # the common case, kept cheap: a Ruleset is built on every replace
    shown = f"{param.name}={value!r}"
    if isinstance(value, Mapping):
        if param.shape is Shape.DECK:
            deck = list(_DECK)
            for kind, copies in value.items():
                deck[_kind_index(str(kind), f"deck.{kind}={copies!r}")] = copies
            return tuple(deck)
        if param.shape is Shape.HANDS:
            return tuple((_whole(param, n, shown, text=True), size) for n, size in value.items())
    if not isinstance(value, (list, tuple)):
        raise RulesError(f"rule {shown} is not allowed: {param.name} is a list ({param.description})")
    if param.shape is Shape.HANDS:
        pairs = []
        for item in value:
            if not (isinstance(item, (list, tuple)) and len(item) == 2):
                raise RulesError(f"rule {shown} is not allowed: write {param.name} as players:size "
                                 f"pairs, e.g. 2:10,3:9,4:8,5:7")
            pairs.append((item[0], item[1]))
        return tuple(pairs)
    return tuple(value)


def _hands_example(rules: Ruleset, counts: list[int]) -> str:
    """A hand table for exactly ``counts`` players to suggest: the sizes given where there are some,
    else the largest the deck deals every round (R-DEAL), at most the next smaller count's size."""
    given = {n: size for n, size in rules.hand_sizes if isinstance(n, int) and isinstance(size, int)}
    cards = sum(v for v in rules.deck if isinstance(v, int)) if rules.deck else 0
    shown = []
    for n in counts:
        size = given.get(n)
        if size is None:
            fits = cards // max(1, n * max(1, rules.rounds)) if isinstance(rules.rounds, int) else 1
            smaller = [given[m] for m in sorted(given) if m < n]
            size = max(1, min(fits, smaller[-1]) if smaller else fits)
            given[n] = size
        shown.append(f"{n}:{size}")
    return ",".join(shown)


def validate_numbers(rules: Ruleset) -> None:
    """Every rule number of ``rules`` within its bounds and shape, the hand table covering the player
    counts, and the deck large enough to deal every listed player count; else one RulesError line
    naming the number and the fix."""
    for param in (*PLAYER_LIMITS, *NUMBERS):
        value = getattr(rules, param.name)
        shown = f"{param.name}={format_number(param, value) if param.shape is not Shape.INTEGER else value}"
        match param.shape:
            case Shape.INTEGER:
                _whole(param, value, shown)
            case Shape.TABLE | Shape.DECK:
                want = param.length
                if param.from_one and value and value[0] != 0:
                    raise RulesError(f"rule {param.name} field starts with the points of 0 cards, which "
                                     f"must be 0, got {value[0]!r}; on --rule list the points from 1 card")
                if len(value) <= param.from_one or (want is not None and len(value) != want):
                    how_many = f"exactly {want}" if want is not None else "at least 1"
                    what = ("card counts, one per kind" if param.shape is Shape.DECK
                            else "comma-separated whole numbers")
                    raise RulesError(f"rule {param.name} has {len(value) - param.from_one} entries; "
                                     f"give {how_many} {what} "
                                     f"({param.description})")
                for i, v in enumerate(value):
                    one = f"deck.{KINDS[i].name}={v!r}" if param.shape is Shape.DECK else shown
                    _whole(param, v, one)
            case Shape.HANDS:
                counts = [_whole(param, n, shown) for n, _ in value]
                want_counts = list(range(rules.min_players, rules.max_players + 1))
                if sorted(counts) != want_counts:
                    raise RulesError(
                        f"rule {shown} is not allowed: give one hand size for each of "
                        f"{', '.join(map(str, want_counts))} players, e.g. "
                        f"hand_sizes={_hands_example(rules, want_counts)}")
                for _, size in value:
                    _whole(param, size, shown)
            case _:
                assert_never(param.shape)
    # R-DEAL, R-DECK: every round deals from what is left of the one deck.
    deals = [(n, size, n) for n, size in rules.hand_sizes]
    if rules.dummy_2p:
        deals.append((2, rules.dummy_hand_size, 3))
    cards = sum(rules.deck)
    for players, size, hands in deals:
        need = size * hands * rules.rounds
        if need > cards:
            raise RulesError(
                f"the deck of {cards} cards is too small for {players} players: {rules.rounds} rounds "
                f"of {hands} hands of {size} need {need}; add cards (deck.KIND=N) or lower hand_sizes "
                f"or rounds")


def parse_number(param: NumberParameter, text: str, rules: Any, kind: str | None = None) -> Any:
    """The Ruleset field value that ``--rule NAME=TEXT`` asks for (``kind`` for ``deck.KIND``) on top
    of ``rules`` (a Ruleset, or anything holding its ``deck`` and ``min_players``); bounds are checked
    when the Ruleset is built (:func:`validate_numbers`)."""
    shown = f"{param.name}{'.' + kind if kind else ''}={text}"

    def whole(item: str) -> int:
        return _whole(param, item, shown, text=True)

    items = [t for t in text.split(",")] if text.strip() else []
    match param.shape:
        case Shape.INTEGER:
            return whole(text)
        case Shape.TABLE:
            return (0,) * param.from_one + tuple(whole(t) for t in items)
        case Shape.DECK:
            if kind is None:
                return tuple(whole(t) for t in items)
            deck = list(rules.deck)
            deck[_kind_index(kind, shown)] = whole(text)
            return tuple(deck)
        case Shape.HANDS:
            if items and all(":" not in t for t in items):
                players = range(rules.min_players, rules.min_players + len(items))
                return tuple((n, whole(t)) for n, t in zip(players, items, strict=True))
            pairs = []
            for t in items:
                n, sep, size = t.partition(":")
                if not sep:
                    raise RulesError(f"rule {shown} is not allowed: write {param.name} as players:size "
                                     f"pairs, e.g. 2:10,3:9,4:8,5:7")
                pairs.append((whole(n), whole(size)))
            return tuple(pairs)
        case _:
            assert_never(param.shape)
