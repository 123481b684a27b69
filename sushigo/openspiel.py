"""Sushi Go! as OpenSpiel games (``pip install 'sushigo-spec[openspiel]'``).

Importing this module registers two Python games with ``pyspiel``:

``python_sushigo``: the whole game. One chance node per dealt card (outcome: the
card kind, probability: its copies left over the cards left), in the executor's
deal order (seat 0's hand first; in dummy-2p the third block is the pile, top
first). Then every turn all players pick at once (a simultaneous node); in
dummy-2p the controller then gives the dummy its card (a one-player node; the
other player's pick stays hidden until then). Parameters:

* ``players`` 2..5 (default 2); ``rules`` a named ruleset (default ``official``);
  ``rule`` overrides, ``"maki_first_tie=each,winner_tie=none"``;
* ``utility``: ``score`` (each player's final total), ``diff`` (2 players,
  zero-sum: own total minus the other's), ``win`` (1/k to each of k winners, else 0);
* ``turn_based`` (default false): the same game with the picks of a turn entered
  seat by seat, each hidden from the others until the turn is revealed. OpenSpiel's
  information-set MCTS only searches sequential games; this is the form to give it.

Actions are whole turns (:mod:`sushigo.actions`: 240 numbers for single picks,
ordered chopsticks pairs and wasabi placement choices). The game logic is the
executor's: every move goes through :mod:`spec.step`.

``python_sushigo_endgame``: a position (the JSON of ``sushigo endgame``, 2 players,
no dummy) as the ``position`` parameter; the rest of the round with perfect
information and simultaneous picks, zero-sum on the difference of the round
points (earlier scores included), as ``sushigo endgame`` values it.

Only this module imports ``pyspiel``; the CLI never imports it.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel

from sushigo import tensor
from sushigo.actions import NUM_ACTIONS, action_string, decode, encode, encode_all
from sushigo.solver.endgame import Position, parse_position
from sushigo.spec.cards import Card, Token
from sushigo.spec.engine.moves import seat_index
from sushigo.spec.errors import InputError
from sushigo.spec.executor import DUMMY_SEAT
from sushigo.spec.party.menus import ROUNDS, hand_size, parse_menu
from sushigo.spec.party.readings import party_rules
from sushigo.spec.party.step import CHANCE, ActionSpace, PartyActions, PartyStep
from sushigo.spec.record import GameRecord
from sushigo.spec.ruleset import Ruleset, get_ruleset
from sushigo.spec.scoring import pudding_points
from sushigo.spec.step import Step, deal, gift_options, new_game, options, play
from sushigo.spec.tableau import Tableau, format_hand, format_tableau

N_CARDS = len(Card)
N_TOKENS = len(Token)
UTILITIES = ("score", "diff", "win")
_CHOP = int(Card.CHOPSTICKS)

__all__ = [
    "ENDGAME_NAME",
    "GAME_NAME",
    "PARTY_NAME",
    "PARTY_UTILITIES",
    "UTILITIES",
    "SushiGoEndgame",
    "SushiGoEndgameState",
    "SushiGoGame",
    "SushiGoPartyGame",
    "SushiGoPartyState",
    "SushiGoState",
    "hand_text",
    "position_from_param",
    "record_actions",
    "replay_record",
    "rules_from_params",
]

GAME_NAME = "python_sushigo"
PARTY_NAME = "python_sushigo_party"
ENDGAME_NAME = "python_sushigo_endgame"
_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "rules": "official",
    "rule": "",
    "utility": "score",
    "turn_based": False,
}


def _game_type(
    short_name: str,
    long_name: str,
    dynamics: Any,
    information: Any,
    utility: Any,
    params: dict[str, Any],
    min_players: int = 2,
    max_players: int = 5,
    info_state: bool = True,
) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=dynamics,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=info_state,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=params,
    )


def hand_text(counts: Sequence[int]) -> str:
    """A hand as card names, ``tempura*2 squid``; ``-`` when empty (the notation's form,
    :func:`spec.tableau.format_hand`)."""
    return format_hand(counts)


def rule_overrides(rule: str) -> list[str]:
    """``NAME=VALUE`` overrides from the ``rule`` parameter.

    Items are separated by ``,`` or ``;`` and written ``NAME=VALUE`` or ``NAME:VALUE``:
    OpenSpiel's game strings split on ``,`` and ``=``, so inside ``load_game("...")``
    write ``rule=maki_first_tie:each;winner_tie:none``.
    """
    out = []
    for item in re.split(r"[,;]", rule):
        if item.strip():
            name, _, value = item.replace(":", "=", 1).partition("=")
            out.append(f"{name.strip()}={value.strip()}")
    return out


def rules_from_params(name: str, rule: str) -> Ruleset:
    """The ruleset of the ``rules`` and ``rule`` parameters."""
    return get_ruleset(name, rule_overrides(rule))


def _card_bound(rules: Ruleset) -> int:
    """Points no card exceeds: 10 (a generous bound under the printed numbers, where a third of a
    sashimi set is 10/3 and a squid on wasabi 9/2), or the ruleset's best card when it is more."""
    return max(10, math.ceil(rules.card_points_cap()))


