"""Sushi Go Party! played: a seeded game for a menu, its record, and the record replayed
(issue 28 item 4).

The executor deals and passes and says which moves are legal; it states no scoring. Each turn it
writes the players' plays in the turn-by-turn notation of :mod:`.turns`, has :mod:`.turns` resolve
them, and at round end the round's score is :func:`.turns.finish_round`'s of those very turns; the
game's is :func:`.scoring.score_game`'s.

The table, round by round (PARTY.md section 1, rulebook p2, p5, p7):

* the deck is the menu's non-dessert cards; the dessert cards wait in a shuffled pile of their own;
* before each round the round's desserts (:func:`.menus.desserts_per_round`) come off the pile and
  are shuffled into the deck, and every player is dealt :func:`.menus.hand_size` cards; the rest
  is the undealt deck, which menus draw from;
* each turn every player plays one card (and perhaps one bonus action), then hands pass left:
  seat ``k`` passes to seat ``k + 1``, and "the players to your left" are ``k + 1, k + 2, ...``;
* at round end the played desserts are kept for game end (and a special order copying a dessert
  with them); every other card, the undealt deck too, is shuffled for the next round.

**Moves.** The move space is finite and every move in it is legal:

* a normal play is any card in hand; a special order names one card of an earlier turn to copy
  (each distinct card once; with none, it is played bare and discarded); a takeout box flips
  nothing, one earlier card (each distinct card once) or all of them; a menu is played bare and,
  when it acts, draws up to 4 cards of the undealt deck and plays one of them (each distinct
  drawn card once, not a menu; ``-`` only when none can be played), the rest going back and the
  deck shuffled;
* besides, on every turn but the last, at most one bonus action: chopsticks of an earlier turn
  play any other card of the hand, or a spoon of an earlier turn asks for one exact card of the
  menu (any of its cards, each once); the first player to the left holding it gives it and takes
  the spoon into their hand; nobody: the spoon is discarded.
* cards an action that resolves after the normal plays may aim at leave out the chopsticks or
  spoon the player uses that turn, what a takeout box of the player flipped earlier that turn,
  and, under ``uramaki_bonus_turn=after``, uramaki that may have raced off the table by then;
* of two takeout boxes one player plays in a turn (its own and one played by a bonus action or
  a menu), only one flips anything.

**Randomness.** One ``random.Random(seed)``. Its first draw seeds the players' random choices;
everything after is the dealer's: the dessert pile, each round's shuffle, the shuffle after each
menu. So the record's seed and its plays fix every deal, and :func:`replay` deals again from the
seed alone, whatever policy chose the plays.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from sushigo.spec.errors import IllegalMoveError, InputError
from sushigo.spec.party.menus import ROUNDS, Menu, desserts_per_round, hand_size, parse_menu
from sushigo.spec.party.readings import DEFAULT, PartyRules, party_rules
from sushigo.spec.party.scoring import GameScore, RoundScore, score_game
from sushigo.spec.party.tableau import SPECIAL, card_names, kind_name
from sushigo.spec.party.turns import RoundTable, TurnRound, finish_round

FORMAT: Final = "sushigo-party-record/1"
POLICIES: Final = ("random", "first", "greedy")
MENU_DRAW: Final = 4
_LATER: Final = ("chopsticks", "spoon", "menu", "takeout")
#: The cards a bonus action uses, by name (printed, and the bare numbered kinds): their kind.
_TOOL_OF: Final[Mapping[str, str]] = {card: kind_name(card) for card in card_names()
                                      if kind_name(card) in ("chopsticks", "spoon")}


class PartyIllegal(IllegalMoveError):
    """A step of a Party record the rules (or the record's own deal) do not allow."""

    def __init__(self, message: str, rule_id: str, round_no: int = 0, turn: int = 0,
                 player: int | None = None) -> None:
        where = [f"round {round_no}"] if round_no else []
        where += [f"turn {turn}"] if turn else []
        where += [f"player {player}"] if player is not None else []
        super().__init__(f"{', '.join(where)}: {message} ({rule_id})" if where else f"{message} ({rule_id})")
        self.rule_id = rule_id
        self.round_no, self.turn, self.player = round_no, turn, player


# --- choosers: who picks among the legal options ---------------------------------------------


class Chooser:
    """Picks one of the legal options at each decision. ``what`` names the decision: ``play``
    (the normal play and bonus action, as a pair), ``menu`` (the card played from a menu's draw),
    ``ask`` (the card a spoon asks for), ``target`` (what a card found by a spoon copies or flips)."""

    def choose(self, what: str, seat: int, options: Sequence[Any]) -> Any:
        raise NotImplementedError

    def bind(self, game: Any) -> None:
        """Told the game it decides for (its table, hands and menu), before the first deal."""


class RandomChooser(Chooser):
    """Uniform over the distinct legal options (``random``), from its own seeded generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, what: str, seat: int, options: Sequence[Any]) -> Any:
        return options[self.rng.randrange(len(options))]


class FirstChooser(Chooser):
    """The first legal option, always (``first``): a fixed, cheap opponent for tests."""

    def choose(self, what: str, seat: int, options: Sequence[Any]) -> Any:
        return options[0]


def make_chooser(policy: str, rng: random.Random) -> Chooser:
    if policy == "random":
        return RandomChooser(rng)
    if policy == "first":
        return FirstChooser()
    if policy == "greedy":
        from sushigo.spec.party.policies import GreedyChooser

        return GreedyChooser(rng)
    raise InputError(f"--policy {policy!r}: Party games are played by {', '.join(POLICIES)}")


# --- the record --------------------------------------------------------------------------------


@dataclass
class PartyRoundRecord:
    hands: list[list[str]]
    undealt: list[str]
    turns: list[list[str]] = field(default_factory=list)
    draws: list[dict[str, Any]] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    kept: list[list[str]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"hands": self.hands, "undealt": self.undealt, "turns": self.turns, "draws": self.draws,
                "scores": self.scores, "kept": self.kept}


@dataclass
class PartyRecord:
    seed: int
    menu: Menu
    players: int
    rules: PartyRules
    policies: list[str]
    rounds: list[PartyRoundRecord] = field(default_factory=list)
    scored: list[TurnRound] = field(default_factory=list)
    score: GameScore | None = None

    def as_json(self) -> dict[str, Any]:
        assert self.score is not None
        s = self.score
        return {"format": FORMAT, "game": "party", "seed": self.seed, "menu": self.menu.label,
                "kinds": list(self.menu.kinds[1:]), "players": self.players, "readings": self.rules.changed(),
                "policies": self.policies, "rounds": [r.as_json() for r in self.rounds],
                "dessert": s.dessert, "dessert_points": list(s.dessert_points or ()),
                "dessert_cards": list(s.dessert_cards), "totals": list(s.totals), "winners": list(s.winners)}

    def score_document(self) -> dict[str, Any]:
        """The record as a Party score document (``sushigo score --game party``): its rounds turn by turn."""
        return {"format": "sushigo-party-score/1", "menu": self.menu.label, "readings": self.rules.changed(),
                "rounds": [{"turns": r.turns} for r in self.rounds]}


# --- one game ----------------------------------------------------------------------------------


def _expand(cards: Sequence[tuple[str, int]]) -> list[str]:
    return [c for c, n in cards for _ in range(n)]


def _head(text: str) -> str:
    return text.partition(":")[0]


class _Game:
    """The dealer, the hands and the table of one game; ``chooser`` makes the decisions."""

    def __init__(self, menu: Menu, players: int, rules: PartyRules, seed: int, chooser_for: Callable[
            [random.Random], Chooser]) -> None:
        menu.check_players(players)
        self.menu, self.players, self.rules = menu, players, rules
        root = random.Random(seed)
        self.chooser = chooser_for(random.Random(root.getrandbits(64)))
        self.chooser.bind(self)
        self.rng = self.dealer(root)  # the dealer's, from here on
        self.pile = _expand(menu.desserts())
        self.rng.shuffle(self.pile)
        self.pool = _expand(menu.deck())
        self.ask_cards = tuple(dict.fromkeys(_expand(menu.deck()) + _expand(menu.desserts())))
        self.round_no = 0
        self.turn = 0
        self.size = hand_size(players)
        self.has_tools = any(t.name in ("chopsticks", "spoon") for t in menu.tiles)
        # Per seat, this turn: no more flips (another takeout box of its flips), and what was flipped.
        self.no_flip = [False] * players
        self.flipped: list[set[str]] = [set() for _ in range(players)]
        self._asks: dict[str, list[tuple[str, str, bool]]] = {}

    def dealer(self, root: random.Random) -> random.Random:
        """The dealer's generator, made from the game's once the players' seed is drawn (a step
        API puts one there that asks its chance decisions, :mod:`.step`)."""
        return root

    # --- dealing -------------------------------------------------------------------------------

    def deal(self) -> PartyRoundRecord:
        self.round_no += 1
        add = desserts_per_round(self.players)[self.round_no - 1]
        deck = self.pool + self.pile[:add]
        self.pile = self.pile[add:]
        self.rng.shuffle(deck)
        self.start = list(deck)
        size = hand_size(self.players)
        self.hands = [deck[k * size:(k + 1) * size] for k in range(self.players)]
        self.deck = deck[self.players * size:]
        self.table = RoundTable(self.players, self.rules)
        self.turn = 0
        return PartyRoundRecord([list(h) for h in self.hands], list(self.deck))

    def end_round(self, rnd: PartyRoundRecord, earlier_desserts: int) -> TurnRound:
        result = finish_round(self.table, self.menu, self.rules, self.round_no, earlier_desserts)
        dessert = self.menu.dessert.name
        kept = [[p.card for item in t for p in item.parts()
                 if not p.flipped and p.scores_as and kind_name(p.scores_as) == dessert]
                for t in result.tableaux]
        rnd.kept = kept
        rnd.scores = list(result.score.totals)
        out = Counter(c for seat in kept for c in seat)
        pool = []
        for card in self.start:  # the round's cards, less the kept desserts
            if out[card]:
                out[card] -= 1
            else:
                pool.append(card)
        self.pool = pool
        return result

    # --- what a seat may aim at ---------------------------------------------------------------

    def _earlier(self, k: int) -> list[Any]:
        return list(self.table.seats[k].slots)  # every card on the table came on an earlier turn

    def _aims(self, k: int, later: bool, used: str) -> list[Any]:
        """Slots of earlier turns an action may aim at (see the module docstring)."""
        slots = self._earlier(k)
        if not later:
            return slots
        out = [s for s in slots if str(s.part) != used]
        if self.rules.uramaki_bonus_turn == "after" and any(
                s.part.scores_as and kind_name(s.part.scores_as) == "uramaki" for s in out):
            out = [s for s in out if not (s.part.scores_as and kind_name(s.part.scores_as) == "uramaki")]
        return out

    def targets(self, k: int, later: bool, used: str = "", placed: Sequence[str] = ()) -> list[str]:
        """A special order's texts: ``special-order:CARD`` per distinct card it may copy, or bare
        when it has nothing to copy; none when neither is sure to be legal."""
        texts = ["flipped" if s.part.flipped else str(s.part) for s in self._aims(k, later, used)
                 if not (later and str(s.part) in self.flipped[k])]  # not what a takeout flipped this turn
        same_turn = later and self.rules.special_order_copies == "played"
        if same_turn:
            texts += [p for p in placed if p]
        if texts:
            return [f"{SPECIAL}:{t}" for t in dict.fromkeys(texts)]
        raw = [s for s in self._earlier(k) if not later or str(s.part) != used]
        return [] if raw else [SPECIAL]

    def flips(self, k: int, card: str, later: bool, used: str = "") -> list[str]:
        """A takeout box's texts: flip nothing, one earlier card (each distinct once), or all.
        Of two takeout boxes one seat plays in a turn, only one flips anything."""
        if later and self.no_flip[k]:
            return [card]
        aims = [s for s in self._aims(k, later, used) if not s.part.flipped]
        if self.rules.takeout_dessert == "keep":
            aims = [s for s in aims if not (s.part.scores_as and kind_name(s.part.scores_as) ==
                                            self.menu.dessert.name)]
        names = [str(s.part) for s in aims]
        out = [card] + [f"{card}:{n}" for n in dict.fromkeys(names)]
        if len(names) > 1:
            together = self.rules.takeout_stack == "together"  # a wasabi flips its nigiri with it
            every = [str(s.part) for s in aims if not (together and s.on is not None and s.on in aims)]
            out.append(f"{card}:{','.join(every)}")
        return out

    def expand(self, k: int, card: str, later: bool, used: str = "", placed: Sequence[str] = ()) -> list[str]:
        """The texts playing ``card`` may take (a menu stays bare: it chooses when it acts)."""
        name = kind_name(card)
        if name == SPECIAL:
            return self.targets(k, later, used, placed)
        if name == "takeout":
            return self.flips(k, card, later, used)
        return [card]

    # --- a turn --------------------------------------------------------------------------------

    def bonuses(self, k: int, hand: Sequence[str], placed: Sequence[str],
                tools: Sequence[tuple[str, str]] | None = None) -> list[str]:
        """Bonus actions seat ``k`` may take with ``hand`` (after its normal play, which placed
        ``placed``); ``tools``: :meth:`tools` of ``k``, when already known."""
        out: list[str] = []
        for text, name in self.tools(k) if tools is None else tools:
            if name == "chopsticks":
                for card in dict.fromkeys(hand):
                    if kind_name(card) == "menu":
                        out.append(f"{text}:{card}")
                    else:
                        out += [f"{text}:{t}" for t in self.expand(k, card, True, text, placed)]
            else:
                out += [ask for ask, c, aims in self.asks(text)
                        if not aims or self.expand(k, c, True, text, placed)]
        return out

    def asks(self, spoon: str) -> list[tuple[str, str, bool]]:
        """What ``spoon`` may ask for: (its text ``spoon-N?CARD``, the card, whether the card is a
        special order or takeout box, legal only with something to aim at). Worked out once a game."""
        out = self._asks.get(spoon)
        if out is None:
            out = self._asks[spoon] = [(f"{spoon}?{c}", c, kind_name(c) in (SPECIAL, "takeout"))
                                       for c in self.ask_cards if c != spoon]
        return out

    def tools(self, k: int) -> list[tuple[str, str]]:
        """The chopsticks and spoons of earlier turns seat ``k`` may use this turn: (text, kind)."""
        if self.turn == self.size or not self.has_tools:
            return []
        seat = self.table.seats[k]
        out = []
        for slot in seat.slots:
            name = _TOOL_OF.get(slot.part.scores_as)
            if name is not None:
                text = str(slot.part)
                if seat.find(text, self.table.turn + 1) is slot:
                    out.append((text, name))
        return out

    def moves(self, k: int) -> list[tuple[str, str]]:
        """Every (normal play, bonus action or '') seat ``k`` may make this turn."""
        hand = self.hands[k]
        out: list[tuple[str, str]] = []
        tools = self.tools(k)
        if not tools:  # no bonus action to take: the normal plays alone
            for card in dict.fromkeys(hand):
                name = kind_name(card)
                if name == SPECIAL or name == "takeout":
                    out += [(p, "") for p in self.expand(k, card, name == "takeout")]
                else:  # a plain card (or a menu, which chooses when it acts) is played as it is
                    out.append((card, ""))
            return out
        for card in dict.fromkeys(hand):
            rest = list(hand)
            rest.remove(card)
            if kind_name(card) in ("menu", "takeout"):  # it acts after the bonus actions
                for bonus in ["", *self.bonuses(k, rest, (), tools)]:
                    used = _used(bonus)
                    if kind_name(card) == "menu" or _flips(bonus[len(used) + 1:]):
                        out.append((card, bonus))  # of two takeout boxes, one flips
                    else:
                        out += [(play, bonus) for play in self.expand(k, card, True, used)]
                continue
            for play in self.expand(k, card, False):
                out += [(play, b) for b in ["", *self.bonuses(k, rest, [_slot_text(play)], tools)]]
        return out

    def play_turn(self, rnd: PartyRoundRecord) -> None:
        self.begin_turn()
        self.resolve_turn(rnd, [self.chooser.choose("play", k, self.moves(k)) for k in range(self.players)])

    def begin_turn(self) -> None:
        """A new turn: from here :meth:`moves` gives each seat's plays (a step API asks them one
        by one, :mod:`.step`), and :meth:`resolve_turn` plays the ones chosen."""
        self.turn += 1
        self.no_flip = [False] * self.players
        self.flipped = [set() for _ in range(self.players)]

    def resolve_turn(self, rnd: PartyRoundRecord, chosen: Sequence[tuple[str, str]]) -> None:
        """The turn's chosen (normal play, bonus action) of every seat played, the menus' and
        spoons' decisions asked of the chooser as resolution reaches them; then hands pass."""
        for k, (play, _bonus) in enumerate(chosen):
            self.no_flip[k] = bool(_flips(play))  # it flips last: the seat's other takeout boxes flip nothing
        texts = [play for play, _ in chosen]
        bonus_text = ["" for _ in range(self.players)]
        later: list[tuple[int, int, str]] = []  # (corner number, seat, "normal" or "bonus")
        placed: list[list[str]] = [[] for _ in range(self.players)]
        for k, (play, bonus) in enumerate(chosen):
            self.hands[k].remove(_head(play))
            if kind_name(_head(play)) in ("menu", "takeout"):
                later.append((_corner(_head(play)), k, "normal"))
            else:
                placed[k].append(_slot_text(play))
            if bonus:
                later.append((_corner(_used(bonus)), k, "bonus"))
        for _, k, which in sorted(later):
            play, bonus = chosen[k]
            used = _used(bonus)
            if which == "normal":
                if kind_name(_head(play)) == "menu":
                    texts[k] = self.menu_play(k, play, rnd, used, placed[k])
            elif kind_name(used.split(":")[-1]) == "chopsticks":
                card_text = bonus[len(used) + 1:]
                card = _head(card_text)
                self.hands[k].remove(card)
                self.hands[k].append(self._slot_card(k, used))
                if kind_name(card) == "menu":
                    card_text = self.menu_play(k, card, rnd, used, placed[k])
                placed[k].append(_slot_text(card_text))
                bonus_text[k] = f"{used}:{card_text}"
            else:
                bonus_text[k] = self.spoon(k, used, bonus.partition("?")[2], rnd, placed[k])
            done = _flips(bonus_text[k][len(used) + 1:]) if which == "bonus" else []
            if done:  # what it flipped is no card to aim at, and the seat's next takeout flips nothing
                self.no_flip[k] = True
                self.flipped[k] |= set(done)
        plays = [f"{t} {b}" if b else t for t, b in zip(texts, bonus_text, strict=True)]
        rnd.turns.append(plays)
        self.table.play_turn(plays)
        self.hands = [self.hands[(k - 1) % self.players] for k in range(self.players)]  # pass left

    def _slot_card(self, k: int, text: str) -> str:
        slot = self.table.seats[k].find(text, self.table.turn + 1)
        assert slot is not None
        return slot.part.card

    def menu_play(self, k: int, menu: str, rnd: PartyRoundRecord, used: str, placed: Sequence[str]) -> str:
        """A menu acts: draw, play one of the drawn cards, return the rest, shuffle."""
        if len(self.deck) < MENU_DRAW and self.rules.menu_short_deck == "discard":
            rnd.draws.append({"turn": self.turn, "player": k, "menu": menu, "drawn": []})
            return f"{menu}:-"
        drawn, self.deck = self.deck[:MENU_DRAW], self.deck[MENU_DRAW:]
        rnd.draws.append({"turn": self.turn, "player": k, "menu": menu, "drawn": list(drawn)})
        options = [t for c in dict.fromkeys(drawn) if kind_name(c) != "menu"
                   for t in self.expand(k, c, True, used, placed)] or ["-"]
        pick = self.chooser.choose("menu", k, options)
        if pick != "-":
            drawn.remove(_head(pick))
        self.deck += drawn
        self.rng.shuffle(self.deck)
        return f"{menu}:{pick}"

    def spoon(self, k: int, spoon: str, ask: str, rnd: PartyRoundRecord, placed: list[str]) -> str:
        """A spoon acts: the first player to the left holding ``ask`` gives it and takes the spoon."""
        for step in range(1, self.players):
            giver = (k + step) % self.players
            if ask in self.hands[giver]:
                self.hands[giver].remove(ask)
                self.hands[giver].append(self._slot_card(k, spoon))
                if kind_name(ask) == "menu":
                    text = self.menu_play(k, ask, rnd, spoon, placed)
                else:
                    text = self.chooser.choose("target", k, self.expand(k, ask, True, spoon, placed))
                placed.append(_slot_text(text))
                return f"{spoon}:{text}"
        return f"{spoon}:-"


