"""Round scoring, pudding scoring and winners as Z3 terms over symbolic counts.

Maki and pudding rankings are constraints over the (symbolic) icon and pudding
counts: nothing here branches in Python on concrete values, so the solver can
reason about rankings it has not been given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import z3

from sushigo.spec.cards import Token
from sushigo.spec.model.core import Model
from sushigo.spec.ruleset import Ruleset

TOKEN_NAMES = [t.label.replace("+", "_") for t in Token]


def tableau_vars(m: Model, prefix: str, rules: Ruleset) -> list[z3.ArithRef]:
    """15 named token counts ``<prefix>_<token>``, each within the deck's copies (R-DECK)."""
    out = []
    for t, name in zip(Token, TOKEN_NAMES, strict=True):
        cap = min(rules.copies(c) for c in t.cards)
        out.append(m.int(f"{prefix}_{name}", 0, cap))
    return out


def card_count_terms(counts: Sequence[z3.ArithRef]) -> list[z3.ArithRef]:
    """Physical cards per Card kind (a stack is a wasabi plus its nigiri)."""
    out: list[z3.ArithRef] = [z3.IntVal(0)] * 12
    for t in Token:
        for c in t.cards:
            out[int(c)] = out[int(c)] + counts[int(t)]
    return [z3.simplify(x) for x in out]


def size_term(counts: Sequence[z3.ArithRef]) -> z3.ArithRef:
    return z3.Sum([counts[int(t)] * t.size for t in Token])


def _table(n: z3.ArithRef, table: Sequence[int]) -> z3.ArithRef:
    """table[n] for n >= 0, the last entry holding beyond the table."""
    expr: z3.ArithRef = z3.IntVal(table[-1])
    for k in range(len(table) - 2, -1, -1):
        expr = z3.If(n == k, table[k], expr)
    return expr


def dish_terms(
    m: Model, prefix: str, counts: Sequence[z3.ArithRef], rules: Ruleset
) -> dict[str, z3.ArithRef]:
    """Named terms ``<prefix>_tempura`` ... ``<prefix>_nigiri`` defined by the scoring rules."""
    c = counts
    tem = m.int(f"{prefix}_tempura", None)
    sas = m.int(f"{prefix}_sashimi", None)
    dum = m.int(f"{prefix}_dumpling", None)
    nig = m.int(f"{prefix}_nigiri", None)
    m.add("R-TEMPURA", tem == (c[Token.TEMPURA] / rules.tempura_set) * rules.tempura_points, prefix)
    m.add("R-SASHIMI", sas == (c[Token.SASHIMI] / rules.sashimi_set) * rules.sashimi_points, prefix)
    m.add("R-DUMPLING", dum == _table(c[Token.DUMPLING], rules.dumpling_points), prefix)
    e, sa, sq = rules.nigiri_points
    x = rules.wasabi_multiplier
    m.add(
        "R-NIGIRI",
        nig == e * c[Token.EGG] + sa * c[Token.SALMON] + sq * c[Token.SQUID]
        + e * x * c[Token.WASABI_EGG] + sa * x * c[Token.WASABI_SALMON] + sq * x * c[Token.WASABI_SQUID],
        prefix,
    )
    return {"tempura": tem, "sashimi": sas, "dumpling": dum, "nigiri": nig}


def icons_term(counts: Sequence[z3.ArithRef], rules: Ruleset) -> z3.ArithRef:
    i1, i2, i3 = rules.maki_icons
    return i1 * counts[Token.MAKI1] + i2 * counts[Token.MAKI2] + i3 * counts[Token.MAKI3]


def _share(share_of: Callable[[int], int], n: z3.ArithRef, max_n: int) -> z3.ArithRef:
    """Points each of n tied players gets, ``share_of(n)`` (the ruleset's reading decides it)."""
    expr: z3.ArithRef = z3.IntVal(share_of(1))
    for k in range(max_n, 1, -1):
        if share_of(k) != share_of(1):
            expr = z3.If(n == k, share_of(k), expr)
    return expr


def maki_terms(m: Model, prefix: str, icons: Sequence[z3.ArithRef], rules: Ruleset) -> list[z3.ArithRef]:
    """Maki points per seat, named ``<prefix>_p<i>_maki``, defined by ranking constraints."""
    n = len(icons)
    first = [m.bool(f"{prefix}_p{i}_maki_first") for i in range(n)]
    second = [m.bool(f"{prefix}_p{i}_maki_second") for i in range(n)]
    placed = [m.bool(f"{prefix}_p{i}_maki_any") for i in range(n)]
    for i in range(n):
        m.add("R-MAKI-ZERO", placed[i] == (icons[i] > 0), f"{prefix}_p{i}")
        m.add("R-MAKI-FIRST", first[i] == z3.And(placed[i], *[icons[j] <= icons[i] for j in range(n)]),
              f"{prefix}_p{i}")
    n_first = m.int(f"{prefix}_maki_n_first", 0, n)
    m.add("R-MAKI-FIRST", n_first == z3.Sum([z3.If(f, 1, 0) for f in first]), prefix)
    for i in range(n):
        # Second place exists only when first is not tied (R-MAKI-TIE-FIRST).
        m.add(
            "R-MAKI-SECOND",
            second[i] == z3.And(
                placed[i], z3.Not(first[i]), n_first == 1,
                *[z3.Or(first[j], icons[j] <= icons[i]) for j in range(n)],
            ),
            f"{prefix}_p{i}",
        )
    n_second = m.int(f"{prefix}_maki_n_second", 0, n)
    m.add("R-MAKI-SECOND", n_second == z3.Sum([z3.If(s, 1, 0) for s in second]), prefix)
    first_share = m.int(f"{prefix}_maki_first_share", None)
    second_share = m.int(f"{prefix}_maki_second_share", None)
    m.add(
        "R-MAKI-TIE-FIRST",
        first_share == z3.If(n_first == 1, rules.maki_first_points,
                             _share(lambda k: rules.maki_share(True, k), n_first, n)),
        prefix,
    )
    m.add("R-MAKI-TIE-SECOND",
          second_share == _share(lambda k: rules.maki_share(False, k), n_second, n), prefix)
    out = []
    for i in range(n):
        pts = m.int(f"{prefix}_p{i}_maki", None)
        m.add("R-MAKI-POINTS", pts == z3.If(first[i], first_share, z3.If(second[i], second_share, 0)),
              f"{prefix}_p{i}")
        out.append(pts)
    return out


