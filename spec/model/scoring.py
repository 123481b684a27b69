"""Round scoring, pudding scoring and winners as Z3 terms over symbolic counts.

Maki and pudding rankings are constraints over the (symbolic) icon and pudding
counts: nothing here branches in Python on concrete values, so the solver can
reason about rankings it has not been given.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence

import z3
from sushigo.spec.cards import Token
from sushigo.spec.kinds import (
    KINDS,
    ByCount,
    CardKind,
    Icons,
    PerCard,
    Scoring,
    Sets,
    categories_of,
    deck_of,
    dish_rules,
    resolve,
    tokens_of,
)
from sushigo.spec.model.core import Model
from sushigo.spec.model.rulevars import Rules, RuleVars, numbers
from sushigo.spec.ruleset import Ruleset

TOKEN_NAMES = [t.label.replace("+", "_") for t in Token]


def _copies(rules: Ruleset, kinds: Sequence[CardKind]) -> tuple[int, ...]:
    """Copies per kind: the ruleset's deck for the official kinds, else the definitions'."""
    return tuple(rules.deck) if kinds is KINDS else deck_of(kinds)


def _sum(terms: Sequence[z3.ArithRef]) -> z3.ArithRef:
    """a + b + c as nested binary sums, left to right (the shape the rulebook's sums had)."""
    return functools.reduce(operator.add, terms) if terms else z3.IntVal(0)


def scoring_term(scoring: Scoring, n: z3.ArithRef, rules: Rules,
                 multiplier: int | z3.ArithRef = 1) -> z3.ArithRef:
    """The Z3 reading of a card kind's scoring description (:mod:`spec.kinds`) for count ``n``.

    The plain reading is the description's ``score`` method; a test proves the two equal
    over every count a deck allows. ``multiplier``: a nigiri on a wasabi (R-NIGIRI).
    Under a template's :class:`~spec.model.rulevars.RuleVars` each number is its input.
    """
    if isinstance(rules, RuleVars):
        return _scoring_vars(scoring, n, rules, multiplier)
    assert isinstance(multiplier, int)
    if isinstance(scoring, PerCard):
        pts = int(resolve(scoring.points, rules))
        return (pts * multiplier if multiplier != 1 else pts) * n
    if isinstance(scoring, Sets):
        return (n / int(resolve(scoring.size, rules))) * int(resolve(scoring.points, rules))
    if isinstance(scoring, ByCount):
        return _table(n, resolve(scoring.table, rules))
    if isinstance(scoring, Icons):
        return int(resolve(scoring.icons, rules)) * n
    return z3.IntVal(0)


def _scoring_vars(scoring: Scoring, n: z3.ArithRef, rules: RuleVars,
                  multiplier: int | z3.ArithRef) -> z3.ArithRef:
    """:func:`scoring_term` with the numbers as a template's inputs (the table's length is its shape)."""
    if isinstance(scoring, PerCard):
        pts = rules.param(scoring.points)
        return (pts * multiplier if not isinstance(multiplier, int) or multiplier != 1 else pts) * n
    if isinstance(scoring, Sets):
        return (n / rules.param(scoring.size)) * rules.param(scoring.points)
    if isinstance(scoring, ByCount):
        param = scoring.table
        length = len(resolve(param, rules.shape))
        key = param if isinstance(param, str) else repr(param)
        return _table(n, numbers(rules, key, length, lambda r: resolve(param, r)))
    if isinstance(scoring, Icons):
        return rules.param(scoring.icons) * n
    return z3.IntVal(0)


def tableau_vars(
    m: Model, prefix: str, rules: Rules, kinds: Sequence[CardKind] = KINDS
) -> list[z3.ArithRef]:
    """Named token counts ``<prefix>_<token>`` (15 in the base game), within the deck's copies (R-DECK)."""
    if isinstance(rules, RuleVars):
        # A template: each count at most the copies of each card of its token (as the min below).
        assert kinds is KINDS, "a template models the base game's kinds"
        out = []
        for t in tokens_of(kinds):
            v = m.int(f"{prefix}_{t.label.replace('+', '_')}", 0)
            m.add("R-DOMAIN", [v <= rules.copies(c) for c in t.cards], label=f"{prefix} {t.label} copies")
            out.append(v)
        return out
    copies = _copies(rules, kinds)
    return [m.int(f"{prefix}_{t.label.replace('+', '_')}", 0, min(copies[c] for c in t.cards))
            for t in tokens_of(kinds)]


def card_count_terms(counts: Sequence[z3.ArithRef], kinds: Sequence[CardKind] = KINDS) -> list[z3.ArithRef]:
    """Physical cards per card kind (a stack is a wasabi plus its nigiri)."""
    out: list[z3.ArithRef] = [z3.IntVal(0)] * len(kinds)
    for i, t in enumerate(tokens_of(kinds)):
        for c in t.cards:
            out[c] = out[c] + counts[i]
    return [z3.simplify(x) for x in out]


def size_term(counts: Sequence[z3.ArithRef], kinds: Sequence[CardKind] = KINDS) -> z3.ArithRef:
    return z3.Sum([counts[i] * len(t.cards) for i, t in enumerate(tokens_of(kinds))])


def _table(n: z3.ArithRef, table: Sequence[int] | Sequence[z3.ArithRef]) -> z3.ArithRef:
    """table[n] for n >= 0, the last entry holding beyond the table."""
    last = table[-1]
    expr: z3.ArithRef = z3.IntVal(last) if isinstance(last, int) else last
    for k in range(len(table) - 2, -1, -1):
        expr = z3.If(n == k, table[k], expr)
    return expr


def dish_terms(
    m: Model, prefix: str, counts: Sequence[z3.ArithRef], rules: Rules, kinds: Sequence[CardKind] = KINDS
) -> dict[str, z3.ArithRef]:
    """Named terms ``<prefix>_tempura`` ... ``<prefix>_nigiri``, one per dish category of the kinds.

    Each is the sum, over the tokens of its kinds, of the kind's scoring description read
    in Z3 (:func:`scoring_term`), under the category's rule id (R-TEMPURA ... R-NIGIRI).
    """
    cats = categories_of(kinds)[:-1]
    rule = dish_rules(kinds)
    out = {cat: m.int(f"{prefix}_{cat}", None) for cat in cats}
    parts: dict[str, list[z3.ArithRef]] = {cat: [] for cat in cats}
    for i, tok in enumerate(tokens_of(kinds)):
        kind = kinds[tok.cards[-1]]
        if kind.dish:
            mult: int | z3.ArithRef = 1
            if tok.multiplier:
                mult = (rules.number("wasabi_multiplier", lambda r: r.wasabi_multiplier)
                        if isinstance(rules, RuleVars) else rules.wasabi_multiplier)
            parts[kind.category].append(scoring_term(kind.scoring, counts[i], rules, mult))
    for cat in cats:
        m.add(rule[cat], out[cat] == _sum(parts[cat]), prefix)
    return out


def total_term(dishes: dict[str, z3.ArithRef], maki: z3.ArithRef | int) -> z3.ArithRef:
    """A round total (R-ROUND-TOTAL): every dish category of :func:`dish_terms`, then maki."""
    return _sum([*dishes.values(), maki])


def icons_term(
    counts: Sequence[z3.ArithRef], rules: Rules, kinds: Sequence[CardKind] = KINDS
) -> z3.ArithRef:
    """Maki rolls of one tableau: the icons of every :class:`~spec.kinds.Icons` kind."""
    return _sum([scoring_term(k.scoring, counts[i], rules) for i, k in enumerate(kinds)
                 if isinstance(k.scoring, Icons)])


def _share(share_of: Callable[[int], int], n: z3.ArithRef, max_n: int) -> z3.ArithRef:
    """Points each of n tied players gets, ``share_of(n)`` (the ruleset's reading decides it)."""
    expr: z3.ArithRef = z3.IntVal(share_of(1))
    for k in range(max_n, 1, -1):
        if share_of(k) != share_of(1):
            expr = z3.If(n == k, share_of(k), expr)
    return expr


def _share_vars(rules: RuleVars, key: str, share_of: Callable[[Ruleset, int], int], n: z3.ArithRef,
                max_n: int) -> z3.ArithRef:
    """:func:`_share` with each ``share_of(k)`` an input ``rule_<key>_<k>`` (every k: values vary)."""
    expr: z3.ArithRef = rules.number(f"{key}_1", lambda r: share_of(r, 1))
    for k in range(max_n, 1, -1):
        expr = z3.If(n == k, rules.number(f"{key}_{k}", lambda r, k=k: share_of(r, k)), expr)  # type: ignore[misc]
    return expr


def maki_terms(m: Model, prefix: str, icons: Sequence[z3.ArithRef], rules: Rules) -> list[z3.ArithRef]:
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
    if isinstance(rules, RuleVars):
        first_pts = rules.number("maki_first_points", lambda r: r.maki_first_points)
        m.add("R-MAKI-TIE-FIRST", first_share == z3.If(n_first == 1, first_pts, _share_vars(
            rules, "maki_first_share", lambda r, k: r.maki_share(True, k), n_first, n)), prefix)
        m.add("R-MAKI-TIE-SECOND", second_share == _share_vars(
            rules, "maki_second_share", lambda r, k: r.maki_share(False, k), n_second, n), prefix)
    else:
        concrete = rules
        m.add(
            "R-MAKI-TIE-FIRST",
            first_share == z3.If(n_first == 1, concrete.maki_first_points,
                                 _share(lambda k: concrete.maki_share(True, k), n_first, n)),
            prefix,
        )
        m.add("R-MAKI-TIE-SECOND",
              second_share == _share(lambda k: concrete.maki_share(False, k), n_second, n), prefix)
    out = []
    for i in range(n):
        pts = m.int(f"{prefix}_p{i}_maki", None)
        m.add("R-MAKI-POINTS", pts == z3.If(first[i], first_share, z3.If(second[i], second_share, 0)),
              f"{prefix}_p{i}")
        out.append(pts)
    return out


def round_terms(
    m: Model, prefix: str, tableaux: Sequence[Sequence[z3.ArithRef]], rules: Rules,
    kinds: Sequence[CardKind] = KINDS,
) -> list[dict[str, z3.ArithRef]]:
    """Per seat: the category terms and ``total`` (named ``<prefix>_p<i>_total``)."""
    icons = []
    seats = []
    for i, counts in enumerate(tableaux):
        ic = m.int(f"{prefix}_p{i}_maki_icons", 0)
        m.add("R-MAKI-ICONS", ic == icons_term(counts, rules, kinds), f"{prefix}_p{i}")
        icons.append(ic)
        seats.append(dish_terms(m, f"{prefix}_p{i}", counts, rules, kinds))
    maki = maki_terms(m, prefix, icons, rules)
    for i, d in enumerate(seats):
        dishes = dict(d)
        d["maki"] = maki[i]
        d["icons"] = icons[i]
        total = m.int(f"{prefix}_p{i}_total", None)
        m.add("R-ROUND-TOTAL", total == total_term(dishes, maki[i]), f"{prefix}_p{i}")
        d["total"] = total
    return seats


def pudding_terms(
    m: Model, prefix: str, puddings: Sequence[z3.ArithRef], rules: Rules
) -> list[z3.ArithRef]:
    """Pudding points per seat, named ``<prefix>_p<i>_pudding``."""
    if isinstance(rules, RuleVars):
        return _pudding_vars(m, prefix, puddings, rules)
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


def _pudding_vars(m: Model, prefix: str, puddings: Sequence[z3.ArithRef],
                  rules: RuleVars) -> list[z3.ArithRef]:
    """:func:`pudding_terms` with the shares, the penalty's seats and the all-tied reading as inputs."""
    n = len(puddings)
    hi = m.int(f"{prefix}_pudding_max", None)
    lo = m.int(f"{prefix}_pudding_min", None)
    m.add("R-PUDDING-MOST", [z3.Or(*[hi == p for p in puddings]), *[p <= hi for p in puddings]], prefix)
    m.add("R-PUDDING-FEWEST", [z3.Or(*[lo == p for p in puddings]), *[p >= lo for p in puddings]], prefix)
    n_most = z3.Sum([z3.If(p == hi, 1, 0) for p in puddings])
    n_fewest = z3.Sum([z3.If(p == lo, 1, 0) for p in puddings])
    bonus = _share_vars(rules, "pudding_most_share", lambda r, k: r.pudding_most_points // k, n_most, n)
    # k = 1 is the whole penalty (negative), as penalty_share(1) under either rounding
    loss = _share_vars(rules, "pudding_fewest_share", lambda r, k: r.penalty_share(k), n_fewest, n)
    share_lost = m.int(f"{prefix}_pudding_loss", None)
    m.add("R-PUDDING-SPLIT", share_lost == loss, prefix)
    penalty = m.bool(f"{prefix}_pudding_penalty")
    m.add("R-PUDDING-2P", penalty == rules.flag(f"pudding_penalty_{n}_seats",
                                                lambda r: r.pudding_penalty_applies(n)), prefix)
    nothing = rules.flag("pudding_all_tied_nothing", lambda r: r.all_tied_score_nothing)
    all_tied = hi == lo
    out = []
    for i, p in enumerate(puddings):
        pts = m.int(f"{prefix}_p{i}_pudding", None)
        value = z3.If(p == hi, bonus, 0) + z3.If(z3.And(penalty, p == lo), share_lost, 0)
        m.add("R-PUDDING-ALL-TIED", pts == z3.If(z3.And(nothing, all_tied), 0, value), f"{prefix}_p{i}")
        out.append(pts)
    return out


def winner_terms(
    m: Model, prefix: str, totals: Sequence[z3.ArithRef], puddings: Sequence[z3.ArithRef], rules: Rules,
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
        if isinstance(rules, RuleVars):
            share = rules.flag("tied_winners_share", lambda r: r.tied_winners_share)
            m.add("R-WINNER-TIE", w == z3.And(best[i], z3.Or(share, n_best == 1)), f"{prefix}_p{i}")
        elif rules.tied_winners_share:
            m.add("R-WINNER-TIE", w == best[i], f"{prefix}_p{i}")
        else:
            m.add("R-WINNER-TIE", w == z3.And(best[i], n_best == 1), f"{prefix}_p{i}")
        out.append(w)
    return out
