"""Scoring shapes for Party's kinds (issue 27 item 2): each shape's plain and Z3 readings agree.

Expected values are worked by hand from /work/shared/PARTY.md, which cites the Sushi Go Party!
rulebook by page (RB pN), or come from an independent computation: the Z3 proofs compare each
shape's Z3 terms with a table of its plain points over every count of a bounded domain (unsat
of a difference); the greedy onigiri split is held to a brute force over every split; bounds
and reductions to an enumeration of the domain.
"""

from __future__ import annotations

import functools
import itertools
import re
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st
from sushigo.spec.kinds import ByCount, PerCard, Sets
from sushigo.spec.model.core import Model
from sushigo.spec.model.rulevars import RuleVars
from sushigo.spec.ruleset import OFFICIAL
from sushigo.spec.shapes import (
    FRUIT_ICONS,
    Distinct,
    GameEnd,
    MostFewest,
    Opponents,
    PerVariant,
    Places,
    Shape,
    Table,
)

EEL = Table((0, -3, 7))  # RB p10: 1 eel -3, 2 or more 7
TOFU = Table((0, 2, 6, 0))  # RB p11: 1 tofu 2, 2 tofu 6, 3 or more 0
ONIGIRI = Distinct((0, 1, 4, 9, 16))  # RB p10: a set of 1, 2, 3, 4 different shapes
EDAMAME = Opponents(per=1, cap=4)  # RB p10: 1 a card per opponent holding edamame, at most 4
TEMAKI = MostFewest(most=4, fewest=4)  # RB p8
PUDDING = GameEnd(MostFewest(most=6, fewest=6))  # RB p16
ICE_CREAM = GameEnd(Sets(4, 12))  # RB p16: 12 a set of 4
FRUIT = GameEnd(PerVariant((-2, 0, 1, 3, 6, 10), FRUIT_ICONS))  # RB p16
FRUIT_COPIES = [2, 2, 2, 3, 3, 3]
MAKI = Places(icons=(1, 2, 3), tiers=((2, (6, 3)), (6, (6, 4, 2))))  # RB p8
MAKI_COPIES = [4, 5, 3]  # 1, 2 and 3 icons  # double watermelon, orange, pineapple x2; each mixed pair x3

Rows = Sequence[Sequence[int]]
Plain = Callable[[Rows], Sequence[int]]


def _domain(seats: int, most: Sequence[int]) -> Iterator[list[list[int]]]:
    """Every table of counts: ``seats`` rows, variant ``v`` from 0 to ``most[v]``."""
    width = len(most)
    for flat in itertools.product(*[range(m + 1) for _ in range(seats) for m in most]):
        yield [list(flat[i * width:(i + 1) * width]) for i in range(seats)]


def _differs(shape: Shape, seats: int, most: Sequence[int], rules: Any = None,
             plain: Plain | None = None, template: RuleVars | None = None) -> z3.CheckSatResult:
    """sat when some bounded counts give a Z3 term unlike the plain points (``plain``: the shape's own).

    With ``template``, the terms read the template's inputs, fixed to ``rules``' values.
    """
    plain = plain or (lambda rows: shape.points(rows, rules))
    xs = [[z3.Int(f"p{i}_v{v}") for v in range(len(most))] for i in range(seats)]
    flat = [x for row in xs for x in row]
    tops = [m for _ in range(seats) for m in most]

    def tree(k: int, prefix: list[int]) -> list[z3.ArithRef]:
        # The plain points as a decision tree on the counts, one leaf per count table.
        if k == len(flat):
            rows = [prefix[i * len(most):(i + 1) * len(most)] for i in range(seats)]
            return [z3.IntVal(p) for p in plain(rows)]
        subs = [tree(k + 1, [*prefix, v]) for v in range(tops[k] + 1)]
        out = subs[-1]
        for v in range(len(subs) - 2, -1, -1):
            out = [z3.If(flat[k] == v, a, b) for a, b in zip(subs[v], out, strict=True)]
        return out

    terms = shape.terms(xs, rules if template is None else template, most)
    s = z3.Solver()
    s.set("timeout", 20_000)
    if template is not None:
        s.add(*template.facts(rules))
    s.add(*[z3.And(x >= 0, x <= t) for x, t in zip(flat, tops, strict=True)])
    s.add(z3.Or(*[t != p for t, p in zip(terms, tree(0, []), strict=True)]))
    return s.check()


