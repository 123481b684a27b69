"""Canonical two-player states: what of a table can still change the payoff, and nothing else.

The search state after a turn is both hands and both reduced tableaux
(:class:`solver.endgame.state._Rules` has already banked nigiri and finished
tempura and sashimi sets). Given what is left in the two hands, more of a
tableau stops mattering:

* a tempura residue with no tempura left in either hand, a sashimi residue
  that the sashimi left cannot complete: they score 0 and are dropped;
* dumplings with no dumpling left in either hand: their points are banked
  and the count dropped;
* free wasabi beyond the nigiri left, chopsticks beyond the turns that can
  still take two cards (k - 1 with k cards per hand): dropped;
* maki: for two players the points depend only on who has more icons and on
  who has any (R-MAKI-ZERO), so only the icon difference clipped to one more
  than the icons left in the hands, and whether each side has any, are kept;
* pudding (last round, or the ``win`` objective's tie-break): only the sign
  of the pudding difference counts for two players, so only the difference
  (earlier rounds included) clipped to one more than the puddings left is kept.

The hands themselves are rewritten too (:meth:`Canon.merge_dead`): a *dead*
card, one that can no longer change anybody's points whoever takes it, is
interchangeable with any other dead card. Dead are: pudding when puddings
are not scored in this search (not the last round, objective not ``win``);
wasabi when no nigiri is left in either hand; tempura (sashimi) when neither
player's residue plus every tempura (sashimi) left would score more than the
residue alone; chopsticks with at most two cards per hand (taken now, it
could only be used with one card in hand); maki (read by rank) when both
players have icons and the leader's margin exceeds every icon left. Dead
cards stay dead (residue plus cards left never grows, nor does the margin
less the icons left), and taking one changes nothing that is scored, so
every dead card in the hands becomes the one kind that stays dead whatever
the counts (pudding, else wasabi): the picks among dead cards merge into
one, and so do the states.

The two rank readings are checked against :mod:`spec.scoring` for the
ruleset when the canonical form is built; a ruleset where they do not hold
keeps the raw counts. Objective ``own`` also drops the opponent's dishes
(they never change player 0's total).
"""

from __future__ import annotations

from itertools import product

from sushigo.solver.endgame.position import Hand, Tab
from sushigo.spec.cards import NIGIRI, Card, Token
from sushigo.spec.kinds import KINDS
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import dish_points, maki_points, pudding_points, winners

_T, _S, _D = int(Token.TEMPURA), int(Token.SASHIMI), int(Token.DUMPLING)
_W, _C, _P = int(Token.WASABI), int(Token.CHOPSTICKS), int(Token.PUDDING)
_CT, _CS, _CD = int(Card.TEMPURA), int(Card.SASHIMI), int(Card.DUMPLING)
_CP, _CW, _CC = int(Card.PUDDING), int(Card.WASABI), int(Card.CHOPSTICKS)
_CNIGIRI = tuple(int(c) for c in NIGIRI)
_M1, _M2, _M3 = int(Token.MAKI1), int(Token.MAKI2), int(Token.MAKI3)
_MAKI_CARDS = (int(Card.MAKI1), int(Card.MAKI2), int(Card.MAKI3))

# What the rewrites read of a pair of hands (Canon.left): tempura left, the sashimi residue below which a
# set cannot be completed, dumplings left, nigiri left, the chopsticks cap, the maki and pudding clip bounds.
Left = tuple[bool, int, bool, int, int, int, int]


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _clip(x: int, bound: int) -> int:
    return -bound if x < -bound else bound if x > bound else x


def maki_by_rank(rules: Ruleset, top: int = 16) -> bool:
    """True when 2-player maki points depend only on (sign of the difference, each side has any)."""
    seen: dict[tuple[int, bool, bool], list[int]] = {}
    for a, b in product(range(top), repeat=2):
        pts = maki_points([a, b], rules)
        if seen.setdefault((_sign(a - b), a > 0, b > 0), pts) != pts:
            return False
    return True


