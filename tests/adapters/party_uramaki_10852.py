"""A Party scorer with [BRI]'s uramaki places: 10 / 8 / 5 / 2 (RB p9: 8 / 5 / 2). Everything else
is the correct scorer's."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import party_good as good

good.URAMAKI = (10, 8, 5, 2)
score_party_round = good.score_party_round
score_party_desserts = good.score_party_desserts