def _utility_bounds(rules: Ruleset, players: int, utility: str) -> tuple[float, float]:
    # A tableau ends each round with hand_size cards, none worth more than _card_bound points.
    best = rules.rounds * (_card_bound(rules) * rules.hand_size(players) + rules.maki_points_cap)
    best += rules.pudding_most_points
    worst = -float(rules.pudding_fewest_penalty)
    if utility == "win":
        return 0.0, 1.0
    if utility == "diff":
        return worst - best, best - worst
    return worst, float(best)


# --------------------------------------------------------------------------- the whole game


@dataclass(frozen=True)
class _Config:
    rules: Ruleset
    players: int
    utility: str
    turn_based: bool


@dataclass(frozen=True)
class _Core:
    """Everything a state holds, immutable (so cloning a state copies one reference)."""

    config: _Config
    step: Step
    dealing: tuple[Card, ...] = ()  # cards dealt so far this round
    pending: tuple[int | None, ...] = ()  # this turn's chosen actions per player (hidden)
    gift: bool = False  # waiting for the controller to give the dummy its card
    events: tuple[tuple[int, ...], ...] = ()  # (-1, card) deals, (seat, action) moves
    views: tuple[tuple[tuple[Any, ...], ...], ...] = ()  # per player: what they saw (see _view_text)

    def __deepcopy__(self, memo: object) -> _Core:
        return self


def _with(core: _Core, **changes: object) -> _Core:
    """``dataclasses.replace`` without re-running ``__init__`` (it is most of a replay's time)."""
    new = object.__new__(_Core)
    new.__dict__.update(core.__dict__, **changes)
    return new


def _view_turn_start(core: _Core) -> tuple[tuple[tuple[Any, ...], ...], ...]:
    step = core.step
    ctrl = step.controller
    return tuple(
        (*core.views[p], ("hand", step.round_index, step.turn, p == ctrl, step.hands[p]))
        for p in range(step.players)
    )


def _view_text(item: tuple[Any, ...]) -> str:
    """One thing a player saw: a hand held (``r1t2 hand: ...``), the picks revealed, a round's scores."""
    kind = item[0]
    if kind == "hand":
        _, r, t, ctrl, hand = item
        return f"r{r + 1}t{t + 1}{' +dummy' if ctrl else ''} hand: {hand_text(hand)}"
    if kind == "picks":
        text = " / ".join(action_string(a) for a in item[1])
        return f"picks: {text}" + (f" / dummy {action_string(item[2])}" if item[2] is not None else "")
    return f"round {item[1] + 1} scores {list(item[2])}"


