"""Every rule number is a parameter (issue 17 items 1 and 3): ``--rule NAME=VALUE`` sets it, the
Ruleset validates it, and every command answers under it.

Expected values come from the rules worked by hand (the rulebook's numbers with the one number
changed; the arithmetic is in the comments) or from brute force over a tiny game: hand sizes of 2
cards, where every pair of 2-card tableaux within the deck is a reachable table (seat 0 takes one
card of its hand and the last card of the other hand, so any two cards can end in front of it),
scored by the plain scorer (spec.scoring, no Z3) and compared with the Z3-based commands.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from brute import brute_counts, enumerate_tableaux
from sushigo.spec.cards import NIGIRI, STACK_OF, Card, Token
from sushigo.spec.errors import RulesError
from sushigo.spec.ruleset import (
    NUMBERS,
    OFFICIAL,
    PARAMETERS,
    RULESETS,
    Effect,
    Ruleset,
    apply_overrides,
    format_number,
    get_ruleset,
)
from sushigo.spec.scoring import dish_points, maki_icons, maki_points, pudding_points, round_totals
from sushigo.spec.tableau import parse_tableau

from sushigo.cli import main

TINY = "hand_sizes=2:2,3:9,4:8,5:7"  # two-card hands for two players: a game small enough to enumerate

#: One single change per number parameter (each differs from official in that number only).
SINGLE_CHANGES: dict[str, str] = {
    "deck": "deck.squid=9",
    "hand_sizes": "hand_sizes=2:9,3:8,4:7,5:6",
    "dummy_hand_size": "dummy_hand_size=8",
    "rounds": "rounds=2",
    "tempura_set": "tempura_set=3",
    "tempura_points": "tempura_points=6",
    "sashimi_set": "sashimi_set=2",
    "sashimi_points": "sashimi_points=12",
    "dumpling_points": "dumpling_points=1,3,6,10,15,21",
    "nigiri_points": "nigiri_points=2,3,5",
    "wasabi_multiplier": "wasabi_multiplier=2",
    "maki_icons": "maki_icons=1,3,4",
    "maki_first_points": "maki_first_points=8",
    "maki_second_points": "maki_second_points=4",
    "pudding_most_points": "pudding_most_points=4",
    "pudding_fewest_penalty": "pudding_fewest_penalty=3",
}


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code, out, err = cli(capsys, *argv, "--json")
    assert code in (0, 1), err
    return code, json.loads(out)


def rules_of(*changes: str) -> Ruleset:
    return get_ruleset("official", list(changes))


# --- the "done when" examples, worked by hand ----------------------------------------


def test_two_tempura_score_the_changed_pair_points(capsys: pytest.CaptureFixture[str]) -> None:
    # R-TEMPURA with tempura_points=6: one pair scores 6; R-NIGIRI: an egg scores 1.
    _, doc = cli_json(capsys, "score", "--rule", "tempura_points=6", "tempura tempura", "egg")
    assert doc["totals"] == [6, 1]
    assert doc["rounds"][0][0]["tempura"] == 6


def test_six_dumplings_score_the_sixth_entry(capsys: pytest.CaptureFixture[str]) -> None:
    # R-DUMPLING with points 1, 3, 6, 10, 15, 21 for 1..6 dumplings: six score 21; none score 0.
    _, doc = cli_json(capsys, "score", "--rule", "dumpling_points=1,3,6,10,15,21", "dumpling*6", "egg")
    assert [row["dumpling"] for row in doc["rounds"][0]] == [21, 0]
    assert doc["totals"] == [21, 1]


# --- parsing: every number round-trips, readings keep their form ------------------------------


def test_every_number_has_a_single_change_here() -> None:
    assert set(SINGLE_CHANGES) == {n.name for n in NUMBERS}


@pytest.mark.parametrize("number", NUMBERS, ids=lambda n: n.name)
def test_official_numbers_round_trip_through_rule_text(number: Any) -> None:
    value = getattr(OFFICIAL, number.name)
    if number.name == "deck":
        changes = [f"deck.{card.label}={value[int(card)]}" for card in Card]
    else:
        changes = [f"{number.name}={format_number(number, value)}"]
    again = apply_overrides(OFFICIAL, changes)
    assert again == OFFICIAL  # nothing changed, so not even the name


@pytest.mark.parametrize("number", NUMBERS, ids=lambda n: n.name)
def test_each_single_change_changes_that_number_only(number: Any) -> None:
    rules = rules_of(SINGLE_CHANGES[number.name])
    changed = [n.name for n in NUMBERS if getattr(rules, n.name) != getattr(OFFICIAL, n.name)]
    assert changed == [number.name]
    assert rules.readings() == OFFICIAL.readings()
    assert rules.name == f"official[{SINGLE_CHANGES[number.name]}]"


def test_table_forms() -> None:
    # the rulebook writes the dumpling table from one dumpling; the field keeps 0 for none in front
    assert rules_of("dumpling_points=1,3,6,10,15").dumpling_points == OFFICIAL.dumpling_points
    assert rules_of("hand_sizes=10,9,8,7").hand_sizes == OFFICIAL.hand_sizes
    assert rules_of("hand_sizes=5:7,4:8,3:9,2:10").hand_size(5) == 7
    assert rules_of("deck.sq=7").copies(Card.SQUID) == 7  # aliases as on input everywhere
    assert rules_of("deck.squid=7", "deck.egg=9").deck[int(Card.EGG)] == 9  # deck changes accumulate
    assert Ruleset(dumpling_points=[0, 1, 3, 6, 10, 15], deck={"squid": 5}) == OFFICIAL  # file forms


def test_readings_keep_their_names() -> None:
    assert rules_of("maki_first_tie=each").name == "official[maki_first_tie=each]"
    assert rules_of("pudding_penalty_2p=yes").name == "official[pudding_penalty_2p=yes]"
    assert get_ruleset("french", ["maki_first_tie=each"]) == RULESETS["french"]  # no change, same name


# --- validation: one line, exit 2 --------------------------------------------------------------

BAD = [
    ("tempura_set=0", "tempura_set"),  # a set of no cards
    ("sashimi_points=-1", "sashimi_points"),  # points are never negative
    ("pudding_fewest_penalty=-6", "pudding_fewest_penalty"),  # the penalty is written as points lost
    ("nigiri_points=1,2", "nigiri_points"),  # one entry per nigiri kind
    ("maki_icons=1,2,3,4", "maki_icons"),
    ("dumpling_points=", "dumpling_points"),
    ("tempura_points=5.5", "tempura_points"),
    ("rounds=three", "rounds"),
    ("deck.sqiud=3", "squid"),  # an unknown kind, with the nearest name
    ("deck=3", "deck.KIND"),
    ("deck.squid=-1", "deck.squid"),
    ("hand_sizes=2:10,3:9", "hand_sizes"),  # every player count needs a hand size
    ("hand_sizes=2:x,3:9,4:8,5:7", "hand_sizes"),
    # 108 - 14 = 94 cards cannot deal 3 rounds of 4 hands of 8 (96)
    ("deck.tempura=0", "too small for 4 players"),
    # 5 players: 3 rounds of 5 hands of 8 need 120 of 108
    ("hand_sizes=2:10,3:9,4:8,5:8", "too small for 5 players"),
    ("rounds=4", "too small for 4 players"),  # 4 x 4 x 8 = 128
]


@pytest.mark.parametrize(("change", "named"), BAD)
def test_bad_numbers_give_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], change: str,
                                              named: str) -> None:
    code, out, err = cli(capsys, "score", "--rule", change, "tempura", "egg")
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert named in err
    assert "Traceback" not in err


def test_deck_of_exactly_the_deal_is_enough() -> None:
    # 5 players need 3 rounds x 5 hands x 7 = 105 cards: 108 - 3 is enough, 108 - 4 is not
    assert sum(rules_of("deck.tempura=11").deck) == 105
    with pytest.raises(RulesError, match="104 cards is too small for 5 players"):
        rules_of("deck.tempura=10")


@pytest.mark.parametrize("fields", [
    {"tempura_set": 0}, {"nigiri_points": (1, 2)}, {"deck": (14,) * 11}, {"rounds": True},
    {"dumpling_points": (1, 3, 6)}, {"maki_first_points": "6"}, {"deck": {"tofu": 3}},
])
def test_every_way_of_building_a_ruleset_is_validated(fields: dict[str, Any]) -> None:
    with pytest.raises(RulesError):
        OFFICIAL.replace(**fields)
    with pytest.raises(RulesError):
        Ruleset(**fields)


def test_rules_json_lists_every_number(capsys: pytest.CaptureFixture[str]) -> None:
    _, doc = cli_json(capsys, "rules", "--rule", "tempura_points=6")
    listed = {n["name"]: n for n in doc["number_parameters"]}
    assert list(listed) == [n.name for n in NUMBERS]
    assert listed["tempura_points"]["rulesets"] == {"official[tempura_points=6]": "6"}
    assert listed["tempura_points"]["rule_ids"] == ["R-TEMPURA"]
    known = {p.rule_id for p in PARAMETERS}
    from sushigo.spec.model.catalogue import RULE_CATALOGUE

    for n in NUMBERS:  # every rule id a number names is in the catalogue
        assert set(n.rule_ids) <= set(RULE_CATALOGUE) | known, n.name


# --- tiny games by brute force ----------------------------------------------------------------

_TOKEN_CARDS = [[int(c) for c in t.cards] for t in Token]


def _cards_used(t: Sequence[int]) -> list[int]:
    used = [0] * len(Card)
    for k, n in enumerate(t):
        for c in _TOKEN_CARDS[k]:
            used[c] += n
    return used


def tables(rules: Ruleset, cards: int = 2) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every pair of ``cards``-card tableaux that fit the deck together."""
    tabs = list(enumerate_tableaux(cards, rules))
    used = [_cards_used(t) for t in tabs]
    for i, j in itertools.product(range(len(tabs)), repeat=2):
        if all(a + b <= d for a, b, d in zip(used[i], used[j], rules.deck, strict=True)):
            yield tabs[i], tabs[j]


