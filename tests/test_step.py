"""spec.step drives the executor's game one move at a time: it must give the executor's games.

Independent path: the executor plays with its own policies (a spy policy records the
options it is offered); spec.step is then driven with the recorded deal and picks and
must offer the same options and land the same tableaux, scores and winners.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

import pytest
from sushigo.spec.cards import Card
from sushigo.spec.errors import IllegalMoveError, InputError
from sushigo.spec.executor import DUMMY_SEAT, play_game, seeded_deals
from sushigo.spec.policies import POLICIES, PlayerView
from sushigo.spec.record import GameRecord
from sushigo.spec.ruleset import RULESETS, get_ruleset
from sushigo.spec.step import Step, deal, gift_options, new_game, options, play
from sushigo.spec.turns import Pick, Turn

CASES = [(name, n) for name in RULESETS for n in ((2,) if RULESETS[name].dummy_2p else (2, 3, 4, 5))]


class Spy:
    """Random play that remembers every option list it was offered, in order."""

    name = "spy"
    seen: ClassVar[list[tuple[int, int, tuple[Turn, ...]]]] = []

    def choose(self, view: PlayerView, opts: Sequence[Turn], rng: random.Random) -> Turn:
        Spy.seen.append((view.seat, view.target, tuple(opts)))
        return opts[int(rng.random() * len(opts))]


def drive(record: GameRecord) -> tuple[Step, list[tuple[int, int, tuple[Turn, ...]]]]:
    """Play a record through spec.step; returns the end state and the options offered."""
    step = new_game(record.players, record.rules)
    offered: list[tuple[int, int, tuple[Turn, ...]]] = []
    for r, rnd in enumerate(record.rounds):
        step = deal(step, [list(h) for h in rnd.hands])
        for t, turns in enumerate(rnd.turns):
            gift = None
            for s in range(record.players):
                offered.append((s, s, tuple(options(step, s))))
                if s == step.controller:
                    gift = turns[DUMMY_SEAT]
                    offered.append((s, DUMMY_SEAT, tuple(gift_options(step, turns[s]))))
            step = play(step, turns[: record.players], gift)
            assert step.turn == (t + 1) % len(rnd.turns) or step.round_index == r + 1
        assert step.rounds[-1] == rnd.tableaux
        assert step.scores[-1] == rnd.scores
    return step, offered


@pytest.mark.parametrize(("name", "players"), CASES)
def test_step_plays_the_executors_games(name: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(POLICIES, "spy", Spy)
    rules = get_ruleset(name)
    for seed in range(6):
        Spy.seen = []
        record = play_game(players, seed, rules, ["spy"])
        step, offered = drive(record)
        assert step.over
        score = step.score()
        assert (score.totals, score.winners) == (record.totals, record.winners)
        assert score.puddings == record.puddings
        # the executor asks seats in order, the controller's dummy card right after its own turn
        assert offered == Spy.seen


def test_deal_is_the_executors_deal() -> None:
    rules = get_ruleset("pass-both-ways")
    record = play_game(3, 11, rules)
    assert [[list(h) for h in rnd.hands] for rnd in record.rounds] == seeded_deals(rules, 3, 11)


def test_bad_moves_name_the_seat_and_rule() -> None:
    step = deal(new_game(2), [[Card.TEMPURA] * 10, [Card.SASHIMI] * 10])
    with pytest.raises(IllegalMoveError, match=r"round 1, turn 1, player 1 took tempura.*\(R-PICK\)"):
        play(step, [(Pick(Card.TEMPURA),), (Pick(Card.TEMPURA),)])
    with pytest.raises(IllegalMoveError, match="R-CHOPSTICKS-EARLIER"):
        play(step, [(Pick(Card.TEMPURA), Pick(Card.TEMPURA)), (Pick(Card.SASHIMI),)])
    with pytest.raises(IllegalMoveError, match="no dummy"):
        play(step, [(Pick(Card.TEMPURA),), (Pick(Card.SASHIMI),)], (Pick(Card.SASHIMI),))
    with pytest.raises(IllegalMoveError, match="already dealt"):
        deal(step, [[Card.TEMPURA] * 10, [Card.SASHIMI] * 10])
    with pytest.raises(IllegalMoveError, match="a hand has 10"):
        deal(new_game(2), [[Card.TEMPURA] * 9, [Card.SQUID] * 10])
    with pytest.raises(IllegalMoveError, match="R-DECK"):
        deal(new_game(2), [[Card.SQUID] * 10, [Card.TEMPURA] * 10])  # the deck has 5 squid
    with pytest.raises(InputError, match="6 players"):
        new_game(6)


def test_dummy_turn_needs_the_dummys_card() -> None:
    rules = get_ruleset("dummy-2p")
    pile = [Card.EGG] + [Card.DUMPLING] * 8
    step = deal(new_game(2, rules), [[Card.TEMPURA] * 9, [Card.SASHIMI] * 9, pile])
    assert step.controller == 0
    assert step.hands[0][int(Card.EGG)] == 1  # drew the pile's top card
    with pytest.raises(IllegalMoveError, match="needs the dummy's card"):
        play(step, [(Pick(Card.TEMPURA),), (Pick(Card.SASHIMI),)])
    after = play(step, [(Pick(Card.EGG),), (Pick(Card.SASHIMI),)], (Pick(Card.TEMPURA),))
    assert after.controller == 1
    assert after.hands[1] == tuple(
        8 if c == Card.TEMPURA else 1 if c == Card.DUMPLING else 0 for c in Card
    )  # player 0's hand passed on (9 tempura + egg - egg - tempura for the dummy) + the next pile card
