"""Rulesets: every rule number and every contested reading, in one frozen value.

The executor, the Z3 model, the solvers and the checks all read a
:class:`Ruleset`; no point value or deck count is written anywhere else.

Contested readings (see ``docs/RULES-READINGS.md`` and ``sushigo rules``) are
the parameters listed in :data:`PARAMETERS`. ``official`` follows the
Gamewright rulebook (the English text); where it is silent we pick the reading
most players use and say so in :data:`PARAMETERS`.
"""

from __future__ import annotations

import dataclasses
import enum
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, assert_never

from sushigo.spec.cards import Card
from sushigo.spec.errors import RulesError
from sushigo.spec.kinds import KINDS, Icons, aliases_of, deck_of

if TYPE_CHECKING:
    from fractions import Fraction

# The printed deck, card kind -> copies (rulebook component list), from the kinds' definitions.
_DECK: tuple[int, ...] = deck_of(KINDS)


class MakiFirstTie(enum.StrEnum):
    SPLIT = "split"
    EACH = "each"
    HALF = "half"


class MakiSecondTie(enum.StrEnum):
    SPLIT = "split"
    EACH = "each"


class PenaltyRounding(enum.StrEnum):
    TOWARD_ZERO = "toward-zero"
    TOWARD_MINUS_INFINITY = "toward-minus-infinity"


class PuddingAllTied(enum.StrEnum):
    NOBODY = "nobody"
    BOTH = "both"


class WasabiPlacement(enum.StrEnum):
    AUTOMATIC = "automatic"
    OPTIONAL = "optional"


class WinnerTie(enum.StrEnum):
    SHARED = "shared"
    NONE = "none"


class Passing(enum.StrEnum):
    LEFT = "left"
    BOTH_WAYS = "both-ways"


class Effect(enum.StrEnum):
    """Which part of the game a reading acts on (``diff`` searches each part its own way)."""

    SCORING = "scoring"  # how a final position scores (a table of tableaux is a witness)
    PICK = "pick"  # which picks are legal and where a card goes (a pick sequence is a witness)
    DEAL = "deal"  # where hands go (a deal is a witness)


class Observability(enum.StrEnum):
    """What ``sushigo conform`` can ask a target about a reading (its scoring protocol)."""

    ROUND = "round"  # seen in round scores of final tableaux
    PUDDING = "pudding"  # seen in end-of-game pudding points
    NONE = "none"  # not part of what a target is asked (placement, passing, the dummy, the winner)


@dataclass(frozen=True)
class Parameter:
    """One contested reading, declared once: everything else that lists readings derives from here.

    ``rule_id`` names the reading's own rule (constraint groups, cores, the catalogue);
    ``related_ids`` the rules it qualifies (a witness for the reading cites them too).
    ``support`` says, per value, which rule texts support it (cited by language, in our words).
    ``statement`` is the catalogue's line for ``rule_id`` and ``listed_after`` the catalogue id
    it follows (rulebook order); ``words`` the scoresheet's short explanation, if it has one.
    ``check_family`` is the ``sushigo check`` family that exercises every value (an edge-case
    family of ``checks/edge_cases.py`` where one exists).
    """

    name: str
    question: str
    values: tuple[Any, ...]
    support: tuple[tuple[Any, str], ...]  # (value, which texts support it, in our words)
    rule_id: str
    related_ids: tuple[str, ...]
    effect: Effect
    observability: Observability
    check_family: str
    statement: str
    listed_after: str
    words: str | None = None

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return (self.rule_id, *self.related_ids)

    @property
    def observable(self) -> bool:
        """Whether ``conform`` can observe the reading through the scoring protocol."""
        match self.observability:
            case Observability.ROUND | Observability.PUDDING:
                return True
            case Observability.NONE:
                return False
            case _:
                assert_never(self.observability)

    def coerce(self, value: Any) -> Any:
        """``value`` as this parameter's own value (an enum member from its text), or RulesError."""
        for v in self.values:
            if type(v) is bool:
                if type(value) is bool and value == v:
                    return v
            elif isinstance(value, str) and value == v:
                return v
        raise RulesError(
            f"rule {self.name}={value!r} is not allowed; choose one of "
            f"{', '.join(_fmt_value(v) for v in self.values)}"
        )


