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
from pettingzoo import ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec

from sushigo import tensor
from sushigo.actions import N_PICKS, NUM_ACTIONS, action_string, decode, encode, encode_all
from sushigo.spec.errors import IllegalMoveError, InputError, check_first_seed
from sushigo.spec.executor import seeded_deals
from sushigo.spec.ruleset import Ruleset, apply_overrides, get_ruleset
from sushigo.spec.scoring import pudding_points
from sushigo.spec.step import Step, deal, gift_options, new_game, options, play
from sushigo.spec.tableau import Tableau, format_hand, format_tableau

__all__ = ["ILLEGAL", "SushiGoParallelEnv", "env", "parallel_env"]

ILLEGAL = ("substitute", "raise")


class SushiGoParallelEnv(ParallelEnv):  # type: ignore[misc]
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

    # ---- spaces (the same object on every call, as the PettingZoo API test asks)

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
        if seed is not None:
            check_first_seed(seed)  # as Gymnasium's seeding does: seed -s would deal seed s's game
            self._seeder = random.Random(seed)
            game_seed = seed
        else:
            if self._seeder is None:
                self._seeder = random.Random(random.SystemRandom().getrandbits(64))
            game_seed = self._seeder.getrandbits(63)
        self.seed_used = game_seed
        self._deals = seeded_deals(self.rules, self.players, game_seed)
        self._step = deal(new_game(self.players, self.rules), self._deals[0])
        self.agents = list(self.possible_agents)
        return {a: self._observe(p) for p, a in enumerate(self.agents)}, self._infos({})

    def _infos(self, extra: dict[str, dict[str, Any]]) -> dict[str, Any]:
        step = self._step
        base = {"seed": self.seed_used, "round": min(step.round_index, self.rules.rounds - 1) + 1}
        return {a: {**base, **extra.get(a, {})} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[Any, Any, Any, Any, Any]:
        if not self.agents:
            raise InputError("the game is over; call reset() to start another")
        if not isinstance(actions, Mapping):
            raise InputError(f"step() takes a dict of actions by agent "
                             f"(e.g. {{'{self.agents[0]}': 0, ...}}), not {actions!r}")
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
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _describe(action: int) -> str:
    if action < NUM_ACTIONS:
        return f"{action} ({action_string(action)})"
    return f"{action} ({action_string(action % NUM_ACTIONS)}, dummy {action_string(action // NUM_ACTIONS)})"


def parallel_env(**kwargs: Any) -> SushiGoParallelEnv:
    """The parallel form: ``parallel_env(players=4, rules="official", rule=["winner_tie=none"])``."""
    return SushiGoParallelEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The AEC form: PettingZoo's ``parallel_to_aec`` of :func:`parallel_env`."""
    return parallel_to_aec(parallel_env(**kwargs))
