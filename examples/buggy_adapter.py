"""A deliberately buggy adapter: pitfalls seen in public Sushi Go engines, for ``sushigo conform``'s tests.

    sushigo conform examples/buggy_adapter.py     # exit 1, each bug reported once, minimised

Bugs planted on top of the correct example adapter:

* the pudding penalty is split with Python's floor division (``-6 // 4 == -2``);
* second place in maki is still paid when first place is tied;
* nigiri are tripled by any wasabi in the tableau, taken before or after them;
* everyone tied on puddings still gets the bonus.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import conform_adapter as good


def _dishes(cards: list[str]) -> int:
    # Bug: wasabi counted as a multiset, so a later wasabi also triples an earlier nigiri.
    plain = [c for c in cards if c not in ("wasabi", *good.NIGIRI_POINTS)]
    nigiri = sorted((good.NIGIRI_POINTS[c] for c in cards if c in good.NIGIRI_POINTS), reverse=True)
    wasabi = cards.count("wasabi")
    boosted = sum(v * good.WASABI_FACTOR for v in nigiri[:wasabi]) + sum(nigiri[wasabi:])
    return good._dishes(plain) + boosted


def _maki(icons: list[int]) -> list[int]:
    out = good._maki(icons)
    first = max(icons)
    top = [p for p, n in enumerate(icons) if n == first]
    if first and len(top) > 1:
        # Bug: second place paid after a tie for first.
        second = max((n for n in icons if 0 < n < first), default=0)
        for p, n in enumerate(icons):
            if second and n == second:
                out[p] = good.MAKI_SECOND
    return out


def score_round(tableaux: list[list[str]]) -> list[int]:
    icons = [sum(good.MAKI_ICONS.get(c, 0) for c in cards) for cards in tableaux]
    return [_dishes(cards) + m for cards, m in zip(tableaux, _maki(icons), strict=True)]


def score_puddings(counts: list[int]) -> list[int]:
    out = [0] * len(counts)
    most, fewest = max(counts), min(counts)
    top = [p for p, n in enumerate(counts) if n == most]
    for p in top:
        out[p] += good.PUDDING_MOST // len(top)  # Bug: paid even when everyone is tied
    if len(counts) > 2:
        low = [p for p, n in enumerate(counts) if n == fewest]
        for p in low:
            out[p] += -good.PUDDING_FEWEST // len(low)  # Bug: floor division of a negative number
    return out
