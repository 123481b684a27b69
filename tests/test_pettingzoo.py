"""The PettingZoo environments (extra ``pettingzoo``): PettingZoo's own tests, seeds, rewards.

Expected values come from the executor: ``sushigo play --seed S`` records (deal, picks,
round scores, totals), played back through the environment.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo", reason="PettingZoo is the optional extra 'pettingzoo'")

from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test  # noqa: E402
from sushigo.spec.cards import Card  # noqa: E402
from sushigo.spec.errors import IllegalMoveError, InputError, SushiGoError  # noqa: E402
from sushigo.spec.executor import DUMMY_SEAT, play_game  # noqa: E402
from sushigo.spec.record import GameRecord, record_from_json  # noqa: E402
from sushigo.spec.ruleset import get_ruleset  # noqa: E402

from sushigo import pettingzoo as sp  # noqa: E402
from sushigo.actions import NUM_ACTIONS, encode  # noqa: E402
from sushigo.cli import main as cli  # noqa: E402

FORMS = [{"players": n} for n in (2, 3, 4, 5)] + [
    {"players": 2, "rules": "dummy-2p"},
    {"players": 3, "rules": "wasabi-optional"},
    {"players": 4, "rules": "pass-both-ways", "rule": ["winner_tie=none"]},
]


@pytest.mark.filterwarnings("ignore::UserWarning")  # "observation should be a Box": it is a Dict with a mask
@pytest.mark.parametrize("kwargs", FORMS, ids=str)
def test_pettingzoos_api_and_seed_tests_pass(kwargs: dict[str, Any]) -> None:
    parallel_api_test(sp.parallel_env(**kwargs), num_cycles=1000)
    api_test(sp.env(**kwargs), num_cycles=1000)
    parallel_seed_test(lambda: sp.parallel_env(**kwargs))
    seed_test(lambda: sp.env(**kwargs))


def play_back(env: Any, record: GameRecord) -> tuple[list[list[float]], list[list[list[int]]]]:
    """Play a record's picks through the env; rewards per step and the hands seen per round start."""
    players = record.players
    agents = [f"player_{p}" for p in range(players)]
    rewards: list[list[float]] = []
    seen: list[list[list[int]]] = []
    obs, _ = env.reset(seed=record.seed)
    for rnd in record.rounds:
        seen.append([list(env._step.hands[p]) for p in range(players)])
        assert [list(o["action_mask"].nonzero()[0]) for o in obs.values()]  # a mask for everyone
        for t, turns in enumerate(rnd.turns):
            actions = {a: encode(turns[p]) for p, a in enumerate(agents)}
            if record.rules.dummy_2p:
                ctrl = t % 2
                actions[agents[ctrl]] += NUM_ACTIONS * encode(turns[DUMMY_SEAT])
            for a, number in actions.items():
                assert obs[a]["action_mask"][number] == 1  # the recorded pick is legal in the env
            obs, rew, term, trunc, infos = env.step(actions)
            assert not any(trunc.values())
            assert all("illegal_action" not in i for i in infos.values())
            rewards.append([rew[a] for a in agents])
    assert not env.agents and all(term.values())
    return rewards, seen


@pytest.mark.parametrize(("players", "name"), [(2, "official"), (3, "official"), (4, "pass-both-ways"),
                                               (5, "official"), (2, "dummy-2p"), (3, "wasabi-optional")])
def test_seeded_games_deal_and_score_as_the_executor(players: int, name: str) -> None:
    rules = get_ruleset(name)
    env = sp.parallel_env(players=players, rules=name)
    for seed in range(25):
        record = play_game(players, seed, rules)
        rewards, seen = play_back(env, record)
        for rnd, hands in zip(record.rounds, seen, strict=True):
            dealt = [[0] * len(Card) for _ in range(players)]
            for p in range(players):
                for card in rnd.hands[p]:
                    dealt[p][int(card)] += 1
            if rules.dummy_2p:  # player 0 controls the dummy first and has drawn the pile's top card
                dealt[0][int(rnd.hands[DUMMY_SEAT][0])] += 1
            assert hands == dealt
        totals = [sum(r[p] for r in rewards) for p in range(players)]
        assert totals == [float(t) for t in record.totals[:players]]
        # the rewards of a round's last step are that round's points (+ puddings after the last)
        size = len(record.rounds[0].turns)
        for r, rnd in enumerate(record.rounds[:-1]):
            assert rewards[(r + 1) * size - 1] == [float(x) for x in rnd.scores[:players]]
        assert env.totals() == record.totals