class SushiGoState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_sushigo``; all data in one immutable :class:`_Core`."""

    def __init__(self, game: pyspiel.Game, config: _Config) -> None:
        super().__init__(game)
        step = new_game(config.players, config.rules)
        self._core = _Core(config, step, views=tuple(() for _ in range(config.players)))

    # ---- whose move

    def _decider(self) -> int | None:
        """The one player to move at a one-player node, None at a simultaneous node."""
        core = self._core
        if core.gift:
            return core.step.controller
        if core.config.turn_based:
            return core.pending.index(None)
        return None

    def current_player(self) -> int:
        core = self._core
        if core.step.over:
            return int(pyspiel.PlayerId.TERMINAL)
        if not core.step.dealt:
            return int(pyspiel.PlayerId.CHANCE)
        who = self._decider()
        return int(pyspiel.PlayerId.SIMULTANEOUS) if who is None else who

    def is_terminal(self) -> bool:
        return self._core.step.over

    # ---- chance

    def _left(self) -> list[int]:
        left = list(self._core.step.deck)
        for c in self._core.dealing:
            left[int(c)] -= 1
        return left

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._left()
        total = sum(left)
        return [(c, n / total) for c, n in enumerate(left) if n]

    # ---- legal moves

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        step = core.step
        player = seat_index(player, step.players)
        if core.gift:
            ctrl = step.controller
            if player != ctrl:  # the controller alone gives the dummy its card
                return []
            pick = core.pending[ctrl]
            assert pick is not None
            return encode_all(gift_options(step, decode(pick)))
        if core.pending and core.pending[player] is not None:
            return []
        return encode_all(options(step, player))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card(action).label}"
        text = action_string(action)
        return f"dummy {text}" if self._core.gift else text

    # ---- moves

    def _apply_action(self, action: int) -> None:
        core = self._core
        if not core.step.dealt:
            event: tuple[int, ...] = (-1, int(action))
        elif core.gift:
            ctrl = core.step.controller
            assert ctrl is not None
            event = (ctrl, int(action))
        else:
            who = self._decider()
            if who is None:
                raise InputError("every player moves at once here: give all their actions together "
                                 "with apply_actions([...]), one per player")
            event = (who, int(action))
        self._core = _with(_advance(core, event), events=(*core.events, event))

    def _apply_actions(self, actions: Sequence[int]) -> None:
        core = self._core
        event = (-2, *(int(a) for a in actions))
        self._core = _with(_advance(core, event), events=(*core.events, event))

    # ---- results

    def returns(self) -> list[float]:
        core = self._core
        players = core.config.players
        if not core.step.over:
            return [0.0] * players
        score = core.step.score()
        totals = score.totals
        if core.config.utility == "diff":
            return [float(totals[0] - totals[1]), float(totals[1] - totals[0])]
        if core.config.utility == "win":
            k = len(score.winners)
            return [1.0 / k if p in score.winners else 0.0 for p in range(players)]
        return [float(totals[p]) for p in range(players)]

    def totals(self) -> tuple[int, ...]:
        """The executor's totals per seat (the dummy included) once the game is over."""
        return self._core.step.score().totals

    @property
    def step(self) -> Step:
        """The table (:class:`spec.step.Step`)."""
        return self._core.step

    def __str__(self) -> str:
        core = self._core
        step = core.step
        lines = [f"round {min(step.round_index, step.rules.rounds - 1) + 1} turn {step.turn + 1}"]
        for s in range(step.seats):
            who = "dummy" if s >= step.players else f"p{s}"
            tab = format_tableau(Tableau(step.tableaux[s]))
            hand = hand_text(step.hands[s])
            lines.append(f"{who}: hand {hand} | tableau {tab} | kept puddings {step.kept[s]}")
        if core.dealing:
            lines.append("dealing: " + " ".join(c.label for c in core.dealing))
        if core.pending:
            chosen = ("?" if a is None else action_string(a) for a in core.pending)
            lines.append("chosen: " + " / ".join(chosen))
        lines.append("scores: " + " ".join(str(list(r)) for r in step.scores))
        return "\n".join(lines)

    # ---- information

    def resample_from_infostate(self, player: int, sampler: Any) -> SushiGoState:
        """A state the player cannot tell from this one (their information state is the same).

        Every card the player has not seen (hands they have not held, the pile, the deck)
        is dealt afresh from the cards they cannot place; moves of other players still
        hidden this turn are redrawn uniformly from the legal ones. The new state is built
        by replaying the deal and the moves through the game, so its history is consistent.
        """
        rng = random.Random(int(sampler() * 2**53))
        return _resample(self, player, rng)


def _advance(core: _Core, event: tuple[int, ...]) -> _Core:
    """The core after one event: ``(-1, card)`` a dealt card, ``(-2, a0, a1, ...)`` every
    player's pick at once, ``(seat, action)`` one seat's pick or the dummy's card."""
    who = event[0]
    if who == -1:
        return _deal_card(core, Card(event[1]))
    if who == -2:
        return _after_picks(_with(core, pending=tuple(event[1:])))
    if core.gift:
        return _finish_turn(core, event[1])
    pending = list(core.pending)
    pending[who] = event[1]
    return _after_picks(_with(core, pending=tuple(pending)))


def _deal_card(core: _Core, card: Card) -> _Core:
    dealing = (*core.dealing, card)
    core = _with(core, dealing=dealing)
    step = core.step
    size = step.hand_size
    if len(dealing) < step.seats * size:
        return core
    hands = [list(dealing[s * size : (s + 1) * size]) for s in range(step.seats)]
    core = _with(core, step=deal(step, hands), dealing=())
    return _start_turn(core)


def _start_turn(core: _Core) -> _Core:
    if core.step.over or not core.step.dealt:
        return _with(core, pending=(), gift=False)
    return _with(
        core, pending=(None,) * core.config.players, gift=False, views=_view_turn_start(core)
    )


def _after_picks(core: _Core) -> _Core:
    if any(a is None for a in core.pending):
        return core
    if core.step.controller is not None:
        return _with(core, gift=True)
    return _finish_turn(core, None)


