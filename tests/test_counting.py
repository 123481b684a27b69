"""``tableaux --count``: the exact count against Z3 enumeration (the reference) and brute force."""

from __future__ import annotations

import json

import pytest
from brute import brute_counts, enumerate_tableaux
from sushigo.solver.counting import count_score, score_counts
from sushigo.solver.tableaux import count_tableaux, counts_by_score, parse_filters
from sushigo.spec.cards import Card
from sushigo.spec.errors import InputError
from sushigo.spec.ruleset import OFFICIAL, Ruleset, get_ruleset
from sushigo.spec.scoring import dish_points, maki_icons

from sushigo.cli import main

# Rulesets whose numbers change the count: other point tables, set sizes, icons and a smaller deck.
CUSTOM: dict[str, Ruleset] = {
    "dumplings-2-4-7": OFFICIAL.replace(name="d", dumpling_points=(0, 2, 4, 7)),
    "tempura-3-sashimi-2": OFFICIAL.replace(name="ts", tempura_set=3, tempura_points=8,
                                            sashimi_set=2, sashimi_points=6),
    "wasabi-x2-icons-0-2-3": OFFICIAL.replace(name="w", wasabi_multiplier=2, maki_icons=(0, 2, 3),
                                             nigiri_points=(1, 3, 4)),
    # a deck of 22 cards must still deal every player count (one round of small hands)
    "small-deck": OFFICIAL.replace(name="s", deck=(3, 4, 2, 1, 2, 0, 2, 3, 1, 2, 1, 1), rounds=1,
                                   hand_sizes=((2, 10), (3, 7), (4, 5), (5, 4))),
}


def _brute(cards: int, maki: int, rules: Ruleset, keep: object = None) -> dict[int, int]:
    """Independent count: list every count vector (tests/brute.py) and score it with spec.scoring."""
    out: dict[int, int] = {}
    for t in enumerate_tableaux(cards, rules):
        if keep is not None and not keep(t):  # type: ignore[operator]
            continue
        if maki > 0 and maki_icons(t, rules) <= 0:
            continue
        s = sum(dish_points(t, rules)) + maki
        out[s] = out.get(s, 0) + 1
    return dict(sorted(out.items()))


def test_by_hand() -> None:
    # By hand from the scoring rules: one card scores 1 (dumpling, egg), 2 (salmon), 3 (squid), else 0
    # (tempura, sashimi, three maki, pudding, wasabi, chopsticks).
    assert score_counts(1) == {0: 8, 1: 2, 2: 1, 3: 1}
    # With 6 maki points one card must be a maki roll: maki1, maki2 or maki3.
    assert score_counts(1, 6) == {6: 3}
    # Two cards make 9 only as wasabi+squid (3 x 3); the empty tableau scores 0 once.
    assert count_score(9, 2) == 1
    assert score_counts(0) == {0: 1}
    assert score_counts(0, 6) == {}


@pytest.mark.parametrize("cards", range(0, 9))
@pytest.mark.parametrize("maki", [0, 3])
def test_every_score_against_brute_force(cards: int, maki: int) -> None:
    assert score_counts(cards, maki) == brute_counts(cards, maki)


@pytest.mark.parametrize("name", sorted(CUSTOM))
@pytest.mark.parametrize("cards", [3, 6])
def test_rule_numbers_change_the_count(name: str, cards: int) -> None:
    rules = CUSTOM[name]
    expected = _brute(cards, 0, rules)
    assert score_counts(cards, 0, rules) == expected
    assert expected != brute_counts(cards)  # the ruleset really changes the answer


@pytest.mark.parametrize("name", sorted(CUSTOM))
def test_rule_numbers_with_maki_points(name: str) -> None:
    rules = CUSTOM[name]
    assert score_counts(4, 6, rules) == _brute(4, 6, rules)


