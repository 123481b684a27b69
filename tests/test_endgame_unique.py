"""The uniqueness certificate that lets the fast endgame search skip the root's whole matrix.

Expected values come from the games themselves (rock-paper-scissors and
matching pennies have one optimal mix each, worked by hand) and from an
independent check: when a row mix is the only optimal one, :func:`solve`
must return it whatever order the rows and columns come in.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

import pytest
from sushigo.solver.endgame.unique import (
    Bound,
    Bounds,
    Cell,
    rank,
    settle,
    transpose,
    transpose_bounds,
    unique_mix,
)
from sushigo.solver.matrixgame import Number, solve


def _cell(matrix: Sequence[Sequence[Number]]) -> Cell:
    """A fail-soft windowed cell over a known matrix (windows ignored: always exact)."""

    def cell(i: int, j: int, alpha: Bound, beta: Bound) -> Bound:
        return matrix[i][j]

    return cell


Mix = tuple[Number, ...] | None


def _unique(matrix: Sequence[Sequence[Number]]) -> tuple[Mix, Mix]:
    sol = solve(matrix)
    m, n = len(matrix), len(matrix[0])
    rows, cols = list(range(m)), list(range(n))
    cell = _cell(matrix)
    return (unique_mix(cell, m, sol.value, rows, sol.rows, cols, sol.cols),
            unique_mix(transpose(cell), n, -sol.value, cols, sol.cols, rows, sol.rows))


def test_rank_by_hand() -> None:
    assert rank([[1, 2], [2, 4]]) == 1
    assert rank([[1, 2], [3, 4], [1, 1]]) == 2
    assert rank([[0, 0], [0, 0]]) == 0
    assert rank([[Fraction(1, 3), 1, 0], [0, 1, 1], [Fraction(1, 3), 2, 1]]) == 2


def test_one_optimal_mix_by_hand() -> None:
    # Rock-paper-scissors: only (1/3, 1/3, 1/3) for both sides; matching pennies: only (1/2, 1/2).
    third = Fraction(1, 3)
    assert _unique([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]) == ((third,) * 3, (third,) * 3)
    half = Fraction(1, 2)
    assert _unique([[1, -1], [-1, 1]]) == ((half, half), (half, half))


def test_duplicate_rows_are_not_unique() -> None:
    # Rows 0 and 2 are the same: any split of their weight is optimal, so no certificate for rows.
    x, y = _unique([[1, -1], [-1, 1], [1, -1]])
    assert x is None and y == (Fraction(1, 2), Fraction(1, 2))


def test_restricted_game_with_rows_outside() -> None:
    # The restricted game is matching pennies on rows 0-1; row 2 earns -1/2 < 0 against (1/2, 1/2)
    # (strictly worse), so the mix is the only optimal one; row 3 earns exactly 0 and ties, but the
    # tight system (2 equations, 3 unknowns) then has a line of solutions: not unique.
    half = Fraction(1, 2)
    strict = [[1, -1], [-1, 1], [-1, 0]]
    assert unique_mix(_cell(strict), 3, 0, [0, 1], (half, half), [0, 1], (half, half)) == (half, half, 0)
    tie = [[1, -1], [-1, 1], [0, 0]]
    assert unique_mix(_cell(tie), 3, 0, [0, 1], (half, half), [0, 1], (half, half)) is None


@pytest.mark.parametrize("seed", range(40))
def test_unique_mix_is_what_solve_returns_in_any_order(seed: int) -> None:
    rng = random.Random(seed)
    m, n = rng.randint(2, 4), rng.randint(2, 4)
    matrix = [[rng.randint(-3, 3) for _ in range(n)] for _ in range(m)]
    x, y = _unique(matrix)
    for _ in range(6):
        pr, pc = rng.sample(range(m), m), rng.sample(range(n), n)
        sol = solve([[matrix[i][j] for j in pc] for i in pr])
        assert solve(matrix).value == sol.value
        if x is not None:
            assert tuple(sol.rows[pr.index(i)] for i in range(m)) == x
        if y is not None:
            assert tuple(sol.cols[pc.index(j)] for j in range(n)) == y


def _fail_soft(matrix: Sequence[Sequence[Number]], rng: random.Random) -> Cell:
    """A fail-soft cell as the search gives it: exact inside the window, else only a bound on the far
    side (anywhere between the entry and the window's edge)."""

    def cell(i: int, j: int, alpha: Bound, beta: Bound) -> Bound:
        v = matrix[i][j]
        if v <= alpha:
            return v if alpha == float("inf") else v + Fraction(rng.randint(0, 4), 4) * (alpha - v)
        if v >= beta:
            return v if beta == -float("inf") else v - Fraction(rng.randint(0, 4), 4) * (v - beta)
        return v

    return cell


def _known(matrix: Sequence[Sequence[Number]], rng: random.Random) -> Bounds:
    """What a search might know of each entry: nothing, one side, both sides, or the entry itself."""
    inf = float("inf")
    got = {}
    for i, row in enumerate(matrix):
        for j, v in enumerate(row):
            lo = rng.choice([-inf, v, v - rng.randint(0, 3)])
            hi = rng.choice([inf, v, v + rng.randint(0, 3)])
            got[i, j] = (lo, hi)
    return lambda i, j: got[i, j]


@pytest.mark.parametrize("seed", range(60))
def test_unique_mix_with_bounds_and_windows_is_the_exact_answer(seed: int) -> None:
    # The search hands unique_mix fail-soft cells (a bound outside the window) and the bounds its
    # nodes hold; the answer must be the one from exact cells, and solve's in any order.
    rng = random.Random(seed)
    m, n = rng.randint(2, 5), rng.randint(2, 5)
    matrix = [[rng.randint(-3, 3) for _ in range(n)] for _ in range(m)]
    if rng.random() < 0.3:
        matrix.append(list(matrix[0]))  # a tie: two equal rows
        m += 1
    sol = solve(matrix)
    rows, cols = list(range(m)), list(range(n))
    flipped = [[-matrix[i][j] for i in range(m)] for j in range(n)]
    want = _unique(matrix)
    # The restricted game the search ends with: the supports only (the mixes stay optimal in the whole).
    sup_r, sup_c = [i for i in rows if sol.rows[i]], [j for j in cols if sol.cols[j]]
    x, y = [sol.rows[i] for i in sup_r], [sol.cols[j] for j in sup_c]
    for r, c, xr, yc in ((rows, cols, sol.rows, sol.cols), (sup_r, sup_c, x, y)) * 2:
        got_x = unique_mix(_fail_soft(matrix, rng), m, sol.value, r, xr, c, yc, _known(matrix, rng))
        got_y = unique_mix(transpose(_fail_soft(matrix, rng)), n, -sol.value, c, yc, r, xr,
                           transpose_bounds(_known(matrix, rng)))
        assert (got_x, got_y) == want
        # The transposed bounds are the negated transpose's own.
        t = transpose_bounds(_known(flipped, rng))
        assert all(lo <= matrix[i][j] <= hi for i in rows for j in cols for lo, hi in [t(i, j)])


def _settle_case(rng: random.Random) -> None:
    n = rng.randint(1, 4)
    cells: list[Number] = [
        rng.choice([rng.randint(-9, 9), Fraction(rng.randint(-30, 30), rng.randint(1, 7))]) for _ in range(n)]
    raw = [rng.randint(1, 6) for _ in range(n)]
    weights: list[Number] = [Fraction(r, sum(raw)) for r in raw] if n > 1 else [1]
    lo: list[Bound] = []
    hi: list[Bound] = []
    for c in cells:
        if rng.random() < 0.5:
            lo.append(-float("inf"))
            hi.append(float("inf"))
        else:  # known bounds around the cell, or the cell itself
            lo.append(c - rng.randint(0, 3))
            hi.append(c + rng.randint(0, 3))
    true = sum(w * c for w, c in zip(weights, cells, strict=True))
    t = true + rng.choice([-2, -1, Fraction(-1, 3), 0, Fraction(1, 2), 1, 3])
    strict = rng.random() < 0.5

    def reach(k: int, a: Number) -> Bound:
        # Fail-soft: the cell when it exceeds a, else an upper bound <= a (a itself or the cell).
        return cells[k] if cells[k] > a else rng.choice([a, cells[k]])

    got = settle(weights, lo, hi, t, strict, lambda k: cells[k], reach)
    if true > t or (strict and true == t):
        assert got == true
    else:
        assert true <= got <= t and (not strict or got < t)


@pytest.mark.parametrize("seed", range(6))
def test_settle_is_the_weighted_sum_where_it_exceeds_the_threshold(seed: int) -> None:
    """:func:`settle` against the plain weighted sum of the true cells: exact when it exceeds the
    threshold (reaches it, strict), else an upper bound of the sum below (not above) the threshold;
    starting from bounds some of which are +inf (unknown), with weights Fractions and ints."""
    rng = random.Random(1400 + seed)
    for _ in range(300):
        _settle_case(rng)
