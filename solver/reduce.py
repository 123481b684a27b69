"""The searches' one reducer: what of a tableau can still change a round's score.

Both plain searches (the dynamic programme of :mod:`solver.search` and the endgame's
game-tree search in :mod:`solver.endgame`) shrink a tableau to the part that later picks
can still change, banking the points already certain. What is kept of each card kind is
read from its definition (:meth:`spec.kinds.CardKind.keep`), so a new card kind is reduced
correctly without touching either search:

- ``residue``: sets (tempura, sashimi) keep the count modulo the set size; the complete
  sets are banked;
- ``capped``: table-scored kinds (dumpling) keep the count up to the table's last entry;
- ``banked``: per-card kinds (nigiri, in a stack or not) are banked and dropped;
- ``icons`` and ``count``: kept as they are (maki rank against the table; wasabi and
  chopsticks act; pudding ranks at game end and is kept only when asked).

The reduction is exact: ``dish(t + f) == banked + dish(reduce(t) + f)`` for every future
``f`` of picks (tests check it against the plain scorer).
"""

from __future__ import annotations

from collections.abc import Sequence

from sushigo.spec.kinds import KINDS, ByCount, Ranked, Sets, resolve, tokens_of
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import dish_points

_TOKENS = tokens_of(KINDS)
# What to do to each token count: ("mod", set size), ("cap", last index), ("zero", 0).
Plan = tuple[tuple[int, str, int], ...]
_PLANS: dict[tuple[int, bool], tuple[Ruleset, Plan]] = {}


def _plan(rules: Ruleset, keep_pudding: bool) -> Plan:
    """The reduction of each token, read from its kind's definition (cached per ruleset)."""
    hit = _PLANS.get((id(rules), keep_pudding))
    if hit is not None and hit[0] is rules:
        return hit[1]
    plan: list[tuple[int, str, int]] = []
    for i, tok in enumerate(_TOKENS):
        kind = KINDS[tok.cards[-1]]
        keep, s = kind.keep(), kind.scoring
        if keep == "residue" and isinstance(s, Sets):
            plan.append((i, "mod", int(resolve(s.size, rules))))
        elif keep == "capped" and isinstance(s, ByCount):
            plan.append((i, "cap", len(resolve(s.table, rules)) - 1))
        elif keep == "banked" or (isinstance(s, Ranked) and not keep_pudding):
            plan.append((i, "zero", 0))
    if len(_PLANS) >= 64:
        _PLANS.clear()
    _PLANS[(id(rules), keep_pudding)] = (rules, tuple(plan))
    return tuple(plan)


def reduce_tableau(
    tab: Sequence[int], rules: Ruleset, keep_pudding: bool = True
) -> tuple[tuple[int, ...], int]:
    """(reduced token counts, points banked by the reduction) of one tableau."""
    out = list(tab)
    for i, op, arg in _plan(rules, keep_pudding):
        if op == "mod":
            out[i] %= arg
        elif op == "cap":
            out[i] = min(out[i], arg)
        else:
            out[i] = 0
    return tuple(out), sum(dish_points(tab, rules)) - sum(dish_points(out, rules))
