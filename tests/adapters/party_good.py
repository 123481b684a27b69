"""A correct Sushi Go Party! scorer for ``sushigo conform --game party``, written apart from the
toolkit (it imports nothing of it) from the rulebook's pages, under the default readings.

The planted-fault adapters beside it (party_*.py) import it and change one rule each.
"""

from __future__ import annotations

from typing import Any

NIGIRI = {"egg": 1, "salmon": 2, "squid": 3}  # RB p8
ICONS = {"maki1": 1, "maki2": 2, "maki3": 3, "uramaki3": 3, "uramaki4": 4, "uramaki5": 5}
MAKI_SMALL, MAKI_LARGE = (6, 3), (6, 4, 2)  # RB p8: 2-5 players, 6-8 players
URAMAKI = (8, 5, 2)  # RB p9
DUMPLING = (0, 1, 3, 6, 10, 15)  # RB p10
ONIGIRI = (0, 1, 4, 9, 16)  # RB p10
FRUIT = (-2, 0, 1, 3, 6, 10)  # RB p16
FRUIT_ICONS = {"fruit-watermelon": (2, 0, 0), "fruit-orange": (0, 2, 0), "fruit-pineapple": (0, 0, 2),
               "fruit-watermelon-orange": (1, 1, 0), "fruit-watermelon-pineapple": (1, 0, 1),
               "fruit-orange-pineapple": (0, 1, 1)}
DESSERTS = ("pudding", "green-tea-ice-cream", "fruit")


def kind(card: str) -> str:
    """The tile a card belongs to."""
    if card in NIGIRI:
        return "nigiri"
    for prefix in ("maki", "uramaki", "onigiri", "fruit"):
        if card.startswith(prefix):
            return prefix
    for numbered in ("chopsticks", "spoon", "menu", "takeout"):
        if card.startswith(numbered):
            return numbered
    return card


def colour(card: str) -> str:
    """Each kind its own background colour; nigiri and wasabi share yellow (RB p15)."""
    k = kind(card)
    return "nigiri" if k == "wasabi" else k


class Card:
    """A card on the table: what it scores as ('' face down), whether it sits on a wasabi."""

    def __init__(self, name: str, turn: int = 0, shown: str = "") -> None:
        self.name, self.turn, self.shown = name, turn, shown or name
        self.flipped = False
        self.on: Card | None = None  # the wasabi under this nigiri
        self.holds: Card | None = None  # the nigiri on this wasabi


def parse_item(text: str) -> list[Card]:
    """A final tableau's item: 'squid', 'wasabi+squid', 'special-order:eel', 'flipped'."""
    cards = []
    for piece in text.split("+"):
        if piece.startswith("flipped"):
            c = Card("")
            c.flipped = True
        elif piece.startswith("special-order:"):
            copy = piece.split(":", 1)[1]
            c = Card(copy, shown=piece)
        else:
            c = Card(piece)
        cards.append(c)
    if len(cards) == 2:
        cards[1].on, cards[0].holds = cards[0], cards[1]
    return cards


# --------------------------------------------------------------------------- a round's points


def majority(totals: list[int], places: tuple[int, ...]) -> list[int]:
    """Places by distinct totals above zero; every tied player paid in full (RB p8)."""
    ranked = sorted({t for t in totals if t > 0}, reverse=True)
    return [places[ranked.index(t)] if t > 0 and ranked.index(t) < len(places) else 0 for t in totals]


def maki(tables: list[list[Card]]) -> list[int]:
    totals = [sum(ICONS[c.name] for c in t if kind(c.name) == "maki") for t in tables]
    return majority(totals, MAKI_SMALL if len(tables) <= 5 else MAKI_LARGE)


def temaki(counts: list[int]) -> list[int]:
    """Most +4, fewest -4 (none counts), nobody loses with 2 players (RB p8). All tied: both."""
    most, fewest = max(counts), min(counts)
    return [(4 if n == most else 0) - (4 if n == fewest and len(counts) > 2 else 0) for n in counts]