def _flips(text: str) -> list[str]:
    """The cards a takeout box flips in a play's text (``takeout-10:eel,tofu``; through a menu too)."""
    if ":" not in text:  # a bare card flips nothing
        return []
    head, _, rest = text.partition(":")
    if not head or not _known(head):
        return []
    name = kind_name(head)
    if name == "menu":
        return _flips(rest)
    return [t for t in rest.split(",") if t] if name == "takeout" else []


def _used(bonus: str) -> str:
    """The chopsticks or spoon a bonus action uses (``chopsticks-1:eel``, ``spoon-4?eel``)."""
    parts = bonus.split("?")[0].split(":")
    return ":".join(parts[:2]) if parts[0] == SPECIAL else parts[0]  # a special order's copy of one too


def _slot_text(text: str) -> str:
    """How the card a play leaves on the table is named, for a special order played later the
    same turn ('' when the play leaves none: a bare special order, a takeout box, a menu)."""
    head, _, rest = text.partition(":")
    name = kind_name(head)
    if name == "menu":
        return _slot_text(rest) if rest and rest != "-" else ""
    if name == "takeout" or text == SPECIAL:
        return ""
    if name == SPECIAL:
        return "flipped" if rest == "flipped" else f"{SPECIAL}:{rest.split(':')[-1]}"
    return text


