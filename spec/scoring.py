"""Pure scoring functions: rounds, puddings, game totals and winners.

Everything is computed from token counts and the :class:`Ruleset`; nothing
here does I/O. The per-ruleset point tables are precomputed once
(:func:`_tables`), so scoring a tableau is a handful of tuple look-ups.

Nothing here names a card kind: the columns (:data:`CATEGORIES`, :class:`RoundScore`'s
fields) and the fast path (:func:`dish_points`, :func:`maki_icons`, :func:`round_totals`)
are generated from the kinds' scoring descriptions in :mod:`spec.kinds`, so a new kind
is scored as soon as it is defined.
"""

from __future__ import annotations

from collections.abc import Sequence

from sushigo.spec.frozen import frozen, make_frozen

TYPE_CHECKING = False

if TYPE_CHECKING:
    from fractions import Fraction

from sushigo.spec.kinds import (
    KINDS,
    ByCount,
    CardKind,
    Icons,
    PerCard,
    Sets,
    categories_of,
    dish_points_of,
    icons_of,
    resolve,
    tokens_of,
)
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.tableau import Tableau

#: The round's scoring columns, from the card kinds' definitions (:mod:`spec.kinds`).
CATEGORIES: tuple[str, ...] = categories_of(KINDS)
#: The columns a tableau scores by itself (every column but the maki ranking, which is last).
DISH_CATEGORIES: tuple[str, ...] = CATEGORIES[:-1]

_TOKENS = tokens_of(KINDS)
_PUD = next(i for i, t in enumerate(_TOKENS) if t.label == "pudding")

# Large enough for any count a deck allows (14 copies at most, 15 tokens).
_TABLE_LEN = 64


class _RoundScoreBase:
    """Methods of :class:`RoundScore`; its fields (one per column of :data:`CATEGORIES`) are derived."""

    __slots__ = ()

    @property
    def total(self) -> int:
        return sum(getattr(self, c) for c in CATEGORIES)

    def as_dict(self) -> dict[str, int]:
        out = {c: getattr(self, c) for c in CATEGORIES}
        out["total"] = sum(out.values())
        return out


if TYPE_CHECKING:
    # What type checkers see: the official columns. The real class has one field per column of
    # CATEGORIES, in that order (a new kind's column is one more field).
    @frozen
    class RoundScore(_RoundScoreBase):
        tempura: int
        sashimi: int
        dumpling: int
        nigiri: int
        maki: int
else:
    # pickles by reference, as a class written here would
    RoundScore = make_frozen("RoundScore", [(c, "int") for c in CATEGORIES], bases=(_RoundScoreBase,),
                             module=__name__)


@frozen
class _Tables:
    """One ruleset's points, laid out as the generated fast path reads them (see :func:`_plan`)."""

    # By count (sets, tables): per token, its points for 0.._TABLE_LEN-1 cards.
    by_count: tuple[tuple[int, ...], ...]
    # Per card (nigiri, a stack: the nigiri times the wasabi multiplier): per token, its points.
    per_card: tuple[int, ...]
    # Maki rolls per card, per maki token.
    icons: tuple[int, ...]
    # Maki shares by number of players tied (index 0 unused): a tie for first pays
    # first_share[n] each (and nobody places second); a tie for second pays second_share[n].
    first_share: tuple[int, ...]
    second_share: tuple[int, ...]


@frozen
class _Plan:
    """Which token each kind's description puts in which part of the fast path (rules aside)."""

    by_count: tuple[tuple[int, int], ...]  # (token, dish column)
    per_card: tuple[tuple[int, int], ...]  # (token, dish column)
    icons: tuple[int, ...]  # maki tokens


def _plan(kinds: Sequence[CardKind]) -> _Plan:
    """Sort the tokens by their kind's description: per card (a stack too), by count, or rolls."""
    by_count: list[tuple[int, int]] = []
    per_card: list[tuple[int, int]] = []
    icons: list[int] = []
    for i, tok in enumerate(tokens_of(kinds)):
        kind = kinds[tok.cards[-1]]
        if isinstance(kind.scoring, Icons):
            icons.append(i)
        elif kind.dish:
            column = DISH_CATEGORIES.index(kind.category)
            (per_card if isinstance(kind.scoring, PerCard) else by_count).append((i, column))
    return _Plan(tuple(by_count), tuple(per_card), tuple(icons))


_PLAN = _plan(KINDS)


