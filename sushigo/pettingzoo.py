"""Sushi Go! as PettingZoo environments (``pip install 'sushigo-spec[pettingzoo]'``).

``parallel_env(players=4, rules="official", rule=())``: every live agent acts at once
each step, as the players pick at once; ``env(...)``: the AEC form (PettingZoo's
``parallel_to_aec`` of the same game). Agents are ``player_0`` .. ``player_{n-1}``.

* **Actions**: ``Discrete(240)``, the numbers of :mod:`sushigo.actions` (single picks,
  ordered chopsticks pairs, wasabi placement choices). In ``dummy-2p`` the player who
  controls the dummy this turn also chooses the dummy's card, so the space there is
  ``Discrete(240 * 15)``: ``turn + 240 * dummy_pick`` (``dummy_pick`` a single pick code;
  the other player's number is below 240).
* **Observations**: ``{"observation": float32 vector, "action_mask": int8 vector}``;
  the vector is :mod:`sushigo.tensor` (own hand, every tableau, puddings, scores, round
  and turn; never another hand), the mask marks the legal actions.
* **Rewards**: each player's round points when a round is scored, and the pudding points
  after the last round: over a game they add up to the executor's total.
* **Illegal actions** (our decision; the PettingZoo API leaves it open): with
  ``illegal="substitute"`` (the default) an action outside the mask is replaced by the
  lowest legal action and ``infos[agent]["illegal_action"]`` records the number given;
  the game goes on and no reward is changed. With ``illegal="raise"`` the step raises
  :class:`spec.errors.IllegalMoveError` naming the agent and the action, and nothing moves.
* **Render**: ``render_mode="ansi"`` returns the table as text (each seat's hand and tableau
  in the notation, ``player_0: hand tempura*2 squid | tableau maki3``); ``"human"`` prints
  that text.
* **Seeds**: ``reset(seed=S)`` deals exactly the hands of ``sushigo play --seed S``
  (:func:`spec.executor.seeded_deals`); ``reset()`` without a seed takes the next seed
  from a generator seeded by the last seed given (from ``random.SystemRandom`` if none
  was ever given). The seed of the game is in every ``infos[agent]["seed"]``. A negative
  seed raises :class:`spec.errors.InputError`.

The rules are the executor's: every move goes through :mod:`spec.step`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec

from sushigo import tensor
from sushigo.actions import N_PICKS, NUM_ACTIONS, action_string, decode, encode, encode_all
from sushigo.spec.errors import IllegalMoveError, InputError, check_first_seed
from sushigo.spec.executor import seeded_deals
from sushigo.spec.party.menus import ROUNDS, parse_menu
from sushigo.spec.party.readings import party_rules
from sushigo.spec.party.step import ActionSpace, PartyActions, PartyStep, PlayPaths
from sushigo.spec.ruleset import Ruleset, apply_overrides, get_ruleset
from sushigo.spec.scoring import pudding_points
from sushigo.spec.step import Step, deal, gift_options, new_game, options, play
from sushigo.spec.tableau import Tableau, format_hand, format_tableau

__all__ = ["GAMES", "ILLEGAL", "SushiGoParallelEnv", "SushiGoPartyEnv", "SushiGoPartyParallelEnv", "env",
           "parallel_env"]

ILLEGAL = ("substitute", "raise")
GAMES = ("sushigo", "party")


class _Spaces:
    """The spaces of each agent (the same object on every call, as the PettingZoo API test asks),
    and what the forms share besides."""

    possible_agents: list[str]
    _spaces: dict[str, tuple[spaces.Dict, spaces.Discrete]]

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._space(agent)[0]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._space(agent)[1]

    def _space(self, agent: str) -> tuple[spaces.Dict, spaces.Discrete]:
        try:
            return self._spaces[agent]
        except (KeyError, TypeError):
            agents = ", ".join(self.possible_agents)
            raise InputError(f"no agent {agent!r}; the agents are {agents}") from None

    render_mode: str | None
    agents: list[str]

    def _check_actions(self, actions: Any) -> None:
        """A parallel step's actions: a dict by agent, while the game is on."""
        if not self.agents:
            raise InputError("the game is over; call reset() to start another")
        if not isinstance(actions, Mapping):
            raise InputError(f"step() takes a dict of actions by agent "
                             f"(e.g. {{'{self.agents[0]}': 0, ...}}), not {actions!r}")

    def _shown(self, text: str) -> str | None:
        """A render's text: returned with ``ansi``; printed with ``human``, which returns None."""
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _game_seed(env: Any, seed: int | None) -> int:
    """The seed of the next game: ``seed``, or the next of a generator seeded by the last seed
    given (from ``random.SystemRandom`` if none was ever given); kept in ``env.seed_used``."""
    if seed is not None:
        check_first_seed(seed)  # as Gymnasium's seeding does: seed -s would deal seed s's game
        env._seeder = random.Random(seed)
        game_seed = seed
    else:
        if env._seeder is None:
            env._seeder = random.Random(random.SystemRandom().getrandbits(64))
        game_seed = env._seeder.getrandbits(63)
    env.seed_used = game_seed
    return game_seed


