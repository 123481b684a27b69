"""A Party scorer with [MLY]'s maki places: 6 / 4 / 2 at every player count (RB p8: 6 / 3 with
2-5 players). Everything else is the correct scorer's."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import party_good as good

good.MAKI_SMALL = good.MAKI_LARGE
score_party_round = good.score_party_round
score_party_desserts = good.score_party_desserts