# --- hand-worked examples (PARTY.md, by rulebook page) --------------------------------------------


def test_eel_and_tofu_tables_rb_p10_p11() -> None:
    # RB p10: one eel -3, two or more 7. RB p11: one tofu 2, two 6, three or more 0.
    assert [EEL.score([n], None) for n in range(6)] == [0, -3, 7, 7, 7, 7]
    assert [TOFU.score([n], None) for n in range(6)] == [0, 2, 6, 0, 0, 0]
    assert EEL.points([[1], [2], [0]], None) == (-3, 7, 0)


def test_a_table_reads_a_ruleset_field_as_by_count_does() -> None:
    # RULES.md: dumplings 1, 3, 6, 10, 15 for 1 to 5 or more; ByCount is the independent path.
    dumpling = Table("dumpling_points")
    assert [dumpling.score([n], OFFICIAL) for n in range(8)] == [0, 1, 3, 6, 10, 15, 15, 15]
    falling = OFFICIAL.replace(dumpling_points=(0, 2, 6, 0))  # a Ruleset may hold a falling table
    assert [dumpling.score([n], falling) for n in range(6)] == \
        [ByCount("dumpling_points").score(n, falling) for n in range(6)] == [0, 2, 6, 0, 0, 0]


def test_onigiri_sets_rb_p10() -> None:
    # Variants: circle, triangle, square, rectangle.
    assert ONIGIRI.score([1, 1, 2, 0], None) == 9 + 1  # RB p10's example
    assert ONIGIRI.score([1, 1, 1, 1], None) == 16
    assert ONIGIRI.score([2, 2, 2, 2], None) == 32  # every copy (2 of each): two sets of four
    assert ONIGIRI.score([2, 0, 0, 0], None) == 1 + 1  # two sets of one
    assert ONIGIRI.score([2, 1, 0, 1], None) == 9 + 1
    assert ONIGIRI.score([0, 0, 0, 0], None) == 0


def test_edamame_rb_p10() -> None:
    # RB p10's example: 3, 2 and 1 edamame score 6, 4 and 2 (each seat has two holding opponents).
    assert EDAMAME.points([[3], [2], [1]], None) == (6, 4, 2)
    # A seat without edamame scores nothing and is not a holder: 2 edamame with one holder: 2.
    assert EDAMAME.points([[2], [0], [1], [0]], None) == (2, 0, 1, 0)
    # Six seats all holding: 5 opponents, capped at 4 a card: 2 cards score 8, 1 card 4.
    assert EDAMAME.points([[2], [1], [1], [1], [1], [1]], None) == (8, 4, 4, 4, 4, 4)
    # The tile's "Maximum 4 per round": a seat's edamame score at most 4, unlike RB p10's example.
    per_round = Opponents(per=1, cap=4, cap_per="round")
    assert per_round.points([[3], [2], [1]], None) == (4, 4, 2)
    assert per_round.points([[2], [1], [1], [1], [1], [1]], None) == (4, 4, 4, 4, 4, 4)


def test_temaki_rb_p8() -> None:
    # Most +4, fewest (none counts) -4; tied seats take the full amount; 2 players lose nothing.
    assert TEMAKI.points([[3], [1], [0]], None) == (4, 0, -4)
    assert TEMAKI.points([[2], [2], [0]], None) == (4, 4, -4)
    assert TEMAKI.points([[1], [0], [0], [0]], None) == (4, -4, -4, -4)
    assert TEMAKI.points([[2], [1]], None) == (4, 0)
    assert TEMAKI.points([[1], [3], [2], [2], [3]], None) == (-4, 4, 0, 0, 4)


