"""The executor one step at a time: a game you drive from outside, as a value.

:func:`spec.executor.play_game` plays a game by calling policies; game frameworks
(OpenSpiel, PettingZoo) need the opposite: they hold the state and push moves
into it. :class:`Step` is that state, an immutable value, and four functions move
it on:

* :func:`new_game` - the table before the first deal;
* :func:`deal` - a round's hands (seat 0's block first; in dummy-2p the third block
  is the dummy pile, top card first), exactly the blocks :func:`spec.executor.play_game`
  deals from a shuffled deck;
* :func:`options` / :func:`gift_options` - the legal turns of a seat, and the
  dummy's legal cards (in :func:`spec.turns.legal_turns` order, the order the
  executor hands to its policies);
* :func:`play` - every seat's turn at once (and the dummy's card), checked and landed
  by :mod:`spec.turns`, then the hands are passed; the last turn of a round scores
  it with :mod:`spec.scoring`.

The flow is the executor's (see its module docstring): the dummy's controller at
turn ``t`` is :func:`spec.executor.dummy_controller`; it draws the pile's top card
into its hand when the turn starts, uses chopsticks only with at least 3 cards, and
used chopsticks rejoin the hand after the dummy's card is chosen. No rule is stated
here that the executor does not state; ``tests/test_step.py`` drives this module
with the executor's own policies and seeds and requires the very games
:func:`spec.executor.play_game` records.

One engine: a :class:`Step` is the count-vector face of :mod:`spec.engine`. The legal
turns are its option tables; every seat's turn (and the dummy's card) lands by its
:func:`~spec.engine.moves.land_turns`, the loop :meth:`spec.game.Game.apply` lands by too, the
hands pass by :func:`~spec.engine.moves.pass_hands` and a round is scored by
:func:`~spec.engine.moves.score_round`; what is added here is only what a seeded
:class:`~spec.game.Game` does not need: deals pushed in from outside and the controller's draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sushigo.spec.cards import Card
from sushigo.spec.engine.moves import (
    gift_tableau,
    is_turn,
    land_turns,
    pass_hands,
    score_round,
    seat_index,
    turns_given,
)
from sushigo.spec.engine.options import OptionTable
from sushigo.spec.engine.packed import N_CARDS, N_TOKENS, pack, unpack
from sushigo.spec.engine.seats import DUMMY_SEAT, check_players, dummy_controller, seats_of
from sushigo.spec.errors import IllegalMoveError
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.scoring import GameScore, score_game
from sushigo.spec.tableau import Tableau
from sushigo.spec.turns import Pick, Turn

__all__ = [
    "Step",
    "deal",
    "gift_hand",
    "gift_options",
    "new_game",
    "options",
    "play",
]

Counts = tuple[int, ...]


@dataclass(frozen=True)
class Step:
    """The table between two moves.

    ``hands[seat]`` is what the seat holds when it chooses (a controller's hand
    already holds the card it drew); in dummy-2p ``hands[2]`` is the rest of the
    pile as counts and ``pile`` its order, top first.
    """

    rules: Ruleset
    players: int
    round_index: int  # from 0; == rules.rounds when the game is over
    turn: int  # turns played in this round
    dealt: bool  # the current round's hands are on the table
    deck: Counts  # undealt cards by Card
    hands: tuple[Counts, ...]
    pile: tuple[Card, ...]
    tableaux: tuple[Counts, ...]  # 15 token counts per seat, this round
    rounds: tuple[tuple[Tableau, ...], ...]  # final tableaux of the scored rounds
    scores: tuple[Counts, ...]  # round totals of the scored rounds
    kept: Counts  # puddings kept from scored rounds, per seat

    def __deepcopy__(self, memo: object) -> Step:
        return self  # immutable: frameworks that deep-copy states may share it

    @property
    def seats(self) -> int:
        return self.rules.seats(self.players)

    @property
    def hand_size(self) -> int:
        return self.rules.hand_size(self.players)

    @property
    def over(self) -> bool:
        return self.round_index >= self.rules.rounds

    @property
    def controller(self) -> int | None:
        """The seat controlling the dummy this turn (dummy-2p), else None."""
        if not self.rules.dummy_2p or not self.dealt:
            return None
        return dummy_controller(self.turn)

    def score(self) -> GameScore:
        """The score of the rounds played so far (the final score once :attr:`over`)."""
        return score_game(list(self.rounds), self.rules, players=self.players)


def new_game(players: int, rules: Ruleset = OFFICIAL) -> Step:
    """The table before the first deal; raises InputError for a player count the rules forbid."""
    check_players(rules, players)
    seats = rules.seats(players)
    return Step(
        rules=rules,
        players=players,
        round_index=0,
        turn=0,
        dealt=False,
        deck=tuple(rules.deck),
        hands=tuple((0,) * N_CARDS for _ in range(seats)),
        pile=(),
        tableaux=tuple((0,) * N_TOKENS for _ in range(seats)),
        rounds=(),
        scores=(),
        kept=(0,) * seats,
    )


def _draw(step: Step) -> Step:
    """The controller of the turn about to start draws the pile's top card (dummy-2p)."""
    ctrl = step.controller
    if ctrl is None or not step.pile:
        return step
    hands = [list(h) for h in step.hands]
    top = int(step.pile[0])
    hands[ctrl][top] += 1
    hands[DUMMY_SEAT][top] -= 1
    return _replace(step, hands=tuple(tuple(h) for h in hands), pile=step.pile[1:])