ROUND_CHANGES = ["tempura_points=12", "maki_second_points=8", "wasabi_multiplier=5", "maki_icons=3,2,1"]


@pytest.mark.parametrize("change", ROUND_CHANGES)
def test_best_round_over_all_deals_is_the_brute_force_maximum(capsys: pytest.CaptureFixture[str],
                                                              change: str) -> None:
    rules = rules_of(TINY, change)
    want = max(round_totals([t, o], rules)[0] for t, o in tables(rules))
    tiny = rules_of(TINY)
    official = max(round_totals([t, o], tiny)[0] for t, o in tables(tiny))
    _, doc = cli_json(capsys, "best", "--round", "--players", "2", "--rule", TINY, "--rule", change)
    best = doc["results"][0]["best"]
    assert (best["score"], best["outcome"]) == (want, "proved")
    if change != "maki_icons=3,2,1":
        assert want != official  # the change matters, so the answer tests that it was read


def test_best_game_over_all_deals_is_the_brute_force_maximum(capsys: pytest.CaptureFixture[str]) -> None:
    # one round, then puddings (two players: the bonus only, R-PUDDING-2P)
    rules = rules_of(TINY, "rounds=1", "pudding_most_points=11")
    pud = int(Token.PUDDING)

    def total(t: tuple[int, ...], o: tuple[int, ...]) -> int:
        return round_totals([t, o], rules)[0] + pudding_points([t[pud], o[pud]], rules)[0]

    want = max(total(t, o) for t, o in tables(rules))
    _, doc = cli_json(capsys, "best", "--game", "--players", "2", "--rule", TINY, "--rule", "rounds=1",
                      "--rule", "pudding_most_points=11")
    best = doc["results"][0]["best"]
    assert (best["score"], best["outcome"]) == (want, "proved")


