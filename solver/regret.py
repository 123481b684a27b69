"""A policy's regret on two-player endgames: the points its move loses against exact play.

On an endgame position (every hand known, :mod:`solver.endgame`) the zero-sum game of the
point difference (objective ``diff``: earlier rounds, this round, puddings in the last round)
has a value ``V`` for player 0 and an equilibrium strategy ``q`` of player 1 (the mix
:func:`solver.endgame.solve_two` returns for the position seen from seat 1). The regret of a
move ``a`` of player 0 is ``V - sum_b q(b) V(a, b)``, where ``V(a, b)`` is the value of the
position after ``a`` and ``b`` (the rest of the round played exactly by both). It is never
negative: ``q`` holds player 0 to at most ``V`` whatever it plays; it is 0 for every move of an
equilibrium strategy of player 0. Against another equilibrium strategy of player 1 an
off-equilibrium move may lose another amount; we use the one the solver returns (deterministic).

Positions (docs/evaluate.md): position ``k`` of seed ``s`` is
``random_position(s + k, 2, 2 + k % 3, rules, rules.rounds)``: two to four cards in hand, in the
last round, where the value is the game's final point difference, the pudding race included (in
an earlier round the solver's difference leaves puddings out, so a bot that took one would be
charged for it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from sushigo.solver.endgame import Position, random_position, solve_two
from sushigo.solver.matrixgame import Number
from sushigo.spec.cards import Token
from sushigo.spec.errors import BudgetSpent
from sushigo.spec.policies import PlayerView
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import pudding_points, round_totals
from sushigo.spec.turns import Turn, apply_turn, legal_turns

__all__ = ["Regret", "Unsolved", "child", "leaf_value", "position", "regret", "seat_swapped", "value", "view"]

T = TypeVar("T")
_PUD = int(Token.PUDDING)
#: Search budget of one endgame (states); positions of two to four cards need far fewer.
MAX_NODES = 2_000_000


#: The endgame solver ran out of its budget on a position: the one "ran out" exception under the
#: name it had here (kept, library code catches it).
Unsolved = BudgetSpent


def position(seed: int, k: int, rules: Ruleset) -> Position:
    """Position ``k`` of the positions of ``seed`` (see the module docstring)."""
    return random_position(seed + k, 2, 2 + k % 3, rules, rules.rounds)


def seat_swapped(pos: Position) -> Position:
    """The same position with the two players' seats exchanged."""
    def r(xs: tuple[T, ...]) -> tuple[T, ...]:
        return (xs[1], xs[0])

    return dataclasses.replace(pos, hands=r(pos.hands), taken=r(pos.taken), tableaux=r(pos.tableaux),
                               puddings=r(pos.puddings), scores=r(pos.scores))


def child(pos: Position, a: Turn, b: Turn) -> Position:
    """The position after player 0 takes ``a`` and player 1 ``b`` and the hands are passed."""
    rules = pos.rules
    hands = [list(h) for h in pos.hands]
    tabs = [list(t) for t in pos.tableaux]
    for p, turn in enumerate((a, b)):
        apply_turn(hands[p], tabs[p], turn, rules)
    off = rules.pass_offset(pos.round - 1)
    passed = [tuple(hands[(p - off) % 2]) for p in range(2)]
    return dataclasses.replace(pos, hands=tuple(passed), taken=(pos.taken[0] + (a,), pos.taken[1] + (b,)),
                               tableaux=tuple(tuple(t) for t in tabs))


def leaf_value(pos: Position) -> int:
    """Player 0's points minus player 1's once the round is over (hands empty)."""
    rules = pos.rules
    totals = round_totals(pos.tableaux, rules)
    diff = pos.scores[0] - pos.scores[1] + totals[0] - totals[1]
    if pos.final_round:
        pud = pudding_points([pos.puddings[p] + pos.tableaux[p][_PUD] for p in range(2)], rules)
        diff += pud[0] - pud[1]
    return diff


def value(pos: Position) -> Number:
    """The exact value of the point difference for player 0 (Unsolved past the budget)."""
    if not any(pos.hands[0]):
        return leaf_value(pos)
    res = solve_two(pos, "diff", MAX_NODES)
    if res.value is None:
        raise Unsolved(f"the endgame solver ran out of its budget ({MAX_NODES} states): {res.reason}")
    return res.value


@dataclass(frozen=True)
class Regret:
    """One position's figures: the equilibrium value, the opponent's mix, the move's value."""

    value: Number  # V
    opponent_mix: tuple[tuple[Turn, Number], ...]  # q
    move_value: Number  # sum_b q(b) V(a, b)

    @property
    def regret(self) -> Number:
        return self.value - self.move_value


def opponent_mix(pos: Position) -> tuple[Number, tuple[tuple[Turn, Number], ...]]:
    """(V, player 1's equilibrium mix) of the position."""
    res = solve_two(seat_swapped(pos), "diff", MAX_NODES)
    if res.value is None:
        raise Unsolved(f"the endgame solver ran out of its budget ({MAX_NODES} states): {res.reason}")
    return -res.value, tuple(res.mix)


def regret(pos: Position, move: Turn) -> Regret:
    """The regret of player 0's ``move`` (a legal turn) on ``pos``."""
    v, mix = opponent_mix(pos)
    got: Number = sum((Fraction(p) * value(child(pos, move, b)) for b, p in mix), Fraction(0))
    if isinstance(got, Fraction) and got.denominator == 1:
        got = int(got)
    return Regret(v, mix, got)


def options(pos: Position) -> list[Turn]:
    return legal_turns(pos.hands[0], pos.tableaux[0], pos.rules)


def view(pos: Position) -> PlayerView:
    """What player 0 sees on ``pos`` (as in a game): the earlier rounds' points as one row per
    round, the total in the first (a position keeps only the total)."""
    rules = pos.rules
    earlier = pos.round - 1
    scores: Sequence[tuple[int, ...]] = [
        (pos.scores[0] if r == 0 else 0, pos.scores[1] if r == 0 else 0) for r in range(earlier)]
    return PlayerView(
        seat=0, target=0, players=2, round_index=earlier, turn=rules.hand_size(2) - pos.cards_left,
        hand=pos.hands[0], tableaux=pos.tableaux,
        puddings=tuple(pos.puddings[p] + pos.tableaux[p][_PUD] for p in range(2)),
        scores=tuple(scores), rules=rules)