def _replace(step: Step, **changes: object) -> Step:
    """``dataclasses.replace`` without re-running ``__init__`` (5x faster; every field is
    already valid, and frameworks replay thousands of games through here)."""
    new = object.__new__(Step)
    new.__dict__.update(step.__dict__, **changes)
    return new


def deal(step: Step, hands: Sequence[Sequence[Card]]) -> Step:
    """Start the next round with these hands (one block per seat, as the executor deals)."""
    if step.over:
        raise IllegalMoveError("the game is over; there is no round left to deal (R-ROUNDS)")
    if step.dealt:
        raise IllegalMoveError(f"round {step.round_index + 1} is already dealt (R-DEAL)")
    if len(hands) != step.seats:
        raise IllegalMoveError(f"a deal has {step.seats} hands, got {len(hands)} (R-DEAL)")
    deck = list(step.deck)
    counts = []
    for s, hand in enumerate(hands):
        if len(hand) != step.hand_size:
            raise IllegalMoveError(
                f"seat {s} was dealt {len(hand)} cards; a hand has {step.hand_size} (R-DEAL)"
            )
        c = [0] * N_CARDS
        for card in hand:
            c[int(card)] += 1
            deck[int(card)] -= 1
        counts.append(tuple(c))
    if min(deck) < 0:
        short = Card(deck.index(min(deck)))
        raise IllegalMoveError(f"the deal takes more {short.label} than the deck has left (R-DECK)")
    pile = tuple(Card(c) for c in hands[DUMMY_SEAT]) if step.rules.dummy_2p else ()
    dealt = _replace(step, dealt=True, turn=0, deck=tuple(deck), hands=tuple(counts), pile=pile)
    return _draw(dealt)


def _require_turn(step: Step) -> None:
    if step.over:
        raise IllegalMoveError("the game is over (R-ROUNDS)")
    if not step.dealt:
        raise IllegalMoveError(f"round {step.round_index + 1} is not dealt yet (R-DEAL)")


def options(step: Step, seat: int) -> list[Turn]:
    """The legal turns of a player this turn (a controller may use chopsticks only with 3+ cards)."""
    _require_turn(step)
    seat = seat_index(seat, step.players)
    hand = step.hands[seat]
    found = list(_table(step)(pack(hand), pack(step.tableaux[seat])).turns)
    if seat == step.controller and sum(hand) < 3:
        found = [t for t in found if len(t) == 1]
    return found


def _table(step: Step) -> OptionTable:
    return seats_of(step.rules, step.players).table


def gift_hand(step: Step, turn: tuple[Pick, ...]) -> Counts:
    """What the controller holds when choosing the dummy's card after ``turn``: the hand without
    the cards taken (chopsticks used by ``turn`` rejoin it only after the dummy's card)."""
    ctrl = step.controller
    if ctrl is None:
        raise IllegalMoveError("no seat controls a dummy this turn (R-DUMMY)")
    left = list(step.hands[ctrl])
    for pick in turn:
        left[int(pick.card)] -= 1
    return tuple(left)


def gift_options(step: Step, turn: tuple[Pick, ...]) -> list[Turn]:
    """The cards the controller may give the dummy after taking ``turn`` (single picks only)."""
    stub = gift_tableau(pack(step.tableaux[DUMMY_SEAT]))
    return list(_table(step)(pack(gift_hand(step, turn)), stub).turns)


def play(step: Step, turns: Sequence[tuple[Pick, ...]], gift: tuple[Pick, ...] | None = None) -> Step:
    """Every player's turn at once (``turns[seat]``), plus the dummy's card in dummy-2p.

    Each turn is checked against the tableau as it lay at the start of the turn;
    raises IllegalMoveError naming the seat and the rule. Returns the table after
    the hands are passed (and, after the last turn of a round, after the scoring).
    """
    _require_turn(step)
    rules = step.rules
    given = turns_given(turns)
    if given != step.players:
        raise IllegalMoveError(f"a turn needs one move per player ({step.players}), got {given}")
    if gift is not None and not is_turn(gift):
        raise IllegalMoveError(f"the dummy's card must be a turn of one pick (gift_options), not {gift!r}")
    ctrl = step.controller
    if (gift is None) != (ctrl is None):
        need = "needs the dummy's card" if ctrl is not None else "has no dummy to give a card to"
        raise IllegalMoveError(f"round {step.round_index + 1}, turn {step.turn + 1} {need} (R-DUMMY)")
    table = _table(step)
    hands = [pack(h) for h in step.hands]
    tabs = [pack(t) for t in step.tableaux]
    found = [table(hands[s], tabs[s]) for s in range(step.players)]
    dummy = None if ctrl is None or gift is None else (ctrl, gift, table)
    hands, tabs = land_turns(found, hands, tabs, turns, rules, step.round_index, step.turn, dummy)
    moved = pass_hands(hands[: step.players], rules.pass_offset(step.round_index) % step.players)
    hands[: step.players] = moved
    after = _replace(
        step,
        turn=step.turn + 1,
        hands=tuple(tuple(unpack(h, N_CARDS)) for h in hands),
        tableaux=tuple(tuple(unpack(t, N_TOKENS)) for t in tabs),
    )
    if any(hands):
        return _draw(after)
    return _score_round(after, tabs)


def _score_round(step: Step, tabs: Sequence[int]) -> Step:
    totals, vectors, kept = score_round(tabs, step.kept, step.rules)
    return _replace(
        step,
        round_index=step.round_index + 1,
        turn=0,
        dealt=False,
        rounds=(*step.rounds, tuple(Tableau(v) for v in vectors)),
        scores=(*step.scores, totals),
        kept=kept,
        tableaux=tuple((0,) * N_TOKENS for _ in range(step.seats)),
    )
