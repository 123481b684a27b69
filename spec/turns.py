"""The rules of one turn for one player: what may be taken, and what it does.

State is kept as count vectors: a hand is 12 counts indexed by :class:`Card`,
a tableau so far is 15 counts indexed by :class:`Token`. A *turn* is one pick,
or two picks in order when a chopsticks card taken on an earlier turn is used.

Rules encoded here (ids as in the rule catalogue):

* R-PICK: each pick takes a card that is in the hand.
* R-CHOPSTICKS-EARLIER: a second pick needs a chopsticks card in the tableau at
  the start of the turn (one taken this turn does not count).
* R-CHOPSTICKS-ONCE: at most one chopsticks use (two picks) per turn.
* R-CHOPSTICKS-RETURN: the used chopsticks leave the tableau and go into the
  hand that is passed on.
* R-WASABI-PLACE: a nigiri taken while a free wasabi lies in the tableau goes on
  it (automatic), or may (optional), by ``wasabi_placement``.
* R-WASABI-ONE: each wasabi holds one nigiri; a nigiri never goes on a wasabi
  taken after it.
* R-WASABI-SAME-TURN: whether a wasabi taken first in a chopsticks turn holds
  the nigiri taken second (``wasabi_same_turn``).

Pick notation: a card name; a nigiri may carry ``:wasabi`` (laid on a free
wasabi) or ``:plain`` (kept off it, only where placement is optional). A bare
nigiri name goes on a free wasabi when there is one. A turn is one or two
picks: JSON ``["wasabi", "squid"]``, text ``wasabi squid``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sushigo.spec.cards import NIGIRI, NIGIRI_OF, STACK_OF, Card, Token, parse_card
from sushigo.spec.errors import IllegalMoveError, NotationError
from sushigo.spec.ruleset import OFFICIAL, Ruleset

N_CARDS = len(Card)
_WASABI = int(Card.WASABI)
_CHOP = int(Card.CHOPSTICKS)
_NIGIRI = frozenset(int(c) for c in NIGIRI)
_STACK = {int(c): int(t) for c, t in STACK_OF.items()}


@dataclass(frozen=True)
class Pick:
    """One card taken. ``wasabi`` is None for "by the rules' default", else the explicit choice."""

    card: Card
    wasabi: bool | None = None

    def __str__(self) -> str:
        if self.wasabi is None or self.card not in NIGIRI:
            return self.card.label
        return f"{self.card.label}:{'wasabi' if self.wasabi else 'plain'}"


class Turn(tuple[Pick, ...]):
    """One turn: one pick, or two with chopsticks. A tuple of :class:`Pick` (code that indexes,
    iterates or compares bare tuples keeps working: ``Turn(t) == t``) with a text form that
    round-trips like :class:`~sushigo.spec.tableau.Tableau`'s: ``Turn.parse(str(t)) == t``."""

    __slots__ = ()

    def __new__(cls, picks: Iterable[Pick] = ()) -> Turn:
        return super().__new__(cls, tuple(picks))

    @classmethod
    def parse(cls, value: str | Sequence[str]) -> Turn:
        """From text (``"wasabi squid"``) or JSON (``["wasabi", "squid"]``); see :func:`parse_turn`."""
        return parse_turn(value)

    def __str__(self) -> str:
        return " ".join(str(p) for p in self)

    def __repr__(self) -> str:
        return f"Turn.parse({str(self)!r})"


def parse_pick(text: str) -> Pick:
    name, sep, flag = text.strip().partition(":")
    card = parse_card(name)
    if not sep:
        return Pick(card)
    flag = flag.strip().lower()
    if card not in NIGIRI:
        raise NotationError(f"pick {text!r}: only a nigiri can carry ':wasabi' or ':plain'")
    if flag not in ("wasabi", "plain"):
        raise NotationError(f"pick {text!r}: expected ':wasabi' or ':plain' after the nigiri")
    return Pick(card, flag == "wasabi")


def parse_turn(value: str | Sequence[str]) -> Turn:
    """A turn from JSON (list of 1-2 pick strings) or text (``"tempura tempura"``)."""
    items = value.replace(",", " ").split() if isinstance(value, str) else list(value)
    if not 1 <= len(items) <= 2:
        raise NotationError(
            f"a turn takes one card, or two with chopsticks; got {len(items)}: {value!r}"
        )
    for item in items:
        if not isinstance(item, str):
            raise NotationError(f"a pick must be a card name string, got {item!r}")
    return Turn(parse_pick(i) for i in items)


def format_turn(turn: tuple[Pick, ...]) -> list[str]:
    return [str(p) for p in turn]


def hand_counts(cards: Iterable[Card]) -> list[int]:
    counts = [0] * N_CARDS
    for c in cards:
        counts[int(c)] += 1
    return counts


@dataclass(frozen=True)
class TurnResult:
    """How a legal turn lands: the tokens it adds and whether chopsticks were used."""

    tokens: tuple[Token, ...]
    placed: tuple[bool, ...]  # per pick: did the nigiri go on a wasabi
    chopsticks: bool


