"""Three to five players: player 0 against a paranoid coalition or a fixed policy."""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence

from sushigo.solver.endgame.position import Hand, Position, Tab
from sushigo.solver.endgame.result import EndgameDraft, EndgameResult, PickValue, searching
from sushigo.solver.endgame.state import (
    _PUD,
    DEFAULT_MAX_NODES,
    POLICIES,
    BudgetExceeded,
    Move,
    _Rules,
    check_budget,
)
from sushigo.spec.errors import InputError
from sushigo.spec.scoring import dish_points, maki_icons, maki_points, pudding_points, round_totals
from sushigo.spec.turns import Turn


def greedy_gains(gen: _Rules, hand: Hand, tabs: Sequence[Tab], seat: int) -> list[tuple[Move, int]]:
    """Each turn of ``seat`` with its immediate gain in the seat's round points.

    Round points are the dishes plus maki against the tableaux on the table as
    they are now. ``tabs`` must be reduced with ``gen.reduce``.
    """
    r = gen.rules

    def points(tables: Sequence[Tab]) -> int:
        icons = [maki_icons(t, r) for t in tables]
        return sum(dish_points(tables[seat], r)) + maki_points(icons, r)[seat]

    before = points(tabs)
    tables = list(tabs)
    out = []
    for m in gen.moves(hand, tabs[seat]):
        tables[seat] = m.tab
        out.append((m, m.gain + points(tables) - before))
    return out


def greedy_turn(gen: _Rules, hand: Hand, tabs: Sequence[Tab], seat: int) -> Move:
    """The ``greedy`` policy: the turn with the largest immediate gain (:func:`greedy_gains`).

    Ties go to the first turn in :func:`spec.turns.legal_turns` order (single
    picks before chopsticks pairs, each in card order), so the policy is
    deterministic.
    """
    best: Move | None = None
    best_gain = 0
    for m, gain in greedy_gains(gen, hand, tabs, seat):
        if best is None or gain > best_gain:
            best, best_gain = m, gain
    assert best is not None
    return best


class _Multi:
    """Player 0 against the others: a paranoid coalition, or fixed policies."""

    def __init__(
        self, pos: Position, policy: str | None, max_nodes: int, time_limit: float | None = None
    ) -> None:
        check_budget(max_nodes, time_limit)
        self.pos = pos
        self.policy = policy
        self.max_nodes = max_nodes
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.gen = _Rules(pos.rules, keep_pudding=pos.final_round)
        self.memo: dict[tuple[tuple[Hand, ...], tuple[Tab, ...]], int] = {}
        self.nodes = 0
        self.n = pos.players
        self.offset = pos.rules.pass_offset(pos.round - 1)

    def reduce_start(self) -> tuple[tuple[Tab, ...], int]:
        tabs: list[Tab] = []
        gain0 = 0
        for p, t in enumerate(self.pos.tableaux):
            if p == 0 or self.policy is not None:
                rt, g = self.gen.reduce(list(t))
                if p == 0:
                    gain0 = g
                tabs.append(rt)
            else:
                tabs.append(self.gen.reduce_other(list(t)))
        return tuple(tabs), gain0

    def leaf(self, tabs: tuple[Tab, ...]) -> int:
        r = self.pos.rules
        total = round_totals(tabs, r)[0]
        if self.pos.final_round:
            puds = [self.pos.puddings[p] + tabs[p][_PUD] for p in range(self.n)]
            total += pudding_points(puds, r)[0]
        return total

    def others(self, hands: tuple[Hand, ...], tabs: tuple[Tab, ...]) -> list[tuple[Move, ...]]:
        """Joint replies of seats 1..n-1: every combination (paranoid) or the policy's one."""
        if self.policy is not None:
            return [tuple(greedy_turn(self.gen, hands[p], tabs, p) for p in range(1, self.n))]
        options = [self.gen.moves(hands[p], tabs[p], full=False) for p in range(1, self.n)]
        return list(itertools.product(*options))

    def child(
        self, hands: tuple[Hand, ...], m0: Move, joint: tuple[Move, ...]
    ) -> tuple[tuple[Hand, ...], tuple[Tab, ...]]:
        moves = (m0, *joint)
        new_hands: list[Hand] = [()] * self.n
        for p, m in enumerate(moves):
            new_hands[(p + self.offset) % self.n] = m.rest
        return tuple(new_hands), tuple(m.tab for m in moves)

    def pick_values(
        self, hands: tuple[Hand, ...], tabs: tuple[Tab, ...]
    ) -> list[tuple[Move, int, tuple[Move, ...]]]:
        """Per own move: its value and the others' reply that holds it there."""
        out = []
        joints = self.others(hands, tabs)
        for m0 in self.gen.moves(hands[0], tabs[0]):
            worst: int | None = None
            worst_joint: tuple[Move, ...] = ()
            for joint in joints:
                nh, nt = self.child(hands, m0, joint)
                v = m0.gain + self.value(nh, nt)
                if worst is None or v < worst:
                    worst, worst_joint = v, joint
            assert worst is not None
            out.append((m0, worst, worst_joint))
        return out

    def value(self, hands: tuple[Hand, ...], tabs: tuple[Tab, ...]) -> int:
        key = (hands, tabs)
        got = self.memo.get(key)
        if got is not None:
            return got
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise BudgetExceeded(f"node budget of {self.max_nodes} states exhausted")
        if self.deadline is not None and self.nodes % 64 == 0 and time.perf_counter() > self.deadline:
            raise BudgetExceeded("time limit reached")
        if not any(hands[0]):
            v = self.leaf(tabs)
        else:
            v = self.best(hands, tabs)
        self.memo[key] = v
        return v

    def best(self, hands: tuple[Hand, ...], tabs: tuple[Tab, ...]) -> int:
        """max over own moves of min over replies, skipping the rest of a move's replies as soon as
        one holds it to the best value found so far (it cannot be the maximum then; exact)."""
        joints = self.others(hands, tabs)
        best: int | None = None
        for m0 in self.gen.moves(hands[0], tabs[0]):
            worst: int | None = None
            for joint in joints:
                v = m0.gain + self.value(*self.child(hands, m0, joint))
                if worst is None or v < worst:
                    worst = v
                    if best is not None and worst <= best:
                        break
            assert worst is not None
            if best is None or worst > best:
                best = worst
        assert best is not None
        return best