def _finish_turn(core: _Core, gift_action: int | None) -> _Core:
    step = core.step
    turns = [decode(a) for a in core.pending if a is not None]
    gift = decode(gift_action) if gift_action is not None else None
    after = play(step, turns, gift)
    seen = ("picks", tuple(a for a in core.pending if a is not None), gift_action)
    views = [(*v, seen) for v in core.views]
    if after.round_index != step.round_index:
        views = [(*v, ("scores", step.round_index, after.scores[-1])) for v in views]
    return _start_turn(_with(core, step=after, views=tuple(views), gift=False))


class SushiGoObserver:
    """Observations of ``python_sushigo`` (the PyObserver interface of OpenSpiel).

    Tensor (only for the imperfect-recall observation): the pieces of
    :mod:`sushigo.tensor`, then ``chosen`` (one-hot over the 240 actions: the player's
    own hidden pick of this turn, in the turn-based form and at the dummy's node).
    Strings: the observation string is the table now; the information-state string
    (perfect recall) is everything the player saw in order.
    """

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None, config: _Config) -> None:
        if params:
            raise InputError(f"python_sushigo observers take no parameters; got {params!r}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        layout = [*tensor.pieces(config.rules, config.players), ("chosen", NUM_ACTIONS, (NUM_ACTIONS,))]
        self.tensor: np.ndarray[Any, Any] | None = None
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        if not self.perfect_recall:
            self.tensor = np.zeros(sum(size for _, size, _ in layout), np.float32)
            self.dict = tensor.views(self.tensor, layout)

    def set_from(self, state: SushiGoState, player: int) -> None:
        if self.tensor is None:
            return
        self.tensor.fill(0)
        core = state._core
        tensor.fill(self.dict, core.step, player)
        mine = core.pending[player] if core.pending else None
        if mine is not None:
            self.dict["chosen"][mine] = 1

    def string_from(self, state: SushiGoState, player: int) -> str:
        core = state._core
        mine = core.pending[player] if core.pending else None
        chosen = f" | chosen: {action_string(mine)}" if mine is not None else ""
        if self.perfect_recall:
            return f"p{player} | " + " | ".join(_view_text(v) for v in core.views[player]) + chosen
        step = core.step
        tabs = " / ".join(format_tableau(Tableau(t)) for t in step.tableaux)
        where = "game over" if step.over else f"round {step.round_index + 1} turn {step.turn + 1}"
        ctrl = " +dummy" if step.controller == player else ""
        return (
            f"p{player} {where}{ctrl} | hand: {hand_text(step.hands[player])} | tableaux: {tabs}"
            f" | puddings: {list(step.kept)} | scores: {[sum(x) for x in zip(*step.scores, strict=True)]}"
            + chosen
        )


_FULL_TYPE = _game_type(
    GAME_NAME,
    "Sushi Go! (sushigo-spec executor)",
    pyspiel.GameType.Dynamics.SIMULTANEOUS,
    pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    pyspiel.GameType.Utility.GENERAL_SUM,
    _DEFAULTS,
)


class SushiGoGame(pyspiel.Game):  # type: ignore[misc]
    """``python_sushigo``: the whole game of the executor."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**_DEFAULTS, **(params or {})}
        rules = rules_from_params(str(given["rules"]), str(given["rule"]))
        players = int(given["players"])
        utility = str(given["utility"])
        if utility not in UTILITIES:
            raise InputError(f"utility {utility!r} is not known; choose one of {', '.join(UTILITIES)}")
        if utility == "diff" and players != 2:
            raise InputError(f"utility 'diff' is for 2 players, not {players}; use 'score' or 'win'")
        turn_based = bool(given["turn_based"])
        config = _Config(rules, players, utility, turn_based)
        new_game(players, rules)  # InputError for a player count the rules forbid
        size = rules.hand_size(players)
        moves_per_turn = (players if turn_based else 1) + (1 if rules.dummy_2p else 0)
        low, high = _utility_bounds(rules, players, utility)
        zero_sum = utility == "diff"
        game_type = _game_type(
            GAME_NAME,
            _FULL_TYPE.long_name,
            pyspiel.GameType.Dynamics.SEQUENTIAL if turn_based else pyspiel.GameType.Dynamics.SIMULTANEOUS,
            pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
            _DEFAULTS,
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=N_CARDS,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=rules.rounds * size * moves_per_turn,
        )
        # the game string must parse back (serialisation): overrides as NAME:VALUE;NAME:VALUE
        given["rule"] = ";".join(o.replace("=", ":", 1) for o in rule_overrides(str(given["rule"])))
        super().__init__(game_type, info, given)
        self.config = config

    def new_initial_state(self) -> SushiGoState:
        return SushiGoState(self, self.config)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SushiGoObserver:
        return SushiGoObserver(iig_obs_type, params, self.config)


# --------------------------------------------------------------------------- resampling


@dataclass
class _Slots:
    """Which dealt card (slot) lies where, and which slots one player has seen.

    A slot is one chance outcome; a card taken from a hand reveals its slot to all.
    A chopsticks card coming back into a hand is a new slot everyone has seen.
    """

    player: int
    values: list[int] = field(default_factory=list)  # slot -> card kind
    seen: set[int] = field(default_factory=set)
    hands: list[list[int]] = field(default_factory=list)  # per seat: slots, in arrival order
    pile: list[int] = field(default_factory=list)

    def add(self, value: int, seen: bool) -> int:
        self.values.append(value)
        if seen:
            self.seen.add(len(self.values) - 1)
        return len(self.values) - 1

    def take(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        for i in range(len(hand) - 1, -1, -1):  # the latest arrival of that kind
            if self.values[hand[i]] == card:
                self.seen.add(hand.pop(i))
                return
        raise AssertionError(f"seat {seat} holds no {Card(card).label}")

    def look(self, seat: int) -> None:
        if seat < len(self.hands):
            self.seen.update(self.hands[seat])


def _track(core: _Core, player: int) -> tuple[_Slots, list[int], list[int]]:
    """Replay the events of ``core`` recording slots.

    Returns the slots, the slot of each chance event in order, and the indexes of the
    events of the unfinished turn (moves the player may not have seen).
    """
    config = core.config
    slots = _Slots(player)
    now = _Core(config, new_game(config.players, config.rules), views=core.views)
    chance: list[int] = []
    open_moves: list[int] = []
    size, seats = now.step.hand_size, now.step.seats

    def start_turn(st: Step) -> None:
        ctrl = st.controller
        if ctrl is not None and slots.pile:
            slots.hands[ctrl].append(slots.pile.pop(0))
        slots.look(player)

    for i, event in enumerate(core.events):
        before, now = now, _advance(now, event)
        if event[0] == -1:
            chance.append(slots.add(event[1], False))
            if now.step.dealt and not before.step.dealt:
                dealt = chance[-seats * size :]
                slots.hands = [dealt[s * size : (s + 1) * size] for s in range(seats)]
                slots.pile = slots.hands[DUMMY_SEAT] if config.rules.dummy_2p else []
                if config.rules.dummy_2p:
                    slots.hands[DUMMY_SEAT] = []
                start_turn(now.step)
            continue
        st = before.step
        if now.step.turn == st.turn and now.step.round_index == st.round_index:
            open_moves.append(i)
            continue
        # this event completed the turn: reveal what every seat took
        if event[0] == -2:
            picks, gift = list(event[1:]), None
        elif before.gift:
            picks, gift = [a for a in before.pending if a is not None], event[1]
        else:
            picks = [event[1] if a is None else a for a in before.pending]
            gift = None
        ctrl = st.controller
        for s, action in enumerate(picks):
            turn = decode(action)
            for pick in turn:
                slots.take(s, int(pick.card))
            if s == ctrl and gift is not None:
                slots.take(s, int(decode(gift)[0].card))
            if len(turn) == 2:
                slots.hands[s].append(slots.add(_CHOP, True))
        offset = config.rules.pass_offset(st.round_index)
        moved = slots.hands[: st.players]
        for s in range(st.players):
            slots.hands[(s + offset) % st.players] = moved[s]
        open_moves = []
        if now.step.dealt:
            start_turn(now.step)
    return slots, chance, open_moves


def _resample(state: SushiGoState, player: int, rng: random.Random) -> SushiGoState:
    core = state._core
    slots, chance, open_moves = _track(core, player)
    unseen = [x for x in chance if x not in slots.seen]
    pool = [slots.values[x] for x in unseen]
    left = list(core.step.deck)
    for card in core.dealing:
        left[int(card)] -= 1
    pool += [c for c, n in enumerate(left) for _ in range(n)]
    rng.shuffle(pool)
    values = dict(zip(unseen, pool, strict=False))
    out = state.get_game().new_initial_state()
    k = 0
    for i, event in enumerate(core.events):
        if event[0] == -1:
            out.apply_action(values.get(chance[k], event[1]))
            k += 1
        elif event[0] == -2:
            acts = list(event[1:])
            if i in open_moves:
                for s in range(len(acts)):
                    if s != player:
                        acts[s] = rng.choice(out.legal_actions(s))
            out.apply_actions(acts)
        elif i in open_moves and event[0] != player:
            out.apply_action(rng.choice(out.legal_actions(event[0])))
        else:
            out.apply_action(event[1])
    assert isinstance(out, SushiGoState)
    return out


def record_actions(record: GameRecord) -> list[tuple[int, ...]]:
    """A game record as OpenSpiel moves: ``(card,)`` per dealt card, the joint action of each
    turn, and ``(dummy_card,)`` after it in dummy-2p (apply 1-tuples with ``apply_action``)."""
    out: list[tuple[int, ...]] = []
    players = record.players
    for rnd in record.rounds:
        out.extend((int(c),) for hand in rnd.hands for c in hand)
        for step in rnd.turns:
            out.append(tuple(encode(t) for t in step[:players]))
            if record.rules.dummy_2p:
                out.append((encode(step[DUMMY_SEAT]),))
    return out


def replay_record(game: SushiGoGame, record: GameRecord) -> SushiGoState:
    """Play a recorded game (``sushigo play --record``) through ``game``; the final state.

    Raises IllegalMoveError (from the executor) at the first move the rules forbid.
    """
    state = game.new_initial_state()
    for move in record_actions(record):
        if state.is_simultaneous_node():
            state.apply_actions(list(move))
        else:
            state.apply_action(move[0])
    return state


# --------------------------------------------------------------------------- endgames


def position_from_param(text: str) -> Position:
    """A ``sushigo endgame`` position from the ``position`` parameter (JSON; ``;`` may stand for
    ``,`` because OpenSpiel's game strings split on commas)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        try:
            data = json.loads(text.replace(";", ","))
        except json.JSONDecodeError as exc:
            raise InputError(
                f"position is not valid JSON ({exc.msg}); give the JSON of 'sushigo endgame'"
            ) from exc
    pos = parse_position(data)
    if pos.players != 2 or pos.pile is not None:
        raise InputError(
            f"{ENDGAME_NAME} takes 2-player positions without the dummy; this one has "
            f"{pos.players} players{' and a dummy pile' if pos.pile is not None else ''}"
        )
    return pos


_ENDGAME_TYPE = _game_type(
    ENDGAME_NAME,
    "Sushi Go! endgame (rest of a round, open hands)",
    pyspiel.GameType.Dynamics.SIMULTANEOUS,
    pyspiel.GameType.Information.PERFECT_INFORMATION,
    pyspiel.GameType.Utility.ZERO_SUM,
    {"position": ""},
    min_players=2,
    max_players=2,
)


class SushiGoEndgame(pyspiel.Game):  # type: ignore[misc]
    """``python_sushigo_endgame``: the rest of a round from a position, zero-sum on the difference."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        text = str((params or {}).get("position", ""))
        if not text:
            raise InputError(f"{ENDGAME_NAME} needs the parameter position (the JSON of 'sushigo endgame')")
        pos = position_from_param(text)
        self.position = pos
        rules = pos.rules
        spread = sum(abs(s) for s in pos.scores) + _card_bound(rules) * rules.hand_size(2)
        spread += rules.maki_points_cap + rules.pudding_most_points + rules.pudding_fewest_penalty
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-float(spread),
            max_utility=float(spread),
            utility_sum=0.0,
            max_game_length=pos.cards_left,
        )
        canonical = json.dumps(pos.to_json(), separators=(";", ":"))
        super().__init__(_ENDGAME_TYPE, info, {"position": canonical})

    def new_initial_state(self) -> SushiGoEndgameState:
        return SushiGoEndgameState(self, self.position)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> EndgameObserver:
        return EndgameObserver(iig_obs_type, params)


class SushiGoEndgameState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_sushigo_endgame``: both hands open, both players pick at once."""

    def __init__(self, game: pyspiel.Game, pos: Position) -> None:
        super().__init__(game)
        step = Step(
            rules=pos.rules,
            players=2,
            round_index=pos.round - 1,
            turn=len(pos.taken[0]),
            dealt=True,
            deck=(0,) * N_CARDS,  # the rest of the deck plays no part in this round
            hands=pos.hands,
            pile=(),
            tableaux=pos.tableaux,
            rounds=(),
            scores=(),
            kept=pos.puddings,
        )
        config = _Config(pos.rules, 2, "diff", False)
        self._core = _start_turn(_Core(config, step, views=((), ())))
        self._base = (pos.scores, pos.final_round)

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.SIMULTANEOUS)

    def is_terminal(self) -> bool:
        return not self._core.step.dealt

    def _legal_actions(self, player: int) -> list[int]:
        return encode_all(options(self._core.step, player))

    def _action_to_string(self, player: int, action: int) -> str:
        return action_string(action)

    def _apply_actions(self, actions: Sequence[int]) -> None:
        core = self._core
        event = (-2, *(int(a) for a in actions))
        self._core = _with(_advance(core, event), events=(*core.events, event))

    def totals(self) -> tuple[int, int]:
        """Earlier scores + this round's points (+ pudding points after the last round), at the end."""
        step = self._core.step
        scores, final = self._base
        pudding = pudding_points(step.kept, step.rules) if final else [0, 0]
        return (
            scores[0] + step.scores[-1][0] + pudding[0],
            scores[1] + step.scores[-1][1] + pudding[1],
        )

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        t0, t1 = self.totals()
        return [float(t0 - t1), float(t1 - t0)]

    def __str__(self) -> str:
        step = self._core.step
        if not step.dealt:
            return f"round over | totals {list(self.totals())}"
        tabs = " / ".join(format_tableau(Tableau(t)) for t in step.tableaux)
        hands = " | ".join(f"p{p} hand {hand_text(h)}" for p, h in enumerate(step.hands))
        return f"turn {step.turn + 1} | {hands} | tableaux {tabs}"


class EndgameObserver:
    """Perfect information: every observer sees the whole table.

    Tensor: ``hands`` (2 x 12 card counts), ``tableaux`` (2 x 15 token counts).
    The observation string is the state's ``str`` (both hands and tableaux); the
    information-state string is the picks so far (perfect recall: two ways to the same
    table are two information states, as OpenSpiel's sequence-form solvers require).
    """

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        if params:
            raise InputError(f"{ENDGAME_NAME} observers take no parameters; got {params!r}")
        self.tensor = np.zeros(2 * N_CARDS + 2 * N_TOKENS, np.float32)
        self.dict = {
            "hands": self.tensor[: 2 * N_CARDS].reshape(2, N_CARDS),
            "tableaux": self.tensor[2 * N_CARDS :].reshape(2, N_TOKENS),
        }

    def set_from(self, state: SushiGoEndgameState, player: int) -> None:
        step = state._core.step
        self.dict["hands"][:] = np.asarray(step.hands, dtype=np.float32)
        self.dict["tableaux"][:] = np.asarray(step.tableaux, dtype=np.float32)

    def string_from(self, state: SushiGoEndgameState, player: int) -> str:
        if self.perfect_recall:
            moves = (" + ".join(action_string(a) for a in e[1:]) for e in state._core.events)
            return "picks: " + " / ".join(moves)
        return str(state)


# --------------------------------------------------------------------------- Sushi Go Party!

_PARTY_DEFAULTS: dict[str, Any] = {"menu": "my-first-meal", "players": 4, "rule": "", "utility": "score"}
PARTY_UTILITIES = ("score", "win")
#: Bounds no Party total passes (desserts and tofu can take points away; no card is worth 20).
_PARTY_LOW, _PARTY_CARD = -50.0, 20.0


class SushiGoPartyState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_sushigo_party``: :class:`spec.party.step.PartyActions` of an unseeded
    :class:`spec.party.step.PartyStep` (every dealer's draw a chance node)."""

    def __init__(self, game: pyspiel.Game, menu: Any, players: int, rules: Any, utility: str) -> None:
        super().__init__(game)
        self._utility = utility
        self._acts = PartyActions(PartyStep(menu, players, rules, None, ["openspiel"] * players))

    def current_player(self) -> int:
        acts = self._acts
        if acts.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.CHANCE) if acts.seat == CHANCE else acts.seat

    def is_terminal(self) -> bool:
        return bool(self._acts.over)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        legal = self._acts.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]  # a uniform draw, as random.shuffle's

    def _legal_actions(self, player: int) -> list[int]:
        acts = self._acts
        return acts.legal_actions() if not acts.over and acts.seat == player else []

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {action}"
        return self._acts.space.names[action]

    def _apply_action(self, action: int) -> None:
        self._acts.apply(int(action))

    def returns(self) -> list[float]:
        step = self._acts.step
        if not step.over:
            return [0.0] * step.players
        score = step.record().score
        assert score is not None
        if self._utility == "win":
            return [1.0 / len(score.winners) if p in score.winners else 0.0 for p in range(step.players)]
        return [float(t) for t in score.totals]

    @property
    def party(self) -> PartyActions:
        """The game (:class:`spec.party.step.PartyActions`; its ``step`` the :class:`PartyStep`)."""
        return self._acts

    def __str__(self) -> str:
        acts = self._acts
        step = acts.step
        lines = [f"{_party_where(step)}, {acts.phase or 'over'}"]
        for k in range(step.players):
            lines.append(f"p{k}: {step.seat_text(k)}")
        if acts.paths is not None and acts.paths.partial:
            lines.append("chosen: " + " ".join(acts.space.names[a] for a in acts.paths.partial))
        return "\n".join(lines)