def pudding_by_rank(rules: Ruleset, top: int = 12) -> bool:
    """True when 2-player pudding points and the pudding tie-break depend only on the difference's sign."""
    seen: dict[int, object] = {}
    for a, b in product(range(top), repeat=2):
        outcome = (
            tuple(pudding_points([a, b], rules)),
            tuple(tuple(winners(list(s), [a, b], rules)) for s in ((0, 0), (1, 0), (0, 1))),
        )
        if seen.setdefault(_sign(a - b), outcome) != outcome:
            return False
    return True


class Canon:
    """Rewrites a state after a turn into its canonical form.

    What the hands still hold is cached per pair of hands and the merged hands per canonical state;
    the tableaux' rewrite is not cached here (by tuples the cache held as many entries as the search
    had states: a third of its memory at k = 10). The exact search keeps its own table of rewrites
    by (:meth:`left`, tableau 0, tableau 1) numbers, each a small int key (:mod:`.exact`).

    The canonical tableaux are real tableaux (the search and the scoring read
    them as usual): dropped counts are zeroed, dumplings banked, the maki icons
    rewritten as maki1 cards giving the clipped difference and flags, the
    pudding cards as counts giving the clipped difference. Two states with
    the same canonical form have the same future up to the banked points.
    """

    def __init__(self, rules: Ruleset, objective: str, keep_pudding: bool, earlier: tuple[int, int]) -> None:
        self.own = objective == "own"
        self.keep_pudding = keep_pudding
        self.earlier = earlier[0] - earlier[1]
        # The rewrites rest on the rank readings and on a maki1 card carrying one icon.
        self.maki_rank = maki_by_rank(rules) and rules.maki_icons[0] == 1
        self.pudding_rank = pudding_by_rank(rules)
        self.icons = rules.maki_icons
        dumpling = KINDS[_CD].scoring  # the dumpling kind's description (spec.kinds) under these rules
        self.dumpling_points = [dumpling.score(c, rules) for c in range(rules.copies(Card.DUMPLING) + 1)]
        self.sashimi_set = rules.sashimi_set
        # Points of a tempura (sashimi) residue by count, for the dead-card test.
        self.set_points = {
            card: [dish_points(tuple(c if t == token else 0 for t in range(len(Token))), rules)[slot]
                   for c in range(rules.copies(Card(card)) + 1)]
            for card, token, slot in ((_CT, _T, 0), (_CS, _S, 1))
        }
        self._hands: dict[tuple[Hand, Hand], Left] = {}
        self._merged: dict[tuple[Hand, Hand, Tab, Tab], tuple[Hand, Hand]] = {}

    def left(self, h0: Hand, h1: Hand) -> Left:
        """What the two hands still hold that the rewrites read (cached per pair of hands): all that
        :meth:`normalise` reads of them, so two pairs with the same answer get the same rewrite."""
        got = self._hands.get((h0, h1))
        if got is None:
            left = [a + b for a, b in zip(h0, h1, strict=True)]
            ic = self.icons
            got = self._hands[(h0, h1)] = (
                left[_CT] > 0,
                self.sashimi_set - left[_CS],  # a residue below this cannot be completed
                left[_CD] > 0,
                sum(left[c] for c in _CNIGIRI),
                max(sum(h0) - 1, 0),
                sum(ic[n] * left[c] for n, c in enumerate(_MAKI_CARDS)) + 1,
                left[_CP] + 1,
            )
        return got

    def normalise(self, h0: Hand, h1: Hand, t0: Tab, t1: Tab) -> tuple[Tab, Tab, int, int]:
        """(tableau 0, tableau 1, points banked for 0, for 1) of the state where player 0 holds h0."""
        return self.rewrite(self.left(h0, h1), t0, t1)

    def rewrite(
        self, left: Left, t0: Tab, t1: Tab
    ) -> tuple[Tab, Tab, int, int]:
        """:meth:`normalise` given what the hands hold (:meth:`left`)."""
        tempura, sashimi_short, dumplings, nigiri, cap_chop, maki_bound, pudding_bound = left
        a0, a1 = list(t0), list(t1)
        b0 = b1 = 0
        for t in (a0, a1):
            if not tempura:
                t[_T] = 0  # a tempura residue nobody can complete scores 0
            if t[_S] < sashimi_short:
                t[_S] = 0
            if t[_W] > nigiri:
                t[_W] = nigiri
            if t[_C] > cap_chop:
                t[_C] = cap_chop
        if not dumplings:
            b0, b1 = self.dumpling_points[a0[_D]], self.dumpling_points[a1[_D]]
            a0[_D] = a1[_D] = 0
        if self.own:
            a1[_T] = a1[_S] = a1[_D] = a1[_W] = b1 = 0  # the opponent's dishes never change player 0's total
        if self.maki_rank:
            ic = self.icons
            m0 = ic[0] * t0[_M1] + ic[1] * t0[_M2] + ic[2] * t0[_M3]
            m1 = ic[0] * t1[_M1] + ic[1] * t1[_M2] + ic[2] * t1[_M3]
            if m0 and m1:
                diff = _clip(m0 - m1, maki_bound)
                m0, m1 = (1 + diff, 1) if diff >= 0 else (1, 1 - diff)
            else:
                m0, m1 = min(m0, maki_bound), min(m1, maki_bound)
            a0[_M1], a0[_M2], a0[_M3] = m0, 0, 0
            a1[_M1], a1[_M2], a1[_M3] = m1, 0, 0
        if self.keep_pudding and self.pudding_rank:
            diff = _clip(self.earlier + t0[_P] - t1[_P], pudding_bound)
            a0[_P] = max(0, diff - self.earlier)
            a1[_P] = a0[_P] - diff + self.earlier
        return tuple(a0), tuple(a1), b0, b1

    def merge_dead(self, h0: Hand, h1: Hand, t0: Tab, t1: Tab) -> tuple[Hand, Hand]:
        """The two hands with every dead card as one kind (see the module docstring).

        ``t0`` and ``t1`` are canonical tableaux (from :meth:`normalise`) of the same state.
        """
        key = (h0, h1, t0, t1)
        got = self._merged.get(key)
        if got is None:
            got = self._merged[key] = self.merged(h0, h1, t0, t1)
        return got

    def merged(
        self, h0: Hand, h1: Hand, t0: Tab, t1: Tab, left: Left | None = None
    ) -> tuple[Hand, Hand]:
        """:meth:`merge_dead` without its cache (for a caller that keeps the answer itself); ``left``:
        :meth:`left` of the two hands if the caller has it."""
        if left is None:
            left = self.left(h0, h1)
        nigiri_left = left[3]
        rep = _CP if not self.keep_pudding else _CW if not nigiri_left else -1
        if rep < 0:
            return h0, h1
        dead = [_CW] if rep == _CP and not nigiri_left else []
        if sum(h0) <= 2:
            dead.append(_CC)
        a, b = t0[_M1], t1[_M1]  # canonical maki: icons as maki1 cards
        if self.maki_rank and a and b and abs(a - b) >= left[5]:
            dead.extend(_MAKI_CARDS)
        for card, token in ((_CT, _T), (_CS, _S)):
            pts, remaining = self.set_points[card], h0[card] + h1[card]
            top = len(pts) - 1
            if remaining and all(pts[min(c, top)] == pts[r] for r in (t0[token], t1[token])
                                 for c in range(r, r + remaining + 1)):
                dead.append(card)
        if not dead or not any(h[k] for h in (h0, h1) for k in dead):
            return h0, h1
        out: list[Hand] = []
        for h in (h0, h1):
            counts = list(h)
            for k in dead:
                counts[rep] += counts[k]
                counts[k] = 0
            out.append(tuple(counts))
        return out[0], out[1]