def test_reset_deals_what_sushigo_play_deals(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["play", "--players", "3", "--seed", "41", "--record", "-"]) == 0
    record = record_from_json(json.loads(capsys.readouterr().out))
    env = sp.parallel_env(players=3)
    _, infos = env.reset(seed=41)
    assert infos["player_0"]["seed"] == 41
    for p in range(3):
        want = [0] * len(Card)
        for card in record.rounds[0].hands[p]:
            want[int(card)] += 1
        assert env._step.hands[p] == tuple(want)
    rewards, _ = play_back(env, record)
    assert [sum(r[p] for r in rewards) for p in range(3)] == [float(t) for t in record.totals]


def test_reset_without_a_seed_follows_the_last_seed() -> None:
    a, b = sp.parallel_env(players=2), sp.parallel_env(players=2)
    a.reset(seed=9)
    b.reset(seed=9)
    a.reset()
    b.reset()
    assert a.seed_used == b.seed_used != 9
    assert np.array_equal(a.reset()[0]["player_0"]["observation"], b.reset()[0]["player_0"]["observation"])


def test_a_negative_seed_is_refused_and_the_game_under_way_goes_on() -> None:
    """Gymnasium's seeding refuses a negative seed; here it would deal the game of its absolute
    value (random.Random(-5) shuffles as random.Random(5))."""
    env = sp.parallel_env(players=2)
    obs, _ = env.reset(seed=5)
    with pytest.raises(InputError, match=r"seed -5: give a whole number of 0 or more"):
        env.reset(seed=-5)
    assert env.seed_used == 5
    assert np.array_equal(env._observe(0)["observation"], obs["player_0"]["observation"])
    aec = sp.env(players=2)
    with pytest.raises(InputError, match="seed -1"):
        aec.reset(seed=-1)
    for bad in ("abc", 1.5, True):  # Gymnasium's seeding takes Python ints only, too
        with pytest.raises(InputError, match=r"seed .*: give a whole number of 0 or more"):
            env.reset(seed=bad)  # type: ignore[arg-type]
    assert env.seed_used == 5


def test_a_malformed_step_or_agent_names_the_fix() -> None:
    env = sp.parallel_env(players=2)
    env.reset(seed=2)
    for bad in (None, [0, 0], 3):
        with pytest.raises(InputError, match=r"step\(\) takes a dict of actions by agent"):
            env.step(bad)  # type: ignore[arg-type]
    for agent in ("nobody", "player_2", None):
        with pytest.raises(InputError, match=r"agents are player_0, player_1"):
            env.observation_space(agent)  # type: ignore[arg-type]
        with pytest.raises(InputError, match=r"agents are player_0, player_1"):
            env.action_space(agent)  # type: ignore[arg-type]
    assert env._step.turn == 0  # nothing moved


def test_an_illegal_action_is_replaced_by_the_lowest_legal_one() -> None:
    env = sp.parallel_env(players=2)
    obs, _ = env.reset(seed=3)
    legal = [list(np.flatnonzero(obs[a]["action_mask"])) for a in env.agents]
    bad = next(n for n in range(NUM_ACTIONS) if n not in legal[0])
    twin = sp.parallel_env(players=2)
    twin.reset(seed=3)
    got = env.step({"player_0": bad, "player_1": legal[1][-1]})
    want = twin.step({"player_0": legal[0][0], "player_1": legal[1][-1]})
    assert got[4]["player_0"]["illegal_action"] == bad
    assert "illegal_action" not in got[4]["player_1"]
    for agent in ("player_0", "player_1"):
        assert np.array_equal(got[0][agent]["observation"], want[0][agent]["observation"])
    assert got[1] == want[1]


def test_an_illegal_action_raises_when_asked_and_nothing_moves() -> None:
    env = sp.parallel_env(players=2, illegal="raise")
    obs, _ = env.reset(seed=3)
    before = env._step
    with pytest.raises(IllegalMoveError, match=r"player_0 chose action 239, which is not legal now \(legal"):
        env.step({"player_0": 239, "player_1": int(np.flatnonzero(obs["player_1"]["action_mask"])[0])})
    assert env._step is before
    with pytest.raises(SushiGoError, match="needs an action for every live agent; player_1"):
        env.step({"player_0": int(np.flatnonzero(obs["player_0"]["action_mask"])[0])})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 6}, "6 players is not allowed"),
        ({"players": 3, "rules": "dummy-2p"}, "dummy-2p variant is for 2 players"),
        ({"illegal": "ignore"}, "illegal='ignore' is not known"),
        ({"rule": ["maki_first_tie=most"]}, "maki_first_tie='most' is not allowed"),
        ({"rules": "offical"}, "did you mean 'official'"),
    ],
)
def test_bad_arguments_say_what_to_fix(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(SushiGoError, match=message):
        sp.parallel_env(**kwargs)


def test_rule_overrides_reach_the_ruleset() -> None:
    env = sp.parallel_env(players=3, rule="maki_first_tie=each,winner_tie=none")
    assert env.rules == get_ruleset("official", ["maki_first_tie=each", "winner_tie=none"])