def resolve_turn(
    hand: Sequence[int], tableau: Sequence[int], turn: tuple[Pick, ...], rules: Ruleset = OFFICIAL
) -> TurnResult:
    """Check a turn against the rules and say how it lands; raise IllegalMoveError if illegal.

    ``hand`` is the hand held (12 counts), ``tableau`` the player's tableau at
    the start of the turn (15 counts). Neither is changed.
    """
    if not 1 <= len(turn) <= 2:
        raise IllegalMoveError(f"a turn takes 1 or 2 cards, not {len(turn)} (R-CHOPSTICKS-ONCE)")
    left = list(hand)
    if len(turn) == 2:
        if tableau[_CHOP] < 1:
            raise IllegalMoveError(
                "took two cards without chopsticks in front of them from an earlier turn "
                "(R-CHOPSTICKS-EARLIER)"
            )
        if sum(hand) < 2:
            raise IllegalMoveError("took two cards from a hand of one card (R-PICK)")
    free = tableau[_WASABI]
    tokens: list[Token] = []
    placed: list[bool] = []
    for pick in turn:
        c = int(pick.card)
        if left[c] <= 0:
            raise IllegalMoveError(f"took {pick.card.label}, which was not in their hand (R-PICK)")
        left[c] -= 1
        on = False
        if c in _NIGIRI:
            if pick.wasabi is None:
                on = free > 0
            elif pick.wasabi:
                if free <= 0:
                    raise IllegalMoveError(
                        f"laid {pick.card.label} on a wasabi but had no free wasabi (R-WASABI-ONE)"
                    )
                on = True
            else:
                if free > 0 and rules.wasabi_automatic:
                    raise IllegalMoveError(
                        f"kept {pick.card.label} off a free wasabi; placement is automatic "
                        "(R-WASABI-PLACE)"
                    )
            if on:
                free -= 1
                tokens.append(Token(_STACK[c]))
            else:
                tokens.append(Token(c))
        else:
            tokens.append(Token(c))
            if c == _WASABI and rules.wasabi_same_turn:
                free += 1
        placed.append(on)
    return TurnResult(tuple(tokens), tuple(placed), len(turn) == 2)


def apply_turn(
    hand: list[int], tableau: list[int], turn: tuple[Pick, ...], rules: Ruleset = OFFICIAL
) -> TurnResult:
    """Play a turn in place: cards leave ``hand``, tokens join ``tableau``; chopsticks go back.

    Returns how the turn landed. Raises IllegalMoveError (and changes nothing) if illegal.
    """
    result = resolve_turn(hand, tableau, turn, rules)
    for pick in turn:
        hand[int(pick.card)] -= 1
    for t in result.tokens:
        tableau[int(t)] += 1
        if t in NIGIRI_OF:
            # The stack replaces the free wasabi it lies on (R-WASABI-ONE).
            tableau[_WASABI] -= 1
    if result.chopsticks:
        tableau[_CHOP] -= 1
        hand[_CHOP] += 1
    return result


def legal_turns(
    hand: Sequence[int], tableau: Sequence[int], rules: Ruleset = OFFICIAL, dedupe: bool = True
) -> list[Turn]:
    """Every legal turn, with explicit wasabi choices where placement is optional.

    With ``dedupe``, turns that leave the same tableau and the same hand are
    listed once (e.g. ``tempura salmon`` and ``salmon tempura``).
    """
    optional = not rules.wasabi_automatic
    free0 = tableau[_WASABI]
    kinds = [c for c in range(N_CARDS) if hand[c] > 0]

    def variants(c: int, free: int) -> list[Pick]:
        if c in _NIGIRI and free > 0:
            return [Pick(Card(c), True), Pick(Card(c), False)] if optional else [Pick(Card(c))]
        return [Pick(Card(c))]

    turns: list[tuple[Pick, ...]] = []  # bare tuples; each becomes a Turn on the way out
    for c in kinds:
        turns.extend((p,) for p in variants(c, free0))
    if tableau[_CHOP] >= 1 and sum(hand) >= 2:
        for c1 in kinds:
            for p1 in variants(c1, free0):
                free1 = free0
                if c1 in _NIGIRI and (p1.wasabi or (p1.wasabi is None and free0 > 0)):
                    free1 -= 1
                if c1 == _WASABI and rules.wasabi_same_turn:
                    free1 += 1
                for c2 in kinds:
                    if c2 == c1 and hand[c1] < 2:
                        continue
                    for p2 in variants(c2, free1):
                        turns.append((p1, p2))
    if not dedupe:
        return [Turn(t) for t in turns]
    seen: set[tuple[tuple[Token, ...], bool]] = set()
    out: list[Turn] = []
    for turn in turns:
        res = resolve_turn(hand, tableau, turn, rules)
        key = (tuple(sorted(res.tokens)), res.chopsticks)
        if key not in seen:
            seen.add(key)
            out.append(Turn(turn))
    return out


def turn_effects(
    hand: Sequence[int], chopsticks: bool, wasabi: int, rules: Ruleset = OFFICIAL
) -> list[tuple[Turn, tuple[int, ...], tuple[int, ...]]]:
    """Each legal turn (:func:`legal_turns` order) from ``hand`` with a chopsticks card in front
    or not and ``wasabi`` free wasabi: (turn, the hand it leaves, its change to the tableau, one
    count per token). A turn reads no more of the tableau than that, and two picks place at most
    two nigiri, so 2 free wasabi and more behave alike: callers that resolve turns once per
    (hand, chopsticks, free wasabi up to 2) and add the change to each tableau key on that."""
    tab = [0] * len(Token)
    tab[_WASABI], tab[_CHOP] = wasabi, int(chopsticks)
    out = []
    for turn in legal_turns(hand, tab, rules):
        left, new = list(hand), list(tab)
        apply_turn(left, new, turn, rules)
        out.append((turn, tuple(left), tuple(n - o for n, o in zip(new, tab, strict=True))))
    return out
