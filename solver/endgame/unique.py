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
from typing import TypeAlias, cast

from sushigo.solver.matrixgame import Number

Bound: TypeAlias = Number | float  # a value, or a bound on one (infinite when unknown)
#: A cell searched within a window (alpha, beta), fail-soft: a result <= alpha is an upper bound,
#: >= beta a lower bound, else the exact value.
Cell = Callable[[int, int, Bound, Bound], Bound]
#: What is known of a cell without a search: (lower bound, upper bound), equal when it is known exactly.
Bounds = Callable[[int, int], tuple[Bound, Bound]]

_INF = float("inf")


def transpose(cell: Cell) -> Cell:
    """The column player's view as a row player's: the negated transpose, windows mirrored."""
    return lambda j, i, alpha, beta: -cell(i, j, -beta, -alpha)


def transpose_bounds(bounds: Bounds) -> Bounds:
    """:func:`transpose` for what is known of the cells."""

    def flipped(j: int, i: int) -> tuple[Bound, Bound]:
        lo, hi = bounds(i, j)
        return -hi, -lo

    return flipped


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
    y: Sequence[Number], bounds: Bounds | None = None,
) -> tuple[Number, ...] | None:
    """The row mix over all ``m`` rows when it is the game's only optimal one, else None.

    ``x`` (over ``rows``) and ``y`` (over ``cols``) must be optimal in the whole
    game of value ``value``; ``cell`` gives its entries (see :data:`Cell`), and
    ``bounds`` what is known of them without a search (see :data:`Bounds`).
    """
    support = [(j, q) for j, q in zip(cols, y, strict=True) if q]
    tight: list[list[Number]] = []  # per row of T, its cells in the support columns
    for i in range(m):
        got = _tight(cell, bounds, i, value, support)
        if got is not None:
            tight.append(got)
    system = [[a[k] for a in tight] for k in range(len(support))] + [[1] * len(tight)]
    if rank(system) < len(tight):
        return None
    out: list[Number] = [0] * m
    for i, p in zip(rows, x, strict=True):
        out[i] = p
    return tuple(out)


def _tight(
    cell: Cell, bounds: Bounds | None, i: int, value: Number, support: Sequence[tuple[int, Number]]
) -> list[Number] | None:
    """Row ``i``'s cells in the support columns when it earns exactly ``value`` against the column mix
    ``support`` (it earns at most that), else None (:func:`settle`, strict: equal must be exact)."""
    lo: list[Bound] = []
    hi: list[Bound] = []
    for j, _ in support:
        a, b = bounds(i, j) if bounds is not None else (-_INF, _INF)
        lo.append(a)
        hi.append(b)
    total = settle([q for _, q in support], lo, hi, value, True,
                   lambda k: cell(i, support[k][0], -_INF, _INF),
                   lambda k, need: cell(i, support[k][0], need, _INF))
    if total < value:
        return None
    assert total <= value, "the restricted column mix is not optimal in the whole game"
    return cast(list[Number], hi)  # every cell exact here


def settle(
    weights: Sequence[Number], lo: list[Bound], hi: list[Bound], t: Bound, strict: bool,
    exact: Callable[[int], Bound], reach: Callable[[int, Bound], Bound],
) -> Bound:
    """The weighted sum of some cells, each known to lie in ``[lo[k], hi[k]]``, found only as far as
    the threshold ``t`` needs: exact when it exceeds ``t`` (``strict``: reaches it; every cell is
    then exact, ``lo == hi``), else an upper bound below ``t`` (not above it when not strict).

    The bounds narrow in place. A cell is searched exactly (``exact(k)``) while two or more have no
    finite upper bound; else the one with the widest weighted gap is tested against what it must
    reach, the others at their upper bounds (``reach(k, a)``: the cell if it exceeds ``a``, else
    an upper bound <= a). In strict mode a bound that touches ``a`` cannot tell, so the cell
    itself decides. Used by the double oracle's replies and by the uniqueness test's rows.

    The weights are a mix's support (all positive) and the upper bounds are finite or +inf, so the sum
    is +inf as soon as one bound is: it is not multiplied out then (a Fraction times a float goes
    through the numbers ABCs, slowly; k = 9, seed 6: 8.45 -> 7.88 and 8.66 -> 7.47 s CPU, same process).
    """
    n = len(weights)
    while True:
        upper = _INF if _INF in hi else sum(w * h for w, h in zip(weights, hi, strict=True))
        if upper < t or (upper == t and not strict):
            return upper
        open_ = [k for k in range(n) if lo[k] != hi[k]]
        if not open_:
            return upper
        unbounded = [k for k in open_ if hi[k] == _INF]
        if len(unbounded) > 1:
            k = unbounded[0]
            lo[k] = hi[k] = exact(k)
            continue
        k = unbounded[0] if unbounded else max(open_, key=lambda k: weights[k] * (hi[k] - lo[k]))
        w = weights[k]
        rest = t - sum(weights[m] * hi[m] for m in range(n) if m != k)
        need = rest if w == 1 else rest / Fraction(w)  # exact: a weight other than 1 is a Fraction
        got = reach(k, need)
        if strict and got == need:
            got = exact(k)
        if got > need or (strict and got == need):
            lo[k] = hi[k] = got
        else:
            hi[k] = got
