"""Card kinds as data (issue 13 item 1): one definition per kind, read by both scorers.

Expected values are worked by hand from /work/shared/RULES.md ("Tempura: 5 per pair.
Sashimi: 10 per set of three. Dumpling: 1, 2, 3, 4, 5+ dumplings score 1, 3, 6, 10, 15.
Nigiri: egg 1, salmon 2, squid 3; tripled on wasabi"), or come from an independent path
(the plain scorer's precomputed fast path against the general reading of the definitions;
Z3 against plain Python).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st
from sushigo.solver.reduce import reduce_tableau
from sushigo.spec.cards import ALIASES, Card, Token, parse_card
from sushigo.spec.kinds import KINDS, CardKind, PerCard, Sets, categories_of, dish_points_of, tokens_of
from sushigo.spec.model.budget import decide
from sushigo.spec.model.core import Model
from sushigo.spec.model.scoring import round_terms, scoring_term, tableau_vars
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.scoring import category_points, dish_points, round_totals, score_round
from sushigo.spec.tableau import Tableau

VARIANT = OFFICIAL.replace(tempura_set=3, tempura_points=7, nigiri_points=(2, 3, 5), wasabi_multiplier=2,
                           dumpling_points=(0, 2, 4, 8), maki_icons=(2, 1, 3))

#: A throwaway card kind that only scores: 4 points per card (the docs/extending.md example).
NATTO = CardKind("natto", copies=6, scoring=PerCard(4), category="natto", rule="R-NATTO", aliases=("nat",))
WITH_NATTO: tuple[CardKind, ...] = (*KINDS, NATTO)


def test_definitions_give_the_enumerations_and_the_deck() -> None:
    # RULES.md: 108 cards, 14 tempura, ..., 6 wasabi, 4 chopsticks.
    assert sum(k.copies for k in KINDS) == 108
    assert [k.name for k in KINDS] == [c.label for c in Card]
    assert [t.label for t in tokens_of(KINDS)] == [t.label for t in Token]
    assert OFFICIAL.deck == tuple(k.copies for k in KINDS)
    assert ALIASES["sq"] == "squid" and parse_card("chop") is Card.CHOPSTICKS
    assert categories_of(KINDS) == ("tempura", "sashimi", "dumpling", "nigiri", "maki")


def test_hand_worked_tableau() -> None:
    # 3 tempura (one pair: 5), 4 sashimi (one set: 10), 6 dumplings (15), egg 1, salmon on
    # wasabi 6, 2 squid 6: nigiri 13. RULES.md scoring lines.
    tab = Tableau.parse("tempura*3 sashimi*4 dumpling*6 egg wasabi+salmon squid*2").counts
    assert dish_points(tab, OFFICIAL) == (5, 10, 15, 13)
    assert dish_points_of(tab, OFFICIAL) == {"tempura": 5, "sashimi": 10, "dumpling": 15, "nigiri": 13}


@pytest.mark.parametrize("rules", [OFFICIAL, VARIANT], ids=["official", "variant"])
def test_each_description_reads_the_same_in_z3_for_every_count(rules: Ruleset) -> None:
    """Z3 proves, for every count 0..64, the Z3 reading equal to the plain reading (unsat of a difference)."""
    for kind in KINDS:
        for mult in (1, rules.wasabi_multiplier) if kind.role == "nigiri" else (1,):
            n = z3.Int("n")
            term = scoring_term(kind.scoring, n, rules, mult)
            plain = z3.IntVal(0)
            for k in range(64, -1, -1):
                plain = z3.If(n == k, kind.scoring.score(k, rules) * mult, plain)
            s = z3.Solver()
            s.set("timeout", 10_000)
            s.add(n >= 0, n <= 64, term != plain)
            assert s.check() == z3.unsat, (kind.name, mult)


tableaux = st.lists(st.integers(0, 14), min_size=15, max_size=15)


@settings(max_examples=300, deadline=None)
@given(st.lists(tableaux, min_size=2, max_size=5), st.sampled_from([OFFICIAL, VARIANT]))
def test_fast_path_equals_the_definitions(counts: list[list[int]], rules: Ruleset) -> None:
    """The precomputed tables (the executor's fast path) against the general reading of the kinds."""
    general = category_points(counts, rules)
    assert [row["total"] for row in general] == round_totals(counts, rules)
    for row, fast in zip(general, score_round([Tableau(tuple(c)) for c in counts], rules), strict=True):
        assert row == fast.as_dict()


def _z3_round(counts: Sequence[Sequence[int]], kinds: Sequence[CardKind], rules: Ruleset) -> list[int]:
    m = Model()
    tabs = [tableau_vars(m, f"t{i}", rules, kinds) for i in range(len(counts))]
    seats = round_terms(m, "r", tabs, rules, kinds)
    s = m.solver()
    for tab, row in zip(tabs, counts, strict=True):
        s.add(*[v == n for v, n in zip(tab, row, strict=True)])
    assert decide(s).sat
    totals = [s.model().eval(seat["total"]).as_long() for seat in seats]
    # The totals are forced: no other value satisfies the rules.
    s.add(z3.Or(*[seat["total"] != t for seat, t in zip(seats, totals, strict=True)]))
    assert decide(s).unsat
    return totals


def test_throwaway_kind_scores_by_hand_in_both_scorers() -> None:
    """docs/extending.md: a scoring-only kind from a definition here, no other file touched."""
    names = [t.label for t in tokens_of(WITH_NATTO)]
    assert names[12] == "natto" and names[-3:] == ["wasabi+egg", "wasabi+salmon", "wasabi+squid"]
    # Seat 0: 3 natto (3 x 4 = 12), 2 tempura (5), squid on wasabi (9), maki3 (most rolls: 6) = 32.
    # Seat 1: 1 natto (4), 1 maki2 (second: 3) = 7.
    seat0 = [0] * len(names)
    seat0[names.index("natto")], seat0[names.index("tempura")] = 3, 2
    seat0[names.index("wasabi+squid")], seat0[names.index("maki3")] = 1, 1
    seat1 = [0] * len(names)
    seat1[names.index("natto")], seat1[names.index("maki2")] = 1, 1
    plain = category_points([seat0, seat1], OFFICIAL, WITH_NATTO)
    assert plain[0] == {"tempura": 5, "sashimi": 0, "dumpling": 0, "nigiri": 9, "natto": 12, "maki": 6,
                        "total": 32}
    assert [row["total"] for row in plain] == [32, 7]
    assert _z3_round([seat0, seat1], WITH_NATTO, OFFICIAL) == [32, 7]


def test_a_kind_that_scores_needs_its_rule() -> None:
    with pytest.raises(ValueError, match="rule id"):
        CardKind("natto", 6, PerCard(4), "", "")
    with pytest.raises(ValueError, match="per card"):
        CardKind("uni", 2, Sets(2, 5), "nigiri", "R-NIGIRI", role="nigiri")


@settings(max_examples=300, deadline=None)
@given(tableaux, tableaux, st.booleans(), st.sampled_from([OFFICIAL, VARIANT]))
def test_shared_reducer_is_exact(
    tab: list[int], future: list[int], keep_pudding: bool, rules: Ruleset
) -> None:
    """dish(t + f) == banked + dish(reduce(t) + f): the reduction loses nothing a later pick can use."""
    reduced, banked = reduce_tableau(tab, rules, keep_pudding)
    whole = sum(dish_points([a + b for a, b in zip(tab, future, strict=True)], rules))
    assert whole == banked + sum(dish_points([a + b for a, b in zip(reduced, future, strict=True)], rules))
    assert reduced[int(Token.PUDDING)] == (tab[int(Token.PUDDING)] if keep_pudding else 0)


def test_shared_reducer_by_hand() -> None:
    # 3 tempura -> 1 left, 5 banked; 4 sashimi -> 1 left, 10 banked; 7 dumplings -> 5 (15 either way);
    # egg, salmon, squid (6) and three stacks (3 + 6 + 9) banked and dropped: 39 banked.
    tab = [3, 4, 7, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1]
    assert reduce_tableau(tab, OFFICIAL, False) == ((1, 1, 5, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0), 39)
