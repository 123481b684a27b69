"""The fast face (spec.game.MutableGame) plays exactly the games of the immutable Game.apply.

Expected values come from Game.apply (itself held to the reference engine by test_game.py,
test_one_engine.py and the recorded digests) and, for the option look-up behind both faces,
from spec.turns.legal_turns/apply_turn on plain count vectors.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sushigo.spec.cards import Card, Token
from sushigo.spec.engine.moves import land
from sushigo.spec.engine.options import option_table
from sushigo.spec.engine.packed import BITS, DENSE, pack
from sushigo.spec.engine.seats import check_players
from sushigo.spec.errors import IllegalMoveError, InputError
from sushigo.spec.game import Game, MutableGame
from sushigo.spec.ruleset import RULESETS, get_ruleset
from sushigo.spec.turns import Pick, Turn, apply_turn, legal_turns

NAMES = sorted(n for n, r in RULESETS.items() if not r.dummy_2p)


@st.composite
def games(draw: st.DrawFn) -> tuple[str, int, int]:
    name = draw(st.sampled_from(NAMES))
    players = draw(st.integers(2, 5))
    check_players(get_ruleset(name), players)
    return name, players, draw(st.integers(0, 2**32))


def _read(game: Game | MutableGame) -> tuple[object, ...]:
    """Everything a driver can read from a position."""
    seats = range(game.players)
    return (
        game.rules, game.players, game.seed, game.policy_seed, game.round_index, game.turn, game.over,
        game.round_scores, game.round_tableaux, game.puddings, game.scores(), game.winners(),
        [game.hand(s) for s in seats], [game.tableau(s) for s in seats],
        [game.legal_actions(s) for s in seats], [game.observation(s) for s in seats],
        [game.dealt(r) for r in range(game.rules.rounds)],
    )


def _spelled(turn: Turn, rng: random.Random) -> Turn:
    """``turn``, or the same turn as another object: an equal copy, or a chopsticks pair reversed."""
    roll = rng.random()
    if roll < 0.1:
        return Turn(tuple(turn))
    if roll < 0.2 and len(turn) == 2:
        return Turn((turn[1], turn[0]))
    return turn


@settings(max_examples=50, deadline=None)
@given(games(), st.integers(0, 2**16))
def test_mutable_game_plays_the_games_of_apply(game: tuple[str, int, int], salt: int) -> None:
    name, players, seed = game
    rules = get_ruleset(name)
    position = Game.new(players, seed, rules)
    live = MutableGame.new(players, seed, rules)
    rng = random.Random(salt)
    kept: list[tuple[Game, Game]] = []
    while not position.over:
        assert _read(live) == _read(position)
        assert live.snapshot() == position
        kept.append((position, live.snapshot()))
        actions = [_spelled(rng.choice(position.legal_actions(s)), rng) for s in range(players)]
        try:
            after = position.apply(actions)
        except IllegalMoveError as exc:  # a reversed pair that spec.turns refuses in that order
            with pytest.raises(IllegalMoveError) as again:
                live.step(actions)
            assert str(again.value) == str(exc)
            actions = [position.legal_actions(s)[0] for s in range(players)]
            after = position.apply(actions)
        live.step(actions)
        position = after
    assert _read(live) == _read(position)
    # snapshots share nothing that later steps change
    assert all(snap == pos and _read(snap) == _read(pos) for pos, snap in kept)


def _bad_turns(game: Game) -> list[list[Turn]]:
    """Illegal turn lists for ``game`` (seat 0 errs; the others take their first option)."""
    players = game.players
    rest = [game.legal_actions(s)[0] for s in range(1, players)]
    hand = game.hand(0)
    missing = [c for c in Card if hand[int(c)] == 0]
    held = [c for c in Card if hand[int(c)] > 0]
    bad: list[list[Turn]] = [[Turn(()), *rest], [*rest]]
    if missing:
        bad.append([Turn((Pick(missing[0]),)), *rest])
    if len(held) >= 2 and game.tableau(0)[int(Token.CHOPSTICKS)] == 0:
        bad.append([Turn((Pick(held[0]), Pick(held[1]))), *rest])
    # listed objects of other seats that seat 0 may not take: trusted only where they are listed
    mine = game.legal_actions(0)
    for s in range(1, players):
        bad += [[t, *rest] for t in game.legal_actions(s) if t not in mine][:2]
    return bad


@settings(max_examples=40, deadline=None)
@given(games(), st.integers(0, 2**16), st.integers(0, 29))
def test_illegal_moves_raise_the_same_error_and_change_nothing(
    game: tuple[str, int, int], salt: int, stop: int
) -> None:
    name, players, seed = game
    position = Game.new(players, seed, get_ruleset(name))
    rng = random.Random(salt)
    for _ in range(stop):
        if position.over:
            break
        position = position.apply([rng.choice(position.legal_actions(s)) for s in range(players)])
    live = position.mutable()
    cases = _bad_turns(position) if not position.over else [[Turn((Pick(Card.TEMPURA),))] * players]
    for actions in cases:
        with pytest.raises(IllegalMoveError) as want:
            position.apply(actions)
        with pytest.raises(IllegalMoveError) as got:
            live.step(actions)
        assert str(got.value) == str(want.value)
        assert live.snapshot() == position and _read(live) == _read(position)


def test_mutable_game_refuses_what_game_refuses() -> None:
    for players, rules in ((2, get_ruleset("dummy-2p")), (9, get_ruleset("official"))):
        with pytest.raises(InputError) as want:
            Game.new(players, 1, rules)
        with pytest.raises(InputError) as got:
            MutableGame.new(players, 1, rules)
        assert str(got.value) == str(want.value)


def test_game_and_mutable_convert_both_ways() -> None:
    game = Game.new(4, 11)
    live = game.mutable()
    live.step([game.legal_actions(s)[0] for s in range(4)])
    assert game.turn == 0 and live.turn == 1  # the Game it came from is untouched
    assert live.snapshot() == game.apply([game.legal_actions(s)[0] for s in range(4)])
    with pytest.raises(TypeError):
        hash(live)


@pytest.mark.parametrize("rules_name", ["official", "wasabi-optional", "wasabi-strict"])
def test_a_listed_turn_is_taken_exactly_where_spec_turns_allows_it(rules_name: str) -> None:
    """The look-up by a listed turn's id (shared by every hand of a tableau state, checked by the
    hand's fields) against apply_turn: every listed turn object of every tableau state, offered
    to random hands in random tableaux, lands iff apply_turn accepts it, and as it lands it."""
    rules = get_ruleset(rules_name)
    table = option_table(rules)
    listed: list[Turn] = []
    for wasabi in range(3):
        for chopsticks in (0, 1):
            pieces = table.pieces(wasabi, chopsticks)
            listed += [t for ps in pieces.singles for t, _ in ps]
            listed += [t for ps in pieces.pairs for _, t, _ in ps]
    rng = random.Random(14)
    for _ in range(150):
        hand = [rng.choice((0, 0, 0, 1, 1, 2, 3)) for _ in Card]
        hand[rng.randrange(len(Card))] += 1
        tab = [0] * len(Token)
        tab[Token.WASABI] = rng.choice((0, 0, 1, 2, 3))
        tab[Token.CHOPSTICKS] = rng.choice((0, 1, 1, 2))
        found = table(pack(hand), pack(tab))
        assert list(found.turns) == legal_turns(hand, tab, rules)
        for turn in listed:
            h, t = list(hand), list(tab)
            try:
                apply_turn(h, t, turn, rules)
            except IllegalMoveError:
                with pytest.raises(IllegalMoveError):
                    land(found, pack(hand), pack(tab), turn, rules, "p")
            else:
                assert land(found, pack(hand), pack(tab), turn, rules, "p") == (pack(h), pack(t))


def test_every_set_of_kinds_has_its_own_plain_slot() -> None:
    """The plain option lists are indexed by the kinds held modulo DENSE: no two sets share one."""
    sets = [sum(1 << (BITS * c) for c in range(len(Card)) if mask >> c & 1) for mask in range(1 << len(Card))]
    assert len({s % DENSE for s in sets}) == len(sets) == 4096