@pytest.mark.parametrize(("reading", "tied", "none", "two"), [
    ("both", 0, 0, 4),  # +4 and -4 each; with 2 players no penalty: +4
    ("nothing", 0, 0, 0),
    ("most", 4, 4, 4),
    ("most-unless-none", 4, -4, 4),
])
def test_temaki_all_tied_readings(reading: Any, tied: int, none: int, two: int) -> None:
    # PARTY.md section 4.2: the rulebook leaves every seat tied open; the peers' readings.
    shape = MostFewest(4, 4, all_tied=reading)
    assert shape.points([[2], [2], [2]], None) == (tied,) * 3
    assert shape.points([[0], [0], [0]], None) == (none,) * 3
    assert shape.points([[2], [2]], None) == (two,) * 2
    assert shape.points([[2], [1], [1]], None) == (4, -4, -4)  # not all tied: the readings agree


def test_desserts_rb_p16() -> None:
    # Pudding (Party): most +6, fewest -6; 2 players: no penalty.
    assert PUDDING.points([[3], [1], [0]], None) == (6, 0, -6)
    assert PUDDING.points([[3], [1]], None) == (6, 0)
    # Green tea ice cream: 12 a set of four, leftovers nothing.
    assert ICE_CREAM.points([[3], [4], [9], [0]], None) == (0, 12, 24, 0)
    # Fruit: card kinds double watermelon, double orange, double pineapple, W+O, W+P, O+P.
    assert FRUIT.points([[0] * 6], None) == (-6,)  # no fruit: -2 for each of the three
    # 2 double watermelon + W+O: watermelon 5 icons (10), orange 1 (0), pineapple 0 (-2).
    assert FRUIT.points([[2, 0, 0, 1, 0, 0]], None) == (8,)
    # W+O, W+P, O+P: two of each fruit: 1 + 1 + 1.
    assert FRUIT.points([[0, 0, 0, 1, 1, 1]], None) == (3,)
    # RB p16's example counts icons, not cards (0, 1 and 4 icons: -2 + 0 + 6); one icon a "card" here.
    table = (-2, 0, 1, 3, 6, 10)
    assert PerVariant(table, ((1, 0, 0), (0, 1, 0), (0, 0, 1))).score([0, 1, 4], None) == 4
    extra = GameEnd(PerVariant(table, FRUIT_ICONS, none=-6))  # "no fruit loses 6" as a separate penalty
    assert extra.points([[0] * 6], None) == (-12,)
    assert extra.points([[0, 0, 0, 1, 1, 1]], None) == (3,)


def test_party_maki_places_rb_p8() -> None:
    # Counts of maki with 1, 2, 3 icons. RB p8's example: totals 5, 5, 3, 1 score 6, 6, 3, 0.
    assert MAKI.points([[5, 0, 0], [1, 2, 0], [0, 0, 1], [1, 0, 0]], None) == (6, 6, 3, 0)
    # No maki, no place: totals 0, 2 score 0, 6.
    assert MAKI.points([[0, 0, 0], [0, 1, 0]], None) == (0, 6)
    # 6 to 8 players: 6, 4, 2 by distinct totals 3, 3, 2, 1, 0, 2.
    six = [[0, 0, 1], [0, 0, 1], [0, 1, 0], [1, 0, 0], [0, 0, 0], [2, 0, 0]]
    assert MAKI.points(six, None) == (6, 6, 4, 2, 0, 4)
    assert MAKI.points(six[:5], None) == (6, 6, 3, 0, 0)  # 5 players: 6, 3
    assert MAKI.bounds(MAKI_COPIES, 3, None) == (0, 6)


# --- Z3 reading == plain reading over the whole bounded domain ------------------------------------

