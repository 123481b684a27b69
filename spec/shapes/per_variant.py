"""A table per variant of icons, with a penalty for holding none (Party's fruit, at game end).

Each fruit card shows two fruit icons: two of one fruit, or one each of two fruits (RB p16).
At game end each fruit is scored alone by its icons, 0, 1, 2, 3, 4, 5 or more scoring -2, 0,
1, 3, 6, 10: ``PerVariant(table=(-2, 0, 1, 3, 6, 10), icons=FRUIT_ICONS)``, ``icons[k][v]``
being the icons of fruit ``v`` on card kind ``k``.

Whether a player with no fruit at all loses more than the table says is read two ways
(PARTY.md, corrections 3), so it is a parameter, ``none`` (points added when every variant
has no icon):

- ``none=0``: "no fruit loses 6" is the table's 0-icon entry counted for each of the three
  fruits (RB p16 as corrected; the default);
- ``none=-6``: a separate penalty on top of the table (-12 for no fruit).

The icons of one fruit come from several card kinds, so the reduced state keeps the counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sushigo.spec.shapes.base import (
    Number,
    Numbers,
    OneTableau,
    at,
    number,
    numbers,
    term_at,
    total,
    znumber,
    znumbers,
)

if TYPE_CHECKING:
    import z3

#: Icons of watermelon, orange, pineapple on the six fruit cards: three doubles, three mixed pairs.
FRUIT_ICONS: tuple[tuple[int, ...], ...] = ((2, 0, 0), (0, 2, 0), (0, 0, 2), (1, 1, 0), (1, 0, 1), (0, 1, 1))


@dataclass(frozen=True)
class PerVariant(OneTableau):
    """Each variant's icons, summed over the card kinds, scored by ``table``; ``none`` if all are 0."""

    table: Numbers
    icons: tuple[tuple[int, ...], ...]
    none: Number = 0

    def __post_init__(self) -> None:
        widths = {len(row) for row in self.icons}
        if len(widths) != 1 or any(x < 0 for row in self.icons for x in row):
            raise ValueError(f"PerVariant: icons {self.icons!r} must be rows of one length of whole numbers")

    def totals(self, counts: Sequence[int]) -> list[int]:
        """Icons of each variant on ``counts`` cards of each card kind."""
        return [sum(n * row[v] for n, row in zip(counts, self.icons, strict=True))
                for v in range(len(self.icons[0]))]

    def score(self, counts: Sequence[int], rules: Any) -> int:
        table = numbers(self.table, rules)
        icons = self.totals(counts)
        return sum(at(table, x) for x in icons) + (number(self.none, rules) if not any(icons) else 0)

    def term(self, counts: Sequence[z3.ArithRef], rules: Any, most: Sequence[int]) -> z3.ArithRef:
        import z3

        table = znumbers(self.table, rules)
        icons = [total([n * row[v] for n, row in zip(counts, self.icons, strict=True) if row[v]])
                 for v in range(len(self.icons[0]))]
        return total([term_at(table, x) for x in icons]) + z3.If(
            z3.And(*[x == 0 for x in icons]), znumber(self.none, rules), 0)

    def bounds(self, most: Sequence[int], seats: int, rules: Any) -> tuple[int, int]:
        """Each variant's least and greatest entry up to its icons on every copy, summed, and
        ``none`` when it can happen. Sound; exact when the variants can reach their best (and
        their worst) entries at once, as the fruit cards can (all 30 icons: 10 of each fruit)."""
        table = numbers(self.table, rules)
        lo = hi = 0
        for reach in self.totals(most):
            entries = table[: min(reach, len(table) - 1) + 1]
            lo, hi = lo + min(entries), hi + max(entries)
        none = number(self.none, rules)
        return lo + min(none, 0), hi + max(none, 0)

    def keep(self) -> str:
        return "count"
