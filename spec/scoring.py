"""Pure scoring functions: rounds, puddings, game totals and winners.

Everything is computed from token counts and the :class:`Ruleset`; nothing
here does I/O. The per-ruleset point tables are precomputed once
(:func:`_tables`), so scoring a tableau is a handful of tuple look-ups.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from spec.cards import Card, Token
from spec.ruleset import OFFICIAL, Ruleset
from spec.tableau import Tableau

CATEGORIES: tuple[str, ...] = ("tempura", "sashimi", "dumpling", "nigiri", "maki")

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


@lru_cache(maxsize=64)
def _tables(rules: Ruleset) -> _Tables:
    n = range(_TABLE_LEN)
    return _Tables(
        tempura=tuple((k // rules.tempura_set) * rules.tempura_points for k in n),
        sashimi=tuple((k // rules.sashimi_set) * rules.sashimi_points for k in n),
        dumpling=tuple(rules.dumpling_score(k) for k in n),
        nigiri=rules.nigiri_points,
        stacked=(
            rules.nigiri_points[0] * rules.wasabi_multiplier,
            rules.nigiri_points[1] * rules.wasabi_multiplier,
            rules.nigiri_points[2] * rules.wasabi_multiplier,
        ),
        icons=rules.maki_icons,
    )


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
    first = max(icons, default=0)
    if first <= 0:
        return out
    top = [k for k, v in enumerate(icons) if v == first]
    if len(top) > 1:
        pts = rules.maki_first_points
        if rules.maki_first_tie == "split":
            share = pts // len(top)
        elif rules.maki_first_tie == "each":
            share = pts
        else:  # "half": the Dutch text pays half the first-place points to each tied player
            share = pts // 2
        for k in top:
            out[k] = share
        return out
    out[top[0]] = rules.maki_first_points
    second = max((v for v in icons if 0 < v < first), default=0)
    if second <= 0:
        return out
    seconds = [k for k, v in enumerate(icons) if v == second]
    pts = rules.maki_second_points
    share = pts // len(seconds) if rules.maki_second_tie == "split" else pts
    for k in seconds:
        out[k] = share
    return out


def score_round(tableaux: Sequence[Tableau], rules: Ruleset = OFFICIAL) -> list[RoundScore]:
    """Round score of every seat at the table (the dummy included, where there is one)."""
    dishes = [dish_points(t.counts, rules) for t in tableaux]
    maki = maki_points([maki_icons(t.counts, rules) for t in tableaux], rules)
    return [RoundScore(d[0], d[1], d[2], d[3], m) for d, m in zip(dishes, maki, strict=True)]


def round_totals(counts: Sequence[Sequence[int]], rules: Ruleset = OFFICIAL) -> list[int]:
    """Round totals from raw token-count vectors (the fast path the executor uses)."""
    tb = _tables(rules)
    tem, sas, dum, nig, stk, ic = tb.tempura, tb.sashimi, tb.dumpling, tb.nigiri, tb.stacked, tb.icons
    totals = []
    icons = []
    for c in counts:
        totals.append(
            tem[c[_T]] + sas[c[_S]] + dum[c[_D]]
            + nig[0] * c[_E] + nig[1] * c[_SA] + nig[2] * c[_SQ]
            + stk[0] * c[_WE] + stk[1] * c[_WSA] + stk[2] * c[_WSQ]
        )
        icons.append(ic[0] * c[_M1] + ic[1] * c[_M2] + ic[2] * c[_M3])
    for k, m in enumerate(maki_points(icons, rules)):
        totals[k] += m
    return totals


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
    if hi == lo and rules.pudding_all_tied == "nobody":
        return out
    most = [k for k, v in enumerate(counts) if v == hi]
    bonus = rules.pudding_most_points // len(most)
    for k in most:
        out[k] += bonus
    if rules.pudding_penalty_applies(n):
        fewest = [k for k, v in enumerate(counts) if v == lo]
        pen = rules.pudding_fewest_penalty
        if rules.pudding_penalty_rounding == "toward-zero":
            loss = -(pen // len(fewest))
        else:
            loss = (-pen) // len(fewest)
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
    if len(tied) > 1 and rules.winner_tie == "none":
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
