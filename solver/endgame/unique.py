"""A matrix game's optimal mix read off a restricted game, when it is provably the only one.

The double oracle (:mod:`solver.endgame.exact`) ends with optimal mixes x*
and y* of a game restricted to a few rows R and columns C, and a proof that
they are optimal in the whole game. The reference search answers with
whatever :func:`solver.matrixgame.solve` picks from the whole matrix; when the
whole game has only one optimal row mix, that pick is x*, and the matrix need
not be built.

Uniqueness is shown without the whole matrix. Let v be the value and
T = {rows i : (A y*)_i = v}. Every optimal row mix x' earns v against y*,
and (A y*)_i <= v for every row, so x' puts weight only on T; and x' earns
at least v against every column, so exactly v against each column of y*'s
support S (their y*-average is v). Hence x' solves

    sum over i in T of A[i][j] x_i = v  (j in S),    sum over i in T of x_i = 1,

which x* solves too; when the system has full column rank |T| its solution
is unique, so x' = x* (the classical argument of Bohnenblust, Karlin and
Shapley 1950). Rows outside R are placed in or out of T with one-sided
windows (most need no exact cell). The column side is the same test on the
negated transpose.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TypeAlias

from sushigo.solver.matrixgame import Number

Bound: TypeAlias = Number | float  # a value, or a bound on one (infinite when unknown)
#: A cell searched within a window (alpha, beta), fail-soft: a result <= alpha is an upper bound,
#: >= beta a lower bound, else the exact value.
Cell = Callable[[int, int, Bound, Bound], Bound]

_INF = float("inf")


def transpose(cell: Cell) -> Cell:
    """The column player's view as a row player's: the negated transpose, windows mirrored."""
    return lambda j, i, alpha, beta: -cell(i, j, -beta, -alpha)


def rank(matrix: Sequence[Sequence[Number]]) -> int:
    """Rank of a small rational matrix by exact Gaussian elimination."""
    rows = [[Fraction(v) for v in r] for r in matrix]
    width = len(rows[0]) if rows else 0
    r = 0
    for c in range(width):
        pivot = next((k for k in range(r, len(rows)) if rows[k][c]), None)
        if pivot is None:
            continue
        rows[r], rows[pivot] = rows[pivot], rows[r]
        for k in range(len(rows)):
            if k != r and rows[k][c]:
                f = rows[k][c] / rows[r][c]
                rows[k] = [a - f * b for a, b in zip(rows[k], rows[r], strict=True)]
        r += 1
    return r


def unique_mix(
    cell: Cell, m: int, value: Number, rows: Sequence[int], x: Sequence[Number], cols: Sequence[int],
    y: Sequence[Number],
) -> tuple[Number, ...] | None:
    """The row mix over all ``m`` rows when it is the game's only optimal one, else None.

    ``x`` (over ``rows``) and ``y`` (over ``cols``) must be optimal in the whole
    game of value ``value``; ``cell`` gives its entries (see :data:`Cell`).
    """
    support = [(j, q) for j, q in zip(cols, y, strict=True) if q]
    tight: list[list[Number]] = []  # per row of T, its cells in the support columns
    for i in range(m):
        # All but the last support cell exact; the last tested against what it must reach.
        head = [cell(i, j, -_INF, _INF) for j, _ in support[:-1]]
        part = sum(q * a for (_, q), a in zip(support[:-1], head, strict=True))
        last, q = support[-1]
        need = Fraction(value - part) / q
        if i in rows:
            got = cell(i, last, -_INF, _INF)
        else:
            got = cell(i, last, need, _INF)
            if got == need:  # a bound that touches the threshold: the cell itself decides
                got = cell(i, last, -_INF, _INF)
        assert got <= need, "the restricted column mix is not optimal in the whole game"
        if got == need:
            tight.append([*head, got])
    system = [[a[k] for a in tight] for k in range(len(support))] + [[1] * len(tight)]
    if rank(system) < len(tight):
        return None
    out: list[Number] = [0] * m
    for i, p in zip(rows, x, strict=True):
        out[i] = p
    return tuple(out)
