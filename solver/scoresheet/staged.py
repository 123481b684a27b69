"""The constructive pre-pass: a witness built one round at a time within what the deck has left."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from sushigo.solver.scoresheet.model import _round_model
from sushigo.solver.scoresheet.sheet import Sheet
from sushigo.solver.scoresheet.witness import Witness, _mismatch
from sushigo.spec.cards import Card, Token
from sushigo.spec.model.budget import Budget, decide
from sushigo.spec.model.scoring import pudding_terms
from sushigo.spec.scoring import pudding_points
from sushigo.spec.tableau import Tableau

#: The staged pre-pass: (round order, per-round share slack or None for no share cap, seed),
#: tried in turn, each round with ``rlimit // STAGE_SHARE`` resource units (the last round,
#: which must fit exactly in what is left, ``LAST_BOOST`` times that). Many short attempts
#: with varied orders and seeds beat a few long ones: a failed attempt mostly runs out of
#: budget in its last round, and another order or seed often succeeds at once.
STAGE_PLANS: tuple[tuple[str, int | None, int], ...] = tuple(
    (("easiest", "given", "hardest", "easiest")[k % 4], k % 2 if k % 3 else 0, k) for k in range(12)
)


STAGE_SHARE = 60


LAST_BOOST = 4


def _staged_search(sheet: Sheet, timeout_ms: int, rlimit: int) -> Witness | None:
    """A witness from :func:`_staged` under each plan of :data:`STAGE_PLANS`, or None."""
    scores = [sum(row) for row in sheet.rounds]
    by = {
        "given": list(range(len(scores))),
        "hardest": sorted(range(len(scores)), key=lambda r: -scores[r]),
        "easiest": sorted(range(len(scores)), key=lambda r: scores[r]),
    }
    targets = _pudding_targets(sheet)
    for plan, (order, slack, seed) in enumerate(STAGE_PLANS):
        target = targets[plan % len(targets)] if targets else None
        w = _staged(sheet, by[order], slack, seed, timeout_ms, max(1, rlimit // STAGE_SHARE), target)
        if w is not None and _mismatch(sheet, w) is None:
            return w
    return None


def _pudding_targets(sheet: Sheet) -> list[tuple[int, ...]]:
    """Pudding counts at the end of the game that give the sheet's pudding points (from the
    pudding row, or from totals minus rounds): fewest puddings first, then most, then the
    rest. Empty when the sheet does not fix pudding points."""
    rules, n = sheet.rules, len(sheet.players)
    if len(sheet.rounds) != rules.rounds:
        return []
    if sheet.pudding is not None:
        want = tuple(sheet.pudding)
    elif sheet.totals is not None:
        want = tuple(v - sum(rw[i] for rw in sheet.rounds) for i, v in enumerate(sheet.totals))
    else:
        return []
    cap = rules.copies(Card.PUDDING)
    found = sorted((c for c in itertools.product(range(cap + 1), repeat=sheet.seats)
                    if sum(c) <= cap and tuple(pudding_points(c, rules)[:n]) == want), key=sum)
    if len(found) <= 2:
        return found
    return [found[0], found[-1], *found[1:-1]]


def _staged(sheet: Sheet, order: Sequence[int], slack: int | None, seed: int, timeout_ms: int,
            rlimit: int, target: tuple[int, ...] | None = None) -> Witness | None:
    """One round at a time, each within what the earlier rounds left of the deck.

    The rounds of a sheet interact only through the deck and the puddings, so a game can be
    built round by round: each round's row is a small model (one round, its maki ranking, its
    scores), solved against the cards still unused. To leave the later rounds enough, a round
    that is not the last may take at most its fair share of each card kind (what is left over
    the rounds still to come, rounded up, plus ``slack``; None: no cap). The pudding row and
    the totals are constraints of the last round, with the puddings of the earlier rounds as
    constants. Incomplete (None when a round fails), never wrong: the result is re-scored.
    """
    rules = sheet.rules
    seats = sheet.seats
    full = len(sheet.rounds) == rules.rounds
    left = [rules.copies(c) for c in Card]
    kept = [0] * seats
    found: dict[int, tuple[Tableau, ...]] = {}
    for step, r in enumerate(order):
        last = step == len(order) - 1
        caps = list(left)
        if not last and slack is not None:
            caps = [min(x, -(-x // (len(order) - step)) + slack) for x in left]
        m, row = _round_model(sheet, r, caps)
        if target is not None:
            # spread each player's final puddings evenly over the rounds
            done = step + 1
            for i, p in enumerate(target):
                have = kept[i] + row[i][int(Token.PUDDING)]
                m.add("R-PUDDING-CARRY", [have >= p * done // len(order),
                                          have <= -(-p * done // len(order))])
        if last and full and (sheet.pudding is not None or sheet.totals is not None):
            puds = []
            for i in range(seats):
                p = m.int(f"st_puddings_p{i}", 0)
                m.add("R-PUDDING-CARRY", p == kept[i] + row[i][int(Token.PUDDING)])
                puds.append(p)
            pts = pudding_terms(m, "st", puds, rules)
            if sheet.pudding is not None:
                m.add("cell", [pts[i] == v for i, v in enumerate(sheet.pudding)])
            if sheet.totals is not None:
                m.add("cell", [pts[i] + sum(rw[i] for rw in sheet.rounds) == v
                               for i, v in enumerate(sheet.totals)])
        elif last and sheet.totals is not None:
            if any(sum(rw[i] for rw in sheet.rounds) != v for i, v in enumerate(sheet.totals)):
                return None
        s = m.solver(timeout_ms=timeout_ms, rlimit=rlimit * (LAST_BOOST if last else 1))
        s.set("random_seed", seed)
        if not decide(s, Budget.kept()).sat:  # built with timeout_ms and boost
            return None
        mdl = s.model()
        tabs = tuple(Tableau(tuple(mdl.eval(v, model_completion=True).as_long() for v in t)) for t in row)
        found[r] = tabs
        for i, tab in enumerate(tabs):
            kept[i] += tab.counts[int(Token.PUDDING)]
            for kind, n in enumerate(tab.card_counts()):
                left[kind] -= n
    return Witness(tuple(found[r] for r in range(len(sheet.rounds))), tuple(kept))
