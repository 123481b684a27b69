"""A Party best-play question: the hands one player sees, turn by turn, and the table around them.

A puzzle (JSON, format ``sushigo-party-puzzle/1``; docs/party.md, "The best round")::

    {"format": "sushigo-party-puzzle/1", "menu": "sushi-go", "players": 3,
     "readings": {"edamame_cap": "round"},
     "hands": ["squid wasabi maki3 tempura", "tempura chopsticks-1 egg", "dumpling*2"],
     "opponents": [["maki2", "tempura", "egg"], ["-", "-", "-"]],
     "draws": [["eel", "tofu", "egg", "squid"]],
     "left": [[], ["eel"], []]}

``hands``: turn by turn, the cards the player chooses from (a text in tableau notation, or a list
of card names; numbered specials with their corner number). The player is seat 0; ``opponents``
(optional) are seats 1, 2, ... (seat 1 on the player's left), each with one play per turn in the
turn-by-turn notation of :mod:`sushigo.spec.party.turns`; seats beyond them play nothing.
``players`` (default: the seats given, at least 2) decides hand size, edamame, temaki and maki
places. ``draws`` (optional): what the player's menus draw, the first menu to act the first draw
(up to 4 cards); a menu beyond them draws nothing. ``left`` (optional): per turn, the cards
the players on the player's left hold once the normal plays are made, which a spoon may take.

A recorded round (``sushigo play --game party --record``) becomes a puzzle for one seat: the
hands that seat saw as recorded, the other seats' plays as recorded, that seat's recorded menu
draws, and, per turn, the cards the others held after their normal plays (:func:`from_record`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sushigo.spec.errors import InputError
from sushigo.spec.party.menus import Menu, hand_size, parse_menu
from sushigo.spec.party.readings import PartyRules, party_rules
from sushigo.spec.party.tableau import SPECIAL, card_named, kind_name

FORMAT: Final = "sushigo-party-puzzle/1"
RECORD_FORMAT: Final = "sushigo-party-record/1"
FIELDS: Final = ("format", "menu", "players", "readings", "hands", "opponents", "draws", "left")
#: Tiles whose cards carry a corner number that orders their actions (RB p6, p13).
NUMBERED: Final = ("chopsticks", "spoon", "menu", "takeout")


@dataclass(frozen=True)
class PartyPuzzle:
    """The hands one player sees each turn and the table around them (module docstring)."""

    menu: Menu
    players: int
    rules: PartyRules
    hands: tuple[tuple[str, ...], ...]
    opponents: tuple[tuple[str, ...], ...]  # per turn, the plays of seats 1 .. players-1
    draws: tuple[tuple[str, ...], ...] = ()
    left: tuple[tuple[str, ...], ...] = ()  # per turn
    actual: int | None = None  # a recorded round: the score of the recorded picks
    source: str = ""  # a recorded round: "round R, seat K"

    def left_at(self, turn: int) -> tuple[str, ...]:
        return self.left[turn] if turn < len(self.left) else ()

    def as_json(self) -> dict[str, Any]:
        """The puzzle in its own JSON form (a recorded round's too)."""
        out: dict[str, Any] = {"format": FORMAT, "menu": self.menu.label, "players": self.players}
        if self.rules.changed():
            out["readings"] = self.rules.changed()
        out["hands"] = [" ".join(h) for h in self.hands]
        seats = self.players - 1
        if any(p != "-" for turn in self.opponents for p in turn):
            out["opponents"] = [[turn[s] for turn in self.opponents] for s in range(seats)]
        if self.draws:
            out["draws"] = [list(d) for d in self.draws]
        if any(self.left):
            out["left"] = [list(x) for x in self.left]
        return out


def _cards(value: object, where: str, menu: Menu) -> tuple[str, ...]:
    """A hand's card names: a text ``"squid maki3*2"`` or a list of names."""
    if isinstance(value, str):
        words = value.split()
    elif isinstance(value, list) and all(isinstance(w, str) for w in value):
        words = list(value)
    else:
        raise InputError(f"{where}: give the cards as a text (\"squid maki3*2\") or a list of card names, "
                         f"got {value!r}")
    if words == ["-"]:
        words = []
    out: list[str] = []
    on_menu = set(menu.kinds)
    for word in words:
        name, star, times = word.lower().partition("*")
        if star and not (times.isdigit() and 0 < int(times) <= 20):
            raise InputError(f"{where}: {word!r}: write NAME*N with N from 1 to 20")
        card = card_named(name, where)
        kind = kind_name(card)
        if kind not in on_menu:
            raise InputError(f"{where}: {card} is not on the menu {menu.label} (its kinds: "
                             f"{', '.join(menu.kinds)})")
        if kind in NUMBERED and not card[-1:].isdigit():
            raise InputError(f"{where}: {card}: give its corner number ({card}-N): the numbers order "
                             "the actions (RB p13)")
        out += [card] * (int(times) if star else 1)
    return tuple(out)


def _copies(menu: Menu) -> dict[str, int]:
    return {c: n for c, n in (*menu.deck(), *menu.desserts())}


def _check_hand(hand: Sequence[str], where: str, copies: Mapping[str, int]) -> None:
    for card, n in Counter(hand).items():
        if n > copies[card]:
            raise InputError(f"{where}: {n} {card}, more than the {copies[card]} the menu's deck holds")


def parse_party_puzzle(data: Mapping[str, Any], rule: Sequence[str] = (), menu: str | None = None,
                       where: str = "puzzle") -> PartyPuzzle:
    """A puzzle from its JSON form (module docstring); ``rule`` (``NAME=VALUE``) and ``menu``
    (``--menu``) override the document's ``readings`` and ``menu``."""
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise InputError(f"{where}: unknown field(s) {', '.join(map(repr, unknown))}; a Party puzzle has "
                         f"{', '.join(repr(f) for f in FIELDS)}")
    if data.get("format", FORMAT) != FORMAT:
        raise InputError(f"{where}: format {data.get('format')!r}, expected {FORMAT!r}")
    text = menu if menu is not None else data.get("menu")
    if not isinstance(text, str):
        raise InputError(f"{where}: name the \"menu\" (a suggested menu or KIND,KIND,...), or give --menu")
    readings = data.get("readings") or {}
    if not isinstance(readings, dict):
        raise InputError(f"{where}: \"readings\" is an object NAME: VALUE, got {readings!r}")
    rules = party_rules(rule, readings)
    the_menu = parse_menu(text, uramaki=rules.uramaki_split)
    raw_hands = data.get("hands")
    if not isinstance(raw_hands, list) or not raw_hands:
        raise InputError(f"{where}: \"hands\" is a non-empty list of hands, one a turn")
    hands = tuple(_cards(h, f"{where}: hand {t + 1}", the_menu) for t, h in enumerate(raw_hands))
    raw_opp = data.get("opponents") or []
    if not isinstance(raw_opp, list) or not all(isinstance(o, list) for o in raw_opp):
        raise InputError(f"{where}: \"opponents\" is a list of seats, each a list of plays, one a turn")
    for s, plays in enumerate(raw_opp):
        if len(plays) != len(hands) or not all(isinstance(p, str) and p.strip() for p in plays):
            raise InputError(f"{where}: opponent {s + 1} has {len(plays)} plays for {len(hands)} turns: give "
                             "one play a turn ('-' for none)")
    players = data.get("players", max(2, 1 + len(raw_opp)))
    if isinstance(players, bool) or not isinstance(players, int) or players < 1 + len(raw_opp):
        raise InputError(f"{where}: \"players\" must be a whole number, at least the player and the "
                         f"{len(raw_opp)} opponents given, got {players!r}")
    the_menu.check_players(players)
    size = hand_size(players)
    if len(hands) > size:
        raise InputError(f"{where}: {len(hands)} hands, but {players} players are dealt {size} cards: at "
                         "most "
                         f"{size} turns")
    copies = _copies(the_menu)
    for t, hand in enumerate(hands):
        if not hand:
            raise InputError(f"{where}: hand {t + 1} is empty: every turn the player has a card to play")
        if len(hand) > size:
            raise InputError(f"{where}: hand {t + 1} holds {len(hand)} cards, more than the {size} dealt")
        _check_hand(hand, f"{where}: hand {t + 1}", copies)
    opponents = tuple(tuple(str(raw_opp[s][t]).strip().lower() if s < len(raw_opp) else "-"
                            for s in range(players - 1)) for t in range(len(hands)))
    draws = _lists(data.get("draws"), "draws", where, the_menu)
    for d, drawn in enumerate(draws):
        if len(drawn) > 4:
            raise InputError(f"{where}: draw {d + 1} holds {len(drawn)} cards: a menu draws 4 (RB p12)")
    left = _lists(data.get("left"), "left", where, the_menu)
    if len(left) > len(hands):
        raise InputError(f"{where}: \"left\" has {len(left)} turns, the puzzle {len(hands)}")
    return PartyPuzzle(the_menu, players, rules, hands, opponents, draws, left)


def _lists(value: object, name: str, where: str, menu: Menu) -> tuple[tuple[str, ...], ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InputError(f"{where}: \"{name}\" is a list of card lists")
    return tuple(_cards(v, f"{where}: {name} {i + 1}", menu) for i, v in enumerate(value))


# --- a recorded round ---------------------------------------------------------------------------


def _tool(bonus: str) -> tuple[str, str]:
    """A bonus action's tool text and the rest (``chopsticks-1:eel``, ``special-order:spoon-4:-``)."""
    parts = bonus.split(":")
    n = 2 if parts[0] == SPECIAL else 1
    return ":".join(parts[:n]), ":".join(parts[n:])


def pass_turn(hands: Sequence[Sequence[str]],
              plays: Sequence[str]) -> tuple[list[list[str]], list[list[str]]]:
    """The hands after one turn of ``plays`` and passing left, and the hands as they were once the
    normal plays were made (what a spoon could take): the normal cards leave the hands, the
    chopsticks used go back into their player's hand (RB p12), a spoon takes its card from the
    first player to the left holding it, who takes the spoon (RB p13)."""
    players = len(hands)
    held = [list(h) for h in hands]
    later: list[tuple[int, int, str]] = []
    for k, play in enumerate(plays):
        words = play.split()
        if words == ["-"]:
            continue
        head = words[0].partition(":")[0]
        if head in held[k]:
            held[k].remove(head)
        later += [(int(_tool(b)[0].rpartition("-")[2]), k, b) for b in words[1:]]
    after = [list(h) for h in held]
    for _, k, bonus in sorted(later):
        tool, rest = _tool(bonus)
        card = rest.partition(":")[0]
        back = SPECIAL if tool.startswith(SPECIAL) else tool
        if rest in ("", "-"):
            continue
        if kind_name(tool.rpartition(":")[2]) == "chopsticks":
            if card in held[k]:
                held[k].remove(card)
            held[k].append(back)
            continue
        giver = spoon_giver(held, k, card)
        if giver is not None:
            held[giver].remove(card)
            held[giver].append(back)
    return [held[(k - 1) % players] for k in range(players)], after


def spoon_giver(hands: Sequence[Sequence[str]], seat: int, card: str) -> int | None:
    """RB p13: the first player to the left of ``seat`` holding ``card`` (None: nobody)."""
    for step in range(1, len(hands)):
        giver = (seat + step) % len(hands)
        if card in hands[giver]:
            return giver
    return None


def from_record(data: Mapping[str, Any], round_no: int, seat: int, rule: Sequence[str] = ()) -> PartyPuzzle:
    """Seat ``seat``'s view of round ``round_no`` (from 1) of a Party record, as a puzzle."""
    rounds = data.get("rounds")
    players = data.get("players")
    if not isinstance(rounds, list) or not isinstance(players, int) or not isinstance(data.get("menu"), str):
        raise InputError("a Party record has \"menu\", \"players\" and \"rounds\" (sushigo play --game party "
                         "--record)")
    if not 1 <= round_no <= len(rounds):
        raise InputError(f"--round {round_no}: the record has rounds 1 to {len(rounds)}")
    if not 0 <= seat < players:
        raise InputError(f"--seat {seat}: the record seats players 0 to {players - 1}")
    rnd = rounds[round_no - 1]
    rules = party_rules(rule, data.get("readings") or {})
    parse_menu(data["menu"], uramaki=rules.uramaki_split)  # a bad menu is named before the hands
    hands = [list(h) for h in rnd["hands"]]
    turns = rnd["turns"]
    seen: list[tuple[str, ...]] = []
    left: list[tuple[str, ...]] = []
    for plays in turns:
        seen.append(tuple(hands[seat]))
        hands, after = pass_turn(hands, plays)
        left.append(tuple(sorted(c for step in range(1, players) for c in after[(seat + step) % players])))
    order = [(seat + j) % players for j in range(1, players)]
    opponents = [[plays[k] for plays in turns] for k in order]
    draws = [d["drawn"] for d in rnd.get("draws", []) if d.get("player") == seat]
    doc = {"format": FORMAT, "menu": data["menu"], "players": players, "readings": data.get("readings") or {},
           "hands": [list(h) for h in seen], "opponents": opponents, "draws": draws,
           "left": [list(x) for x in left]}
    puzzle = parse_party_puzzle(doc, rule, where=f"record round {round_no}, seat {seat}")
    scores = rnd.get("scores") or []
    actual = scores[seat] if seat < len(scores) else None
    return PartyPuzzle(puzzle.menu, puzzle.players, puzzle.rules, puzzle.hands, puzzle.opponents,
                       puzzle.draws, puzzle.left, actual, f"round {round_no}, seat {seat}")


def recorded_plays(data: Mapping[str, Any], round_no: int, seat: int) -> list[str]:
    """The plays seat ``seat`` made in round ``round_no`` of a record."""
    return [plays[seat] for plays in data["rounds"][round_no - 1]["turns"]]


def random_puzzle(seed: int, menu: Menu | str, players: int | None = None, sizes: Sequence[int] | None = None,
                  covered: Sequence[str] | None = None, opponents: bool = True,
                  rules: PartyRules | None = None) -> PartyPuzzle:
    """A seeded puzzle dealt from one shuffled deck of ``menu`` (its non-dessert cards and the
    round 1 desserts): hands of ``sizes`` cards (default: the hand size down to 1), each other
    seat playing a card of the deck or nothing each turn (``opponents``), two menu draws and
    two cards a turn on the left. ``covered``: the kinds the hands may hold (default: all)."""
    import random

    from sushigo.spec.party.menus import desserts_per_round

    rng = random.Random(seed)
    the_menu = parse_menu(menu) if isinstance(menu, str) else menu
    seats = the_menu.seats()
    n = players if players is not None else rng.choice(list(seats))
    the_menu.check_players(n)
    deck = [c for c, k in the_menu.deck() for _ in range(k)]
    pile = [c for c, k in the_menu.desserts() for _ in range(k)]
    rng.shuffle(pile)
    deck += pile[:desserts_per_round(n)[0]]
    rng.shuffle(deck)
    allowed = [c for c in deck if covered is None or kind_name(c) in covered]
    plain = [c for c in deck if kind_name(c) not in (*NUMBERED, SPECIAL)]
    lengths = list(sizes) if sizes is not None else list(range(hand_size(n), 0, -1))
    hands = []
    for size in lengths:
        hands.append(tuple(allowed[:size]))
        for c in allowed[:size]:
            deck.remove(c)
            if c in plain:
                plain.remove(c)
        allowed = allowed[size:]
    opp: list[tuple[str, ...]] = []
    for _ in lengths:
        turn = []
        for _s in range(n - 1):
            if opponents and plain and rng.random() < 0.8:
                card = plain.pop()
                deck.remove(card)
                turn.append(card)
            else:
                turn.append("-")
        opp.append(tuple(turn))
    draws = tuple(tuple(deck[4 * i:4 * i + 4]) for i in range(2)) if len(deck) >= 8 else ()
    left = tuple(tuple(rng.sample(deck, 2)) for _ in lengths) if len(deck) >= 2 else ()
    return PartyPuzzle(the_menu, n, rules or party_rules(), tuple(hands), tuple(opp), draws, left)
