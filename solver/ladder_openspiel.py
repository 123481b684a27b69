"""OpenSpiel's information-set MCTS in the ladder: ``openspiel-ismcts[:simulations=N,...]``.

Needs the ``openspiel`` extra. The bot searches our OpenSpiel game (:mod:`sushigo.openspiel`,
``python_sushigo`` with ``turn_based=true``: ISMCTS searches sequential games only), so a game
with such a seat is played through that game: its chance nodes deal exactly the cards
:func:`spec.executor.seeded_deals` deals for the seed, the picks are entered seat by seat in
seat order, and every other seat's policy is asked with the view and the generator the executor
gives it. A game without an OpenSpiel seat played this way is the executor's game, move for
move (tests/test_ladder.py). The bot is :class:`OpenSpielISMCTS`, a
:class:`spec.policies.Policy` whose ``choose`` reads the game state the driver hands it (the bot
resamples the hidden cards from its own information state, so it sees no more than its seat).
Its generator is ``numpy.random.RandomState`` seeded from the game's seed and its seat.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Callable, Sequence
from typing import Any

from sushigo.spec.errors import InputError
from sushigo.spec.policies import PlayerView, Policy
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.turns import Turn

INSTALL_HINT = "pip install 'sushigo-spec[openspiel]'"
BOTS = ("openspiel-ismcts",)
#: Options of openspiel-ismcts: (type, default, smallest value).
OPTIONS: dict[str, tuple[type, float, float]] = {
    "simulations": (int, 100, 1),
    "uct_c": (float, 10.0, 1e-9),  # points are the payoff: a wide exploration constant
    "world_samples": (int, -1, -1),  # -1: unlimited (OpenSpiel's default)
    "rollouts": (int, 1, 1),
}


def _options(spec: str) -> dict[str, float]:
    name, _, rest = spec.partition(":")
    if name not in BOTS:
        near = difflib.get_close_matches(name, BOTS, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise InputError(f"unknown policy {name!r}{hint} (OpenSpiel bots: {', '.join(BOTS)})")
    values = {k: v[1] for k, v in OPTIONS.items()}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, raw = (s.strip() for s in part.partition("="))
        if key not in OPTIONS or not eq:
            near = difflib.get_close_matches(key, list(OPTIONS), n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise InputError(f"policy {spec!r}: {part!r} is not an option of {name}{hint} "
                             f"(options: {', '.join(f'{k}={v[1]:g}' for k, v in OPTIONS.items())})")
        kind, _, low = OPTIONS[key]
        try:
            value = kind(raw)
        except ValueError:
            value = None
        if value is None or not value >= low or (key == "world_samples" and value == 0):
            raise InputError(f"policy {spec!r}: {key}={raw!r} is out of range; give a "
                             f"{'whole number' if kind is int else 'number'} of at least {low:g}"
                             + (" (or -1)" if key == "world_samples" else ""))
        values[key] = value
    return values


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        raise InputError(f"the OpenSpiel bots need OpenSpiel: {INSTALL_HINT}") from None
    return pyspiel


class OpenSpielISMCTS:
    """OpenSpiel's ISMCTSBot as a policy; the driver sets :attr:`state` before each choice."""

    needs_openspiel = True  # solver.ladder.play drives its games through OpenSpiel

    def __init__(self, spec: str, options: dict[str, float]) -> None:
        self.name = spec
        self.options = options
        self.state: Any = None
        self._bot: Any = None

    def start(self, game: Any, seed: int, seat: int) -> None:
        """A fresh bot for one game, seeded from the game's seed and the seat."""
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        rng = np.random.RandomState((seed * 7 + seat) % 2**32)
        evaluator = mcts.RandomRolloutEvaluator(int(self.options["rollouts"]), rng)
        self._bot = ismcts.ISMCTSBot(game, evaluator, float(self.options["uct_c"]),
                                     int(self.options["simulations"]),
                                     max_world_samples=int(self.options["world_samples"]), random_state=rng)

    def choose(self, view: PlayerView, options: Sequence[Turn], rng: random.Random) -> Turn:
        from sushigo.actions import decode

        if self.state is None or self._bot is None:
            raise InputError(f"{self.name} plays only in a game driven through OpenSpiel (the ladder's)")
        turn = decode(int(self._bot.step(self.state)))
        return next(o for o in options if o == turn)


def openspiel_factory(spec: str) -> Callable[[], Policy]:
    """A maker of fresh ``openspiel-ismcts`` bots (options checked now; OpenSpiel needed)."""
    options = _options(spec.strip())
    _pyspiel()
    return lambda: OpenSpielISMCTS(spec.strip(), options)


def play_openspiel(rules: Ruleset, players: int, seed: int, made: Sequence[Policy],
                   seats: Sequence[Policy] | None = None) -> tuple[Any, Any]:
    """One game through ``python_sushigo`` (turn-based), dealt as the executor deals ``seed``:
    (totals, winners). ``made`` are the seats' policies, ``seats`` what is asked (by default
    the same; the ladder's counting wrappers)."""
    from sushigo.spec.executor import _step_view, seeded_deals
    from sushigo.spec.game import MutableGame
    from sushigo.spec.step import options

    import sushigo.openspiel as sg
    from sushigo.actions import encode

    pyspiel = _pyspiel()
    if rules.dummy_2p or sg.rules_from_params(rules.name, "") != rules:
        raise InputError(f"a game with an OpenSpiel bot is played under a named ruleset without the dummy, "
                         f"not {rules.describe()}")
    utility = "diff" if players == 2 else "score"
    game = pyspiel.load_game(sg.GAME_NAME, {"players": players, "rules": rules.name, "utility": utility,
                                            "turn_based": True})
    cards = [int(c) for rnd in seeded_deals(rules, players, seed) for hand in rnd for c in hand]
    prng = random.Random(MutableGame.new(players, seed, rules).policy_seed)
    asked = made if seats is None else seats
    for s, p in enumerate(made):
        if isinstance(p, OpenSpielISMCTS):
            p.start(game, seed, s)
    state = game.new_initial_state()
    dealt = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(cards[dealt])
            dealt += 1
            continue
        seat = state.current_player()
        step = state.step
        bot = made[seat]
        if isinstance(bot, OpenSpielISMCTS):
            bot.state = state
        view = _step_view(step, seat, seat, step.hands[seat])
        state.apply_action(encode(asked[seat].choose(view, options(step, seat), prng)))
    score = state.step.score()
    return score.totals, score.winners
