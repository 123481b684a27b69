"""Pure scoring functions: rounds, puddings, game totals and winners.

Everything is computed from token counts and the :class:`Ruleset`; nothing
here does I/O. The per-ruleset point tables are precomputed once
(:func:`_tables`), so scoring a tableau is a handful of tuple look-ups.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sushigo.spec.cards import MAKI, NIGIRI, Card, Token
from sushigo.spec.kinds import KINDS, ByCount, CardKind, Sets, categories_of, dish_points_of, icons_of
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.tableau import Tableau

#: The round's scoring columns, from the card kinds' definitions (:mod:`spec.kinds`).
CATEGORIES: tuple[str, ...] = categories_of(KINDS)

# The fast path (RoundScore, _Tables, dish_points, round_totals) is the official kinds'
# descriptions precomputed and unrolled; a kind it does not know must not be scored as 0.
if CATEGORIES != ("tempura", "sashimi", "dumpling", "nigiri", "maki") or (len(NIGIRI), len(MAKI)) != (3, 3):
    raise ImportError(
        f"spec.scoring's fast path scores tempura, sashimi, dumpling, 3 nigiri and 3 maki, but spec.kinds "
        f"now gives categories {CATEGORIES}: add the new kind to RoundScore, _build_tables, dish_points and "
        "round_totals (docs/extending.md)"
    )

_T, _S, _D = int(Token.TEMPURA), int(Token.SASHIMI), int(Token.DUMPLING)
_M1, _M2, _M3 = int(Token.MAKI1), int(Token.MAKI2), int(Token.MAKI3)
_E, _SA, _SQ = int(Token.EGG), int(Token.SALMON), int(Token.SQUID)
_WE, _WSA, _WSQ = int(Token.WASABI_EGG), int(Token.WASABI_SALMON), int(Token.WASABI_SQUID)
_PUD = int(Token.PUDDING)
_PUD_CARD = int(Card.PUDDING)

# Large enough for any count a deck allows (14 copies at most, 15 tokens).
_TABLE_LEN = 64


@dataclass(frozen=True)
class RoundScore:
    tempura: int
    sashimi: int
    dumpling: int
    nigiri: int
    maki: int

    @property
    def total(self) -> int:
        return self.tempura + self.sashimi + self.dumpling + self.nigiri + self.maki

    def as_dict(self) -> dict[str, int]:
        return {
            "tempura": self.tempura,
            "sashimi": self.sashimi,
            "dumpling": self.dumpling,
            "nigiri": self.nigiri,
            "maki": self.maki,
            "total": self.total,
        }


@dataclass(frozen=True)
class _Tables:
    tempura: tuple[int, ...]
    sashimi: tuple[int, ...]
    dumpling: tuple[int, ...]
    nigiri: tuple[int, int, int]
    stacked: tuple[int, int, int]
    icons: tuple[int, int, int]
    # Maki shares by number of players tied (index 0 unused): a tie for first pays
    # first_share[n] each (and nobody places second); a tie for second pays second_share[n].
    first_share: tuple[int, ...]
    second_share: tuple[int, ...]


def _build_tables(rules: Ruleset) -> _Tables:
    n = range(_TABLE_LEN)
    first, second = rules.maki_first_points, rules.maki_second_points
    first_share = tuple(rules.maki_share(True, k) for k in n)
    second_share = tuple(rules.maki_share(False, k) for k in n)
    # The fast path below is the official kinds' descriptions precomputed: a table by count
    # for each kind scored by its count (sets, tables), per-card points for the nigiri.
    by_count = {k.category: tuple(k.scoring.score(c, rules) for c in n)
                for k in KINDS if isinstance(k.scoring, (Sets, ByCount))}
    nigiri = tuple(KINDS[c].scoring.score(1, rules) for c in NIGIRI)
    return _Tables(
        tempura=by_count["tempura"],
        sashimi=by_count["sashimi"],
        dumpling=by_count["dumpling"],
        nigiri=(nigiri[0], nigiri[1], nigiri[2]),
        stacked=(
            nigiri[0] * rules.wasabi_multiplier,
            nigiri[1] * rules.wasabi_multiplier,
            nigiri[2] * rules.wasabi_multiplier,
        ),
        icons=(KINDS[MAKI[0]].scoring.score(1, rules), KINDS[MAKI[1]].scoring.score(1, rules),
               KINDS[MAKI[2]].scoring.score(1, rules)),
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


def dish_points(counts: Sequence[int], rules: Ruleset = OFFICIAL) -> tuple[int, int, int, int]:
    """(tempura, sashimi, dumpling, nigiri) points of one tableau's token counts."""
    tb = _tables(rules)
    nig, stk = tb.nigiri, tb.stacked
    return (
        tb.tempura[counts[_T]],
        tb.sashimi[counts[_S]],
        tb.dumpling[counts[_D]],
        nig[0] * counts[_E] + nig[1] * counts[_SA] + nig[2] * counts[_SQ]
        + stk[0] * counts[_WE] + stk[1] * counts[_WSA] + stk[2] * counts[_WSQ],
    )


def maki_icons(counts: Sequence[int], rules: Ruleset = OFFICIAL) -> int:
    ic = rules.maki_icons
    return ic[0] * counts[_M1] + ic[1] * counts[_M2] + ic[2] * counts[_M3]


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


def score_round(tableaux: Sequence[Tableau], rules: Ruleset = OFFICIAL) -> list[RoundScore]:
    """Round score of every seat at the table (the dummy included, where there is one)."""
    dishes = [dish_points(t.counts, rules) for t in tableaux]
    maki = maki_points([maki_icons(t.counts, rules) for t in tableaux], rules)
    return [RoundScore(d[0], d[1], d[2], d[3], m) for d, m in zip(dishes, maki, strict=True)]


def round_totals(counts: Sequence[Sequence[int]], rules: Ruleset = OFFICIAL) -> list[int]:
    """Round totals from raw token-count vectors (the fast path the executor uses)."""
    tb = _tables(rules)
    tem, sas, dum = tb.tempura, tb.sashimi, tb.dumpling
    e, sa, sq = tb.nigiri
    we, wsa, wsq = tb.stacked
    i1, i2, i3 = tb.icons
    # one loop for both lists (two comprehensions cost two calls: about a third more for 2 seats)
    totals: list[int] = []
    icons: list[int] = []
    for c in counts:
        totals.append(
            tem[c[_T]] + sas[c[_S]] + dum[c[_D]]
            + e * c[_E] + sa * c[_SA] + sq * c[_SQ] + we * c[_WE] + wsa * c[_WSA] + wsq * c[_WSQ]
        )
        icons.append(i1 * c[_M1] + i2 * c[_M2] + i3 * c[_M3])
    _add_maki(totals, icons, tb)
    return totals


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


@dataclass(frozen=True)
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
