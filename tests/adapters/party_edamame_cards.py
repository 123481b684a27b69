"""A Party scorer with [RYS]'s edamame: 1 a card per edamame card the opponents hold (RB p10: per
opponent holding any), at most 4 a card. Everything else is the correct scorer's."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import party_good as good


def edamame(counts: list[int]) -> list[int]:
    total = sum(counts)
    return [n * min(total - n, 4) for n in counts]


good.edamame = edamame
score_party_round = good.score_party_round
score_party_desserts = good.score_party_desserts
