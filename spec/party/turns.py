"""A Party round played turn by turn: the kinds that act during the turn (issue 28 item 5).

Where the order of plays matters (uramaki, miso soup, wasabi, special order, takeout box, menu,
and the chopsticks and spoon played on a later turn) a round is given as its turns: per turn,
one text per player saying what that player played. A play is its normal card, then any bonus
actions, separated by spaces::

    uramaki5                       a card
    special-order:tempura          a special order and the card it copies (one already played)
    special-order                  a special order with nothing to copy (discarded)
    takeout-10:tempura,eel         a takeout box and the earlier cards it flips
    menu-7:eel                     a menu and the card played from the 4 drawn (menu-7:- for none)
    eel chopsticks-1:squid         eel, then the chopsticks played earlier used to play squid
    miso spoon-4:tofu              miso, then the spoon asks for a tofu and plays it (spoon-4:- : none found)

What each rule does, in the order the rulebook gives (RB p6, p13):

1. the normal plays are revealed together and act: a nigiri goes on the first empty wasabi
   (RB p15), a special order copies its target (RB p14), a plain card is placed;
2. then the menus, takeout boxes, chopsticks and spoons act in corner-number order;
3. uramaki reaching 10 icons score 8 / 5 / 2 and are discarded (RB p9): same-turn finishers by
   icons, exact ties share a place (``uramaki_tie_many``), finishers by bonus actions with the
   normal plays or after them (``uramaki_bonus_turn``);
4. when two or more misos were played in the turn, by anyone and by any means, all are
   discarded (RB p11).

No bonus action is taken on a round's last turn: every hand is empty once its last card is
played, so chopsticks have nothing to play and a spoon nothing to find.

At round end the final tableaux are scored (:func:`.scoring.score_round`) with what the race paid.
The hands are not given, so "from your hand" is not checked; the deck's copies are (the
chopsticks and spoons, which change hands, excepted).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeVar

from sushigo.spec.errors import InputError
from sushigo.spec.party.kinds import KIND, URAMAKI_RACE, PartyKind, Race, icons
from sushigo.spec.party.menus import Menu, hand_size
from sushigo.spec.party.readings import DEFAULT, PartyRules
from sushigo.spec.party.scoring import RacePaid, RoundScore, check_round, score_round
from sushigo.spec.party.tableau import (
    SPECIAL,
    Item,
    Part,
    PartyTableau,
    canonical,
    card_named,
    kind_name,
)

_RACE: Final = URAMAKI_RACE
NUMBERED_ACTS: Final = ("chopsticks", "spoon", "menu", "takeout")


@dataclass
class _Slot:
    """A card on a player's table: the card, the turn it came, the nigiri a wasabi holds."""

    part: Part
    turn: int
    holds: _Slot | None = None
    on: _Slot | None = None


@dataclass
class _Seat:
    slots: list[_Slot] = field(default_factory=list)
    discarded: list[Part] = field(default_factory=list)
    played: list[Part] = field(default_factory=list)  # every card played, for the deck's copies

    def find(self, text: str, before: int | None) -> _Slot | None:
        """The first card shown as ``text`` (``special-order:eel``, ``eel``, ``flipped``)."""
        for slot in self.slots:
            if before is not None and slot.turn >= before:
                continue
            if text in (str(slot.part), slot.part.scores_as) or (text == "flipped" and slot.part.flipped):
                return slot
        return None

    def uramaki(self) -> list[_Slot]:
        """The uramaki on the table (special orders copying one too), face up."""
        return [s for s in self.slots if s.part.scores_as and kind_name(s.part.scores_as) == "uramaki"]

    def find_any(self, before: int | None) -> bool:
        """Whether any card was played before turn ``before`` (any card at all for ``None``)."""
        return any(before is None or s.turn < before for s in self.slots)

    def remove(self, slot: _Slot) -> None:
        if slot.holds is not None:
            slot.holds.on = None
        if slot.on is not None:
            slot.on.holds = None
        self.slots.remove(slot)

    def tableau(self) -> PartyTableau:
        items = [Item(s.holds.part, s.part) if s.holds is not None else _ITEM[s.part]
                 for s in self.slots if s.on is None]
        return canonical(items)  # as its notation reads back


@dataclass(frozen=True)
class TurnRound:
    """A round played turn by turn: the final tableaux, its score, what happened."""

    tableaux: tuple[PartyTableau, ...]
    score: RoundScore
    events: tuple[str, ...]


class _Round:
    def __init__(self, players: int, rules: PartyRules) -> None:
        self.seats = [_Seat() for _ in range(players)]
        self.rules = rules
        self.paid = [0] * players
        self.places = 0
        self.events: list[str] = []
        self.misos: list[tuple[int, _Slot]] = []
        self.turn = 0
        self.last = hand_size(players)
        self.uramaki_placed = False  # no uramaki placed this round: no race to run
        self.race_rule: Race = _RACE  # the places paid (conform plants a public engine's other ones)

    # --- placing a card ----------------------------------------------------------------------

    def place(self, k: int, part: Part) -> None:
        seat = self.seats[k]
        slot = _Slot(part, self.turn)
        kind = kind_name(part.scores_as) if part.scores_as else ""
        seat.slots.append(slot)
        if kind == "nigiri" and not (part.copy and self.rules.special_order_wasabi == "may"):
            free = next((s for s in seat.slots if not s.part.flipped and s.holds is None
                         and kind_name(s.part.scores_as) == "wasabi"), None)
            if free is not None:  # RB p15: the next nigiri must go on an empty wasabi
                free.holds, slot.on = slot, free
        if kind == "miso":
            self.misos.append((k, slot))
        elif kind == "uramaki":
            self.uramaki_placed = True

    def act(self, k: int, text: str, where: str, bonus: bool) -> None:
        """One card played by seat ``k`` (a normal play, or what a menu or bonus action plays)."""
        seat = self.seats[k]
        head, sep, rest = text.partition(":")
        name = kind_name(card_named(head, where))
        if name in ("menu", "takeout") and not head[-1:].isdigit():
            raise InputError(f"{where}: {head}: give its corner number ({name}-N), it orders the actions")
        seat.played.append(_PLAIN[head])
        if name == SPECIAL:
            self._special(k, rest if sep else "", where, bonus)
        elif name == "takeout":
            self._takeout(k, [t for t in rest.split(",") if t] if sep else [], where)
            seat.discarded.append(_PLAIN[head])
        elif name == "menu":
            seat.discarded.append(_PLAIN[head])
            if sep and rest != "-":
                if kind_name(card_named(rest.partition(":")[0], where)) == "menu":
                    raise InputError(f"{where}: a menu cannot play a menu (RB p12)")
                self.act(k, rest, where, bonus=True)
        else:
            if sep and name in ("chopsticks", "spoon"):
                raise InputError(f"{where}: {text!r}: {name} act after the turn's normal play: "
                                 f"'CARD {head}:CARD', on a turn after the {name} were played")
            if sep:
                raise InputError(f"{where}: {text!r}: only a special order, takeout box, menu, chopsticks or "
                                 "spoon takes ':'")
            self.place(k, _PLAIN[head])

    def _special(self, k: int, target: str, where: str, bonus: bool) -> None:
        seat = self.seats[k]
        before = self.turn if (self.rules.special_order_copies == "earlier-turns" or not bonus) else None
        if not target:
            if seat.find_any(before):
                raise InputError(f"{where}: special-order: name the card it copies (special-order:CARD)")
            seat.discarded.append(Part(SPECIAL))
            return
        slot = seat.find(target, before)
        if slot is None:
            raise InputError(f"{where}: special-order:{target}: player {k} has no {target} already played "
                             f"to copy (special_order_copies={self.rules.special_order_copies})")
        if slot.part.flipped:  # RB p14: a copy of a flipped card is flipped too
            self.place(k, Part(SPECIAL, flipped=True))
        else:
            self.place(k, Part(SPECIAL, slot.part.scores_as))

    def _takeout(self, k: int, targets: list[str], where: str) -> None:
        seat = self.seats[k]
        for target in targets:
            slot = seat.find(target, self.turn)
            if slot is None or slot.part.flipped:
                raise InputError(f"{where}: takeout: player {k} has no {target} from an earlier turn to flip")
            kind = KIND[kind_name(slot.part.scores_as)]
            if kind.dessert and self.rules.takeout_dessert == "keep":
                raise InputError(f"{where}: takeout: a dessert is not flipped (takeout_dessert=keep)")
            pair = slot.holds or slot.on
            if pair is not None:  # the stack comes undone: a freed wasabi takes the next nigiri
                slot.holds = slot.on = None
                pair.holds = pair.on = None
                if self.rules.takeout_stack == "together":
                    pair.part = _flip(pair.part)
            slot.part = _flip(slot.part)
            self.events.append(f"turn {self.turn}: player {k} flips {target} (R-PARTY-TAKEOUT)")

    # --- the turn ----------------------------------------------------------------------------

    def play_turn(self, plays: Sequence[str]) -> None:
        self.turn += 1
        self.misos = []
        later: list[tuple[int, int, str, str, bool]] = []  # (corner number, seat, text, where, bonus)
        bonus_finish = self.rules.uramaki_bonus_turn == "after"
        for k, play in enumerate(plays):
            where = f"turn {self.turn}, player {k}"
            if not isinstance(play, str) or not play.strip():
                raise InputError(f"{where}: a play is a text naming the card played (docs/party.md)")
            words = play.strip().lower().split()
            if words == ["-"]:
                continue
            normal, bonuses = words[0], words[1:]
            head = normal.partition(":")[0]
            if kind_name(card_named(head, where)) in ("menu", "takeout"):
                later.append((_number(head, where), k, normal, where, False))
            else:
                self.act(k, normal, where, bonus=False)
            if bonuses and self.turn == self.last:  # every hand is empty once the last cards are played
                raise InputError(f"{where}: turn {self.turn} is the last ({self.last} cards a hand): no "
                                 "card is left in any hand for chopsticks or a spoon")
            if len(bonuses) > 1 and self.rules.bonus_actions == "one":
                raise InputError(f"{where}: one bonus action a turn (bonus_actions=one)")
            for b in bonuses:
                bhead = _bonus_head(b)
                if kind_name(card_named(bhead.rpartition(":")[2], where)) not in ("chopsticks", "spoon"):
                    raise InputError(f"{where}: {b!r}: after the normal play come only chopsticks-N:CARD "
                                     "and spoon-N:CARD")
                later.append((_number(bhead, where), k, b, where, True))
        if bonus_finish:
            self.race()
        for _, k, text, where, bonus in sorted(later, key=lambda x: x[0]):
            if bonus:
                self._bonus(k, text, where)
            else:
                self.act(k, text, where, bonus=False)
        self.race()
        if len(self.misos) >= 2:  # RB p11: two or more in one turn, all discarded
            who = sorted({k for k, _ in self.misos})
            for k, slot in self.misos:
                if slot in self.seats[k].slots:
                    self.seats[k].remove(slot)
                    self.seats[k].discarded.append(slot.part)
            self.events.append(f"turn {self.turn}: {len(self.misos)} misos played (players "
                               f"{', '.join(map(str, who))}): all discarded (R-PARTY-MISO)")

    def _bonus(self, k: int, text: str, where: str) -> None:
        seat = self.seats[k]
        head = _bonus_head(text)
        sep, rest = text[len(head):len(head) + 1], text[len(head) + 1:]
        slot = seat.find(head, self.turn)
        if slot is None:
            raise InputError(f"{where}: {head}: player {k} has no {head} played on an earlier turn")
        seat.remove(slot)  # back to the hand, or to the spoon's giver
        name = kind_name(head.rpartition(":")[2])
        if not sep or rest == "-":
            if name == "spoon":  # RB p13: nobody had it, the spoon is discarded
                seat.discarded.append(slot.part)
                return
            raise InputError(f"{where}: {head}: name the card played (chopsticks-N:CARD)")
        if slot.part.card == SPECIAL:  # a special order copying them goes back to a hand too, and
            seat.played.remove(Part(SPECIAL))  # may be played again: its deck copy counts once
        self.act(k, rest, where, bonus=True)

    def race(self) -> None:
        """RB p9: uramaki reaching 10 icons pay the next places, best total first."""
        if not self.uramaki_placed:  # every total 0: nobody reaches the goal
            return
        totals = [sum(icons(s.part.scores_as) for s in seat.uramaki()) for seat in self.seats]
        rule = self.race_rule
        done = sorted({t for t in totals if t >= rule.goal}, reverse=True)
        for total in done:
            group = [k for k, t in enumerate(totals) if t == total]
            if self.places >= len(rule.points):
                if self.rules.uramaki_after_places == "keep":
                    return
                points = 0
            else:
                points = rule.points[self.places]
                used = len(group) if self.rules.uramaki_tie_many == "use-places" else min(len(group), 2)
                self.places += used
            for k in group:
                self.paid[k] += points
                seat = self.seats[k]
                for s in seat.uramaki():
                    seat.remove(s)
                    seat.discarded.append(s.part)
                self.events.append(f"turn {self.turn}: player {k} reaches {total} uramaki icons: {points} "
                                   "(R-PARTY-URAMAKI), uramaki discarded")


#: A round's table as it is played, turn by turn (:meth:`_Round.play_turn`), for the executor.
RoundTable = _Round


_K = TypeVar("_K")
_V = TypeVar("_V")


class _Shared(dict[_K, _V]):
    """One shared value a key, made on first asking (parts and items are frozen values)."""

    def __init__(self, make: Callable[[_K], _V]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: _K) -> _V:
        value = self[key] = self.make(key)
        return value


#: ``Part(card)`` a card name (the names are checked cards) and ``Item(part)`` a part, shared.
_PLAIN: Final[_Shared[str, Part]] = _Shared(Part)
_ITEM: Final[_Shared[Part, Item]] = _Shared(Item)


def _flip(part: Part) -> Part:
    return Part(part.card, flipped=True)


def _bonus_head(text: str) -> str:
    """The card a bonus action uses: ``chopsticks-1``, or a special order copying one,
    ``special-order:chopsticks-1`` (RB p14: the copy is used like the card)."""
    parts = text.split(":")
    return ":".join(parts[:2]) if parts[0] == SPECIAL and len(parts) > 1 else parts[0]


def _number(head: str, where: str) -> int:
    number = head.rpartition("-")[2]
    if not number.isdigit():
        raise InputError(f"{where}: {head}: give its corner number ({head}-N), it orders the actions")
    return int(number)


