"""Turn rules of spec/turns.py against hand-worked cases from the rulebook (English text)."""

from __future__ import annotations

import pytest
from sushigo.spec.cards import Card, Token
from sushigo.spec.errors import IllegalMoveError, NotationError
from sushigo.spec.ruleset import RULESETS
from sushigo.spec.turns import Pick, apply_turn, hand_counts, legal_turns, parse_turn, resolve_turn

OFFICIAL = RULESETS["official"]


def hand(*cards: Card) -> list[int]:
    return hand_counts(cards)


def tableau(**named: int) -> list[int]:
    counts = [0] * len(Token)
    for name, n in named.items():
        counts[int(Token[name.upper()])] = n
    return counts


def test_nigiri_goes_on_free_wasabi_automatically() -> None:
    # Rulebook: a nigiri taken with a wasabi already in front of you goes on it.
    res = resolve_turn(hand(Card.SQUID), tableau(wasabi=1), parse_turn("squid"))
    assert res.tokens == (Token.WASABI_SQUID,)


def test_nigiri_without_wasabi_lies_alone() -> None:
    res = resolve_turn(hand(Card.SQUID), tableau(), parse_turn("squid"))
    assert res.tokens == (Token.SQUID,)


def test_each_wasabi_holds_one_nigiri() -> None:
    # One wasabi, already holding a squid: a new salmon lies alone.
    res = resolve_turn(hand(Card.SALMON), tableau(wasabi_squid=1), parse_turn("salmon"))
    assert res.tokens == (Token.SALMON,)


def test_two_cards_need_chopsticks_from_an_earlier_turn() -> None:
    with pytest.raises(IllegalMoveError, match="R-CHOPSTICKS-EARLIER"):
        resolve_turn(hand(Card.TEMPURA, Card.TEMPURA), tableau(), parse_turn("tempura tempura"))


def test_chopsticks_taken_this_turn_cannot_be_used_this_turn() -> None:
    with pytest.raises(IllegalMoveError, match="R-CHOPSTICKS-EARLIER"):
        resolve_turn(hand(Card.CHOPSTICKS, Card.TEMPURA), tableau(), parse_turn("chopsticks tempura"))


def test_chopsticks_go_back_into_the_hand_passed_on() -> None:
    h = hand(Card.TEMPURA, Card.TEMPURA, Card.EGG)
    t = tableau(chopsticks=1)
    apply_turn(h, t, parse_turn("tempura tempura"))
    assert h == hand(Card.EGG, Card.CHOPSTICKS)
    assert t == tableau(tempura=2)


def test_chopsticks_on_second_to_last_turn_leave_a_one_card_hand() -> None:
    h = hand(Card.SQUID, Card.EGG)
    t = tableau(chopsticks=1)
    apply_turn(h, t, parse_turn("squid egg"))
    assert h == hand(Card.CHOPSTICKS)
    assert t == tableau(squid=1, egg=1)


def test_wasabi_taken_first_holds_second_nigiri_under_official() -> None:
    # Designer ruling (RULES.md): the player orders the two cards, so the wasabi counts.
    res = resolve_turn(hand(Card.WASABI, Card.SQUID), tableau(chopsticks=1), parse_turn("wasabi squid"))
    assert res.tokens == (Token.WASABI, Token.WASABI_SQUID)


def test_wasabi_taken_first_does_not_count_when_strict() -> None:
    strict = RULESETS["wasabi-strict"]
    res = resolve_turn(
        hand(Card.WASABI, Card.SQUID), tableau(chopsticks=1), parse_turn("wasabi squid"), strict
    )
    assert res.tokens == (Token.WASABI, Token.SQUID)


def test_nigiri_never_goes_on_a_later_wasabi() -> None:
    res = resolve_turn(hand(Card.WASABI, Card.SQUID), tableau(chopsticks=1), parse_turn("squid wasabi"))
    assert res.tokens == (Token.SQUID, Token.WASABI)


def test_two_free_wasabi_take_two_nigiri_in_one_turn() -> None:
    res = resolve_turn(
        hand(Card.SQUID, Card.SALMON), tableau(wasabi=2, chopsticks=1), parse_turn("squid salmon")
    )
    assert res.tokens == (Token.WASABI_SQUID, Token.WASABI_SALMON)