def _build_tables(rules: Ruleset) -> _Tables:
    """Every kind's description read once under ``rules`` into the tables :data:`_PLAN` lays out."""
    n = range(_TABLE_LEN)
    first, second = rules.maki_first_points, rules.maki_second_points
    first_share = tuple(rules.maki_share(True, k) for k in n)
    second_share = tuple(rules.maki_share(False, k) for k in n)

    def points(token: int, count: int) -> int:
        tok = _TOKENS[token]
        pts = KINDS[tok.cards[-1]].scoring.score(count, rules)
        return pts * int(rules.wasabi_multiplier) if tok.multiplier else pts

    return _Tables(
        by_count=tuple(tuple(points(t, c) for c in n) for t, _ in _PLAN.by_count),
        per_card=tuple(points(t, 1) for t, _ in _PLAN.per_card),
        icons=tuple(KINDS[_TOKENS[t].cards[-1]].scoring.score(1, rules) for t in _PLAN.icons),
        # A lone first player is a "tie" of one: the full points under every reading.
        first_share=(0, first, *first_share[2:]),
        second_share=(0, second, *second_share[2:]),
    )


# Keyed by id() and checked by identity: hashing a Ruleset (every field) on each call
# costs more than scoring a round. The entry keeps its Ruleset alive, so ids stay unique.
_TABLES_BY_ID: dict[int, tuple[Ruleset, _Tables]] = {}


def _tables(rules: Ruleset) -> _Tables:
    hit = _TABLES_BY_ID.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    tables = _build_tables(rules)
    if len(_TABLES_BY_ID) >= 256:
        _TABLES_BY_ID.clear()
    _TABLES_BY_ID[id(rules)] = (rules, tables)
    return tables


def _fast_path_source(plan: _Plan) -> str:
    """The fast path's source, unrolled over the plan: a table look-up per by-count token, a
    product per per-card token, a product per maki token. Only the layout comes from the kinds;
    every number is read from the ruleset's tables at call time."""
    bc = [f"b{t}" for t, _ in plan.by_count]
    pc = [f"p{t}" for t, _ in plan.per_card]
    ic = [f"i{t}" for t in plan.icons]

    def unpack(names: list[str], field: str) -> str:
        return f"    {', '.join(names)}, = tb.{field}\n" if names else ""

    def dish(column: int | None) -> str:
        terms = [f"b{t}[c[{t}]]" for t, k in plan.by_count if column is None or k == column]
        terms += [f"p{t} * c[{t}]" for t, k in plan.per_card if column is None or k == column]
        return " + ".join(terms) or "0"

    rolls = " + ".join(f"i{t} * c[{t}]" for t in plan.icons) or "0"
    head = "    tb = _tables(rules)\n" + unpack(bc, "by_count") + unpack(pc, "per_card")
    columns = ", ".join(dish(k) for k in range(len(DISH_CATEGORIES)))
    return (
        "def dish_points(c, rules=OFFICIAL):\n" + head + f"    return ({columns},)\n\n"
        "def maki_icons(c, rules=OFFICIAL):\n    tb = _tables(rules)\n" + unpack(ic, "icons")
        + f"    return {rolls}\n\n"
        "def round_totals(counts, rules=OFFICIAL):\n" + head + unpack(ic, "icons")
        + "    totals = []\n    icons = []\n"
        # one loop for both lists (two comprehensions cost two calls: about a third more for 2 seats)
        + f"    for c in counts:\n        totals.append({dish(None)})\n        icons.append({rolls})\n"
        + "    _add_maki(totals, icons, tb)\n    return totals\n\n"
        "def _columns_and_rolls(counts, rules):\n" + head + unpack(ic, "icons")
        + f"    return [({columns},) for c in counts], [{rolls} for c in counts]\n"
    )


def maki_points(icons: Sequence[int], rules: Ruleset = OFFICIAL) -> list[int]:
    """Maki points per player from their icon totals.

    Players with no icons never place (R-MAKI-ZERO). A tie for most pays the
    tied players by ``maki_first_tie`` and nobody places second
    (R-MAKI-TIE-FIRST); otherwise the next highest positive total places
    second, ties paid by ``maki_second_tie`` (R-MAKI-TIE-SECOND).
    """
    out = [0] * len(icons)
    _add_maki(out, icons, _tables(rules))
    return out


