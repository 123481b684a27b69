"""Game statistics and the replay view live in the library (issue 13 item 5), checked against
plain recomputation from the games' records."""

from __future__ import annotations

import statistics
from pathlib import Path

from sushigo.solver.search import hindsight_from_record, replay_round, seat_view
from sushigo.spec.executor import play_game
from sushigo.spec.ruleset import OFFICIAL
from sushigo.spec.stats import summarise

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_summarise_matches_the_records() -> None:
    policies = ["greedy", "random", "random"]
    records = [play_game(3, s, OFFICIAL, policies) for s in range(10, 22)]
    seen: list[tuple[int, float]] = []
    out = summarise(3, 10, 12, OFFICIAL, policies, on_game=lambda k, t: seen.append((k, t)))
    assert [k for k, _ in seen] == list(range(1, 13))
    for s in range(3):
        xs = [r.totals[s] for r in records]
        row = out["seats"][s]
        assert row["mean"] == statistics.fmean(xs) and row["min"] == min(xs) and row["max"] == max(xs)
        share = sum(1 / len(r.winners) for r in records if s in r.winners) / 12
        assert abs(row["win_share"] - share) < 1e-12
    assert out["games_without_winner"] == sum(1 for r in records if not r.winners)
    greedy = out["by_policy"][0]
    assert greedy["policy"] == "greedy" and greedy["seats"] == [0]


def test_seat_view_ends_at_the_replayed_score() -> None:
    import json

    data = json.loads((EXAMPLES / "record-3p.json").read_text())
    h = hindsight_from_record(data, 1, 1, OFFICIAL)
    hands, running = seat_view(h, h.picks[h.seat])
    _tabs, totals = replay_round(h, h.picks[h.seat])
    assert running[-1] == totals[h.seat]
    assert len(hands) == len(running) == len(h.picks[h.seat])
    assert sorted(hands[0]) == sorted(h.deal[h.pile_at(h.seat, 0)])
    assert [sum(hand) for hand in hands] == list(range(sum(hands[0]), sum(hands[0]) - len(hands), -1))
