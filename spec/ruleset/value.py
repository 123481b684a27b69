"""The :class:`Ruleset` value: every rule number and every contested reading, in one frozen value.

The executor, the Z3 model, the solvers and the checks all read a :class:`Ruleset`; no point
value or deck count is written anywhere else. Building one normalises and validates its numbers
(:mod:`spec.ruleset.numbers`) and turns each reading's text into its enum member
(:mod:`spec.ruleset.readings`); its methods derive the numbers the game needs and decide each
reading once, exhaustively.
"""

from __future__ import annotations

from sushigo.spec.frozen import field, frozen, replace

TYPE_CHECKING = False

import sushigo.spec.ruleset.printed as printed
from sushigo.spec.cards import Card
from sushigo.spec.errors import RulesError, assert_never
from sushigo.spec.kinds import KINDS
from sushigo.spec.ruleset.numbers import (
    _DECK,
    NUMBERS,
    Shape,
    _normalise_number,
    format_number,
    validate_numbers,
)
from sushigo.spec.ruleset.readings import (
    PARAMETERS,
    MakiFirstTie,
    MakiSecondTie,
    Passing,
    PenaltyRounding,
    PuddingAllTied,
    WasabiPlacement,
    WinnerTie,
    format_value,
)

if TYPE_CHECKING:
    from fractions import Fraction
    from typing import Any

#: Number settings already validated (see Ruleset.__post_init__).
_VALID_NUMBERS: set[tuple[Any, ...]] = set()


@frozen
class Ruleset:
    """Every number and reading of the rules. Frozen; derive variants with :meth:`replace`."""

    name: str = "official"
    # --- components and flow (rulebook) ---
    deck: tuple[int, ...] = _DECK  # copies per Card, indexed by Card
    # Every number's default is the printed rulebook's (spec/ruleset/printed.py, the official
    # ruleset's data): Ruleset() is the official ruleset.
    hand_sizes: tuple[tuple[int, int], ...] = printed.HAND_SIZES
    dummy_hand_size: int = printed.DUMMY_HAND_SIZE
    rounds: int = printed.ROUNDS
    min_players: int = printed.MIN_PLAYERS
    max_players: int = printed.MAX_PLAYERS
    # --- round scoring (rulebook) ---
    tempura_set: int = printed.TEMPURA_SET
    tempura_points: int = printed.TEMPURA_POINTS
    sashimi_set: int = printed.SASHIMI_SET
    sashimi_points: int = printed.SASHIMI_POINTS
    dumpling_points: tuple[int, ...] = printed.DUMPLING_POINTS  # by count; the last holds beyond
    nigiri_points: tuple[int, int, int] = printed.NIGIRI_POINTS  # egg, salmon, squid
    wasabi_multiplier: int = printed.WASABI_MULTIPLIER
    maki_icons: tuple[int, int, int] = printed.MAKI_ICONS  # maki1, maki2, maki3
    maki_first_points: int = printed.MAKI_FIRST_POINTS
    maki_second_points: int = printed.MAKI_SECOND_POINTS
    # --- end of game (rulebook) ---
    pudding_most_points: int = printed.PUDDING_MOST_POINTS
    pudding_fewest_penalty: int = printed.PUDDING_FEWEST_PENALTY
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
        """Most points one card can bring in a round's dishes (:func:`spec.scoring.card_points_cap`,
        read from the kinds' descriptions)."""
        from sushigo.spec.scoring import card_points_cap  # lazy: spec.scoring imports this module

        return card_points_cap(self)

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
        """What ``n`` dumplings score: the dumpling kind's description (spec.kinds) read under these rules."""
        return int(KINDS[int(Card.DUMPLING)].scoring.score(n, self))

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
        return replace(self, **changes)

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
        from sushigo.spec.ruleset.named import OFFICIAL, RULESETS  # they are built from this class

        base = OFFICIAL.readings()
        diffs = [f"{k}={format_value(v)}" for k, v in self.readings().items() if base[k] != v]
        return self.name + (f" ({', '.join(diffs)})" if diffs and self.name not in RULESETS else "")

