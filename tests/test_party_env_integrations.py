"""Party for bots (issue 29 item 5): PettingZoo's and OpenSpiel's own tests for every suggested
menu at the fewest and the most players it seats, and ``sushigo play --game party`` spread over
processes and a local Dask cluster.

Expected values come from the reference executor: a game's rewards add up to its record's totals,
and the record re-executes (:func:`replay_party`); the spread runs print the bytes of the serial
run. Each harness is skipped when its extra is not installed (CI installs them).
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sushigo.spec.errors import IllegalMoveError, InputError
from sushigo.spec.party.executor import replay_party
from sushigo.spec.party.menus import SUGGESTED, parse_menu

from sushigo.cli import main as cli

TABLES = [(name, n) for name in SUGGESTED for n in sorted({parse_menu(name).seats()[0],
                                                           parse_menu(name).seats()[-1]})]


# --- PettingZoo ------------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::UserWarning")  # "observation should be a Box": a Dict with a mask
@pytest.mark.parametrize(("menu", "players"), TABLES)
def test_pettingzoo_api_seed_and_render_tests_pass(menu: str, players: int) -> None:
    pytest.importorskip("pettingzoo", reason="PettingZoo is the optional extra 'pettingzoo'")
    from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test, seed_test

    from sushigo import pettingzoo as sp

    kw: dict[str, Any] = {"game": "party", "menu": menu, "players": players}
    api_test(sp.env(**kw), num_cycles=200)
    parallel_api_test(sp.parallel_env(**kw), num_cycles=200)
    seed_test(lambda: sp.env(**kw))
    parallel_seed_test(lambda: sp.parallel_env(**kw))
    render_test(lambda render_mode=None: sp.env(**kw, render_mode=render_mode))


def _masked(obs: dict[str, Any], rng: random.Random) -> int:
    return rng.choice([a for a, m in enumerate(obs["action_mask"]) if m])


@pytest.mark.parametrize("form", ["aec", "parallel"])
@pytest.mark.parametrize(("menu", "players"), [("dinner-for-two", 4), ("big-banquet", 8), ("master-menu", 3)])
def test_pettingzoo_rewards_add_up_to_the_records_totals(form: str, menu: str, players: int) -> None:
    pytest.importorskip("pettingzoo", reason="PettingZoo is the optional extra 'pettingzoo'")
    from sushigo import pettingzoo as sp

    rng = random.Random(players)
    kw: dict[str, Any] = {"game": "party", "menu": menu, "players": players}
    got = [0.0] * players
    if form == "aec":
        env = sp.env(**kw)
        env.reset(seed=21)
        for agent in env.agent_iter():
            obs, reward, done, cut, _ = env.last()
            got[env.possible_agents.index(agent)] += reward
            env.step(None if done or cut else _masked(obs, rng))
    else:
        env = sp.parallel_env(**kw)
        obs, infos = env.reset(seed=21)
        assert infos["player_0"]["seed"] == 21
        while env.agents:
            acts = {a: _masked(o, rng) if o["action_mask"].any() else 0 for a, o in obs.items()}
            obs, rewards, *_ = env.step(acts)
            got = [g + rewards[f"player_{k}"] for k, g in enumerate(got)]
    record = env.record().as_json()
    assert got == record["totals"]
    assert replay_party(json.loads(json.dumps(record))).ok


def test_pettingzoo_illegal_actions_and_bad_arguments() -> None:
    pytest.importorskip("pettingzoo", reason="PettingZoo is the optional extra 'pettingzoo'")
    from sushigo import pettingzoo as sp

    env = sp.env(game="party", menu="sushi-go", players=3, illegal="raise")
    env.reset(seed=1)
    with pytest.raises(IllegalMoveError, match="player_0 chose action 999"):
        env.step(999)
    env = sp.env(game="party", menu="sushi-go", players=3)
    env.reset(seed=1)
    env.step(999)
    assert env.infos["player_0"]["illegal_action"] == 999  # replaced by the lowest legal action
    with pytest.raises(InputError, match="menu=NAME"):
        sp.env(game="party", players=3)
    with pytest.raises(InputError, match="game='chess'"):
        sp.env(game="chess")
    with pytest.raises(InputError, match="seats 3-8"):
        sp.parallel_env(game="party", menu="cutthroat-combo", players=2)


# --- OpenSpiel -------------------------------------------------------------------------------


@pytest.mark.parametrize(("menu", "players"), TABLES)
def test_openspiel_random_sim_test_passes(menu: str, players: int) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional extra 'openspiel'")
    from sushigo import openspiel as sg

    game = pyspiel.load_game(sg.PARTY_NAME, {"menu": menu, "players": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_a_custom_menu_by_game_string_and_the_win_utility() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional extra 'openspiel'")
    from sushigo import openspiel as sg  # registers the games

    text = "python_sushigo_party(menu=maki;tempura;sashimi;miso;chopsticks;special-order;pudding,players=3," \
           "utility=win)"
    game = pyspiel.load_game(text)
    assert str(game) == text.replace("players=3,", "players=3,rule=,")  # it parses back
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            state.apply_action(rng.choice(outcomes)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.returns()) == pytest.approx(1.0)
    with pytest.raises(InputError, match="seats 3-8"):
        pyspiel.load_game(sg.PARTY_NAME, {"menu": "cutthroat-combo", "players": 2})


# --- sushigo play --game party --jobs / --cluster ------------------------------------------------

PLAY = ["play", "--game", "party", "--menu", "dinner-for-two", "--players", "4", "--games", "45", "--seed",
        "3", "--json"]


def _out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = cli(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_play_party_over_processes_prints_the_serial_bytes(capsys: pytest.CaptureFixture[str]) -> None:
    serial = _out(capsys, *PLAY)
    assert _out(capsys, *PLAY, "--jobs", "1") == serial
    assert _out(capsys, *PLAY, "--jobs", "2") == serial
    doc = json.loads(serial)
    assert doc["games"] == 45 and doc["seeds"] == [3, 47]


@pytest.mark.slow  # starting the cluster is most of its 20 s
def test_play_party_on_a_local_dask_cluster_prints_the_same_bytes(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed", reason="Dask is the optional extra 'dask'")
    serial = _out(capsys, *PLAY)
    assert _out(capsys, *PLAY, "--cluster", "local", "--jobs", "2") == serial


# --- the example of docs/party.md ----------------------------------------------------------------


def test_the_docs_example_prints_what_the_page_shows() -> None:
    pytest.importorskip("pyspiel", reason="OpenSpiel is the optional extra 'openspiel'")
    pytest.importorskip("pettingzoo", reason="PettingZoo is the optional extra 'pettingzoo'")
    page = (Path(__file__).resolve().parent.parent / "docs" / "party.md").read_text(encoding="utf-8")
    section = page.split("## Party for bots")[1].split("\n## ")[0]
    code, shown = re.findall(r"^```[\w-]*\n(.*?)^```", section, re.M | re.S)[:2]
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd="/")
    assert run.returncode == 0, run.stderr
    assert run.stdout == shown
