"""The one step engine (spec.game's option tables and moves, behind Game, spec.step and
play_game) against the reference: the executor's plain per-turn engine (iter_game, replay),
which checks and lands every pick with spec.turns and never uses the option tables.

Hypothesis draws seeds, rulesets (every named one, dummy-2p and pass-both-ways included),
player counts and policies; the engine's game must replay cleanly on the reference with the
very tableaux, scores, puddings and winners, and spec.step, driven with turns that are not the
listed objects (equal copies, the other order of a chopsticks turn, explicit wasabi choices),
must land each one as spec.turns.apply_turn does on plain count vectors.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from sushigo.spec.cards import NIGIRI, Card
from sushigo.spec.errors import IllegalMoveError
from sushigo.spec.executor import fast_random_games, iter_game, play_game, replay, seeded_deals
from sushigo.spec.game import Game
from sushigo.spec.ruleset import RULESETS, get_ruleset
from sushigo.spec.step import deal, gift_options, new_game, options, play
from sushigo.spec.turns import Pick, Turn, apply_turn, legal_turns

NAMES = sorted(RULESETS)


@st.composite
def games(draw: st.DrawFn) -> tuple[str, int, int]:
    name = draw(st.sampled_from(NAMES))
    players = 2 if RULESETS[name].dummy_2p else draw(st.integers(2, 5))
    return name, players, draw(st.integers(0, 2**32))


@settings(max_examples=60, deadline=None)
@given(games(), st.sampled_from(["random", "greedy"]))
def test_engine_games_replay_on_the_reference(game: tuple[str, int, int], policy: str) -> None:
    name, players, seed = game
    rules = get_ruleset(name)
    record = play_game(players, seed, rules, [policy] + ["random"] * (players - 1))
    again = replay(record)  # the reference engine re-executes every pick and re-scores
    assert again.ok, again.error
    assert again.record == record
    last = list(iter_game(players, seed, rules, [policy] + ["random"] * (players - 1)))[-1]
    assert last.scores == tuple(r.scores for r in record.rounds)
    assert last.puddings == record.puddings


@settings(max_examples=40, deadline=None)
@given(games())
def test_batch_and_game_give_the_reference_scores(game: tuple[str, int, int]) -> None:
    name, players, seed = game
    rules = get_ruleset(name)
    fast = fast_random_games(players, seed, 3, rules, tableaux=True)
    for g in fast:
        record = play_game(players, g.seed, rules)
        assert replay(record).ok
        assert (g.rounds, g.puddings, g.totals, g.winners) == (
            tuple(r.scores for r in record.rounds), record.puddings, record.totals, record.winners,
        )
        assert g.tableaux == tuple(tuple(t.counts for t in r.tableaux) for r in record.rounds)


def _variant(turn: Turn, rng: random.Random) -> Turn:
    """Another object for a turn: a copy, maybe with its two picks swapped (the same turn, a
    different one, or an illegal one: a nigiri laid on a wasabi taken after it)."""
    picks = list(turn)
    if len(picks) == 2 and rng.random() < 0.5:
        picks.reverse()
    return Turn(Pick(p.card, p.wasabi) for p in picks)


def _reference(hand: tuple[int, ...], tab: tuple[int, ...], turn: Turn, rules: object) -> tuple | None:
    """apply_turn on plain count vectors: (hand, tableau) after the turn, or None if illegal."""
    h, t = list(hand), list(tab)
    try:
        apply_turn(h, t, turn, rules)  # type: ignore[arg-type]
    except IllegalMoveError:
        return None
    return tuple(h), tuple(t)


@settings(max_examples=40, deadline=None)
@given(games(), st.integers(0, 2**16))
def test_step_lands_any_spelling_of_a_turn_as_apply_turn_does(game: tuple[str, int, int], salt: int) -> None:
    name, players, seed = game
    rules = get_ruleset(name)
    rng = random.Random(salt)
    step = new_game(players, rules)
    for hands in seeded_deals(rules, players, seed):
        step = deal(step, hands)
        while step.dealt:
            listed = [rng.choice(options(step, s)) for s in range(players)]
            ctrl = step.controller
            gift = None if ctrl is None else rng.choice(gift_options(step, listed[ctrl]))
            turns = [t if s == ctrl else _variant(t, rng) for s, t in enumerate(listed)]
            want = [_reference(step.hands[s], step.tableaux[s], turns[s], rules) for s in range(players)]
            if None in want:
                first = want.index(None)
                try:
                    play(step, turns, gift)
                except IllegalMoveError as exc:
                    assert f"player {first} " in str(exc)
                else:
                    raise AssertionError(f"player {first}'s illegal {turns[first]} was accepted")
                turns = listed
                want = [_reference(step.hands[s], step.tableaux[s], turns[s], rules) for s in range(players)]
            after = play(step, turns, gift)
            if ctrl is None and after.dealt:
                offset = rules.pass_offset(step.round_index) % players
                for s, landed in enumerate(want):
                    assert landed is not None
                    assert after.hands[(s + offset) % players] == landed[0]
                    assert after.tableaux[s] == landed[1]
            step = after
    assert step.over


def test_illegal_moves_get_the_same_errors_from_both_faces() -> None:
    """Game.apply and spec.step.play word an illegal turn alike (seat, round, turn, rule)."""
    game = Game.new(3, 5)
    step = deal(new_game(3), seeded_deals(get_ruleset("official"), 3, 5)[0])
    assert step.hands == tuple(game.hand(s) for s in range(3))
    missing = next(c for c in Card if game.hand(0)[int(c)] == 0)
    for bad in (Turn(()), Turn((Pick(missing),))):
        rest = [game.legal_actions(s)[0] for s in (1, 2)]
        errors = []
        for thunk in (lambda b=bad, r=rest: game.apply([b, *r]), lambda b=bad, r=rest: play(step, [b, *r])):
            try:
                thunk()
            except IllegalMoveError as exc:
                errors.append(str(exc))
        assert len(errors) == 2 and errors[0] == errors[1]
        assert errors[0].startswith("round 1, turn 1, player 0 ")


def test_a_listed_turn_of_another_seat_is_checked_not_trusted() -> None:
    """A listed turn object is taken on trust only for the seat whose list holds it."""
    game = Game.new(2, 3)
    theirs = next(t for t in game.legal_actions(1) if t not in game.legal_actions(0))
    try:
        game.apply([theirs, game.legal_actions(1)[0]])
    except IllegalMoveError as exc:
        assert "player 0" in str(exc) and "(R-PICK)" in str(exc)
    else:
        raise AssertionError("seat 0 took a card it does not hold")
    # and nigiri placement follows spec.turns when the turn is spelled by hand
    nigiri = [c for c in NIGIRI if game.hand(0)[int(c)]]
    for c in nigiri:
        hand, tab = list(game.hand(0)), list(game.tableau(0))
        apply_turn(hand, tab, Turn((Pick(c),)), game.rules)
        after = game.apply([Turn((Pick(c),)), game.legal_actions(1)[0]])
        assert after.tableau(0) == tuple(tab)
    assert legal_turns(game.hand(0), game.tableau(0), game.rules) == list(game.legal_actions(0))