def test_table_counts_match_brute_force(capsys: pytest.CaptureFixture[str]) -> None:
    rules = rules_of(TINY, "tempura_points=4", "maki_first_points=5")
    counts: dict[tuple[int, ...], int] = {}
    for t, o in tables(rules):
        key = tuple(round_totals([t, o], rules))
        counts[key] = counts.get(key, 0) + 1
    for scores in [(4, 0), (5, 3), (9, 1)]:
        _, doc = cli_json(capsys, "table", "--scores", ",".join(map(str, scores)), "--limit", "100000",
                          "--rule", TINY, "--rule", "tempura_points=4", "--rule", "maki_first_points=5")
        assert doc["possible"] is (scores in counts)
        assert doc["count"] == counts.get(scores, 0), scores
        if doc["possible"]:
            assert doc["numbers"] == {"hand_sizes": "2:2,3:9,4:8,5:7", "tempura_points": "4",
                                      "maki_first_points": "5"}


def test_scoresheet_under_changed_numbers(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    changes = [TINY, "rounds=1", "sashimi_set=2"]
    rules = rules_of(*changes)
    reach = {tuple(round_totals([t, o], rules)) for t, o in tables(rules)}
    tiny = rules_of(TINY)
    reach_official = {tuple(round_totals([t, o], tiny)) for t, o in tables(tiny)}
    # two sashimi make a set of 10 only under the change
    assert (10, 0) in reach and (10, 0) not in reach_official
    for scores, code_want in [((10, 0), 0), ((11, 11), 1)]:
        assert (scores in reach) is (code_want == 0)
        sheet = tmp_path / "sheet.json"
        sheet.write_text(json.dumps({"players": ["A", "B"], "rounds": [list(scores)]}), encoding="utf-8")
        args = ["scoresheet", str(sheet)]
        for c in changes:
            args += ["--rule", c]
        code, doc = cli_json(capsys, *args)
        assert code == code_want, doc
        if code == 0:  # the witness re-scores to the sheet under the changed rules
            w = doc["witness"]
            assert w["numbers"]["sashimi_set"] == "2"
            tabs = [parse_tableau(t).counts for t in w["rounds"][0]]
            assert tuple(round_totals(tabs, rules)) == scores


def test_tableaux_counts_match_brute_force(capsys: pytest.CaptureFixture[str]) -> None:
    for change in ["dumpling_points=2,4,7,11,16,22", "deck.egg=2", "nigiri_points=2,3,5"]:
        rules = rules_of(change)
        want = brute_counts(3, 0, rules)
        assert want != brute_counts(3, 0, OFFICIAL)
        _, doc = cli_json(capsys, "tableaux", "--cards", "3", "--count", "--all-scores", "--rule", change)
        got = {int(score): n for score, n in doc["counts"].items()}
        assert got == want, change


# --- puzzles: fixed hands, no chopsticks or wasabi, so every turn is one card ----------------

PUZZLE = {"hands": [["tempura", "maki3", "dumpling"], ["tempura", "sashimi", "dumpling"],
                    ["egg", "sashimi"], ["sashimi"]], "opponents_maki": [3]}


def _puzzle_best(rules: Ruleset) -> int:
    best = None
    for picks in itertools.product(*PUZZLE["hands"]):
        t = [0] * len(Token)
        for name in picks:
            t[int(Token[name.upper()])] += 1
        score = sum(dish_points(t, rules)) + maki_points([maki_icons(t, rules), 3], rules)[0]
        best = score if best is None else max(best, score)
    assert best is not None
    return best


@pytest.mark.parametrize("engine", ["z3", "search"])
@pytest.mark.parametrize("change", ["sashimi_set=2", "maki_first_points=1", "dumpling_points=4,5"])
def test_best_puzzle_is_the_brute_force_maximum(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 engine: str, change: str) -> None:
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(PUZZLE), encoding="utf-8")
    want = _puzzle_best(rules_of(change))
    assert want != _puzzle_best(OFFICIAL)
    _, doc = cli_json(capsys, "best", str(path), "--engine", engine, "--rule", change)
    assert doc["score"] == want