class SushiGoPartyObserver:
    """Observations of ``python_sushigo_party``: the tensor is :func:`sushigo.tensor.party_pieces`;
    the string the player's hand, every table, and the steps of its play so far. No perfect-recall
    form (the game gives no information-state string)."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None, space: ActionSpace,
                 players: int) -> None:
        if params:
            raise InputError(f"python_sushigo_party observers take no parameters; got {params!r}")
        layout = tensor.party_pieces(space, players)
        self.tensor = np.zeros(sum(size for _, size, _ in layout), np.float32)
        self.dict = tensor.views(self.tensor, layout)

    def set_from(self, state: SushiGoPartyState, player: int) -> None:
        self.tensor.fill(0)
        tensor.party_fill(self.dict, state._acts, player)

    def string_from(self, state: SushiGoPartyState, player: int) -> str:
        acts = state._acts
        step = acts.step
        hand = " ".join(step.hand(player))
        tables = " / ".join(" ".join(step.shown(k)) or "-" for k in range(step.players))
        scores = [sum(r.scores[k] for r in step.rounds) for k in range(step.players)]
        mine = acts.paths.partial if acts.paths is not None and acts.seat == player else []
        chosen = f" | chosen: {' '.join(acts.space.names[a] for a in mine)}" if mine else ""
        where = _party_where(step)
        return f"p{player} {where} | hand: {hand or '-'} | tables: {tables} | scores: {scores}{chosen}"


def _party_where(step: PartyStep) -> str:
    return "game over" if step.over else f"round {max(1, step.round_no)} turn {max(1, step.turn)}"


_PARTY_TYPE = _game_type(
    PARTY_NAME,
    "Sushi Go Party! (sushigo-spec executor)",
    pyspiel.GameType.Dynamics.SEQUENTIAL,
    pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    pyspiel.GameType.Utility.GENERAL_SUM,
    _PARTY_DEFAULTS,
    max_players=8,
    info_state=False,
)


class SushiGoPartyGame(pyspiel.Game):  # type: ignore[misc]
    """``python_sushigo_party``: parameters ``menu`` (a suggested menu's name, or its kinds
    separated by ``;``: game strings split on ``,``), ``players`` (2-8, as the menu seats),
    ``rule`` (readings, ``NAME:VALUE;NAME:VALUE``), ``utility`` (``score``: the totals; ``win``:
    1/k to each of k winners)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**_PARTY_DEFAULTS, **(params or {})}
        utility = str(given["utility"])
        if utility not in PARTY_UTILITIES:
            raise InputError(f"utility={utility!r}: choose one of {', '.join(PARTY_UTILITIES)}")
        players = int(given["players"])
        rules = party_rules(rule_overrides(str(given["rule"])))
        menu = parse_menu(str(given["menu"]).replace(";", ","), players, uramaki=rules.uramaki_split)
        space = ActionSpace(menu)
        cards = sum(n for _, n in menu.deck()) + sum(n for _, n in menu.desserts())
        turns = ROUNDS * hand_size(players)
        # per seat a turn: three steps of its play and two menus' picks, each menu shuffling the deck
        length = ROUNDS * cards + 1 + turns * players * (5 + 2 * cards)
        high = ROUNDS * hand_size(players) * _PARTY_CARD + 2 * _PARTY_CARD
        info = pyspiel.GameInfo(
            num_distinct_actions=len(space),
            max_chance_outcomes=cards,
            num_players=players,
            min_utility=0.0 if utility == "win" else _PARTY_LOW,
            max_utility=1.0 if utility == "win" else high,
            utility_sum=None,  # the type is general-sum for both utilities (win shares add up to 1)
            max_game_length=length,
        )
        given["menu"] = menu.label.replace(",", ";")  # the game string must parse back
        given["rule"] = ";".join(o.replace("=", ":", 1) for o in rule_overrides(str(given["rule"])))
        super().__init__(_PARTY_TYPE, info, given)
        self.menu, self.players, self.rules, self.utility, self.space = menu, players, rules, utility, space

    def new_initial_state(self) -> SushiGoPartyState:
        return SushiGoPartyState(self, self.menu, self.players, self.rules, self.utility)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
                         ) -> SushiGoPartyObserver:
        return SushiGoPartyObserver(iig_obs_type, params, self.space, self.players)


pyspiel.register_game(_FULL_TYPE, SushiGoGame)
pyspiel.register_game(_ENDGAME_TYPE, SushiGoEndgame)
pyspiel.register_game(_PARTY_TYPE, SushiGoPartyGame)
