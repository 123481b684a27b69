"""``sushigo diff --game party``: a minimal witness for every single-reading variant of Party.

Issue 28, "Done when": for every reading of spec/party/readings.py and every value but the
default, ``diff --game party defaults NAME=VALUE`` finds a witness, and it is minimal. Each
witness is (1) pinned to the size worked by hand from the rules (below, with the page), (2)
re-scored through ``sushigo score --game party`` from the document it prints, under both
sides, and (3) proved minimal by a second, plainer enumeration: every round with fewer cards,
slot by slot with no seat symmetry and empty turns allowed, scores the same under both.
For the readings a final tableau shows, (4) Z3 proves no tableau of the witness's menu with fewer
cards scores differently, over every card of the menu.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from sushigo.solver.diff.party import (
    PLAYERS,
    PLAYS,
    PartyCase,
    case_menu,
    differs,
    party_diff,
    play_cards,
    play_kinds,
    single_variants,
)
from sushigo.spec.party.readings import DEFAULT, PartyRules

from sushigo.api.score import score_outcome
from sushigo.cli import main

#: (cards, players, turns) worked by hand from the rules, per variant.
HAND: dict[tuple[str, Any], tuple[int, int, int] | None] = {
    # 4 uramaki5 (or uramaki3) are in the even split's deck, 3 in rysxtu's (mly32's); PARTY.md copies
    ("uramaki_split", "rysxtu"): (4, 2, 2),
    ("uramaki_split", "mly32"): (4, 2, 2),
    # no temaki at all, all tied: with 2 players "both" is +4 each (nobody loses, RB p8)
    ("temaki_all_tied", "nothing"): (0, 2, 1),
    ("temaki_all_tied", "most"): (0, 3, 1),  # at 2 players both = most = +4: a third seat is needed
    ("temaki_all_tied", "most-unless-none"): (0, 2, 1),  # all hold none: -4 against +4
    ("pudding_all_tied", "nothing"): (0, 2, 1),
    ("pudding_all_tied", "most"): (0, 3, 1),
    ("pudding_all_tied", "most-unless-none"): (0, 2, 1),
    # two flipped cards make a colour only under "one": a card, a takeout, soy against soy (RB p12)
    ("flipped_colour", "one"): (4, 2, 3),
    # tea and a special order copying it: one maroon group of 2, or 1 + rainbow (RB p15)
    ("special_order_colour", "rainbow"): (2, 2, 2),
    # chopsticks, then tempura and chopsticks playing a special order copying it (RB p14)
    ("special_order_copies", "earlier-turns"): (3, 2, 2),
    # egg, wasabi, a special order copying the egg: on the wasabi (9 + 1... 3 + 1) or not (RB p15)
    ("special_order_wasabi", "may"): (3, 2, 3),
    # two spoons that find nothing in one turn after a normal card (RB p13; 3+ players for spoons)
    ("bonus_actions", "one"): (3, 3, 3),
    ("takeout_dessert", "keep"): (2, 2, 2),  # a pudding, then a takeout box flipping it (RB p15)
    ("takeout_stack", "together"): (3, 2, 3),  # wasabi, egg on it, takeout flipping the egg
    ("menu_short_deck", "discard"): None,  # acts on nothing a round shows
    # 3 edamame against 2 opponents holding one: 6 by card, 4 a round (RB p10)
    ("edamame_cap", "round"): (5, 3, 3),
    ("tea_desserts", "no"): (3, 2, 3),  # tea and two puddings: a group of 2 or 1
    # soy against soy, and a takeout box used for nothing, discarded: a second colour or none
    ("discarded_colours", "yes"): (3, 2, 2),
    ("uramaki_after_places", "discard"): None,  # needs ~10 cards (docs): past the search's bound
    # three players tied at 10 use up the places (or 2 of them); a fourth uramaki left takes 2 or 0
    ("uramaki_tie_many", "skip-one"): (7, 3, 3),
    # 15 icons at once (8), or 10 then 5 left over (8 + 5) (RB p6, p9)
    ("uramaki_bonus_turn", "after"): (4, 2, 3),
    ("fruit_none", -6): (0, 2, 1),  # nobody has fruit: -6 against -12 each (RB p16)
    ("final_tie", "first-seat"): (0, 2, 1),  # two empty tableaux tie on points and desserts
}

SLOW = {("uramaki_tie_many", "skip-one"), ("uramaki_after_places", "discard"), ("uramaki_split", "rysxtu"),
        ("uramaki_split", "mly32"), ("flipped_colour", "one")}  # brute force of 10-40 s each


def _variant(name: str, value: Any) -> PartyRules:
    return dataclasses.replace(DEFAULT, **{name: value})


def _params() -> list[Any]:
    return [pytest.param(n, v, marks=[pytest.mark.slow] if (n, v) in SLOW else [], id=f"{n}={v}")
            for n, v in single_variants()]


def test_every_variant_has_a_hand_worked_size() -> None:
    assert set(HAND) == set(single_variants())


def _slots(players: int, turns: int, plays: Sequence[str], budget: int) -> Iterator[list[list[str]]]:
    """Every round of at most ``budget`` cards, slot by slot (no symmetry, empty turns kept)."""
    grid = [["-"] * players for _ in range(turns)]

    def fill(k: int, left: int) -> Iterator[list[list[str]]]:
        if k == players * turns:
            yield [list(row) for row in grid]
            return
        t, s = divmod(k, players)
        for p in ("-", *plays):
            n = play_cards(p)
            if n <= left:
                grid[t][s] = p
                yield from fill(k + 1, left - n)
        grid[t][s] = "-"

    yield from fill(0, budget)


#: Turns the plain enumeration goes to (the search's own bound is 4): 7-card uramaki ties over
#: 4 turns would be a million rounds; three tied finishers need 6 cards (2 each) however many turns.
BRUTE_TURNS = {"uramaki_tie_many": 3}


def _no_smaller(name: str, b: PartyRules, cards: int, players: Sequence[int]) -> int:
    """Every round of fewer than ``cards`` cards made of the reading's plays scores the same."""
    tried = 0
    for p in players:
        for t in range(1, min(max(cards - 1, 1), BRUTE_TURNS.get(name, 4)) + 1):
            for grid in _slots(p, t, PLAYS[name], cards - 1):
                kinds = {k for row in grid for play in row for k in play_kinds(play)}
                extra = {"temaki_all_tied": ("temaki",), "pudding_all_tied": ("pudding",),
                         "fruit_none": ("fruit",)}.get(name, ())
                menu = case_menu(kinds, p, extra)
                if menu is None:
                    continue
                tried += 1
                assert differs(PartyCase(menu, tuple(tuple(r) for r in grid)), DEFAULT, b) is None, grid
    return tried


