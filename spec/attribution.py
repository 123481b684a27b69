"""Which card kinds brought a player's points: a game's score split over the 12 card kinds.

The rule of attribution (``sushigo balance`` and docs/designing.md state it for readers):

* tempura, sashimi, dumplings: the set's points belong to the kind (a lone tempura brings 0);
* nigiri: each nigiri brings its face value (R-NIGIRI), whether or not it lies on a wasabi;
* wasabi: the extra points of the nigiri lying on it (the multiplier's gain, part of R-NIGIRI); an
  unused wasabi brings 0;
* maki: a player's maki placement points are spread over their maki icons, so a maki3 card
  brings three times what a maki1 card brings (fractions are kept exact);
* pudding: a player's pudding points (bonus or penalty) belong to the kind, even for a player
  who holds no pudding (the penalty is pudding scoring);
* chopsticks: 0 (what they win shows up in the other cards).

Every number is read through :mod:`spec.scoring` and the :class:`Ruleset`, so the split follows
any ruleset; the attributed points of a seat add up to its total exactly (a test holds it).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from sushigo.spec.cards import MAKI, NIGIRI, STACK_OF, TOKEN_CARDS, Card, Token
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import dish_points, maki_icons, maki_points, pudding_points

__all__ = ["KINDS", "card_counts", "game_attribution", "round_attribution"]

KINDS: tuple[Card, ...] = tuple(Card)
_N = len(KINDS)
Points = list[int | Fraction]  # per card kind, indexed by Card


def card_counts(counts: Sequence[int]) -> list[int]:
    """Cards of each kind in a tableau's token counts (a wasabi stack is a wasabi and a nigiri)."""
    out = [0] * _N
    for token, n in enumerate(counts):
        if n:
            for card in TOKEN_CARDS[Token(token)]:
                out[card] += n
    return out


def round_attribution(counts: Sequence[Sequence[int]], rules: Ruleset) -> list[Points]:
    """Per seat, per card kind: the round points that kind's cards brought (see the module)."""
    icons = [maki_icons(c, rules) for c in counts]
    maki = maki_points(icons, rules)
    out: list[Points] = []
    for c, seat_icons, seat_maki in zip(counts, icons, maki, strict=True):
        tempura, sashimi, dumpling, nigiri = dish_points(c, rules)
        row: Points = [0] * _N
        row[Card.TEMPURA], row[Card.SASHIMI], row[Card.DUMPLING] = tempura, sashimi, dumpling
        face = 0
        for k, card in enumerate(NIGIRI):
            value = rules.nigiri_points[k] * (c[card] + c[STACK_OF[card]])
            row[card] = value
            face += value
        row[Card.WASABI] = nigiri - face
        if seat_maki:
            for k, card in enumerate(MAKI):
                row[card] = Fraction(seat_maki * rules.maki_icons[k] * c[card], seat_icons)
        out.append(row)
    return out


def game_attribution(
    rounds: Sequence[Sequence[Sequence[int]]], rules: Ruleset, puddings: Sequence[int] | None = None
) -> list[Points]:
    """Per seat, per card kind: the game points (every round, then puddings) each kind brought.

    ``rounds`` holds per round the token counts of every seat; ``puddings`` the pudding cards per
    seat over the game (counted from the tableaux when not given)."""
    seats = len(rounds[0])
    out: list[Points] = [[0] * _N for _ in range(seats)]
    for rnd in rounds:
        for total, row in zip(out, round_attribution(rnd, rules), strict=True):
            for k in range(_N):
                total[k] += row[k]
    if puddings is None:
        puddings = [sum(rnd[s][Token.PUDDING] for rnd in rounds) for s in range(seats)]
    for total, points in zip(out, pudding_points(puddings, rules), strict=True):
        total[Card.PUDDING] += points
    return out