@pytest.mark.parametrize(("cards", "maki", "rules"), [
    (4, 0, "official"), (5, 0, "official"), (4, 6, "official"), (3, 1, "french"), (4, 0, "dutch"),
])
def test_every_score_against_z3(cards: int, maki: int, rules: str) -> None:
    assert score_counts(cards, maki, get_ruleset(rules)) == counts_by_score(cards, maki, get_ruleset(rules))


@pytest.mark.parametrize("name", ["dumplings-2-4-7", "wasabi-x2-icons-0-2-3", "small-deck"])
def test_custom_rules_against_z3(name: str) -> None:
    rules = CUSTOM[name]
    assert score_counts(4, 3, rules) == counts_by_score(4, 3, rules)


@pytest.mark.parametrize(("score", "cards"), [(0, 10), (45, 10), (40, 10), (23, 10), (33, 9), (36, 8)])
def test_one_score_at_round_sizes_against_z3(score: int, cards: int) -> None:
    assert count_score(score, cards) == count_tableaux(score, cards)


@pytest.mark.parametrize(("must", "without", "cards", "maki"), [
    (["sashimi*3"], ["squid"], 6, 0),
    ([], ["wasabi"], 5, 0),
    (["wasabi+egg", "maki1"], [], 5, 3),
    ([], ["maki1", "maki2"], 4, 6),
    (["tempura*2 dumpling"], ["wasabi+salmon"], 6, 0),
])
def test_filters_against_brute_force_and_z3(
    must: list[str], without: list[str], cards: int, maki: int
) -> None:
    f = parse_filters(must, without)
    lo, hi = f.bounds(OFFICIAL)
    expected = _brute(cards, maki, OFFICIAL,
                      lambda t: all(a <= n <= b for a, n, b in zip(lo, t, hi, strict=True)))
    assert score_counts(cards, maki, OFFICIAL, f) == expected
    assert score_counts(cards, maki, OFFICIAL, f) == counts_by_score(cards, maki, OFFICIAL, f)


def test_whole_deck_is_consistent() -> None:
    # Every score of the whole deck's tableaux: all 108 cards lie in front of one player, so every card
    # kind is used up; the tableaux differ only in which nigiri sit on the six wasabi.
    rules = OFFICIAL
    counts = score_counts(rules.deck_size())
    # Stacks: choose how many of the 6 wasabi hold an egg (at most 5), a salmon, a squid (at most 5).
    w = rules.copies(Card.WASABI)
    ways = sum(1 for e in range(w + 1) for s in range(w + 1 - e) for q in range(w + 1 - e - s)
               if e <= 5 and q <= 5)
    assert sum(counts.values()) == ways


def test_bad_input_raises_input_error() -> None:
    with pytest.raises(InputError, match="--maki-points must be 0 or more"):
        score_counts(3, -1)
    with pytest.raises(InputError, match="--cards must be 0 or more"):
        score_counts(-2)


def test_cli_all_scores_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tableaux", "--cards", "2", "--count", "--all-scores", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {"format": "sushigo-tableaux-result/1", "outcome": "proved", "cards": 2,
                    "counts": {str(s): n for s, n in brute_counts(2).items()}}


def test_cli_all_scores_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tableaux", "--cards", "1", "--count", "--all-scores", "--maki-points", "6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "3 tableaux of 1 cards with 6 maki points, by score:"
    assert lines[-1].split() == ["6", "3"]


def test_cli_count_uses_the_same_answer(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tableaux", "--score", "30", "--cards", "8", "--count"]) == 0
    assert capsys.readouterr().out.strip() == str(brute_counts(8)[30])


@pytest.mark.parametrize("argv", [
    ["--cards", "3", "--all-scores"],
    ["--cards", "3", "--count", "--all-scores", "--score", "4"],
    ["--cards", "3", "--count", "--all-scores", "--unreachable"],
    ["--cards", "3", "--count", "--all-scores", "--maki-points", "-1"],
])
def test_cli_all_scores_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(["tableaux", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