def _add_maki(totals: list[int], icons: Sequence[int], tb: _Tables) -> None:
    """Add each seat's maki points to ``totals`` (shares precomputed in ``tb``)."""
    if not icons:
        return
    ranked = sorted(icons)
    first = ranked[-1]
    if first <= 0:
        return
    if len(ranked) == 1 or ranked[-2] != first:
        # A lone leader; the next highest positive total (if any) places second.
        totals[icons.index(first)] += tb.first_share[1]
        second = ranked[-2] if len(ranked) > 1 else 0
        if second > 0:
            n_second = icons.count(second)
            if n_second == 1:
                totals[icons.index(second)] += tb.second_share[1]
            else:
                share = tb.second_share[n_second]
                for k, v in enumerate(icons):
                    if v == second:
                        totals[k] += share
        return
    share = tb.first_share[icons.count(first)]
    for k, v in enumerate(icons):
        if v == first:
            totals[k] += share


if TYPE_CHECKING:
    def dish_points(counts: Sequence[int], rules: Ruleset = OFFICIAL) -> tuple[int, ...]:
        """Dish points per column of :data:`DISH_CATEGORIES` of one tableau's token counts."""

    def maki_icons(counts: Sequence[int], rules: Ruleset = OFFICIAL) -> int:
        """Maki rolls of one tableau's token counts."""

    def round_totals(counts: Sequence[Sequence[int]], rules: Ruleset = OFFICIAL) -> list[int]:
        """Round totals from raw token-count vectors (the fast path the executor uses)."""

    def _columns_and_rolls(
        counts: Sequence[Sequence[int]], rules: Ruleset
    ) -> tuple[list[tuple[int, ...]], list[int]]:
        """Every seat's dish columns and maki rolls (score_round's part, the tables looked up once)."""
else:
    # The fast path, generated from the kinds' descriptions (a new kind needs no edit here) and
    # run in this module's namespace, so it looks _tables up here at call time (check's mutants
    # patch it); tests/test_kinds.py holds it to the general reading, category_points.
    exec(compile(_fast_path_source(_PLAN), f"<{__name__} fast path>", "exec"), globals())
    dish_points.__doc__ = "Dish points per column of DISH_CATEGORIES of one tableau's token counts."
    maki_icons.__doc__ = "Maki rolls of one tableau's token counts."
    round_totals.__doc__ = "Round totals from raw token-count vectors (the fast path the executor uses)."


def column_points(counts: Sequence[int], column: str, tables: _Tables) -> int:
    """One dish column's points of one tableau's token counts, read from ``tables`` (the
    slow, one-column form of :func:`dish_points`, for callers that plant faults in tables)."""
    k = DISH_CATEGORIES.index(column)
    return (sum(tables.by_count[j][counts[t]] for j, (t, c) in enumerate(_PLAN.by_count) if c == k)
            + sum(tables.per_card[j] * counts[t] for j, (t, c) in enumerate(_PLAN.per_card) if c == k))


def token_points(token: int, count: int, rules: Ruleset = OFFICIAL) -> int:
    """The dish points ``count`` of one token score by themselves (a stack: its nigiri times the
    wasabi multiplier), read from the ruleset's fast-path tables."""
    tb = _tables(rules)
    for j, (t, _) in enumerate(_PLAN.by_count):
        if t == token:
            return tb.by_count[j][count]
    for j, (t, _) in enumerate(_PLAN.per_card):
        if t == token:
            return tb.per_card[j] * count
    return 0


def by_count_index(label: str) -> int:
    """Where the token ``label``'s table by count sits in :attr:`_Tables.by_count`."""
    return next(j for j, (t, _) in enumerate(_PLAN.by_count) if _TOKENS[t].label == label)


def card_points_cap(rules: Ruleset) -> Fraction:
    """Most points one card can bring in a round's dishes, read from every kind's description: a
    set's points per card, the best count of a table per card, a per-card kind's points, and a
    stack's (a nigiri times the wasabi multiplier, over its two cards). The one score bound the
    solvers start from (:meth:`Ruleset.card_points_cap` is this)."""
    from fractions import Fraction  # lazy: with decimal, a tenth of 'sushigo score's start-up

    caps = [Fraction(0)]
    for kind in KINDS:
        s = kind.scoring
        if isinstance(s, Sets):
            caps.append(Fraction(int(resolve(s.points, rules)), int(resolve(s.size, rules))))
        elif isinstance(s, ByCount):
            table = resolve(s.table, rules)
            caps += [Fraction(s.score(k, rules), k) for k in range(1, len(table))]
        elif isinstance(s, PerCard):
            points = s.score(1, rules)
            caps.append(Fraction(points))
            if kind.role == "nigiri":
                caps.append(Fraction(points * int(rules.wasabi_multiplier), 2))
    return max(caps)


