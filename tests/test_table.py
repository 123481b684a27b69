"""``sushigo table``: whole tables from round scores, against brute force and hand reasoning."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest
from brute import enumerate_tableaux
from sushigo.solver.table import TableQuery, parse_query, query_from_options, solve
from sushigo.spec.cards import Card
from sushigo.spec.ruleset import OFFICIAL
from sushigo.spec.scoring import dish_points, round_totals
from sushigo.spec.tableau import Tableau

from sushigo.cli import main


def _brute_tables(scores: list[int], cards: int) -> int:
    """Count 2-player tables by pairing every tableau whose dish points leave a possible maki share."""
    by_dish: dict[int, list[tuple[int, ...]]] = defaultdict(list)
    for t in enumerate_tableaux(cards):
        by_dish[sum(dish_points(t))].append(t)
    maki_values = (0, 1, 2, 3, 6)  # every share official maki scoring can pay (6, 3, 6//2, 3//2...)
    cands = [[t for m in maki_values for t in by_dish.get(s - m, [])] for s in scores]
    n = 0
    for a in cands[0]:
        ca = Tableau(a).card_counts()
        for b in cands[1]:
            cb = Tableau(b).card_counts()
            if all(x + y <= cap for x, y, cap in zip(ca, cb, OFFICIAL.deck, strict=True)) and \
                    round_totals([a, b]) == scores:
                n += 1
    return n


def test_count_against_brute_force() -> None:
    q = parse_query({"scores": [45, 36]}, OFFICIAL)
    a = solve(q, limit=50)
    assert a.status == "possible" and a.complete
    assert a.count == _brute_tables([45, 36], 10)


def test_facts_by_hand() -> None:
    # 45 with 10 cards: five wasabi+squid, or four of them with a squid and a maki winning 6;
    # either way five squid and at least four wasabi. The other player scores 0 with 10 cards and
    # no maki: at most 1 tempura, 2 sashimi, 4 chopsticks and the 1-2 wasabi left: a pudding is needed.
    q = query_from_options(OFFICIAL, [45, 0], [], [], [], ["2:0"])
    a = solve(q)
    assert a.status == "possible" and a.witness is not None
    assert a.minimum[0][int(Card.SQUID)] == 5 and a.minimum[0][int(Card.WASABI)] == 4
    assert a.minimum[1][int(Card.PUDDING)] == 1
    assert {(f.seat, f.place) for f in a.maki} == {(1, "none")}
    totals = round_totals([t.counts for t in a.witness])
    assert totals == [45, 0] and all(t.size == 10 for t in a.witness)


def test_maki_winner_forced() -> None:
    # 3 players, 9 cards: 42 is only reached as 4 wasabi+squid (36) plus a maki roll winning 6.
    a = solve(parse_query({"scores": [42, 0, 0]}, OFFICIAL), limit=1)
    assert a.status == "possible"
    assert (0, "first") in {(f.seat, f.place) for f in a.maki}


def test_impossible_and_known() -> None:
    assert solve(parse_query({"scores": [45, 45]}, OFFICIAL)).status == "impossible"  # only 5 squid
    q = parse_query({"scores": [45, 36], "known": [{"player": 2, "counts": {"maki1": 0}}]}, OFFICIAL)
    a = solve(q, limit=10)
    assert a.status == "possible"
    assert a.witness is not None and a.witness[1].counts[int(Card.MAKI1)] == 0


def test_dummy_hidden_seat() -> None:
    from sushigo.spec.ruleset import get_ruleset

    q: TableQuery = parse_query({"scores": [20, 10]}, get_ruleset("dummy-2p"))
    assert q.seats == 3
    a = solve(q, limit=1)
    assert a.witness is not None and len(a.witness) == 3 and all(t.size == 9 for t in a.witness)
    assert round_totals([t.counts for t in a.witness], q.rules)[:2] == [20, 10]


def test_cli(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    assert main(["table", "--scores", "45,36", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["possible"] is True and out["maki"]["P2"] == "first"
    assert main(["table", "--scores", "45,45"]) == 1
    assert main(["table", "--scores", "1,2", "--count", "1:squd=1"]) == 2
    assert "did you mean 'squid'" in capsys.readouterr().err
    assert main(["table", "--scores", "1"]) == 2
