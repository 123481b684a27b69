"""The reference two-player search: every payoff matrix built whole and solved exactly."""

from __future__ import annotations

import time
from collections.abc import Sequence

from sushigo.solver.endgame.position import Hand, Position, Tab
from sushigo.solver.endgame.result import EndgameDraft, EndgameResult, PickValue, searching
from sushigo.solver.endgame.state import (
    _PUD,
    DEFAULT_MAX_NODES,
    OBJECTIVES,
    BudgetExceeded,
    Move,
    _Rules,
    check_budget,
)
from sushigo.solver.matrixgame import MatrixSolution, Number, pure_maximin, solve
from sushigo.spec.errors import InputError
from sushigo.spec.scoring import pudding_points, round_totals, winners
from sushigo.spec.turns import Turn


class _TwoPlayer:
    """Exact zero-sum simultaneous-move search for two players.

    ``value(state)`` returns (game value, pure maximin) of the payoff still to
    come; what the reduction banked along the way is added by the caller.
    """

    def __init__(
        self, pos: Position, objective: str, max_nodes: int, time_limit: float | None = None
    ) -> None:
        check_budget(max_nodes, time_limit)
        self.pos = pos
        self.objective = objective
        self.max_nodes = max_nodes
        self.time_limit = time_limit
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.rules = pos.rules
        self.gen = _Rules(pos.rules, keep_pudding=pos.final_round or objective == "win")
        self.memo: dict[tuple[Hand, Hand, Tab, Tab, int], tuple[Number, Number]] = {}
        self.nodes = 0

    def leaf(self, t0: Tab, t1: Tab, d: int) -> int:
        pos, r = self.pos, self.rules
        tot = round_totals([t0, t1], r)
        puds = [pos.puddings[0] + t0[_PUD], pos.puddings[1] + t1[_PUD]]
        if pos.final_round:
            pp = pudding_points(puds, r)
            tot = [tot[0] + pp[0], tot[1] + pp[1]]
        if self.objective == "diff":
            return tot[0] - tot[1]
        if self.objective == "own":
            return tot[0]
        w = winners([d + tot[0], tot[1]], puds, r)
        return 1 if w == [0] else -1 if w == [1] else 0

    def entry(self, m0: Move, m1: Move, d: int) -> tuple[Number, Number]:
        # After the picks the two hands change owners (with two players left and right are the same).
        if self.objective == "win":
            return self.value(m1.rest, m0.rest, m0.tab, m1.tab, d + m0.gain - m1.gain)
        v, p = self.value(m1.rest, m0.rest, m0.tab, m1.tab, 0)
        inc = m0.gain - m1.gain if self.objective == "diff" else m0.gain
        return v + inc, p + inc

    def matrices(
        self, h0: Hand, h1: Hand, t0: Tab, t1: Tab, d: int
    ) -> tuple[list[Move], list[Move], list[list[Number]], list[list[Number]]]:
        ms0 = self.gen.moves(h0, t0)
        ms1 = self.gen.moves(h1, t1)
        mixed: list[list[Number]] = []
        pure: list[list[Number]] = []
        for m0 in ms0:
            row_v: list[Number] = []
            row_p: list[Number] = []
            for m1 in ms1:
                v, p = self.entry(m0, m1, d)
                row_v.append(v)
                row_p.append(p)
            mixed.append(row_v)
            pure.append(row_p)
        return ms0, ms1, mixed, pure

    def _visit(self) -> None:
        """Count a new state against the node and time budgets."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise BudgetExceeded(f"node budget of {self.max_nodes} states exhausted")
        if self.deadline is not None and self.nodes % 512 == 0 and time.perf_counter() > self.deadline:
            raise BudgetExceeded(f"time limit of {self.time_limit:g} s reached")

    def value(self, h0: Hand, h1: Hand, t0: Tab, t1: Tab, d: int) -> tuple[Number, Number]:
        key = (h0, h1, t0, t1, d)
        got = self.memo.get(key)
        if got is not None:
            return got
        self._visit()
        if not any(h0):
            res: tuple[Number, Number] = (self.leaf(t0, t1, d),) * 2
        else:
            _, _, mixed, pure = self.matrices(h0, h1, t0, t1, d)
            if len(mixed) == 1 and len(mixed[0]) == 1:
                res = (mixed[0][0], pure[0][0])
            else:
                res = (solve(mixed).value, pure_maximin(pure)[0])
        self.memo[key] = res
        return res


def _offset(pos: Position, objective: str, gains: tuple[int, int]) -> tuple[Number, int]:
    """(constant added to the search value, starting banked difference for ``win``)."""
    s0, s1 = pos.scores[0], pos.scores[1] if pos.players > 1 else 0
    if objective == "diff":
        return s0 - s1 + gains[0] - gains[1], 0
    if objective == "own":
        return s0 + gains[0], 0
    return 0, s0 - s1 + gains[0] - gains[1]


def check_two(pos: Position, objective: str) -> None:
    if pos.players != 2:
        raise InputError(f"the zero-sum solver is for 2 players; this position has {pos.players}")
    if objective not in OBJECTIVES:
        raise InputError(f"objective {objective!r} unknown; choose one of {', '.join(OBJECTIVES)}")


def root_offset(s: _TwoPlayer) -> tuple[Number, int, Tab, Tab]:
    """(constant added to the search value, banked difference for ``win``, both reduced start tableaux)."""
    t0, g0 = s.gen.reduce(list(s.pos.tableaux[0]))
    t1, g1 = s.gen.reduce(list(s.pos.tableaux[1]))
    off, d = _offset(s.pos, s.objective, (g0, g1))
    return off, d, t0, t1


def set_root(
    result: EndgameDraft, sol: MatrixSolution, ms0: Sequence[Move], guarantees: Sequence[Number], off: Number
) -> None:
    """The root's value, each first pick's pure guarantee and the first-move mix, shifted by ``off``."""
    result.value = sol.value + off
    result.first_picks = [PickValue(m.turn, g + off) for m, g in zip(ms0, guarantees, strict=True)]
    result.mix = [(m.turn, p) for m, p in zip(ms0, sol.rows, strict=True) if p]


def solve_two_reference(
    pos: Position,
    objective: str = "diff",
    max_nodes: int = DEFAULT_MAX_NODES,
    time_limit: float | None = None,
) -> EndgameResult:
    """The reference search: every payoff matrix built whole (kept to check the fast search against)."""
    check_two(pos, objective)
    s = _TwoPlayer(pos, objective, max_nodes, time_limit)
    off, d, t0, t1 = root_offset(s)
    result = EndgameDraft(pos, objective)
    with searching(result, s):
        ms0, ms1, mixed, pure = s.matrices(pos.hands[0], pos.hands[1], t0, t1, d)
        set_root(result, solve(mixed), ms0, [min(row) for row in pure], off)
        # Principal line: at each node both players play the heaviest pick of their optimal mix.
        h0, h1 = pos.hands
        line: list[list[Turn]] = []
        while any(h0):
            ms0, ms1, mixed, _ = s.matrices(h0, h1, t0, t1, d)
            sol = solve(mixed)
            i, j = _heaviest(sol)
            m0, m1 = ms0[i], ms1[j]
            line.append([m0.turn, m1.turn])
            if objective == "win":
                d += m0.gain - m1.gain
            h0, h1, t0, t1 = m1.rest, m0.rest, m0.tab, m1.tab
        result.line = line
    return result.freeze()


def _heaviest(sol: MatrixSolution) -> tuple[int, int]:
    """The principal line's picks: each player's heaviest pick in the optimal mix (first on ties)."""
    i = max(range(len(sol.rows)), key=lambda k: (sol.rows[k], -k))
    j = max(range(len(sol.cols)), key=lambda k: (sol.cols[k], -k))
    return i, j

