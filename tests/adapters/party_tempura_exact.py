"""A Party scorer with [BRI]'s tempura: pairs score only when the count is an exact multiple of two
(RB p11: 5 a pair, a leftover card scores nothing). Everything else is the correct scorer's."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import party_good as good


def tempura(n: int) -> int:
    return 5 * (n // 2) if n % 2 == 0 else 0


good.tempura = tempura
score_party_round = good.score_party_round
score_party_desserts = good.score_party_desserts
