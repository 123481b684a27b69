"""Two independent faults in round scoring (issue 16): players with no maki icons still place,
and six or more dumplings keep growing by the triangle numbers (6 score 21, not 15)."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _good import good


def dumplings(n: int) -> int:
    return n * (n + 1) // 2  # 1, 3, 6, 10, 15, then 21, 28, ...: the table is never capped


def maki(icons: list[int]) -> list[int]:
    # Players are ranked on every total, zero included: with no maki at all everyone ties for first.
    out = [0] * len(icons)
    first = max(icons)
    top = [p for p, n in enumerate(icons) if n == first]
    for p in top:
        out[p] = good.MAKI_FIRST // len(top)
    if len(top) > 1:
        return out
    rest = [n for n in icons if n < first]
    if rest:
        second = max(rest)
        runners = [p for p, n in enumerate(icons) if n == second]
        for p in runners:
            out[p] = good.MAKI_SECOND // len(runners)
    return out


def dishes(cards: list[str]) -> int:
    n = cards.count("dumpling")
    return good._dishes([c for c in cards if c != "dumpling"]) + dumplings(n)


def score_round(tableaux: list[list[str]]) -> list[int]:
    icons = [sum(good.MAKI_ICONS.get(c, 0) for c in cards) for cards in tableaux]
    return [dishes(cards) + m for cards, m in zip(tableaux, maki(icons), strict=True)]


score_puddings = good.score_puddings
