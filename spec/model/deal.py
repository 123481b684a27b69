"""The deal and the deck as Z3 constraints: hands come from one 108-card deck.

The deck is shuffled once; each round deals fresh hands from what is left, so
the cards dealt over all rounds never exceed the printed copies (R-DECK).
Puddings stay with their owner to the end of the game (R-PUDDING-CARRY).
"""

from __future__ import annotations

from collections.abc import Sequence

import z3
from sushigo.spec.cards import Card, Token
from sushigo.spec.model.core import Model
from sushigo.spec.model.rulevars import Rules, RuleVars


def deck_constraints(m: Model, deals: Sequence[Sequence[Sequence[z3.ArithRef]]], rules: Rules) -> None:
    """``deals[r][seat]`` are 12 dealt counts; together they fit in the deck (R-DECK)."""
    for c in Card:
        dealt = [hand[int(c)] for rnd in deals for hand in rnd]
        if dealt:
            copies = rules.copies(int(c)) if isinstance(rules, RuleVars) else rules.copies(c)
            m.add("R-DECK", z3.Sum(dealt) <= copies, c.label)


def pudding_carry(
    m: Model, finals: Sequence[Sequence[Sequence[z3.ArithRef]]], seats: int
) -> list[z3.ArithRef]:
    """``p{i}_puddings``: pudding cards kept over all rounds (``finals[r][seat]`` token counts)."""
    out = []
    for i in range(seats):
        v = m.int(f"p{i}_puddings", None)
        m.add("R-PUDDING-CARRY", v == z3.Sum([rnd[i][int(Token.PUDDING)] for rnd in finals]), f"p{i}")
        out.append(v)
    return out