def _corner(card: str) -> int:
    return int(card.rpartition("-")[2])


def _run(game: _Game) -> tuple[list[PartyRoundRecord], list[TurnRound], GameScore]:
    rounds: list[PartyRoundRecord] = []
    scored: list[TurnRound] = []
    desserts = 0
    for _ in range(ROUNDS):
        rnd = game.deal()
        for _turn in range(hand_size(game.players)):
            game.play_turn(rnd)
        result = game.end_round(rnd, desserts)
        desserts += sum(1 for seat in rnd.kept for c in seat if c != SPECIAL)
        rounds.append(rnd)
        scored.append(result)
    return rounds, scored, score_game([r.score for r in scored], game.menu, game.rules, ROUNDS)


def play_party(menu: Menu | str, players: int, seed: int = 0, policy: str | Sequence[str] = "random",
               rules: PartyRules = DEFAULT) -> PartyRecord:
    """One seeded game of Party for ``menu`` and ``players``; the same seed gives the same record."""
    if isinstance(menu, str):
        menu = parse_menu(menu, players, uramaki=rules.uramaki_split)
    policies = [policy] * players if isinstance(policy, str) else list(policy)
    if len(policies) == 1:
        policies *= players
    if len(policies) != players:
        raise InputError(f"--policy: give one policy for every player, or one per seat ({players})")

    def chooser_for(rng: random.Random) -> Chooser:
        per = [make_chooser(p, rng) for p in policies]
        return _PerSeat(per)

    game = _Game(menu, players, rules, seed, chooser_for)
    rounds, scored, score = _run(game)
    return PartyRecord(seed, menu, players, rules, policies, rounds, scored, score)


