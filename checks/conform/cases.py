"""The cases ``sushigo conform`` asks about, the reference's answers, and the category scorers.

A round case is one pick order per seat. The reference reads a pick order one card a
turn through ``spec.turns`` (so the wasabi placement follows the order). Round points
are a sum over score categories (maki, tempura, sashimi, dumpling, nigiri with its
wasabi, and "other": chopsticks and puddings, which score nothing in a round), so a
case splits into single-category cases; :class:`Scorer` gives each category's points
under the reference with readings changed and pitfalls planted, which is how a fault
is modelled and then avoided while the search goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sushigo.spec.scoring as scoring
import sushigo.spec.turns as turns
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import strategies as st
from sushigo.checks import edge_cases as E
from sushigo.checks import strategies as S
from sushigo.checks.storage import use_hypothesis_home
from sushigo.spec.cards import NIGIRI, NIGIRI_OF, STACK_OF, Card, Token
from sushigo.spec.kinds import KINDS, CardKind, Icons
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.tableau import Tableau

use_hypothesis_home()

RoundCase = tuple[tuple[Card, ...], ...]  # pick orders per seat
PuddingCase = tuple[int, ...]

def _category_of(kind: CardKind) -> str:
    """The category a card's points show in: its dish column, maki for rolls, the nigiri's column
    for a wasabi (it only multiplies a nigiri), other for the rest (pudding, chopsticks)."""
    if kind.dish:
        return kind.category
    if isinstance(kind.scoring, Icons):
        return "maki"
    if kind.role == "wasabi":
        return next(k.category for k in KINDS if k.role == "nigiri")
    return "other"


#: Score categories of a round, maki first: with no maki at all every seat still has a maki
#: total (zero), so the empty round is a maki case. The dish columns come from the kinds.
CATEGORIES = ("maki", *scoring.DISH_CATEGORIES, "other")
CATEGORY_OF: dict[Card, str] = {Card(i): _category_of(k) for i, k in enumerate(KINDS)}
#: Rule ids of each category: an unsat core is kept to the category it was isolated to.
RULES_OF: dict[str, tuple[str, ...]] = {
    **{c: (*dict.fromkeys(k.rule for k in KINDS if k.dish and k.category == c),
           *(("R-WASABI-ONE", "R-WASABI-PLACE") if any(k.role == "nigiri" and k.category == c for k in KINDS)
             else ()))
       for c in scoring.DISH_CATEGORIES},
    "maki": ("R-MAKI-ICONS", "R-MAKI-FIRST", "R-MAKI-SECOND", "R-MAKI-TIE-FIRST", "R-MAKI-TIE-SECOND",
             "R-MAKI-ZERO", "R-MAKI-POINTS"),
    "pudding": ("R-PUDDING", "R-PUDDING-MOST", "R-PUDDING-FEWEST", "R-PUDDING-SPLIT", "R-PUDDING-2P",
                "R-PUDDING-ALL-TIED"),
}
#: The categories whose cards are placed by the turn rules (a nigiri on a free wasabi).
_PLACED = frozenset(CATEGORY_OF[c] for c in NIGIRI)


def picks_of_tableau(t: Tableau) -> tuple[Card, ...]:
    """A pick order that leaves exactly ``t``: bare nigiri before any free wasabi, stacks as wasabi+nigiri."""
    out: list[Card] = []
    for c in NIGIRI:
        out += [c] * t.counts[int(c)]
    for tok, nig in NIGIRI_OF.items():
        out += [Card.WASABI, nig] * t.counts[int(tok)]
    for c in Card:
        if c not in NIGIRI:
            out += [c] * t.counts[int(c)]
    return tuple(out)


def _tableau(picks: Sequence[Card], rules: Ruleset, apply_turn: Callable[..., Any]) -> Tableau:
    hand = [0] * len(Card)
    for c in picks:
        hand[int(c)] += 1
    tab = [0] * len(Token)
    for c in picks:
        apply_turn(hand, tab, (turns.Pick(c),), rules)
    return Tableau(tuple(tab))


def reference_tableau(picks: Sequence[Card], rules: Ruleset) -> Tableau:
    """The executor's reading of a pick order: one card a turn through ``spec.turns``."""
    return _tableau(picks, rules, turns.apply_turn)


def reference_round(case: RoundCase, rules: Ruleset) -> list[int]:
    return scoring.round_totals([reference_tableau(p, rules).counts for p in case], rules)


