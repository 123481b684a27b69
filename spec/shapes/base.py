"""What every scoring shape of :mod:`spec.shapes` shares: its numbers, its inputs, its Z3 helpers.

A shape reads, for every seat at the table, the counts of the card kinds it scores (its
*variants*: the four onigiri shapes, the six fruit cards; one count for most kinds), and gives
each seat its points. Every shape states this twice, by its own code each time:

- ``points(seats, rules)``: plain Python over whole numbers;
- ``terms(seats, rules, most)``: Z3 integer terms over count variables, which the caller bounds
  by ``0 <= count <= most[variant]`` (the copies a deck holds). The bound is part of the
  reading: a shape that counts layers of cards (onigiri) writes one term per possible layer.

and says what the searches need of it: ``bounds(most, seats, rules)`` (the least and the most a
seat can score), ``keep()`` (what a reduced state keeps, in :meth:`spec.kinds.CardKind.keep`'s
words) and, for a shape scored on one tableau alone, ``reduce(counts, rules)`` (the reduced
counts and the points they bank). Tests prove the two statements equal over every count of
the bounded domain and the bounds and the reduction exact.

A number is a literal or a :class:`~spec.ruleset.Ruleset` field, as in :mod:`spec.kinds`
(:func:`spec.kinds.resolve`); a table is also a literal tuple of whole numbers (the Party rule
numbers have no Ruleset field yet). Under a template's
:class:`~spec.model.rulevars.RuleVars` a field becomes the template's input
(:func:`znumber`, :func:`znumbers`), as in :func:`spec.model.scoring.scoring_term`. z3 is
imported only inside the ``terms`` methods, so the plain scorer never loads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from sushigo.spec.kinds import resolve

if TYPE_CHECKING:
    import z3

#: A number: a literal, a Ruleset field, or (field, index): :data:`spec.kinds.Param`.
Number = int | str | tuple[str, int]
#: A table of numbers: a literal tuple of whole numbers, a Ruleset field, or (field, index).
Numbers = tuple[int, ...] | str | tuple[str, int]


def number(param: Number, rules: Any) -> int:
    """The value of a number under ``rules`` (``rules`` may be None when it is a literal)."""
    return int(param) if isinstance(param, int) else int(resolve(param, rules))


def numbers(param: Numbers, rules: Any) -> tuple[int, ...]:
    """The entries of a table under ``rules``: a literal tuple of ints stands for itself."""
    if isinstance(param, tuple) and all(isinstance(x, int) for x in param):
        return tuple(int(x) for x in param)
    return tuple(int(x) for x in resolve(param, rules))  # type: ignore[arg-type]


def at(table: Sequence[int], n: int) -> int:
    """``table[n]``, its last entry holding for every larger count."""
    return table[min(n, len(table) - 1)]


def _template(rules: Any) -> bool:
    """``rules`` is a template's :class:`~spec.model.rulevars.RuleVars` (each number an input)."""
    from sushigo.spec.model.rulevars import RuleVars

    return isinstance(rules, RuleVars)


def znumber(param: Number, rules: Any) -> int | z3.ArithRef:
    """A number in a Z3 reading: a literal as it is, a field the template's input ``rule_<field>``
    (a concrete ruleset's value otherwise)."""
    if isinstance(param, int):
        return param
    return rules.param(param) if _template(rules) else number(param, rules)


def znumbers(param: Numbers, rules: Any) -> list[int] | list[z3.ArithRef]:
    """A table in a Z3 reading: under a template, one input per entry (its length is the shape's)."""
    if isinstance(param, tuple) and all(isinstance(x, int) for x in param):
        return [int(x) for x in param]
    if not _template(rules):
        return list(numbers(param, rules))
    from sushigo.spec.model.rulevars import numbers as inputs

    key = param if isinstance(param, str) else f"{param[0]}_{param[1]}"
    return inputs(rules, key, len(numbers(param, rules.shape)), lambda r: numbers(param, r))


def term_at(table: Sequence[int] | Sequence[z3.ArithRef], n: z3.ArithRef) -> z3.ArithRef:
    """The Z3 reading of :func:`at` for ``n >= 0``: one ``If`` per entry before the last."""
    import z3

    last = table[-1]
    expr: z3.ArithRef = z3.IntVal(last) if isinstance(last, int) else last
    for k in range(len(table) - 2, -1, -1):
        expr = z3.If(n == k, table[k], expr)
    return expr


def total(terms: Sequence[z3.ArithRef]) -> z3.ArithRef:
    """The sum of ``terms`` (0 for none)."""
    import z3

    return z3.Sum(list(terms)) if terms else z3.IntVal(0)


class Shape(Protocol):
    """The contract of a scoring shape (see the module docstring)."""

    #: True when a seat's points depend on the other seats' counts (edamame, temaki).
    seated: bool

    def points(self, seats: Sequence[Sequence[int]], rules: Any) -> tuple[int, ...]: ...

    def terms(self, seats: Sequence[Sequence[z3.ArithRef]], rules: Any,
              most: Sequence[int]) -> list[z3.ArithRef]: ...

    def bounds(self, most: Sequence[int], seats: int, rules: Any) -> tuple[int, int]: ...

    def keep(self) -> str: ...


class OneTableau:
    """Mixin of the shapes scored on one tableau alone (``score(counts, rules)``, ``term(...)``)."""

    seated = False

    def score(self, counts: Sequence[int], rules: Any) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    def term(self, counts: Sequence[z3.ArithRef], rules: Any, most: Sequence[int]) -> z3.ArithRef:
        raise NotImplementedError  # pragma: no cover - overridden

    def points(self, seats: Sequence[Sequence[int]], rules: Any) -> tuple[int, ...]:
        return tuple(self.score(counts, rules) for counts in seats)

    def terms(self, seats: Sequence[Sequence[z3.ArithRef]], rules: Any,
              most: Sequence[int]) -> list[z3.ArithRef]:
        return [self.term(counts, rules, most) for counts in seats]

    def reduce(self, counts: Sequence[int], rules: Any) -> tuple[tuple[int, ...], int]:
        """(counts kept, points banked); by default everything is kept and nothing banked."""
        return tuple(counts), 0