class _PerSeat(Chooser):
    def __init__(self, seats: Sequence[Chooser]) -> None:
        self.seats = seats

    def bind(self, game: Any) -> None:
        for chooser in self.seats:
            chooser.bind(game)

    def choose(self, what: str, seat: int, options: Sequence[Any]) -> Any:
        return self.seats[seat].choose(what, seat, options)


# --- replay ------------------------------------------------------------------------------------


class _Recorded(Chooser):
    """Answers each decision from the record's own plays and refuses one that is not legal."""

    def __init__(self) -> None:
        self.game: _Game | None = None
        self.plays: list[str] = []
        self.pending: dict[tuple[int, str], list[str]] = {}

    def load(self, plays: Sequence[str]) -> None:
        self.plays = list(plays)
        self.pending = {}

    def fail(self, seat: int, message: str, rule: str) -> PartyIllegal:
        g = self.game
        assert g is not None
        return PartyIllegal(message, rule, g.round_no, g.turn, seat)

    def choose(self, what: str, seat: int, options: Sequence[Any]) -> Any:
        g = self.game
        assert g is not None
        if what == "play":
            return self._play(seat, options)
        want = self.pending.get((seat, what), [])
        if not want:
            raise self.fail(seat, f"the record does not say what the {what} decision was", "R-PARTY-RECORD")
        text = want.pop(0)
        if text not in options:
            rule = {"menu": "R-PARTY-MENU", "target": "R-PARTY-SPOON"}.get(what, "R-PARTY-RECORD")
            shown = ", ".join(map(str, options[:8])) + (" ..." if len(options) > 8 else "")
            raise self.fail(seat, f"{text!r} is not a legal {what} choice here (legal: {shown})", rule)
        return text

    def _play(self, seat: int, options: Sequence[tuple[str, str]]) -> tuple[str, str]:
        g = self.game
        assert g is not None
        words = self.plays[seat].split() if isinstance(self.plays[seat], str) else []
        if not 1 <= len(words) <= 2:
            raise self.fail(seat, f"a play is a card and at most one bonus action, not {self.plays[seat]!r}",
                            "R-PARTY-RECORD")
        normal = words[0]
        head = _head(normal)
        if head not in g.hands[seat]:
            raise self.fail(seat, f"{head} is not in the hand ({' '.join(sorted(g.hands[seat]))})",
                            "R-PARTY-HAND")
        name = kind_name(head) if _known(head) else ""
        if name == "menu":
            self.pending.setdefault((seat, "menu"), []).append(normal.partition(":")[2])
            normal = head
        bonus = ""
        if len(words) == 2:
            bhead = _used(words[1])
            rest = words[1][len(bhead) + 1:]
            bname = kind_name(bhead.split(":")[-1]) if _known(bhead.split(":")[-1]) else ""
            if bname == "chopsticks":
                if _known(_head(rest)) and kind_name(_head(rest)) == "menu":
                    self.pending.setdefault((seat, "menu"), []).insert(0, rest.partition(":")[2])
                    rest = _head(rest)
                bonus = f"{bhead}:{rest}"
            elif bname == "spoon":
                ask = _head(rest) if rest != "-" else self._missing(seat, bhead)
                found = _head(rest)
                if rest != "-" and _known(found) and kind_name(found) == "menu":
                    self.pending.setdefault((seat, "menu"), []).insert(0, rest.partition(":")[2])
                elif rest != "-":
                    self.pending.setdefault((seat, "target"), []).append(rest)
                bonus = f"{bhead}?{ask}"
            else:
                raise self.fail(seat, f"{words[1]!r}: a bonus action is chopsticks-N:CARD or spoon-N:CARD",
                                "R-PARTY-RECORD")
        if (normal, bonus) not in options:
            rule = _rule_of(normal, bonus)
            raise self.fail(seat, f"{self.plays[seat]!r} is not a legal play here", rule)
        return normal, bonus

    def _missing(self, seat: int, spoon: str) -> str:
        """A card nobody to the left holds when this spoon acts, for a spoon the record says found
        nothing: the hands after the normal plays and the bonus actions before it (corner order)."""
        g = self.game
        assert g is not None
        hands = [Counter(h) for h in g.hands]
        acts = []
        for k, play in enumerate(self.plays):
            words = str(play).split()
            if words:
                hands[k][_head(words[0])] -= 1
            if len(words) > 1:
                tool = _used(words[1])
                acts.append((_corner(tool), k, tool, words[1][len(tool) + 1:]))
        for number, k, tool, rest in sorted(acts):
            if number >= _corner(spoon):
                break
            if _known(tool.split(":")[-1]) and kind_name(tool.split(":")[-1]) == "chopsticks":
                hands[k][_head(rest)] -= 1
                hands[k][tool.split(":")[0] if tool.startswith(SPECIAL) else tool] += 1
            elif rest != "-":
                giver = next((j for j in ((k + s) % g.players for s in range(1, g.players))
                              if hands[j][_head(rest)] > 0), None)
                if giver is not None:
                    hands[giver][_head(rest)] -= 1
                    hands[giver][SPECIAL if tool.startswith(SPECIAL) else tool] += 1
        left = [hands[(seat + step) % g.players] for step in range(1, g.players)]
        held = {c for hand in left for c, n in hand.items() if n > 0}
        return next((c for c in g.ask_cards if c not in held and c != spoon), "?")


