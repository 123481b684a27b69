"""A fault only the round's sum shows: each category alone scores right, but a seat holding cards
of two scoring categories or more gets one point more (a bonus no rule has)."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _good import good


def score_round(tableaux: list[list[str]]) -> list[int]:
    base = good.score_round(tableaux)
    kinds = [{_KIND[c] for c in cards if c in _KIND} for cards in tableaux]
    return [v + (len(k) > 1) for v, k in zip(base, kinds, strict=True)]


_KIND = {"tempura": "tempura", "sashimi": "sashimi", "dumpling": "dumpling", "maki1": "maki", "maki2": "maki",
         "maki3": "maki", "egg": "nigiri", "salmon": "nigiri", "squid": "nigiri"}