def tempura(n: int) -> int:
    return 5 * (n // 2)


def sashimi(n: int) -> int:
    return 10 * (n // 3)


def edamame(counts: list[int]) -> list[int]:
    """1 a card per opponent holding edamame, at most 4 a card (RB p10)."""
    holders = sum(1 for n in counts if n)
    return [n * min(holders - 1, 4) if n else 0 for n in counts]


def eel(n: int) -> int:
    return 0 if n == 0 else -3 if n == 1 else 7


def tofu(n: int) -> int:
    return (0, 2, 6)[n] if n < 3 else 0


def onigiri(shapes: list[str]) -> int:
    counts = {s: shapes.count(s) for s in set(shapes)}
    out = 0
    while any(counts.values()):
        out += ONIGIRI[sum(1 for v in counts.values() if v)]
        counts = {s: max(0, v - 1) for s, v in counts.items()}
    return out


def score_tables(tables: list[list[Card]], kinds: list[str], leftover_place: int = 0,
                 paid: list[int] | None = None) -> list[int]:
    """The points of the final tables (and what the uramaki race paid during the round)."""
    n = len(tables)
    shown = [[c for c in t if not c.flipped] for t in tables]

    def count(k: str) -> list[int]:
        return [sum(1 for c in t if kind(c.name) == k) for t in shown]

    out = list(paid or [0] * n)

    def add(points: list[int]) -> None:
        for i, p in enumerate(points):
            out[i] += p

    for i, t in enumerate(shown):
        out[i] += sum(NIGIRI[c.name] * (3 if c.on is not None else 1) for c in t if c.name in NIGIRI)
        out[i] += 2 * sum(1 for c in tables[i] if c.flipped)
    if "maki" in kinds:
        add(maki(shown))
    if "temaki" in kinds:
        add(temaki(count("temaki")))
    if "uramaki" in kinds:
        left = [sum(ICONS[c.name] for c in t if kind(c.name) == "uramaki") for t in shown]
        top = max(left)
        place = URAMAKI[leftover_place] if leftover_place < len(URAMAKI) else 0
        add([place if top > 0 and v == top else 0 for v in left])
    add([tempura(v) for v in count("tempura")])
    add([sashimi(v) for v in count("sashimi")])
    add([DUMPLING[min(v, 5)] for v in count("dumpling")])
    add([eel(v) for v in count("eel")])
    add([tofu(v) for v in count("tofu")])
    add([onigiri([c.name for c in t if kind(c.name) == "onigiri"]) for t in shown])
    if "edamame" in kinds:
        add(edamame(count("edamame")))
    add([3 * v for v in count("miso")])
    colours = [{colour(c.name) for c in t} for t in shown]
    if "soy-sauce" in kinds:
        most = max(len(c) for c in colours)
        add([4 * v if len(colours[i]) == most else 0 for i, v in enumerate(count("soy-sauce"))])
    groups = [max([sum(1 for c in t if colour(c.name) == col) for col in colours[i]], default=0)
              for i, t in enumerate(shown)]
    add([v * groups[i] for i, v in enumerate(count("tea"))])
    return out


# --------------------------------------------------------------------------- turn by turn


class Round:
    def __init__(self, players: int) -> None:
        self.tables: list[list[Card]] = [[] for _ in range(players)]
        self.paid = [0] * players
        self.places = 0
        self.turn = 0

    def find(self, k: int, name: str) -> Card | None:
        """The first card of an earlier turn shown as ``name``."""
        return next((c for c in self.tables[k] if c.turn < self.turn
                     and (c.shown == name or (not c.flipped and c.name == name))), None)

    def place(self, k: int, card: Card) -> None:
        self.tables[k].append(card)
        if card.name in NIGIRI and not card.flipped:
            free = next((w for w in self.tables[k] if kind(w.name) == "wasabi" and not w.flipped
                         and w.holds is None), None)
            if free is not None:  # RB p15: the next nigiri goes on an empty wasabi
                free.holds, card.on = card, free

    def play(self, k: int, text: str, misos: list[tuple[int, Card]]) -> None:
        head, _, rest = text.partition(":")
        if head == "special-order":  # RB p14: an exact copy of an earlier card
            if not rest:
                return
            target = self.find(k, rest)
            assert target is not None
            card = Card(target.name, self.turn, f"special-order:{target.name}")
            card.flipped = target.flipped
        else:
            card = Card(head, self.turn)
        self.place(k, card)
        if card.name == "miso" and not card.flipped:
            misos.append((k, card))

    def flip(self, k: int, names: list[str]) -> None:
        """RB p15: earlier cards turned face down (a stack comes apart)."""
        for name in names:
            c = self.find(k, name)
            assert c is not None and not c.flipped
            for other in (c.on, c.holds):
                if other is not None:
                    other.on = other.holds = None
            c.on = c.holds = None
            c.flipped, c.shown = True, "flipped"

    def race(self) -> None:
        """RB p9: 10 icons or more pay 8 / 5 / 2 and are discarded; the higher total first."""
        totals = [sum(ICONS[c.name] for c in t if kind(c.name) == "uramaki" and not c.flipped)
                  for t in self.tables]
        for total in sorted({t for t in totals if t >= 10}, reverse=True):
            if self.places >= len(URAMAKI):
                return
            group = [k for k, t in enumerate(totals) if t == total]
            points = URAMAKI[self.places]
            self.places += len(group)
            for k in group:
                self.paid[k] += points
                self.tables[k] = [c for c in self.tables[k] if c.flipped or kind(c.name) != "uramaki"]

    def play_turn(self, plays: list[str]) -> None:
        self.turn += 1
        misos: list[tuple[int, Card]] = []
        later = []
        for k, text in enumerate(plays):
            if text == "-":
                continue
            if text.startswith("takeout"):
                head, _, rest = text.partition(":")
                later.append((int(head.split("-")[1]), k, [x for x in rest.split(",") if x and x != "-"]))
            else:
                self.play(k, text, misos)
        for _, k, names in sorted(later):
            self.flip(k, names)
        self.race()
        if len(misos) >= 2:  # RB p11: all discarded
            for k, card in misos:
                if card in self.tables[k]:
                    self.tables[k].remove(card)


# --------------------------------------------------------------------------- the protocol


def score_party_round(case: dict[str, Any]) -> list[int]:
    kinds = case["kinds"]
    if "tableaux" in case:
        tables = [[c for item in seat for c in parse_item(item)] for seat in case["tableaux"]]
        return score_tables(tables, kinds)
    game = Round(case["players"])
    for plays in case["turns"]:
        game.play_turn(plays)
    return score_tables(game.tables, kinds, game.places, game.paid)


def pudding(counts: list[int]) -> list[int]:
    most, fewest = max(counts), min(counts)
    return [(6 if n == most else 0) - (6 if n == fewest and len(counts) > 2 else 0) for n in counts]


def ice_cream(n: int) -> int:
    return 12 * (n // 4)


def fruit(cards: list[str]) -> int:
    icons = [sum(FRUIT_ICONS[c][f] for c in cards) for f in range(3)]
    return sum(FRUIT[min(v, 5)] for v in icons)


def score_party_desserts(case: dict[str, Any]) -> list[int]:
    held = case["desserts"]
    if case["dessert"] == "pudding":
        return pudding([len(h) for h in held])
    if case["dessert"] == "green-tea-ice-cream":
        return [ice_cream(len(h)) for h in held]
    return [fruit(h) for h in held]