def score_round(tableaux: Sequence[Tableau], rules: Ruleset = OFFICIAL) -> list[RoundScore]:
    """Round score of every seat at the table (the dummy included, where there is one)."""
    dishes, icons = _columns_and_rolls([t.counts for t in tableaux], rules)
    maki = maki_points(icons, rules)  # by name: check's mutants patch it
    return [RoundScore(*d, m) for d, m in zip(dishes, maki, strict=True)]  # type: ignore[call-arg]


def category_points(
    counts: Sequence[Sequence[int]], rules: Ruleset = OFFICIAL, kinds: Sequence[CardKind] = KINDS
) -> list[dict[str, int]]:
    """Round points per category, and ``total``, of every seat, for any list of card kinds.

    Read straight from the kinds' scoring descriptions (:func:`spec.kinds.dish_points_of`),
    maki ranked by :func:`maki_points`. With the official kinds it equals :func:`score_round`
    (tests check it); it is how a new card kind is scored before any fast path knows it.
    """
    rows = [dish_points_of(c, rules, kinds) for c in counts]
    maki = maki_points([icons_of(c, rules, kinds) for c in counts], rules)
    for row, m in zip(rows, maki, strict=True):
        row["maki"] = m
        row["total"] = sum(row.values())
    return rows


def pudding_points(counts: Sequence[int], rules: Ruleset = OFFICIAL) -> list[int]:
    """End-of-game pudding points per seat from pudding counts.

    Most puddings share the bonus, remainder dropped (R-PUDDING-MOST). Fewest
    (players with none count) share the penalty, rounded by
    ``pudding_penalty_rounding`` (R-PUDDING-SPLIT), paid only with more than
    two seats unless ``pudding_penalty_2p`` (R-PUDDING-2P). When everyone is
    tied, ``pudding_all_tied`` decides (R-PUDDING-ALL-TIED).
    """
    n = len(counts)
    out = [0] * n
    if n == 0:
        return out
    hi, lo = max(counts), min(counts)
    if hi == lo and rules.all_tied_score_nothing:
        return out
    most = [k for k, v in enumerate(counts) if v == hi]
    bonus = rules.pudding_most_points // len(most)
    for k in most:
        out[k] += bonus
    if rules.pudding_penalty_applies(n):
        fewest = [k for k, v in enumerate(counts) if v == lo]
        loss = rules.penalty_share(len(fewest))
        for k in fewest:
            out[k] += loss
    return out


def winners(
    totals: Sequence[int], puddings: Sequence[int], rules: Ruleset = OFFICIAL, players: int | None = None
) -> list[int]:
    """Winning seats: most points, then most puddings, then ``winner_tie`` (R-WINNER-TIE).

    Only the first ``players`` seats can win (the dummy of ``dummy_2p`` cannot).
    """
    seats = range(len(totals) if players is None else players)
    if not seats:
        return []
    best = max(totals[k] for k in seats)
    tied = [k for k in seats if totals[k] == best]
    if len(tied) > 1:
        most = max(puddings[k] for k in tied)
        tied = [k for k in tied if puddings[k] == most]
    if len(tied) > 1 and not rules.tied_winners_share:
        return []
    return tied


@frozen
class GameScore:
    rounds: tuple[tuple[RoundScore, ...], ...]
    puddings: tuple[int, ...]  # pudding cards per seat over all rounds given
    pudding: tuple[int, ...] | None  # pudding points, only when every round was played
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    def as_json(self) -> dict[str, object]:
        return {
            "rounds": [[s.as_dict() for s in r] for r in self.rounds],
            "pudding": list(self.pudding) if self.pudding is not None else None,
            "totals": list(self.totals),
            "winners": list(self.winners),
        }


def score_game(
    rounds: Sequence[Sequence[Tableau]], rules: Ruleset = OFFICIAL, players: int | None = None
) -> GameScore:
    """Score 1..rounds rounds; puddings are scored once every round is given.

    ``players`` is the number of seats that can win (defaults to all seats, or
    all but the last in ``dummy_2p``).
    """
    seats = len(rounds[0]) if rounds else 0
    if players is None:
        players = seats - 1 if rules.dummy_2p and seats == 3 else seats
    scored = tuple(tuple(score_round(r, rules)) for r in rounds)
    puddings = tuple(sum(r[k].counts[_PUD] for r in rounds) for k in range(seats))
    pud = tuple(pudding_points(puddings, rules)) if len(rounds) == rules.rounds else None
    totals = tuple(
        sum(r[k].total for r in scored) + (pud[k] if pud is not None else 0) for k in range(seats)
    )
    return GameScore(scored, puddings, pud, totals, tuple(winners(totals, puddings, rules, players)))
