"""The Z3 model of Party's scoring (spec/party/model.py) held to the plain scorer (spec/party/scoring.py).

The cross-checks deal random final tableaux from a menu's deck (every suggested menu and random
legal menus, 2 to 8 players, the readings a tableau shows) and require the model, solved with the
counts fixed, to give every seat the plain scorer's points in every category. The Z3 questions
are checked against a brute force over every small tableau (an independent computation) and, for
the impossible score, against the deck's copies (PARTY.md section 2: 8 dumplings).
"""

from __future__ import annotations

import itertools
import random

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sushigo.checks.party import check_party_round, deal, menus, race_paid
from sushigo.checks.party_check import check_party_desserts
from sushigo.checks.properties import Mismatch
from sushigo.spec.errors import InputError
from sushigo.spec.party.kinds import KIND
from sushigo.spec.party.menus import SUGGESTED, Menu, parse_menu
from sushigo.spec.party.model import GONE, GameModel, RoundModel
from sushigo.spec.party.readings import PartyRules
from sushigo.spec.party.scoring import check_final, check_round, score_round
from sushigo.spec.party.tableau import SPECIAL, Item, Part, PartyTableau, kind_name, parse_party_tableau


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(menus(), st.randoms(use_true_random=False))
def test_model_scores_every_seat_and_kind_as_the_scorer(setup: tuple[Menu, int, PartyRules],
                                                         rng: random.Random) -> None:
    menu, players, rules = setup
    tableaux = deal(menu, players, rng)
    race = race_paid(menu, players, rng) if rng.random() < 0.5 else None
    check_party_round(menu, players, rules, tableaux, race)  # raises Mismatch on any seat and kind
    assert RoundModel(menu, players, rules).rules_of == score_round(tableaux, menu, rules).rules


@pytest.mark.parametrize("name", sorted(SUGGESTED))
def test_every_suggested_menu_cross_checks(name: str) -> None:
    rng = random.Random(name)
    menu = parse_menu(name)
    for players in menu.seats():
        model = RoundModel(menu, players)
        for _ in range(3):
            tableaux = deal(menu, players, rng)
            plain = [dict(p) for p in score_round(tableaux, menu).points]
            assert model.solve(tableaux) == plain, (name, players)


@settings(max_examples=40, deadline=None)
@given(menus(), st.randoms(use_true_random=False))
def test_game_end_desserts_as_the_scorer(setup: tuple[Menu, int, PartyRules], rng: random.Random) -> None:
    menu, players, rules = setup
    check_party_desserts(menu, players, rules, rng)  # raises Mismatch when a seat's dessert points differ
    assert GameModel(menu, players, rules).rule == KIND[menu.dessert.name].rule


# --- questions only a model answers ---------------------------------------------------------------


def _items(menu: Menu) -> list[Item]:
    """Every item a final tableau of ``menu`` can show (a stack and a special order's copy included)."""
    cards = [c for t in menu.tiles for c, _ in t.cards if kind_name(c) not in (*GONE, SPECIAL)]
    out = [Item(Part(c)) for c in cards]
    if "wasabi" in menu.kinds:
        out += [Item(Part(n), Part("wasabi")) for n in KIND["nigiri"].cards]
    if SPECIAL in menu.kinds:
        out += [Item(Part(SPECIAL, c)) for c in cards]
    return out


def _brute_best(menu: Menu, players: int, most: int) -> int:
    """The most seat 0 scores with at most ``most`` cards, the others empty: every tableau tried."""
    best = None
    items = _items(menu)
    for k in range(most + 1):
        for combo in itertools.combinations_with_replacement(items, k):
            if sum(len(i.parts()) for i in combo) > most:
                continue
            tableaux: list[PartyTableau] = [tuple(combo)] + [()] * (players - 1)
            try:
                check_round(tableaux, menu)
                check_final(tableaux)
                total = score_round(tableaux, menu).totals[0]
            except InputError:
                continue
            best = total if best is None else max(best, total)
    assert best is not None
    return best


def _model_best(menu: Menu, players: int, most: int) -> int:
    model = RoundModel(menu, players)
    opt = z3.Optimize()
    opt.add(*model.domain.values(), model.cards(0) <= most)
    for s in range(1, players):
        opt.add(model.cards(s) == 0)
    goal = opt.maximize(model.total(0))
    assert opt.check() == z3.sat
    return goal.value().as_long()


@pytest.mark.parametrize(("name", "players", "most"), [("my-first-meal", 2, 4), ("points-platter", 3, 3),
                                                       ("sushi-go", 2, 3)])
def test_the_most_one_seat_scores_matches_a_brute_force(name: str, players: int, most: int) -> None:
    menu = parse_menu(name)
    assert _model_best(menu, players, most) == _brute_best(menu, players, most)


def test_why_a_dumpling_score_is_impossible() -> None:
    """Seat 0 cannot score 15 for dumplings (5 cards, RB p10) while seat 1 holds 4: the deck has 8
    (PARTY.md section 2) and sushi-go has no special order to copy one. The unsat core names the
    dumpling rule, the deck and seat 1's cards; each is needed."""
    menu = parse_menu("sushi-go")
    model = RoundModel(menu, 2)
    points, defs = model.named()
    solver = z3.Solver()
    tracked = {**model.domain, **defs}
    tracked["seat 1 holds 4 dumplings"] = z3.Sum(model.n[1]["dumpling"]) == 4
    tracked["goal: seat 0 scores 15 for dumplings"] = points[0]["dumpling"] == 15
    for name, c in tracked.items():
        solver.assert_and_track(c, name)
    assert solver.check() == z3.unsat
    core = {str(c) for c in solver.unsat_core()}
    needed = {"goal: seat 0 scores 15 for dumplings", "seat 1 holds 4 dumplings",
              "deck: dumpling has 8 printed cards", "R-PARTY-DUMPLING seat 0"}
    assert needed <= core
    for name in needed:  # each one is needed: without it the score is reachable
        assert z3.Solver().check(*[c for k, c in tracked.items() if k != name]) == z3.sat, name


@pytest.mark.parametrize(("score", "possible"), [(-3, True), (7, True), (0, True), (1, False), (-6, False)])
def test_eel_scores_only_its_table(score: int, possible: bool) -> None:
    """Eel: one -3, two or more 7 (RB p10); nothing else is reachable."""
    model = RoundModel(parse_menu("cutthroat-combo"), 3)
    solver = z3.Solver()
    solver.add(*model.domain.values(), model.points[0]["eel"] == score)
    assert (solver.check() == z3.sat) is possible



def test_a_planted_fault_is_named_by_its_rule_id(monkeypatch: pytest.MonkeyPatch) -> None:
    """An executor that pays one tempura pair 6 instead of 5 (RB p11) is caught, under R-PARTY-TEMPURA."""
    import sushigo.spec.party.scoring as scoring

    honest = scoring.score_round

    def faulty(tableaux, menu, rules=scoring.DEFAULT, race=None, discarded=None):  # type: ignore[no-untyped-def]
        out = honest(tableaux, menu, rules, race, discarded)
        for seat in out.points:
            seat["tempura"] = seat["tempura"] // 5 * 6
        return out

    monkeypatch.setattr(scoring, "score_round", faulty)
    menu = parse_menu("sushi-go")
    tableaux = [parse_party_tableau("tempura*2 maki3"), parse_party_tableau("dumpling")]
    with pytest.raises(Mismatch) as caught:
        check_party_round(menu, 2, PartyRules(), tableaux)
    assert caught.value.rule_ids == ("R-PARTY-TEMPURA",)
