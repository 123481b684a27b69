"""Dummy-2p endgames (the rulebook's two-player variant)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sushigo.solver.endgame.position import Hand, Position, Tab
from sushigo.solver.endgame.reference import _heaviest, _offset, _TwoPlayer
from sushigo.solver.endgame.result import EndgameDraft, EndgameResult, PickValue, searching
from sushigo.solver.endgame.state import _CHOP, _PUD, DEFAULT_MAX_NODES, OBJECTIVES
from sushigo.solver.matrixgame import Number, pure_maximin, solve
from sushigo.spec.errors import InputError
from sushigo.spec.scoring import pudding_points, round_totals, winners
from sushigo.spec.turns import Turn, apply_turn, legal_turns


@dataclass(frozen=True)
class DummyMove:
    """A player's move in dummy-2p: their turn, and the card given to the dummy when in control."""

    turn: Turn
    gift: Turn | None
    rest: Hand
    tab: Tab
    gain: int
    dummy_tab: Tab | None  # the dummy's reduced tableau after the gift (None: not in control)


class _Dummy(_TwoPlayer):
    """Two players and the dummy (rulebook variant), with the executor's reading of it.

    At turn ``t`` of the round (from 0) player ``t % 2`` controls the dummy:
    draws the pile's top card into their hand, takes their turn from it (two
    cards with chopsticks only if the hand then held at least 3 cards), gives
    the dummy one card of what is left, and only then do used chopsticks rejoin
    the hand. The dummy never uses chopsticks. Its tableau counts as a third
    seat for maki and pudding rankings; only its maki icons and puddings can
    change the players' scores, so that is all the search keeps of it.
    """

    def __init__(
        self, pos: Position, objective: str, max_nodes: int, time_limit: float | None = None
    ) -> None:
        super().__init__(pos, objective, max_nodes, time_limit)
        assert pos.pile is not None
        self.size = pos.rules.hand_size(2)
        self.pile_at = {self.size - k: c for k, c in enumerate(reversed(pos.pile), start=1)}
        self.dmemo: dict[tuple[Hand, Hand, Tab, Tab, Tab, int], tuple[Number, Number]] = {}
        self._dmoves: dict[tuple[Hand, Tab, Tab, int], list[DummyMove]] = {}

    def dummy_reduce(self, tab: Sequence[int]) -> Tab:
        out = list(self.gen.reduce_other(list(tab)))
        out[_CHOP] = 0  # the dummy never uses chopsticks
        return tuple(out)

    def dmoves(self, hand: Hand, tab: Tab, dtab: Tab, draw: int) -> list[DummyMove]:
        """Moves of one player; ``draw`` is the dummy card drawn when in control, else -1."""
        key = (hand, tab, dtab, draw)
        got = self._dmoves.get(key)
        if got is not None:
            return got
        out: list[DummyMove] = []
        if draw < 0:
            out = [DummyMove(m.turn, None, m.rest, m.tab, m.gain, None) for m in self.gen.moves(hand, tab)]
        else:
            held = list(hand)
            held[draw] += 1
            seen: set[tuple[Hand, Tab, int, Tab]] = set()
            for turn in legal_turns(held, tab, self.rules):
                if len(turn) == 2 and sum(held) < 3:
                    continue  # R-DUMMY: a card must be left for the dummy
                h, t = list(held), list(tab)
                res = apply_turn(h, t, turn, self.rules)
                h[_CHOP] -= int(res.chopsticks)  # used chopsticks rejoin after the gift
                rt, gain = self.gen.reduce(t)
                stub = list(dtab)
                for gift in legal_turns(h, stub, self.rules):
                    hg, dt = list(h), list(stub)
                    apply_turn(hg, dt, gift, self.rules)
                    hg[_CHOP] += int(res.chopsticks)
                    rd = self.dummy_reduce(dt)
                    k = (tuple(hg), rt, gain, rd)
                    if k not in seen:
                        seen.add(k)
                        out.append(DummyMove(turn, gift, tuple(hg), rt, gain, rd))
        self._dmoves[key] = out
        return out

    def dleaf(self, t0: Tab, t1: Tab, td: Tab, d: int) -> int:
        pos, r = self.pos, self.rules
        tot = round_totals([t0, t1, td], r)
        puds = [pos.puddings[k] + (t0, t1, td)[k][_PUD] for k in range(3)]
        if pos.final_round:
            pp = pudding_points(puds, r)
            tot = [tot[k] + pp[k] for k in range(3)]
        if self.objective == "diff":
            return tot[0] - tot[1]
        if self.objective == "own":
            return tot[0]
        w = winners([d + tot[0], tot[1], tot[2]], puds, r, players=2)
        return 1 if w == [0] else -1 if w == [1] else 0

    def dmatrices(
        self, h0: Hand, h1: Hand, t0: Tab, t1: Tab, td: Tab, d: int
    ) -> tuple[list[DummyMove], list[DummyMove], list[list[Number]], list[list[Number]]]:
        turn = self.size - sum(h0)
        draw = int(self.pile_at[turn])
        ms0 = self.dmoves(h0, t0, td, draw if turn % 2 == 0 else -1)
        ms1 = self.dmoves(h1, t1, td, draw if turn % 2 == 1 else -1)
        mixed: list[list[Number]] = []
        pure: list[list[Number]] = []
        for m0 in ms0:
            rv: list[Number] = []
            rp: list[Number] = []
            for m1 in ms1:
                ntd = m0.dummy_tab if m0.dummy_tab is not None else m1.dummy_tab
                assert ntd is not None
                if self.objective == "win":
                    v, p = self.dvalue(m1.rest, m0.rest, m0.tab, m1.tab, ntd, d + m0.gain - m1.gain)
                    inc = 0
                else:
                    v, p = self.dvalue(m1.rest, m0.rest, m0.tab, m1.tab, ntd, 0)
                    inc = m0.gain - m1.gain if self.objective == "diff" else m0.gain
                rv.append(v + inc)
                rp.append(p + inc)
            mixed.append(rv)
            pure.append(rp)
        return ms0, ms1, mixed, pure

    def dvalue(self, h0: Hand, h1: Hand, t0: Tab, t1: Tab, td: Tab, d: int) -> tuple[Number, Number]:
        key = (h0, h1, t0, t1, td, d)
        got = self.dmemo.get(key)
        if got is not None:
            return got
        self._visit()
        if not any(h0):
            res: tuple[Number, Number] = (self.dleaf(t0, t1, td, d),) * 2
        else:
            _, _, mixed, pure = self.dmatrices(h0, h1, t0, t1, td, d)
            if len(mixed) == 1 and len(mixed[0]) == 1:
                res = (mixed[0][0], pure[0][0])
            else:
                res = (solve(mixed).value, pure_maximin(pure)[0])
        self.dmemo[key] = res
        return res


def solve_dummy(
    pos: Position,
    objective: str = "diff",
    max_nodes: int = DEFAULT_MAX_NODES,
    time_limit: float | None = None,
) -> EndgameResult:
    """The dummy-2p endgame: as :func:`solve_two`, a first pick in control includes the dummy's card."""
    if objective not in OBJECTIVES:
        raise InputError(f"objective {objective!r} unknown; choose one of {', '.join(OBJECTIVES)}")
    s = _Dummy(pos, objective, max_nodes, time_limit)
    t0, g0 = s.gen.reduce(list(pos.tableaux[0]))
    t1, g1 = s.gen.reduce(list(pos.tableaux[1]))
    td = s.dummy_reduce(pos.tableaux[2])
    off, d = _offset(pos, objective, (g0, g1))
    result = EndgameDraft(pos, objective)
    with searching(result, s):
        ms0, ms1, mixed, pure = s.dmatrices(pos.hands[0], pos.hands[1], t0, t1, td, d)
        sol = solve(mixed)
        result.value = sol.value + off
        result.first_picks = [
            PickValue(m.turn, min(row) + off, m.gift) for m, row in zip(ms0, pure, strict=True)
        ]
        result.mix = [(m.turn, p) for m, p in zip(ms0, sol.rows, strict=True) if p]
        result.mix_gifts = [m.gift for m, p in zip(ms0, sol.rows, strict=True) if p]
        h0, h1 = pos.hands
        line: list[list[Turn]] = []
        while any(h0):
            ms0, ms1, mixed, _ = s.dmatrices(h0, h1, t0, t1, td, d)
            sol = solve(mixed)
            i, j = _heaviest(sol)
            m0, m1 = ms0[i], ms1[j]
            gift = m0.gift if m0.gift is not None else m1.gift
            assert gift is not None
            line.append([m0.turn, m1.turn, gift])
            if objective == "win":
                d += m0.gain - m1.gain
            ntd = m0.dummy_tab if m0.dummy_tab is not None else m1.dummy_tab
            assert ntd is not None
            h0, h1, t0, t1, td = m1.rest, m0.rest, m0.tab, m1.tab, ntd
        result.line = line
    return result.freeze()