def project(case: RoundCase, category: str) -> RoundCase:
    """The case with only the cards of one category (pick order kept, every seat kept)."""
    return tuple(tuple(c for c in p if CATEGORY_OF[c] == category) for p in case)


def categories_in(case: RoundCase) -> tuple[str, ...]:
    return tuple(c for c in CATEGORIES if any(CATEGORY_OF[x] == c for p in case for x in p))


def merge(a: RoundCase, b: RoundCase) -> RoundCase:
    """Seat by seat, ``a``'s picks then ``b``'s."""
    return tuple(p + q for p, q in zip(a, b, strict=True))


def size(case: RoundCase | PuddingCase) -> tuple[int, int]:
    """(seats, cards or puddings): smaller cases first."""
    return len(case), sum(len(p) if isinstance(p, tuple) else p for p in case)


# Keyed by identity and checked by identity (hashing a Ruleset costs more than the lookup saves).
_NIGIRI_MEMO: dict[tuple[int, int, tuple[Card, ...]], tuple[Ruleset, Any, tuple[int, ...]]] = {}


@dataclass(frozen=True)
class Scorer:
    """The reference with readings changed (``rules``) and pitfalls planted (the functions)."""

    rules: Ruleset
    maki: Callable[..., list[int]] = scoring.maki_points
    tables: Callable[..., Any] = scoring._tables
    apply_turn: Callable[..., Any] = turns.apply_turn
    puddings: Callable[..., list[int]] = scoring.pudding_points

    def category(self, case: RoundCase, cat: str) -> list[int]:
        """Points of one category per seat (R-ROUND-TOTAL adds them up)."""
        if cat == "maki":
            rolls = {c: KINDS[int(c)].scoring.score(1, self.rules) for c in Card if CATEGORY_OF[c] == "maki"}
            return list(self.maki([sum(rolls[c] for c in p if c in rolls) for p in case], self.rules))
        if cat == "other":
            return [0] * len(case)
        tb = self.tables(self.rules)
        out = []
        for p in case:
            mine = tuple(c for c in p if CATEGORY_OF[c] == cat)
            if cat in _PLACED:
                t = self._nigiri(mine)
            else:
                t = tuple(mine.count(c) for c in Card) + (0,) * len(STACK_OF)
            out.append(scoring.column_points(t, cat, tb))
        return out

    def _nigiri(self, picks: tuple[Card, ...]) -> tuple[int, ...]:
        """The tableau a nigiri/wasabi pick order leaves (placement is where pitfalls live)."""
        key = (id(self.rules), id(self.apply_turn), picks)
        hit = _NIGIRI_MEMO.get(key)
        if hit is None or hit[0] is not self.rules or hit[1] is not self.apply_turn:
            hit = (self.rules, self.apply_turn, _tableau(picks, self.rules, self.apply_turn).counts)
            if len(_NIGIRI_MEMO) > 100_000:
                _NIGIRI_MEMO.clear()
            _NIGIRI_MEMO[key] = hit
        return hit[2]

    def total(self, case: RoundCase) -> list[int]:
        parts = [self.category(case, c) for c in CATEGORIES]
        return [sum(col) for col in zip(*parts, strict=True)]

    def pudding(self, case: PuddingCase) -> list[int]:
        return list(self.puddings(list(case), self.rules))


class _Expired(BaseException):
    """Raised inside Hypothesis' loop when the run's time is up (not an ``Exception``: Hypothesis
    lets it through at once, without replaying or shrinking)."""


def _never() -> bool:
    return False


def _collect(strategy: st.SearchStrategy[Any], n: int, seed: int | None,
             expired: Callable[[], bool] = _never) -> list[Any]:
    """``n`` examples of ``strategy`` (fewer when ``expired()`` turns true while drawing)."""
    out: list[Any] = []

    @settings(max_examples=max(1, n), derandomize=seed is None, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
              phases=[Phase.explicit, Phase.generate])
    @given(strategy)
    def grab(x: Any) -> None:
        if expired():
            raise _Expired
        out.append(x)

    if seed is not None:
        import hypothesis

        grab = hypothesis.seed(seed)(grab)
    try:
        grab()
    except _Expired:
        pass
    return out


