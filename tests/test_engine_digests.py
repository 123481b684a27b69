"""The one step engine plays exactly the games the two old engines played.

tests/engine_digests.json was written by tests/make_engine_digests.py on main (commit in the
file) before spec.step and spec.game.Game became one engine: digests of play_game's records,
of every spec.step position and option list, of every Game position, option list, observation
and error message, and of fast_random_games, for every named ruleset and player count. Here the
same drivers run on today's code; a changed deal, option order, pick, tableau, score, record or
error message changes a digest.
"""

from __future__ import annotations

import json
from pathlib import Path

import make_engine_digests as recorded
import pytest

DATA = json.loads(Path(__file__).with_name("engine_digests.json").read_text())
KEYS = sorted(DATA["digests"])


def test_the_recorded_file_covers_every_driver_ruleset_and_player_count() -> None:
    assert DATA["seeds"] == [recorded.SEEDS.start, recorded.SEEDS.stop]
    assert set(KEYS) == {
        f"{driver} {name} {players}"
        for driver in recorded.DRIVERS
        for name in recorded.RULESETS
        for players in recorded.player_counts(name)
    }


@pytest.mark.parametrize("key", KEYS)
def test_same_games_as_before_the_engines_merged(key: str) -> None:
    driver, name, players = key.split()
    got = recorded.digest(recorded.DRIVERS[driver](name, int(players)))
    assert got == DATA["digests"][key], f"{key}: the games differ from main's {DATA['commit'][:10]}"
