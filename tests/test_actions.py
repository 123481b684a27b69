"""sushigo.actions: one number per turn, the encoding the OpenSpiel and PettingZoo wrappers share."""

from __future__ import annotations

import pytest
from sushigo.spec.cards import Card, Token
from sushigo.spec.errors import InputError
from sushigo.spec.executor import iter_game
from sushigo.spec.ruleset import get_ruleset
from sushigo.spec.turns import Pick, apply_turn, legal_turns

from sushigo.actions import N_PICKS, NUM_ACTIONS, action_string, decode, encode, encode_all


def test_the_numbers_of_the_documented_encoding() -> None:
    # worked from the docstring: picks 0..11 by Card, 12..14 egg/salmon/squid kept plain,
    # pairs 15 + 15 * first + second
    assert NUM_ACTIONS == 240 and N_PICKS == 15
    assert encode((Pick(Card.TEMPURA),)) == 0
    assert encode((Pick(Card.CHOPSTICKS),)) == 11
    assert encode((Pick(Card.SQUID, True),)) == 8  # on the wasabi, as the bare pick
    assert encode((Pick(Card.EGG, False),)) == 12
    assert encode((Pick(Card.SQUID, False),)) == 14
    assert encode((Pick(Card.WASABI), Pick(Card.SQUID))) == 15 + 15 * 10 + 8
    assert encode((Pick(Card.SQUID), Pick(Card.WASABI))) == 15 + 15 * 8 + 10
    assert action_string(15 + 15 * 10 + 14) == "wasabi squid:plain"
    assert decode(239) == (Pick(Card.SQUID, False), Pick(Card.SQUID, False))


@pytest.mark.parametrize("bad", [-1, 240, 3.0, "4", True])
def test_a_number_outside_the_encoding_is_an_input_error(bad: object) -> None:
    with pytest.raises(InputError, match=r"is not a turn; actions are 0\.\.239"):
        decode(bad)


@pytest.mark.parametrize("name", ["official", "wasabi-optional", "wasabi-strict", "dutch"])
def test_every_legal_turn_round_trips_and_lands_the_same(name: str) -> None:
    """Over real games: each legal turn's number decodes to a turn that lands the same
    tableau and hand, and distinct turns get distinct numbers."""
    rules = get_ruleset(name)
    checked = 0
    for seed in range(8):
        for state in iter_game(3, seed, rules):
            if state.phase == "scored":
                continue
            for s in range(3):
                hand, tab = state.hands[s], state.tableaux[s]
                turns = legal_turns(hand, tab, rules)
                assert len(encode_all(turns)) == len(turns)
                for turn in turns:
                    h1, t1 = list(hand), list(tab)
                    h2, t2 = list(hand), list(tab)
                    apply_turn(h1, t1, turn, rules)
                    apply_turn(h2, t2, decode(encode(turn)), rules)
                    assert (h1, t1) == (h2, t2)
                    checked += 1
    assert checked > 1000


def test_wasabi_choices_are_two_actions_only_where_placement_is_optional() -> None:
    hand = [0] * len(Card)
    hand[int(Card.SQUID)] = 1
    tab = [0] * len(Token)
    tab[int(Token.WASABI)] = 1
    assert encode_all(legal_turns(hand, tab, get_ruleset("official"))) == [8]
    assert encode_all(legal_turns(hand, tab, get_ruleset("wasabi-optional"))) == [8, 14]
