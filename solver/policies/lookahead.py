"""``lookahead``: the turn whose tableau is worth most when the round's unfinished business is
valued by its expected completion.

The seat's remaining picks this round meet the cards it has not seen yet in the hands to come;
from the unseen cards (:mod:`knowledge`: the deck of the ruleset less every card whose place the
seat knows) it expects, per kind, how many of its future hands hold one (a hand of ``h`` cards
drawn from unseen cards of which a share ``f`` is that kind holds one with chance
``1 - (1 - f) ** h``), and takes such a card from about half of them (the others at the table
want it too). A tableau is then valued as

* its dish points now (spec.scoring, the ruleset's numbers), plus
* an incomplete tempura or sashimi set: the set's points times the chance the missing cards
  come (the expected number over the number missing, at most 1);
* dumplings: the points of the count it holds plus the expected more, less those of the count it
  holds (the table's convexity is what makes an early dumpling worth more than its point);
* a free wasabi: the extra of the multiplier on the mean nigiri to come, times the chance one comes;
* maki: the placement points its icons would win against the tableaux on the table now;
* puddings: the pudding points the seat's puddings would bring if the game ended now, counted
  in full in the last round and by the share of rounds played before.

A chopsticks card is valued at one expected later card's worth only while at least two turns
remain. No rule number is written here: every one comes from the ruleset.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sushigo.solver.policies.knowledge import Memory, knowledge
from sushigo.spec.cards import Card, Token
from sushigo.spec.policies import PlayerView
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import dish_points, maki_icons, maki_points, pudding_points
from sushigo.spec.turns import Turn, apply_turn

__all__ = ["LookaheadPolicy", "tableau_value"]

#: The share of the hands holding a kind from which the seat takes it (the rest go to others).
TAKE_SHARE = 0.5
_T = Token
_NIGIRI_CARDS = (int(Card.EGG), int(Card.SALMON), int(Card.SQUID))


def _expected(unseen: Sequence[int], card: int, future_hands: Sequence[int]) -> float:
    """How many ``card`` the seat expects to take in hands of the given sizes."""
    total = sum(unseen)
    if total == 0:
        return 0.0
    f = unseen[card] / total
    return TAKE_SHARE * sum(1 - (1 - f) ** h for h in future_hands)


def tableau_value(
    tab: Sequence[int], view: PlayerView, unseen: Sequence[int], future_hands: Sequence[int],
    puddings: Sequence[int],
) -> float:
    """The expected worth of ``tab`` (the seat's tableau) at the end of the round (module text)."""
    rules: Ruleset = view.rules
    value = float(sum(dish_points(tab, rules)))
    tempura = tab[int(_T.TEMPURA)]
    part = tempura % rules.tempura_set
    if part:
        need = rules.tempura_set - part
        value += rules.tempura_points * min(1.0, _expected(unseen, int(Card.TEMPURA), future_hands) / need)
    sashimi = tab[int(_T.SASHIMI)]
    part = sashimi % rules.sashimi_set
    if part:
        need = rules.sashimi_set - part
        value += rules.sashimi_points * min(1.0, _expected(unseen, int(Card.SASHIMI), future_hands) / need)
    dumplings = tab[int(_T.DUMPLING)]
    table = rules.dumpling_points
    more = _expected(unseen, int(Card.DUMPLING), future_hands)
    top = len(table) - 1
    at = min(top, dumplings + more)
    lo = int(at)
    hi = min(top, lo + 1)
    reach = table[lo] + (table[hi] - table[lo]) * (at - lo)
    value += reach - table[min(top, dumplings)]
    if tab[int(_T.WASABI)]:
        nigiri = [_expected(unseen, c, future_hands) for c in _NIGIRI_CARDS]
        chance = min(1.0, sum(nigiri))
        if chance > 0:
            mean = sum(p * e for p, e in zip(rules.nigiri_points, nigiri, strict=True)) / sum(nigiri)
            value += tab[int(_T.WASABI)] * (rules.wasabi_multiplier - 1) * mean * chance
    if tab[int(_T.CHOPSTICKS)] and len(future_hands) >= 2:
        value += 1.0
    tables: list[Sequence[int]] = list(view.tableaux)
    tables[view.target] = tab
    value += maki_points([maki_icons(t, rules) for t in tables], rules)[view.target]
    weight = 1.0 if view.round_index + 1 == rules.rounds else (view.round_index + 1) / rules.rounds
    value += weight * pudding_points(puddings, rules)[view.target]
    return value


class LookaheadPolicy:
    """``lookahead``: the turn of the highest :func:`tableau_value` (ties: uniform, seeded).

    Choosing a dummy's card (dummy-2p) it gives the card worth least to the dummy."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.memories: dict[int, Memory] = {}

    def memory(self, view: PlayerView) -> Memory:
        """The seat's memory, shown ``view``."""
        mem = self.memories.get(view.seat)
        if mem is None:
            mem = self.memories[view.seat] = Memory()
        mem.see(view)
        return mem

    def choose(self, view: PlayerView, options: Sequence[Turn], rng: random.Random) -> Turn:
        mem = self.memory(view)
        if len(options) == 1:
            return options[0]
        rules = view.rules
        if view.for_dummy or rules.dummy_2p:
            unseen = list(rules.deck)  # the dummy's pile hides cards: the deck's shares stand in
        else:
            unseen = list(knowledge(view, mem, rules.pass_offset(view.round_index)).unseen)
        left = sum(view.hand)
        future = [left - 1 - k for k in range(left - 1)]  # the sizes of this seat's later hands
        sign = -1.0 if view.for_dummy else 1.0
        best: list[Turn] = []
        best_value = 0.0
        for turn in options:
            hand, tab = list(view.hand), list(view.tableau)
            apply_turn(hand, tab, turn, rules)
            puddings = list(view.puddings)
            puddings[view.target] += tab[int(_T.PUDDING)] - view.tableau[int(_T.PUDDING)]
            value = sign * tableau_value(tab, view, unseen, future, puddings)
            if not best or value > best_value + 1e-9:
                best, best_value = [turn], value
            elif abs(value - best_value) <= 1e-9:
                best.append(turn)
        return best[0] if len(best) == 1 else best[int(rng.random() * len(best))]
