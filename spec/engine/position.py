"""A game position on the engine: packed hands and tableaux, each seat's options found, and the
one loop that advances it (:meth:`Position._advance`: land every seat's turn, pass the hands,
find the next options; after a round's last turn score it, keep the puddings, deal the next).

The step API (:class:`spec.game.Game`, :class:`spec.game.MutableGame`) is this class with a
face: a new position per move, or the same one moved on. The deal is the deal of
:func:`spec.executor.play_game` for the same seed (:mod:`spec.engine.seats`).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import add, itemgetter
from typing import Self, TypeVar

from sushigo.spec.cards import Card
from sushigo.spec.engine.moves import land_turns, no_seat, round_end, seat_index, turns_given
from sushigo.spec.engine.options import Options, options_of
from sushigo.spec.engine.packed import (
    AT_LEAST_1,
    AT_LEAST_2,
    BITS,
    CHOP_STATE,
    DENSE,
    HIGH,
    N_CARDS,
    N_TOKENS,
    PATTERN_SHIFT,
    PUD_TOKEN,
    WC_FIELD,
    WC_SHIFT,
    unpack,
)
from sushigo.spec.engine.seats import Setup, seats_of
from sushigo.spec.errors import IllegalMoveError, InputError
from sushigo.spec.policies import PlayerView
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import winners
from sushigo.spec.tableau import HandCounts, TableauCounts
from sushigo.spec.turns import Turn

_CARDS: tuple[Card, ...] = tuple(Card)
_new = object.__new__
_setattr = object.__setattr__
_PUDDINGS_OF = itemgetter(PUD_TOKEN)
_P = TypeVar("_P", bound="Position")


class Position:
    """What :class:`Game` and :class:`MutableGame` share: the state of one game and every way to
    read it. The lists a position holds are never changed in place (a move makes new ones), so
    a snapshot may share them."""

    __slots__ = (
        "_hands", "_kept", "_opts", "_round_tabs", "_setup", "_tabs", "_view", "over", "round_index",
        "round_scores", "turn",
    )

    round_index: int
    turn: int
    over: bool
    round_scores: tuple[tuple[int, ...], ...]
    _round_tabs: tuple[Sequence[int], ...]  # the packed final tableaux of the scored rounds
    _setup: Setup
    _hands: Sequence[int]
    _tabs: Sequence[int]
    _kept: tuple[int, ...]
    _view: dict[str, object] | None  # the fields every seat's observation shares, once asked
    _opts: Sequence[Options]  # each seat's options, found when the position is made

    def __init__(self) -> None:
        raise TypeError(f"use {type(self).__name__}.new(players, seed, rules)")

    @classmethod
    def _start(cls, players: int, seed: int, rules: Ruleset) -> Self:
        seats = seats_of(rules, players)
        if rules.dummy_2p:
            raise InputError("the step API does not play the dummy-2p variant; use play_game for it")
        setup = Setup(seats, seed)
        game = _new(cls)
        game._setup, game.round_index, game.turn, game.over = setup, 0, 0, False
        game.round_scores, game._round_tabs, game._view = (), (), None
        game._kept = game._tabs = seats.empty
        game._hands = setup.hands(0)
        game._opts = options_of(seats.table, game._hands, game._tabs)
        return game

    def _copy(self, cls: type[_P]) -> _P:
        other = _new(cls)
        for name in Position.__slots__:
            _setattr(other, name, getattr(self, name))
        return other

    @property
    def rules(self) -> Ruleset:
        return self._setup.seats.rules

    @property
    def players(self) -> int:
        return self._setup.seats.players

    @property
    def seed(self) -> int:
        return self._setup.seed

    @property
    def policy_seed(self) -> int:
        """Seeds the policies' generator as play_game does: ``random.Random(game.policy_seed)``."""
        return self._setup.policy_seed

    def dealt(self, round_index: int) -> tuple[tuple[Card, ...], ...]:
        """The hands as dealt in a round (seat 0 first), in deal order."""
        setup = self._setup
        size, players = setup.seats.size, setup.seats.players
        first = round_index * players
        return tuple(
            tuple(_CARDS[c] for c in setup.deck[(first + s) * size : (first + s + 1) * size])
            for s in range(players)
        )

    def _seat(self, seat: int) -> int:
        return seat_index(seat, self._setup.seats.players)

    def hand(self, seat: int) -> HandCounts:
        """The hand ``seat`` holds now: 12 counts by Card, a tuple that prints in the notation."""
        seat = self._seat(seat)
        return HandCounts(unpack(self._hands[seat], N_CARDS))

    def tableau(self, seat: int) -> TableauCounts:
        """``seat``'s tableau this round: 15 counts by Token, a tuple that prints in the notation."""
        seat = self._seat(seat)
        return TableauCounts(unpack(self._tabs[seat], N_TOKENS))

    def legal_actions(self, seat: int) -> tuple[Turn, ...]:
        """The legal turns of ``seat``, in :func:`spec.turns.legal_turns` order (empty once over).
        A seat that is not one of the game's raises IllegalMoveError (:func:`seat_index`)."""
        try:
            if seat >= 0:
                return self._opts[seat].turns
        except (IndexError, TypeError):
            pass
        return self._opts[self._seat(seat)].turns  # an int-like seat, or IllegalMoveError

    def observation(self, seat: int) -> PlayerView:
        """What ``seat`` may know now (its hand, every tableau, puddings, finished rounds)."""
        # Seat checks at their cheapest: a plain int >= 0 is looked up, and one past the end
        # fails the look-up; anything else (int-likes, wrong types, negatives) goes to _seat.
        if type(seat) is not int or seat < 0:
            seat = self._seat(seat)
        try:
            hand = self._hands[seat]
        except IndexError:
            raise no_seat(seat, self._setup.seats.players) from None  # one past the end
        view = self._view
        if view is None:
            tabs = tuple([tuple(unpack(t, N_TOKENS)) for t in self._tabs])
            seats = self._setup.seats
            # The seats' shared fields, made once per position; each seat's view copies them.
            view = self._view = {
                "seat": seat, "target": seat, "players": seats.players,
                "round_index": self.round_index, "turn": self.turn, "hand": (), "tableaux": tabs,
                "puddings": tuple(map(add, self._kept, map(_PUDDINGS_OF, tabs))),
                "scores": self.round_scores, "rules": seats.rules,
            }
        # PlayerView is a frozen dataclass; its generated __init__ (one object.__setattr__ per
        # field) costs more than a whole decision, so the instance dict is set in one step.
        # tests/test_game.py checks the result equals PlayerView(...) built the usual way.
        fields = view.copy()
        fields["seat"] = fields["target"] = seat
        fields["hand"] = tuple(unpack(hand, N_CARDS))
        obs = _new(PlayerView)
        _setattr(obs, "__dict__", fields)
        return obs

    @property
    def round_tableaux(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """The final tableaux of the scored rounds: per round, per seat, 15 counts by Token."""
        return tuple(tuple(tuple(unpack(t, N_TOKENS)) for t in tabs) for tabs in self._round_tabs)

    def _advance(self, actions: Sequence[Turn], nxt: Position) -> None:
        """Make ``nxt`` the position after every seat took ``actions[seat]`` at once: land each turn,
        pass the hands and find each seat's options, or after the round's last turn score the
        round, keep the puddings and deal the next. ``nxt`` is this object, or a new one holding
        this position's round, turn, scores and puddings; it is written only after every turn
        landed, so an illegal turn (IllegalMoveError naming round, turn, player and rule)
        changes nothing."""
        if self.over:
            raise IllegalMoveError("the game is over; there are no more turns (R-ROUNDS)")
        seats = self._setup.seats
        try:
            given = len(actions)  # inline: this is every move's path; turns_given only raises
        except TypeError:
            given = turns_given(actions)
        if given != seats.players:
            raise IllegalMoveError(
                f"give one turn per player: got {given} for {seats.players} players"
            )
        # Two and three seats (the most common tables) land unrolled when every turn is a listed
        # object its hand holds (one HIGH test for all: a borrowed field sets its top bit): no
        # loop, no appends, and the hands are listed already passed. Anything else takes the loop.
        # Two seats also find their options unrolled and keep tuples (a position's hands, tableaux
        # and options are never changed in place, so any sequence does).
        players = seats.players
        hands: Sequence[int] | None = None
        tabs: Sequence[int] = ()
        if players == 2:
            (f0, f1), (a0, a1), (h0, h1) = self._opts, actions, self._hands
            c0, c1 = f0.change_of.get(id(a0)), f1.change_of.get(id(a1))
            if c0 is not None and c1 is not None and not ((m0 := h0 + c0[0]) | (m1 := h1 + c1[0])) & HIGH:
                b0, b1 = self._tabs
                b0 += c0[1]
                b1 += c1[1]
                if seats.offsets[self.round_index]:
                    m0, m1 = m1, m0
                turn: int | Turn  # the next turn's number here, a seat's turn in the loop below
                turn = self.turn + 1
                if turn < seats.size:
                    # both seats' options found inline (as in the loop below), no list built
                    plain = seats.plain
                    wc = (b0 >> WC_SHIFT) & WC_FIELD
                    once = ((m0 + AT_LEAST_1) & HIGH) >> 7
                    if wc < 256:
                        o0 = plain[wc > 0][once % DENSE]
                        if o0 is None:
                            o0 = seats.table._build(once | ((wc > 0) << PATTERN_SHIFT))
                    else:
                        key = once | (((m0 + AT_LEAST_2) & HIGH) >> 6) | CHOP_STATE[wc & 0xFF]
                        o0 = seats.by_pattern.get(key) or seats.table._build(key)
                    wc = (b1 >> WC_SHIFT) & WC_FIELD
                    once = ((m1 + AT_LEAST_1) & HIGH) >> 7
                    if wc < 256:
                        o1 = plain[wc > 0][once % DENSE]
                        if o1 is None:
                            o1 = seats.table._build(once | ((wc > 0) << PATTERN_SHIFT))
                    else:
                        key = once | (((m1 + AT_LEAST_2) & HIGH) >> 6) | CHOP_STATE[wc & 0xFF]
                        o1 = seats.by_pattern.get(key) or seats.table._build(key)
                    nxt._view = None
                    nxt.turn, nxt._hands, nxt._tabs, nxt._opts = turn, (m0, m1), (b0, b1), (o0, o1)
                    return
                hands, tabs = (m0, m1), (b0, b1)
        elif players == 3:
            (f0, f1, f2), (a0, a1, a2) = self._opts, actions
            (h0, h1, h2), (b0, b1, b2) = self._hands, self._tabs
            c0, c1, c2 = f0.change_of.get(id(a0)), f1.change_of.get(id(a1)), f2.change_of.get(id(a2))
            if (c0 is not None and c1 is not None and c2 is not None
                    and not ((m0 := h0 + c0[0]) | (m1 := h1 + c1[0]) | (m2 := h2 + c2[0])) & HIGH):
                offset = seats.offsets[self.round_index]
                hands = [m2, m0, m1] if offset == 1 else [m1, m2, m0] if offset else [m0, m1, m2]
                tabs = [b0 + c0[1], b1 + c1[1], b2 + c2[1]]
        if hands is None:
            moved_hands, new_tabs = land_turns(
                self._opts, self._hands, self._tabs, actions, seats.rules, self.round_index, self.turn
            )
            offset = seats.offsets[self.round_index]
            if offset:
                moved_hands = moved_hands[-offset:] + moved_hands[:-offset]  # pass_hands inlined
            hands, tabs = moved_hands, new_tabs
        nxt._view = None
        turn = self.turn + 1
        if turn < seats.size:
            nxt.turn, nxt._hands, nxt._tabs = turn, hands, tabs
            # _options_of inlined (the call and its set-up cost as much as a seat's look-up)
            table = seats.table
            plain = table.plain
            found_opts = []
            for hand, tab in zip(hands, tabs):  # noqa: B905 (one tableau per hand)
                wc = (tab >> WC_SHIFT) & WC_FIELD
                once = ((hand + AT_LEAST_1) & HIGH) >> 7
                if wc < 256:
                    found = plain[wc > 0][once % DENSE] or table._build(once | ((wc > 0) << PATTERN_SHIFT))
                else:
                    key = once | (((hand + AT_LEAST_2) & HIGH) >> 6)
                    key |= CHOP_STATE[wc & 0xFF]
                    found = table.by_pattern.get(key) or table._build(key)
                found_opts.append(found)
            nxt._opts = found_opts
            return
        rules = seats.rules
        totals, nxt._kept = round_end(tabs, self._kept, rules)
        nxt.round_scores = (*self.round_scores, totals)
        nxt._round_tabs = (*self._round_tabs, tabs)
        nxt.turn, nxt._tabs = 0, seats.empty
        if self.round_index + 1 < rules.rounds:
            nxt.round_index = self.round_index + 1
            nxt._hands = self._setup.hands(nxt.round_index)
            nxt._opts = options_of(seats.table, nxt._hands, nxt._tabs)
        else:
            nxt.over, nxt._hands, nxt._opts = True, seats.empty, seats.no_options

    def _where(self, seat: int) -> str:
        return f"round {self.round_index + 1}, turn {self.turn + 1}, player {seat}"

    @property
    def puddings(self) -> tuple[int, ...]:
        """Puddings per seat: kept from scored rounds plus this round's tableau."""
        field = BITS * PUD_TOKEN
        return tuple(k + ((t >> field) & 0xFF) for k, t in zip(self._kept, self._tabs, strict=True))

    def scores(self) -> tuple[int, ...]:
        """Points per seat so far: the scored rounds, plus the pudding points once the game is over."""
        seats = self._setup.seats
        if not self.over:
            return tuple([sum(column) for column in zip(*self.round_scores, strict=True)] or seats.empty)
        return tuple(map(sum, zip(*self.round_scores, seats.pudding_points(self._kept), strict=True)))

    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over (most points, then puddings, then winner_tie)."""
        if not self.over:
            return ()
        return tuple(winners(self.scores(), self._kept, self.rules, self.players))

    def _key(self) -> tuple[object, ...]:
        return (self.rules, self.players, self.seed, self.round_index, self.turn, tuple(self._hands),
                tuple(self._tabs), self._kept, self.round_scores)

    def __eq__(self, other: object) -> bool:
        """The same position of the same game, both a Game or both a MutableGame."""
        if type(other) is not type(self) or not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key()

    # no __hash__ here, so none is inherited: a Game defines one, a MutableGame (it changes) has none

    def __repr__(self) -> str:
        state = "over" if self.over else f"round {self.round_index + 1}, turn {self.turn + 1}"
        return f"<{type(self).__name__} {self.players} players, seed {self.seed}, {self.rules.name}: {state}>"
