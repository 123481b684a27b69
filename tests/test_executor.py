"""The reference executor: card accounting, records, replay, the two variants, the fast path.

Expected values come from hand-worked deals (written out in the comments) or from
``_referee``, a second, deliberately naive implementation of the turn rules in this
file (card names in lists, official readings), never from the executor itself.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sushigo.spec.cards import Card
from sushigo.spec.errors import InputError
from sushigo.spec.executor import (
    GameRecord,
    accounting,
    fast_random_games,
    iter_game,
    play_game,
    replay,
)
from sushigo.spec.policies import GreedyPolicy, PlayerView, RandomPolicy
from sushigo.spec.ruleset import OFFICIAL, RULESETS, get_ruleset
from sushigo.spec.scoring import score_round
from sushigo.spec.tableau import Tableau, format_tableau, parse_tableau
from sushigo.spec.turns import Pick

DUMMY = RULESETS["dummy-2p"]
BOTH = RULESETS["pass-both-ways"]
NIGIRI_NAMES = ("egg", "salmon", "squid")
VARIANTS = ["official", "pass-both-ways", "wasabi-optional", "wasabi-strict", "dummy-2p"]

# --------------------------------------------------------------------------- independent referee


Step = tuple[int, int, int, str]


def _referee(record: dict[str, Any], offsets: list[int]) -> tuple[Step | None, list[list[str]]]:
    """Replay a plain (not dummy) record with card-name lists under the official readings.

    Returns the first pick of a card not in hand as (round, turn, seat, card), all 1-based
    except the seat, and the final tableaux per round (canonical strings).
    """
    out: list[list[str]] = []
    players = record["players"]
    for r, rnd in enumerate(record["rounds"]):
        hands = [list(h) for h in rnd["hands"]]
        tabs: list[list[str]] = [[] for _ in range(players)]
        for t, step in enumerate(rnd["turns"]):
            for s in range(players):
                picks = step[s]
                chop_before = tabs[s].count("chopsticks")
                if len(picks) == 2:
                    assert chop_before >= 1, (r, t, s)
                for name in picks:
                    if name not in hands[s]:
                        return (r + 1, t + 1, s, name), out
                    hands[s].remove(name)
                    free = tabs[s].count("wasabi")
                    if name in NIGIRI_NAMES and free:
                        tabs[s].remove("wasabi")
                        tabs[s].append(f"wasabi+{name}")
                    else:
                        tabs[s].append(name)
                if len(picks) == 2:
                    tabs[s].remove("chopsticks")
                    hands[s].append("chopsticks")
            off = offsets[r]
            hands = [hands[(s - off) % players] for s in range(players)]
        assert all(not h for h in hands)
        out.append([format_tableau(parse_tableau(" ".join(t))) for t in tabs])
    return None, out


def _deal_by_hand(players: int, seed: int) -> list[list[list[str]]]:
    """The deal from the rules as stated: shuffle the 108 cards once, deal blocks in seat order."""
    deck = [c.label for c in Card for _ in range(OFFICIAL.copies(c))]
    assert len(deck) == 108
    random.Random(seed).shuffle(deck)
    size = {2: 10, 3: 9, 4: 8, 5: 7}[players]  # rulebook hand sizes
    rounds, pos = [], 0
    for _ in range(3):
        hands = []
        for _s in range(players):
            hands.append(deck[pos : pos + size])
            pos += size
        rounds.append(hands)
    return rounds


# --------------------------------------------------------------------------- accounting


@settings(max_examples=40)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 5),
    rules_name=st.sampled_from(VARIANTS),
    policy=st.sampled_from(["random", "greedy"]),
)
def test_every_card_accounted_for_at_every_step(
    seed: int, players: int, rules_name: str, policy: str
) -> None:
    rules = RULESETS[rules_name]
    if rules.dummy_2p:
        players = 2
    states = list(iter_game(players, seed, rules, [policy]))
    seats = players + 1 if rules.dummy_2p else players
    size = 9 if rules.dummy_2p else {2: 10, 3: 9, 4: 8, 5: 7}[players]
    # one deal, `size` turns and one scoring per round
    assert len(states) == 3 * (size + 2)
    for state in states:
        acc = accounting(state)
        assert acc.ok, acc.problems()
        assert sum(acc.total) == 108
        assert set(acc.locations) == {"deck", "hands", "tableaux", "puddings", "discard"}
        if state.phase == "turn":
            # every hand (and the dummy pile) shrinks by one card a turn
            assert [sum(h) for h in state.hands] == [size - state.turn] * seats
    last = states[-1]
    assert sum(last.deck) == 108 - 3 * seats * size
    assert sum(last.puddings) + last.discard[int(Card.PUDDING)] == 10 - last.deck[int(Card.PUDDING)]


def test_accounting_notices_a_lost_card() -> None:
    state = next(iter(iter_game(4, 1)))
    hands = list(state.hands)
    first = list(hands[0])
    kind = next(c for c in range(12) if first[c])
    first[kind] -= 1
    hands[0] = tuple(first)
    broken = type(state)(**{**state.__dict__, "hands": tuple(hands)})
    acc = accounting(broken)
    assert not acc.ok
    assert acc.problems() == [f"{Card(kind).label}: {OFFICIAL.copies(Card(kind)) - 1} on the table "
                              f"and in the deck, the deck has {OFFICIAL.copies(Card(kind))}"]


# --------------------------------------------------------------------------- records and replay


@settings(max_examples=30)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 5),
    rules_name=st.sampled_from(["official", "pass-both-ways", "french", "dutch", "dummy-2p"]),
    policies=st.lists(st.sampled_from(["random", "greedy"]), min_size=1, max_size=1),
)
def test_replay_reproduces_every_record(
    seed: int, players: int, rules_name: str, policies: list[str]
) -> None:
    rules = RULESETS[rules_name]
    if rules.dummy_2p:
        players = 2
    rec = play_game(players, seed, rules, policies)
    text = json.dumps(rec.to_json())
    back = GameRecord.from_json(json.loads(text))
    assert back == rec
    assert back.to_json() == rec.to_json()
    result = replay(json.loads(text))
    assert result.ok, result.error
    assert result.record == rec
    assert result.score is not None and result.score.totals == rec.totals


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("rules_name", ["official", "pass-both-ways"])
def test_games_agree_with_the_naive_referee(players: int, rules_name: str) -> None:
    rules = RULESETS[rules_name]
    offsets = [1, -1, 1] if rules_name == "pass-both-ways" else [1, 1, 1]
    for seed in range(4):
        rec = play_game(players, seed, rules, ["random"] if seed % 2 else ["greedy"]).to_json()
        assert [r["hands"] for r in rec["rounds"]] == _deal_by_hand(players, seed)
        error, tableaux = _referee(rec, offsets)
        assert error is None
        assert tableaux == [r["tableaux"] for r in rec["rounds"]]
        for rnd in rec["rounds"]:
            totals = [s.total for s in score_round([parse_tableau(t) for t in rnd["tableaux"]], rules)]
            assert rnd["scores"] == totals


def test_record_names_every_contested_reading_so_overrides_survive() -> None:
    rules = get_ruleset("official", ["maki_first_tie=each", "wasabi_placement=optional"])
    rec = play_game(3, 11, rules)
    data = rec.to_json()
    assert data["rules"] == "official"
    assert data["readings"]["maki_first_tie"] == "each"
    assert data["readings"]["wasabi_placement"] == "optional"
    assert GameRecord.from_json(data).rules.readings() == rules.readings()
    assert replay(data).ok


def _record(players: int = 4, seed: int = 3, rules: Any = OFFICIAL, policy: str = "random") -> dict[str, Any]:
    data: dict[str, Any] = play_game(players, seed, rules, [policy]).to_json()
    return data


def test_tampered_pick_of_a_card_not_in_hand() -> None:
    data = _record()
    hand = data["rounds"][1]["hands"][1]
    missing = next(c.label for c in Card if c.label not in hand)
    data["rounds"][1]["turns"][0][1] = [missing]
    result = replay(data)
    assert not result.ok
    assert result.error == f"round 2, turn 1, player 1 took {missing}, which was not in their hand (R-PICK)"
    assert result.rule_id == "R-PICK"
    assert result.record is None


def _find_turn(data: dict[str, Any], want: Any) -> tuple[int, int, int]:
    """The first (round, turn, seat) whose recorded picks satisfy ``want(picks, tableau_so_far)``."""
    for r, rnd in enumerate(data["rounds"]):
        tabs: list[list[str]] = [[] for _ in rnd["hands"]]
        for t, step in enumerate(rnd["turns"]):
            for s, picks in enumerate(step):
                if want(picks, tabs[s]):
                    return r, t, s
            for s, picks in enumerate(step):
                tabs[s].extend(p.split(":")[0] for p in picks)
                if len(picks) == 2:
                    tabs[s].remove("chopsticks")
    raise AssertionError("no such turn in this record")


def test_tampered_chopsticks_used_the_turn_they_are_taken() -> None:
    for seed in range(50):
        data = _record(seed=seed)
        try:
            r, t, s = _find_turn(
                data,
                lambda picks, tab: picks == ["chopsticks"] and "chopsticks" not in tab,
            )
        except AssertionError:
            continue
        # the hand held at that turn: replay the record up to it with the referee's passing
        hands = _hands_at(data, r, t)
        other = next((c for c in hands[s] if c != "chopsticks"), None)
        if other is None:
            continue
        data["rounds"][r]["turns"][t][s] = ["chopsticks", other]
        result = replay(data)
        assert result.error == (
            f"round {r + 1}, turn {t + 1}, player {s} took two cards without chopsticks in front of "
            "them from an earlier turn (R-CHOPSTICKS-EARLIER)"
        )
        return
    raise AssertionError("no seed gave a chopsticks pick")


def _hands_at(data: dict[str, Any], r: int, t: int) -> list[list[str]]:
    rnd = data["rounds"][r]
    hands = [list(h) for h in rnd["hands"]]
    n = len(hands)
    for step in rnd["turns"][:t]:
        for s, picks in enumerate(step):
            for p in picks:
                hands[s].remove(p.split(":")[0])
            if len(picks) == 2:
                hands[s].append("chopsticks")
        hands = [hands[(s - 1) % n] for s in range(n)]
    return hands


def test_tampered_two_chopsticks_uses_in_one_turn() -> None:
    data = _record(players=2, seed=5)
    r, t, s = _find_turn(data, lambda picks, tab: len(picks) == 2)
    hands = _hands_at(data, r, t)
    left = list(hands[s])
    for p in data["rounds"][r]["turns"][t][s]:
        left.remove(p.split(":")[0])
    assert left, "needs a third card in the hand"
    data["rounds"][r]["turns"][t][s] = [*data["rounds"][r]["turns"][t][s], left[0]]
    result = replay(data)
    assert result.error == (
        f"round {r + 1}, turn {t + 1}, player {s} a turn takes 1 or 2 cards, not 3 (R-CHOPSTICKS-ONCE)"
    )
    assert result.rule_id == "R-CHOPSTICKS-ONCE"


def test_wrong_pass_direction_is_caught_at_the_first_pick_it_breaks() -> None:
    # a pass-both-ways game replayed as if every round passed left
    for seed in range(20):
        data = _record(players=3, seed=seed, rules=BOTH)
        want, _ = _referee(data, [1, 1, 1])
        if want is None:
            continue
        data["rules"], data["readings"]["passing"] = "official", "left"
        result = replay(data)
        r, t, s, card = want
        assert r == 2  # round 1 passes left in both
        assert result.error == (
            f"round {r}, turn {t}, player {s} took {card}, which was not in their hand (R-PICK)"
        )
        # and under its own rules it is valid
        data["readings"]["passing"] = "both-ways"
        assert replay(data).ok
        return
    raise AssertionError("no seed exposed the pass direction")


def test_wrong_score_names_seat_round_and_the_right_value() -> None:
    data = _record()
    true = data["rounds"][0]["scores"][2]
    data["rounds"][0]["scores"][2] = true + 3
    result = replay(data)
    assert result.error == f"round 1 score of player 2 is {true + 3}, the rules give {true} (R-SCORE)"
    assert result.record is not None  # the rest of the game still replays


def test_wrong_score_is_reported_before_a_later_illegal_pick() -> None:
    data = _record()
    data["rounds"][0]["scores"][0] += 1
    data["rounds"][2]["turns"][0][0] = ["chopsticks", "chopsticks"]
    assert replay(data).rule_id == "R-SCORE"


def test_wrong_totals_pudding_and_winners() -> None:
    data = _record()
    data["totals"][1] += 2
    assert replay(data).error == (
        f"the total of player 1 is {data['totals'][1]}, the rules give {data['totals'][1] - 2} (R-SCORE)"
    )
    data = _record()
    data["winners"] = [w for w in range(4) if w not in data["winners"]][:1]
    assert replay(data).rule_id == "R-WINNER"


def test_deal_beyond_the_deck_and_wrong_hand_size() -> None:
    data = _record()
    data["rounds"][2]["hands"][3] = ["tempura"] * 8
    assert replay(data).error is not None
    data = _record()
    for hand in data["rounds"][0]["hands"]:
        hand[:] = ["squid"] * 8  # 32 squid; the deck has 5
    result = replay(data)
    assert result.error == "round 1: the hands dealt so far hold 32 squid; the deck has 5 (R-DECK)"
    data = _record()
    data["rounds"][1]["hands"][2].pop()
    result = replay(data)
    assert result.error == "round 2, player 2 was dealt 7 cards; a 4-player hand has 8 (R-DEAL)"


def test_malformed_records_raise_input_error() -> None:
    data = _record()
    with pytest.raises(InputError, match="no \"players\""):
        replay({k: v for k, v in data.items() if k != "players"})
    bad = json.loads(json.dumps(data))
    bad["rounds"][0]["hands"][0][0] = "sqiud"
    with pytest.raises(InputError, match="did you mean 'squid'"):
        replay(bad)
    with pytest.raises(InputError):
        replay({**data, "players": 7})
    with pytest.raises(InputError):
        GameRecord.from_json([1, 2])


# --------------------------------------------------------------------------- hand-worked pins


def _one_round_record(rules: str, hands: list[list[str]], turns: list[list[list[str]]],
                      tableaux: list[str], scores: list[int], winners: list[int]) -> dict[str, Any]:
    puddings = [parse_tableau(t).counts[9] for t in tableaux]
    return {
        "format": "sushigo-record/1", "rules": rules, "seed": None, "players": 2,
        "policies": ["hand", "hand"],
        "rounds": [{"hands": hands, "turns": turns, "tableaux": tableaux, "scores": scores}],
        "puddings": puddings, "pudding": None, "totals": scores, "winners": winners,
    }


def test_chopsticks_on_the_second_to_last_turn_return_into_a_one_card_hand() -> None:
    # Worked by hand, 2 players, hands of 10. P0 holds A = chopsticks + 9 tempura, P1 holds
    # B = 10 sashimi; hands swap every turn. P0 takes the chopsticks on turn 1, then alternately
    # sashimi (B, even turns) and tempura (A, odd turns). On turn 9 P0 holds A = 2 tempura and
    # takes both with the chopsticks, which go back into A: a one-card hand. On turn 10 P1 takes
    # those chopsticks as its last card. P0: tempura*5 sashimi*5 = 10 + 10; P1: tempura*4
    # sashimi*5 chopsticks = 10 + 10. Tied on points and puddings: a shared win.
    a = ["chopsticks"] + ["tempura"] * 9
    b = ["sashimi"] * 10
    turns = [[["chopsticks"], ["sashimi"]]]
    for t in range(2, 9):
        turns.append([["sashimi"], ["tempura"]] if t % 2 == 0 else [["tempura"], ["sashimi"]])
    turns.append([["tempura", "tempura"], ["sashimi"]])
    turns.append([["sashimi"], ["chopsticks"]])
    data = _one_round_record(
        "official", [a, b], turns,
        ["tempura*5 sashimi*5", "tempura*4 sashimi*5 chopsticks"], [20, 20], [0, 1],
    )
    result = replay(data)
    assert result.ok, result.error
    # the same record with P1 trying to use the chopsticks it only just took
    late = json.loads(json.dumps(data))
    late["rounds"][0]["turns"][9][1] = ["chopsticks", "sashimi"]
    assert replay(late).rule_id in ("R-PICK", "R-CHOPSTICKS-EARLIER")


def test_pass_both_ways_three_players_round_two_passes_right() -> None:
    # Rulebook variant: rounds 1 and 3 pass left (seat i to seat i+1), round 2 to the right.
    # So at turn 2 of round 2, with 3 players, player 0 holds what is left of the hand dealt to
    # player 1 (it came from the right), and at turn 2 of rounds 1 and 3 the hand dealt to player 2.
    states = list(iter_game(3, 21, BOTH, ["greedy"]))
    rec = play_game(3, 21, BOTH, ["greedy"])
    from_seat = {0: 2, 1: 1, 2: 2}
    for r, rnd in enumerate(rec.rounds):
        after_turn_1 = next(s for s in states if s.round_index == r and s.phase == "turn" and s.turn == 1)
        dealt = [0] * 12
        for c in rnd.hands[from_seat[r]]:
            dealt[int(c)] += 1
        for pick in rnd.turns[0][from_seat[r]]:
            dealt[int(pick.card)] -= 1
        if len(rnd.turns[0][from_seat[r]]) == 2:
            dealt[int(Card.CHOPSTICKS)] += 1
        assert list(after_turn_1.hands[0]) == dealt, f"round {r + 1}"


DUMMY3 = DUMMY.replace(dummy_hand_size=3)


def _dummy_record() -> dict[str, Any]:
    # Worked by hand (dummy-2p with hands of 3 to keep it short). A = tempura tempura salmon
    # (P0), B = wasabi squid maki3 (P1), dummy pile maki2, pudding, egg (top first).
    # Turn 1, P0 controls: draws maki2, takes tempura, gives the dummy maki2; P1 takes wasabi.
    # Turn 2, P1 controls (hands swapped): draws pudding into [tempura salmon pudding], takes
    #   salmon onto its wasabi, gives the dummy tempura; P0 takes squid from [squid maki3].
    # Turn 3, P0 controls: draws egg into [pudding egg], takes pudding, gives the dummy egg;
    #   P1 takes maki3.
    # P0: tempura squid pudding = 0 + 3; P1: wasabi+salmon maki3 = 6 + maki first 6 = 12;
    # dummy: tempura maki2 egg = 1 + maki second 3 = 4. Winner P1.
    return _one_round_record(
        "dummy-2p",
        [["tempura", "tempura", "salmon"], ["wasabi", "squid", "maki3"], ["maki2", "pudding", "egg"]],
        [
            [["tempura"], ["wasabi"], ["maki2"]],
            [["squid"], ["salmon"], ["tempura"]],
            [["pudding"], ["maki3"], ["egg"]],
        ],
        ["tempura squid pudding", "maki3 wasabi+salmon", "tempura maki2 egg"],
        [3, 12, 4],
        [1],
    ) | {"puddings": [1, 0, 0]}


def test_dummy_2p_hand_worked_turns() -> None:
    data = _dummy_record()
    result = replay(data, DUMMY3)
    assert result.ok, result.error
    assert result.record is not None and result.record.winners == (1,)


def test_dummy_2p_tampering() -> None:
    data = _dummy_record()
    data["rounds"][0]["turns"][0][2] = ["squid"]  # squid was in P1's hand, not P0's
    assert replay(data, DUMMY3).error == (
        "round 1, turn 1, the dummy took squid, which was not in their hand (R-PICK)"
    )
    data = _dummy_record()
    data["rounds"][0]["turns"][1][2] = ["tempura", "pudding"]
    assert replay(data, DUMMY3).rule_id == "R-DUMMY"
    data = _dummy_record()
    # P1 giving the drawn pudding to the dummy and keeping the tempura is also legal...
    data["rounds"][0]["turns"][1][2] = ["pudding"]
    result = replay(data, DUMMY3)
    # ...but then the recorded tableaux no longer match
    assert result.error is not None and result.error.startswith("round 1, turn 3, player 0 took pudding")


def test_dummy_2p_full_game_shape() -> None:
    rec = play_game(2, 8, DUMMY, ["greedy", "random"])
    assert all(len(r.hands) == 3 and all(len(h) == 9 for h in r.hands) for r in rec.rounds)
    assert all(len(r.turns) == 9 and all(len(step[2]) == 1 for step in r.turns) for r in rec.rounds)
    assert all(t.size == 9 for r in rec.rounds for t in r.tableaux)
    assert set(rec.winners) <= {0, 1}
    with pytest.raises(InputError):
        play_game(3, 1, DUMMY)


# --------------------------------------------------------------------------- policies


def _view(hand: dict[str, int], tableau: str, others: tuple[str, ...] = ("-",)) -> PlayerView:
    counts = [0] * 12
    for name, n in hand.items():
        counts[int(getattr(Card, name.upper()))] = n
    tabs = (parse_tableau(tableau).counts, *(parse_tableau(o).counts for o in others))
    return PlayerView(0, 0, len(tabs), 0, 0, tuple(counts), tabs, (0,) * len(tabs), (), OFFICIAL)


def test_greedy_takes_the_biggest_immediate_gain() -> None:
    from sushigo.spec.turns import legal_turns

    rng = random.Random(0)
    g = GreedyPolicy()
    # one tempura down: a second is worth 5, an egg 1
    v = _view({"tempura": 1, "egg": 1}, "tempura")
    assert g.choose(v, legal_turns(v.hand, v.tableau), rng) == (Pick(Card.TEMPURA),)
    # a free wasabi: squid on it is worth 9, more than completing a tempura pair
    v = _view({"tempura": 1, "squid": 1}, "tempura wasabi")
    assert g.choose(v, legal_turns(v.hand, v.tableau), rng) == (Pick(Card.SQUID),)
    # chopsticks down: both tempura (5) beats one
    v = _view({"tempura": 2, "pudding": 1}, "chopsticks")
    assert g.choose(v, legal_turns(v.hand, v.tableau), rng) == (Pick(Card.TEMPURA), Pick(Card.TEMPURA))


def test_random_policy_is_uniform_over_legal_turns() -> None:
    from sushigo.spec.turns import legal_turns

    v = _view({"tempura": 1, "egg": 1, "maki1": 1}, "chopsticks")
    options = legal_turns(v.hand, v.tableau)
    # 3 singles and the 3 unordered pairs (no wasabi on the table, so the order of two is moot)
    assert len(options) == 3 + 3
    rng = random.Random(1)
    seen = [RandomPolicy().choose(v, options, rng) for _ in range(900)]
    counts = [seen.count(o) for o in options]
    assert min(counts) > 100 and max(counts) < 200


def test_policies_see_the_table_as_it_was_at_the_start_of_the_turn() -> None:
    seen: list[PlayerView] = []

    class Spy(RandomPolicy):
        def choose(self, view: PlayerView, options: Any, rng: random.Random) -> Any:
            seen.append(view)
            return super().choose(view, options, rng)

    from sushigo.spec import policies

    policies.POLICIES["spy"] = Spy
    try:
        states = list(iter_game(3, 4, OFFICIAL, ["spy"]))
    finally:
        del policies.POLICIES["spy"]
    turn_states = [s for s in states if s.phase in ("dealt", "turn") and s.turn < 9]
    assert len(seen) == 3 * len(turn_states)
    for k, view in enumerate(seen):
        before = turn_states[k // 3]
        assert (view.round_index, view.turn) == (before.round_index, before.turn)
        assert view.hand == before.hands[view.seat]
        assert view.tableaux == before.tableaux
        assert not hasattr(view, "hands") and not hasattr(view, "deck")


# --------------------------------------------------------------------------- fast path


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize(
    "rules_name", ["official", "pass-both-ways", "wasabi-optional", "wasabi-strict", "dummy-2p"]
)
def test_fast_path_plays_exactly_the_general_games(players: int, rules_name: str) -> None:
    rules = RULESETS[rules_name]
    if rules.dummy_2p and players != 2:
        return
    seed = 1000 * players
    fast = fast_random_games(players, seed, 12, rules, tableaux=True)
    for game in fast:
        rec = play_game(players, game.seed, rules, ["random"])
        assert game.rounds == tuple(r.scores for r in rec.rounds)
        assert game.tableaux == tuple(tuple(t.counts for t in r.tableaux) for r in rec.rounds)
        assert (game.puddings, game.totals, game.winners) == (rec.puddings, rec.totals, rec.winners)


def test_round_scores_of_played_games_match_the_tableaux() -> None:
    rec = play_game(5, 99)
    for rnd in rec.rounds:
        assert sum(t.size for t in rnd.tableaux) == 5 * 7
        assert list(rnd.scores) == [s.total for s in score_round(rnd.tableaux)]
    assert Tableau.parse(format_tableau(rec.rounds[0].tableaux[0])) == rec.rounds[0].tableaux[0]


def test_missing_or_extra_turns_and_a_wrong_tableau() -> None:
    data = _record()  # 4 players: 8 turns a round
    data["rounds"][1]["turns"].pop()
    assert replay(data).error == (
        "round 2, turn 8 is missing: the hands still hold cards (a round has 8 turns) (R-HAND-SIZE)"
    )
    data = _record()
    data["rounds"][0]["turns"].append(data["rounds"][0]["turns"][-1])
    assert replay(data).error == "round 1 lists 9 turns, but the hands are empty after 8 (R-HAND-SIZE)"
    data = _record()
    data["rounds"][0]["tableaux"][3] = "tempura*9"
    result = replay(data)
    assert result.rule_id == "R-RECORD"
    assert result.error is not None and result.error.startswith("round 1 tableau of player 3 is 'tempura*9'")


def test_iter_replay_gives_the_states_of_iter_game_and_stops_at_an_illegal_pick() -> None:
    from sushigo.spec.errors import IllegalMoveError
    from sushigo.spec.executor import iter_replay

    data = _record(players=3, seed=12, policy="greedy")
    assert list(iter_replay(data)) == list(iter_game(3, 12, OFFICIAL, ["greedy"]))
    hand = data["rounds"][0]["hands"][2]
    missing = next(c.label for c in Card if c.label not in hand)
    data["rounds"][0]["turns"][0][2] = [missing]
    with pytest.raises(IllegalMoveError, match=r"^round 1, turn 1, player 2 took"):
        list(iter_replay(data))


def test_replay_without_scores_checks_only_deals_and_picks() -> None:
    data = _record()
    data["rounds"][0]["scores"][0] += 1
    data["totals"][0] += 1
    assert not replay(data).ok
    result = replay(data, scores=False)
    assert result.ok and result.record is not None
    assert result.record.totals[0] == data["totals"][0] - 1
    data["rounds"][2]["turns"][0][0] = ["chopsticks", "chopsticks"]
    assert replay(data, scores=False).rule_id in ("R-PICK", "R-CHOPSTICKS-EARLIER")


def test_a_run_of_random_games_refuses_a_negative_first_seed() -> None:
    """fast_random_games(players, seed, n) plays seeds seed..seed+n-1; Python's generator takes an
    int's absolute value (play_game(3, -2) deals play_game(3, 2)'s hands), so a run from -2 would
    deal some games twice. One game's seed goes on as given."""
    assert play_game(3, -2).rounds[0].hands == play_game(3, 2).rounds[0].hands
    with pytest.raises(InputError, match=r"seed -2: give a whole number of 0 or more"):
        fast_random_games(3, -2, 5)
    for n in (-1, "3", 2.0):
        with pytest.raises(InputError, match=r"give the number of games, a whole number of 0 or more"):
            fast_random_games(3, 0, n)  # type: ignore[arg-type]
    assert fast_random_games(3, 0, 0) == []
    got = fast_random_games(3, 0, 3)
    assert [g.totals for g in got] == [play_game(3, s, OFFICIAL, ["random"]).totals for s in range(3)]


def test_a_ruleset_given_by_name_where_a_ruleset_is_needed_says_how_to_get_one() -> None:
    from sushigo.spec.game import Game

    for call in (lambda: play_game(2, 1, "official"), lambda: fast_random_games(2, 0, 2, "official"),
                 lambda: Game.new(2, 1, "official")):
        with pytest.raises(InputError, match=r"rules must be a Ruleset \(get_ruleset\(name\) gives one"):
            call()
