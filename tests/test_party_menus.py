"""Sushi Go Party!'s menus, decks and player counts (spec/party/menus.py).

Every expected value is a fact of the rulebook as ../shared/PARTY.md gives it, with its page:
the box's 181 cards (p2), the 54-card deck (p2), the hand sizes (p5), the desserts per round
(p5), the tile limits (p4) and the player counts each suggested menu allows (p3-4 with the
tile limits), and is written here by hand, not computed by the code under test."""

from __future__ import annotations

import pytest
from sushigo.spec.errors import InputError
from sushigo.spec.party.menus import (
    SUGGESTED,
    TILES,
    URAMAKI_SPLITS,
    desserts_per_round,
    hand_size,
    parse_menu,
)


def test_the_box_holds_181_cards_on_22_menu_tiles() -> None:
    # p2: 181 cards, 22 menu tiles (the nigiri, always in play, has no tile to choose)
    assert sum(t.copies for t in TILES.values()) == 181
    assert len([t for t in TILES.values() if t.course != "nigiri"]) == 22


@pytest.mark.parametrize("name", list(SUGGESTED))
def test_every_suggested_menu_deals_54_cards_and_keeps_15_desserts_aside(name: str) -> None:
    menu = parse_menu(name)
    assert sum(n for _, n in menu.deck()) == 12 + 12 + 3 * 8 + 2 * 3 == 54
    assert sum(n for _, n in menu.desserts()) == 15
    assert len(menu.kinds) == 8 and menu.kinds[0] == "nigiri"


@pytest.mark.parametrize(("name", "low", "high"), [
    ("my-first-meal", 2, 8), ("sushi-go", 2, 8), ("party-sampler", 2, 6), ("master-menu", 3, 8),
    ("points-platter", 3, 6), ("cutthroat-combo", 3, 8), ("big-banquet", 3, 8), ("dinner-for-two", 2, 6)])
def test_the_player_counts_each_suggested_menu_allows(name: str, low: int, high: int) -> None:
    # "works well with 6-8" (big banquet) and "with 2" (dinner for two) are advice, not limits
    menu = parse_menu(name)
    assert menu.players() == (low, high)
    for players in range(2, 9):
        if low <= players <= high:
            parse_menu(name, players)
        else:
            with pytest.raises(InputError):
                parse_menu(name, players)


def test_hand_sizes_and_desserts_by_player_count() -> None:
    assert [hand_size(n) for n in range(2, 9)] == [10, 10, 9, 9, 8, 8, 7]
    assert [desserts_per_round(n) for n in range(2, 9)] == [(5, 3, 2)] * 4 + [(7, 5, 3)] * 3
    for bad in (1, 9, 0, True):
        with pytest.raises(InputError, match="2 to 8 players"):
            hand_size(bad)


def test_a_menu_spelled_out_is_the_suggested_one_in_any_order() -> None:
    spelled = parse_menu("pudding,Wasabi,dumpling,chopsticks,sashimi,tempura,maki")
    assert spelled.kinds == parse_menu("sushi-go").kinds
    assert parse_menu("nigiri,maki,tempura,sashimi,dumpling,chopsticks,wasabi,pudding").kinds == spelled.kinds
    aliases = parse_menu("maki,tempura,sashimi,miso-soup,wasabi,tea,ice-cream")
    assert aliases.kinds == parse_menu("my-first-meal").kinds


def test_the_numbered_specials_carry_their_corner_numbers() -> None:
    # chopsticks 1-3, spoon 4-6, menu 7-9, takeout box 10-12
    cards = [c for t in ("chopsticks", "spoon", "menu", "takeout") for c, _ in TILES[t].cards]
    assert cards == [f"{k}-{n}" for k, ns in (("chopsticks", (1, 2, 3)), ("spoon", (4, 5, 6)),
                                             ("menu", (7, 8, 9)), ("takeout", (10, 11, 12))) for n in ns]


@pytest.mark.parametrize(("split", "copies"),
                         [("even", (4, 4, 4)), ("rysxtu", (4, 5, 3)), ("mly32", (3, 5, 4))])
