"""Hypothesis strategies: rulesets, pick orders, tables, pudding counts, games, turn states.

Everything drawn respects the deck of the ruleset drawn with it: no table holds
more copies of a card than ``rules.deck`` prints, no hand or tableau holds more
cards than a hand of that table size, and a game's rounds share one deck (cards
of earlier rounds are not returned).

Tables are drawn as *pick orders* (the cards each seat took, in order) because
the order decides wasabi placement: ``wasabi squid`` is a stack, ``squid
wasabi`` is not. :func:`tableau_of_picks` is a small independent reading of
the placement rule used to turn pick orders into tableaux; the checks hold the
executor's turn rules against it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from hypothesis import strategies as st
from sushigo.spec.cards import NIGIRI, STACK_OF, Card, Token
from sushigo.spec.ruleset import OFFICIAL, PARAMETERS, RULESETS, Ruleset
from sushigo.spec.tableau import Tableau

PickOrder = tuple[Card, ...]
CARDS: tuple[Card, ...] = tuple(Card)

_NIGIRI_STACK = {c: STACK_OF[c] for c in NIGIRI}


def named_rulesets() -> st.SearchStrategy[Ruleset]:
    return st.sampled_from(list(RULESETS.values()))


def rulesets(base: Ruleset = OFFICIAL) -> st.SearchStrategy[Ruleset]:
    """Any combination of the contested readings (not only the named rulesets), with ``base``'s
    rule numbers (``check --rule tempura_points=6`` mixes readings under that number)."""
    readings = st.fixed_dictionaries({p.name: st.sampled_from(list(p.values)) for p in PARAMETERS})
    numbers = base.changed_numbers(OFFICIAL)
    suffix = "".join(f",{k}={v}" for k, v in numbers.items())

    def build(values: dict[str, object]) -> Ruleset:
        changed = ",".join(f"{k}={v}" for k, v in values.items() if getattr(OFFICIAL, k) != v) + suffix
        name = f"mixed[{changed.lstrip(',')}]" if changed else "official"
        return base.replace(name=name, **values)

    return readings.map(build)


def seat_counts(rules: Ruleset) -> list[int]:
    """Tableaux at the table: 2..5 players, or the two players plus the dummy."""
    if rules.dummy_2p:
        return [rules.seats(rules.min_players)]
    return list(range(rules.min_players, rules.max_players + 1))


def players_of(rules: Ruleset, seats: int) -> int:
    return seats - 1 if rules.dummy_2p else seats


def hand_size(rules: Ruleset, seats: int) -> int:
    return rules.hand_size(players_of(rules, seats))


def tableau_of_picks(picks: Sequence[Card], rules: Ruleset = OFFICIAL) -> Tableau:
    """The tableau a pick order leaves when each card is its own turn.

    R-WASABI-PLACE (automatic reading): a nigiri goes on the oldest free wasabi
    taken before it; R-WASABI-ONE: one nigiri per wasabi, never on a later one.
    Under optional placement the player takes the better choice, which is
    always to place (a stacked nigiri scores more than the bare one and the
    wasabi alone scores nothing).
    """
    counts = [0] * len(Token)
    free = 0
    for card in picks:
        if card in _NIGIRI_STACK and free > 0:
            free -= 1
            counts[int(Token.WASABI)] -= 1
            counts[int(_NIGIRI_STACK[card])] += 1
            continue
        counts[int(card)] += 1
        if card == Card.WASABI:
            free += 1
    del rules  # the reading does not change the result of single-card turns
    return Tableau(tuple(counts))


@lru_cache(maxsize=32)
def _runs(size: int) -> st.SearchStrategy[list[tuple[Card, int]]]:
    # Built once per hand size: constructing strategies inside a draw costs more than drawing.
    return st.lists(st.tuples(st.sampled_from(CARDS), st.integers(1, size)), max_size=4)


def _pick_order(draw: st.DrawFn, left: list[int], size: int) -> PickOrder:
    """Up to ``size`` cards from ``left`` (copies per Card, updated in place).

    Drawn as a few *runs* (a card kind and how many in a row): few draws per
    seat keep generation cheap, large counts of one kind (six dumplings, four
    wasabi) come up often, and the order of runs varies wasabi before or
    after nigiri. A run is cut short where the hand or the deck runs out.
    """
    out: list[Card] = []
    for card, n in draw(_runs(size)):
        take = min(n, size - len(out), left[int(card)])
        left[int(card)] -= take
        out.extend([card] * take)
    return tuple(out)


@dataclass(frozen=True)
class Table:
    """One round's pick orders, one per seat (the dummy last in ``dummy_2p``)."""

    picks: tuple[PickOrder, ...]

    def tableaux(self, rules: Ruleset) -> list[Tableau]:
        return [tableau_of_picks(p, rules) for p in self.picks]


