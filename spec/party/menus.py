"""Sushi Go Party!'s table: the menu tiles, the cards behind each tile, the suggested menus,
and what the player count decides (hand size, desserts per round, which tiles may be used).

A game of Party is played with a menu: the nigiri, one roll, three appetizers, two specials
and one dessert, chosen from 22 tiles. Only the chosen kinds are in the deck; the dessert's
cards wait in a pile of their own and a few are shuffled in before each round. Everything
here is data, read by the CLI's ``--menu`` and by the game; the facts and their rulebook pages
are in ``docs/party.md``.

A contested fact is a choice with its sources, never a silent pick: how the twelve uramaki
divide among 3, 4 and 5 icons is :data:`URAMAKI_SPLITS` (the rulebook gives only the total).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from sushigo.spec.errors import InputError

Course = Literal["nigiri", "roll", "appetizer", "special", "dessert"]

#: How many of each course a menu holds besides the nigiri (rulebook p4).
COURSES: Final[Mapping[Course, int]] = {"roll": 1, "appetizer": 3, "special": 2, "dessert": 1}

#: Players a game of Party seats (rulebook p1), and the rounds it lasts (p5).
PLAYERS: Final = (2, 8)
ROUNDS: Final = 3


@dataclass(frozen=True)
class Tile:
    """One kind on the menu board: its course, the player counts it may be used with, and its
    cards (card name -> copies), in the order the notation lists them."""

    name: str
    course: Course
    cards: tuple[tuple[str, int], ...]
    players: tuple[int, int] = PLAYERS
    why: str = ""  # the rule that limits the player counts, for the error line

    @property
    def copies(self) -> int:
        return sum(n for _, n in self.cards)

    def allows(self, players: int) -> bool:
        return self.players[0] <= players <= self.players[1]


def _one(name: str, copies: int) -> tuple[tuple[str, int], ...]:
    return ((name, copies),)


def _numbered(name: str, first: int) -> tuple[tuple[str, int], ...]:
    """The three cards of a special that is used on a later turn, one per corner number
    (chopsticks 1-3, spoon 4-6, menu 7-9, takeout box 10-12): the numbers order the actions."""
    return tuple((f"{name}-{first + k}", 1) for k in range(3))


_NOT_TWO = "is not used with 2 players (rulebook p4: spoon and edamame need 3 or more)"
_NOT_SEVEN = "is not used with 7 or 8 players (rulebook p4: menu and special order need 6 or fewer)"

#: How the 12 uramaki divide among 3, 4 and 5 icons: the rulebook gives only the total (p2), and
#: the implementations that deal real cards disagree. Name -> (3-icon, 4-icon, 5-icon) copies and
#: who deals it.
URAMAKI_SPLITS: Final[Mapping[str, tuple[tuple[int, int, int], str]]] = {
    "even": ((4, 4, 4), "Yag000/subarasushi, brightsole/bg-sushi-go, KikeAjani/SushiGame"),
    "rysxtu": ((4, 5, 3), "rysxtu/Sushi-Go-Party"),
    "mly32": ((3, 5, 4), "mly32/sushi-go-party"),
}
DEFAULT_URAMAKI_SPLIT: Final = "even"


def _uramaki(split: str) -> tuple[tuple[str, int], ...]:
    three, four, five = URAMAKI_SPLITS[split][0]
    return (("uramaki3", three), ("uramaki4", four), ("uramaki5", five))


def _tiles(split: str) -> dict[str, Tile]:
    tiles = [
        Tile("nigiri", "nigiri", (("egg", 4), ("salmon", 5), ("squid", 3))),
        Tile("maki", "roll", (("maki1", 4), ("maki2", 5), ("maki3", 3))),
        Tile("temaki", "roll", _one("temaki", 12)),
        Tile("uramaki", "roll", _uramaki(split)),
        Tile("tempura", "appetizer", _one("tempura", 8)),
        Tile("sashimi", "appetizer", _one("sashimi", 8)),
        Tile("dumpling", "appetizer", _one("dumpling", 8)),
        Tile("eel", "appetizer", _one("eel", 8)),
        Tile("tofu", "appetizer", _one("tofu", 8)),
        Tile("onigiri", "appetizer",
             tuple((f"onigiri-{s}", 2) for s in ("circle", "triangle", "square", "rectangle"))),
        Tile("edamame", "appetizer", _one("edamame", 8), (3, 8), _NOT_TWO),
        Tile("miso", "appetizer", _one("miso", 8)),
        Tile("chopsticks", "special", _numbered("chopsticks", 1)),
        Tile("spoon", "special", _numbered("spoon", 4), (3, 8), _NOT_TWO),
        Tile("menu", "special", _numbered("menu", 7), (2, 6), _NOT_SEVEN),
        Tile("takeout", "special", _numbered("takeout", 10)),
        Tile("wasabi", "special", _one("wasabi", 3)),
        Tile("special-order", "special", _one("special-order", 3), (2, 6), _NOT_SEVEN),
        Tile("soy-sauce", "special", _one("soy-sauce", 3)),
        Tile("tea", "special", _one("tea", 3)),
        Tile("pudding", "dessert", _one("pudding", 15)),
        Tile("green-tea-ice-cream", "dessert", _one("green-tea-ice-cream", 15)),
        Tile("fruit", "dessert", (("fruit-watermelon", 2), ("fruit-orange", 2), ("fruit-pineapple", 2),
                                  ("fruit-watermelon-orange", 3), ("fruit-watermelon-pineapple", 3),
                                  ("fruit-orange-pineapple", 3))),
    ]
    return {t.name: t for t in tiles}


#: Every tile, by name, with the default uramaki split.
TILES: Final[Mapping[str, Tile]] = _tiles(DEFAULT_URAMAKI_SPLIT)

#: Names a player may type for a tile (never printed).
TILE_ALIASES: Final[Mapping[str, str]] = {
    "miso-soup": "miso", "takeout-box": "takeout", "soy": "soy-sauce", "special": "special-order",
    "ice-cream": "green-tea-ice-cream", "green-tea": "green-tea-ice-cream", "puddings": "pudding",
}

#: The eight suggested menus (rulebook p3-4): name -> roll, three appetizers, two specials,
#: dessert. Two say they "work well" with 6-8 and with 2 players: advice, not limits; the
#: player counts a menu allows follow from its tiles (:meth:`Menu.players`).
SUGGESTED: Final[Mapping[str, tuple[str, ...]]] = {
    "my-first-meal": ("maki", "tempura", "sashimi", "miso", "wasabi", "tea", "green-tea-ice-cream"),
    "sushi-go": ("maki", "tempura", "sashimi", "dumpling", "chopsticks", "wasabi", "pudding"),
    "party-sampler": ("temaki", "tempura", "dumpling", "tofu", "wasabi", "menu", "green-tea-ice-cream"),
    "master-menu": ("temaki", "onigiri", "tofu", "sashimi", "spoon", "takeout", "fruit"),
    "points-platter": ("uramaki", "onigiri", "dumpling", "edamame", "special-order", "tea",
                       "green-tea-ice-cream"),
    "cutthroat-combo": ("temaki", "eel", "tofu", "miso", "spoon", "soy-sauce", "pudding"),
    "big-banquet": ("maki", "tempura", "dumpling", "eel", "spoon", "chopsticks", "green-tea-ice-cream"),
    "dinner-for-two": ("uramaki", "onigiri", "tofu", "miso", "menu", "special-order", "fruit"),
}

#: The player counts a suggested menu is said to work well with (rulebook p4), shown as advice.
WORKS_WELL_WITH: Final[Mapping[str, tuple[int, int]]] = {"big-banquet": (6, 8), "dinner-for-two": (2, 2)}


def hand_size(players: int) -> int:
    """Cards dealt to each player at the start of a round (rulebook p5)."""
    _check_players(players)
    return {2: 10, 3: 10, 4: 9, 5: 9, 6: 8, 7: 8}.get(players, 7)


def desserts_per_round(players: int) -> tuple[int, int, int]:
    """Dessert cards shuffled into the deck before rounds 1, 2 and 3 (rulebook p5)."""
    _check_players(players)
    return (5, 3, 2) if players <= 5 else (7, 5, 3)


def _check_players(players: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or not PLAYERS[0] <= players <= PLAYERS[1]:
        raise InputError(f"Sushi Go Party! seats {PLAYERS[0]} to {PLAYERS[1]} players, not {players!r}")


@dataclass(frozen=True)
class Menu:
    """A menu: the name it was chosen by (a suggested menu's, or '' for one spelled out) and its
    tiles in the order of :data:`TILES` (nigiri, roll, appetizers, specials, dessert)."""

    name: str
    tiles: tuple[Tile, ...]

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.tiles)

    def course(self, course: Course) -> tuple[Tile, ...]:
        return tuple(t for t in self.tiles if t.course == course)

    @property
    def dessert(self) -> Tile:
        return self.course("dessert")[0]

    def players(self) -> tuple[int, int]:
        """The player counts every tile of this menu allows."""
        return (max(t.players[0] for t in self.tiles), min(t.players[1] for t in self.tiles))

    def seats(self) -> range:
        """Every player count this menu seats, lowest first (empty if the tiles allow none)."""
        low, high = self.players()
        return range(low, high + 1)

    def check_players(self, players: int) -> None:
        """One line naming the tile and its rule when this menu cannot seat ``players``."""
        _check_players(players)
        for tile in self.tiles:
            if not tile.allows(players):
                low, high = self.players()
                seats = f"{low}-{high}" if low < high else f"{low}"
                raise InputError(f"menu {self.label}: {tile.name} {tile.why}; this menu seats {seats} "
                                 "players, or choose another tile")

    @property
    def label(self) -> str:
        return self.name or ",".join(self.kinds[1:])

    def deck(self) -> tuple[tuple[str, int], ...]:
        """The cards shuffled for round 1 before the desserts: every non-dessert card of the menu
        (54 of them: 12 nigiri, 12 of the roll, 8 of each appetizer, 3 of each special)."""
        return tuple(card for t in self.tiles if t.course != "dessert" for card in t.cards)

    def desserts(self) -> tuple[tuple[str, int], ...]:
        return self.dessert.cards


def suggested_tables() -> list[tuple[str, int]]:
    """Every suggested menu at every player count it seats: (name, players), in menu order."""
    return [(name, n) for name in SUGGESTED for n in parse_menu(name).seats()]


def menu_names() -> tuple[str, ...]:
    return tuple(SUGGESTED)


def tile_named(word: str, tiles: Mapping[str, Tile] = TILES) -> Tile:
    key = word.strip().lower().replace("_", "-").replace(" ", "-")
    key = TILE_ALIASES.get(key, key)
    if key in tiles:
        return tiles[key]
    if key in SUGGESTED:
        raise InputError(f"--menu: {key} is a suggested menu: give its name alone (--menu {key}), or list "
                         "kinds only")
    hint = _near(key, [*tiles, *TILE_ALIASES], TILE_ALIASES)
    raise InputError(f"--menu: no menu tile is called {word.strip()!r}{hint} (tiles: {', '.join(tiles)})")


def _near(word: str, choices: Sequence[str], aliases: Mapping[str, str] | None = None) -> str:
    """'; did you mean X?' naming the choice nearest ``word`` (an alias as the name it stands for)."""
    import difflib  # only an error line needs it

    near = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.5)
    if not near:
        return ""
    return f"; did you mean {(aliases or {}).get(near[0], near[0])!r}?"


def parse_menu(text: str, players: int | None = None, uramaki: str = DEFAULT_URAMAKI_SPLIT) -> Menu:
    """A menu from ``--menu``: a suggested menu's name, or its kinds separated by commas (one
    roll, three appetizers, two specials and one dessert, in any order; the nigiri may be named
    too). With ``players``, the menu must allow that many. Bad menus raise :class:`InputError`
    with one line naming the rule broken and the fix."""
    if uramaki not in URAMAKI_SPLITS:
        raise InputError(f"uramaki split {uramaki!r} is not one of {', '.join(URAMAKI_SPLITS)}")
    tiles = TILES if uramaki == DEFAULT_URAMAKI_SPLIT else _tiles(uramaki)
    word = text.strip().lower()
    if "," not in word:
        if word in SUGGESTED:
            menu = _menu(word, [tiles[k] for k in SUGGESTED[word]])
        else:
            hint = _near(word, list(SUGGESTED))
            raise InputError(f"--menu: {text.strip()!r} is not a suggested menu{hint}; name one "
                             f"({', '.join(SUGGESTED)}) or list the kinds, e.g. "
                             f"--menu {','.join(SUGGESTED['sushi-go'])}")
    else:
        parts = word.split(",")
        if any(not p.strip() for p in parts):
            raise InputError(f"--menu {text.strip()!r}: an empty name between commas; list the kinds "
                             "separated by single commas")
        menu = _menu("", [tile_named(p, tiles) for p in parts])
    if players is not None:
        menu.check_players(players)
    return menu


def _menu(name: str, chosen: Sequence[Tile]) -> Menu:
    label = name or ",".join(t.name for t in chosen)
    seen: set[str] = set()
    for tile in chosen:
        if tile.name in seen:
            raise InputError(f"menu {label}: {tile.name} is named twice; each kind is on the menu once")
        seen.add(tile.name)
    picked = [t for t in chosen if t.course != "nigiri"]
    for course, want in COURSES.items():
        have = [t.name for t in picked if t.course == course]
        if len(have) != want:
            names = ", ".join(have) if have else "none"
            choices = ", ".join(t.name for t in TILES.values() if t.course == course and t.name not in have)
            fix = f"add from: {choices}" if len(have) < want else f"keep {want}"
            raise InputError(f"menu {label}: a menu holds {want} {course}{'s' if want > 1 else ''}, "
                             f"this one {len(have)} ({names}); {fix}")
    # The tiles' own order, whatever order they were named in: one menu, one spelling.
    rank = {tile: k for k, tile in enumerate(TILES)}
    nigiri = TILES["nigiri"]
    return Menu(name, (nigiri, *sorted(picked, key=lambda t: rank[t.name])))


__all__ = [
    "COURSES",
    "DEFAULT_URAMAKI_SPLIT",
    "PLAYERS",
    "ROUNDS",
    "SUGGESTED",
    "TILES",
    "TILE_ALIASES",
    "URAMAKI_SPLITS",
    "WORKS_WELL_WITH",
    "Menu",
    "Tile",
    "desserts_per_round",
    "document",
    "hand_size",
    "menu_names",
    "parse_menu",
    "suggested_tables",
    "tile_named",
]


def document(menu: Menu | None = None, players: int | None = None) -> dict[str, object]:
    """Party's table as plain data (``sushigo rules --game party --json``): the player counts,
    rounds, hand sizes, desserts per round, every tile with its cards, the suggested menus with
    the player counts each allows, the uramaki splits; with ``menu``, its deck (and, with
    ``players``, that game's hand size and desserts)."""
    seats = range(PLAYERS[0], PLAYERS[1] + 1)
    doc: dict[str, object] = {
        "game": "party",
        "players": list(PLAYERS),
        "rounds": ROUNDS,
        "hand_sizes": {str(n): hand_size(n) for n in seats},
        "desserts_per_round": {str(n): list(desserts_per_round(n)) for n in seats},
        "courses": dict(COURSES),
        "tiles": [{"name": t.name, "course": t.course, "players": list(t.players),
                   "cards": [{"card": c, "copies": n} for c, n in t.cards]} for t in TILES.values()],
        "menus": [{"name": name, "kinds": list(parse_menu(name).kinds[1:]),
                   "players": list(parse_menu(name).players()),
                   "works_well_with": list(WORKS_WELL_WITH[name]) if name in WORKS_WELL_WITH else None}
                  for name in SUGGESTED],
        "uramaki_splits": [{"name": name, "default": name == DEFAULT_URAMAKI_SPLIT,
                            "copies": {"uramaki3": c[0], "uramaki4": c[1], "uramaki5": c[2]},
                            "dealt_by": who} for name, (c, who) in URAMAKI_SPLITS.items()],
    }
    if menu is not None:
        chosen: dict[str, object] = {"name": menu.name or None, "kinds": list(menu.kinds[1:]),
                                     "players": list(menu.players()),
                                     "deck": [{"card": c, "copies": n} for c, n in menu.deck()],
                                     "desserts": [{"card": c, "copies": n} for c, n in menu.desserts()]}
        if players is not None:
            chosen["hand_size"] = hand_size(players)
            chosen["desserts_per_round"] = list(desserts_per_round(players))
        doc["menu"] = chosen
    return doc
