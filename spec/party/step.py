"""Sushi Go Party! one decision at a time: the reference executor turned inside out, for bots
(issue 29 item 5: OpenSpiel, PettingZoo).

:mod:`.executor` asks a :class:`~.executor.Chooser` at each decision. :class:`PartyStep` plays the
same game but stops at each decision and waits to be told the answer; the game played is the
executor's own (its deal, its legal moves, its resolution), so a game played here with the same
choices gives the record :func:`~.executor.play_party` gives (``tests/test_party_env.py``).

**Decisions** (:class:`Decision`), in the executor's order:

* ``play``: every seat in turn picks its (normal play, bonus action) pair, before any is
  revealed; then the turn resolves, and as it reaches them
* ``menu``: the card a menu plays from its draw (``-``: none), and
* ``target``: what a card found by a spoon copies or flips;
* ``chance``: with no seed, every draw of the dealer's shuffles (a uniform pick among ``n``,
  as ``random.shuffle`` makes it); with a seed, the dealer is ``play_party``'s for that seed.

**Actions.** A second layer numbers the decisions in a fixed space per menu
(:class:`ActionSpace`): a play is split into the normal play, then the chopsticks or spoon used
(or none), then the card they play or ask for; a takeout box that flips all it may is one
action (``takeout-10:*``). Forced steps (one option) are taken at once, except the normal play,
which every seat makes every turn. Chance has its own numbers, ``0..n-1``.

How it stops: the executor's methods run until the next unanswered decision and raise; the
game is then started again from a copy taken where the interrupted stretch began (a turn's
resolution, a deal) and the answers so far are given again. Only turns with a menu or a bonus
action pay for the copy; the plays themselves are asked without it.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sushigo.spec.errors import IllegalMoveError, InputError, SushiGoError
from sushigo.spec.party.executor import (
    Chooser,
    PartyRecord,
    PartyRoundRecord,
    _Game,
    _head,
    _used,
)
from sushigo.spec.party.menus import ROUNDS, Menu, hand_size, parse_menu
from sushigo.spec.party.readings import DEFAULT, PartyRules
from sushigo.spec.party.scoring import score_game
from sushigo.spec.party.tableau import SPECIAL, kind_name
from sushigo.spec.party.turns import TurnRound

#: The players' decisions, and the dealer's.
KINDS: Final = ("play", "menu", "target", "chance")
#: The phases of the action layer: a play in three steps, then the sub-decisions.
PHASES: Final = ("normal", "tool", "card", "menu", "target")
NONE: Final = "-"  # a menu plays nothing
NO_BONUS: Final = "no-bonus"
ALL: Final = "*"  # a takeout box flips all it may
FLIPPED: Final = "flipped"
CHANCE: Final = -1  # the seat of a chance decision


@dataclass(frozen=True)
class Decision:
    """One decision: what (``play``, ``menu``, ``target``, ``chance``), whose (``-1`` for chance),
    and the legal options in the executor's order (chance: ``0 .. n-1``)."""

    what: str
    seat: int
    options: tuple[Any, ...]


class _Pause(SushiGoError):
    """The executor reached a decision nobody has answered yet (never leaves this module; the
    executor catches none of the project's errors but its own InputError and PartyIllegal)."""


class _Source(Chooser):
    """Answers the decisions of the stretch being run: the answers given so far (as indices),
    then a pause (a seeded game's dealer is its own generator, and asks nothing here)."""

    def __init__(self, seeded: bool) -> None:
        self.seeded = seeded
        self.answers: list[int] = []
        self.used = 0
        self.pending: Decision | None = None

    def choose(self, what: str, seat: int, options: Sequence[Any]) -> Any:
        return self._next(Decision(what, seat, tuple(options)))

    def chance(self, n: int) -> int:
        return int(self._next(Decision("chance", CHANCE, tuple(range(n)))))

    def _next(self, decision: Decision) -> Any:
        if self.used < len(self.answers):
            self.used += 1
            return decision.options[self.answers[self.used - 1]]
        self.pending = decision
        raise _Pause


