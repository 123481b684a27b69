"""Most and fewest: the table ranks its seats by count (Party's temaki each round, pudding at game end).

``MostFewest(most=4, fewest=4)``: the seats with the most cards score +4, the seats with the
fewest (counting none) score -4, and with fewer than ``penalty_from`` seats (3: "with 2
players, nobody loses points") nobody loses (RB p8; pudding RB p16 with 6). Tied seats all take
the full amount (Party's rule for every tie), so the shape has no share.

Every seat tied is not covered by the rulebook (PARTY.md section 4.2), so it is a parameter,
``all_tied``, with the readings the peers take:

- ``"both"``: each seat is both most and fewest and takes both (+4 - 4 = 0; +4 with 2 players):
  the rule applied as written, and [BRI];
- ``"nothing"``: nobody scores (the base game's pudding rule; [MLY]);
- ``"most"``: everyone takes the most (+4) ([RYS] for temaki);
- ``"most-unless-none"``: everyone takes the most, or the fewest's loss when all have none
  (nothing with fewer than ``penalty_from`` seats) ([SUB]).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, get_args

from sushigo.spec.shapes.base import Number, number, total, znumber

if TYPE_CHECKING:
    import z3

AllTied = Literal["both", "nothing", "most", "most-unless-none"]


@dataclass(frozen=True)
class MostFewest:
    """``+most`` to the seats with the most cards, ``-fewest`` to those with the fewest."""

    most: Number
    fewest: Number
    penalty_from: Number = 3
    all_tied: AllTied = "both"
    seated = True

    def __post_init__(self) -> None:
        if self.all_tied not in get_args(AllTied):
            raise ValueError(f"MostFewest: all_tied {self.all_tied!r} is not one of {get_args(AllTied)}")

    def points(self, seats: Sequence[Sequence[int]], rules: Any) -> tuple[int, ...]:
        counts = [sum(c) for c in seats]
        most, fewest = number(self.most, rules), number(self.fewest, rules)
        penalty = len(counts) >= number(self.penalty_from, rules)
        hi, lo = max(counts), min(counts)
        if hi == lo:
            value = {"both": most - (fewest if penalty else 0), "nothing": 0, "most": most,
                     "most-unless-none": most if hi > 0 else -fewest if penalty else 0}[self.all_tied]
            return tuple(value for _ in counts)
        return tuple((most if c == hi else 0) - (fewest if penalty and c == lo else 0) for c in counts)

    def terms(self, seats: Sequence[Sequence[z3.ArithRef]], rules: Any,
              most: Sequence[int]) -> list[z3.ArithRef]:
        """Per seat: most is "no seat has more", fewest "no seat has fewer"; every seat tied is
        every seat equal to the first."""
        import z3

        counts = [total(c) for c in seats]
        bonus, loss = znumber(self.most, rules), znumber(self.fewest, rules)
        start = znumber(self.penalty_from, rules)
        penalty = z3.BoolVal(len(counts) >= start) if isinstance(start, int) else start <= len(counts)
        all_tied = z3.And(*[c == counts[0] for c in counts[1:]])
        out = []
        for c in counts:
            top = z3.And(*[c >= d for d in counts])
            bottom = z3.And(*[c <= d for d in counts])
            value = z3.If(top, bonus, 0) - z3.If(z3.And(penalty, bottom), loss, 0)
            match self.all_tied:
                case "both":
                    out.append(value)
                case "nothing":
                    out.append(z3.If(all_tied, 0, value))
                case "most":
                    out.append(z3.If(all_tied, bonus, value))
                case "most-unless-none":
                    out.append(z3.If(all_tied, z3.If(c > 0, bonus, z3.If(penalty, -loss, 0)), value))
        return out

    def bounds(self, most: Sequence[int], seats: int, rules: Any) -> tuple[int, int]:
        """Exact: every value a seat can take (all tied at none or above it, most alone, fewest
        alone, neither), each reachable when the seats may hold cards."""
        bonus, loss = number(self.most, rules), number(self.fewest, rules)
        penalty = seats >= number(self.penalty_from, rules)
        values = [self.points([[0]] * seats, rules)[0]]  # every seat tied at none
        if sum(most) > 0:
            values.append(self.points([[1]] * seats, rules)[0])  # every seat tied above none
            if seats >= 2:
                values += [bonus, -loss if penalty else 0]  # most alone; fewest alone
            if seats >= 3:
                values.append(0)  # neither
        return min(values), max(values)

    def keep(self) -> str:
        return "count"
