"""The one engine (spec.engine: option tables, moves, positions; behind Game, spec.step,
play_game, iter_game and replay) against the reference: the plain per-turn loop of
tests/plain_executor.py (the executor's loop before it moved onto the engine, kept verbatim),
which checks and lands every pick with spec.turns and never uses the engine.

Hypothesis draws seeds, rulesets (every named one, dummy-2p and pass-both-ways included),
player counts and policies; the engine's every snapshot of a game must be the reference's,
its records must re-execute on the reference with the very rounds, a tampered record must
fail at the same step with the same words on both, and spec.step, driven with turns that are
not the listed objects (equal copies, the other order of a chopsticks turn, explicit wasabi
choices), must land each one as spec.turns.apply_turn does on plain count vectors.
"""

from __future__ import annotations

import random

import plain_executor
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sushigo.solver.endgame import random_position
from sushigo.spec.cards import NIGIRI, Card, Token
from sushigo.spec.errors import IllegalMoveError
from sushigo.spec.executor import fast_random_games, iter_game, play_game, replay, seeded_deals
from sushigo.spec.game import Game
from sushigo.spec.record import GameRecord, RoundRecord
from sushigo.spec.ruleset import RULESETS, Ruleset, get_ruleset
from sushigo.spec.step import deal, gift_options, new_game, options, play
from sushigo.spec.turns import Pick, Turn, apply_turn, hand_counts, legal_turns

NAMES = sorted(RULESETS)


@st.composite
def games(draw: st.DrawFn) -> tuple[str, int, int]:
    name = draw(st.sampled_from(NAMES))
    players = 2 if RULESETS[name].dummy_2p else draw(st.integers(2, 5))
    return name, players, draw(st.integers(0, 2**32))


@settings(max_examples=60, deadline=None)
@given(games(), st.sampled_from(["random", "greedy"]))
def test_engine_games_are_the_reference_games(game: tuple[str, int, int], policy: str) -> None:
    name, players, seed = game
    rules = get_ruleset(name)
    policies = [policy] + ["random"] * (players - 1)
    record = play_game(players, seed, rules, policies)
    assert plain_executor.replay_rounds(record) == list(record.rounds)
    states = list(iter_game(players, seed, rules, policies))
    assert states == list(plain_executor.iter_game(players, seed, rules, policies))
    assert states[-1].scores == tuple(r.scores for r in record.rounds)
    assert states[-1].puddings == record.puddings
    again = replay(record)
    assert again.ok, again.error
    assert again.record == record


def _tamper(record: GameRecord, rng: random.Random) -> GameRecord:
    """The record with one turn changed: a pick of another card (maybe one not held), two seats'
    turns swapped, a pick added (a chopsticks turn, legal or not, or a two-card gift to the
    dummy), or a round's last turns cut off."""
    rounds = list(record.rounds)
    r = rng.randrange(len(rounds))
    turns = [list(step) for step in rounds[r].turns]
    t = rng.randrange(len(turns))
    seat = rng.randrange(len(turns[t]))
    how = rng.randrange(4)
    if how == 0:
        turns[t][seat] = Turn((Pick(rng.choice(list(Card))),))
    elif how == 1 and len(turns[t]) > 1:
        other = (seat + 1) % len(turns[t])
        turns[t][seat], turns[t][other] = turns[t][other], turns[t][seat]
    elif how == 2:
        turns[t][seat] = Turn((*turns[t][seat][:1], Pick(rng.choice(list(Card)))))
    else:
        del turns[t:]
    old = rounds[r]
    rounds[r] = RoundRecord(old.hands, tuple(tuple(s) for s in turns), old.tableaux, old.scores)
    return GameRecord(record.rules, record.seed, record.players, record.policies, tuple(rounds),
                      record.puddings, record.pudding, record.totals, record.winners)


@settings(max_examples=80, deadline=None)
@given(games(), st.integers(0, 2**16))
def test_a_tampered_record_fails_as_on_the_reference(game: tuple[str, int, int], salt: int) -> None:
    name, players, seed = game
    rules = get_ruleset(name)
    record = _tamper(play_game(players, seed, rules), random.Random(salt))
    want = plain_executor.replay_rounds(record)
    got = replay(record, scores=False)
    if isinstance(want, str):
        assert (got.ok, got.error) == (False, want)
    else:
        assert got.ok, got.error
        assert got.record is not None and list(got.record.rounds) == want