CASES: list[tuple[str, Shape, int, list[int], Any]] = [
    ("eel", EEL, 1, [20], None),
    ("tofu", TOFU, 1, [20], None),
    ("tofu-two-variants", TOFU, 1, [4, 4], None),
    ("dumpling-official", Table("dumpling_points"), 1, [20], OFFICIAL),
    ("dumpling-falling", Table("dumpling_points"), 1, [20],
     OFFICIAL.replace(dumpling_points=(0, 5, 2, 9, 0))),
    ("onigiri-copies", ONIGIRI, 1, [2, 2, 2, 2], None),
    ("onigiri-3-each", ONIGIRI, 1, [3, 3, 3, 3], None),
    ("onigiri-uneven", Distinct((7, -1, 3, 2)), 1, [4, 1, 2], None),  # t[0] ignored, t[3+] = 2
    *[(f"edamame-{n}p", EDAMAME, n, [3 if n <= 4 else 2], None) for n in (2, 3, 4, 5)],
    ("edamame-6p", EDAMAME, 6, [1], None),
    *[(f"edamame-round-{n}p", Opponents(1, 4, "round"), n, [3 if n <= 4 else 2], None) for n in (2, 3, 5)],
    ("edamame-2-per-cap-3", Opponents(2, 3), 4, [3], None),
    *[(f"temaki-{r}-{n}p", MostFewest(4, 4, all_tied=r), n, [3 if n <= 4 else 2], None)  # type: ignore[arg-type]
      for r in ("both", "nothing", "most", "most-unless-none") for n in (2, 3, 5)],
    ("temaki-penalty-from-4", MostFewest(4, 3, penalty_from=4), 4, [3], None),
    ("pudding-field", GameEnd(MostFewest("pudding_most_points", "pudding_fewest_penalty")), 4, [3], OFFICIAL),
    ("ice-cream", ICE_CREAM, 1, [15], None),
    ("ice-cream-two-seats", ICE_CREAM, 2, [15], None),
    ("game-end-by-count", GameEnd(ByCount("dumpling_points")), 1, [15], OFFICIAL),
    ("game-end-per-card", GameEnd(PerCard(3)), 1, [15], None),
    ("fruit", FRUIT, 1, FRUIT_COPIES, None),
    ("fruit-extra-penalty", GameEnd(PerVariant((-2, 0, 1, 3, 6, 10), FRUIT_ICONS, none=-6)), 1,
     FRUIT_COPIES, None),
    ("game-end-table", GameEnd(EEL), 3, [3], None),
    ("maki-3p", MAKI, 3, [2, 1, 1], None),
    ("maki-4p", MAKI, 4, [1, 1, 1], None),
    ("maki-6p", MAKI, 6, [0, 0, 3], None),
    ("maki-7p", MAKI, 7, [1, 0, 0], None),
]


