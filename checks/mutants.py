"""Mutants: the pitfalls of public Sushi Go engines, planted one at a time into our own code.

A :class:`Mutant` is a context manager that swaps one function the checks call
(a module attribute of :mod:`spec.scoring`, :mod:`spec.turns` or
:mod:`spec.executor`) for a patched copy, with :func:`unittest.mock.patch`.
The swap is made in every loaded module that imported the function by name
(``from spec.turns import apply_turn`` in the executor), so the whole
executor runs the mutant. Nothing in the foundation files is edited.

``sushigo check --mutants`` runs the checks once per mutant and reports the
first property that caught it; a mutant no property catches is a failure of
the checks themselves.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import sushigo.spec.scoring as scoring
from sushigo.spec.cards import NIGIRI, STACK_OF, Card, Token
from sushigo.spec.ruleset import OFFICIAL, Ruleset

_PACKAGES = ("spec", "solver", "checks", "sushigo")
_CHOP, _WASABI = int(Card.CHOPSTICKS), int(Card.WASABI)
_STACK_OF_TOKEN = {int(t): int(c) for c, t in STACK_OF.items()}


@dataclass(frozen=True)
class Mutant:
    name: str
    pitfall: str
    rule_id: str
    module: str
    attr: str
    make: Callable[[Any], Any]  # original function -> mutated function

    @contextlib.contextmanager
    def active(self) -> Iterator[None]:
        mod = sys.modules.get(self.module) or __import__(self.module, fromlist=["_"])
        original = getattr(mod, self.attr)
        mutated = self.make(original)
        with contextlib.ExitStack() as stack:
            for name, m in list(sys.modules.items()):
                if m is None or name.split(".")[0] not in _PACKAGES:
                    continue
                if getattr(m, self.attr, None) is original:
                    stack.enter_context(_patch(m, self.attr, mutated))
            _clear_caches()
            try:
                yield
            finally:
                _clear_caches()


def _patch(module: Any, attr: str, value: Any) -> Any:
    from unittest import mock

    return mock.patch.object(module, attr, value)


def _clear_caches() -> None:
    # Models are independent of the executor, but per-ruleset tables are cached by the executor.
    clear = getattr(scoring._tables, "cache_clear", None)
    if clear is not None:
        clear()


# --------------------------------------------------------------------------- scoring mutants


def _with_reading(**change: Any) -> Callable[[Any], Any]:
    """The original function called under a ruleset with one reading changed."""

    def make(orig: Any) -> Any:
        def f(counts: Sequence[int], rules: Ruleset = OFFICIAL) -> Any:
            return orig(counts, rules.replace(**change))

        return f

    return make


def _maki_zero_places(orig: Any) -> Any:
    def f(icons: Sequence[int], rules: Ruleset = OFFICIAL) -> list[int]:
        out: list[int] = orig(icons, rules)
        first = max(icons, default=0)
        # Bug: "second most" taken over every other player, zero icons included.
        if first > 0 and list(icons).count(first) == 1 and not any(0 < v < first for v in icons):
            zeros = [k for k, v in enumerate(icons) if v == 0]
            for k in zeros:
                out[k] = rules.maki_second_points // len(zeros)
        return out

    return f


def _maki_second_when_tied(orig: Any) -> Any:
    def f(icons: Sequence[int], rules: Ruleset = OFFICIAL) -> list[int]:
        out: list[int] = orig(icons, rules)
        first = max(icons, default=0)
        if first > 0 and list(icons).count(first) > 1:
            # Bug: second place still paid after a tie for first.
            second = max((v for v in icons if 0 < v < first), default=0)
            seconds = [k for k, v in enumerate(icons) if v == second and second > 0]
            for k in seconds:
                out[k] = rules.maki_second_points // len(seconds)
        return out

    return f


def _dumplings_past_five(orig: Any) -> Any:
    def f(rules: Ruleset) -> Any:
        tb = orig(rules)
        top = len(rules.dumpling_points) - 1
        step = rules.dumpling_points[-1] - rules.dumpling_points[-2]
        # Bug: the dumpling table keeps growing past its last entry.
        at = scoring.by_count_index("dumpling")
        grown = tuple(v if k <= top else v + (k - top) * step for k, v in enumerate(tb.by_count[at]))
        return replace(tb, by_count=(*tb.by_count[:at], grown, *tb.by_count[at + 1:]))

    return f


# --------------------------------------------------------------------------- turn mutants


def _chopsticks_same_turn(orig: Any) -> Any:
    def f(hand: Sequence[int], tableau: Sequence[int], turn: Any, rules: Ruleset = OFFICIAL) -> Any:
        if len(turn) == 2 and tableau[_CHOP] < 1 and turn[0].card == Card.CHOPSTICKS:
            # Bug: chopsticks taken as the first pick are used at once.
            tab = list(tableau)
            tab[_CHOP] += 1
            return orig(hand, tab, turn, rules)
        return orig(hand, tableau, turn, rules)

    return f


def _wasabi_two_nigiri(orig: Any) -> Any:
    def f(hand: list[int], tableau: list[int], turn: Any, rules: Ruleset = OFFICIAL) -> Any:
        before = tableau[_WASABI]
        res = orig(hand, tableau, turn, rules)
        # Bug: the wasabi is not used up by the nigiri laid on it.
        stacked = sum(1 for t in res.tokens if int(t) in _STACK_OF_TOKEN)
        taken = sum(1 for t in res.tokens if t == Token.WASABI)
        tableau[_WASABI] = before + taken if stacked else tableau[_WASABI]
        return res

    return f


def _nigiri_on_later_wasabi(orig: Any) -> Any:
    def f(hand: list[int], tableau: list[int], turn: Any, rules: Ruleset = OFFICIAL) -> Any:
        res = orig(hand, tableau, turn, rules)
        if any(t == Token.WASABI for t in res.tokens):
            # Bug: a wasabi taken now picks up a nigiri already played.
            for c in reversed(NIGIRI):
                if tableau[int(c)] > 0 and tableau[_WASABI] > 0:
                    tableau[int(c)] -= 1
                    tableau[_WASABI] -= 1
                    tableau[int(STACK_OF[c])] += 1
                    break
        return res

    return f


def _chopsticks_kept(orig: Any) -> Any:
    def f(hand: list[int], tableau: list[int], turn: Any, rules: Ruleset = OFFICIAL) -> Any:
        res = orig(hand, tableau, turn, rules)
        if res.chopsticks:
            # Bug: the used chopsticks stay in the tableau instead of going back into the hand.
            hand[_CHOP] -= 1
            tableau[_CHOP] += 1
        return res

    return f


# --------------------------------------------------------------------------- deck mutants


def _swap_cards(a: Card, b: Card) -> Callable[[Any], Any]:
    def make(orig: Any) -> Any:
        def f(rules: Ruleset) -> Any:
            deck = list(rules.deck)
            deck[int(a)], deck[int(b)] = deck[int(b)], deck[int(a)]
            return orig(rules.replace(deck=tuple(deck)))

        return f

    return make


MUTANTS: tuple[Mutant, ...] = (
    Mutant("pudding-floor-division", "the shared pudding penalty rounded with Python's -6 // n "
           "(4 tied lose 2 each, not 1)", "R-PUDDING-SPLIT", "sushigo.spec.scoring", "pudding_points",
           _with_reading(pudding_penalty_rounding="toward-minus-infinity")),
    Mutant("pudding-penalty-2p", "the fewest-pudding penalty paid in a 2-player game", "R-PUDDING-2P",
           "sushigo.spec.scoring", "pudding_points", _with_reading(pudding_penalty_2p=True)),
    Mutant("pudding-all-tied-paid", "everyone tied on puddings still scores most and fewest",
           "R-PUDDING-ALL-TIED", "sushigo.spec.scoring", "pudding_points",
           _with_reading(pudding_all_tied="both")),
    Mutant("maki-zero-places", "players with no maki icons share second place", "R-MAKI-ZERO",
           "sushigo.spec.scoring", "maki_points", _maki_zero_places),
    Mutant("maki-second-when-first-tied", "second place paid although first place is tied",
           "R-MAKI-TIE-FIRST", "sushigo.spec.scoring", "maki_points", _maki_second_when_tied),
    Mutant("dumplings-past-five", "six or more dumplings score above the last table entry",
           "R-DUMPLING", "sushigo.spec.scoring", "_tables", _dumplings_past_five),
    Mutant("deck-maki2-maki3-swapped", "deck counts of maki2 and maki3 swapped (8 and 12)", "R-DECK",
           "sushigo.spec.executor", "deal_order", _swap_cards(Card.MAKI2, Card.MAKI3)),
    Mutant("deck-egg-salmon-swapped", "deck counts of egg and salmon swapped", "R-DECK",
           "sushigo.spec.executor", "deal_order", _swap_cards(Card.EGG, Card.SALMON)),
    Mutant("chopsticks-same-turn", "chopsticks used on the turn they are taken", "R-CHOPSTICKS-EARLIER",
           "sushigo.spec.turns", "resolve_turn", _chopsticks_same_turn),
    Mutant("chopsticks-not-returned", "used chopsticks stay in the tableau", "R-CHOPSTICKS-RETURN",
           "sushigo.spec.turns", "apply_turn", _chopsticks_kept),
    Mutant("wasabi-two-nigiri", "a wasabi holds every nigiri taken after it", "R-WASABI-ONE",
           "sushigo.spec.turns", "apply_turn", _wasabi_two_nigiri),
    Mutant("nigiri-on-later-wasabi", "a wasabi taken later picks up a nigiri already played",
           "R-WASABI-ONE", "sushigo.spec.turns", "apply_turn", _nigiri_on_later_wasabi),
)

MUTANT_BY_NAME = {m.name: m for m in MUTANTS}
