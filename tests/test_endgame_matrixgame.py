"""The exact matrix-game solver: textbook games, and a certificate checked by code written here."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sushigo.solver.matrixgame import MatrixSolution, pure_maximin, solve

F = Fraction


def independent_check(matrix: list[list[int]], sol: MatrixSolution) -> None:
    """Von Neumann's certificate, recomputed here: x earns >= v on every column, y concedes <= v on every row.

    Both together prove v is the value of the game, whatever method found it.
    """
    m, n = len(matrix), len(matrix[0])
    assert len(sol.rows) == m and len(sol.cols) == n
    assert all(p >= 0 for p in sol.rows) and sum(sol.rows) == 1
    assert all(q >= 0 for q in sol.cols) and sum(sol.cols) == 1
    for j in range(n):
        assert sum(F(sol.rows[i]) * matrix[i][j] for i in range(m)) >= sol.value
    for i in range(m):
        assert sum(F(sol.cols[j]) * matrix[i][j] for j in range(n)) <= sol.value


@pytest.mark.parametrize(
    ("matrix", "value", "rows"),
    [
        # Matching pennies (textbook): value 0, both mix evenly.
        ([[1, -1], [-1, 1]], 0, (F(1, 2), F(1, 2))),
        # 2x2 without saddle: v = (ad - bc) / (a + d - b - c) = (3 - 2) / 7; p = (d - c) / 7 = 3/7.
        ([[3, -1], [-2, 1]], F(1, 7), (F(3, 7), F(4, 7))),
        # Rock-paper-scissors: value 0, uniform.
        ([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], 0, (F(1, 3), F(1, 3), F(1, 3))),
        # Saddle point at (row 1, column 0): max of row minima 2 = min of column maxima 2.
        ([[1, 5], [2, 3]], 2, (0, 1)),
    ],
)
def test_textbook_games(matrix: list[list[int]], value: Fraction, rows: tuple[Fraction, ...]) -> None:
    sol = solve(matrix)
    assert sol.value == value
    assert tuple(sol.rows) == rows
    independent_check(matrix, sol)


def test_dominated_rows_are_never_played() -> None:
    # Row 2 is beaten by row 0 everywhere; the 2x2 left is matching pennies scaled by 2.
    matrix = [[2, -2], [-2, 2], [1, -3]]
    sol = solve(matrix)
    assert sol.value == 0 and sol.rows[2] == 0
    independent_check(matrix, sol)


def test_rectangular_needs_simplex() -> None:
    # 3x4 with a fully mixed core: checked only through the certificate.
    matrix = [[4, -2, 1, 0], [-3, 5, -1, 2], [1, 1, -4, 3]]
    independent_check(matrix, solve(matrix))


def test_pure_maximin() -> None:
    assert pure_maximin([[1, -1], [-1, 1]]) == (-1, 0)
    assert pure_maximin([[0, 3], [2, 2], [1, 9]]) == (2, 1)


matrices = st.integers(1, 6).flatmap(
    lambda m: st.integers(1, 6).flatmap(
        lambda n: st.lists(st.lists(st.integers(-6, 6), min_size=n, max_size=n), min_size=m, max_size=m)
    )
)


@given(matrices)
def test_random_games_have_certified_values(matrix: list[list[int]]) -> None:
    sol = solve(matrix)
    independent_check(matrix, sol)
    # The value lies between the pure maximin and the pure minimax.
    lower = max(min(r) for r in matrix)
    upper = min(max(matrix[i][j] for i in range(len(matrix))) for j in range(len(matrix[0])))
    assert lower <= sol.value <= upper


@given(matrices, st.integers(-5, 5), st.integers(1, 3))
def test_value_moves_with_affine_payoffs(matrix: list[list[int]], shift: int, scale: int) -> None:
    base = solve(matrix).value
    moved = solve([[scale * v + shift for v in row] for row in matrix]).value
    assert moved == scale * base + shift


@given(matrices)
def test_transpose_negated_is_the_other_side(matrix: list[list[int]]) -> None:
    m, n = len(matrix), len(matrix[0])
    other = [[-matrix[i][j] for i in range(m)] for j in range(n)]
    assert solve(other).value == -solve(matrix).value
