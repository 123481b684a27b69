"""Sets of distinct variants (Party's onigiri: circle, triangle, square, rectangle).

Each set of different variants scores by its size: ``Distinct((0, 1, 4, 9, 16))`` scores 1, 4,
9 or 16 for a set of 1 to 4 different shapes, and a tableau scores as many sets as it makes
(RB p10: circle, triangle and two squares make a set of three and a set of one, 9 + 1).

The rulebook does not say how the cards are split into sets. The reading here is the greedy
one: the first set takes one card of every variant held, the next one of every variant still
left, and so on, so set ``j`` has one card of each variant held at least ``j`` times. For a
table that is superadditive (``t[a] + t[b] <= t[a + b]``, as 1, 4, 9, 16 is) no other split
scores more, so a player's best split is the greedy one; the tests prove it in Z3 for the
printed numbers. (One peer, [SUB], ignores a third card of a shape: not this reading.)

The reduced state keeps the counts less their least one: every complete set of all the
variants is banked (set ``j`` for ``j`` up to the least count holds every variant).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sushigo.spec.shapes.base import Numbers, OneTableau, at, numbers, term_at, total, znumbers

if TYPE_CHECKING:
    import z3


@dataclass(frozen=True)
class Distinct(OneTableau):
    """Greedy sets of different variants, each scoring ``table[size]`` (``table[0]`` is 0)."""

    table: Numbers

    def score(self, counts: Sequence[int], rules: Any) -> int:
        table = numbers(self.table, rules)
        left = list(counts)
        out = 0
        while any(left):
            out += at(table, sum(1 for c in left if c > 0))
            left = [c - 1 if c > 0 else 0 for c in left]
        return out

    def term(self, counts: Sequence[z3.ArithRef], rules: Any, most: Sequence[int]) -> z3.ArithRef:
        """Set ``j`` (1 to the most copies of any variant) has one card of each variant held ``j`` times."""
        import z3

        table = [z3.IntVal(0), *znumbers(self.table, rules)[1:]]  # an empty set scores nothing
        layers = max(most, default=0)
        sizes = [total([z3.If(c >= j, 1, 0) for c in counts]) for j in range(1, layers + 1)]
        return total([term_at(table, size) for size in sizes])

    def bounds(self, most: Sequence[int], seats: int, rules: Any) -> tuple[int, int]:
        """Exact: set sizes never grow from one set to the next, and set ``j`` holds at most the
        variants with ``j`` or more copies; every such run of sizes is some tableau's."""
        table = numbers(self.table, rules)
        layers = max(most, default=0)
        room = [sum(1 for m in most if m >= j) for j in range(1, layers + 1)]
        # best[s] / worst[s]: the most / least the sets from j on score when set j - 1 had size s.
        best = [0] * (len(most) + 1)
        worst = [0] * (len(most) + 1)
        for j in range(layers - 1, -1, -1):
            best = [max((at(table, s) if s else 0) + best[s] for s in range(min(prev, room[j]) + 1))
                    for prev in range(len(most) + 1)]
            worst = [min((at(table, s) if s else 0) + worst[s] for s in range(min(prev, room[j]) + 1))
                     for prev in range(len(most) + 1)]
        return worst[len(most)], best[len(most)]

    def keep(self) -> str:
        return "residue"

    def reduce(self, counts: Sequence[int], rules: Any) -> tuple[tuple[int, ...], int]:
        """Counts less their least one; the complete sets of every variant banked."""
        full = min(counts, default=0)
        banked = full * at(numbers(self.table, rules), len(counts)) if full else 0
        return tuple(c - full for c in counts), banked