class _Dealer(random.Random):
    """The dealer's shuffles, each draw a chance decision (``random.shuffle``'s own loop)."""

    def __init__(self, source: _Source) -> None:
        super().__init__(0)
        self.source = source

    def shuffle(self, x: MutableSequence[Any]) -> None:
        for i in reversed(range(1, len(x))):
            j = self.source.chance(i + 1)
            x[i], x[j] = x[j], x[i]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Dealer:
        return _Dealer(copy.deepcopy(self.source, memo))

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (OpenSpiel's clones), it holds its source alone
        return (_Dealer, (self.source,))


class _StepGame(_Game):
    def __init__(self, source: _Source, menu: Menu, players: int, rules: PartyRules, seed: int) -> None:
        self.source = source
        super().__init__(menu, players, rules, seed, lambda _rng: source)

    def dealer(self, root: random.Random) -> random.Random:
        if self.source.seeded:
            return root
        return _Dealer(self.source)


def _thaw(value: Any, memo: dict[int, Any]) -> Any:
    """A copy of one attribute: lists of texts (and lists of them) copied as such, the rest deep."""
    if type(value) is list and (not value or type(value[0]) is str):
        return list(value)
    if type(value) is list and type(value[0]) is list and all(not v or type(v[0]) is str for v in value):
        return [list(v) for v in value]
    return copy.deepcopy(value, memo)


def _frozen(game: _Game) -> dict[int, Any]:
    """The cards on the table (frozen values), for a copy's memo: shared, not copied."""
    return {id(p): p for seat in game.table.seats
            for p in (*(s.part for s in seat.slots), *seat.discarded, *seat.played)}


def _copy_table(game: _Game | None, rnd: PartyRoundRecord | None, memo: dict[int, Any], table: bool = True
                ) -> tuple[_Game | None, PartyRoundRecord | None]:
    """A copy of the game and its round record to play on alone, quicker than ``copy.deepcopy``
    (it is most of a clone's time): the answers' cache shared, and the table too unless ``table``
    (whoever shares it copies it before a turn resolves: :meth:`PartyStep._own_table`)."""
    new_rnd = None
    if rnd is not None:
        new_rnd = copy.copy(rnd)
        new_rnd.__dict__.update({k: _thaw(v, memo) for k, v in vars(rnd).items()})
    if game is None:
        return None, new_rnd
    memo = {**memo, id(game._asks): game._asks}  # a cache of answers fixed for the game
    if hasattr(game, "table"):  # dealt
        memo.update(_frozen(game))
        if not table:
            memo[id(game.table)] = game.table
    new = copy.copy(game)
    new.__dict__.update({k: _thaw(v, memo) for k, v in vars(game).items()})
    return new, new_rnd


class PartyStep:
    """One game of Party, a decision at a time. ``seed``: the dealer of ``play_party(seed)``; none:
    the dealer's draws are ``chance`` decisions. ``policies`` only label the record."""

    def __init__(self, menu: Menu | str, players: int, rules: PartyRules = DEFAULT, seed: int | None = None,
                 policies: Sequence[str] | None = None) -> None:
        if isinstance(menu, str):
            menu = parse_menu(menu, players, uramaki=rules.uramaki_split)
        menu.check_players(players)
        self.menu, self.players, self.rules, self.seed = menu, players, rules, seed
        self.policies = list(policies) if policies is not None else ["step"] * players
        self.source = _Source(seed is not None)
        self.game: _Game | None = None
        self.rnd: PartyRoundRecord | None = None
        self.rounds: list[PartyRoundRecord] = []
        self.scored: list[TurnRound] = []
        self.desserts = 0
        self.stage = "init"
        self.chosen: list[tuple[str, str]] = []
        self.begun = False
        self._shared = False  # the table is shared with a clone (see _own_table)
        self._checkpoint: tuple[_Game | None, PartyRoundRecord | None] | None = None
        self._record: PartyRecord | None = None
        self.decision: Decision | None = None
        self._run()

    # --- the public face ------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.decision is None

    def apply(self, index: int) -> None:
        """Answer the current decision with its option ``index``."""
        d = self.decision
        if d is None:
            raise InputError("the game is over: no decision to answer")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(d.options):
            raise IllegalMoveError(f"option {index!r}: the {d.what} decision has options "
                                   f"0..{len(d.options) - 1}")
        if self.stage == "plays":
            self.chosen.append(d.options[index])
        else:
            self.source.answers.append(index)
        self._run()

    def choose(self, option: Any) -> None:
        """Answer the current decision with the option itself (a pair, a text, a number)."""
        d = self.decision
        if d is None or option not in d.options:
            raise IllegalMoveError(f"{option!r} is not an option of {d.what if d else 'a finished game'}")
        self.apply(d.options.index(option))

    def plays_of(self, k: int) -> tuple[tuple[str, str], ...]:
        """Seat ``k``'s (normal play, bonus action) options this turn, while the plays are asked
        (no seat's choice changes another's: they are revealed together)."""
        if self.stage != "plays" or self.game is None:
            raise InputError("the plays are not being asked now")
        return tuple(self.game.moves(k))

    def hand(self, k: int) -> list[str]:
        """Seat ``k``'s hand (none before the first deal and once the game is over)."""
        if self.game is None or self.rnd is None or self.over:
            return []
        return list(self.game.hands[k])

    def shown(self, k: int) -> list[str]:
        """What seat ``k``'s cards on the table show (a card, ``special-order:CARD``, ``flipped``):
        as the turn began, while it is played; none before the first deal."""
        if self.game is None or self.rnd is None:
            return []
        return [FLIPPED if s.part.flipped else str(s.part) for s in self.game.table.seats[k].slots]

    def seat_text(self, k: int) -> str:
        """Seat ``k``'s hand and table in the notation: ``hand eel tofu | table miso flipped``."""
        return f"hand {' '.join(self.hand(k)) or '-'} | table {' '.join(self.shown(k)) or '-'}"

    def record(self) -> PartyRecord:
        """The game's record (when over), as :func:`~.executor.play_party` writes it."""
        if self._record is None:
            raise InputError("the game is not over yet: no record")
        return self._record

    def clone(self) -> PartyStep:
        return copy.deepcopy(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> PartyStep:
        """A copy sharing what never changes once made (OpenSpiel clones a state at every step):
        the menu, the rules, the rounds already scored, the cards on the table."""
        new = object.__new__(PartyStep)
        new.__dict__.update(self.__dict__)
        source = new.source = copy.copy(self.source)
        source.answers = list(self.source.answers)
        shared = {**memo, **self._memo(), id(self.source): source}
        new.game, new.rnd = _copy_table(self.game, self.rnd, shared, table=False)
        self._shared = new._shared = True
        if self._checkpoint is not None:  # its game asks this copy's source; its table is only copied from
            new._checkpoint = _copy_table(*self._checkpoint, shared, table=False)
        new.rounds, new.scored, new.chosen = list(self.rounds), list(self.scored), list(self.chosen)
        return new

    @property
    def round_no(self) -> int:
        return self.game.round_no if self.game is not None else 0

    @property
    def turn(self) -> int:
        """The turn being played (1 ..), 0 before the first."""
        return self.game.turn if self.game is not None else 0

    # --- running the executor until the next decision -------------------------------------------

    def _take_checkpoint(self) -> None:
        self._checkpoint = _copy_table(self.game, self.rnd, self._memo())

    def _memo(self) -> dict[int, Any]:
        """What a checkpoint shares rather than copies: the answers, and the frozen menu and rules."""
        return {id(self.source): self.source, id(self.menu): self.menu, id(self.rules): self.rules}

    def _segment(self, body: Callable[[], None]) -> bool:
        """Run ``body`` (from the checkpoint, the answers so far given again); True once it ended."""
        src = self.source
        if src.pending is not None:
            assert self._checkpoint is not None, "a decision came where no copy was taken"
            self.game, self.rnd = _copy_table(*self._checkpoint, self._memo())
            self._shared = False
        src.used, src.pending = 0, None
        try:
            body()
        except _Pause:
            self.decision = src.pending
            return False
        src.answers, self._checkpoint = [], None
        return True

    def _init(self) -> None:
        self.game = _StepGame(self.source, self.menu, self.players, self.rules, self.seed or 0)

    def _deal(self) -> None:
        assert self.game is not None
        self.rnd = self.game.deal()

    def _resolve(self) -> None:
        assert self.game is not None and self.rnd is not None
        self.game.resolve_turn(self.rnd, self.chosen)

    def _own_table(self) -> None:
        """The table to this game alone before the turn resolves (a clone shares it until then)."""
        if self._shared and self.game is not None:
            self.game.table = copy.deepcopy(self.game.table, {**self._memo(), **_frozen(self.game)})
        self._shared = False

    def _may_stop(self) -> bool:
        """Whether resolving this turn may ask anything: a menu, or a bonus action."""
        return not self.source.seeded or any(b or kind_name(_head(p)) == "menu" for p, b in self.chosen)

    def _run(self) -> None:
        while True:
            if self.stage == "init":
                if not self.source.pending:
                    self._take_checkpoint()
                if not self._segment(self._init):
                    return
                self.stage = "deal"
            elif self.stage == "deal":
                if len(self.rounds) == ROUNDS:
                    self._finish()
                    return
                if not self.source.pending:
                    self._take_checkpoint()
                if not self._segment(self._deal):
                    return
                self.stage = "plays"
            elif self.stage == "plays":
                game = self.game
                assert game is not None and self.rnd is not None
                if not self.begun:
                    if game.turn == hand_size(self.players):
                        self._end_round()
                        self.stage = "deal"
                        continue
                    game.begin_turn()
                    self.begun, self.chosen = True, []
                if len(self.chosen) < self.players:
                    k = len(self.chosen)
                    self.decision = Decision("play", k, tuple(game.moves(k)))
                    return
                self.stage = "resolve"
                self._own_table()
                if self._may_stop():
                    self._take_checkpoint()
            else:
                if not self._segment(self._resolve):
                    return
                self.stage, self.begun = "plays", False

    def _end_round(self) -> None:
        assert self.game is not None and self.rnd is not None
        result = self.game.end_round(self.rnd, self.desserts)
        self.desserts += sum(1 for seat in self.rnd.kept for c in seat if c != SPECIAL)
        self.rounds.append(self.rnd)
        self.scored.append(result)

    def _finish(self) -> None:
        score = score_game([r.score for r in self.scored], self.menu, self.rules, ROUNDS)
        self._record = PartyRecord(self.seed or 0, self.menu, self.players, self.rules, self.policies,
                                   self.rounds, self.scored, score)
        self.decision = None
        self.stage = "over"


# --- a fixed action space per menu ----------------------------------------------------------------


class ActionSpace:
    """Every action of a menu's games, numbered: the texts a card may be played as (``eel``,
    ``special-order:eel``, ``takeout-10:eel``, ``takeout-10:*``), then ``-`` (a menu plays nothing),
    and ``no-bonus``. A play's card, the chopsticks or spoon (or a special order copying one) a bonus
    action uses, a menu's pick, a spoon's ask and target are all play texts; the phase says which."""

    def __init__(self, menu: Menu) -> None:
        cards = list(dict.fromkeys([c for c, _ in menu.deck()] + [c for c, _ in menu.desserts()]))
        self.cards = tuple(cards)
        shown = cards + [f"{SPECIAL}:{c}" for c in cards if kind_name(c) != SPECIAL] + [FLIPPED]
        #: What a seat's table slot shows (a card, a special order's copy, a flipped card).
        self.shown = tuple(shown)
        plays: list[str] = []
        for c in cards:
            name = kind_name(c)
            if name == SPECIAL:
                plays += [SPECIAL, *(f"{SPECIAL}:{s}" for s in shown)]
            elif name == "takeout":
                plays += [c, *(f"{c}:{s}" for s in shown), f"{c}:{ALL}"]
            else:
                plays.append(c)
        self.plays = len(plays)
        # The tools a bonus action uses (chopsticks-1, special-order:chopsticks-1) are play texts too.
        self.names: tuple[str, ...] = (*plays, NONE, NO_BONUS)
        self.index = {n: k for k, n in enumerate(self.names)}

    def __len__(self) -> int:
        return len(self.names)

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionSpace:
        return self  # fixed once made

    def number(self, text: str) -> int:
        """The number of a play text (a takeout box's list of flips read as ``*``)."""
        head, _, rest = text.partition(":")
        if kind_name(head) == "takeout" and "," in rest:
            text = f"{head}:{ALL}"
        try:
            return self.index[text]
        except KeyError:
            raise IllegalMoveError(f"{text!r} has no action number on this menu") from None


def bonus_parts(bonus: str) -> tuple[str, str]:
    """A bonus action's tool and what it plays or asks for: ``chopsticks-1:eel`` -> (chopsticks-1, eel),
    ``spoon-4?eel`` -> (spoon-4, eel); ``""`` -> (no-bonus, "")."""
    if not bonus:
        return NO_BONUS, ""
    tool = _used(bonus)
    return tool, bonus[len(tool) + 1:]


class PlayPaths:
    """One seat's play decision as steps of action numbers: the normal play, the tool (or
    ``no-bonus``), the tool's card. ``partial`` holds the steps taken; :meth:`done` names the
    option once they spell one whole (no option's steps begin another's)."""

    def __init__(self, space: ActionSpace, pairs: Sequence[tuple[str, str]]) -> None:
        self.paths = []
        for play, bonus in pairs:
            tool, rest = bonus_parts(bonus)
            nums = (space.number(play), space.index[tool])
            self.paths.append(nums + ((space.number(rest),) if rest else ()))
        self.partial: list[int] = []

    @property
    def phase(self) -> str:
        return PHASES[len(self.partial)]

    def choices(self) -> dict[int, int]:
        """Legal next number -> the first option it leads to."""
        depth = len(self.partial)
        out: dict[int, int] = {}
        for i in reversed(range(len(self.paths))):
            nums = self.paths[i]
            if len(nums) > depth and list(nums[:depth]) == self.partial:
                out[nums[depth]] = i
        return out

    def done(self) -> int | None:
        return next((i for i, nums in enumerate(self.paths) if list(nums) == self.partial), None)

    def push(self, number: int) -> int | None:
        """Take a step (a legal number), then the forced ones; the option when the play is whole."""
        self.partial.append(number)
        while (whole := self.done()) is None:
            choices = self.choices()
            if len(choices) != 1:
                return None
            self.partial.append(next(iter(choices)))
        return whole


class PartyActions:
    """:class:`PartyStep` through :class:`ActionSpace`, a decision at a time: who decides, the legal
    action numbers, apply one. A play is asked as its normal play, then the tool (or ``no-bonus``),
    then its card; forced steps are taken at once, but every seat makes its normal play."""

    def __init__(self, step: PartyStep, space: ActionSpace | None = None) -> None:
        self.step = step
        self.space = space or ActionSpace(step.menu)
        self.paths: PlayPaths | None = None
        self._settle()

    @property
    def over(self) -> bool:
        return self.step.over

    @property
    def seat(self) -> int:
        """Who decides now: a seat, or ``-1`` for chance (``-1`` too once over)."""
        d = self.step.decision
        return CHANCE if d is None else d.seat

    @property
    def phase(self) -> str:
        """``normal``, ``tool``, ``card``, ``menu``, ``target``, ``chance``; ``""`` once over."""
        d = self.step.decision
        if d is None:
            return ""
        if d.what == "play":
            assert self.paths is not None
            return self.paths.phase
        return d.what

    def _choices(self) -> dict[int, int]:
        """Legal action number -> the raw decision's option it leads to."""
        d = self.step.decision
        if d is None:
            return {}
        if d.what == "chance":
            return {k: k for k in range(len(d.options))}
        if d.what == "play":
            assert self.paths is not None
            return self.paths.choices()
        return {self.space.number(t): i for i, t in reversed(list(enumerate(d.options)))}

    def legal_actions(self) -> list[int]:
        return sorted(self._choices())

    def apply(self, action: int) -> None:
        choices = self._choices()
        if action not in choices:
            shown = ", ".join(f"{a} ({self.describe(a)})" for a in sorted(choices)[:8])
            more = " ..." if len(choices) > 8 else ""
            raise IllegalMoveError(f"action {action!r} is not legal now (legal: {shown}{more})")
        if self.paths is not None:
            whole = self.paths.push(action)
            if whole is None:
                return
            self.step.apply(whole)
        else:
            self.step.apply(choices[action])
        self._settle()

    def play(self, option: int) -> None:
        """The current seat's whole play: option ``option`` of its play decision (the parallel form
        gathers every seat's steps itself, :class:`PlayPaths`, then plays them in seat order)."""
        d = self.step.decision
        if d is None or d.what != "play":
            raise IllegalMoveError("no play is being asked now")
        self.step.apply(option)
        self._settle()

    def _settle(self) -> None:
        """A new play decision gets its steps; a sub-decision with one option is taken at once."""
        self.paths = None
        while (d := self.step.decision) is not None:
            if d.what == "play":
                self.paths = PlayPaths(self.space, d.options)
                return
            if d.what == "chance" or len(d.options) > 1:
                return
            self.step.apply(0)

    def describe(self, action: int) -> str:
        if self.phase == "chance":
            return f"chance {action}"
        return self.space.names[action] if 0 <= action < len(self.space) else f"{action}?"


__all__ = ["ALL", "CHANCE", "KINDS", "NONE", "NO_BONUS", "PHASES", "ActionSpace", "Decision", "PartyActions",
           "PartyStep", "PlayPaths", "bonus_parts"]