PARAMETERS: tuple[Parameter, ...] = (
    Parameter(
        "maki_first_tie",
        "Several players tie for most maki icons",
        tuple(MakiFirstTie),
        (
            (MakiFirstTie.SPLIT, "English (rulebook): share the first-place points, remainder dropped, "
                                 "no second place; Slovenian: same"),
            (MakiFirstTie.EACH, "French: every tied player gets the full first-place points, "
                                "no second place"),
            (MakiFirstTie.HALF, "Dutch: the tied players get half the first-place points (3) each, "
                                "nobody gets second place"),
        ),
        "R-MAKI-TIE-FIRST",
        related_ids=("R-MAKI-FIRST",),
        effect=Effect.SCORING,
        observability=Observability.ROUND,
        check_family="edge-maki-ties",
        statement="Players tied for most maki icons share, each take, or halve the first-place "
                  "points, by ruleset; nobody places second.",
        listed_after="R-MAKI-SECOND",
        words="a tie for most maki shares the first-place points",
    ),
    Parameter(
        "maki_second_tie",
        "Several players tie for second most maki icons",
        tuple(MakiSecondTie),
        (
            (MakiSecondTie.SPLIT, "English: share the second-place points (remainder dropped, as for "
                                  "first); Slovenian: shared, rounded down"),
            (MakiSecondTie.EACH, "French: every tied player gets the full second-place points"),
        ),
        "R-MAKI-TIE-SECOND",
        related_ids=("R-MAKI-SECOND",),
        effect=Effect.SCORING,
        observability=Observability.ROUND,
        check_family="edge-maki-ties",
        statement="Players tied for second share (remainder dropped) or each take the "
                  "second-place points, by ruleset.",
        listed_after="R-MAKI-TIE-FIRST",
        words="a tie for second shares the second-place points",
    ),
    Parameter(
        "pudding_penalty_rounding",
        "How a shared fewest-pudding penalty is rounded",
        tuple(PenaltyRounding),
        (
            (PenaltyRounding.TOWARD_ZERO, "English (rulebook): each loses the penalty divided by the "
                                          "number tied, remainder dropped (4 tied lose 1 each); French: "
                                          "same; Dutch: split, rounding not stated"),
            (PenaltyRounding.TOWARD_MINUS_INFINITY, "Slovenian, read literally: the negative share is "
                                                    "rounded down to the more negative integer (4 tied "
                                                    "lose 2 each)"),
        ),
        "R-PUDDING-SPLIT",
        related_ids=("R-PUDDING-FEWEST",),
        effect=Effect.SCORING,
        observability=Observability.PUDDING,
        check_family="edge-pudding-ties",
        statement="How a shared pudding penalty is rounded: toward zero or toward minus infinity.",
        listed_after="R-PUDDING-FEWEST",
    ),
    Parameter(
        "pudding_all_tied",
        "Every player has the same number of puddings",
        tuple(PuddingAllTied),
        (
            (PuddingAllTied.NOBODY, "English (rulebook): nobody scores pudding points"),
            (PuddingAllTied.BOTH, "Dutch, Slovenian, French are silent; read literally, the most and "
                                  "the fewest rules both apply to everyone"),
        ),
        "R-PUDDING-ALL-TIED",
        related_ids=(),
        effect=Effect.SCORING,
        observability=Observability.PUDDING,
        check_family="edge-pudding-ties",
        statement="When every player has the same number of puddings, nobody scores them "
                  "(or both rules apply, by ruleset).",
        listed_after="R-PUDDING-2P",
        words="pudding points are the most-pudding bonus plus the fewest-pudding penalty "
              "(when everyone is tied, as the all-tied reading says)",
    ),
    Parameter(
        "pudding_penalty_2p",
        "Is the fewest-pudding penalty paid in a 2-player game",
        (False, True),
        (
            (False, "English, Slovenian, French, Dutch: no penalty with 2 players"),
            (True, "No text; a common house rule and a common engine bug"),
        ),
        "R-PUDDING-2P",
        related_ids=("R-PUDDING-FEWEST",),
        effect=Effect.SCORING,
        observability=Observability.PUDDING,
        check_family="edge-pudding-ties",
        statement="With two players the fewest-pudding penalty is not paid (unless the ruleset says so).",
        listed_after="R-PUDDING-SPLIT",
    ),
    Parameter(
        "wasabi_placement",
        "Must a nigiri taken with a free wasabi go on it",
        tuple(WasabiPlacement),
        (
            (WasabiPlacement.AUTOMATIC, "English (rulebook): it goes on the wasabi; French: onto a "
                                        "wasabi already there"),
            (WasabiPlacement.OPTIONAL, "Slovenian: 'if you place' a nigiri on a wasabi; Dutch: a "
                                       "wasabi may be combined with a nigiri"),
        ),
        "R-WASABI-PLACE",
        related_ids=(),
        effect=Effect.PICK,
        observability=Observability.NONE,
        check_family="edge-wasabi-orders",
        statement="A nigiri taken while a free wasabi lies in front of the player goes on it "
                  "(automatic or optional, by ruleset).",
        listed_after="R-CHOPSTICKS-RETURN",
    ),
    Parameter(
        "wasabi_same_turn",
        "In a chopsticks turn, does a wasabi taken first hold the nigiri taken second",
        (True, False),
        (
            (True, "Not covered by any text; a ruling attributed to the designer lets the player "
                   "order the two cards, so yes"),
            (False, "English and French say 'already' there: read strictly, a wasabi taken in the "
                    "same turn does not count"),
        ),
        "R-WASABI-SAME-TURN",
        related_ids=(),
        effect=Effect.PICK,
        observability=Observability.NONE,
        check_family="edge-wasabi-orders",
        statement="Whether a wasabi taken first in a chopsticks turn can hold the nigiri "
                  "taken second.",
        listed_after="R-WASABI-ONE",
    ),
    Parameter(
        "winner_tie",
        "Players still tied after the pudding tie-break",
        tuple(WinnerTie),
        (
            (WinnerTie.SHARED, "Slovenian: the tied players share the win; English, French, Dutch "
                               "silent (we follow the Slovenian text by default)"),
            (WinnerTie.NONE, "No text; a reading of the silence: nobody wins"),
        ),
        "R-WINNER-TIE",
        related_ids=(),
        effect=Effect.SCORING,
        observability=Observability.NONE,
        check_family="winners",
        statement="Players still tied after the pudding tie-break share the win, or nobody wins, "
                  "by ruleset.",
        listed_after="R-WINNER",
    ),
    Parameter(
        "passing",
        "Direction hands are passed",
        tuple(Passing),
        (
            (Passing.LEFT, "All four texts: always to the left"),
            (Passing.BOTH_WAYS, "Rulebook variant: rounds 1 and 3 pass left, round 2 passes right"),
        ),
        "R-PASS",
        related_ids=(),
        effect=Effect.DEAL,
        observability=Observability.NONE,
        check_family="executor-games",
        statement="After each turn the rest of the hand goes to the next player (left; the printed "
                  "variant passes right in the second round).",
        listed_after="R-TABLEAU",
    ),
    Parameter(
        "dummy_2p",
        "Two-player game with a dummy third hand",
        (False, True),
        (
            (False, "All four texts: the plain game"),
            (True, "Rulebook variant: three hands of 9, a face-down dummy pile controlled by the "
                   "players in turn, scored as a third player"),
        ),
        "R-DUMMY",
        related_ids=(),
        effect=Effect.SCORING,
        observability=Observability.NONE,
        check_family="executor-games",
        statement="Two-player variant: a third, dummy hand is played by the players in turn and scored "
                  "as a third seat.",
        listed_after="R-WASABI-SAME-TURN",
    ),
)

