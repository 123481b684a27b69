"""The step API: a game position as a value, driven one simultaneous turn at a time.

For game-AI builders who bring their own policy::

    game = Game.new(players=3, seed=7)
    while not game.over:
        actions = [my_policy(game.observation(s), game.legal_actions(s)) for s in range(game.players)]
        game = game.apply(actions)
    game.scores(), game.winners()

A :class:`Game` is immutable: :meth:`Game.apply` returns the next position and leaves the
old one as it was (so a search can keep and revisit positions). Positions are always
"waiting for every player's turn" or :attr:`Game.over`: the turn that empties the hands
also scores the round and deals the next one. The deal is the deal of
:func:`spec.executor.play_game` for the same seed, and :attr:`Game.policy_seed` seeds the
policies' generator the way play_game does, so a driver that calls the shipped policies in
seat order plays exactly the games of play_game (play_game itself is such a driver).

Both faces are positions of the one engine (:mod:`spec.engine`): its option tables list the
legal turns (:func:`spec.turns.legal_turns`, same order), its moves land them
(:func:`spec.turns.apply_turn`'s effect), pass the hands and score the rounds
(:func:`spec.scoring.round_totals`), and :class:`spec.engine.position.Position` advances the
game. Nothing is stated here but the two ways to move a position on.

Not covered: the dummy-2p variant (the dummy's turn is chosen by a controller mid-turn);
``Game.new`` refuses it and :func:`spec.executor.play_game` plays it on the engine's count-vector
face (:mod:`spec.step`).
"""

from __future__ import annotations

from collections.abc import Sequence

# Besides the faces, the names spec.game held when it was the whole engine, from their homes in
# spec.engine (importers of the old names keep working; new code imports spec.engine).
from sushigo.spec.engine.moves import land, pass_hands, round_end, score_round
from sushigo.spec.engine.options import Options, options_of
from sushigo.spec.engine.packed import Change, pack
from sushigo.spec.engine.position import Position
from sushigo.spec.engine.seats import DUMMY_SEAT, check_players, dummy_controller, seats_of
from sushigo.spec.engine.shuffle import fast_shuffled_deck, shuffled_deck
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.turns import Turn

__all__ = [
    "DUMMY_SEAT",
    "Change",
    "Game",
    "MutableGame",
    "Options",
    "check_players",
    "dummy_controller",
    "fast_shuffled_deck",
    "land",
    "pack",
    "pass_hands",
    "score_round",
    "seats_of",
    "shuffled_deck",
]
_options_of, _round_end = options_of, round_end  # solver.policies.ismcts imports these two
_new = object.__new__


class Game(Position):
    """One position of a game (not dummy-2p): immutable; :meth:`apply` gives the next one.

    Attributes: ``rules``, ``players``, ``seed``, ``policy_seed``, ``round_index`` (from 0),
    ``turn`` (turns played in this round), ``over``, ``round_scores`` (round totals per seat
    of the scored rounds), ``round_tableaux`` (final token counts per seat of those rounds).
    """

    __slots__ = ()

    @classmethod
    def new(cls, players: int, seed: int, rules: Ruleset = OFFICIAL) -> Game:
        """The position after the first deal of the game ``play_game(players, seed, rules)``."""
        return cls._start(players, seed, rules)

    def apply(self, actions: Sequence[Turn]) -> Game:
        """The position after every player took ``actions[seat]`` at once and passed their hand.

        Raises IllegalMoveError (naming the round, turn, player and rule) for an illegal turn;
        any legal turn is accepted, also one that legal_actions lists in another order.
        """
        nxt = _new(Game)
        nxt._setup, nxt.round_index, nxt.over = self._setup, self.round_index, False
        nxt.round_scores, nxt._round_tabs, nxt._kept = self.round_scores, self._round_tabs, self._kept
        self._advance(actions, nxt)
        return nxt

    def mutable(self) -> MutableGame:
        """A :class:`MutableGame` at this position (this one stays as it is)."""
        return self._copy(MutableGame)

    def __hash__(self) -> int:
        return hash(self._key())


class MutableGame(Position):
    """The fast face for self-play, where positions need not be kept: the same game as
    :class:`Game` (same deal, same options, same errors, same scores), but :meth:`step` moves
    this object on instead of making a new one. :meth:`snapshot` gives the position as a
    :class:`Game` to keep; ``Game.mutable()`` goes the other way. Unhashable.
    """

    __slots__ = ()

    @classmethod
    def new(cls, players: int, seed: int, rules: Ruleset = OFFICIAL) -> MutableGame:
        """The position after the first deal of the game ``play_game(players, seed, rules)``."""
        return cls._start(players, seed, rules)

    def step(self, actions: Sequence[Turn]) -> None:
        """Every player takes ``actions[seat]`` at once and passes their hand: as
        :meth:`Game.apply`, in place. An illegal turn raises IllegalMoveError (the text of
        ``Game.apply``) and leaves the position as it was."""
        self._advance(actions, self)

    def snapshot(self) -> Game:
        """This position as an immutable :class:`Game` (later steps do not change it)."""
        return self._copy(Game)