def play_round(turns: Sequence[Sequence[str]], menu: Menu, rules: PartyRules = DEFAULT, round_no: int = 1,
               earlier_desserts: int = 0, kinds: Mapping[str, PartyKind] = KIND) -> TurnRound:
    """Play a round given turn by turn and score it (see the module docstring); ``kinds``: the
    kinds' definitions (``sushigo conform`` plants a public engine's mistakes in them)."""
    if not isinstance(turns, Sequence) or not turns:
        raise InputError("a round turn by turn is a list of turns, each one play per player")
    players = len(turns[0])
    menu.check_players(players)
    if len(turns) > hand_size(players):
        raise InputError(f"{len(turns)} turns, but {players} players are dealt hands of {hand_size(players)}")
    game = _Round(players, rules)
    race = kinds["uramaki"].scoring
    if isinstance(race, Race):
        game.race_rule = race
    for t, plays in enumerate(turns):
        if not isinstance(plays, Sequence) or isinstance(plays, str) or len(plays) != players:
            raise InputError(f"turn {t + 1} has {len(plays) if isinstance(plays, Sequence) else 0} plays, "
                             f"turn 1 had {players}: one play per player each turn")
        game.play_turn(plays)
    return finish_round(game, menu, rules, round_no, earlier_desserts, kinds)


def finish_round(game: _Round, menu: Menu, rules: PartyRules, round_no: int = 1,
                 earlier_desserts: int = 0, kinds: Mapping[str, PartyKind] = KIND) -> TurnRound:
    """The final tableaux of a round played to its end, checked against the menu's deck, and
    scored with what the uramaki race paid."""
    tableaux = tuple(seat.tableau() for seat in game.seats)
    played = [tuple(_ITEM[p] for p in seat.played
                    if kind_name(p.card) not in ("chopsticks", "spoon")) for seat in game.seats]
    check_round(played, menu, round_no, earlier_desserts)
    discarded = [tuple(_ITEM[p] for p in seat.discarded) for seat in game.seats]
    score = score_round(tableaux, menu, rules, RacePaid(tuple(game.paid), game.places), discarded, kinds)
    return TurnRound(tableaux, score, tuple(game.events))


__all__ = ["RoundTable", "TurnRound", "finish_round", "play_round"]