@pytest.mark.parametrize(("shape", "seats", "most", "rules"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_z3_reading_equals_plain_reading(shape: Shape, seats: int, most: list[int], rules: Any) -> None:
    """Z3: no count table in the domain gives a term unlike the plain points (unsat)."""
    assert _differs(shape, seats, most, rules) == z3.unsat


#: Rule numbers unlike the printed ones, the dumpling table of the same length (a template's shape).
ODD = OFFICIAL.replace(dumpling_points=(0, 5, 2, 9, 0, 1), tempura_set=4, tempura_points=3,
                       nigiri_points=(2, 3, 5), pudding_most_points=5, pudding_fewest_penalty=2)
TEMPLATED: list[tuple[str, Shape, int, list[int]]] = [
    ("table", Table("dumpling_points"), 1, [8]),
    ("distinct", Distinct("dumpling_points"), 1, [2, 2, 2, 2]),
    ("per-variant", PerVariant("dumpling_points", ((2, 0), (0, 2), (1, 1)), none="tempura_points"), 1,
     [2, 2, 2]),
    ("most-fewest", MostFewest("pudding_most_points", "pudding_fewest_penalty", penalty_from="tempura_set"),
     3, [3]),
    ("most-fewest-unless-none", MostFewest("pudding_most_points", "pudding_fewest_penalty", "tempura_set",
                                           "most-unless-none"), 3, [2]),
    ("opponents", Opponents(("nigiri_points", 0), "tempura_points"), 3, [3]),
    ("opponents-round", Opponents(("nigiri_points", 0), "tempura_points", "round"), 4, [2]),
    ("game-end-sets", GameEnd(Sets("tempura_set", "tempura_points")), 1, [12]),
    ("places", Places((1, 2), ((2, "nigiri_points"),)), 4, [2, 1]),
]


@pytest.mark.parametrize("rules", [OFFICIAL, ODD], ids=["official", "odd"])
@pytest.mark.parametrize(("shape", "seats", "most"), [c[1:] for c in TEMPLATED],
                         ids=[c[0] for c in TEMPLATED])
def test_a_template_reads_the_numbers_as_inputs(shape: Shape, seats: int, most: list[int],
                                                rules: Any) -> None:
    """One set of terms built on the official numbers as a template's inputs, fixed to either ruleset."""
    template = RuleVars(Model(), OFFICIAL)
    assert _differs(shape, seats, most, rules, template=template) == z3.unsat
    assert template.vars, "the numbers were not read as inputs"


@pytest.mark.parametrize(("shape", "seats", "most", "wrong"), [
    (EEL, 1, [6], lambda rows: [Table((0, -3, 7, 5)).score(rows[0], None)]),  # [RYS]: 2+ eel score 5
    (EDAMAME, 3, [3], lambda rows: Opponents(1, 4, "round").points(rows, None)),
    # [RYS]: opponents' cards counted, not opponents
    (EDAMAME, 3, [3], lambda rows: [sum(r) * min(4, sum(map(sum, rows)) - sum(r)) for r in rows]),
    (TEMAKI, 3, [2], lambda rows: MostFewest(4, 4, all_tied="most").points(rows, None)),
    # "both" and "nothing" differ only where nobody loses: at 2 players (+4 against 0).
    (TEMAKI, 2, [2], lambda rows: MostFewest(4, 4, all_tied="nothing").points(rows, None)),
    # [SUB]-like: a third card of a shape ignored
    (ONIGIRI, 1, [3, 3, 3, 3], lambda rows: [ONIGIRI.score([min(c, 2) for c in rows[0]], None)]),
    (FRUIT, 1, FRUIT_COPIES, lambda rows: [Table((-2, 0, 1, 3, 6, 10)).score([sum(rows[0])], None)]),
], ids=["eel-5", "edamame-cap", "edamame-cards", "temaki-tied", "temaki-tied-2p", "onigiri-third",
        "fruit-cards"])
def test_a_different_reading_is_caught(shape: Shape, seats: int, most: list[int], wrong: Plain) -> None:
    """The proof can fail: against another reading it finds counts where the two differ (sat)."""
    assert _differs(shape, seats, most, None, wrong) == z3.sat


#: Each shape with the copies the Party deck holds of each of its variants (RB p2; PARTY.md's split).
PARTY_COPIES: list[tuple[str, Shape, list[int]]] = [
    ("eel", EEL, [8]), ("tofu", TOFU, [8]), ("onigiri", ONIGIRI, [2, 2, 2, 2]), ("edamame", EDAMAME, [8]),
    ("edamame-round", Opponents(1, 4, "round"), [8]), ("temaki", TEMAKI, [12]), ("pudding", PUDDING, [15]),
    ("ice-cream", ICE_CREAM, [15]), ("fruit", FRUIT, FRUIT_COPIES), ("maki", MAKI, MAKI_COPIES),
]


@settings(max_examples=60)
@given(st.data())
@pytest.mark.parametrize(("shape", "most"), [c[1:] for c in PARTY_COPIES], ids=[c[0] for c in PARTY_COPIES])
def test_z3_reading_at_up_to_8_players(shape: Shape, most: list[int], data: st.DataObject) -> None:
    """Past the exhaustive domains: 2 to 8 seats, each with up to every copy, the terms evaluated."""
    seats = data.draw(st.integers(2, 8), label="seats")
    rows = [[data.draw(st.integers(0, m)) for m in most] for _ in range(seats)]
    xs = [[z3.Int(f"p{i}_v{v}") for v in range(len(most))] for i in range(seats)]
    fix = [(x, z3.IntVal(n)) for xrow, row in zip(xs, rows, strict=True)
           for x, n in zip(xrow, row, strict=True)]
    got = [z3.simplify(z3.substitute(t, *fix)).as_long() for t in shape.terms(xs, None, most)]
    assert got == list(shape.points(rows, None))


# --- onigiri: the greedy split is the best split --------------------------------------------------


@functools.cache
def _best_split(counts: tuple[int, ...], table: tuple[int, ...]) -> int:
    """The most any split of the cards into sets of different variants scores (brute force)."""
    if not any(counts):
        return 0
    held = [v for v, c in enumerate(counts) if c]
    best = None
    for size in range(1, len(held) + 1):
        for chosen in itertools.combinations(held, size):
            rest = tuple(c - (v in chosen) for v, c in enumerate(counts))
            value = table[min(size, len(table) - 1)] + _best_split(rest, table)
            best = value if best is None else max(best, value)
    assert best is not None
    return best


def test_greedy_onigiri_is_the_best_split_brute_force() -> None:
    table = (0, 1, 4, 9, 16)
    for counts in itertools.product(range(4), repeat=4):
        assert ONIGIRI.score(list(counts), None) == _best_split(counts, table), counts
    # A table that is not superadditive: two sets of one (3 + 3) beat one set of two (4).
    assert Distinct((0, 3, 4)).score([1, 1], None) == 4 < _best_split((1, 1), (0, 3, 4)) == 6


def _split_beats_greedy(table: tuple[int, ...], most: int) -> z3.CheckSatResult:
    """sat when some split of some bounded counts into sets of different variants scores more than
    the greedy Z3 term: each non-empty set of variants is used ``x_S >= 0`` times, and each
    variant's cards are the uses of the sets holding it."""
    shape = Distinct(table)
    counts = [z3.Int(f"c{v}") for v in range(4)]
    subsets = [s for k in range(1, 5) for s in itertools.combinations(range(4), k)]
    uses = {s: z3.Int("x_" + "".join(map(str, s))) for s in subsets}
    solver = z3.Solver()
    solver.set("timeout", 20_000)
    solver.add(*[z3.And(c >= 0, c <= most) for c in counts], *[x >= 0 for x in uses.values()])
    solver.add(*[counts[v] == z3.Sum([uses[s] for s in subsets if v in s]) for v in range(4)])
    split = z3.Sum([uses[s] * table[min(len(s), len(table) - 1)] for s in subsets])
    solver.add(split > shape.terms([counts], None, [most] * 4)[0])
    return solver.check()


def test_greedy_onigiri_is_the_best_split_in_z3() -> None:
    assert _split_beats_greedy((0, 1, 4, 9, 16), 4) == z3.unsat
    assert _split_beats_greedy((0, 3, 4, 5, 6), 4) == z3.sat  # not superadditive: the proof fails


# --- bounds, reduced state ------------------------------------------------------------------------

BOUNDS: list[tuple[str, Shape, int, list[int], Any]] = [
    ("eel", EEL, 1, [8], None), ("eel-one-copy", EEL, 1, [1], None), ("tofu", TOFU, 1, [8], None),
    ("onigiri", ONIGIRI, 1, [2, 2, 2, 2], None), ("onigiri-uneven", ONIGIRI, 1, [3, 1, 0, 2], None),
    ("onigiri-negative", Distinct((0, 2, -3, 1)), 1, [2, 1, 2], None),
    ("edamame", EDAMAME, 4, [3], None), ("edamame-6p", EDAMAME, 6, [1], None),
    ("edamame-round", Opponents(1, 4, "round"), 3, [3], None),
    *[(f"temaki-{r}", MostFewest(4, 4, all_tied=r), n, [2], None)  # type: ignore[arg-type]
      for r in ("both", "nothing", "most", "most-unless-none") for n in (2, 3)],
    ("pudding", PUDDING, 3, [3], None), ("ice-cream", ICE_CREAM, 1, [15], None),
    ("fruit", FRUIT, 1, FRUIT_COPIES, None),
    ("fruit-extra", GameEnd(PerVariant((-2, 0, 1, 3, 6, 10), FRUIT_ICONS, none=-6)), 1, FRUIT_COPIES, None),
    ("maki-3p", MAKI, 3, [2, 1, 1], None), ("maki-6p", MAKI, 6, [0, 1, 1], None),
    ("maki-one-total", MAKI, 3, [0, 0, 1], None),  # every seat shows 0 or 3: no second place
    ("places-negative", Places((1,), ((2, (-1, 5)),)), 3, [2], None),
]


@pytest.mark.parametrize(("shape", "seats", "most", "rules"), [c[1:] for c in BOUNDS],
                         ids=[c[0] for c in BOUNDS])
def test_bounds_are_exact(shape: Shape, seats: int, most: list[int], rules: Any) -> None:
    """The least and the most a seat scores over every count table of the domain."""
    seen = [p for rows in _domain(seats, most) for p in shape.points(rows, rules)]
    assert shape.bounds(most, seats, rules) == (min(seen), max(seen))


def test_per_variant_bounds_are_sound_where_not_exact() -> None:
    # One card kind with 1 icon of one variant and 2 of the other: each variant's best entry
    # (1 icon: 5) is within reach alone, never both at once. Cards 0, 1, 2 score 0, 5 - 5, -5 - 5.
    shape = PerVariant((0, 5, -5), ((1, 2),))
    assert [shape.score([n], None) for n in range(3)] == [0, 0, -10]
    assert shape.bounds([2], 1, None) == (-10, 10)


def test_bounds_by_hand() -> None:
    assert EEL.bounds([8], 1, None) == (-3, 7)
    assert TOFU.bounds([1], 1, None) == (0, 2)  # one copy: 2 at most
    assert ONIGIRI.bounds([2, 2, 2, 2], 1, None) == (0, 32)
    assert EDAMAME.bounds([8], 8, None) == (0, 32)  # 8 cards, 7 holding opponents, capped at 4 a card
    assert TEMAKI.bounds([12], 2, None) == (0, 4)  # 2 players: no penalty
    assert FRUIT.bounds(FRUIT_COPIES, 1, None) == (-6, 30)  # 30 icons: 10 of each fruit


@pytest.mark.parametrize(("shape", "most"), [
    (EEL, [5]), (TOFU, [6]), (ONIGIRI, [2, 3, 2, 1]), (Distinct((0, 5, 1, 2)), [2, 2, 2]),
    (FRUIT.inner, [1, 1, 1, 1, 1, 1]),
], ids=["eel", "tofu", "onigiri", "distinct-odd", "fruit"])
def test_reduced_state_is_exact(shape: Any, most: list[int]) -> None:
    """score(t + f) == banked + score(reduce(t) + f) for every tableau t and every future f."""
    grid = list(itertools.product(*[range(m + 1) for m in most]))
    for t in grid:
        kept, banked = shape.reduce(list(t), None)
        for f in grid:
            now = shape.score([a + b for a, b in zip(t, f, strict=True)], None)
            assert now == banked + shape.score([a + b for a, b in zip(kept, f, strict=True)], None), (t, f)


def test_keep_uses_the_kinds_vocabulary() -> None:
    assert [s.keep() for s in (EEL, ONIGIRI, EDAMAME, TEMAKI, PUDDING, ICE_CREAM, FRUIT, MAKI)] == \
        ["capped", "residue", "count", "count", "count", "count", "count", "icons"]
    assert ONIGIRI.reduce([3, 1, 2, 2], None) == ((2, 0, 1, 1), 16)
    assert TOFU.reduce([5], None) == ((3,), 0)
    assert [s.seated for s in (EEL, ONIGIRI, EDAMAME, TEMAKI, PUDDING, ICE_CREAM, FRUIT)] == \
        [False, False, True, True, True, False, False]


def test_bad_readings_are_refused() -> None:
    with pytest.raises(ValueError, match="cap_per"):
        Opponents(1, 4, "turn")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="all_tied"):
        MostFewest(4, 4, all_tied="split")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="icons"):
        PerVariant((0, 1), ((1, 0), (1,)))
    with pytest.raises(ValueError, match="tiers"):
        Places((1,), ((6, (6, 4, 2)), (2, (6, 3))))


def test_importing_the_shapes_loads_no_z3() -> None:
    code = ("import sys\nfrom sushigo.spec.shapes import Table\n"
            "Table((0, -3, 7)).score([2], None)\nprint('z3' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_the_page_examples_run() -> None:
    """docs/shapes.md: every Python example runs, and its asserts hold the hand-worked values."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "shapes.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", page, re.M | re.S)
    assert len(blocks) >= 5, "docs/shapes.md lost its examples"
    for block in blocks:
        exec(compile(block, "docs/shapes.md", "exec"), {})