# --- play, replay and the hindsight form of best ----------------------------------------------


def _tableau_of(turns: Sequence[str]) -> list[int]:
    """Single picks in order, a nigiri going on a free wasabi (automatic placement, R-WASABI-PLACE)."""
    t = [0] * len(Token)
    for name in turns:
        card = Card[name.upper()]
        if card in NIGIRI and t[int(Token.WASABI)] > 0:
            t[int(Token.WASABI)] -= 1
            t[int(STACK_OF[card])] += 1
        else:
            t[int(card)] += 1
    return t


def test_play_and_replay_follow_the_numbers(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    changes = ["hand_sizes=2:10,3:5,4:8,5:7", "rounds=2", "tempura_points=7", "deck.squid=12"]
    rules = rules_of(*changes)
    record = tmp_path / "record.json"
    args = ["play", "--players", "3", "--seed", "4", "--record", str(record)]
    for c in changes:
        args += ["--rule", c]
    code, doc = cli_json(capsys, *args)
    assert code == 0
    assert len(doc["rounds"]) == 2  # rounds=2
    assert all(len(h) == 5 for rnd in doc["rounds"] for h in rnd["hands"])  # 3 players: 5 cards
    assert doc["numbers"] == {"deck.squid": "12", "hand_sizes": "2:10,3:5,4:8,5:7", "rounds": "2",
                              "tempura_points": "7"}
    # the totals are the rounds re-scored by the plain scorer, with pudding points after round 2
    tabs = [[_tableau_of([p for turn in rnd["turns"] for p in turn[s]]) for s in range(3)]
            for rnd in doc["rounds"]]
    rounds = [round_totals(t, rules) for t in tabs]
    puds = [sum(t[s][int(Token.PUDDING)] for t in tabs) for s in range(3)]
    pud = pudding_points(puds, rules)
    assert doc["totals"] == [sum(r[s] for r in rounds) + pud[s] for s in range(3)]
    assert cli(capsys, "replay", str(record))[0] == 0
    code, out, _ = cli(capsys, "replay", str(record), "--rules", "official")
    assert code == 1 and "INVALID" in out  # under the printed numbers the record does not hold


def test_best_hindsight_is_the_better_of_the_two_first_picks(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    # two players, two-card hands: seat 0 takes one card of its hand and then the card seat 1 left
    change = "maki_first_points=9"
    record = tmp_path / "record.json"
    assert cli(capsys, "play", "--players", "2", "--seed", "3", "--rule", TINY, "--rule", change,
               "--rule", "tempura_points=2", "--record", str(record))[0] == 0
    rules = rules_of(TINY, change, "tempura_points=2")
    rnd = json.loads(record.read_text(encoding="utf-8"))["rounds"][0]
    mine, theirs = rnd["hands"]
    their_first = rnd["turns"][0][1][0]
    best = None
    for k in range(2):
        my_tab = _tableau_of([mine[k], _rest(theirs, their_first)])
        their_tab = _tableau_of([their_first, mine[1 - k]])
        score = round_totals([my_tab, their_tab], rules)[0]
        best = score if best is None else max(best, score)
    _, doc = cli_json(capsys, "best", str(record), "--round", "1", "--seat", "0")
    assert doc["score"] == best


def _rest(hand: Sequence[str], taken: str) -> str:
    rest = list(hand)
    rest.remove(taken)
    return rest[0]


# --- endgame: two cards left each, a 2x2 zero-sum game -----------------------------------------


def _value_2x2(m: list[list[Fraction]]) -> Fraction:
    """Value of a zero-sum 2x2 game to the row player (von Neumann): a saddle point, else mixed."""
    lower = max(min(row) for row in m)
    upper = min(max(m[0][j], m[1][j]) for j in range(2))
    if lower == upper:
        return lower
    (a, b), (c, d) = m
    return (a * d - b * c) / (a + d - b - c)


def test_endgame_value_is_the_matrix_game_value(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    changes = ["hand_sizes=2:3,3:9,4:8,5:7", "rounds=1", "sashimi_set=2", "maki_first_points=7"]
    rules = rules_of(*changes)
    taken = [["sashimi"], ["maki2"]]
    hands = [["sashimi", "maki3"], ["tempura", "maki1"]]
    position = {"round": 1, "hands": hands, "taken": [[taken[0]], [taken[1]]]}
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position), encoding="utf-8")
    # Turn 2: player 0 picks from its hand, player 1 from its own; turn 3: each takes the card the
    # other left. The difference of the round totals (one round: puddings would score; none here).
    m: list[list[Fraction]] = []
    for i in range(2):
        row = []
        for j in range(2):
            t0 = _tableau_of([taken[0][0], hands[0][i], hands[1][1 - j]])
            t1 = _tableau_of([taken[1][0], hands[1][j], hands[0][1 - i]])
            s = round_totals([t0, t1], rules)
            row.append(Fraction(s[0] - s[1]))
        m.append(row)
    args = ["endgame", str(path)]
    for c in changes:
        args += ["--rule", c]
    _, doc = cli_json(capsys, *args)
    assert Fraction(doc["value"]).limit_denominator(1000) == _value_2x2(m)


# --- check: executor and Z3 model agree under each single change ------------------------------

_FAMILIES = {Effect.SCORING: ["round-scores", "game-totals"], Effect.DEAL: ["executor-games", "game-totals"]}


@pytest.mark.parametrize("number", NUMBERS, ids=lambda n: n.name)
def test_check_agrees_under_each_single_change(number: Any) -> None:
    from sushigo.api.check import check_outcome

    base = "dummy-2p" if number.name == "dummy_hand_size" else "official"
    out = check_outcome(rules=base, rule=[SINGLE_CHANGES[number.name]], only=_FAMILIES[number.effect],
                        examples=6, no_edge=True)
    assert out.code == 0, out.data
    assert out.data["outcome"] == "proved"


def test_second_place_may_pay_more_than_first(capsys: pytest.CaptureFixture[str]) -> None:
    # maki_second_points=8 > first 6: a tableau may score 8 maki points, and the counts say so
    change = "maki_second_points=8"
    rules = rules_of(change)
    assert rules.maki_points_cap == 8
    _, doc = cli_json(capsys, "tableaux", "--cards", "3", "--maki-points", "8", "--count", "--all-scores",
                      "--rule", change)
    assert {int(k): n for k, n in doc["counts"].items()} == brute_counts(3, 8, rules)


def test_card_points_cap_by_hand() -> None:
    # official: a squid on wasabi is 3 x 3 = 9 points over 2 cards, more than a third of a sashimi set
    assert OFFICIAL.card_points_cap() == Fraction(9, 2)
    # two tempura worth 50: 25 a card
    assert rules_of("tempura_points=50").card_points_cap() == 25
    # dumplings 1, 3, 6, 10, 15, 21 for 1..6 and no wasabi bonus: six dumplings' 21 / 6 = 3.5 a card
    # beat a sashimi's 10 / 3 and a squid's 3
    rules = rules_of("dumpling_points=1,3,6,10,15,21", "wasabi_multiplier=1")
    assert rules.card_points_cap() == Fraction(7, 2)


def test_every_number_is_documented() -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "rule-numbers.md").read_text(encoding="utf-8")
    for n in NUMBERS:
        assert f"`{n.name}`" in text, n.name