def round_terms(
    m: Model, prefix: str, tableaux: Sequence[Sequence[z3.ArithRef]], rules: Ruleset
) -> list[dict[str, z3.ArithRef]]:
    """Per seat: the category terms and ``total`` (named ``<prefix>_p<i>_total``)."""
    icons = []
    seats = []
    for i, counts in enumerate(tableaux):
        ic = m.int(f"{prefix}_p{i}_maki_icons", 0)
        m.add("R-MAKI-ICONS", ic == icons_term(counts, rules), f"{prefix}_p{i}")
        icons.append(ic)
        seats.append(dish_terms(m, f"{prefix}_p{i}", counts, rules))
    maki = maki_terms(m, prefix, icons, rules)
    for i, d in enumerate(seats):
        d["maki"] = maki[i]
        d["icons"] = icons[i]
        total = m.int(f"{prefix}_p{i}_total", None)
        m.add("R-ROUND-TOTAL", total == d["tempura"] + d["sashimi"] + d["dumpling"] + d["nigiri"] + maki[i],
              f"{prefix}_p{i}")
        d["total"] = total
    return seats


def pudding_terms(
    m: Model, prefix: str, puddings: Sequence[z3.ArithRef], rules: Ruleset
) -> list[z3.ArithRef]:
    """Pudding points per seat, named ``<prefix>_p<i>_pudding``."""
    n = len(puddings)
    hi = m.int(f"{prefix}_pudding_max", None)
    lo = m.int(f"{prefix}_pudding_min", None)
    m.add("R-PUDDING-MOST", [z3.Or(*[hi == p for p in puddings]), *[p <= hi for p in puddings]], prefix)
    m.add("R-PUDDING-FEWEST", [z3.Or(*[lo == p for p in puddings]), *[p >= lo for p in puddings]], prefix)
    n_most = z3.Sum([z3.If(p == hi, 1, 0) for p in puddings])
    n_fewest = z3.Sum([z3.If(p == lo, 1, 0) for p in puddings])
    bonus = _share(lambda k: rules.pudding_most_points // k, n_most, n)
    pen = rules.pudding_fewest_penalty
    loss: z3.ArithRef = z3.IntVal(-pen)
    for k in range(n, 1, -1):
        loss = z3.If(n_fewest == k, rules.penalty_share(k), loss)
    share_lost = m.int(f"{prefix}_pudding_loss", None)
    m.add("R-PUDDING-SPLIT", share_lost == loss, prefix)
    penalty = m.bool(f"{prefix}_pudding_penalty")
    m.add("R-PUDDING-2P", penalty == z3.BoolVal(rules.pudding_penalty_applies(n)), prefix)
    all_tied = hi == lo
    out = []
    for i, p in enumerate(puddings):
        pts = m.int(f"{prefix}_p{i}_pudding", None)
        value = z3.If(p == hi, bonus, 0) + z3.If(z3.And(penalty, p == lo), share_lost, 0)
        if rules.all_tied_score_nothing:
            m.add("R-PUDDING-ALL-TIED", pts == z3.If(all_tied, 0, value), f"{prefix}_p{i}")
        else:
            m.add("R-PUDDING-ALL-TIED", pts == value, f"{prefix}_p{i}")
        out.append(pts)
    return out


def winner_terms(
    m: Model, prefix: str, totals: Sequence[z3.ArithRef], puddings: Sequence[z3.ArithRef], rules: Ruleset,
    players: int | None = None,
) -> list[z3.BoolRef]:
    """``<prefix>_p<i>_wins`` per seat: most points, then most puddings, then ``winner_tie``."""
    seats = range(len(totals) if players is None else players)
    top = [z3.And(*[totals[i] >= totals[j] for j in seats]) for i in seats]
    best = [
        z3.And(top[i], *[z3.Or(z3.Not(top[j]), puddings[i] >= puddings[j]) for j in seats]) for i in seats
    ]
    n_best = z3.Sum([z3.If(b, 1, 0) for b in best])
    out = []
    for i in seats:
        w = m.bool(f"{prefix}_p{i}_wins")
        if rules.tied_winners_share:
            m.add("R-WINNER-TIE", w == best[i], f"{prefix}_p{i}")
        else:
            m.add("R-WINNER-TIE", w == z3.And(best[i], n_best == 1), f"{prefix}_p{i}")
        out.append(w)
    return out
