"""Party rounds played turn by turn (spec/party/turns.py): the uramaki race, miso collisions,
wasabi order, special orders, takeout flips, menus, chopsticks and spoons, and the readings
that act there. Expected values are the rulebook's (PARTY.md section 2, pages named), worked
by hand for each sequence of plays."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sushigo.spec.errors import InputError
from sushigo.spec.party.menus import parse_menu
from sushigo.spec.party.readings import party_rules
from sushigo.spec.party.scoring import check_round, score_round
from sushigo.spec.party.tableau import format_party_tableau, parse_party_tableau
from sushigo.spec.party.turns import TurnRound, play_round


def play(menu: str, turns: list[list[str]], *assign: str) -> TurnRound:
    rules = party_rules(assign)
    return play_round(turns, parse_menu(menu, uramaki=rules.uramaki_split), rules)


def cat(r: TurnRound, name: str) -> list[int]:
    return [p[name] for p in r.score.points]


def test_two_uramaki_finishers_at_12_both_score_8_and_5_is_never_paid() -> None:
    # RB p9's example: two players reach 12 in one turn, both score 8, the next place (5) is
    # skipped; the third, at 11 that turn, scores 2.
    r = play("points-platter", [["uramaki5", "uramaki5", "uramaki3"], ["uramaki4", "uramaki4", "uramaki4"],
                                ["uramaki3", "uramaki3", "uramaki4"]])
    assert cat(r, "uramaki") == [8, 8, 2]
    assert [format_party_tableau(t) for t in r.tableaux] == ["-", "-", "-"]  # all discarded


def test_uramaki_same_turn_order_by_icons_then_leftovers() -> None:
    # RB p9: seat 1 reaches 10 in turn 2 (8); seat 0 reaches 12 in turn 3 (5); at round end the
    # most remaining icons (seat 2's 5) take the next place (2).
    r = play("points-platter", [["uramaki5", "uramaki5", "uramaki5"], ["uramaki4", "uramaki5", "-"],
                                ["uramaki3", "-", "-"]])
    assert cat(r, "uramaki") == [5, 8, 2]


def test_uramaki_places_one_player_may_take_several() -> None:
    # RB p9: one player may take several places in a round
    r = play("points-platter", [["uramaki5", "-", "-"], ["uramaki5", "-", "-"], ["uramaki5", "-", "-"],
                                ["uramaki5", "-", "-"]])
    assert cat(r, "uramaki") == [8 + 5, 0, 0]


def test_uramaki_tie_many_reading() -> None:
    turns = [["uramaki5", "uramaki4", "uramaki4"], ["-", "uramaki3", "uramaki3"],
             ["uramaki5", "uramaki3", "uramaki3"], ["uramaki4", "-", "-"]]
    # three reach 10 in turn 3, all paid 8. use-places: three places used, seat 0's leftover 4
    # takes nothing; skip-one: two places used, the leftover 4 takes the 2.
    assert cat(play("points-platter", turns), "uramaki") == [8, 8, 8]
    assert cat(play("points-platter", turns, "uramaki_tie_many=skip-one"), "uramaki") == [10, 8, 8]


def test_uramaki_by_chopsticks_races_in_the_turn_or_after() -> None:
    menu = "uramaki,tempura,sashimi,dumpling,chopsticks,wasabi,pudding"
    turns = [["uramaki5", "uramaki5"], ["uramaki4", "uramaki4"], ["chopsticks-1", "-"],
             ["uramaki3 chopsticks-1:uramaki5", "uramaki3"]]
    # same-turn: at the turn's end seat 0 has 17, seat 1 12: 8 and 5.
    assert cat(play(menu, turns), "uramaki") == [8, 5]
    # after: both reach 12 by the normal plays, tied: 8 each, 5 skipped; the chopsticks' uramaki5
    # is left at round end and takes the next place, 2.
    assert cat(play(menu, turns, "uramaki_bonus_turn=after"), "uramaki") == [8 + 2, 8]


def test_miso_discarded_when_two_are_played_in_a_turn() -> None:
    # RB p11: two misos in one turn, by anyone and by any means (a special order here), are all
    # discarded; a miso alone scores 3
    r = play("dinner-for-two", [["miso", "miso"], ["miso", "tofu"], ["special-order:miso", "miso"]])
    assert cat(r, "miso") == [3, 0]
    r = play("dinner-for-two", [["miso", "tofu"], ["special-order:miso", "tofu"]])
    assert cat(r, "miso") == [6, 0]


def test_miso_by_chopsticks_collides_with_ones_own_miso() -> None:
    r = play("maki,tempura,sashimi,miso,chopsticks,wasabi,pudding",
             [["chopsticks-2", "-"], ["miso chopsticks-2:miso", "tempura"]])
    assert cat(r, "miso") == [0, 0]


def test_wasabi_takes_the_next_nigiri_and_copies_follow_the_rulings() -> None:
    # RB p15: the next nigiri goes on an empty wasabi (a chopsticks nigiri too); RB p14: a copy of
    # a wasabi starts empty; a copy of a plain nigiri goes on the empty wasabi (must)
    r = play("dinner-for-two", [["egg", "uramaki3"], ["special-order:egg", "tofu"]])
    assert cat(r, "nigiri") == [2, 0]
    r = play("sushi-go", [["wasabi", "wasabi"], ["chopsticks-1", "squid"],
                          ["egg chopsticks-1:salmon", "egg"]])
    assert cat(r, "nigiri") == [3 + 2, 9 + 1]
    menu = "maki,tempura,sashimi,dumpling,special-order,wasabi,pudding"
    r = play(menu, [["squid", "-"], ["wasabi", "-"], ["special-order:squid", "-"]])
    assert cat(r, "nigiri") == [3 + 9, 0]
    r = play(menu, [["squid", "-"], ["wasabi", "-"], ["special-order:squid", "-"]],
             "special_order_wasabi=may")
    assert cat(r, "nigiri") == [3 + 3, 0]
    r = play(menu, [["wasabi", "-"], ["special-order:wasabi", "-"], ["squid", "-"], ["egg", "-"]])
    assert cat(r, "nigiri") == [9 + 3, 0]


def test_takeout_flips_earlier_cards_to_2_each() -> None:
    # RB p15: flipped cards score 2 each; the takeout box is discarded
    r = play("master-menu", [["tofu", "temaki", "-"], ["tofu", "temaki", "-"], ["tofu", "temaki", "-"],
                             ["takeout-10:tofu,tofu,tofu", "-", "-"]])
    assert cat(r, "flipped") == [6, 0, 0] and cat(r, "tofu") == [0, 0, 0]
    with pytest.raises(InputError, match="no tofu from an earlier turn"):
        play("master-menu", [["tofu", "-", "-"], ["takeout-10:tofu,tofu", "-", "-"]])


def test_takeout_stack_reading() -> None:
    menu = "maki,tempura,sashimi,dumpling,takeout,wasabi,pudding"
    turns = [["wasabi", "-"], ["squid", "-"], ["takeout-11:squid", "-"], ["egg", "-"]]
    # apart: the squid flipped (2), the wasabi freed for the egg (3); together: both flipped (4), egg 1
    r = play(menu, turns)
    assert (cat(r, "flipped"), cat(r, "nigiri")) == ([2, 0], [3, 0])
    r = play(menu, turns, "takeout_stack=together")
    assert (cat(r, "flipped"), cat(r, "nigiri")) == ([4, 0], [1, 0])


def test_special_order_copies_and_the_copies_reading() -> None:
    menu = "maki,tempura,sashimi,dumpling,chopsticks,special-order,pudding"
    # a special order by chopsticks copying the tempura played by that turn's normal play
    turns = [["chopsticks-1", "-"], ["tempura chopsticks-1:special-order:tempura", "-"]]
    assert cat(play(menu, turns), "tempura") == [5, 0]
    with pytest.raises(InputError, match="no tempura already played"):
        play(menu, turns, "special_order_copies=earlier-turns")
    with pytest.raises(InputError, match="name the card it copies"):
        play(menu, [["tempura", "-"], ["special-order", "-"]])
    # nothing to copy: discarded (RB p14)
    r = play(menu, [["special-order", "-"]])
    assert r.score.totals == (0, 0) and format_party_tableau(r.tableaux[0]) == "-"


@pytest.mark.parametrize(("turns", "says"), [
    ([["tempura", "tempura"], ["tempura"]], "turn 2 has 1 plays, turn 1 had 2"),
    ([["tempura", "chopsticks-1:tempura"]], "chopsticks act after the turn's normal play"),
    ([["tempura", "tempura chopsticks-1:tempura"]], "no chopsticks-1 played on an earlier turn"),
    ([["takeout:tempura", "-"]], "give its corner number"),
    ([["tempora", "-"]], "did you mean 'tempura'"),
    ([["tempura eel", "-"]], "after the normal play come only chopsticks-N:CARD and spoon-N:CARD"),
    ([["tempura"] * 2] * 11, "hands of 10"),
    ([["chopsticks-1", "-"]] + [["-", "-"]] * 8 + [["tempura chopsticks-1:tempura", "-"]], "is the last"),
])
def test_a_turn_by_turn_round_that_does_not_line_up_is_one_line(turns: list[list[str]], says: str) -> None:
    menu = "maki,tempura,sashimi,dumpling,chopsticks,takeout,pudding"
    with pytest.raises(ValueError, match=says):  # InputError, or NotationError for a name
        play(menu, turns)


def test_bonus_actions_reading() -> None:
    menu = "maki,tempura,sashimi,spoon,chopsticks,dumpling,pudding"
    turns = [["chopsticks-1", "tempura", "tempura"], ["spoon-4", "-", "-"],
             ["tempura chopsticks-1:tempura spoon-4:tempura", "-", "-"]]
    assert cat(play(menu, turns), "tempura") == [5, 0, 0]  # 3 tempura: one pair
    with pytest.raises(InputError, match="one bonus action a turn"):
        play(menu, turns, "bonus_actions=one")


def test_discarded_colours_reading() -> None:
    # a discarded miso pair gives tea a colour group of 2 only when discarded cards count
    menu = "maki,tempura,sashimi,miso,tea,wasabi,pudding"
    turns = [["miso", "miso"], ["miso", "-"], ["tea", "-"]]
    assert cat(play(menu, turns), "tea") == [1, 0]
    assert cat(play(menu, turns, "discarded_colours=yes"), "tea") == [2, 0]


def test_flipped_colour_reading() -> None:
    # three flipped cards: no colour (none), or one group of 3 for tea (one)
    menu = "maki,tempura,sashimi,dumpling,takeout,tea,pudding"
    turns = [["tempura", "-"], ["sashimi", "-"], ["dumpling", "-"],
             ["takeout-10:tempura,sashimi,dumpling", "-"], ["tea", "-"]]
    assert cat(play(menu, turns), "tea") == [1, 0]
    assert cat(play(menu, turns, "flipped_colour=one"), "tea") == [3, 0]
    assert cat(play(menu, turns), "flipped") == [6, 0]


def test_takeout_dessert_reading() -> None:
    menu = "maki,tempura,sashimi,dumpling,takeout,wasabi,pudding"
    turns = [["pudding", "-"], ["takeout-12:pudding", "-"]]
    r = play(menu, turns)
    assert cat(r, "flipped") == [2, 0] and r.score.desserts[0] == {}  # no longer a dessert
    with pytest.raises(InputError, match="takeout_dessert=keep"):
        play(menu, turns, "takeout_dessert=keep")


def test_uramaki_after_places_reading() -> None:
    # four players reach 10 one after another; the fourth finds no place left: keep (its uramaki
    # stay, and at round end the most icons take the next place, which is none) or discard
    menu = "points-platter"
    turns = [["uramaki5", "uramaki5", "uramaki5", "uramaki4"],
             ["uramaki5", "uramaki4", "uramaki3", "uramaki4"],
             ["-", "uramaki3", "-", "uramaki4"],
             ["-", "-", "uramaki3", "-"]]
    # turn 2: seat 0 at 10 (8); turn 3: seats 1 and 3 at 12, tied (5 each, 2 skipped);
    # turn 4: seat 2 at 11 with no place left
    r = play(menu, turns)
    assert cat(r, "uramaki") == [8, 5, 0, 5]
    assert format_party_tableau(r.tableaux[2]) == "uramaki3*2 uramaki5"
    r = play(menu, turns, "uramaki_after_places=discard")
    assert format_party_tableau(r.tableaux[2]) == "-"


def test_special_order_copies_chopsticks_a_flipped_card_and_a_dessert() -> None:
    menu = "maki,tempura,eel,dumpling,chopsticks,special-order,pudding"
    # RB p14: a copy of chopsticks is used later like them (and goes back to the hand)
    r = play(menu, [["chopsticks-2", "-"], ["special-order:chopsticks-2", "-"],
                    ["tempura special-order:chopsticks-2:tempura", "-"]])
    assert cat(r, "tempura") == [5, 0] and format_party_tableau(r.tableaux[0]) == "tempura*2 chopsticks-2"
    # a copy of a flipped card is flipped too
    r = play("maki,tempura,eel,dumpling,takeout,special-order,pudding",
             [["tempura", "-"], ["takeout-10:tempura", "-"], ["special-order:flipped", "-"]])
    assert cat(r, "flipped") == [4, 0]
    r = play(menu, [["pudding", "-"], ["special-order:pudding", "-"]])
    assert r.score.desserts[0] == {"pudding": 2}  # RB p14: the copy joins the desserts


def test_uramaki_by_a_menu_scores_at_once() -> None:
    # RB p13: an uramaki played through a menu also scores when it reaches 10
    r = play("dinner-for-two", [["uramaki5", "-"], ["menu-8:uramaki5", "uramaki3"]])
    assert cat(r, "uramaki") == [8, 5]  # seat 1's 3 icons left take the next place at round end


def test_uramaki_split_reading_changes_the_copies() -> None:
    # even: 4 uramaki5; mly32 (3 / 5 / 4): 4 uramaki5 still, 5 uramaki4; rysxtu (4 / 5 / 3): 3 uramaki5
    turns = [["uramaki5", "uramaki5"], ["uramaki5", "uramaki5"]]
    play("dinner-for-two", turns)
    with pytest.raises(InputError, match="4 uramaki5, more than the 3"):
        play("dinner-for-two", turns, "uramaki_split=rysxtu")


_PLAIN = ["egg", "salmon", "squid", "maki1", "maki2", "maki3", "tempura", "sashimi", "dumpling", "pudding"]


@given(st.lists(st.lists(st.sampled_from(_PLAIN), min_size=2, max_size=2), min_size=1, max_size=10))
@settings(max_examples=60, deadline=None)
def test_cards_without_turn_rules_score_the_same_turn_by_turn_or_as_tableaux(turns: list[list[str]]) -> None:
    """With no kind that acts during the turn, playing a round turn by turn must end in the tableaux
    of the cards played, scored as those tableaux (two readings of the same round)."""
    menu = parse_menu("sushi-go")
    try:
        tableaux = [parse_party_tableau(" ".join(t[k] for t in turns)) for k in range(2)]
        check_round(tableaux, menu)
    except InputError:
        return  # more copies than the deck holds: both refuse
    r = play_round(turns, menu)
    assert r.tableaux == tuple(tableaux)
    assert r.score == score_round(tableaux, menu)