# --- diff: a single change of each number is found, or proved unable to matter ----------------


@pytest.mark.parametrize("number", NUMBERS, ids=lambda n: n.name)
def test_diff_finds_each_single_change(number: Any) -> None:
    from sushigo.api.diff import diff_outcome

    change = SINGLE_CHANGES[number.name]
    out = diff_outcome("official", "official", rule_b=[change], no_extend=True, timeout=60)
    doc = out.data
    assert [p["name"] for p in doc["differing_parameters"]] == [number.name]
    assert number.name in doc["covered_parameters"]
    if number.name == "dummy_hand_size":
        # read only by the dummy-2p variant, which official does not play: agreement, with the reason
        assert doc["status"] == "equivalent"
        assert "dummy-2p" in doc["proofs"][0]["note"]
        dummy = diff_outcome("dummy-2p", "dummy-2p", rule_b=[change], no_extend=True, timeout=60).data
        assert dummy["status"] == "differ"
        assert dummy["witness"]["situation"]["hand_size"] == {"a": 9, "b": 8}
        return
    assert doc["status"] == "differ", doc
    w = doc["witness"]
    assert number.name in w["causes"]
    if number.effect is Effect.SCORING:
        # the witness table scores differently under the two rulesets (plain scorer, re-scored here)
        tabs = [parse_tableau(t).counts for t in w["situation"]["tableaux"]]
        n = len(tabs)
        seats = list(range(n))
        a, b = OFFICIAL, rules_of(change)
        game_a = round_totals(tabs, a), pudding_points([t[int(Token.PUDDING)] for t in tabs], a)
        game_b = round_totals(tabs, b), pudding_points([t[int(Token.PUDDING)] for t in tabs], b)
        assert game_a != game_b, (w["summary"], seats)


