"""Points per card by how many opponents hold the kind, with a cap (Party's edamame).

``Opponents(per=1, cap=4)``: each edamame scores 1 for every opponent with at least one
edamame, at most 4 a card (RB p10; its example: holdings of 3, 2 and 1 edamame score 6, 4
and 2). The tile's wording clashes with the booklet's ("Maximum 4 per round"), so where the
cap applies is a parameter:

- ``cap_per="card"`` (the booklet's text and example): ``count * min(holders * per, cap)``;
- ``cap_per="round"`` (the tile read as a seat's whole edamame score): ``min(count * holders * per, cap)``.

A seat's points need the other seats' counts, so the reduced state keeps the count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from sushigo.spec.shapes.base import Number, number, total, znumber

if TYPE_CHECKING:
    import z3

CapPer = Literal["card", "round"]


@dataclass(frozen=True)
class Opponents:
    """``per`` points a card for each opponent holding the kind, capped at ``cap`` (see ``cap_per``)."""

    per: Number
    cap: Number
    cap_per: CapPer = "card"
    seated = True

    def __post_init__(self) -> None:
        if self.cap_per not in ("card", "round"):
            raise ValueError(f"Opponents: cap_per {self.cap_per!r} is not 'card' or 'round'")

    def score(self, own: int, others: Sequence[int], rules: Any) -> int:
        """One seat's points: ``own`` cards, and the other seats' counts."""
        per, cap = number(self.per, rules), number(self.cap, rules)
        holders = sum(1 for o in others if o > 0)
        if self.cap_per == "card":
            return own * min(holders * per, cap)
        return min(own * holders * per, cap)

    def points(self, seats: Sequence[Sequence[int]], rules: Any) -> tuple[int, ...]:
        counts = [sum(c) for c in seats]
        return tuple(self.score(n, counts[:i] + counts[i + 1:], rules) for i, n in enumerate(counts))

    def terms(self, seats: Sequence[Sequence[z3.ArithRef]], rules: Any,
              most: Sequence[int]) -> list[z3.ArithRef]:
        """Per seat: an ``If`` on the number of holders, so each branch is linear in the seat's count."""
        import z3

        per, cap = znumber(self.per, rules), znumber(self.cap, rules)
        counts = [total(c) for c in seats]
        out = []
        for i, own in enumerate(counts):
            holders = total([z3.If(o > 0, 1, 0) for j, o in enumerate(counts) if j != i])
            expr: z3.ArithRef = z3.IntVal(0)
            for h in range(len(counts) - 1, 0, -1):
                expr = z3.If(holders == h, self._value(own, h, per, cap, sum(most)), expr)
            out.append(expr)
        return out

    def _value(self, own: z3.ArithRef, h: int, per: int | z3.ArithRef, cap: int | z3.ArithRef,
               most: int) -> z3.ArithRef:
        """A seat's points with ``h`` holders. With the numbers as a template's inputs the seat's
        count is taken case by case (0 to ``most``), so no term multiplies two variables."""
        import z3

        if isinstance(per, int) and isinstance(cap, int):
            if self.cap_per == "card":
                return own * min(h * per, cap)
            return z3.If(own * (h * per) <= cap, own * (h * per), cap)
        expr: z3.ArithRef = z3.IntVal(0)
        for n in range(most, 0, -1):
            if self.cap_per == "card":
                value = n * z3.If(h * per <= cap, h * per, cap)
            else:
                value = z3.If(n * h * per <= cap, n * h * per, cap)
            expr = z3.If(own == n, value, expr)
        return expr

    def bounds(self, most: Sequence[int], seats: int, rules: Any) -> tuple[int, int]:
        """Exact: the seat's count from 0 to the copies, the holders from 0 to the other seats."""
        reach = [self.score(n, [1] * h, rules) for n in range(sum(most) + 1) for h in range(seats)]
        return min(reach), max(reach)

    def keep(self) -> str:
        return "count"