@settings(max_examples=40, deadline=None)
@given(games())
def test_batch_and_game_give_the_reference_scores(game: tuple[str, int, int]) -> None:
    name, players, seed = game
    rules = get_ruleset(name)
    fast = fast_random_games(players, seed, 3, rules, tableaux=True)
    for g in fast:
        record = play_game(players, g.seed, rules)
        assert plain_executor.replay_rounds(record) == list(record.rounds)
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


def _with_turn(record: GameRecord, r: int, t: int, seat: int, turn: Turn) -> GameRecord:
    old = record.rounds[r]
    turns = [list(step) for step in old.turns]
    turns[t][seat] = turn
    rounds = list(record.rounds)
    rounds[r] = RoundRecord(old.hands, tuple(tuple(s) for s in turns), old.tableaux, old.scores)
    return GameRecord(record.rules, record.seed, record.players, record.policies, tuple(rounds),
                      record.puddings, record.pudding, record.totals, record.winners)


def test_the_dummy_rules_fail_as_on_the_reference() -> None:
    """Dummy-2p records with a two-card gift, or with the controller of a round's last turn using
    its chopsticks on the drawn card and the one card left (none for the dummy): the same first
    error on both, and both R-DUMMY."""
    rules = get_ruleset("dummy-2p")
    size = rules.hand_size(2)
    seen = {"gift": 0, "chopsticks": 0}
    for seed in range(80):
        record = play_game(2, seed, rules)
        rng = random.Random(seed)
        r = rng.randrange(len(record.rounds))
        t = rng.randrange(size)
        gift = record.rounds[r].turns[t][2]
        cases = [("gift", _with_turn(record, r, t, 2, Turn((*gift, Pick(rng.choice(list(Card)))))))]
        last = size - 1
        ctrl = last % 2
        before = [s for s in iter_game(2, seed, rules) if s.round_index == r and s.phase == "turn"][last - 1]
        if before.tableaux[ctrl][int(Card.CHOPSTICKS)]:
            held = [Card(c) for c in range(len(Card)) for _ in range(before.hands[ctrl][c])]
            drawn = record.rounds[r].hands[2][last]
            both = Turn((Pick(held[0]), Pick(drawn)))
            cases.append(("chopsticks", _with_turn(record, r, last, ctrl, both)))
        for what, tampered in cases:
            want = plain_executor.replay_rounds(tampered)
            got = replay(tampered, scores=False)
            assert isinstance(want, str) and got.error == want
            assert got.rule_id == "R-DUMMY", got.error
            seen[what] += 1
    assert min(seen.values()) > 0, seen


def _plain_random_position(seed: int, players: int, cards_left: int, rules: Ruleset, rnd: int) -> tuple:
    """solver.endgame.random_position's draws on plain count lists (its loop before it moved onto
    the engine): hands, turns taken and tableaux."""
    rng = random.Random(seed)
    size = rules.hand_size(players)
    deck = [c for c in Card for _ in range(rules.copies(c))]
    if rnd > 1:
        puddings = []
        for _ in range(players):
            puddings.append(rng.randint(0, 2))
            rng.randint(0, 30)
        for _ in range(sum(puddings)):
            deck.remove(Card.PUDDING)
    rng.shuffle(deck)
    hands = [hand_counts(deck[p * size:(p + 1) * size]) for p in range(players)]
    tabs = [[0] * len(Token) for _ in range(players)]
    taken: list[list[Turn]] = [[] for _ in range(players)]
    for _ in range(size - cards_left):
        for p in range(players):
            found = legal_turns(hands[p], tabs[p], rules)
            turn = found[rng.randrange(len(found))]
            apply_turn(hands[p], tabs[p], turn, rules)
            taken[p].append(turn)
        offset = rules.pass_offset(rnd - 1)
        hands = [hands[(p - offset) % players] for p in range(players)]
    return tuple(map(tuple, hands)), tuple(map(tuple, taken)), tuple(map(tuple, tabs))


@pytest.mark.parametrize("name", NAMES)
def test_random_positions_are_played_as_on_plain_counts(name: str) -> None:
    """The endgame's random positions move on the engine (option tables, land, pass_hands): the
    same hands, turns and tableaux as legal_turns and apply_turn give from the same draws."""
    rules = get_ruleset(name)
    for players in (2,) if rules.dummy_2p else (2, 3, 5):
        for seed in range(12):
            k = 1 + seed % 4
            rnd = 1 + seed % rules.rounds
            pos = random_position(seed, players, k, rules, rnd)
            want = _plain_random_position(seed, players, k, rules, rnd)
            assert (pos.hands, pos.taken, pos.tableaux) == want