# --- one table of keys (issue 27 item 6, issue 31's --rule frictions) ---------------------------


def test_rule_and_a_rules_file_take_the_same_keys(tmp_path: Path) -> None:
    """``max_players = 6`` in a rules file and ``--rule max_players=6`` are one key: with a hand size
    for 6 players (6 cards: 3 rounds of 6 hands of 6 is 108, the whole deck) both give one ruleset."""
    sizes = "2:10,3:9,4:8,5:7,6:6"
    by_rule = rules_of("max_players=6", f"hand_sizes={sizes}")
    path = tmp_path / "six.toml"
    path.write_text('max_players = 6\n[hand_sizes]\n6 = 6\n')
    by_file = get_ruleset(str(path))
    assert by_rule.max_players == by_file.max_players == 6
    assert by_rule.hand_size(6) == by_file.hand_size(6) == 6
    from sushigo.spec.rulefile import KEYS, same_rules

    assert same_rules(by_rule, by_file)
    from sushigo.spec.ruleset import PARAMETER_BY_NAME, SETTABLE_BY_NAME

    # every key of a file but its meta keys is a --rule name, and every --rule name a file key
    settable = {*SETTABLE_BY_NAME, *PARAMETER_BY_NAME}
    assert {k for k in KEYS if k not in ("format", "name", "source", "extends")} == settable


def test_max_players_alone_names_the_missing_hand_size(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "score", "--rule", "max_players=6", "tempura", "egg")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "hand_sizes" in err and "2, 3, 4, 5, 6 players" in err


@pytest.mark.parametrize("order", [("deck.tempura=0", "deck.sashimi=30"),
                                   ("deck.sashimi=30", "deck.tempura=0")])
def test_overrides_are_validated_once_whatever_their_order(order: tuple[str, str]) -> None:
    """108 - 14 tempura + 16 sashimi = 110 cards: enough for every deal (at most 105), in either order,
    though the deck of the first change alone (94) is not."""
    rules = rules_of(*order)
    assert rules.copies(Card.TEMPURA) == 0 and rules.copies(Card.SASHIMI) == 30
    assert rules.deck_size() == 110
    with pytest.raises(RulesError, match="too small"):
        rules_of("deck.tempura=0")


def test_a_misspelt_rule_name_gets_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "score", "--rule", "tempura_point=6", "tempura", "egg")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "did you mean 'tempura_points'?" in err
    _, _, err = cli(capsys, "score", "--rule", "maki_frist_tie=each", "tempura", "egg")
    assert "did you mean 'maki_first_tie'?" in err
    _, _, err = cli(capsys, "score", "--rule", "max_player=6", "tempura", "egg")
    assert "did you mean 'max_players'?" in err


def test_the_rules_file_reads_the_rulesets_table() -> None:
    """One table: a rules file's numbers and their meanings are spec.ruleset's, never restated."""
    from sushigo.spec import rulefile
    from sushigo.spec.ruleset import SETTABLE_BY_NAME

    for key, (_, meaning) in rulefile.NUMBERS.items():
        assert meaning == SETTABLE_BY_NAME[key].description
    assert set(rulefile.NUMBERS) | {"deck"} == set(SETTABLE_BY_NAME)


def test_the_shipped_ruleset_schema_is_the_generated_one() -> None:
    """sushigo/schemas/ruleset.json is written by tools/ruleset_schema.py from the table; edit the
    table (spec.ruleset) and run the tool, never the file."""
    from sushigo.spec import rulefile

    with open(rulefile.schema_path(), encoding="utf-8") as fh:
        shipped = fh.read()
    assert shipped == rulefile.json_schema_text(), "run: python tools/ruleset_schema.py"
    schema = json.loads(shipped)
    assert set(schema["properties"]) == set(rulefile.KEYS)
    assert schema["properties"]["dumpling_points"]["description"] == next(
        n.description for n in NUMBERS if n.name == "dumpling_points")