def test_optional_placement_lets_nigiri_stay_off() -> None:
    optional = RULESETS["wasabi-optional"]
    res = resolve_turn(hand(Card.EGG), tableau(wasabi=1), parse_turn("egg:plain"), optional)
    assert res.tokens == (Token.EGG,)
    with pytest.raises(IllegalMoveError, match="R-WASABI-PLACE"):
        resolve_turn(hand(Card.EGG), tableau(wasabi=1), parse_turn("egg:plain"), OFFICIAL)


def test_explicit_placement_needs_a_free_wasabi() -> None:
    with pytest.raises(IllegalMoveError, match="R-WASABI-ONE"):
        resolve_turn(hand(Card.EGG), tableau(), parse_turn("egg:wasabi"))


def test_card_not_in_hand() -> None:
    with pytest.raises(IllegalMoveError, match="squid, which was not in their hand"):
        resolve_turn(hand(Card.EGG), tableau(), parse_turn("squid"))
    with pytest.raises(IllegalMoveError, match="R-PICK"):
        resolve_turn(hand(Card.EGG, Card.SQUID), tableau(chopsticks=1), parse_turn("egg egg"))


def test_illegal_turn_changes_nothing() -> None:
    h, t = hand(Card.EGG), tableau()
    with pytest.raises(IllegalMoveError):
        apply_turn(h, t, parse_turn("squid"))
    assert h == hand(Card.EGG) and t == tableau()


def test_legal_turns_lists_each_outcome_once() -> None:
    # Hand tempura+salmon with chopsticks: tempura, salmon, or both (either order lands the same).
    turns = legal_turns(hand(Card.TEMPURA, Card.SALMON), tableau(chopsticks=1))
    assert sorted(sorted(p.card.label for p in t) for t in turns) == [
        ["salmon"], ["salmon", "tempura"], ["tempura"],
    ]
    every = legal_turns(hand(Card.TEMPURA, Card.SALMON), tableau(chopsticks=1), dedupe=False)
    assert len(every) == 4


def test_legal_turns_keeps_orders_that_land_differently() -> None:
    # wasabi then squid stacks; squid then wasabi does not: both must be offered.
    turns = legal_turns(hand(Card.WASABI, Card.SQUID), tableau(chopsticks=1))
    doubles = {tuple(p.card.label for p in t) for t in turns if len(t) == 2}
    assert doubles == {("wasabi", "squid"), ("squid", "wasabi")}


def test_legal_turns_last_card_has_no_chopsticks_use() -> None:
    assert legal_turns(hand(Card.EGG), tableau(chopsticks=2)) == [(Pick(Card.EGG),)]


def test_optional_placement_offers_both_choices() -> None:
    turns = legal_turns(hand(Card.EGG), tableau(wasabi=1), RULESETS["wasabi-optional"])
    assert {t[0].wasabi for t in turns} == {True, False}


def test_every_legal_turn_resolves() -> None:
    h = hand(Card.WASABI, Card.SQUID, Card.SQUID, Card.CHOPSTICKS, Card.EGG)
    t = tableau(chopsticks=1, wasabi=1)
    for rules in RULESETS.values():
        for turn in legal_turns(h, t, rules, dedupe=False):
            resolve_turn(h, t, turn, rules)


@pytest.mark.parametrize("text", ["", "a b c", "squid:sideways", "tempura:wasabi"])
def test_bad_turn_notation(text: str) -> None:
    with pytest.raises(NotationError):
        parse_turn(text)


def test_stacked_wasabi_is_no_longer_free() -> None:
    # The stack replaces the wasabi it lies on: a second nigiri finds no free wasabi.
    h = hand(Card.SQUID, Card.SALMON)
    t = tableau(wasabi=1)
    apply_turn(h, t, parse_turn("squid"))
    assert t == tableau(wasabi_squid=1)
    apply_turn(h, t, parse_turn("salmon"))
    assert t == tableau(wasabi_squid=1, salmon=1)
