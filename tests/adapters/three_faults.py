"""Three independent faults, one per category: dumplings past five (21 for six), no maki icons
still place, and the fewest-pudding penalty paid in a 2-player game."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import two_faults
from _good import good

score_round = two_faults.score_round


def score_puddings(counts: list[int]) -> list[int]:
    out = good.score_puddings(counts)
    most, fewest = max(counts), min(counts)
    if len(counts) == 2 and most != fewest:
        low = [p for p, n in enumerate(counts) if n == fewest]
        for p in low:
            out[p] -= good.PUDDING_FEWEST // len(low)  # the penalty applied with two players too
    return out