def round_cases(rules: Ruleset, n: int, seed: int | None,
                expired: Callable[[], bool] = _never) -> list[RoundCase]:
    """Every maki tie structure, every dish count, every wasabi order, then ``n`` drawn tables
    (fewer when ``expired()`` turns true: what was made so far)."""
    cases: list[RoundCase] = []
    for seats in E.seat_range(rules):
        if expired():
            return cases
        for ec in E.maki_cases(seats, rules):
            if ec.value is not None:
                cases.append(tuple(picks_of_tableau(t) for t in ec.tableaux()))
    cases += quick_round_cases(rules)
    cases += [t.picks for t in _collect(S.tables(rules), n, seed, expired)]
    return cases


def quick_round_cases(rules: Ruleset) -> list[RoundCase]:
    """Every dish count and every wasabi order: made without Z3 in a millisecond, so a target
    that fails on every call (or on every round with dumplings) is seen before the rest is made."""
    cases = [tuple(picks_of_tableau(t) for t in ec.tableaux()) for ec in E.dish_cases(rules)]
    others: tuple[tuple[Card, ...], ...] = ((),) * (min(E.seat_range(rules)) - 1)
    return cases + [(order, *others) for order in E.wasabi_orders()]


def pudding_cases(rules: Ruleset, n: int, seed: int | None,
                  expired: Callable[[], bool] = _never) -> list[PuddingCase]:
    """Every pudding tie structure, then ``n`` drawn pudding counts (fewer once ``expired()``)."""
    cases: list[PuddingCase] = []
    for seats in E.seat_range(rules):
        if expired():
            return cases
        cases += [_least(ec.value) for ec in E.pudding_cases(seats, rules) if ec.value is not None]  # type: ignore[arg-type]
    cases += _collect(S.pudding_counts(rules), n, seed, expired)
    return cases


def _least(counts: Sequence[int]) -> PuddingCase:
    """The smallest counts with the same tie structure (who ties, who is ahead, whether the last
    have none): Z3's witness depends on what the solver was asked before (in this process, the
    maki cases; on a worker, nothing), this one does not, so ``--jobs`` cannot change a case.
    Each value is pointwise at most the witness's, so the deck holds it too."""
    ranks = sorted(set(counts))
    low = 0 if ranks[0] == 0 else 1
    return tuple(ranks.index(v) + low for v in counts)


def unknown_edges(rules: Ruleset, sides: Sequence[str]) -> int:
    """Tie structures of ``sides`` ("round": maki, "pudding") Z3 left unknown within its budget
    (neither a witness nor impossible): the cases above lack them, so a run cannot claim to have
    compared every tie structure."""
    families = [E.maki_cases if side == "round" else E.pudding_cases for side in sides]
    return sum(ec.unknown for seats in E.seat_range(rules) for family in families
               for ec in family(seats, rules))


def smaller_round(case: RoundCase, min_seats: int) -> list[RoundCase]:
    """One step smaller: a seat dropped (down to ``min_seats``) or one card dropped."""
    out: list[RoundCase] = []
    if len(case) > min_seats:
        out += [case[:i] + case[i + 1:] for i in range(len(case))]
    for i, p in enumerate(case):
        out += [(*case[:i], p[:j] + p[j + 1:], *case[i + 1:]) for j in range(len(p))]
    return out


def smaller_pudding(case: PuddingCase, min_seats: int) -> list[PuddingCase]:
    out: list[PuddingCase] = []
    if len(case) > min_seats:
        out += [case[:i] + case[i + 1:] for i in range(len(case))]
    if case and min(case) > 0:
        out.append(tuple(v - 1 for v in case))  # the same ties, fewer puddings
    out += [(*case[:i], v - 1, *case[i + 1:]) for i, v in enumerate(case) if v > 0]
    return out


def shrink(case: Any, smaller: Callable[[Any], list[Any]], keep: Callable[[Any], bool],
           expired: Callable[[], bool]) -> Any:
    """Greedy: take the first smaller candidate that keeps the property, until none does (or time is up)."""
    cur = case
    changed = True
    while changed and not expired():
        changed = False
        for cand in smaller(cur):
            if keep(cand):
                cur, changed = cand, True
                break
    return cur


def names(case: RoundCase) -> list[list[str]]:
    return [[c.label for c in p] for p in case]


def fmt_round(case: RoundCase) -> str:
    return "picks " + " | ".join(S.format_picks(p) for p in case)


def fmt_pudding(case: PuddingCase) -> str:
    return f"puddings {list(case)}"
