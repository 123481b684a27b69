"""Two independent faults in one Party scorer: [MLY]'s maki places (6 / 4 / 2 at every player
count) and [RYS]'s eel (two or more score 5, RB p10: 7); and a reading other than the
reference's: everyone tied on temaki scores nothing ([MLY]; the reference: +4 and -4)."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import party_good as good

good.MAKI_SMALL = good.MAKI_LARGE


def eel(n: int) -> int:
    return 0 if n == 0 else -3 if n == 1 else 5


def temaki(counts: list[int]) -> list[int]:
    if len(set(counts)) == 1:
        return [0] * len(counts)
    most, fewest = max(counts), min(counts)
    return [(4 if n == most else 0) - (4 if n == fewest and len(counts) > 2 else 0) for n in counts]


good.eel = eel
good.temaki = temaki
score_party_round = good.score_party_round