def _known(card: str) -> bool:
    try:
        kind_name(card)
    except KeyError:
        return False
    return True


_RULE_OF: Final = {"chopsticks": "R-PARTY-CHOPSTICKS", "spoon": "R-PARTY-SPOON", "takeout": "R-PARTY-TAKEOUT",
                   SPECIAL: "R-PARTY-SPECIAL-ORDER", "menu": "R-PARTY-MENU"}


def _rule_of(normal: str, bonus: str) -> str:
    for text in (bonus, normal):
        head = _used(text).split(":")[-1]
        if text and _known(head):
            return _RULE_OF.get(kind_name(head), "R-PARTY-HAND")
    return "R-PARTY-HAND"


@dataclass(frozen=True)
class PartyReplay:
    ok: bool
    error: str | None
    rule_id: str | None
    record: PartyRecord | None  # the game as re-executed, as far as it went


def _menu_of(data: Mapping[str, Any]) -> tuple[Menu, int, PartyRules]:
    readings = data.get("readings", {})
    if not isinstance(readings, Mapping):
        raise InputError("\"readings\" is an object of NAME: VALUE (sushigo rules --game party lists them)")
    rules = party_rules((), readings)
    players = data.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise InputError("a Party record names its \"players\" (a whole number, 2 to 8)")
    menu = parse_menu(str(data.get("menu", "")), players, uramaki=rules.uramaki_split)
    return menu, players, rules