class SushiGoParallelEnv(_Spaces, ParallelEnv):  # type: ignore[misc]
    """The whole game; one step is one turn of every player."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "sushigo_v0",
        "is_parallelizable": True,
    }

    def __init__(
        self,
        players: int = 4,
        rules: str | Ruleset = "official",
        rule: str | Sequence[str] = (),
        illegal: str = "substitute",
        render_mode: str | None = None,
    ) -> None:
        base = rules if isinstance(rules, Ruleset) else get_ruleset(rules)
        overrides = [r for r in rule.split(",") if r.strip()] if isinstance(rule, str) else list(rule)
        self.rules = apply_overrides(base, overrides)
        if illegal not in ILLEGAL:
            raise InputError(f"illegal={illegal!r} is not known; choose one of {', '.join(ILLEGAL)}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise InputError(f"render_mode={render_mode!r} is not supported; use 'ansi', 'human' or None")
        new_game(players, self.rules)  # InputError for a player count the rules forbid
        self.players = players
        self.illegal = illegal
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agents: list[str] = []
        self._layout = tensor.pieces(self.rules, players)
        self._size = sum(size for _, size, _ in self._layout)
        self._actions = NUM_ACTIONS * N_PICKS if self.rules.dummy_2p else NUM_ACTIONS
        self._seeder: random.Random | None = None
        self.seed_used: int | None = None
        self._step: Step = new_game(players, self.rules)
        # card counts, and scores (200 is more than the printed numbers allow; larger rule numbers more)
        high = float(max(self.rules.deck) + max(200, self.rules.game_points_cap(players)))
        vector = (-high, high, (self._size,), np.float32)
        self._spaces = {
            agent: (
                spaces.Dict(
                    {
                        "observation": spaces.Box(*vector),
                        "action_mask": spaces.Box(0, 1, (self._actions,), np.int8),
                    }
                ),
                spaces.Discrete(self._actions),
            )
            for agent in self.possible_agents
        }


    # ---- the game

    def legal_actions(self, player: int) -> list[int]:
        """The action numbers ``player`` may take now (sorted)."""
        step = self._step
        turns = options(step, player)
        if player != step.controller:
            return encode_all(turns)
        out = []
        for turn in turns:
            for gift in encode_all(gift_options(step, turn)):
                out.append(encode(turn) + NUM_ACTIONS * gift)
        return sorted(out)

    def _observe(self, player: int) -> dict[str, np.ndarray[Any, Any]]:
        vector = np.zeros(self._size, np.float32)
        tensor.fill(tensor.views(vector, self._layout), self._step, player)
        mask = np.zeros(self._actions, np.int8)
        if self._step.dealt:
            mask[self.legal_actions(player)] = 1
        return {"observation": vector, "action_mask": mask}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        game_seed = _game_seed(self, seed)
        self._deals = seeded_deals(self.rules, self.players, game_seed)
        self._step = deal(new_game(self.players, self.rules), self._deals[0])
        self.agents = list(self.possible_agents)
        return {a: self._observe(p) for p, a in enumerate(self.agents)}, self._infos({})

    def _infos(self, extra: dict[str, dict[str, Any]]) -> dict[str, Any]:
        step = self._step
        base = {"seed": self.seed_used, "round": min(step.round_index, self.rules.rounds - 1) + 1}
        return {a: {**base, **extra.get(a, {})} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[Any, Any, Any, Any, Any]:
        self._check_actions(actions)
        step = self._step
        extra: dict[str, dict[str, Any]] = {}
        chosen: list[int] = []
        for p, agent in enumerate(self.agents):
            if agent not in actions:
                raise InputError(f"step() needs an action for every live agent; {agent} has none")
            action = actions[agent]
            legal = self.legal_actions(p)
            number = int(action) if isinstance(action, (int, np.integer)) else -1
            if number not in legal:
                if self.illegal == "raise":
                    raise IllegalMoveError(
                        f"{agent} chose action {action!r}, which is not legal now "
                        f"(legal: {', '.join(_describe(a) for a in legal)})"
                    )
                extra[agent] = {"illegal_action": action}
                number = legal[0]
            chosen.append(number)
        turns = [decode(a % NUM_ACTIONS) for a in chosen]
        gift = None
        if step.controller is not None:
            gift = decode(chosen[step.controller] // NUM_ACTIONS)
        after = play(step, turns, gift)
        rewards = {a: 0.0 for a in self.agents}
        if after.round_index != step.round_index:
            for p, a in enumerate(self.agents):
                rewards[a] = float(after.scores[-1][p])
            if after.over:
                pud = pudding_points(after.kept, self.rules)
                for p, a in enumerate(self.agents):
                    rewards[a] += float(pud[p])
            else:
                after = deal(after, self._deals[after.round_index])
        self._step = after
        over = after.over
        observations = {a: self._observe(p) for p, a in enumerate(self.agents)}
        terminations = {a: over for a in self.agents}
        truncations = {a: False for a in self.agents}
        infos = self._infos(extra)
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def totals(self) -> tuple[int, ...]:
        """The executor's totals of the game so far (final once the game is over)."""
        return self._step.score().totals

    def render(self) -> str | None:
        """The table as text, each seat's hand and tableau in the notation: returned with
        ``render_mode="ansi"``, printed with ``"human"`` (which returns None, as PettingZoo asks)."""
        if self.render_mode is None:
            return None
        step = self._step
        lines = [f"round {min(step.round_index, self.rules.rounds - 1) + 1}, turn {step.turn + 1}"]
        for s in range(step.seats):
            who = f"player_{s}" if s < self.players else "dummy"
            hand = format_hand(step.hands[s]) if step.dealt and s < len(step.hands) else "-"
            lines.append(f"{who}: hand {hand} | tableau {format_tableau(Tableau(step.tableaux[s]))}")
        return self._shown("\n".join(lines))


