"""The fast exact two-player search: double oracle on canonical states.

The value of a simultaneous pick is the value of the matrix game of its
children's values; the reference (:mod:`solver.endgame.reference`) builds
each matrix whole. Here a node's matrix is filled only where needed (the
double-oracle method, McMahan, Gordon and Blum 2003; for simultaneous-move
search as in Bosansky et al. 2016):

1. solve the game restricted to a few rows and columns (at first one each:
   the pick banking the most points, a pure saddle point if it is one);
2. each side's best reply to the other's restricted optimal mix, over all of
   its picks; a reply that does strictly better than the restricted value is
   added, and the restricted game solved again;
3. when neither side has a better reply, the restricted optimal mixes are
   optimal in the whole game and its value is the node's value (exact: the
   row mix earns at least the value against every column and the column mix
   concedes at most the value against every row, each checked cell by cell).

A node with a pure saddle point costs one row and one column of children
instead of the whole matrix. States are keyed by :class:`Canon` (what can
still change the payoff), so transpositions and equivalent picks merge.

The first picks' pure guarantees (player 0 commits to each pick, then to
every later one, and the opponent answers each) are a plain max-min over the
same states, searched by alpha-beta with a transposition table of bounds.

The root's matrix and the matrices along the principal line are built whole
from exact child values and solved by :func:`solver.matrixgame.solve`, so
the value, the first-move mix and the line are exactly those of the reference.
"""

from __future__ import annotations

import gc
from typing import cast

from sushigo.solver.endgame.canonical import Canon, Left
from sushigo.solver.endgame.position import Hand, Position, Tab
from sushigo.solver.endgame.reference import (
    _heaviest,
    _TwoPlayer,
    check_two,
    root_offset,
    set_root,
    solve_two_reference,
)
from sushigo.solver.endgame.result import EndgameDraft, EndgameResult, searching
from sushigo.solver.endgame.state import DEFAULT_MAX_NODES, Move
from sushigo.solver.endgame.unique import Bound, settle, transpose, transpose_bounds, unique_mix
from sushigo.solver.matrixgame import MatrixSolution, Number, solve
from sushigo.spec.errors import InputError
from sushigo.spec.turns import Turn

_INF = float("inf")


_BITS = 20  # bits per number (of a hand, a tableau, a pair of hands) in a key
_MAX_ID = 1 << _BITS


class _Node:
    """One canonical state: its moves, its children (made on first use) and what is known of its values."""

    __slots__ = (
        "d", "exact", "hand0", "hand1", "hi", "hint", "kids", "lo", "ms0", "ms1", "order0", "order1", "pbest",
        "phi", "plo", "tab0", "tab1",
    )

    def __init__(self, d: int) -> None:
        self.d = d
        self.ms0: list[Move] = []
        self.ms1: list[Move] = []
        self.order0: list[int] = []
        self.order1: list[int] = []
        # Each pick's hand passed on and tableau, by number (_Exact.number), for its children's keys.
        self.hand0: list[int] = []
        self.hand1: list[int] = []
        self.tab0: list[int] = []
        self.tab1: list[int] = []
        self.kids: list[tuple[Number, _Node] | None] = []
        self.exact: Bound | None = None  # the game value
        self.lo: Bound = -_INF  # bounds on the game value
        self.hi: Bound = _INF
        self.plo: Bound = -_INF  # bounds on the pure guarantee
        self.phi: Bound = _INF
        self.hint: tuple[int, int] | None = None  # the pure pair that last settled the node
        self.pbest = -1  # the pick that last gave the pure guarantee its best


class _Exact(_TwoPlayer):
    """Exact value (double oracle) and pure guarantees (alpha-beta) on canonical states.

    Keys are ints: every distinct hand and tableau the search meets is
    numbered once (:meth:`number`), and a state (hand 0, hand 1, tableau 0,
    tableau 1, banked difference) is keyed by its four numbers and the
    difference packed into one int (:meth:`key`), which hashes and compares as
    a few machine words where the tuple of tuples hashed its 55 counts at
    every look-up. A child is made in three look-ups on such keys: what the
    two hands hold (:meth:`Canon.left`, by the pair of hands), the tableaux'
    rewrite (by that and the two tableaux), and the node (by the state before
    the dead cards merge).
    """

    def __init__(
        self, pos: Position, objective: str, max_nodes: int, time_limit: float | None = None
    ) -> None:
        super().__init__(pos, objective, max_nodes, time_limit)
        self.canon = Canon(
            pos.rules, objective, self.gen.keep_pudding, (pos.puddings[0], pos.puddings[1])
        )
        # Hands and tableaux numbered in the order met (the two never share a number: 12 and 15 counts).
        self.ids: dict[Hand | Tab, int] = {}
        self.objs: list[Hand | Tab] = []
        self.table: dict[int, _Node] = {}  # the transposition table, on canonical states' keys
        # Per pair of hands (hand 0 | hand 1 << 20): the number of what they hold (Canon.left).
        self.lefts: dict[int, int] = {}
        self.left_ids: dict[Left, int] = {}
        self.left_of: list[Left] = []
        # Per (left number, tableau 0, tableau 1): the rewritten tableaux' numbers and the points banked.
        self.rewrites: dict[int, tuple[int, int, int, int]] = {}
        self.rewritten: dict[tuple[int, int, int, int], tuple[int, int, int, int]] = {}
        # The same nodes by their states before the dead cards merged (one look-up where merging took two;
        # apart from the table: the line's nodes keep their real hands).
        self.unmerged: dict[int, _Node] = {}
        # Per (hand, tableau) numbers: the moves, most points banked first, and the numbers of each move's
        # hand passed on and tableau.
        self.sides: dict[int, tuple[list[Move], list[int], list[int], list[int]]] = {}
        # The restricted game (rows, columns, its solution) that the last double oracle ended with.
        self.restricted: tuple[list[int], list[int], MatrixSolution] | None = None

    # ----------------------------------------------------------------- states

    def number(self, x: Hand | Tab) -> int:
        """The number of a hand or a tableau (new ones numbered in the order met)."""
        got = self.ids.get(x)
        if got is None:
            got = self.ids[x] = len(self.objs)
            self.objs.append(x)
            if got >= _MAX_ID:
                raise OverflowError(f"more than {_MAX_ID} distinct hands and tableaux: keys would collide")
        return got

    @staticmethod
    def key(h0: int, h1: int, t0: int, t1: int, d: int) -> int:
        """A state's key from its hands' and tableaux' numbers: 20 bits each, then d (of any sign: the low
        80 bits stay the four numbers)."""
        return (h0 | h1 << _BITS | t0 << 2 * _BITS | t1 << 3 * _BITS) + (d << 4 * _BITS)

    def side(self, h: int, t: int) -> tuple[list[Move], list[int], list[int], list[int]]:
        """(moves, their order, each move's hand passed on and tableau by number) for hand ``h`` before
        tableau ``t`` (numbers)."""
        at = h | t << _BITS
        got = self.sides.get(at)
        if got is None:
            ms = self.gen.build(self.objs[h], self.objs[t])  # kept here, by number
            got = self.sides[at] = (
                ms,
                # Most points banked first: the double oracle's first guess and alpha-beta's first try.
                sorted(range(len(ms)), key=lambda i: -ms[i].gain),
                [self.number(m.rest) for m in ms],
                [self.number(m.tab) for m in ms],
            )
        return got

    def node(self, h0: int, h1: int, t0: int, t1: int, d: int) -> _Node:
        """The node of a state given by its hands' and tableaux' numbers."""
        key = self.key(h0, h1, t0, t1, d)
        got = self.table.get(key)
        if got is None:
            got = self.table[key] = _Node(d)
            if any(self.objs[h0]):
                got.ms0, got.order0, got.hand0, got.tab0 = self.side(h0, t0)
                got.ms1, got.order1, got.hand1, got.tab1 = self.side(h1, t1)
                got.kids = [None] * (len(got.ms0) * len(got.ms1))
            else:
                got.exact = got.lo = got.hi = got.plo = got.phi = self.leaf(self.objs[t0], self.objs[t1], d)
        return got

    def node_of(self, h0: Hand, h1: Hand, t0: Tab, t1: Tab, d: int) -> _Node:
        return self.node(self.number(h0), self.number(h1), self.number(t0), self.number(t1), d)

    def start(self, t0: Tab, t1: Tab, d: int) -> tuple[Number, _Node]:
        """The root as a canonical state: (points banked by normalising, node)."""
        h0, h1 = self.pos.hands[0], self.pos.hands[1]
        nt0, nt1, b0, b1 = self.canon.normalise(h0, h1, t0, t1)
        off, d = self._banked(b0, b1, d)
        return off, self.node_of(h0, h1, nt0, nt1, d)

    def _banked(self, g0: int, g1: int, d: int) -> tuple[int, int]:
        """(additive offset, new banked difference) for points banked by player 0 and player 1."""
        if self.objective == "diff":
            return g0 - g1, d
        if self.objective == "own":
            return g0, d
        return 0, d + g0 - g1

    def child(self, n: _Node, i: int, j: int) -> tuple[Number, _Node]:
        """The node after picks ``i`` and ``j`` (the hands change owners, dead cards merged) and the points
        banked on the way."""
        k = i * len(n.ms1) + j
        got = n.kids[k]
        if got is None:
            got = n.kids[k] = self._child(n, i, j, merge=True)
        return got

    def _child(self, n: _Node, i: int, j: int, merge: bool) -> tuple[Number, _Node]:
        m0, m1 = n.ms0[i], n.ms1[j]
        if not merge:
            passed0, passed1 = m1.rest, m0.rest
            nt0, nt1, b0, b1 = self.canon.normalise(passed0, passed1, m0.tab, m1.tab)
            off, d = self._banked(m0.gain + b0, m1.gain + b1, n.d)
            return off, self.node_of(passed0, passed1, nt0, nt1, d)
        # After the picks player 0 holds the hand player 1 passed, and the other way round.
        h0, h1, t0, t1 = n.hand1[j], n.hand0[i], n.tab0[i], n.tab1[j]
        pair = h0 | h1 << _BITS
        left = self.lefts.get(pair)
        if left is None:
            got_left = self.canon.left(self.objs[h0], self.objs[h1])
            left = self.left_ids.get(got_left)
            if left is None:
                left = self.left_ids[got_left] = len(self.left_of)
                self.left_of.append(got_left)
            self.lefts[pair] = left
        at = left | t0 << _BITS | t1 << 2 * _BITS
        rw = self.rewrites.get(at)
        if rw is None:
            nt0, nt1, b0, b1 = self.canon.rewrite(self.left_of[left], self.objs[t0], self.objs[t1])
            rw = (self.number(nt0), self.number(nt1), b0, b1)
            rw = self.rewrites[at] = self.rewritten.setdefault(rw, rw)  # one tuple per distinct rewrite
        off, d = self._banked(m0.gain + rw[2], m1.gain + rw[3], n.d)
        key = self.key(h0, h1, rw[0], rw[1], d)
        got = self.unmerged.get(key)
        if got is None:
            hand0, hand1 = self.objs[h0], self.objs[h1]
            mh0, mh1 = self.canon.merged(hand0, hand1, self.objs[rw[0]], self.objs[rw[1]], self.left_of[left])
            if mh0 is not hand0 or mh1 is not hand1:
                h0, h1 = self.number(mh0), self.number(mh1)
            got = self.unmerged[key] = self.node(h0, h1, rw[0], rw[1], d)
        return off, got

    # ----------------------------------------------------------------- game value

    def cell(self, n: _Node, i: int, j: int, alpha: Bound = -_INF, beta: Bound = _INF) -> Bound:
        """The value of the pick pair (i, j), searched within the window (alpha, beta)."""
        off, c = self.child(n, i, j)
        return off + self.game_value(c, alpha - off, beta - off)

    def game_value(self, n: _Node, alpha: Bound = -_INF, beta: Bound = _INF) -> Bound:
        """Fail-soft: a result <= alpha is an upper bound, >= beta a lower bound, else the exact value."""
        if n.exact is not None:
            return n.exact
        lo, hi = n.lo, n.hi
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        self._visit()
        a, b = max(alpha, lo), min(beta, hi)
        v = self._double_oracle(n, a, b)
        if v <= a:
            n.hi = v
        elif v >= b:
            n.lo = v
        else:
            n.exact = n.lo = n.hi = v
        return v

    def _double_oracle(self, n: _Node, alpha: Bound, beta: Bound) -> Bound:
        """The node's matrix game, searched within (alpha, beta) (see the module docstring).

        First the guessed pure pair alone, within the window, as alpha-beta
        searches its first child: if it fails low and its column holds every
        row at most alpha (or fails high and its row holds every column at
        least beta), that settles the bound. Otherwise each round solves the
        game restricted to ``rows`` x ``cols`` (cells exact), then looks for a
        better reply of each side to the other's restricted mix. The row
        player's best reply against the column mix bounds the value from above,
        the column player's from below, so the window is left as soon as a bound
        crosses it. Against a pure mix a reply is only tested against the
        threshold it must beat (a child searched with a one-sided window).
        """
        n1 = len(n.ms1)
        cells: dict[int, Bound] = {}

        def exact(i: int, j: int) -> Bound:
            v = cells.get(i * n1 + j)
            if v is None:
                v = cells[i * n1 + j] = self.cell(n, i, j)
            return v

        def above(i: int, j: int, t: Bound) -> Bound:
            """The cell if it exceeds ``t`` (exact), else an upper bound <= t."""
            v = cells.get(i * n1 + j)
            if v is None:
                v = self.cell(n, i, j, t, _INF)
                if v > t:
                    cells[i * n1 + j] = v
            return v

        def below(i: int, j: int, t: Bound) -> Bound:
            """The cell if it is below ``t`` (exact), else a lower bound >= t."""
            v = cells.get(i * n1 + j)
            if v is None:
                v = self.cell(n, i, j, -_INF, t)
                if v < t:
                    cells[i * n1 + j] = v
            return v

        i0, j0 = n.hint or (n.order0[0], n.order1[0])
        g = self.cell(n, i0, j0, alpha, beta)
        if g <= alpha:
            upper = g
            for i in n.order0:
                if i != i0:
                    upper = max(upper, above(i, j0, alpha))
                    if upper > alpha:
                        i0 = i  # the row that beats alpha against j0 (its cell exact): the first row
                        break
            else:
                return upper
        elif g >= beta:
            lower = g
            for j in n.order1:
                if j != j0:
                    lower = min(lower, below(i0, j, beta))
                    if lower < beta:
                        j0 = j
                        break
            else:
                return lower
        else:
            cells[i0 * n1 + j0] = g
        rows, cols = [i0], [j0]

        def reply(pairs: list[tuple[int, int, Number]], t: Bound, s: int) -> Bound:
            """``s`` times the weighted sum of the cells ``pairs`` ((row, column, weight)): exact when it
            exceeds ``t`` (from the maximiser's side, s = 1, or the minimiser's, s = -1, with everything
            negated), else an upper bound <= t. Each cell is searched only as far as the others' bounds
            (their exact values or their nodes' bounds) leave it open (:func:`settle`)."""
            lo: list[Bound] = []
            hi: list[Bound] = []
            for i, j, _ in pairs:
                v = cells.get(i * n1 + j)
                if v is None:
                    off, c = self.child(n, i, j)
                    if c.exact is not None:
                        v = cells[i * n1 + j] = off + c.exact
                    elif s > 0:
                        lo.append(off + c.lo)
                        hi.append(off + c.hi)
                        continue
                    else:
                        lo.append(-(off + c.hi))
                        hi.append(-(off + c.lo))
                        continue
                lo.append(s * v)
                hi.append(s * v)

            def reach(k: int, a: Bound) -> Bound:
                i, j, _ = pairs[k]
                return above(i, j, a) if s > 0 else -below(i, j, -a)

            return settle([w for _, _, w in pairs], lo, hi, t, False,
                          lambda k: s * exact(pairs[k][0], pairs[k][1]), reach)

        while True:
            # Searched with no window, a cell is its exact value (a Number, never infinite).
            sol = solve(cast(list[list[Number]], [[exact(i, j) for j in cols] for i in rows]))
            v: Bound = sol.value
            ysup = [(cols[k], q) for k, q in enumerate(sol.cols) if q]
            xsup = [(rows[k], p) for k, p in enumerate(sol.rows) if p]
            n.hint = (xsup[0][0], ysup[0][0])
            # The column mix holds every row to at most ``upper``; a row above v improves the restricted game.
            t = max(v, alpha)
            upper, best_row, best_u = v, -1, v
            for i in n.order0:
                if i in rows:
                    continue
                u = reply([(i, j, q) for j, q in ysup], max(t, best_u), 1)
                if u > t:
                    best_row, best_u = (i, u) if u > best_u else (best_row, best_u)
                upper = max(upper, u)
            if best_row < 0 and upper <= alpha:
                return upper
            t = min(v, beta)
            lower, best_col, best_w = v, -1, v
            for j in n.order1:
                if j in cols:
                    continue
                w = -reply([(i, j, p) for i, p in xsup], -min(t, best_w), -1)
                if w < t:
                    best_col, best_w = (j, w) if w < best_w else (best_col, best_w)
                lower = min(lower, w)
            if best_col < 0 and lower >= beta:
                return lower
            if best_row < 0 and best_col < 0:
                self.restricted = (rows, cols, sol)
                return v
            if best_row >= 0:
                rows.append(best_row)
            if best_col >= 0:
                cols.append(best_col)

    def solution(self, n: _Node) -> MatrixSolution:
        """Exactly what :func:`solver.matrixgame.solve` returns for the node's whole matrix.

        When the double oracle's restricted mixes are the whole game's only
        optimal ones (:func:`solver.endgame.unique.unique_mix`), ``solve``
        returns them. Otherwise, unless a side's only optimal mix is mixed (no
        pure saddle point then), a pure saddle point is looked for: ``solve``
        answers the value and the first row whose minimum is the value and the
        first column whose maximum is: the first row with every cell >= value
        and the first column with every cell <= value, found with one-sided
        windows. Failing both, the whole matrix.
        """
        v = self.game_value(n)
        assert not isinstance(v, float)  # searched with the whole window: exact
        n0, n1 = len(n.ms0), len(n.ms1)
        # The double oracle's last restricted game, again (its cells are in the table now).
        self.restricted = None
        again = self._double_oracle(n, -_INF, _INF)
        assert again == v and self.restricted is not None
        rows, cols, sol = self.restricted

        def cell(i: int, j: int, alpha: Bound, beta: Bound) -> Bound:
            return self.cell(n, i, j, alpha, beta)

        def known(i: int, j: int) -> tuple[Bound, Bound]:
            off, c = self.child(n, i, j)
            if c.exact is not None:
                return off + c.exact, off + c.exact
            return off + c.lo, off + c.hi

        x = unique_mix(cell, n0, v, rows, sol.rows, cols, sol.cols, known)
        y = unique_mix(transpose(cell), n1, -v, cols, sol.cols, rows, sol.rows, transpose_bounds(known))
        if x is not None and y is not None:
            return MatrixSolution(v, x, y)
        if not any(m is not None and sum(1 for p in m if p) > 1 for m in (x, y)):
            # A side's only optimal mix, pure here, is the only pure strategy holding the value, so the
            # first one `solve` would find. Otherwise scan: the cells already known to fail first, then
            # the restricted game's columns (rows), most likely to fail; whether a cell reaches v needs
            # no more than the window (v - 1, v): any window below v would do.
            by_col = [*cols, *(j for j in range(n1) if j not in cols)]
            by_row = [*rows, *(i for i in range(n0) if i not in rows)]

            def row_holds(i: int) -> bool:
                if any(known(i, j)[1] < v for j in range(n1)):
                    return False
                return all(cell(i, j, v - 1, v) >= v for j in by_col)

            def col_holds(j: int) -> bool:
                if any(known(i, j)[0] > v for i in range(n0)):
                    return False
                return all(cell(i, j, v, v + 1) <= v for i in by_row)

            row = _pure(x) if x is not None else next((i for i in range(n0) if row_holds(i)), -1)
            col = _pure(y) if y is not None else next((j for j in range(n1) if col_holds(j)), -1)
            if row >= 0 and col >= 0:
                return MatrixSolution(v, _unit(n0, row), _unit(n1, col))
        return solve(self.full_matrix(n))

    def full_matrix(self, n: _Node) -> list[list[Number]]:
        """Every pick pair's exact value, in move-generation order (as the reference builds it)."""
        # Searched with no window, a cell is its exact value (a Number, never infinite).
        cells = [[self.cell(n, i, j) for j in range(len(n.ms1))] for i in range(len(n.ms0))]
        return cast(list[list[Number]], cells)

    # ----------------------------------------------------------------- pure guarantee

    def pure_value(self, n: _Node, alpha: Bound, beta: Bound) -> Bound:
        """Fail-soft alpha-beta on the serial game where player 0 commits first at every turn."""
        lo = n.plo
        hi = min(n.phi, n.hi)  # a pure guarantee never exceeds the game value
        if lo >= beta:
            return lo
        if hi <= alpha or lo == hi:
            return hi
        self._visit()
        a, b = max(alpha, lo), min(beta, hi)
        best: Bound = -_INF
        for i in ([n.pbest, *(i for i in n.order0 if i != n.pbest)] if n.pbest >= 0 else n.order0):
            worst = self.pure_row(n, i, max(a, best), b)
            if worst > best:
                best = worst
                n.pbest = i  # tried first next time
                if best >= b:
                    break
        if best <= a:
            n.phi = best
        elif best >= b:
            n.plo = best
        else:
            n.plo = n.phi = best
        return best

    def pure_row(self, n: _Node, i: int, alpha: Bound, beta: Bound) -> Bound:
        """min over the opponent's answers to pick ``i``; stops once it is at most ``alpha``."""
        worst: Bound = _INF
        # The answers known to hold the pick lowest first (an answer known to hold it to alpha settles it).
        n1 = len(n.ms1)
        known = []
        for j in n.order1:
            kid = n.kids[i * n1 + j]
            known.append(kid[0] + min(kid[1].phi, kid[1].hi) if kid is not None else _INF)
        order = sorted(range(n1), key=known.__getitem__)
        if known[order[0]] <= alpha:
            return known[order[0]]
        for j in [n.order1[k] for k in order]:
            off, c = self.child(n, i, j)
            r = off + self.pure_value(c, alpha - off, min(worst, beta) - off)
            if r < worst:
                worst = r
                if worst <= alpha:
                    break
        return worst


def _pure(mix: tuple[Number, ...]) -> int:
    """The strategy a pure mix plays."""
    return next(k for k, p in enumerate(mix) if p)


def _unit(n: int, k: int) -> tuple[Number, ...]:
    return tuple(1 if i == k else 0 for i in range(n))


def solve_two_exact(
    pos: Position,
    objective: str = "diff",
    max_nodes: int = DEFAULT_MAX_NODES,
    time_limit: float | None = None,
) -> EndgameResult:
    """As :func:`solver.endgame.reference.solve_two_reference`: the same value, mix, guarantees and
    line, found faster."""
    check_two(pos, objective)
    s = _Exact(pos, objective, max_nodes, time_limit)
    off, d, t0, t1 = root_offset(s)
    result = EndgameDraft(pos, objective)
    # The search builds many small objects that all live on (nodes, states, values; no cycles): the
    # cyclic collector would scan the growing table again and again and find nothing to free.
    collecting = gc.isenabled()
    gc.disable()
    try:
        _search(s, result, off, d, t0, t1)
    finally:
        if collecting:
            gc.enable()
    return result.freeze()


def _search(s: _Exact, result: EndgameDraft, off: Number, d: int, t0: Tab, t1: Tab) -> None:
    """The root's value, mix and guarantees and the principal line, into ``result``."""
    with searching(result, s):
        banked, node = s.start(t0, t1, d)
        off += banked
        sol = s.solution(node)
        # With no window, each pure guarantee is exact (a Number, never infinite).
        guarantees = cast(list[Number], [s.pure_row(node, i, -_INF, _INF) for i in range(len(node.ms0))])
        set_root(result, sol, node.ms0, guarantees, off)
        line: list[list[Turn]] = []
        while node.ms0:
            i, j = _heaviest(s.solution(node))
            line.append([node.ms0[i].turn, node.ms1[j].turn])
            node = s._child(node, i, j, merge=False)[1]  # the real hands: the line names the real cards
        result.line = line


ENGINES = ("exact", "reference")


def solve_two(
    pos: Position,
    objective: str = "diff",
    max_nodes: int = DEFAULT_MAX_NODES,
    time_limit: float | None = None,
    engine: str = "exact",
) -> EndgameResult:
    """The two-player zero-sum endgame. ``engine``: ``exact`` (double oracle, the default) or
    ``reference`` (every matrix whole); both return the same answer, the reference more slowly."""
    if engine == "exact":
        return solve_two_exact(pos, objective, max_nodes, time_limit)
    if engine == "reference":
        return solve_two_reference(pos, objective, max_nodes, time_limit)
    raise InputError(f"engine {engine!r} unknown; choose one of {', '.join(ENGINES)}")