def _rescore(doc: dict[str, Any], tmp: Path) -> Any:
    path = tmp / "case.json"
    path.write_text(json.dumps(doc))
    try:
        return score_outcome(str(path), game="party").data
    except ValueError as exc:
        return ("refused", type(exc).__name__)


@pytest.mark.parametrize(("name", "value"), _params())
def test_single_variant_minimal_witness(name: str, value: Any, tmp_path: Path) -> None:
    b = _variant(name, value)
    res = party_diff(DEFAULT, b)
    want = HAND[(name, value)]
    if want is None:
        assert res.witness is None
        assert res.status == ("equivalent" if name == "menu_short_deck" else "unknown")
        return
    assert res.status == "differ"
    w = res.witness
    assert w is not None
    assert w.case.size == want
    assert w.causes == (name,)
    # the printed documents, scored by `sushigo score --game party`, differ (or one is refused)
    docs = w.as_json(DEFAULT, b)["documents"]
    sa, sb = _rescore(docs["a"], tmp_path), _rescore(docs["b"], tmp_path)
    assert sa != sb
    if w.a.legal and w.b.legal:
        assert [s["total"] for s in sa["rounds"][0]["seats"]] == [sum(p.values()) for p in w.a.points]
        assert sa["totals"] != sb["totals"] or sa["winners"] != sb["winners"] or sa["rounds"] != sb["rounds"]
    counts = PLAYERS.get(name, (2, 3, 4))
    _no_smaller(name, b, want[0], counts)


def test_witness_rule_ids_name_the_category() -> None:
    w = party_diff(DEFAULT, _variant("edamame_cap", "round")).witness
    assert w is not None and w.rule_ids == ("R-PARTY-EDAMAME",)
    rows = {r[0]: r[1:] for r in w.rows}
    assert rows["player 0 edamame"] == ("6", "4", True)  # RB p10: 3 cards x 2 opponents, capped at 4


def test_menu_limits_the_search() -> None:
    # master-menu holds takeout but no wasabi: takeout_stack cannot show there
    res = party_diff(DEFAULT, _variant("takeout_stack", "together"), menu="master-menu", max_cards=4)
    assert res.status == "unknown"
    res = party_diff(DEFAULT, _variant("edamame_cap", "round"), menu="points-platter")
    assert res.status == "differ" and res.witness is not None and res.witness.case.menu == "points-platter"


def test_same_sides_agree_at_once() -> None:
    assert party_diff(DEFAULT, DEFAULT).status == "equivalent"


@pytest.mark.parametrize(("argv", "code"), [
    (["defaults", "tea_desserts=no"], 0),
    (["defaults", "uramaki_split=mly32", "--max-cards", "4", "--players", "2"], 0),
    (["defaults", "menu_short_deck=discard"], 0),
    (["defaults", "uramaki_tie_many=skip-one", "--max-cards", "2"], 1),
])
def test_cli_json_matches_the_schema(argv: list[str], code: int, capsys: pytest.CaptureFixture[str]) -> None:
    from jsonschema import Draft202012Validator

    from sushigo import schemas

    assert main(["diff", "--game", "party", *argv, "--json"]) == code
    out = json.loads(capsys.readouterr().out)
    Draft202012Validator(schemas.load_schema("diff-result")).validate(out)
    assert out["format"] == "sushigo-diff-party/1"
    assert out["outcome"] == ("unknown" if code else "proved")


