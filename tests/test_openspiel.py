"""The OpenSpiel games (extra ``openspiel``): OpenSpiel's own checks, recorded games, resampling.

Expected values come from the executor (recorded ``sushigo play`` games, an independent
implementation of the flow) and from the rulebook's deck (chance probabilities).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional extra 'openspiel'")

from sushigo.spec.cards import Card, Token  # noqa: E402
from sushigo.spec.errors import SushiGoError  # noqa: E402
from sushigo.spec.executor import play_game  # noqa: E402
from sushigo.spec.ruleset import RULESETS, get_ruleset  # noqa: E402

from sushigo import openspiel as sg  # noqa: E402  (registers the games)
from sushigo.actions import encode  # noqa: E402

CASES = [(name, n) for name in RULESETS for n in ((2,) if RULESETS[name].dummy_2p else (2, 3, 4, 5))]


def load(**params: Any) -> Any:
    return pyspiel.load_game(sg.GAME_NAME, params)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_sim_test_passes_under_every_ruleset(name: str, players: int) -> None:
    game = load(players=players, rules=name)
    pyspiel.random_sim_test(game, num_sims=2 if name == "official" else 1, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "params",
    [
        {"players": 3, "turn_based": True},
        {"players": 2, "rules": "dummy-2p", "turn_based": True, "utility": "diff"},
        {"players": 2, "rules": "dummy-2p", "utility": "win"},
        {"players": 4, "rule": "maki_first_tie=each,winner_tie=none", "utility": "win"},
        {"players": 2, "rules": "wasabi-optional", "utility": "diff"},
    ],
)
def test_random_sim_test_passes_for_every_form_and_utility(params: dict[str, Any]) -> None:
    pyspiel.random_sim_test(load(**params), num_sims=2, serialize=True, verbose=False)


def test_parameters_reach_the_ruleset() -> None:
    game = load(players=4, rule="maki_first_tie=each,winner_tie=none")
    assert game.config.rules == get_ruleset("official", ["maki_first_tie=each", "winner_tie=none"])
    assert game.num_players() == 4
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert load(turn_based=True).get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert load(utility="diff").get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"players": 6}, "6 players is not allowed"),
        ({"players": 3, "utility": "diff"}, "utility 'diff' is for 2 players"),
        ({"utility": "points"}, "utility 'points' is not known"),
        ({"rules": "oficial"}, "did you mean 'official'"),
        ({"rule": "maki_first_tie=most"}, "maki_first_tie='most' is not allowed"),
        ({"rules": "dummy-2p", "players": 3}, "dummy-2p variant is for 2 players"),
    ],
)
def test_bad_parameters_say_what_to_fix(params: dict[str, Any], message: str) -> None:
    with pytest.raises(SushiGoError, match=message):
        sg.SushiGoGame(params)


def test_a_chance_node_deals_one_card_by_the_copies_left() -> None:
    # rulebook deck: 108 cards, 14 tempura, 5 squid, 4 chopsticks ...
    state = load().new_initial_state()
    assert state.is_chance_node()
    first = dict(state.chance_outcomes())
    assert first[int(Card.TEMPURA)] == pytest.approx(14 / 108)
    assert first[int(Card.CHOPSTICKS)] == pytest.approx(4 / 108)
    state.apply_action(int(Card.SQUID))
    second = dict(state.chance_outcomes())
    assert second[int(Card.SQUID)] == pytest.approx(4 / 107)
    assert sum(Fraction(p).limit_denominator(107) for p in second.values()) == 1


def recorded(players: int, count: int, name: str = "official") -> Iterator[Any]:
    rules = get_ruleset(name)
    for seed in range(count):
        yield play_game(players, seed, rules)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_recorded_games_replay_to_the_recorded_totals(players: int) -> None:
    game = load(players=players)
    for record in recorded(players, 1000):
        state = sg.replay_record(game, record)
        assert state.is_terminal()
        assert state.returns() == [float(t) for t in record.totals]


@pytest.mark.parametrize("name", ["dummy-2p", "pass-both-ways", "wasabi-optional", "winner-tie-none"])
def test_recorded_games_of_the_variants_replay_with_every_utility(name: str) -> None:
    players = 2
    games = {u: load(players=players, rules=name, utility=u) for u in sg.UTILITIES}
    for record in recorded(players, 100, name):
        t = record.totals
        assert sg.replay_record(games["score"], record).returns() == [float(t[0]), float(t[1])]
        assert sg.replay_record(games["diff"], record).returns() == [float(t[0] - t[1]), float(t[1] - t[0])]
        k = len(record.winners)
        want = [1.0 / k if p in record.winners else 0.0 for p in range(players)]
        assert sg.replay_record(games["win"], record).returns() == want


def test_an_illegal_recorded_pick_is_refused_by_the_executor() -> None:
    record = play_game(2, 3)
    data = record.to_json()
    data["rounds"][0]["turns"][0][0] = ["tempura", "tempura"]  # chopsticks on turn 1
    from sushigo.spec.record import record_from_json

    with pytest.raises(Exception, match="R-CHOPSTICKS-EARLIER"):
        sg.replay_record(load(), record_from_json(data))


def _dealt(game: Any) -> Any:
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_a_bad_player_or_a_lone_action_at_a_joint_turn_says_what_to_do() -> None:
    """A player out of range was an IndexError, a single action at a simultaneous turn an
    AssertionError with no text, asking a non-controller's moves at the dummy's turn another."""
    state = _dealt(load())
    for bad in (2, 5):
        with pytest.raises(SushiGoError, match=r"seat .* is not a player; seats are 0..1"):
            state.legal_actions(bad)
    with pytest.raises(SushiGoError, match=r"apply_actions\(\[\.\.\.\]\), one per player"):
        state.apply_action(state.legal_actions(0)[0])
    state.apply_actions([state.legal_actions(0)[0], state.legal_actions(1)[0]])  # nothing moved before
    dummy = _dealt(load(rules="dummy-2p"))
    dummy.apply_actions([dummy.legal_actions(0)[0], dummy.legal_actions(1)[0]])
    ctrl = dummy.current_player()
    assert ctrl in (0, 1) and dummy.legal_actions(ctrl)
    assert dummy.legal_actions(1 - ctrl) == []  # OpenSpiel: no moves for a player not to move


# --------------------------------------------------------------------------- resampling


def decision_states(game: Any, seed: int) -> Iterator[Any]:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        yield state
        if state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(
    "params",
    [
        {"players": 3},
        {"players": 4, "rules": "pass-both-ways", "turn_based": True},
        {"players": 2, "rules": "dummy-2p"},
        {"players": 2, "rules": "dummy-2p", "turn_based": True},
        {"players": 2, "rules": "wasabi-optional"},
    ],
)
def test_resampled_states_look_the_same_to_the_player(params: dict[str, Any]) -> None:
    game = load(**params)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = checked = first = 0
    for seed in range(2):
        for state in decision_states(game, seed):
            movers = range(game.num_players()) if state.is_simultaneous_node() else [state.current_player()]
            for p in movers:
                other = state.resample_from_infostate(p, sampler)
                # rebuilt through the game from its own history: a real state of the game
                assert other.history() != [] and len(other.history()) == len(state.history())
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.observation_string(p) == state.observation_string(p)
                assert list(other.observation_tensor(p)) == list(state.observation_tensor(p))
                assert other.current_player() == state.current_player()
                assert other.legal_actions(p) == state.legal_actions(p)
                checked += 1
                if state.step.turn == 0:  # nobody has seen another's hand yet
                    first += 1
                    others = [q for q in range(other.step.seats) if q != p]
                    differed += any(other.step.hands[q] != state.step.hands[q] for q in others)
    assert checked > 40
    assert differed >= 0.8 * first  # the hidden hands are really dealt afresh


def all_cards(step: Any) -> list[int]:
    """Cards in hands, deck, tableaux and the tableaux of scored rounds, by kind."""
    cards = [0] * len(Card)
    for counts in (*step.hands, step.deck):
        for c, n in enumerate(counts):
            cards[c] += n
    for tab in (*step.tableaux, *(t.counts for rnd in step.rounds for t in rnd)):
        for tok, n in enumerate(tab):
            for c in Token(tok).cards:
                cards[int(c)] += n
    return cards


@pytest.mark.parametrize("params", [{"players": 4}, {"players": 2, "rules": "dummy-2p"}])
def test_a_resample_keeps_every_card_of_the_deck(params: dict[str, Any]) -> None:
    game = load(**params)
    deck = list(game.config.rules.deck)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for state in decision_states(game, 5):
        assert all_cards(state.step) == deck
        other = state.resample_from_infostate(0, sampler)
        assert all_cards(other.step) == deck
        assert other.step.hands[0] == state.step.hands[0]
        assert other.step.tableaux == state.step.tableaux


def test_information_set_mcts_plays_the_turn_based_form() -> None:
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    game = load(players=2, utility="diff", turn_based=True)
    rng = np.random.RandomState(7)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 20, random_state=rng)
    state = next(decision_states(game, 3))
    action = bot.step(state)
    assert action in state.legal_actions()


# --------------------------------------------------------------------------- endgames

PUZZLES = json.loads((Path(__file__).parents[1] / "solver" / "data" / "puzzles.json").read_text())["puzzles"]
# OpenSpiel's sequence-form LP (cvxpy) on the turn-based form solves these within seconds;
# the others (5 and 6 cards left, and puzzle 9) take minutes each: docs/openspiel.md has the times.
FITS = {4, 12, 14, 16, 21, 22}


def endgame(position: dict[str, Any]) -> Any:
    return pyspiel.load_game(sg.ENDGAME_NAME, {"position": json.dumps(position)})


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: f"puzzle{p['id']}")
def test_endgame_passes_random_sim_test(puzzle: dict[str, Any]) -> None:
    pyspiel.random_sim_test(endgame(puzzle["position"]), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("puzzle", [p for p in PUZZLES if p["id"] in FITS], ids=lambda p: f"puzzle{p['id']}")
def test_openspiels_exact_solver_gives_the_endgame_values(puzzle: dict[str, Any]) -> None:
    pytest.importorskip("cvxpy", reason="OpenSpiel's LP solvers need cvxpy (in the 'openspiel' extra)")
    from open_spiel.python.algorithms import sequence_form_lp
    from sushigo.solver.endgame import parse_position, solve_position

    want = solve_position(parse_position(puzzle["position"])).value  # what `sushigo endgame --json` prints
    assert want == puzzle["value"]
    turn_based = pyspiel.convert_to_turn_based(endgame(puzzle["position"]))
    value, other, _, _ = sequence_form_lp.solve_zero_sum_game(turn_based)
    assert value == pytest.approx(float(want), abs=1e-6)
    assert other == pytest.approx(-float(want), abs=1e-6)


#: Solved by OpenSpiel's stage-game LP in one children-first pass (below) in about 50 s of CPU in
#: all; each of the other eleven takes 12 s to minutes (docs/openspiel.md has the times).
SWEEP = {4, 8, 9, 10, 12, 14, 15, 16, 17, 19, 20, 21, 22}


def stage_lp_value(game: Any) -> float:
    """The value of a simultaneous zero-sum game with perfect information, as OpenSpiel's
    ``value_iteration`` computes it (states merged on ``str``, each simultaneous node's matrix game
    solved by OpenSpiel's ``lp_solver``), in one pass children-first instead of repeated sweeps
    over every state: each stage game is solved once. A node where each player has one legal
    action takes its child's value (a 1x1 game needs no LP)."""
    import pyspiel
    from open_spiel.python.algorithms import lp_solver

    values: dict[str, float] = {}

    def value(state: Any) -> float:
        key = str(state)
        if key in values:
            return values[key]
        if state.is_terminal():
            v = float(state.player_return(0))
        else:
            rows, cols = state.legal_actions(0), state.legal_actions(1)
            m = [[value(_child(state, a, b)) for b in cols] for a in rows]
            if len(rows) == len(cols) == 1:
                v = m[0][0]
            else:
                matrix = pyspiel.create_matrix_game(m, [[-x for x in row] for row in m])
                v = float(lp_solver.solve_zero_sum_matrix_game(matrix)[2])
        values[key] = v
        return v

    return value(game.new_initial_state())


def _child(state: Any, a: int, b: int) -> Any:
    child = state.clone()
    child.apply_actions([a, b])
    return child


def test_the_one_pass_is_openspiels_value_iteration() -> None:
    # On the two smallest puzzles OpenSpiel's own value_iteration (repeated sweeps) runs in a
    # second; the one pass must give its value at the root.
    pytest.importorskip("cvxpy", reason="OpenSpiel's LP solvers need cvxpy (in the 'openspiel' extra)")
    from open_spiel.python.algorithms import value_iteration

    for pid in (16, 22):
        game = endgame(next(p for p in PUZZLES if p["id"] == pid)["position"])
        values = value_iteration.value_iteration(game, -1, 1e-9, cyclic_game=True)
        assert stage_lp_value(game) == pytest.approx(values[str(game.new_initial_state())], abs=1e-6)


@pytest.mark.parametrize("puzzle", [p for p in PUZZLES if p["id"] in SWEEP], ids=lambda p: f"puzzle{p['id']}")
def test_openspiels_stage_lps_give_the_endgame_values(puzzle: dict[str, Any]) -> None:
    pytest.importorskip("cvxpy", reason="OpenSpiel's LP solvers need cvxpy (in the 'openspiel' extra)")
    from sushigo.solver.endgame import parse_position, solve_position

    want = solve_position(parse_position(puzzle["position"])).value  # what `sushigo endgame --json` prints
    assert want == puzzle["value"]
    assert stage_lp_value(endgame(puzzle["position"])) == pytest.approx(float(want), abs=1e-6)


def test_endgame_positions_are_checked() -> None:
    position = dict(PUZZLES[0]["position"])
    with pytest.raises(SushiGoError, match="needs the parameter position"):
        sg.SushiGoEndgame({})
    with pytest.raises(SushiGoError, match="position is not valid JSON"):
        sg.SushiGoEndgame({"position": "{hands"})
    hands, taken = position["hands"], position["taken"]
    three = dict(position, hands=[*hands, ["egg"] * 5], taken=[*taken, taken[0]])
    with pytest.raises(SushiGoError):
        sg.SushiGoEndgame({"position": json.dumps(three)})


def test_the_endgame_returns_are_the_difference_of_the_totals() -> None:
    # puzzle 16 (3 cards left): play the solver's principal line and compare with its value
    from sushigo.solver.endgame import parse_position, solve_position

    puzzle = next(p for p in PUZZLES if p["id"] == 16)
    result = solve_position(parse_position(puzzle["position"]))
    state = endgame(puzzle["position"]).new_initial_state()
    for t0, t1 in result.line:
        state.apply_actions([encode(t0), encode(t1)])
    assert state.is_terminal()
    t = state.totals()
    assert state.returns() == [float(t[0] - t[1]), float(t[1] - t[0])]
