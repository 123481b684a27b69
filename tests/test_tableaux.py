"""``sushigo tableaux``: the Z3 enumeration against two independent brute-force counts."""

from __future__ import annotations

import json

import pytest
from brute import brute_counts, brute_tableaux, enumerate_tableaux, formula_counts
from sushigo.solver.tableaux import (
    count_tableaux,
    counts_by_score,
    facts,
    parse_filters,
    unreachable,
)
from sushigo.solver.tableaux import enumerate_tableaux as z3_tableaux
from sushigo.spec.cards import Token
from sushigo.spec.ruleset import OFFICIAL, get_ruleset
from sushigo.spec.scoring import dish_points, maki_icons
from sushigo.spec.tableau import Tableau

from sushigo.cli import main


@pytest.mark.parametrize("cards", range(1, 11))
def test_brute_force_agrees_with_generating_functions(cards: int) -> None:
    assert brute_counts(cards) == formula_counts(cards)


@pytest.mark.parametrize("cards", range(1, 7))
def test_brute_force_agrees_with_generating_functions_maki(cards: int) -> None:
    assert brute_counts(cards, 3) == formula_counts(cards, 3)


def test_one_card_by_hand() -> None:
    # By hand: one card scores 1 (dumpling, egg), 2 (salmon), 3 (squid), else 0 (8 kinds).
    assert formula_counts(1) == {0: 8, 1: 2, 2: 1, 3: 1}
    assert sum(1 for _ in enumerate_tableaux(2)) == sum(formula_counts(2).values())


@pytest.mark.parametrize("cards", range(1, 7))
def test_z3_counts_every_score_small_hands(cards: int) -> None:
    assert counts_by_score(cards) == formula_counts(cards)


def test_z3_counts_with_maki_points() -> None:
    assert counts_by_score(4, 6) == formula_counts(4, 6)
    assert counts_by_score(3, 1) == formula_counts(3, 1)


@pytest.mark.parametrize(("score", "cards"), [(0, 8), (36, 8), (30, 8), (20, 8), (0, 10), (45, 10), (40, 10),
                                              (33, 9), (28, 7)])
def test_z3_count_larger_hands(score: int, cards: int) -> None:
    assert count_tableaux(score, cards) == formula_counts(cards).get(score, 0)


@pytest.mark.parametrize(("score", "cards", "maki"), [(14, 5, 0), (9, 4, 6), (23, 6, 3)])
def test_every_listed_tableau_rescores(score: int, cards: int, maki: int) -> None:
    e = z3_tableaux(score, cards, maki)
    expected = {Tableau(c) for c in brute_tableaux(score, cards, maki)}
    assert set(e.tableaux) == expected and e.count == len(expected) and e.complete
    for t in e.tableaux:
        assert t.size == cards
        assert all(n <= cap for n, cap in zip(t.card_counts(), OFFICIAL.deck, strict=True))
        assert sum(dish_points(t.counts)) + maki == score
        assert maki == 0 or maki_icons(t.counts) > 0


def test_facts_by_hand() -> None:
    # 33 with 8 cards: three wasabi+squid (27) are needed, the last 2 cards make 6 (squid*2 or wasabi+salmon).
    fs = {f.token: f for f in facts(33, 8) or []}
    assert (fs[Token.WASABI_SQUID].low, fs[Token.WASABI_SQUID].high) == (3, 3)
    assert (fs[Token.SQUID].low, fs[Token.SQUID].high) == (0, 2)
    assert fs[Token.TEMPURA].high == 0
    assert facts(47, 8) is None


def test_facts_against_brute_force() -> None:
    all_t = brute_tableaux(20, 6)
    fs = facts(20, 6) or []
    for f in fs:
        values = [t[int(f.token)] for t in all_t]
        assert (f.low, f.high) == (min(values), max(values))


@pytest.mark.parametrize("cards", [3, 8])
def test_unreachable_against_brute_force(cards: int) -> None:
    counts = formula_counts(cards)
    hi, missing = unreachable(cards)
    assert hi == max(counts)
    assert missing == [s for s in range(hi + 1) if s not in counts]


def test_filters() -> None:
    f = parse_filters(["sashimi*3"], ["squid"])
    e = z3_tableaux(16, 6, filters=f)
    expected = [t for t in brute_tableaux(16, 6) if t[int(Token.SASHIMI)] >= 3
                and t[int(Token.SQUID)] == 0 and t[int(Token.WASABI_SQUID)] == 0]
    assert e.count == len(expected) and e.count > 0
    only_stack = parse_filters([], ["wasabi+squid"])
    e2 = z3_tableaux(9, 2, filters=only_stack)
    assert e2.count == 0  # wasabi+squid is the only way to 9 with 2 cards


def test_other_ruleset_same_dish_scoring() -> None:
    assert counts_by_score(3, rules=get_ruleset("french")) == formula_counts(3)


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tableaux", "--score", "9", "--cards", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "format": "sushigo-tableaux-result/1", "outcome": "proved", "count": 1, "tableaux": ["wasabi+squid"]
    }
    assert main(["tableaux", "--score", "0", "--cards", "1", "--count", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"format": "sushigo-tableaux-result/1", "outcome": "proved",
                                                   "count": 8}


def test_cli_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tableaux", "--score", "30", "--cards", "8", "--limit", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("15 tableaux of 8 cards score 30 (showing 3)")
    assert main(["tableaux", "--score", "3", "--cards", "1", "--without", "squd"]) == 2
    assert "did you mean 'squid'" in capsys.readouterr().err
    assert main(["tableaux", "--unreachable", "--cards", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["maximum"] == 9
    assert data["unreachable"] == [s for s in range(10) if s not in formula_counts(2)]


@pytest.mark.parametrize("cards", ["-1", "109"])
def test_cli_cards_beyond_the_deck_is_bad_input(capsys: pytest.CaptureFixture[str], cards: str) -> None:
    # The deck holds 108 cards (rulebook component list): no tableau can hold more.
    assert main(["tableaux", "--score", "10", "--cards", cards]) == 2
    assert "0 to 108 cards" in capsys.readouterr().err
