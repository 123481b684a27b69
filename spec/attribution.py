"""Which card kinds brought a player's points: a game's score split over the card kinds.

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

from sushigo.spec.cards import STACK_OF, TOKEN_CARDS, Card, Token
from sushigo.spec.kinds import KINDS as CARD_KINDS
from sushigo.spec.kinds import Icons
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import maki_icons, maki_points, pudding_points, token_points

__all__ = ["KINDS", "card_counts", "game_attribution", "round_attribution"]

KINDS: tuple[Card, ...] = tuple(Card)
_WASABI = next(i for i, k in enumerate(CARD_KINDS) if k.role == "wasabi")
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
        row: Points = [0] * _N
        for card, kind in enumerate(CARD_KINDS):
            if kind.role == "nigiri":
                # The card's face value (R-NIGIRI), on a wasabi or not; the stack's gain is the wasabi's.
                stack = int(STACK_OF[Card(card)])
                face = kind.scoring.score(1, rules)
                row[card] = face * (c[card] + c[stack])
                row[_WASABI] += token_points(stack, c[stack], rules) - face * c[stack]
            elif kind.dish:
                row[card] = token_points(card, c[card], rules)
            elif seat_maki and isinstance(kind.scoring, Icons):
                row[card] = Fraction(seat_maki * kind.scoring.score(c[card], rules), seat_icons)
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