@st.composite
def tables(draw: st.DrawFn, rules: Ruleset, seats: int | None = None,
           left: list[int] | None = None) -> Table:
    """One round: every seat's pick order, within hand size and the deck."""
    n = seats if seats is not None else draw(st.sampled_from(seat_counts(rules)))
    deck = left if left is not None else list(rules.deck)
    size = hand_size(rules, n)
    return Table(tuple(_pick_order(draw, deck, size) for _ in range(n)))


@dataclass(frozen=True)
class Game:
    """Every round of one game (the rounds share one deck)."""

    rounds: tuple[Table, ...]

    @property
    def seats(self) -> int:
        return len(self.rounds[0].picks)

    def tableaux(self, rules: Ruleset) -> list[list[Tableau]]:
        return [r.tableaux(rules) for r in self.rounds]

    def puddings(self) -> list[int]:
        return [sum(r.picks[k].count(Card.PUDDING) for r in self.rounds) for k in range(self.seats)]


@st.composite
def games(draw: st.DrawFn, rules: Ruleset) -> Game:
    n = draw(st.sampled_from(seat_counts(rules)))
    left = list(rules.deck)
    return Game(tuple(draw(tables(rules, n, left)) for _ in range(rules.rounds)))


@st.composite
def pudding_counts(draw: st.DrawFn, rules: Ruleset) -> tuple[int, ...]:
    """Pudding cards per seat at the end of a game, within the deck's copies.

    Each seat takes one of 1..3 drawn levels, so ties (for most, for fewest,
    everyone) are the common case, as they are where the pudding rules differ.
    """
    n = draw(st.sampled_from(seat_counts(rules)))
    cap = rules.copies(Card.PUDDING)
    levels = draw(st.lists(st.integers(0, cap), min_size=1, max_size=3))
    out = [draw(st.sampled_from(levels)) for _ in range(n)]
    while sum(out) > cap:
        k = out.index(max(out))
        out[k] -= 1
    return tuple(out)


@st.composite
def totals_and_puddings(draw: st.DrawFn, rules: Ruleset) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Final totals (small range, so ties happen) and pudding counts for the winner rule."""
    puds = draw(pudding_counts(rules))
    totals = tuple(draw(st.integers(-12, 8)) for _ in puds)
    return totals, puds


@dataclass(frozen=True)
class TurnCase:
    """A player's hand (12 counts), tableau so far (15 counts) and a proposed turn (1-2 picks)."""

    hand: tuple[int, ...]
    tableau: tuple[int, ...]
    picks: tuple[tuple[Card, bool | None], ...]


@st.composite
def turn_cases(draw: st.DrawFn, rules: Ruleset) -> TurnCase:
    """A mid-round state and a proposed turn, legal or not.

    The first pick is often chopsticks or wasabi and the tableau often holds
    chopsticks or free wasabi, because that is where the turn rules live.
    """
    seats = draw(st.sampled_from(seat_counts(rules)))
    size = hand_size(rules, seats)
    left = list(rules.deck)
    taken = draw(st.integers(0, size - 1))
    hand_n = size - taken
    special = [Card.CHOPSTICKS, Card.WASABI, *NIGIRI]
    drawn = draw(st.lists(st.sampled_from([*special, Card.TEMPURA, Card.MAKI2]), max_size=taken))
    before = []
    for c in drawn:  # within the ruleset's deck (deck.KIND=N may leave a kind out)
        if left[int(c)] > 0:
            left[int(c)] -= 1
            before.append(c)
    hand_cards = draw(st.lists(st.sampled_from([*special, Card.TEMPURA, Card.PUDDING]),
                               min_size=1, max_size=hand_n))
    hand = [0] * len(Card)
    for c in hand_cards:
        if left[int(c)] > 0:
            left[int(c)] -= 1
            hand[int(c)] += 1
    if sum(hand) == 0:
        hand[int(Card.TEMPURA)] = 1
    tab = tableau_of_picks(before).counts
    in_hand = [c for c in Card if hand[int(c)] > 0]
    n_picks = draw(st.integers(1, 2))
    choice = st.sampled_from([None, True, False]) if not rules.wasabi_automatic \
        else st.sampled_from([None, None, None, True, False])
    picks = []
    for _ in range(n_picks):
        card = draw(st.sampled_from(in_hand if draw(st.booleans()) else list(Card)))
        flag = draw(choice) if card in NIGIRI else None
        picks.append((card, flag))
    return TurnCase(tuple(hand), tuple(tab), tuple(picks))


def format_picks(picks: Sequence[Card]) -> str:
    return " ".join(c.label for c in picks) if picks else "-"