def test_the_uramaki_split_is_a_choice(split: str, copies: tuple[int, int, int]) -> None:
    menu = parse_menu("points-platter", uramaki=split)
    assert tuple(dict(menu.deck())[f"uramaki{k}"] for k in (3, 4, 5)) == copies
    assert set(URAMAKI_SPLITS) == {"even", "rysxtu", "mly32"}


@pytest.mark.parametrize(("text", "players", "says"), [
    ("sushi-go,", None, "empty name between commas"),
    ("sushi-goo", None, "did you mean 'sushi-go'"),
    ("maki,temaki,tempura,sashimi,dumpling,wasabi,pudding", None, "a menu holds 1 roll, this one 2"),
    ("maki,tempura,sashimi,dumpling,eel,wasabi,tea,pudding", None, "a menu holds 3 appetizers, this one 4"),
    ("maki,tempura,sashimi,dumpling,wasabi,pudding", None, "a menu holds 2 specials, this one 1"),
    ("maki,tempura,sashimi,dumpling,wasabi,tea,pudding,fruit", None, "a menu holds 1 dessert, this one 2"),
    ("maki,tempura,tempura,dumpling,wasabi,tea,pudding", None, "tempura is named twice"),
    ("maki,tempura,sashimi,dumplin,wasabi,tea,pudding", None, "did you mean 'dumpling'"),
    ("master-menu", 2, "spoon is not used with 2 players"),
    ("points-platter", 7, "is not used with 7 or 8 players"),
])
def test_a_bad_menu_is_one_line_naming_the_rule(text: str, players: int | None, says: str) -> None:
    with pytest.raises(InputError) as err:
        parse_menu(text, players)
    assert says in str(err.value) and "\n" not in str(err.value)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from sushigo.cli import main

    code = main(["rules", "--game", "party", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_game_party_json_gives_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    code, out, _ = _cli(capsys, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["game"] == "party" and doc["rounds"] == 3 and doc["players"] == [2, 8]
    assert doc["hand_sizes"]["8"] == 7 and doc["desserts_per_round"]["6"] == [7, 5, 3]
    menus = {m["name"]: m for m in doc["menus"]}
    assert menus["big-banquet"]["players"] == [3, 8] and menus["big-banquet"]["works_well_with"] == [6, 8]
    assert menus["dinner-for-two"]["players"] == [2, 6]
    assert sum(c["copies"] for t in doc["tiles"] for c in t["cards"]) == 181


def test_rules_game_party_menu_shows_its_deck(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    code, out, _ = _cli(capsys, "--menu", "cutthroat-combo", "--players", "5", "--json")
    menu = json.loads(out)["menu"]
    assert code == 0 and menu["hand_size"] == 9 and menu["desserts_per_round"] == [5, 3, 2]
    deck = {c["card"]: c["copies"] for c in menu["deck"]}
    # the nigiri 4/5/3, temaki 12, eel, tofu and miso 8 each, spoon 4-6 and soy sauce 3
    assert deck == {"egg": 4, "salmon": 5, "squid": 3, "temaki": 12, "eel": 8, "tofu": 8, "miso": 8,
                    "spoon-4": 1, "spoon-5": 1, "spoon-6": 1, "soy-sauce": 3}
    assert menu["desserts"] == [{"card": "pudding", "copies": 15}]


@pytest.mark.parametrize(("argv", "says"), [
    (["--menu", "master-menu", "--players", "2"], "spoon is not used with 2 players"),
    (["--catalogue"], "--catalogue is for the base game's rulesets"),
    (["--players", "3"], "needs --menu"),
    (["--menu", "sushi-go,pudding"], "sushi-go is a suggested menu"),
])
def test_rules_game_party_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                                           argv: list[str], says: str) -> None:
    code, out, err = _cli(capsys, *argv)
    assert code == 2 and out == "" and says in err and len(err.strip().splitlines()) == 1, err


def test_a_party_menu_without_game_party_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from sushigo.cli import main

    assert main(["rules", "--menu", "sushi-go"]) == 2
    assert "add --game party" in capsys.readouterr().err
