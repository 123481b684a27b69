"""Party's kinds, readings and round/game scoring (spec/party/{kinds,readings,tableau,scoring}.py).

Every expected number is the rulebook's as ../shared/PARTY.md section 2 gives it (page named
in each case), worked by hand here, never read back from the code under test.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sushigo.spec.errors import InputError, NotationError, RulesError
from sushigo.spec.party.kinds import CARD_KIND, KIND, KINDS
from sushigo.spec.party.menus import TILES, parse_menu
from sushigo.spec.party.readings import DEFAULT, READINGS, party_rules
from sushigo.spec.party.scoring import check_round, score_game, score_round
from sushigo.spec.party.tableau import Item, Part, format_party_tableau, parse_party_tableau

# (source, menu, tableaux, rule assignments, category, expected points per seat)
PINNED: list[tuple[str, str, list[str], list[str], str, list[int]]] = [
    ("RB p8 maki example: totals 5, 5, 3, 1 score 6, 6, 3, 0", "sushi-go",
     ["maki3 maki2", "maki2*2 maki1", "maki3", "maki1"], [], "maki", [6, 6, 3, 0]),
    ("RB p8 maki, 6-8 players: 6 / 4 / 2 by distinct totals", "sushi-go",
     ["maki3", "maki2", "maki1", "maki1", "-", "-"], [], "maki", [6, 4, 2, 2, 0, 0]),
    ("RB p8 maki, 2-5 players: 6 / 3, no maki no place", "sushi-go", ["maki2", "-", "maki1"], [], "maki",
     [6, 0, 3]),
    ("RB p8 nigiri 1 / 2 / 3, triple on a wasabi", "sushi-go", ["egg salmon squid", "wasabi+squid wasabi"],
     [], "nigiri", [6, 9]),
    ("RB p8 temaki: most +4, fewest (none counts) -4", "party-sampler", ["temaki*3", "temaki", "-"], [],
     "temaki", [4, 0, -4]),
    ("RB p8 temaki: with 2 players nobody loses", "party-sampler", ["temaki*2", "temaki"], [], "temaki",
     [4, 0]),
    ("RB p11 tempura 5 a pair, the third alone nothing", "sushi-go",
     ["tempura*3", "tempura"], [], "tempura", [5, 0]),
    ("RB p11 sashimi 10 a three", "sushi-go", ["sashimi*3", "sashimi*2"], [], "sashimi", [10, 0]),
    ("RB p10 dumpling 1, 3, 6, 10, 15", "sushi-go", ["dumpling", "dumpling*3", "dumpling*4"], [], "dumpling",
     [1, 6, 10]),
    ("RB p10 eel: one -3, two or more 7", "cutthroat-combo", ["eel", "eel*2", "eel*3"], [], "eel",
     [-3, 7, 7]),
    ("RB p11 tofu: one 2, two 6, three or more 0", "cutthroat-combo", ["tofu", "tofu*2", "tofu*3"], [],
     "tofu", [2, 6, 0]),
    ("RB p10 onigiri example: circle, triangle and 2 squares score 9 + 1", "master-menu",
     ["onigiri-circle onigiri-triangle onigiri-square*2", "-", "-"], [], "onigiri", [10, 0, 0]),
    ("RB p10 onigiri: all four shapes 16", "master-menu",
     ["onigiri-circle onigiri-triangle onigiri-square onigiri-rectangle", "-", "-"], [], "onigiri",
     [16, 0, 0]),
    ("RB p10 edamame example: 3, 2 and 1 edamame score 6, 4, 2", "points-platter",
     ["edamame*3", "edamame*2", "edamame"], [], "edamame", [6, 4, 2]),
    ("RB p10 edamame: at most 4 a card (5 opponents hold some)", "points-platter",
     ["edamame*2", "edamame", "edamame", "edamame", "edamame", "edamame"], [], "edamame", [8, 4, 4, 4, 4, 4]),
    ("tile wording: at most 4 a round (edamame_cap=round)", "points-platter",
     ["edamame*3", "edamame*2", "edamame"], ["edamame_cap=round"], "edamame", [4, 4, 2]),
    ("RB p11 miso: 3 (the tableau keeps only misos not discarded)", "my-first-meal", ["miso", "-"], [],
     "miso", [3, 0]),
    ("RB p15 tea example: wasabi + squid + 2 salmon count as 4", "my-first-meal",
     ["wasabi+squid salmon*2 tea", "tea tempura"], [], "tea", [4, 1]),
    ("RB p15 tea: 1 for each card of the largest colour group, for each tea", "my-first-meal",
     ["tempura*3 tea*2", "-"], [], "tea", [6, 0]),
    ("RB p12 soy sauce: 4 a card to the most colours (ties all paid), the soy sauce counting",
     "cutthroat-combo", ["soy-sauce*2 eel", "soy-sauce tofu", "eel tofu"], [], "soy-sauce", [8, 4, 0]),
    ("RB p12 soy sauce: more colours without soy sauce leave the soy sauce unpaid", "cutthroat-combo",
     ["soy-sauce eel", "eel tofu temaki", "-"], [], "soy-sauce", [0, 0, 0]),
    ("RB p12 soy sauce: nobody played one, nobody scores", "cutthroat-combo", ["eel tofu", "eel", "-"], [],
     "soy-sauce", [0, 0, 0]),
    ("RB p15 takeout: a flipped card scores 2", "master-menu", ["flipped*3", "flipped:tofu", "-"], [],
     "flipped",
     [6, 2, 0]),
    ("RB p14 special order scores as an exact copy (two dumplings)", "points-platter",
     ["special-order:dumpling dumpling", "-", "-"], [], "dumpling", [3, 0, 0]),
    ("RB p9 uramaki left at round end: the most icons take the first unpaid place (8)", "points-platter",
     ["uramaki5 uramaki4", "uramaki4 uramaki3", "uramaki5 uramaki4"], [], "uramaki", [8, 0, 8]),
]


@pytest.mark.parametrize(("source", "menu", "tableaux", "assign", "category", "expected"), PINNED,
                         ids=[p[0][:60] for p in PINNED])
def test_pinned_round_points(source: str, menu: str, tableaux: list[str], assign: list[str], category: str,
                             expected: list[int]) -> None:
    m = parse_menu(menu)
    parsed = [parse_party_tableau(t) for t in tableaux]
    check_round(parsed, m)
    got = score_round(parsed, m, party_rules(assign))
    assert [p[category] for p in got.points] == expected, source


def _game(menu: str, rounds: list[list[str]], assign: list[str] = ()) -> object:  # type: ignore[assignment]
    m = parse_menu(menu)
    rules = party_rules(assign)
    for k, r in enumerate(rounds):
        check_round([parse_party_tableau(t) for t in r], m, k + 1)
    return score_game([score_round([parse_party_tableau(t) for t in r], m, rules) for r in rounds], m, rules)


@pytest.mark.parametrize(("menu", "desserts", "expected", "source"), [
    ("sushi-go", ["pudding*3", "pudding", "-"], [6, 0, -6], "RB p16 pudding: most +6, fewest -6"),
    ("sushi-go", ["pudding*3", "-"], [6, 0], "RB p16 pudding: with 2 players nobody loses"),
    ("my-first-meal", ["green-tea-ice-cream*4", "green-tea-ice-cream"], [12, 0],
     "RB p16 green tea ice cream: 12 a set of four, leftovers nothing"),
    ("master-menu", ["fruit-watermelon fruit-orange-pineapple", "fruit-orange fruit-orange-pineapple*2", "-"],
     # p0: watermelon 2 (1), orange 1 (0), pineapple 1 (0) = 1; p1: watermelon 0 (-2), orange 4 (6),
     # pineapple 2 (1) = 5; p2: no fruit, -2 for each fruit = -6 (RB p16, PARTY.md corrections 3)
     [1, 5, -6], "RB p16 fruit table -2, 0, 1, 3, 6, 10 per fruit"),
    ("master-menu", ["fruit-watermelon*2 fruit-watermelon-orange", "-", "-"], [10 - 2 + 0, -6, -6],
     "RB p16 fruit: 5 watermelon icons 10, orange 1 icon 0, no pineapple -2"),
])
def test_pinned_desserts_at_game_end(menu: str, desserts: list[str], expected: list[int],
                                     source: str) -> None:
    game = _game(menu, [desserts, ["-"] * len(desserts), ["-"] * len(desserts)])
    assert list(game.dessert_points) == expected, source  # type: ignore[attr-defined]


def test_fruit_none_reading_adds_a_separate_penalty() -> None:
    game = _game("master-menu", [["fruit-watermelon", "-", "-"]] + [["-"] * 3] * 2, ["fruit_none=-6"])
    assert list(game.dessert_points) == [1 - 2 - 2, -12, -12]  # type: ignore[attr-defined]


def test_winner_tie_broken_by_dessert_cards() -> None:
    # RB p7: equal points, the most dessert cards wins. Seat 0: sashimi 10 + most puddings 6 = 16;
    # seat 1: 4 tempura 10 + 3 dumplings 6 + no pudding (2 players: the fewest lose nothing) = 16.
    game = _game("sushi-go", [["sashimi*3 pudding*2", "tempura*4 dumpling*3"], ["-", "-"], ["-", "-"]])
    assert list(game.totals) == [16, 16]  # type: ignore[attr-defined]
    assert list(game.winners) == [0]  # type: ignore[attr-defined]
    # equal points and equal dessert cards: shared (final_tie=shared)
    game = _game("sushi-go", [["sashimi*3 pudding", "tempura*2 pudding"], ["-", "tempura*2"], ["-", "-"]])
    assert list(game.totals) == [16, 16]  # type: ignore[attr-defined]  # 10 + 6, 5 + 5 + 6 (all tied: +6)
    assert list(game.winners) == [0, 1]  # type: ignore[attr-defined]


def test_final_tie_reading() -> None:
    rounds = [["sashimi*3", "tempura*2"], ["-", "tempura*2"], ["-", "-"]]
    assert list(_game("sushi-go", rounds).winners) == [0, 1]  # type: ignore[attr-defined]
    assert list(_game("sushi-go", rounds, ["final_tie=first-seat"]).winners) == [0]  # type: ignore[attr-defined]


@pytest.mark.parametrize(("value", "expected"), [
    ("both", [0, 0, 0]), ("nothing", [0, 0, 0]), ("most", [4, 4, 4]), ("most-unless-none", [4, 4, 4])])
def test_temaki_all_tied_readings(value: str, expected: list[int]) -> None:
    m = parse_menu("party-sampler")
    got = score_round([parse_party_tableau("temaki")] * 3, m, party_rules([f"temaki_all_tied={value}"]))
    assert [p["temaki"] for p in got.points] == expected


def test_colour_readings_for_flipped_cards_and_special_orders() -> None:
    m = parse_menu("points-platter")  # special order and tea on the menu
    t = parse_party_tableau("tea dumpling special-order:dumpling")
    # copied: the special order is a dumpling's blue, a group of 2; rainbow: groups of 1
    assert score_round([t, (), ()], m).points[0]["tea"] == 2
    assert score_round([t, (), ()], m, party_rules(["special_order_colour=rainbow"])).points[0]["tea"] == 1


def test_tea_desserts_reading() -> None:
    m = parse_menu("my-first-meal")
    t = parse_party_tableau("tea green-tea-ice-cream*3 tempura*2")
    assert score_round([t, ()], m).points[0]["tea"] == 3
    assert score_round([t, ()], m, party_rules(["tea_desserts=no"])).points[0]["tea"] == 2


def test_every_kind_is_one_definition_tied_to_its_tile() -> None:
    assert [k.tile for k in KINDS] == list(TILES)
    assert set(CARD_KIND) == {c for t in TILES.values() for c, _ in t.cards}
    # the names for the cards
    names = ("egg salmon squid wasabi maki1 maki2 maki3 temaki uramaki3 uramaki4 uramaki5 tempura sashimi "
             "dumpling eel tofu onigiri-circle onigiri-triangle onigiri-square onigiri-rectangle edamame "
             "miso chopsticks spoon menu takeout special-order soy-sauce tea pudding green-tea-ice-cream "
             "fruit-watermelon fruit-orange fruit-pineapple fruit-watermelon-orange "
             "fruit-watermelon-pineapple fruit-orange-pineapple chopsticks-2").split()
    for name in names:
        assert format_party_tableau(parse_party_tableau(name)) == name
    # PARTY.md corrections 2: every kind its own colour, but nigiri and wasabi share yellow
    colours = [k.colour for k in KINDS]
    assert KIND["nigiri"].colour == KIND["wasabi"].colour and len(set(colours)) == len(colours) - 1
    assert len({k.rule for k in KINDS}) == len(KINDS)


def test_bad_input_is_one_line() -> None:
    with pytest.raises(NotationError, match="did you mean 'tempura'"):
        parse_party_tableau("tempora")
    with pytest.raises(NotationError, match="a stack is a wasabi under a nigiri"):
        parse_party_tableau("wasabi+tempura")
    m = parse_menu("sushi-go")
    with pytest.raises(InputError, match="eel is not on the menu sushi-go"):
        check_round([parse_party_tableau("eel"), ()], m)
    with pytest.raises(InputError, match="4 squid, more than the 3"):
        check_round([parse_party_tableau("squid*2"), parse_party_tableau("wasabi+squid squid")], m)
    with pytest.raises(InputError, match="more than the 5 left of the desserts"):
        check_round([parse_party_tableau("pudding*3"), parse_party_tableau("pudding*3")], m)
    with pytest.raises(InputError, match="spoon is not used with 2 players"):
        check_round([(), ()], parse_menu("master-menu"))
    with pytest.raises(RulesError, match="did you mean 'edamame_cap'"):
        party_rules(["edamame_caps=round"])
    with pytest.raises(RulesError, match="not a value of edamame_cap"):
        party_rules(["edamame_cap=turn"])


def test_readings_have_rulebook_leaning_defaults_and_texts() -> None:
    assert len(READINGS) >= 17
    for r in READINGS:
        assert getattr(DEFAULT, r.name) == r.default and len(r.values) >= 2 and all(t for _, t in r.support)


_ITEMS = st.sampled_from([Item(Part(c)) for c in CARD_KIND] + [Item(Part("squid"), Part("wasabi")),
                                                              Item(Part("special-order", "eel")),
                                                              Item(Part("", flipped=True)),
                                                              Item(Part("tofu", flipped=True))])


@given(st.lists(_ITEMS, max_size=12))
def test_notation_round_trips(items: list[Item]) -> None:
    text = format_party_tableau(items)
    assert format_party_tableau(parse_party_tableau(text)) == text
    assert sorted(map(str, parse_party_tableau(text))) == sorted(map(str, items))


@pytest.mark.parametrize(("value", "held", "expected"), [
    ("both", 1, [0, 0, 0]), ("nothing", 1, [0, 0, 0]), ("most", 1, [6, 6, 6]),
    ("most-unless-none", 1, [6, 6, 6]),
    ("both", 0, [0, 0, 0]), ("most", 0, [6, 6, 6]), ("most-unless-none", 0, [-6, -6, -6])])
def test_pudding_all_tied_readings(value: str, held: int, expected: list[int]) -> None:
    # every seat equal at game end (RB p16 does not say): each reading's points, worked by hand
    first = ["pudding" if held else "-"] * 3
    game = _game("sushi-go", [first, ["-"] * 3, ["-"] * 3], [f"pudding_all_tied={value}"])
    assert list(game.dessert_points) == expected  # type: ignore[attr-defined]


def test_a_document_mixes_tableau_rounds_and_turn_rounds() -> None:
    from sushigo.spec.party.document import read_party_document

    doc = {"menu": "dinner-for-two", "rounds": [
        ["tofu*2 fruit-watermelon", "miso"],
        {"turns": [["uramaki5", "uramaki5"], ["uramaki5", "uramaki4"], ["miso", "miso"]]},
        ["-", "fruit-orange*2"]]}
    game = read_party_document(doc)
    # round 1: tofu 6 / miso 3; round 2: seat 0 reaches 10 first (8), seat 1's 9 left take 5,
    # both misos of turn 3 discarded; game end: seat 0 watermelon 2 icons (1) -2 -2 = -3,
    # seat 1 orange 4 icons (6) -2 -2 = 2
    assert [r.score.totals for r in game.rounds] == [(6, 3), (8, 5), (0, 0)]
    assert game.score.dessert_points == (-3, 2) and game.score.totals == (11, 10)
    with pytest.raises(InputError, match="round 2 has 3 players, round 1 had 2"):
        read_party_document({"menu": "sushi-go", "rounds": [["-", "-"], ["-", "-", "-"]]})


_SEAT = st.lists(st.sampled_from(["temaki", "edamame", "tofu", "eel", "soy-sauce", "tea", "squid", "egg",
                                  "pudding"]), max_size=4).map(lambda cards: " ".join(cards) or "-")


@given(st.lists(_SEAT, min_size=3, max_size=5), st.integers(1, 4))
def test_rotating_the_seats_rotates_the_points(texts: list[str], shift: int) -> None:
    """No rule looks at seat numbers in a round: the points follow the tableaux around the table
    (temaki, edamame and soy sauce read the other seats)."""
    menu = parse_menu("temaki,edamame,tofu,eel,soy-sauce,tea,pudding")
    tableaux = [parse_party_tableau(t) for t in texts]
    try:
        check_round(tableaux, menu)
    except InputError:
        return
    shift %= len(tableaux)
    points = score_round(tableaux, menu).points
    assert score_round(tableaux[shift:] + tableaux[:shift], menu).points == points[shift:] + points[:shift]