def replay_party(data: Mapping[str, Any]) -> PartyReplay:
    """Re-execute a Party record: deal again from its seed, check every play is legal and every
    deal, draw and score is the one the record shows. The first illegal step is named."""
    if data.get("format") != FORMAT:
        raise InputError(f"a Party record has \"format\": \"{FORMAT}\" (sushigo play --game party --record)")
    menu, players, rules = _menu_of(data)
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InputError("a Party record names its \"seed\" (a whole number)")
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or len(rounds) != ROUNDS:
        raise InputError(f"a Party record holds \"rounds\": a list of {ROUNDS} rounds")
    recorded = _Recorded()
    game = _Game(menu, players, rules, seed, lambda _rng: recorded)
    recorded.game = game
    out = PartyRecord(seed, menu, players, rules, list(data.get("policies", [])))
    desserts = 0
    try:
        for r, want in enumerate(rounds):
            rnd = game.deal()
            out.rounds.append(rnd)
            if not isinstance(want, Mapping):
                raise InputError(f"round {r + 1}: a round is an object (hands, undealt, turns, scores)")
            if want.get("hands") != rnd.hands or want.get("undealt") != rnd.undealt:
                raise PartyIllegal(f"the hands dealt are not the deal of seed {seed}", "R-PARTY-DEAL", r + 1)
            turns = want.get("turns")
            if not isinstance(turns, list) or len(turns) != hand_size(players):
                raise PartyIllegal(f"a round has {hand_size(players)} turns", "R-PARTY-TURNS", r + 1)
            for t, plays in enumerate(turns):
                if not isinstance(plays, list) or len(plays) != players:
                    raise PartyIllegal(f"a turn has one play per player ({players})", "R-PARTY-TURNS",
                                       r + 1, t + 1)
                recorded.load(plays)
                try:
                    game.play_turn(rnd)
                except InputError as exc:
                    raise PartyIllegal(str(exc), "R-PARTY-TURNS", r + 1, t + 1) from exc
                if rnd.turns[-1] != plays:
                    k = next(k for k, (a, b) in enumerate(zip(rnd.turns[-1], plays, strict=True)) if a != b)
                    raise PartyIllegal(f"the record says {plays[k]!r}, the deal gives {rnd.turns[-1][k]!r}",
                                       "R-PARTY-SPOON" if "spoon" in plays[k] else "R-PARTY-MENU",
                                       r + 1, t + 1, k)
            result = game.end_round(rnd, desserts)
            out.scored.append(result)
            desserts += sum(1 for seat in rnd.kept for c in seat if c != SPECIAL)
            if want.get("scores") != rnd.scores:
                raise PartyIllegal(f"the record's scores {want.get('scores')} are not the turns' "
                                   f"{rnd.scores}",
                                   "R-PARTY-SCORE", r + 1)
            if "draws" in want and want["draws"] != rnd.draws:
                raise PartyIllegal("the menus' draws are not the deal's", "R-PARTY-MENU", r + 1)
        out.score = score_game([r.score for r in out.scored], menu, rules, ROUNDS)
        mine = out.as_json()
        for key in ("dessert_points", "totals", "winners"):
            if data.get(key) != mine[key]:
                raise PartyIllegal(f"the record's {key} {data.get(key)} are not the game's {mine[key]}",
                                   "R-PARTY-SCORE")
    except PartyIllegal as exc:
        return PartyReplay(False, str(exc), exc.rule_id, out)
    return PartyReplay(True, None, None, out)


def round_scores(record: PartyRecord) -> list[RoundScore]:
    return [r.score for r in record.scored]


__all__ = ["FORMAT", "POLICIES", "PartyIllegal", "PartyRecord", "PartyReplay", "play_party", "replay_party"]
