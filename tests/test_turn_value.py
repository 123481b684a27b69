"""A turn is a value with a text form that round-trips (issue 13 item 5), like ``Tableau``."""

from __future__ import annotations

import pickle

from hypothesis import given
from hypothesis import strategies as st
from sushigo.spec.cards import NIGIRI, Card
from sushigo.spec.errors import NotationError
from sushigo.spec.tableau import Tableau
from sushigo.spec.turns import Pick, Turn, format_turn, legal_turns, parse_turn

picks = st.sampled_from(list(Card)).flatmap(
    lambda c: st.builds(Pick, st.just(c), st.sampled_from([None, True, False]) if c in NIGIRI else st.none())
)
turns = st.lists(picks, min_size=1, max_size=2).map(Turn)


@given(turns)
def test_text_form_round_trips(turn: Turn) -> None:
    assert Turn.parse(str(turn)) == turn
    assert isinstance(Turn.parse(str(turn)), Turn)


@given(turns)
def test_json_form_round_trips(turn: Turn) -> None:
    assert parse_turn(format_turn(turn)) == turn
    assert str(turn) == " ".join(format_turn(turn))


@given(turns)
def test_a_turn_is_still_the_tuple_of_its_picks(turn: Turn) -> None:
    bare = tuple(turn)
    assert turn == bare and hash(turn) == hash(bare)
    assert {bare: 1}[turn] == 1
    assert pickle.loads(pickle.dumps(turn)) == turn
    assert eval(repr(turn), {"Turn": Turn}) == turn


def test_examples_from_the_notation() -> None:
    t = Turn.parse("wasabi squid")
    assert t == (Pick(Card.WASABI), Pick(Card.SQUID)) and str(t) == "wasabi squid"
    assert str(Turn.parse(["salmon:plain"])) == "salmon:plain"


def test_bad_text_is_a_notation_error() -> None:
    for text in ("", "squid egg tempura", "tempura:wasabi", "squid:maybe"):
        try:
            Turn.parse(text)
        except NotationError as exc:
            assert text in str(exc) or "turn" in str(exc)
        else:
            raise AssertionError(f"{text!r} parsed")


def test_legal_turns_are_turn_values() -> None:
    hand = [0] * len(Card)
    hand[int(Card.SQUID)] = 1
    hand[int(Card.TEMPURA)] = 2
    tab = Tableau.parse("chopsticks").card_counts()
    found = legal_turns(hand, list(tab))
    assert found and all(isinstance(t, Turn) for t in found)
    # by hand: one squid, one tempura, or (chopsticks) two tempura, or squid and tempura
    assert {" ".join(sorted(str(t).split())) for t in found} == {
        "squid", "tempura", "tempura tempura", "squid tempura"}
