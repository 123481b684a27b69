"""A table of points by count whose entries may be negative and may fall again (Party's eel, tofu).

``Table((0, -3, 7))``: no eel scores 0, one scores -3, two or more score 7 (RB p10);
``Table((0, 2, 6, 0))``: one tofu 2, two 6, three or more 0 (RB p11). The last entry holds for
every larger count, as in :class:`spec.kinds.ByCount`, but nothing here assumes the table grows
or stays above zero: the bounds are the least and the greatest entry a deck can reach, and the
reduced state caps the count at the last entry (past it nothing changes, whatever the entries).
``ByCount`` reads its table from a Ruleset field only, and the Ruleset holds every point table
to whole numbers from 0 to 100, so it cannot state the eel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sushigo.spec.shapes.base import Numbers, OneTableau, at, numbers, term_at, znumbers

if TYPE_CHECKING:
    import z3


@dataclass(frozen=True)
class Table(OneTableau):
    """Points by the count of the kind's cards (every variant counted); the last entry holds beyond."""

    table: Numbers

    def score(self, counts: Sequence[int], rules: Any) -> int:
        return at(numbers(self.table, rules), sum(counts))

    def term(self, counts: Sequence[z3.ArithRef], rules: Any, most: Sequence[int]) -> z3.ArithRef:
        import z3

        return term_at(znumbers(self.table, rules), z3.Sum(list(counts)) if len(counts) > 1 else counts[0])

    def bounds(self, most: Sequence[int], seats: int, rules: Any) -> tuple[int, int]:
        table = numbers(self.table, rules)
        reach = table[: min(sum(most), len(table) - 1) + 1]
        return min(reach), max(reach)

    def keep(self) -> str:
        return "capped"

    def reduce(self, counts: Sequence[int], rules: Any) -> tuple[tuple[int, ...], int]:
        """The count capped at the table's last entry; nothing banked (a capped count scores the same).

        A kind of several variants keeps its counts as they are (capping each would not cap the sum).
        """
        if len(counts) != 1:
            return tuple(counts), 0
        return (min(counts[0], len(numbers(self.table, rules)) - 1),), 0
