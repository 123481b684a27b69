"""Kinds kept until the game ends, then scored once on the game's cards (Party's desserts).

``GameEnd(inner)`` scores the counts a seat played over the whole game by ``inner``: green tea
ice cream is ``GameEnd(Sets(4, 12))`` (12 a set of four, leftovers nothing; RB p16), fruit
``GameEnd(PerVariant(...))``, Party's pudding ``GameEnd(MostFewest(6, 6))``. ``inner`` is a
shape of this package or one of :mod:`spec.kinds`' per-count descriptions (``Sets``,
``ByCount``, ``PerCard``), whose Z3 reading is :func:`spec.model.scoring.scoring_term`.
A round scores nothing of it, so the reduced state keeps the count (as pudding's).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sushigo.spec.kinds import ByCount, PerCard, Sets

if TYPE_CHECKING:
    import z3
    from sushigo.spec.shapes.base import Shape


@dataclass(frozen=True)
class GameEnd:
    """Scored once, at game end, by ``inner`` on the game's counts (one row per seat)."""

    inner: Shape | Sets | ByCount | PerCard

    @property
    def seated(self) -> bool:
        return bool(getattr(self.inner, "seated", False))

    def points(self, seats: Sequence[Sequence[int]], rules: Any) -> tuple[int, ...]:
        if isinstance(self.inner, (Sets, ByCount, PerCard)):
            return tuple(self.inner.score(sum(c), rules) for c in seats)
        return self.inner.points(seats, rules)

    def terms(self, seats: Sequence[Sequence[z3.ArithRef]], rules: Any,
              most: Sequence[int]) -> list[z3.ArithRef]:
        if isinstance(self.inner, (Sets, ByCount, PerCard)):
            import z3
            from sushigo.spec.model.scoring import scoring_term

            return [scoring_term(self.inner, z3.Sum(list(c)) if len(c) > 1 else c[0], rules) for c in seats]
        return self.inner.terms(seats, rules, most)

    def bounds(self, most: Sequence[int], seats: int, rules: Any) -> tuple[int, int]:
        if isinstance(self.inner, (Sets, ByCount, PerCard)):
            reach = [self.inner.score(n, rules) for n in range(sum(most) + 1)]
            return min(reach), max(reach)
        return self.inner.bounds(most, seats, rules)

    def keep(self) -> str:
        return "count"