PARAMETER_BY_NAME: dict[str, Parameter] = {p.name: p for p in PARAMETERS}


class Shape(enum.StrEnum):
    """How a rule number is written: ``--rule NAME=VALUE`` and the fields of a :class:`Ruleset`."""

    INTEGER = "integer"  # one whole number: tempura_points=6
    TABLE = "table"  # a comma list of whole numbers: dumpling_points=0,1,3,6,10,15
    HANDS = "hands"  # a hand size per player count: hand_sizes=2:10,3:9,4:8,5:7 (or 10,9,8,7)
    DECK = "deck"  # copies per card kind, one kind at a time: deck.squid=10


@dataclass(frozen=True)
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

#: Number settings already validated (see Ruleset.__post_init__).
_VALID_NUMBERS: set[tuple[Any, ...]] = set()

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
                        f"{', '.join(map(str, want_counts))} players, e.g. hand_sizes=2:10,3:9,4:8,5:7")
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


@dataclass(frozen=True)
class Ruleset:
    """Every number and reading of the rules. Frozen; derive variants with :meth:`replace`."""

    name: str = "official"
    # --- components and flow (rulebook) ---
    deck: tuple[int, ...] = _DECK  # copies per Card, indexed by Card
    hand_sizes: tuple[tuple[int, int], ...] = ((2, 10), (3, 9), (4, 8), (5, 7))
    dummy_hand_size: int = 9
    rounds: int = 3
    min_players: int = 2
    max_players: int = 5
    # --- round scoring (rulebook) ---
    tempura_set: int = 2
    tempura_points: int = 5
    sashimi_set: int = 3
    sashimi_points: int = 10
    dumpling_points: tuple[int, ...] = (0, 1, 3, 6, 10, 15)  # by count; the last holds beyond
    nigiri_points: tuple[int, int, int] = (1, 2, 3)  # egg, salmon, squid
    wasabi_multiplier: int = 3
    maki_icons: tuple[int, int, int] = (1, 2, 3)  # maki1, maki2, maki3
    maki_first_points: int = 6
    maki_second_points: int = 3
    # --- end of game (rulebook) ---
    pudding_most_points: int = 6
    pudding_fewest_penalty: int = 6
    # --- contested readings ---
    # (a text is accepted for each enum: Ruleset(maki_first_tie="each") holds MakiFirstTie.EACH)
    maki_first_tie: MakiFirstTie = MakiFirstTie.SPLIT
    maki_second_tie: MakiSecondTie = MakiSecondTie.SPLIT
    pudding_penalty_rounding: PenaltyRounding = PenaltyRounding.TOWARD_ZERO
    pudding_all_tied: PuddingAllTied = PuddingAllTied.NOBODY
    pudding_penalty_2p: bool = False
    wasabi_placement: WasabiPlacement = WasabiPlacement.AUTOMATIC
    wasabi_same_turn: bool = True
    winner_tie: WinnerTie = WinnerTie.SHARED
    passing: Passing = Passing.LEFT
    dummy_2p: bool = False
    # free text: where this ruleset comes from
    source: str = field(default="Gamewright rulebook (English text)", compare=False)

    def __post_init__(self) -> None:
        for p in PARAMETERS:
            # frozen: the text of a value becomes its enum member here, once
            object.__setattr__(self, p.name, p.coerce(getattr(self, p.name)))
        # Every way of building a Ruleset (overrides, files, the API) passes through here: the
        # numbers are normalised (lists to tuples, a deck by kind name) and validated once.
        for n in NUMBERS:
            object.__setattr__(self, n.name, _normalise_number(n, getattr(self, n.name)))
        # Rulesets are built often (every replace, a Hypothesis case's readings): numbers already
        # found valid are not checked again.
        key = (*(getattr(self, n.name) for n in NUMBERS), self.dummy_2p, self.min_players, self.max_players)
        if key not in _VALID_NUMBERS:
            validate_numbers(self)
            if len(_VALID_NUMBERS) >= 1024:
                _VALID_NUMBERS.clear()
            _VALID_NUMBERS.add(key)

    # --- derived numbers ---
    def hand_size(self, players: int) -> int:
        """Cards dealt to each hand for a game of ``players`` seats (the dummy counts as a hand)."""
        if self.dummy_2p:
            if players not in (2, 3):
                raise RulesError(f"the dummy-2p variant is for 2 players, not {players}")
            return self.dummy_hand_size
        for n, size in self.hand_sizes:
            if n == players:
                return size
        raise RulesError(
            f"{players!r} players is not allowed; Sushi Go! takes "
            f"{self.min_players} to {self.max_players} players"
        )

    def seats(self, players: int) -> int:
        """Tableaux scored at the table: the players, plus the dummy in ``dummy_2p``."""
        return players + 1 if self.dummy_2p else players

    def deck_size(self) -> int:
        return sum(self.deck)

    def copies(self, card: Card) -> int:
        return self.deck[int(card)]

    def card_points_cap(self) -> Fraction:
        """Most points one card can bring in a round's dishes: a set's points per card, the best
        dumpling count's, a nigiri's, or a stack's (nigiri times the multiplier, over two cards)."""
        from fractions import Fraction  # lazy: with decimal, a tenth of 'sushigo score's start-up

        nigiri = max(self.nigiri_points)
        return max(
            Fraction(self.tempura_points, self.tempura_set),
            Fraction(self.sashimi_points, self.sashimi_set),
            max(Fraction(self.dumpling_score(k), k) for k in range(1, len(self.dumpling_points))),
            Fraction(nigiri), Fraction(nigiri * self.wasabi_multiplier, 2),
        )

    def game_points_cap(self, players: int) -> int:
        """More than any seat's game total can be: every round at the best card's points per card
        plus the best maki place, then the pudding bonus."""
        per_round = -(-self.card_points_cap() * self.hand_size(players) // 1) + self.maki_points_cap
        return int(self.rounds * per_round + self.pudding_most_points)

    @property
    def maki_points_cap(self) -> int:
        """Most maki points one seat takes in a round (second place may pay more than first)."""
        return max(self.maki_first_points, self.maki_second_points)

    def dumpling_score(self, n: int) -> int:
        table = self.dumpling_points
        return table[n] if n < len(table) else table[-1]

    def pass_offset(self, round_index: int) -> int:
        """+1 when hands go to the left (seat i gives to seat i+1), -1 to the right.

        ``round_index`` counts from 0.
        """
        match self.passing:
            case Passing.LEFT:
                return 1
            case Passing.BOTH_WAYS:
                return -1 if round_index % 2 == 1 else 1
            case _:
                assert_never(self.passing)

    # Each reading decided once, exhaustively: a new value is a type error here (mypy's
    # assert_never), never a silent fall into another value's branch.
    def maki_share(self, first: bool, tied: int) -> int:
        """Maki points each of ``tied`` players tied for first (or second) place takes."""
        if tied == 1:  # a place held alone is not a tie: its full points, whatever the reading
            return self.maki_first_points if first else self.maki_second_points
        if not first:
            second = self.maki_second_points
            match self.maki_second_tie:
                case MakiSecondTie.SPLIT:
                    return second // tied if tied else 0
                case MakiSecondTie.EACH:
                    return second
                case _:
                    assert_never(self.maki_second_tie)
        points = self.maki_first_points
        match self.maki_first_tie:
            case MakiFirstTie.SPLIT:
                return points // tied if tied else 0
            case MakiFirstTie.EACH:
                return points
            case MakiFirstTie.HALF:  # the Dutch text: half the first-place points each
                return points // 2
            case _:
                assert_never(self.maki_first_tie)

    def penalty_share(self, tied: int) -> int:
        """The (negative) fewest-pudding points each of ``tied`` players takes."""
        pen = self.pudding_fewest_penalty
        match self.pudding_penalty_rounding:
            case PenaltyRounding.TOWARD_ZERO:
                return -(pen // tied)
            case PenaltyRounding.TOWARD_MINUS_INFINITY:
                return (-pen) // tied
            case _:
                assert_never(self.pudding_penalty_rounding)

    @property
    def all_tied_score_nothing(self) -> bool:
        """When every seat has as many puddings, nobody scores them (else both rules apply)."""
        match self.pudding_all_tied:
            case PuddingAllTied.NOBODY:
                return True
            case PuddingAllTied.BOTH:
                return False
            case _:
                assert_never(self.pudding_all_tied)

    @property
    def wasabi_automatic(self) -> bool:
        """A nigiri taken with a free wasabi in front goes on it (else the player chooses)."""
        match self.wasabi_placement:
            case WasabiPlacement.AUTOMATIC:
                return True
            case WasabiPlacement.OPTIONAL:
                return False
            case _:
                assert_never(self.wasabi_placement)

    @property
    def tied_winners_share(self) -> bool:
        """Players still tied after the pudding tie-break all win (else nobody wins)."""
        match self.winner_tie:
            case WinnerTie.SHARED:
                return True
            case WinnerTie.NONE:
                return False
            case _:
                assert_never(self.winner_tie)

    def pudding_penalty_applies(self, seats: int) -> bool:
        return seats > 2 or self.pudding_penalty_2p

    def replace(self, **changes: Any) -> Ruleset:
        return dataclasses.replace(self, **changes)

    def numbers(self) -> dict[str, Any]:
        """The rule numbers only (:data:`NUMBERS`), by parameter name."""
        return {n.name: getattr(self, n.name) for n in NUMBERS}

    def changed_numbers(self, base: Ruleset) -> dict[str, Any]:
        """The rule numbers that differ from ``base``, as ``--rule`` texts by name (``deck.squid``
        for one kind's copies), in :data:`NUMBERS` order."""
        out: dict[str, Any] = {}
        for n in NUMBERS:
            mine, theirs = getattr(self, n.name), getattr(base, n.name)
            if n.shape is Shape.DECK:
                out.update({f"deck.{KINDS[i].name}": str(c) for i, c in enumerate(mine) if c != theirs[i]})
            elif mine != theirs:
                out[n.name] = format_number(n, mine)
        return out

    def readings(self) -> dict[str, Any]:
        """The contested readings only, by parameter name."""
        return {p.name: getattr(self, p.name) for p in PARAMETERS}

    def describe(self) -> str:
        """Name plus the readings that differ from ``official``."""
        base = OFFICIAL.readings()
        diffs = [f"{k}={_fmt_value(v)}" for k, v in self.readings().items() if base[k] != v]
        return self.name + (f" ({', '.join(diffs)})" if diffs and self.name not in RULESETS else "")


def _fmt_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def parse_value(param: Parameter, text: str) -> Any:
    """A parameter value from text (``yes``/``no``/``true``/``false`` for booleans)."""
    low = text.strip().lower()
    if isinstance(param.values[0], bool):
        if low in ("yes", "true", "1", "on"):
            return True
        if low in ("no", "false", "0", "off"):
            return False
    else:
        for v in param.values:
            if low == v:
                return v
    raise RulesError(
        f"rule {param.name}={text!r} is not allowed; choose one of "
        f"{', '.join(_fmt_value(v) for v in param.values)}"
    )


OFFICIAL = Ruleset()

#: Named rulesets: the official rules, one per rule text, one per single reading,
#: and the two printed variants.
RULESETS: dict[str, Ruleset] = {
    "official": OFFICIAL,
    "english": OFFICIAL.replace(name="english", source="English text (follows the rulebook)"),
    "slovenian": OFFICIAL.replace(
        name="slovenian",
        pudding_penalty_rounding="toward-minus-infinity",
        wasabi_placement="optional",
        source="Slovenian text, contested points read literally",
    ),
    "french": OFFICIAL.replace(
        name="french", maki_first_tie="each", maki_second_tie="each", source="French text"
    ),
    "dutch": OFFICIAL.replace(
        name="dutch",
        maki_first_tie="half",
        pudding_all_tied="both",
        wasabi_placement="optional",
        source="Dutch text, contested points read literally",
    ),
    # single-reading variants of official
    "maki-first-each": OFFICIAL.replace(name="maki-first-each", maki_first_tie="each"),
    "maki-first-half": OFFICIAL.replace(name="maki-first-half", maki_first_tie="half"),
    "maki-second-each": OFFICIAL.replace(name="maki-second-each", maki_second_tie="each"),
    "pudding-floor": OFFICIAL.replace(
        name="pudding-floor", pudding_penalty_rounding="toward-minus-infinity"
    ),
    "pudding-all-tied-both": OFFICIAL.replace(name="pudding-all-tied-both", pudding_all_tied="both"),
    "pudding-penalty-2p": OFFICIAL.replace(name="pudding-penalty-2p", pudding_penalty_2p=True),
    "wasabi-optional": OFFICIAL.replace(name="wasabi-optional", wasabi_placement="optional"),
    "wasabi-strict": OFFICIAL.replace(name="wasabi-strict", wasabi_same_turn=False),
    "winner-tie-none": OFFICIAL.replace(name="winner-tie-none", winner_tie="none"),
    # the printed variants
    "pass-both-ways": OFFICIAL.replace(name="pass-both-ways", passing="both-ways"),
    "dummy-2p": OFFICIAL.replace(name="dummy-2p", dummy_2p=True),
}

#: The single-reading variants of official (each differs in exactly one parameter), in RULESETS order.
SINGLE_READING_VARIANTS: tuple[str, ...] = tuple(
    name for name, rules in RULESETS.items()
    if sum(getattr(rules, p.name) != getattr(OFFICIAL, p.name) for p in PARAMETERS) == 1
)


def get_ruleset(name: str, overrides: list[str] | tuple[str, ...] = ()) -> Ruleset:
    """A named ruleset (or a rules file: a .toml name or a path, :mod:`spec.rulefile`) with
    ``NAME=VALUE`` overrides applied (in order)."""
    from sushigo.spec import rulefile  # lazy: rulefile builds on this module

    if isinstance(name, os.PathLike):
        name = os.fspath(name)
    if not isinstance(name, str):
        raise RulesError(f"a ruleset is named by a string (see 'sushigo rules') or a rules file's path, "
                         f"got {name!r:.60}")
    if rulefile.is_rules_path(name):
        return apply_overrides(rulefile.load_rules_file(name), overrides)
    key = name.strip().lower()
    if key not in RULESETS:
        import difflib

        near = difflib.get_close_matches(key, list(RULESETS), n=1, cutoff=0.5)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise RulesError(
            f"unknown ruleset {name!r}{hint} (rulesets: {', '.join(RULESETS)})"
        )
    rules = RULESETS[key]
    return apply_overrides(rules, overrides)


def apply_overrides(rules: Ruleset, overrides: list[str] | tuple[str, ...]) -> Ruleset:
    """``rules`` with ``NAME=VALUE`` overrides applied in order: a reading (:data:`PARAMETERS`) or a
    rule number (:data:`NUMBERS`; ``deck.KIND=N`` for one kind's copies). The result is named
    ``BASE[NAME=VALUE, ...]`` when it differs from ``rules``; it is validated as it is built."""
    changes: dict[str, Any] = {}
    labels: dict[str, str] = {}  # what the name shows, per parameter (deck: per kind)
    # The overrides so far, read without building a Ruleset: the result is validated once, after
    # the last override, so their order never matters (deck.tempura=0 before deck.sashimi=30).
    current = _Overridden(rules, changes)
    for item in overrides:
        pname, sep, value = item.partition("=")
        pname = pname.strip().replace("-", "_")
        if not sep:
            raise RulesError(f"rule override {item!r} must look like NAME=VALUE")
        head, dot, kind = pname.partition(".")
        number = SETTABLE_BY_NAME.get(head)
        if number is not None and (number.shape is Shape.DECK) == bool(dot):
            changes[number.name] = parse_number(number, value, current, kind if dot else None)
            label = f"deck.{KINDS[_kind_index(kind, item)].name}" if dot else number.name
            labels[label] = f"{label}={value.strip() if dot else format_number(number, changes[number.name])}"
            continue
        param = PARAMETER_BY_NAME.get(pname)
        if param is None:
            if number is not None:  # deck without a kind, or a kind after a number that has none
                raise RulesError(f"rule {pname}: write "
                                 + ("deck.KIND=N, e.g. deck.squid=10" if number.shape is Shape.DECK
                                    else f"{number.name}=VALUE without a '.'"))
            import difflib

            names = [*PARAMETER_BY_NAME, *SETTABLE_BY_NAME]
            near = difflib.get_close_matches(head, names, n=1, cutoff=0.6)
            hint = f"; did you mean {near[0] + ('.KIND' if near[0] == 'deck' else '')!r}?" if near else ""
            raise RulesError(
                f"unknown rule parameter {pname!r}{hint} (parameters: {', '.join(PARAMETER_BY_NAME)}; "
                f"numbers: {', '.join(n.name + ('.KIND' if n.shape is Shape.DECK else '') for n in NUMBERS)}"
                f", {', '.join(n.name for n in PLAYER_LIMITS)})"
            )
        changes[param.name] = parse_value(param, value)
        labels[param.name] = f"{param.name}={_fmt_value(changes[param.name])}"
    if not changes:
        return rules
    new = rules.replace(**changes)
    if new.replace(name=rules.name) != rules:
        new = new.replace(name=f"{rules.name}[{', '.join(labels.values())}]")
    return new


class _Overridden:
    """A ruleset's fields with the overrides so far on top, read as attributes (never validated)."""

    def __init__(self, rules: Ruleset, changes: Mapping[str, Any]) -> None:
        self._rules, self._changes = rules, changes

    def __getattr__(self, name: str) -> Any:
        if name in self._changes:
            return self._changes[name]
        return getattr(self._rules, name)


def format_value(value: Any) -> str:
    return _fmt_value(value)
