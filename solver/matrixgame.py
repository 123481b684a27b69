"""Exact solution of finite two-player zero-sum matrix games.

The row player maximises, the column player minimises. Entries are ints or
:class:`fractions.Fraction`; every answer is exact. The method, in order:

1. a pure saddle point (maximin of rows equals minimax of columns): done;
2. iterated removal of weakly dominated rows and columns (keeps the value and
   at least one optimal strategy for each side);
3. a single row or column left: pure; two rows: the lower envelope of the
   column lines is maximised at a breakpoint (closed form);
4. otherwise a simplex over Fractions with Bland's rule (no cycling).

Every mixed answer is checked against its own certificate before it is
returned: the row mix earns at least the value against every column and the
column mix concedes at most the value against every row. A failure raises
``AssertionError`` (a bug, never a user error).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

Number = int | Fraction


@dataclass(frozen=True)
class MatrixSolution:
    """Value and one optimal mixed strategy per side (probabilities sum to 1)."""

    value: Number
    rows: tuple[Number, ...]
    cols: tuple[Number, ...]


def pure_maximin(matrix: Sequence[Sequence[Number]]) -> tuple[Number, int]:
    """The best pure guarantee of the row player and the first row reaching it."""
    best_i = 0
    best = min(matrix[0])
    for i in range(1, len(matrix)):
        v = min(matrix[i])
        if v > best:
            best, best_i = v, i
    return best, best_i


def _unit(n: int, k: int) -> tuple[Number, ...]:
    return tuple(1 if j == k else 0 for j in range(n))


def check_certificate(matrix: Sequence[Sequence[Number]], sol: MatrixSolution) -> bool:
    """True when ``sol`` is provably optimal: x earns >= v on every column, y concedes <= v on every row."""
    m, n = len(matrix), len(matrix[0])
    if sum(sol.rows) != 1 or sum(sol.cols) != 1:
        return False
    if any(p < 0 for p in sol.rows) or any(q < 0 for q in sol.cols):
        return False
    for j in range(n):
        if sum(sol.rows[i] * matrix[i][j] for i in range(m) if sol.rows[i]) < sol.value:
            return False
    for i in range(m):
        if sum(sol.cols[j] * matrix[i][j] for j in range(n) if sol.cols[j]) > sol.value:
            return False
    return True


def solve(matrix: Sequence[Sequence[Number]]) -> MatrixSolution:
    """Value and optimal mixed strategies of a non-empty matrix game."""
    m = len(matrix)
    if m == 0 or not matrix[0]:
        raise ValueError("a matrix game needs at least one row and one column")
    n = len(matrix[0])
    # 1. pure saddle point
    row_min = [min(r) for r in matrix]
    lower = max(row_min)
    col_max = [max(matrix[i][j] for i in range(m)) for j in range(n)]
    upper = min(col_max)
    if lower == upper:
        return MatrixSolution(lower, _unit(m, row_min.index(lower)), _unit(n, col_max.index(upper)))
    # 2. dominance
    rows, cols = _reduce(matrix, list(range(m)), list(range(n)))
    sub = [[matrix[i][j] for j in cols] for i in rows]
    if len(rows) == 2:
        value, x, y = _two_rows(sub)
    elif len(cols) == 2:
        tv, ty, tx = _two_rows([[-sub[i][j] for i in range(len(rows))] for j in range(2)])
        value, x, y = -tv, tx, ty
    else:
        value, x, y = _simplex(sub)
    full_x: list[Number] = [0] * m
    full_y: list[Number] = [0] * n
    for k, i in enumerate(rows):
        full_x[i] = x[k]
    for k, j in enumerate(cols):
        full_y[j] = y[k]
    sol = MatrixSolution(value, tuple(full_x), tuple(full_y))
    assert check_certificate(matrix, sol), f"matrix game certificate failed for {matrix!r}"
    return sol


def _reduce(
    matrix: Sequence[Sequence[Number]], rows: list[int], cols: list[int]
) -> tuple[list[int], list[int]]:
    """Remove weakly dominated rows (for the maximiser) and columns (for the minimiser) until none is left."""
    changed = True
    while changed and (len(rows) > 1 or len(cols) > 1):
        changed = False
        for r in list(rows):
            if len(rows) == 1:
                break
            for r2 in rows:
                if r2 != r and all(matrix[r2][j] >= matrix[r][j] for j in cols):
                    rows.remove(r)
                    changed = True
                    break
        for c in list(cols):
            if len(cols) == 1:
                break
            for c2 in cols:
                if c2 != c and all(matrix[i][c2] <= matrix[i][c] for i in rows):
                    cols.remove(c)
                    changed = True
                    break
    return rows, cols


def _two_rows(sub: Sequence[Sequence[Number]]) -> tuple[Number, list[Number], list[Number]]:
    """2 x n game: maximise over p (weight of row 0) the minimum of the column lines.

    The optimum lies at p = 0, p = 1 or where two column lines cross; at a
    crossing point with the two lines of opposite slopes the minimiser mixes
    those two columns.
    """
    n = len(sub[0])
    a = [sub[0][j] for j in range(n)]
    b = [sub[1][j] for j in range(n)]
    # line j: value(p) = b_j + (a_j - b_j) p
    cands: list[Fraction] = [Fraction(0), Fraction(1)]
    for j in range(n):
        for k in range(j + 1, n):
            sj, sk = a[j] - b[j], a[k] - b[k]
            if sj != sk:
                p = Fraction(b[k] - b[j]) / (sj - sk)
                if 0 < p < 1:
                    cands.append(p)

    def env(p: Fraction) -> Number:
        return min(b[j] + (a[j] - b[j]) * p for j in range(n))

    best_p = max(cands, key=env)
    value = _norm(env(best_p))
    x: list[Number] = [_norm(best_p), _norm(1 - best_p)]
    # Column mix: columns active at best_p; a pure one if it already holds the row player to the value.
    active = [j for j in range(n) if b[j] + (a[j] - b[j]) * best_p == value]
    y: list[Number] = [0] * n
    for j in active:
        if a[j] <= value and b[j] <= value:
            y[j] = 1
            return value, x, y
    up = [j for j in active if a[j] - b[j] > 0]
    down = [j for j in active if a[j] - b[j] < 0]
    j, k = up[0], down[0]
    sj, sk = a[j] - b[j], a[k] - b[k]
    # q sj + (1-q) sk = 0 makes the mixed column flat in p
    q = Fraction(-sk) / (sj - sk)
    y[j], y[k] = _norm(q), _norm(1 - q)
    return value, x, y


def _norm(v: Number) -> Number:
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v.numerator)
    return v


def _simplex(sub: Sequence[Sequence[Number]]) -> tuple[Number, list[Number], list[Number]]:
    """General m x n game by the column player's LP, solved exactly with Bland's rule.

    Shift the matrix positive (A' = A - min + 1), then maximise sum(w) subject
    to A' w <= 1, w >= 0. At the optimum z: value' = 1/z, the column mix is
    w/z and the row mix is the dual (the slack columns' reduced costs) over z.
    """
    m, n = len(sub), len(sub[0])
    shift = 1 - min(min(r) for r in sub)
    # tableau rows: [coeffs of w (n) | slacks (m) | rhs]
    tab: list[list[Fraction]] = []
    for i in range(m):
        row = [Fraction(sub[i][j] + shift) for j in range(n)]
        row += [Fraction(1 if k == i else 0) for k in range(m)]
        row.append(Fraction(1))
        tab.append(row)
    # objective row stores -c (reduced costs); maximise sum w
    obj = [Fraction(-1)] * n + [Fraction(0)] * m + [Fraction(0)]
    basis = [n + i for i in range(m)]
    width = n + m
    while True:
        enter = next((c for c in range(width) if obj[c] < 0), None)
        if enter is None:
            break
        best_ratio: Fraction | None = None
        leave = -1
        for i in range(m):
            coef = tab[i][enter]
            if coef > 0:
                ratio = tab[i][-1] / coef
                better = best_ratio is None or ratio < best_ratio
                if better or (ratio == best_ratio and basis[i] < basis[leave]):
                    best_ratio, leave = ratio, i
        assert leave >= 0, "matrix-game LP cannot be unbounded"
        piv = tab[leave][enter]
        prow = [v / piv for v in tab[leave]]
        tab[leave] = prow
        for i in range(m):
            if i != leave and tab[i][enter]:
                f = tab[i][enter]
                tab[i] = [v - f * pv for v, pv in zip(tab[i], prow, strict=True)]
        if obj[enter]:
            f = obj[enter]
            obj = [v - f * pv for v, pv in zip(obj, prow, strict=True)]
        basis[leave] = enter
    z = obj[-1]
    w = [Fraction(0)] * n
    for i, var in enumerate(basis):
        if var < n:
            w[var] = tab[i][-1]
    y = [_norm(v / z) for v in w]
    x = [_norm(obj[n + i] / z) for i in range(m)]
    value = _norm(1 / z - shift)
    return value, x, y
