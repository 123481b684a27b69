"""The table a game is played at: who may play under a ruleset, what every game of one ruleset
and player count shares (hand size, option table, pass offsets), and one seeded game's deal.

A round deals ``seats`` consecutive blocks of ``rules.hand_size(players)`` cards from the top of
what is left of the shuffled deck (:mod:`spec.engine.shuffle`), seat 0 first; in dummy-2p the
third block is the dummy pile, top card first.
"""

from __future__ import annotations

from sushigo.spec.engine.options import NO_OPTIONS, option_table
from sushigo.spec.engine.packed import CARD_BIT, N_CARDS
from sushigo.spec.engine.shuffle import fast_shuffled_deck
from sushigo.spec.errors import InputError, RulesError
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import pudding_points

DUMMY_SEAT = 2  # the dummy pile's seat in dummy-2p


def dummy_controller(turn: int) -> int:
    """The seat controlling the dummy at ``turn`` (from 0) of any round, in dummy-2p."""
    return turn % 2


def check_players(rules: Ruleset, players: int) -> None:
    """InputError unless ``players`` can play a whole game under ``rules``."""
    if not isinstance(rules, Ruleset):
        raise InputError(f"rules must be a Ruleset (get_ruleset(name) gives one by name), not {rules!r}")
    try:
        rules.hand_size(players)
    except RulesError as exc:
        raise InputError(str(exc)) from exc
    if rules.dummy_2p and players != 2:
        raise InputError(f"the dummy-2p variant is for 2 players, not {players}")
    need = rules.rounds * rules.seats(players) * rules.hand_size(players)
    if need > rules.deck_size():
        raise InputError(f"{players} players need {need} cards; the deck has {rules.deck_size()}")


class Seats:
    """What every game of one ruleset and player count shares (built once, kept)."""

    __slots__ = (
        "base", "by_pattern", "dealt", "empty", "no_options", "offsets", "plain", "players", "puddings",
        "rules", "size", "table",
    )

    def __init__(self, rules: Ruleset, players: int) -> None:
        check_players(rules, players)
        self.rules, self.players = rules, players
        self.size = rules.hand_size(players)
        self.table = option_table(rules)
        # the table's entry lists and dict (filled and cleared in place, never replaced), one hop nearer
        self.plain, self.by_pattern = self.table.plain, self.table.by_pattern
        self.base = tuple(c for c in range(N_CARDS) for _ in range(rules.deck[c]))
        self.dealt = rules.rounds * players * self.size  # the cards a game deals (check_players: <= deck)
        self.offsets = tuple(rules.pass_offset(r) % players for r in range(rules.rounds))
        self.empty = (0,) * players
        self.no_options = (NO_OPTIONS,) * players
        self.puddings: dict[tuple[int, ...], tuple[int, ...]] = {}  # pudding points by puddings kept

    def pudding_points(self, kept: tuple[int, ...]) -> tuple[int, ...]:
        """spec.scoring.pudding_points of ``kept``, memoised (few pudding tuples are common)."""
        found = self.puddings.get(kept)
        if found is None:
            if len(self.puddings) >= 4096:
                self.puddings.clear()
            found = self.puddings[kept] = tuple(pudding_points(kept, self.rules))
        return found


# Keyed by the ruleset's id and checked by identity (as spec.scoring keys its tables): hashing a
# Ruleset hashes every field, which costs more than a tenth of a whole game. An entry keeps its
# Ruleset alive (seats.rules), so no other ruleset can take its id meanwhile.
_SEATS: dict[tuple[int, int], Seats] = {}


def seats_of(rules: Ruleset, players: int) -> Seats:
    """The shared setup of ``players`` players under ``rules`` (InputError for a count they forbid)."""
    seats = _SEATS.get((id(rules), players))
    if seats is None or seats.rules is not rules:
        if len(_SEATS) >= 256:
            _SEATS.clear()
        seats = _SEATS[(id(rules), players)] = Seats(rules, players)
    return seats


class Setup:
    """What every position of one game shares: the seats, the seed, the deal."""

    __slots__ = ("dealt", "deck", "policy_seed", "seats", "seed")

    def __init__(self, seats: Seats, seed: int) -> None:
        deck, self.policy_seed = fast_shuffled_deck(seats.base, seed, seats.dealt)
        self.seats, self.seed, self.deck = seats, seed, deck
        self.dealt: list[tuple[int, ...] | None] = [None] * seats.rules.rounds

    def hands(self, round_index: int) -> tuple[int, ...]:
        """The packed hands of a round: seat s of round r takes the (r * players + s)-th block."""
        found = self.dealt[round_index]
        if found is None:
            players, size, deck, bit = self.seats.players, self.seats.size, self.deck, CARD_BIT
            first = round_index * players * size
            packed = []
            for start in range(first, first + players * size, size):
                hand = 0
                for c in deck[start : start + size]:  # a plain loop: sum() of wide ints is slower
                    hand += bit[c]
                packed.append(hand)
            found = self.dealt[round_index] = tuple(packed)
        return found