def test_after_places_witness_by_hand() -> None:
    """uramaki_after_places shows past the search's bound; a 10-card round worked by hand (RB p9,
    p15): players 0 and 1 tie at 10 on turn 2 (8 each, two places used), player 0 reaches 10 again
    on turn 4 (the third place, 2), and player 1 reaches 10 on turn 5 with nothing left to pay:
    kept, its 3 uramaki and a tea make a group of 3 (tea 3); discarded, the tea is alone (1)."""
    turns = (("uramaki5", "uramaki5"), ("uramaki5", "special-order:uramaki5"), ("uramaki5", "uramaki4"),
             ("special-order:uramaki5", "uramaki3"), ("-", "uramaki3"), ("-", "tea"))
    case = PartyCase("uramaki,tempura,sashimi,dumpling,special-order,tea,green-tea-ice-cream", turns)
    assert case.size == (10, 2, 6)
    found = differs(case, DEFAULT, _variant("uramaki_after_places", "discard"))
    assert found is not None
    a, b = found
    assert (a.points[1]["tea"], b.points[1]["tea"]) == (3, 1)
    assert (a.points[0]["uramaki"], a.points[1]["uramaki"]) == (10, 8)


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "--game", "party", "defaults", "tea_desserts=no", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"] == "proved" and out["status"] == "differ" and out["game"] == "party"
    assert out["witness"]["cards"] == 3 and out["witness"]["rule_ids"] == ["R-PARTY-TEA"]
    assert out["differing_parameters"] == [{"name": "tea_desserts", "a": "yes", "b": "no"}]


@pytest.mark.parametrize(("argv", "needle"), [
    (["defaults", "edamame_caps=round"], "did you mean 'edamame_cap'"),
    (["defaults", "edamame_cap=never"], "not a value of edamame_cap"),
    (["defaults", "edamame"], "give 'defaults' or NAME=VALUE"),
    (["defaults", "tea_desserts=no", "--menu", "sushi-go2"], "not a suggested menu"),
    (["defaults", "tea_desserts=no", "--menu", "master-menu", "--players", "2"], "spoon is not used with 2"),
    (["defaults", "tea_desserts=no", "--all"], "the base game's"),
    (["defaults", "tea_desserts=no", "--timeout", "3"], "--max-cards"),
    (["defaults"], "give two Party readings-sets"),
])
def test_cli_bad_input(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "--game", "party", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and "\n" not in err and "Traceback" not in err


def test_base_options_refuse_party_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "official", "french", "--menu", "sushi-go"]) == 2
    assert "add --game party" in capsys.readouterr().err


#: Readings a final tableau shows, witnessed by a round whose score is its final tableau's: no
#: tableau of the witness's menu with fewer cards scores differently, for 2 to 4 players (Z3 over
#: every count of every card of the menu, not only the search's plays).
TABLEAU = [("special_order_colour", "rainbow"), ("tea_desserts", "no"), ("edamame_cap", "round"),
           ("flipped_colour", "one")]


@pytest.mark.parametrize(("name", "value"), TABLEAU, ids=[f"{n}={v}" for n, v in TABLEAU])
def test_tableau_witness_minimal_by_z3(name: str, value: Any) -> None:
    import z3
    from sushigo.spec.model.budget import decide
    from sushigo.spec.party.menus import parse_menu
    from sushigo.spec.party.model import RoundModel

    b = _variant(name, value)
    w = party_diff(DEFAULT, b).witness
    assert w is not None
    menu = parse_menu(w.case.menu)
    for players in (2, 3, 4):
        if players not in menu.seats():
            continue
        ma = RoundModel(menu, players, DEFAULT, prefix="a_")
        mb = RoundModel(menu, players, b, prefix="b_")
        same = [*ma.domain.values()]
        for seat in range(players):  # the same tableaux on both sides
            for t in menu.kinds:
                same += [x == y for x, y in zip(ma.n[seat][t], mb.n[seat][t], strict=True)]
                same.append(ma.c[seat][t] == mb.c[seat][t])
            same += [*[x == y for x, y in zip(ma.w[seat], mb.w[seat], strict=True)], ma.f[seat] == mb.f[seat]]
        # cards played: the tableau's, and a takeout box for flipped cards (it is discarded)
        played = z3.Sum([ma.cards(k) + z3.If(ma.f[k] > 0, 1, 0) for k in range(players)])
        differ = z3.Or(*[ma.points[k][c] != mb.points[k][c] for k in range(players) for c in ma.points[k]])
        smaller = z3.Solver()
        smaller.add(*same, played <= w.case.cards - 1, differ)
        assert decide(smaller).unsat, players
        if players == w.case.players:  # one card more is sat: the domain is not vacuous, the bound tight
            tight = z3.Solver()
            tight.add(*same, played <= w.case.cards, differ)
            assert decide(tight).sat
