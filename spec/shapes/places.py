"""Places by distinct totals of icons (Party's maki).

Each seat totals the icons on its cards (``icons[k]`` on card kind ``k``); the seats with the
greatest total take the first place's points, those with the next greatest *distinct* total
the second's, and so on: a tie for first leaves second place to the next total (RB p8: totals
5, 5, 3, 1 score 6, 6, 3, 0). A seat with no icons places nowhere. The points depend on the
seat count: ``tiers`` lists (from this many seats, the points by place), so Party's maki is
``Places(icons=(1, 2, 3), tiers=((2, (6, 3)), (6, (6, 4, 2))))``.

This is not the base game's maki ranking (a tie for first there removes second place and the
points are shared), which stays in :mod:`spec.model.scoring`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sushigo.spec.shapes.base import Numbers, numbers, total, znumbers

if TYPE_CHECKING:
    import z3


@dataclass(frozen=True)
class Places:
    """Points by place among the distinct icon totals; ``tiers``: (from seats, points by place)."""

    icons: tuple[int, ...]
    tiers: tuple[tuple[int, Numbers], ...]
    seated = True

    def __post_init__(self) -> None:
        starts = [start for start, _ in self.tiers]
        if not starts or starts != sorted(set(starts)) or any(x < 0 for x in self.icons):
            raise ValueError(f"Places: tiers {self.tiers!r} must start at rising seat counts, icons be whole")

    def _places(self, seats: int) -> Numbers:
        """The points by place for ``seats`` seats (the last tier that has started; none before)."""
        started = [pts for start, pts in self.tiers if start <= seats]
        return started[-1] if started else ()

    def points(self, seats: Sequence[Sequence[int]], rules: Any) -> tuple[int, ...]:
        totals = [sum(n * i for n, i in zip(row, self.icons, strict=True)) for row in seats]
        param = self._places(len(seats))
        places = numbers(param, rules) if param else ()
        ranked = sorted({t for t in totals if t > 0}, reverse=True)
        place = [ranked.index(t) if t > 0 else len(places) for t in totals]  # no icons: no place
        return tuple(places[p] if p < len(places) else 0 for p in place)

    def terms(self, seats: Sequence[Sequence[z3.ArithRef]], rules: Any,
              most: Sequence[int]) -> list[z3.ArithRef]:
        """Per seat: its place is 1 + the distinct totals above it, each counted at its first seat."""
        import z3

        totals = [total([n * i for n, i in zip(row, self.icons, strict=True) if i]) for row in seats]
        param = self._places(len(seats))
        places = znumbers(param, rules) if param else []
        out = []
        for t in totals:
            above = total([z3.If(z3.And(u > t, *[v != u for v in totals[:j]]), 1, 0)
                           for j, u in enumerate(totals)])
            expr: z3.ArithRef = z3.IntVal(0)
            for place in range(len(places) - 1, -1, -1):
                expr = z3.If(above == place, places[place], expr)
            out.append(z3.If(t > 0, expr, 0))
        return out

    def bounds(self, most: Sequence[int], seats: int, rules: Any) -> tuple[int, int]:
        """Nothing (no icons), or the points of any place some seat can reach: place ``p`` needs
        ``p - 1`` other seats above it with distinct totals, so no deeper than the distinct
        positive totals a seat can show."""
        param = self._places(seats)
        places = numbers(param, rules) if param else ()
        shown = {0}
        for i, m in zip(self.icons, most, strict=True):
            shown = {s + i * n for s in shown for n in range(m + 1)}
        values = [0, *places[: min(seats, len(shown - {0}))]]
        return min(values), max(values)

    def keep(self) -> str:
        return "icons"
