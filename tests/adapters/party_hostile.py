"""A Party adapter that misbehaves: it prints, raises on onigiri, answers the wrong length on eel,
and hangs on a tofu round."""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import party_good as good


def score_party_round(case):  # type: ignore[no-untyped-def]
    text = str(case.get("tableaux") or case.get("turns"))
    if "onigiri" in text:
        raise KeyError("onigiri")
    if "'eel" in text:
        return [0]
    if "tofu" in text:
        time.sleep(60)
    if "sashimi" in text:
        print("debug: sashimi")
    return good.score_party_round(case)
