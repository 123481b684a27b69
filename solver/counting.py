"""Exact tableau counts by score, without listing a tableau (``sushigo tableaux --count``).

Same semantics as :mod:`solver.tableaux` (issue 5, pinned): the tableaux are
the multisets of the 15 tokens holding exactly K cards (a stack counts as 2),
within the deck's copies and the filters' per-token bounds, and their score is
the dish points plus the given maki points M; M > 0 needs at least one maki
icon. Every rule number is read from the :class:`Ruleset`.

The count is a product of generating functions over three independent groups,
each a map from cards used to a polynomial in points (a dict points -> ways):

* dishes scored by count alone: tempura, sashimi, dumpling (one token each);
* the wasabi group: per nigiri kind, lone copies and stacks share the nigiri's
  copies; the stacks and the lone wasabi share the wasabi copies, so this group
  carries the wasabi used as one more index until the lone wasabi are added;
* fillers that score nothing by themselves (maki rolls, whose points are M,
  pudding, chopsticks): a number of ways per size, with or without an icon.

The groups meet on size only (the sizes add up to K), so the product is a sum
over size splits of point convolutions: every score at once, in milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterable

from sushigo.solver.tableaux import Filters, check_question
from sushigo.spec.cards import MAKI, NIGIRI, STACK_OF, Card, Token
from sushigo.spec.kinds import KINDS
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.scoring import token_points

Poly = dict[int, int]  # points -> number of ways
BySize = list[Poly]  # index: cards used

_FILLER_NO_ICON = (Token.PUDDING, Token.CHOPSTICKS)


def _span(lo: tuple[int, ...], hi: tuple[int, ...], token: Token, cards: int) -> range:
    """The counts a token may take: its filter bounds, the deck, and the room in K cards."""
    return range(lo[int(token)], min(hi[int(token)], cards // token.size) + 1)


def _times_token(table: BySize, counts: Iterable[tuple[int, int]], cards: int) -> BySize:
    """Multiply by one token's choices, given as (cards it uses, points it scores)."""
    out: BySize = [{} for _ in range(cards + 1)]
    choices = list(counts)
    for size, poly in enumerate(table):
        if not poly:
            continue
        for used, pts in choices:
            s = size + used
            if s > cards:
                continue
            dest = out[s]
            for p, n in poly.items():
                dest[p + pts] = dest.get(p + pts, 0) + n
    return out


def _dishes(rules: Ruleset, lo: tuple[int, ...], hi: tuple[int, ...], cards: int) -> BySize:
    """Kinds scored by their own count and never on a wasabi (tempura, sashimi, dumplings:
    R-TEMPURA, R-SASHIMI, R-DUMPLING), points by count from each kind's definition."""
    table: BySize = [{0: 1}] + [{} for _ in range(cards)]
    for i, kind in enumerate(KINDS):
        if kind.dish and kind.role != "nigiri":
            spans = _span(lo, hi, Token(i), cards)
            table = _times_token(table, ((n, kind.scoring.score(n, rules)) for n in spans), cards)
    return table


def _wasabi_group(rules: Ruleset, lo: tuple[int, ...], hi: tuple[int, ...], cards: int) -> BySize:
    """Nigiri, stacks and lone wasabi (R-NIGIRI, R-WASABI-ONE): the cards they share bound them together."""
    wasabi_copies = rules.copies(Card.WASABI)
    # (cards used, wasabi used) -> points -> ways
    table: dict[tuple[int, int], Poly] = {(0, 0): {0: 1}}
    for nigiri in NIGIRI:
        plain, stack = Token(int(nigiri)), STACK_OF[nigiri]
        choices = [
            (n + 2 * s, s, token_points(int(plain), n, rules) + token_points(int(stack), s, rules))
            for s in _span(lo, hi, stack, cards)
            for n in _span(lo, hi, plain, cards)
            if n + s <= rules.copies(nigiri)
        ]
        nxt: dict[tuple[int, int], Poly] = {}
        for (size, wasabi), poly in table.items():
            for used, stacks, pts in choices:
                key = (size + used, wasabi + stacks)
                if key[0] > cards or key[1] > wasabi_copies:
                    continue
                dest = nxt.setdefault(key, {})
                for q, n in poly.items():
                    dest[q + pts] = dest.get(q + pts, 0) + n
        table = nxt
    out: BySize = [{} for _ in range(cards + 1)]
    lone = _span(lo, hi, Token.WASABI, cards)
    for (size, wasabi), poly in table.items():
        for w in lone:
            if size + w > cards or wasabi + w > wasabi_copies:
                break
            dest = out[size + w]
            for q, n in poly.items():
                dest[q] = dest.get(q, 0) + n
    return out


def _fillers(rules: Ruleset, lo: tuple[int, ...], hi: tuple[int, ...], cards: int,
             need_icon: bool) -> list[int]:
    """Ways to fill each size with maki rolls, pudding and chopsticks (they score nothing here);
    with ``need_icon``, only fillings holding at least one maki icon (R-MAKI-ZERO)."""

    def ways(tokens: Iterable[tuple[Token, range]]) -> list[int]:
        table = [1] + [0] * cards
        for _, span in tokens:
            nxt = [0] * (cards + 1)
            for size, n in enumerate(table):
                if n:
                    for k in span:
                        if size + k > cards:
                            break
                        nxt[size + k] += n
            table = nxt
        return table

    maki = [(Token(int(m)), _span(lo, hi, Token(int(m)), cards)) for m in MAKI]
    rest = [(t, _span(lo, hi, t, cards)) for t in _FILLER_NO_ICON]
    every = ways(maki + rest)
    if not need_icon:
        return every
    # Fillings without an icon: every maki kind that carries icons held at zero (if its bound allows).
    iconless = [(t, span if rules.maki_icons[i] == 0 else range(0, 1 if span.start == 0 else 0))
                for i, (t, span) in enumerate(maki)]
    none = ways(iconless + rest)
    return [a - b for a, b in zip(every, none, strict=True)]


def score_counts(cards: int, maki_points: int = 0, rules: Ruleset = OFFICIAL,
                 filters: Filters | None = None) -> dict[int, int]:
    """Number of tableaux of ``cards`` cards per round score (only scores some tableau reaches)."""
    check_question(cards, maki_points)
    lo, hi = (filters or Filters()).bounds(rules)
    dishes = _dishes(rules, lo, hi, cards)
    fill = _fillers(rules, lo, hi, cards, maki_points > 0)
    # Dishes and fillers first (fillers add no points: a weighted sum over sizes), then the wasabi group.
    base: BySize = [{} for _ in range(cards + 1)]
    for size, poly in enumerate(dishes):
        for extra in range(cards - size + 1):
            ways = fill[extra]
            if ways and poly:
                dest = base[size + extra]
                for p, n in poly.items():
                    dest[p] = dest.get(p, 0) + n * ways
    out: dict[int, int] = {}
    for size, group in enumerate(_wasabi_group(rules, lo, hi, cards)):
        other = base[cards - size]
        for q, n in group.items():
            for p, m in other.items():
                score = p + q + maki_points
                out[score] = out.get(score, 0) + n * m
    return {s: n for s, n in sorted(out.items()) if n}


def count_score(score: int, cards: int, maki_points: int = 0, rules: Ruleset = OFFICIAL,
                filters: Filters | None = None) -> int:
    """Number of tableaux of ``cards`` cards scoring exactly ``score``."""
    return score_counts(cards, maki_points, rules, filters).get(score, 0)
