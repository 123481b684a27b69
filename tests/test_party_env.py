"""Party a decision at a time (spec/party/step.py; issue 29 item 5).

Expected records come from the reference executor, :func:`play_party`: a game played through
the step API with the choices ``play_party``'s random chooser makes (its generator is seeded by
the game seed's first draw, executor docstring) must give ``play_party``'s record byte for byte;
a game with no seed whose chance decisions are answered with the seeded dealer's draws
(``random.shuffle``'s loop) must too. Games chosen otherwise are checked by
:func:`replay_party`, which re-executes a record on its own.
"""

from __future__ import annotations

import json
import random

import pytest
from sushigo.spec.errors import IllegalMoveError, InputError
from sushigo.spec.party.executor import play_party, replay_party
from sushigo.spec.party.menus import SUGGESTED, parse_menu
from sushigo.spec.party.step import CHANCE, ActionSpace, PartyActions, PartyStep, PlayPaths

#: Every suggested menu at the fewest and the most players it seats.
TABLES = [(name, n) for name in SUGGESTED for n in sorted({parse_menu(name).seats()[0],
                                                           parse_menu(name).seats()[-1]})]
#: Pairs of specials no suggested menu has: a special order copying chopsticks or a spoon, a takeout
#: box with a menu or chopsticks.
PAIRS = [("maki,tempura,sashimi,miso,chopsticks,special-order,pudding", 4),
         ("temaki,eel,tofu,miso,spoon,special-order,pudding", 3),
         ("uramaki,tempura,dumpling,eel,takeout,menu,fruit", 5),
         ("maki,onigiri,dumpling,tofu,takeout,chopsticks,green-tea-ice-cream", 2)]


def _text(record: object) -> str:
    return json.dumps(record.as_json())  # type: ignore[attr-defined]


def _chooser_rng(seed: int) -> random.Random:
    return random.Random(random.Random(seed).getrandbits(64))  # as play_party seeds its players


@pytest.mark.parametrize(("menu", "players"), TABLES + PAIRS)
def test_random_choices_give_play_partys_record(menu: str, players: int) -> None:
    for seed in (0, 7):
        rng = _chooser_rng(seed)
        step = PartyStep(menu, players, seed=seed, policies=["random"] * players)
        asked = set()
        while not step.over:
            assert step.decision is not None
            asked.add(step.decision.what)
            step.apply(rng.randrange(len(step.decision.options)))
        assert _text(step.record()) == _text(play_party(menu, players, seed, "random"))
        assert "chance" not in asked  # a seeded game's dealer asks nothing


@pytest.mark.parametrize(("menu", "players"), TABLES[::3])
def test_chance_answered_as_the_seeded_dealer_gives_the_same_game(menu: str, players: int) -> None:
    seed = 5
    dealer = random.Random(seed)
    dealer.getrandbits(64)  # the players' seed comes first
    rng = _chooser_rng(seed)
    step = PartyStep(menu, players, seed=None, policies=["random"] * players)
    chances = 0
    while not step.over:
        d = step.decision
        assert d is not None
        if d.what == "chance":
            assert d.seat == CHANCE and d.options == tuple(range(len(d.options)))
            chances += 1
            step.apply(dealer._randbelow(len(d.options)))
        else:
            step.apply(rng.randrange(len(d.options)))
    assert chances > 3 * 50  # every round's deck of more than 54 cards is shuffled
    want = play_party(menu, players, seed, "random").as_json()
    assert json.dumps({**step.record().as_json(), "seed": seed}) == json.dumps(want)


@pytest.mark.parametrize(("menu", "players"), TABLES + PAIRS)
def test_actions_in_the_fixed_space_play_legal_games(menu: str, players: int) -> None:
    rng = random.Random(players)
    step = PartyStep(menu, players, seed=3)
    acts = PartyActions(step)
    while not acts.over:
        legal = acts.legal_actions()
        assert legal and all(0 <= a < len(acts.space) for a in legal)
        if acts.phase == "normal":  # every option of the play is one path of numbers, none shared
            d = step.decision
            assert d is not None
            paths = PlayPaths(acts.space, d.options).paths
            assert len(set(paths)) == len(paths) == len(d.options)
        acts.apply(rng.choice(legal))
    result = replay_party(json.loads(_text(step.record())))
    assert result.ok, result.error


def test_a_clone_taken_mid_turn_plays_on_alone() -> None:
    """A clone at a menu's decision (resolution under way) and the original, given the same answers,
    end in the same record; the original's later answers do not reach the clone."""
    rng = random.Random(2)
    step = PartyStep("dinner-for-two", 4, seed=11)
    while not step.over and not (step.decision and step.decision.what == "menu"):
        assert step.decision is not None
        step.apply(rng.randrange(len(step.decision.options)))
    assert step.decision is not None and step.decision.what == "menu"
    twin = step.clone()
    state = rng.getstate()
    for s in (step, twin):
        rng.setstate(state)
        while not s.over:
            assert s.decision is not None
            s.apply(rng.randrange(len(s.decision.options)))
    assert _text(step.record()) == _text(twin.record())


def test_a_clone_shares_nothing_it_changes() -> None:
    """Clone at a play decision (the two share the table until a turn resolves), play the clone to
    the end its own way, then the original on: it ends as a game never cloned."""
    def play(step: PartyStep, rng: random.Random, stop: int | None = None) -> None:
        n = 0
        while not step.over and n != stop:
            assert step.decision is not None
            step.apply(rng.randrange(len(step.decision.options)))
            n += 1

    for menu, players in (("sushi-go", 5), ("dinner-for-two", 3), ("big-banquet", 8)):
        alone = PartyStep(menu, players, seed=4)
        play(alone, random.Random(9))
        step = PartyStep(menu, players, seed=4)
        rng = random.Random(9)
        play(step, rng, stop=3 * players + 1)  # into turn 4, a play decision
        assert step.decision is not None and step.decision.what == "play"
        play(step.clone(), random.Random(1))
        play(step, rng)
        assert _text(step.record()) == _text(alone.record())


def test_bad_answers_are_refused_and_nothing_moves() -> None:
    step = PartyStep("sushi-go", 3, seed=1)
    d = step.decision
    with pytest.raises(IllegalMoveError, match=r"options 0\.\."):
        step.apply(len(d.options) if d else 0)
    assert step.decision == d
    with pytest.raises(InputError, match="not over"):
        step.record()
    acts = PartyActions(step)
    with pytest.raises(IllegalMoveError, match="not legal now"):
        acts.apply(len(acts.space))
    with pytest.raises(InputError, match="menu"):
        PartyStep("cutthroat-combo", 2)  # the menu seats 3 or more


def test_the_action_space_names_every_card_and_the_takeout_all_flip() -> None:
    space = ActionSpace(parse_menu("master-menu"))
    assert "takeout-10:*" in space.names and "special-order:eel" not in space.names  # eel is not on it
    assert space.number("takeout-10:tofu,egg") == space.index["takeout-10:*"]
    assert space.names.count("no-bonus") == 1 and len(set(space.names)) == len(space)