def solve_multi(
    pos: Position,
    policy: str | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    time_limit: float | None = None,
) -> EndgameResult:
    """Paranoid (``policy=None``) or best reply to ``policy`` for player 0's own total."""
    if policy is not None and policy not in POLICIES:
        raise InputError(f"policy {policy!r} unknown; choose one of {', '.join(POLICIES)}")
    s = _Multi(pos, policy, max_nodes, time_limit)
    tabs, gain0 = s.reduce_start()
    off = pos.scores[0] + gain0
    result = EndgameDraft(pos, "policy" if policy else "paranoid", policy=policy)
    with searching(result, s):
        picks = s.pick_values(pos.hands, tabs)
        result.first_picks = [PickValue(m.turn, v + off) for m, v, _ in picks]
        best = max(v for _, v, _ in picks)
        result.value = best + off
        first = next(m for m, v, _ in picks if v == best)
        result.mix = [(first.turn, 1)]
        hands = pos.hands
        line: list[list[Turn]] = []
        while any(hands[0]):
            pv = s.pick_values(hands, tabs)
            top = max(v for _, v, _ in pv)
            m0, _, joint = next(x for x in pv if x[1] == top)
            line.append([m0.turn, *(m.turn for m in joint)])
            hands, tabs = s.child(hands, m0, joint)
        result.line = line
    return result.freeze()


def greedy_first_pick(pos: Position) -> Turn:
    """Player 0's first pick under the ``greedy`` policy."""
    gen = _Rules(pos.rules, keep_pudding=pos.final_round)
    tabs = tuple(gen.reduce(list(t))[0] for t in pos.tableaux)
    return greedy_turn(gen, pos.hands[0], tabs, 0).turn


def first_pick_gains(pos: Position) -> list[tuple[Turn, int]]:
    """Player 0's first picks with their immediate gain in round points (what greedy maximises)."""
    gen = _Rules(pos.rules, keep_pudding=pos.final_round)
    tabs = tuple(gen.reduce(list(t))[0] for t in pos.tableaux)
    return [(m.turn, g) for m, g in greedy_gains(gen, pos.hands[0], tabs, 0)]

