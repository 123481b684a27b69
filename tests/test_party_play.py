"""Party games played, recorded and replayed (spec/party/executor.py; issue 28 item 4).

Expected counts are worked from the rules (PARTY.md section 1; rulebook p2, p5): a menu's deck
is 54 cards (12 nigiri, 12 of the roll, 3 x 8 appetizers, 2 x 3 specials); 2-5 players add
5 / 3 / 2 desserts before rounds 1 / 2 / 3 and 6-8 players 7 / 5 / 3; hands are 10 cards for
2-3 players, 9 for 4-5, 8 for 6-7 and 7 for 8.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sushigo.spec.errors import InputError
from sushigo.spec.party.document import read_party_document
from sushigo.spec.party.executor import play_party, replay_party
from sushigo.spec.party.menus import TILES, parse_menu, suggested_tables
from sushigo.spec.party.readings import READINGS, party_rules
from sushigo.spec.party.tableau import kind_name

HAND = {2: 10, 3: 10, 4: 9, 5: 9, 6: 8, 7: 8, 8: 7}  # rulebook p5
DESSERTS = {n: (5, 3, 2) if n <= 5 else (7, 5, 3) for n in range(2, 9)}  # rulebook p5
DECK = 54  # rulebook p2


def _doc(menu: str, players: int, seed: int, **kw: Any) -> dict[str, Any]:
    return json.loads(json.dumps(play_party(menu, players, seed, **kw).as_json()))


def test_an_eight_player_big_banquet_records_and_replays() -> None:
    doc = _doc("big-banquet", 8, 11)
    assert doc["players"] == 8 and len(doc["rounds"]) == 3
    first = doc["rounds"][0]
    assert [len(h) for h in first["hands"]] == [7] * 8
    assert len(first["undealt"]) == DECK + 7 - 7 * 8  # 61 cards, 56 dealt
    assert all(len(r["turns"]) == 7 and all(len(t) == 8 for t in r["turns"]) for r in doc["rounds"])
    result = replay_party(doc)
    assert result.ok, result.error
    assert result.record is not None and result.record.score is not None
    assert list(result.record.score.totals) == doc["totals"]


def test_same_seed_same_bytes_other_seed_other_game() -> None:
    a = json.dumps(play_party("party-sampler", 4, 5).as_json())
    b = json.dumps(play_party("party-sampler", 4, 5).as_json())
    c = json.dumps(play_party("party-sampler", 4, 6).as_json())
    assert a == b
    assert a != c


def _check_conservation(doc: dict[str, Any]) -> None:
    """Every card accounted for, round by round: the deck dealt (hands and undealt) is the menu's
    non-dessert cards, less the special orders kept with a dessert, plus the desserts shuffled in
    so far, less those kept from earlier rounds."""
    menu = parse_menu(doc["menu"], uramaki=party_rules((), doc["readings"]).uramaki_split)
    players = doc["players"]
    dessert = menu.dessert.name
    copies = Counter({c: n for t in menu.tiles for c, n in t.cards})
    kept: Counter[str] = Counter()
    for r, rnd in enumerate(doc["rounds"]):
        dealt = Counter(c for h in rnd["hands"] for c in h) + Counter(rnd["undealt"])
        assert all(len(h) == HAND[players] for h in rnd["hands"])
        plain = {c: n for c, n in dealt.items() if kind_name(c) != dessert}
        want = {c: n - kept[c] for t in menu.tiles if t.course != "dessert" for c, n in t.cards}
        assert plain == {c: n for c, n in want.items() if n}, f"round {r + 1}"
        desserts = sum(n for c, n in dealt.items() if kind_name(c) == dessert)
        earlier = sum(n for c, n in kept.items() if kind_name(c) == dessert)
        assert desserts == sum(DESSERTS[players][: r + 1]) - earlier
        assert all(dealt[c] + kept[c] <= copies[c] for c in dealt)
        assert sum(dealt.values()) == DECK + sum(DESSERTS[players][: r + 1]) - sum(kept.values())
        kept += Counter(c for seat in rnd["kept"] for c in seat)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(suggested_tables()), st.integers(0, 10**6))
def test_games_finish_conserve_cards_and_rescore(table: tuple[str, int], seed: int) -> None:
    menu, players = table
    doc = _doc(menu, players, seed)
    _check_conservation(doc)
    rescored = read_party_document({"menu": doc["menu"], "readings": doc["readings"],
                                    "rounds": [{"turns": r["turns"]} for r in doc["rounds"]]})
    assert list(rescored.score.totals) == doc["totals"]
    assert [list(r.score.totals) for r in rescored.rounds] == [r["scores"] for r in doc["rounds"]]
    assert replay_party(doc).ok


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(suggested_tables()), st.integers(0, 10**6),
       st.lists(st.sampled_from([(r.name, v) for r in READINGS for v in r.values[1:]]), max_size=6))
def test_games_under_other_readings_replay(table: tuple[str, int], seed: int,
                                           readings: list[tuple[str, Any]]) -> None:
    menu, players = table
    rules = party_rules([f"{k}={v}" for k, v in dict(readings).items()])
    doc = _doc(menu, players, seed, rules=rules)
    _check_conservation(doc)
    result = replay_party(doc)
    assert result.ok, result.error


def _course(course: str) -> list[str]:
    return [t.name for t in TILES.values() if t.course == course]


@st.composite
def _custom(draw: st.DrawFn) -> tuple[str, int]:
    """A menu of any tiles (one roll, three appetizers, two specials, one dessert) and a player
    count its tiles allow."""
    while True:
        kinds = [draw(st.sampled_from(_course("roll"))),
                 *draw(st.lists(st.sampled_from(_course("appetizer")), min_size=3, max_size=3, unique=True)),
                 *draw(st.lists(st.sampled_from(_course("special")), min_size=2, max_size=2, unique=True)),
                 draw(st.sampled_from(_course("dessert")))]
        low, high = parse_menu(",".join(kinds)).players()
        if low <= high:
            return ",".join(kinds), draw(st.integers(low, high))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_custom(), st.integers(0, 10**6))
def test_any_menu_plays_conserves_cards_and_replays(table: tuple[str, int], seed: int) -> None:
    menu, players = table
    doc = _doc(menu, players, seed)
    _check_conservation(doc)
    result = replay_party(doc)
    assert result.ok, result.error


def _find(menu: str, players: int, pred: Any) -> tuple[dict[str, Any], int, int, int]:
    """The first game (seeds 0, 1, ...) with a play ``pred`` accepts: (record, round, turn, seat)."""
    for seed in range(200):
        doc = _doc(menu, players, seed)
        for r, rnd in enumerate(doc["rounds"]):
            for t, plays in enumerate(rnd["turns"]):
                for k, play in enumerate(plays):
                    if pred(play):
                        return doc, r, t, k
    raise AssertionError("no such play in 200 games")  # pragma: no cover


def _replay_error(doc: dict[str, Any]) -> tuple[str | None, str | None]:
    result = replay_party(doc)
    assert not result.ok
    return result.error, result.rule_id


def test_a_card_not_in_hand_is_named() -> None:
    doc = _doc("sushi-go", 4, 3)
    hand = doc["rounds"][1]["hands"][2]
    missing = next(c for c in ("egg", "salmon", "squid", "maki1", "tempura", "sashimi") if c not in hand)
    doc["rounds"][1]["turns"][0][2] = missing
    error, rule = _replay_error(doc)
    assert rule == "R-PARTY-HAND"
    assert error is not None and error.startswith("round 2, turn 1, player 2:")


def test_a_special_order_copying_what_was_not_played_is_refused() -> None:
    doc, r, t, k = _find("points-platter", 4, lambda p: p.startswith("special-order:"))
    doc["rounds"][r]["turns"][t][k] = "special-order:special-order"  # never on any table
    error, rule = _replay_error(doc)
    assert rule == "R-PARTY-SPECIAL-ORDER"
    assert error is not None and error.startswith(f"round {r + 1}, turn {t + 1}, player {k}:")


def test_chopsticks_never_played_cannot_be_used() -> None:
    doc = _doc("big-banquet", 6, 1)
    plays = doc["rounds"][0]["turns"][0]
    plays[0] = f"{plays[0].split()[0]} chopsticks-1:{doc['rounds'][0]['hands'][0][1]}"
    error, rule = _replay_error(doc)
    assert rule == "R-PARTY-CHOPSTICKS"
    assert error is not None and "round 1, turn 1, player 0" in error


def test_a_menu_playing_a_card_it_did_not_draw_is_refused() -> None:
    doc, r, t, k = _find("party-sampler", 4, lambda p: p.startswith("menu-") and not p.endswith(":-"))
    draw = next(d for d in doc["rounds"][r]["draws"] if d["turn"] == t + 1 and d["player"] == k)
    absent = next(c for c in ("egg", "salmon", "squid", "temaki", "tempura", "dumpling", "tofu", "wasabi")
                  if c not in draw["drawn"])
    head = doc["rounds"][r]["turns"][t][k].split(":")[0]
    doc["rounds"][r]["turns"][t][k] = f"{head}:{absent}"
    error, rule = _replay_error(doc)
    assert rule == "R-PARTY-MENU"
    assert error is not None and error.startswith(f"round {r + 1}, turn {t + 1}, player {k}:")


def test_a_spoon_finding_what_nobody_holds_is_refused() -> None:
    doc, r, t, k = _find("big-banquet", 6, lambda p: " spoon-" in p and not p.endswith(":-"))
    normal, bonus = doc["rounds"][r]["turns"][t][k].split()
    doc["rounds"][r]["turns"][t][k] = f"{normal} {bonus.split(':')[0]}:{bonus.split(':')[0]}"  # itself
    error, rule = _replay_error(doc)
    assert rule == "R-PARTY-SPOON"
    assert error is not None and error.startswith(f"round {r + 1}, turn {t + 1}, player {k}:")


def test_tampered_scores_deals_and_totals_are_caught() -> None:
    doc = _doc("my-first-meal", 5, 9)
    bad = copy.deepcopy(doc)
    bad["rounds"][2]["scores"][1] += 1
    assert _replay_error(bad) == (f"round 3: the record's scores {bad['rounds'][2]['scores']} are not the "
                                  f"turns' {doc['rounds'][2]['scores']} (R-PARTY-SCORE)", "R-PARTY-SCORE")
    bad = copy.deepcopy(doc)
    bad["totals"][0] -= 1
    assert _replay_error(bad)[1] == "R-PARTY-SCORE"
    bad = copy.deepcopy(doc)
    bad["rounds"][0]["hands"][0], bad["rounds"][0]["hands"][1] = doc["rounds"][0]["hands"][1], \
        doc["rounds"][0]["hands"][0]
    assert _replay_error(bad)[1] == "R-PARTY-DEAL"
    bad = copy.deepcopy(doc)
    bad["seed"] += 1
    assert _replay_error(bad)[1] == "R-PARTY-DEAL"


def test_bad_menus_and_player_counts_are_one_line() -> None:
    with pytest.raises(InputError, match="spoon is not used with 2 players"):
        play_party("big-banquet", 2, 0)
    with pytest.raises(InputError, match="menu and special order need 6 or fewer"):
        play_party("dinner-for-two", 7, 0)
    with pytest.raises(InputError, match="seats 2 to 8 players"):
        play_party("sushi-go", 9, 0)


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sushigo", *args], capture_output=True, text=True, cwd=cwd,
                          check=False)


def test_cli_plays_records_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    out = _cli("play", "--game", "party", "--menu", "big-banquet", "--players", "8", "--seed", "4",
               "--record", str(path))
    assert out.returncode == 0, out.stderr
    assert "winner" in out.stdout
    again = _cli("play", "--game", "party", "--menu", "big-banquet", "--players", "8", "--seed", "4",
                 "--record", "-")
    assert again.stdout == path.read_text()
    ok = _cli("replay", str(path))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "valid: every deal, play, draw and score checks" in ok.stdout
    doc = json.loads(path.read_text())
    doc["rounds"][0]["scores"][0] += 2
    path.write_text(json.dumps(doc))
    bad = _cli("replay", "--game", "party", str(path))
    assert bad.returncode == 1
    assert "INVALID: round 1: the record's scores" in bad.stdout and "(R-PARTY-SCORE)" in bad.stdout


def test_cli_bad_input_is_one_line_exit_2() -> None:
    for args in (["--menu", "big-banquet", "--players", "2"], ["--menu", "no-such-menu", "--players", "4"],
                 ["--players", "4"], ["--menu", "sushi-go"], ["--menu", "sushi-go", "--players", "4",
                                                              "--policy", "ismcts"]):
        out = _cli("play", "--game", "party", *args)
        assert out.returncode == 2, (args, out.stderr)
        assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
    out = _cli("play", "--menu", "sushi-go")
    assert out.returncode == 2 and "add --game party" in out.stderr


def test_outputs_and_records_match_their_schemas() -> None:
    from sushigo import schemas
    from sushigo.api.party_play import play_party_outcome, replay_party_outcome

    one = play_party_outcome(menu="cutthroat-combo", players=5, seed=2)
    many = play_party_outcome(menu="cutthroat-combo", players=5, seed=2, games=3)
    assert schemas.first_problem(one.data, "play-result") is None
    assert schemas.first_problem(many.data, "play-result") is None
    record = one.data["record"]
    assert schemas.first_problem(record, "party-record") is None
    assert schemas.first_problem([r.as_json() for r in many.detail], "party-record") is None
    replayed = replay_party_outcome(record)
    assert replayed.code == 0 and schemas.first_problem(replayed.data, "replay-result") is None
    bad = copy.deepcopy(record)
    bad["winners"] = [4 - bad["winners"][0]]
    out = replay_party_outcome(bad)
    assert out.code == 1 and out.data["rule_id"] == "R-PARTY-SCORE"
    assert schemas.first_problem(out.data, "replay-result") is None


@pytest.mark.parametrize(("menu", "players", "seed", "readings"), [
    # a seat's chopsticks play a takeout box that flips, in the turn its own takeout box is played
    ("maki,miso,tofu,onigiri,takeout,chopsticks,pudding", 7, 269135,
     ["takeout_dessert=keep", "special_order_wasabi=may", "menu_short_deck=discard"]),
    # a spoon asks for the card an earlier spoon of the same turn took: it finds nothing
    ("temaki,edamame,miso,onigiri,spoon,tea,pudding", 7, 574982,
     ["special_order_copies=earlier-turns", "uramaki_after_places=discard"]),
])
def test_found_by_the_stress_run(menu: str, players: int, seed: int, readings: list[str]) -> None:
    rules = party_rules(readings)
    doc = json.loads(json.dumps(play_party(parse_menu(menu), players, seed, rules=rules).as_json()))
    _check_conservation(doc)
    result = replay_party(doc)
    assert result.ok, result.error