def _describe(action: int) -> str:
    if action < NUM_ACTIONS:
        return f"{action} ({action_string(action)})"
    return f"{action} ({action_string(action % NUM_ACTIONS)}, dummy {action_string(action // NUM_ACTIONS)})"


def _game(kwargs: dict[str, Any]) -> str:
    game = kwargs.pop("game", "sushigo")
    if game not in GAMES:
        raise InputError(f"game={game!r} is not known; choose one of {', '.join(GAMES)}")
    return str(game)


def parallel_env(**kwargs: Any) -> Any:
    """The parallel form: ``parallel_env(players=4, rules="official", rule=["winner_tie=none"])``;
    ``parallel_env(game="party", menu="sushi-go", players=4)`` for Sushi Go Party!."""
    if _game(kwargs) == "party":
        return SushiGoPartyParallelEnv(**kwargs)
    return SushiGoParallelEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The AEC form: PettingZoo's ``parallel_to_aec`` of :func:`parallel_env`; with
    ``game="party"`` Party's own AEC form, a decision at a time."""
    if _game(kwargs) == "party":
        return SushiGoPartyEnv(**kwargs)
    return parallel_to_aec(parallel_env(**kwargs))


# --------------------------------------------------------------------------- Sushi Go Party!


class _PartyBase(_Spaces):
    """What the two Party forms share: the menu, the spaces, seeds, rewards, render."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "sushigo_party_v0",
        "is_parallelizable": True,
    }

    def _setup(self, menu: str | None, players: int, rule: str | Sequence[str], illegal: str,
               render_mode: str | None) -> None:
        if menu is None:
            raise InputError("game='party' plays a menu: add menu=NAME or menu='KIND,KIND,...' "
                             "(sushigo rules --game party lists the menus)")
        if isinstance(players, bool) or not isinstance(players, int):
            raise InputError(f"players={players!r}: give a whole number, 2 to 8")
        overrides = [r for r in rule.split(",") if r.strip()] if isinstance(rule, str) else list(rule)
        self.rules = party_rules(overrides)
        self.menu = parse_menu(menu, players, uramaki=self.rules.uramaki_split)
        if illegal not in ILLEGAL:
            raise InputError(f"illegal={illegal!r} is not known; choose one of {', '.join(ILLEGAL)}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise InputError(f"render_mode={render_mode!r} is not supported; use 'ansi', 'human' or None")
        self.players, self.illegal, self.render_mode = players, illegal, render_mode
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.space = ActionSpace(self.menu)
        self._layout = tensor.party_pieces(self.space, players)
        self._size = sum(size for _, size, _ in self._layout)
        self._seeder: random.Random | None = None
        self.seed_used: int | None = None
        self._actions = PartyActions(PartyStep(self.menu, players, self.rules, 0), self.space)
        high = 1000.0  # counts and points: far above any a game reaches
        self._spaces = {
            agent: (
                spaces.Dict({"observation": spaces.Box(-high, high, (self._size,), np.float32),
                             "action_mask": spaces.Box(0, 1, (len(self.space),), np.int8)}),
                spaces.Discrete(len(self.space)),
            )
            for agent in self.possible_agents
        }

    def _new_game(self, seed: int | None) -> None:
        game_seed = _game_seed(self, seed)
        step = PartyStep(self.menu, self.players, self.rules, game_seed, ["agent"] * self.players)
        self._actions = PartyActions(step, self.space)
        self._scored = 0

    def _vector(self, player: int, legal: Sequence[int], paths: PlayPaths | None = None) -> dict[str, Any]:
        vector = np.zeros(self._size, np.float32)
        tensor.party_fill(tensor.views(vector, self._layout), self._actions, player, paths)
        mask = np.zeros(len(self.space), np.int8)
        mask[list(legal)] = 1
        return {"observation": vector, "action_mask": mask}

    def _legal_number(self, agent: str, action: Any, legal: Sequence[int], extra: dict[str, dict[str, Any]]
                      ) -> int:
        """``action`` if it is legal; else (``illegal="substitute"``) the lowest legal action, the
        one given kept in ``extra[agent]["illegal_action"]``, or (``"raise"``) an error naming it."""
        number = int(action) if isinstance(action, (int, np.integer)) else -1
        if number in legal:
            return number
        if self.illegal == "raise":
            raise IllegalMoveError(f"{agent} chose action {action!r}, which is not legal now (legal: "
                                   f"{', '.join(f'{a} ({self.space.names[a]})' for a in legal)})")
        extra[agent] = {"illegal_action": action}
        return legal[0]

    def _points(self) -> list[float]:
        """Points scored since last asked: a round's when it is scored, the desserts' at game end
        (over a game they add up to the record's totals)."""
        step = self._actions.step
        out = [0.0] * self.players
        for rnd in step.rounds[self._scored:]:
            out = [o + s for o, s in zip(out, rnd.scores, strict=True)]
        self._scored = len(step.rounds)
        if step.over and self._scored == ROUNDS:
            score = step.record().score
            assert score is not None
            out = [o + d for o, d in zip(out, score.dessert_points or [0] * self.players, strict=True)]
            self._scored += 1
        return out

    def _infos_for(self, agents: Sequence[str], extra: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
        step = self._actions.step
        base = {"seed": self.seed_used, "round": max(1, step.round_no), "phase": self._actions.phase}
        return {a: {**base, **extra.get(a, {})} for a in agents}

    def totals(self) -> tuple[int, ...]:
        """The record's totals (the game over), else the points of the rounds scored so far."""
        step = self._actions.step
        if step.over:
            score = step.record().score
            assert score is not None
            return score.totals
        return tuple(sum(r.scores[k] for r in step.rounds) for k in range(self.players))

    def record(self) -> Any:
        """The game's record (:class:`spec.party.executor.PartyRecord`), once over."""
        return self._actions.step.record()

    def render(self) -> str | None:
        """Each seat's hand and table in the notation: returned with ``ansi``, printed with ``human``."""
        if self.render_mode is None:
            return None
        step = self._actions.step
        lines = [f"menu {self.menu.label}, round {max(1, step.round_no)}, turn {max(1, step.turn)}"]
        for k in range(self.players):
            lines.append(f"player_{k}: {step.seat_text(k)}")
        return self._shown("\n".join(lines))


class SushiGoPartyEnv(_PartyBase, AECEnv):  # type: ignore[misc]
    """Party, one decision at a time (AEC): the seat whose decision it is acts (the plays in seat
    order, each hidden until the turn resolves; then the menus' and spoons' decisions)."""

    def __init__(self, menu: str | None = None, players: int = 4, rule: str | Sequence[str] = (),
                 illegal: str = "substitute", render_mode: str | None = None) -> None:
        super().__init__()
        self._setup(menu, players, rule, illegal, render_mode)
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = self._infos_for(self.agents, {})
        self.agent_selection = self.possible_agents[self._actions.seat]

    def observe(self, agent: str) -> dict[str, Any]:
        p = self.possible_agents.index(agent)
        acts = self._actions
        return self._vector(p, acts.legal_actions() if acts.seat == p and not acts.over else ())

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        acts = self._actions
        legal = acts.legal_actions()
        extra: dict[str, dict[str, Any]] = {}
        number = self._legal_number(agent, action, legal, extra)
        self._cumulative_rewards[agent] = 0.0
        acts.apply(number)
        points = self._points()
        self.rewards = {a: points[p] for p, a in enumerate(self.agents)}
        self._accumulate_rewards()
        self.infos = self._infos_for(self.agents, extra)
        if acts.over:
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[acts.seat]


class SushiGoPartyParallelEnv(_PartyBase, ParallelEnv):  # type: ignore[misc]
    """Party, every seat at once: a turn's plays are asked of every seat together, step by step
    (the normal plays, then the tools of those that have one, then the tools' cards); then the
    menus' and spoons' decisions, one seat a step. An agent with nothing to decide has an
    all-zero mask and its action is ignored."""

    def __init__(self, menu: str | None = None, players: int = 4, rule: str | Sequence[str] = (),
                 illegal: str = "substitute", render_mode: str | None = None) -> None:
        self._setup(menu, players, rule, illegal, render_mode)
        self.agents: list[str] = []
        self._turn: list[PlayPaths] = []

    def _open_turn(self) -> None:
        """At a turn's first play, every seat's play steps; the plays made once all are whole."""
        acts = self._actions
        self._turn = []
        d = acts.step.decision
        if d is not None and d.what == "play" and d.seat == 0:
            self._turn = [PlayPaths(self.space, acts.step.plays_of(k)) for k in range(self.players)]

    def _legal(self, p: int) -> list[int]:
        if self._turn:
            paths = self._turn[p]
            return [] if paths.done() is not None else sorted(paths.choices())
        acts = self._actions
        return acts.legal_actions() if not acts.over and acts.seat == p else []

    def _observe(self, p: int) -> dict[str, Any]:
        return self._vector(p, self._legal(p), self._turn[p] if self._turn else None)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        self._new_game(seed)
        self._open_turn()
        self.agents = list(self.possible_agents)
        return {a: self._observe(p) for p, a in enumerate(self.agents)}, self._infos_for(self.agents, {})

    def step(self, actions: dict[str, Any]) -> tuple[Any, Any, Any, Any, Any]:
        self._check_actions(actions)
        extra: dict[str, dict[str, Any]] = {}
        chosen: dict[int, int] = {}
        for p, agent in enumerate(self.agents):
            legal = self._legal(p)
            if not legal:
                continue  # nothing to decide: the action is ignored
            if agent not in actions:
                raise InputError(f"step() needs an action for every agent with a decision; {agent} has none")
            chosen[p] = self._legal_number(agent, actions[agent], legal, extra)
        acts = self._actions
        if self._turn:
            for p, number in chosen.items():
                self._turn[p].push(number)
            wholes = [paths.done() for paths in self._turn]
            if all(w is not None for w in wholes):
                for w in wholes:
                    assert w is not None
                    acts.play(w)
                self._open_turn()
        else:
            for number in chosen.values():
                acts.apply(number)
            self._open_turn()
        points = self._points()
        over = acts.over
        observations = {a: self._observe(p) for p, a in enumerate(self.agents)}
        rewards = {a: points[p] for p, a in enumerate(self.agents)}
        terminations = {a: over for a in self.agents}
        truncations = {a: False for a in self.agents}
        infos = self._infos_for(self.agents, extra)
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos
