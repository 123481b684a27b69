"""``diff --game party``: the smallest Party round two readings-sets score differently (issue 28 item 5).

A *case* is one round given turn by turn (:mod:`spec.party.turns`, the notation ``sushigo score
--game party`` reads), on a menu, scored by :func:`spec.party.turns.play_round` under each side's
readings and then as a whole game whose rounds 2 and 3 are empty (so the desserts and the winner
are scored too, as the base game's diff takes a table for all the cards of a game). Two sides
*differ* on a case when one side refuses it (a document one reading allows and the other forbids,
e.g. a fourth ``uramaki5`` under ``uramaki_split=rysxtu``) or when any seat's round points in any
category, dessert points, game total, or the set of winners differ.

*Smallest* is the order (cards, players, turns): the fewest cards played in all (a special order,
a takeout box, a used menu and the card it played, chopsticks and the card they played each
count; a spoon that found nothing adds none), then the fewest players, then the fewest turns.
The search enumerates every case in that order, made of the plays a reading can act through
(:data:`PLAYS`, one list per reading; a seat may play ``-``, a turn where nobody plays is left
out), so the first difference is minimal by construction *within that scope*: those plays, the
player counts of :data:`PLAYERS` and at most :data:`MAX_TURNS` turns. Seats are interchangeable
for every rule but ``final_tie=first-seat`` (the hands are not part of the notation), so each
multiset of seat columns is tried once, seats in a fixed order.

The menu of a case is its cards' kinds, plus the kinds a reading reads with no card on the table
(temaki and the desserts pudding and fruit score with none), filled with the first tiles that seat
the players: a kind with no card scores nothing but those, so the filler never changes a score.
``menu`` fixes the menu instead (plays not on it are left out).

Pure Python over the plain scorer; no z3.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from sushigo.spec.answer import Answer, DiffStatus
from sushigo.spec.errors import InputError, SushiGoError
from sushigo.spec.party.kinds import FLIPPED_RULE, KIND
from sushigo.spec.party.menus import TILES, Menu, hand_size, parse_menu
from sushigo.spec.party.readings import DEFAULT, READING, READINGS, PartyRules
from sushigo.spec.party.scoring import WINNER_RULE, RoundScore, score_game, score_round
from sushigo.spec.party.tableau import FLIPPED, SPECIAL, card_named, format_party_tableau, kind_name
from sushigo.spec.party.turns import play_round

_U = ("uramaki3", "uramaki4", "uramaki5")

#: Per reading, the plays a case is made of: the cards the reading reads and what brings them
#: into play (the scope of the search; docs/party.md "Comparing readings: diff").
PLAYS: Final[Mapping[str, tuple[str, ...]]] = {
    "uramaki_split": _U,
    "temaki_all_tied": ("temaki",),
    "pudding_all_tied": ("pudding",),
    "flipped_colour": ("tempura", "soy-sauce", "tea", "takeout-10:tempura", "takeout-10:tempura,tempura"),
    "special_order_colour": ("tempura", "tea", "soy-sauce", "special-order:tempura", "special-order:tea"),
    "special_order_copies": ("tempura", "chopsticks-1", "special-order", "special-order:tempura",
                             "tempura chopsticks-1:special-order:tempura",
                             "tempura chopsticks-1:special-order"),
    "special_order_wasabi": ("egg", "wasabi", "special-order:egg"),
    "bonus_actions": ("tempura", "chopsticks-1", "chopsticks-2", "spoon-4", "spoon-5",
                      "tempura chopsticks-1:tempura chopsticks-2:tempura", "tempura spoon-4:- spoon-5:-"),
    "takeout_dessert": ("pudding", "takeout-10:pudding"),
    "takeout_stack": ("egg", "wasabi", "takeout-10:egg", "takeout-10:wasabi"),
    "menu_short_deck": ("tempura", "menu-7:tempura", "menu-7:-"),
    "edamame_cap": ("edamame",),
    "tea_desserts": ("tea", "pudding"),
    "discarded_colours": ("tea", "soy-sauce", "miso", "takeout-10", "menu-7:-"),
    "uramaki_after_places": ("uramaki5", "special-order:uramaki5", "uramaki3", "tea"),
    "uramaki_tie_many": ("uramaki5", "special-order:uramaki5", "uramaki3"),
    "uramaki_bonus_turn": ("uramaki5", "chopsticks-1", "uramaki5 chopsticks-1:uramaki5"),
    "fruit_none": ("fruit-watermelon",),
    "final_tie": ("tempura",),
}

#: Player counts searched per reading (default 2..4): the fewest that can show the difference
#: and one more, so a case is not missed for lack of a seat.
PLAYERS: Final[Mapping[str, tuple[int, ...]]] = {
    "uramaki_tie_many": (2, 3),
    "uramaki_after_places": (2, 3),
}
DEFAULT_PLAYERS: Final = (2, 3, 4)
#: Turns at most (a round has 7 to 10); the search's scope in turns.
MAX_TURNS: Final = 4
#: Cards at most, by default: past it the answer is "unknown" with this bound.
DEFAULT_MAX_CARDS: Final = 7
#: Rounds tried at most (a count, so a search stops at the same round on any machine).
DEFAULT_MAX_ROUNDS: Final = 200_000

#: Readings a final tableau or a turn can never act on, with the reason (no search can find them).
INERT: Final[Mapping[str, str]] = {
    "menu_short_deck": "a round turn by turn names the card each menu played, and the undealt deck is "
                       "not part of the notation, so how many cards were left is never known: no score "
                       "can depend on it (it acts in 'sushigo play --game party' only)",
}

#: Kinds that score with no card on the table (their menu tile alone decides it).
_EMPTY_SCORERS: Final[Mapping[str, tuple[str, ...]]] = {
    "temaki_all_tied": ("temaki",), "pudding_all_tied": ("pudding",), "fruit_none": ("fruit",),
}
_COURSES: Final = (("roll", 1), ("appetizer", 3), ("special", 2), ("dessert", 1))
#: Filler tiles, first choice first: the roll and dessert that score nothing with no card (maki,
#: green tea ice cream), then the tiles' order.
_FILL: Final = ("maki", "green-tea-ice-cream", *TILES)


# --- a case ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PartyCase:
    """One round turn by turn on a menu (``turns[t][seat]`` the play texts)."""

    menu: str
    turns: tuple[tuple[str, ...], ...]

    @property
    def players(self) -> int:
        return len(self.turns[0])

    @property
    def cards(self) -> int:
        return sum(play_cards(p) for turn in self.turns for p in turn)

    @property
    def size(self) -> tuple[int, int, int]:
        return (self.cards, self.players, len(self.turns))

    def document(self, rules: PartyRules) -> dict[str, Any]:
        """The case as a Party score document (``sushigo score --game party FILE``) under ``rules``."""
        doc: dict[str, Any] = {"format": "sushigo-party-score/1", "menu": self.menu}
        if rules.changed():
            doc["readings"] = rules.changed()
        # rounds 2 and 3 empty: the game is scored to its end (desserts, winners), as the search does
        doc["rounds"] = [{"turns": [list(t) for t in self.turns]}, ["-"] * self.players, ["-"] * self.players]
        return doc


def play_cards(play: str) -> int:
    """Cards a play puts on the table or uses (see the module docstring)."""
    words = play.split()
    if words == ["-"]:
        return 0
    head, sep, rest = words[0].partition(":")
    n = 1 + (1 if kind_name(card_named(head, "play")) == "menu" and sep and rest != "-" else 0)
    for b in words[1:]:
        parts = b.split(":")
        tail = parts[2:] if parts[0] == SPECIAL else parts[1:]
        n += 0 if tail in ([], ["-"]) else 1
    return n


def play_kinds(play: str) -> set[str]:
    """The kinds a play names (its cards, the cards it copies, flips or plays)."""
    out: set[str] = set()
    for word in play.replace(":", " ").replace(",", " ").split():
        if word != "-":
            out.add(kind_name(card_named(word, "play")))
    return out


def case_menu(kinds: Iterable[str], players: int, extra: Iterable[str] = ()) -> str | None:
    """The menu of a case (see the module docstring), spelled KIND,KIND,...; None when the kinds
    do not fit one menu or it cannot seat ``players``."""
    want = {k for k in (*kinds, *extra) if k != "nigiri"}
    chosen: list[str] = []
    for course, size in _COURSES:
        mine = [t for t in TILES if TILES[t].course == course and t in want]
        if len(mine) > size or any(not TILES[t].allows(players) for t in mine):
            return None
        fill = [t for t in dict.fromkeys(_FILL)
                if TILES[t].course == course and t not in want and TILES[t].allows(players)]
        chosen += mine + fill[:size - len(mine)]
    return ",".join(chosen)


# --- both sides of a case --------------------------------------------------------------------


@dataclass(frozen=True)
class PartySide:
    """A case under one side's readings: refused (``error``), or its scores."""

    legal: bool
    error: str = ""
    points: tuple[Mapping[str, int], ...] = ()
    rule_ids: Mapping[str, str] = field(default_factory=dict)
    dessert: str = ""
    dessert_points: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    tableaux: tuple[str, ...] = ()
    events: tuple[str, ...] = ()

    def key(self) -> tuple[Any, ...]:
        if not self.legal:
            return (False,)
        return (True, tuple(tuple(sorted(p.items())) for p in self.points), self.dessert_points,
                self.totals, self.winners)

    def as_json(self) -> dict[str, Any]:
        if not self.legal:
            return {"legal": False, "error": self.error}
        return {"legal": True, "points": [dict(p) for p in self.points],
                "dessert_points": list(self.dessert_points),
                "totals": list(self.totals), "winners": list(self.winners), "tableaux": list(self.tableaux),
                "events": list(self.events)}


def side(case: PartyCase, rules: PartyRules) -> PartySide:
    """Play and score ``case`` under ``rules`` (the menu built with the side's uramaki split)."""
    try:
        menu = _menu(case.menu, case.players, rules.uramaki_split)
        rnd = play_round([list(t) for t in case.turns], menu, rules)
        empty = _empty(menu, case.players, rules)
        game = score_game([rnd.score, empty, empty], menu, rules)
    except SushiGoError as exc:
        return PartySide(False, str(exc))
    assert game.dessert_points is not None
    return PartySide(True, "", rnd.score.points, rnd.score.rules, menu.dessert.name, game.dessert_points,
                     game.totals, game.winners, tuple(format_party_tableau(t) for t in rnd.tableaux),
                     rnd.events)


@functools.cache
def _menu(text: str, players: int, split: str) -> Menu:
    return parse_menu(text, players, uramaki=split)


@functools.cache
def _empty(menu: Menu, players: int, rules: PartyRules) -> RoundScore:
    return score_round(((),) * players, menu, rules)


def differs(case: PartyCase, a: PartyRules, b: PartyRules) -> tuple[PartySide, PartySide] | None:
    """Both sides of ``case`` when they differ, else None."""
    sa, sb = side(case, a), side(case, b)
    return (sa, sb) if sa.key() != sb.key() else None


# --- the search ------------------------------------------------------------------------------


def _columns(plays: Sequence[str], turns: int, cards: int) -> list[list[tuple[str, ...]]]:
    """A seat's plays over ``turns`` turns, by the cards they hold (index: 0..cards)."""
    out: list[list[tuple[str, ...]]] = [[] for _ in range(cards + 1)]
    weight = {p: play_cards(p) for p in ("-", *plays)}
    for col in itertools.product(("-", *plays), repeat=turns):
        n = sum(weight[p] for p in col)
        if n <= cards:
            out[n].append(col)
    return out


def cases(plays: Sequence[str], players: int, turns: int,
          cards: int) -> Iterator[tuple[tuple[str, ...], ...]]:
    """Every round of exactly ``cards`` cards, ``players`` seats and ``turns`` turns made of
    ``plays`` (each multiset of seat columns once; no turn where nobody plays), as turn lists."""
    if cards == 0:
        if turns == 1:
            yield (("-",) * players,)
        return
    cols = _columns(plays, turns, cards)
    flat = [(n, k, c) for n in range(cards, -1, -1) for k, c in enumerate(cols[n])]  # busiest seat first

    def seats(start: int, left: int, room: int) -> Iterator[list[tuple[str, ...]]]:
        if room == 0:
            if left == 0:
                yield []
            return
        for i in range(start, len(flat)):
            n, _, col = flat[i]
            if n > left:
                continue
            for rest in seats(i, left - n, room - 1):
                yield [col, *rest]

    for chosen in seats(0, cards, players):
        doc = tuple(zip(*chosen, strict=True))
        if all(any(p != "-" for p in turn) for turn in doc):
            yield doc


@dataclass(frozen=True)
class PartyWitness:
    case: PartyCase
    a: PartySide
    b: PartySide
    causes: tuple[str, ...]

    @property
    def rows(self) -> list[tuple[str, str, str, bool]]:
        """(label, A, B, differs) lines: legality, then each seat's categories, desserts, totals, winners."""
        a, b = self.a, self.b
        if not (a.legal and b.legal):
            return [("legal", "yes" if a.legal else f"no: {a.error}", "yes" if b.legal else f"no: {b.error}",
                     True)]
        out: list[tuple[str, str, str, bool]] = []
        for s, (pa, pb) in enumerate(zip(a.points, b.points, strict=True)):
            for cat in pa:
                if pa[cat] != pb[cat]:
                    out.append((f"player {s} {cat}", str(pa[cat]), str(pb[cat]), True))
        for s, (x, y) in enumerate(zip(a.dessert_points, b.dessert_points, strict=True)):
            if x != y:
                out.append((f"player {s} {a.dessert} (game end)", str(x), str(y), True))
        for s, (x, y) in enumerate(zip(a.totals, b.totals, strict=True)):
            out.append((f"player {s} game total", str(x), str(y), x != y))
        wa, wb = _who(a.winners), _who(b.winners)
        out.append(("winners", wa, wb, wa != wb))
        return out

    @property
    def categories(self) -> tuple[str, ...]:
        a, b = self.a, self.b
        if not (a.legal and b.legal):
            return ()
        pairs = list(zip(a.points, b.points, strict=True))
        cats = [c for c in a.points[0] if any(pa[c] != pb[c] for pa, pb in pairs)]
        if a.dessert_points != b.dessert_points:
            cats.append(a.dessert)
        if a.winners != b.winners:
            cats.append("winner")
        return tuple(cats)

    @property
    def rule_ids(self) -> tuple[str, ...]:
        ids = {FLIPPED: FLIPPED_RULE, "winner": WINNER_RULE}
        return tuple(ids.get(c) or KIND[c].rule for c in self.categories)

    def as_json(self, rules_a: PartyRules, rules_b: PartyRules) -> dict[str, Any]:
        c = self.case
        return {"kind": "turns", "menu": c.menu, "players": c.players, "turns": len(c.turns),
                "cards": c.cards, "causes": list(self.causes), "categories": list(self.categories),
                "rule_ids": list(self.rule_ids),
                "situation": {"turns": [list(t) for t in c.turns]},
                "documents": {"a": c.document(rules_a), "b": c.document(rules_b)},
                "a": self.a.as_json(), "b": self.b.as_json(),
                "rows": [{"label": r[0], "a": r[1], "b": r[2], "differs": r[3]} for r in self.rows]}


def _who(winners: Sequence[int]) -> str:
    return " ".join(f"p{k}" for k in winners) or "nobody"


@dataclass(frozen=True)
class PartyScope:
    """What a search looked at: plays, player counts, turns and cards at most, the menu."""

    plays: tuple[str, ...]
    players: tuple[int, ...]
    max_turns: int
    max_cards: int
    menu: str | None
    cases: int = 0

    def __str__(self) -> str:
        counts = ", ".join(map(str, self.players))
        where = f"menu {self.menu}" if self.menu else "every menu holding the plays"
        return (f"every round of at most {self.max_cards} cards, {counts} players and {self.max_turns} turns "
                f"made of {' | '.join(self.plays)} on {where} ({self.cases} rounds tried)")

    def as_json(self) -> dict[str, Any]:
        return {"plays": list(self.plays), "players": list(self.players), "max_turns": self.max_turns,
                "max_cards": self.max_cards, "menu": self.menu, "cases": self.cases}


@dataclass(frozen=True)
class PartyDiff(Answer[DiffStatus]):
    a: PartyRules
    b: PartyRules
    status: DiffStatus  # differ | equivalent (inert readings only) | unknown (none within the scope)
    witness: PartyWitness | None
    scope: PartyScope | None
    reason: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "format": "sushigo-diff-party/1", "game": "party",
            "a": {"name": self.a.describe(), "readings": self.a.as_json()},
            "b": {"name": self.b.describe(), "readings": self.b.as_json()},
            "differing_parameters": [{"name": n, "a": getattr(self.a, n), "b": getattr(self.b, n)}
                                     for n in differing(self.a, self.b)],
            "status": self.status,
            "witness": self.witness.as_json(self.a, self.b) if self.witness else None,
            "scope": self.scope.as_json() if self.scope else None,
            "reason": self.reason,
        }


def differing(a: PartyRules, b: PartyRules) -> list[str]:
    return [r.name for r in READINGS if getattr(a, r.name) != getattr(b, r.name)]


def _causes(case: PartyCase, a: PartyRules, b: PartyRules, names: Sequence[str]) -> tuple[str, ...]:
    """The differing readings that alone (the rest as A) change the case."""
    import dataclasses

    return tuple(n for n in names if differs(case, a, dataclasses.replace(a, **{n: getattr(b, n)})))


def party_diff(a: PartyRules, b: PartyRules, *, menu: str | None = None, players: Sequence[int] | None = None,
               max_cards: int = DEFAULT_MAX_CARDS, max_turns: int = MAX_TURNS,
               max_rounds: int = DEFAULT_MAX_ROUNDS) -> PartyDiff:
    """The smallest case where readings ``a`` and ``b`` differ (see the module docstring), or
    why none can exist (readings nothing reads), or "unknown" past the scope."""
    names = differing(a, b)
    if not names:
        return PartyDiff(a, b, "equivalent", None, None,
                         "the two sides choose the same value for every reading")
    live = [n for n in names if n not in INERT]
    if not live:
        return PartyDiff(a, b, "equivalent", None, None,
                         "; ".join(f"{n}: {INERT[n]}" for n in names))
    plays = tuple(dict.fromkeys(p for n in live for p in PLAYS[n]))
    extra = tuple(k for n in live for k in _EMPTY_SCORERS.get(n, ()))
    fixed: Menu | None = None
    if menu is not None:
        fixed = parse_menu(menu, uramaki=a.uramaki_split)
        plays = tuple(p for p in plays if play_kinds(p) <= set(fixed.kinds))
    counts = tuple(players) if players else tuple(
        sorted({c for n in live for c in PLAYERS.get(n, DEFAULT_PLAYERS)}))
    if fixed is not None:
        counts = tuple(c for c in counts if c in fixed.seats())
    tried = 0
    menus: dict[tuple[frozenset[str], int], str | None] = {}
    for cards in range(max_cards + 1):
        for p in counts:
            for t in range(1, min(max_turns, max(cards, 1), hand_size(p)) + 1):
                for turns in cases(plays, p, t, cards):
                    kinds = frozenset(k for turn in turns for play in turn for k in play_kinds(play))
                    if fixed is not None:
                        text: str | None = menu
                    else:
                        key = (kinds, p)
                        if key not in menus:
                            menus[key] = case_menu(kinds, p, extra)
                        text = menus[key]
                    if text is None:
                        continue
                    if tried == max_rounds:
                        scope = PartyScope(plays, counts, max_turns, cards - 1, menu, tried)
                        return PartyDiff(a, b, "unknown", None, scope,
                                         f"the budget of {max_rounds} rounds ran out among the rounds of "
                                         f"{cards} cards; the same scores under both in {scope}")
                    tried += 1
                    case = PartyCase(text, turns)
                    found = differs(case, a, b)
                    if found is not None:
                        scope = PartyScope(plays, counts, max_turns, cards - 1, menu, tried)
                        w = PartyWitness(case, *found, _causes(case, a, b, names))
                        return PartyDiff(a, b, "differ", w, scope)
    scope = PartyScope(plays, counts, max_turns, max_cards, menu, tried)
    inert = [f"{n}: {INERT[n]}" for n in names if n in INERT]
    return PartyDiff(a, b, "unknown", None, scope,
                     f"the same scores under both in {scope}; a larger round may differ "
                     "(raise --max-cards)"
                     + ("; " + "; ".join(inert) if inert else ""))


def readings_side(text: str | None, overrides: Sequence[str] = ()) -> PartyRules:
    """One side of ``diff --game party``: ``defaults`` (or nothing), or ``NAME=VALUE[,NAME=VALUE...]``,
    then ``overrides`` (``--rule-a``/``--rule-b``)."""
    from sushigo.spec.party.readings import party_rules

    items: list[str] = []
    word = (text or "").strip()
    if word and word.lower() not in ("defaults", "default"):
        if "=" not in word:
            import difflib

            near = difflib.get_close_matches(word.replace("-", "_"), list(READING), n=1, cutoff=0.5)
            hint = f"; did you mean {near[0]}=VALUE?" if near else ""
            raise InputError(f"Party side {word!r}: give 'defaults' or NAME=VALUE[,NAME=VALUE...]{hint} "
                             "(readings: sushigo rules --game party)")
        items = [w for w in word.split(",") if w.strip()]
    return party_rules([*items, *overrides])


def single_variants() -> list[tuple[str, Any]]:
    """Every single-reading variant of Party: (reading, a value other than the default)."""
    return [(r.name, v) for r in READINGS for v in r.values if v != r.default]


__all__ = ["DEFAULT", "INERT", "PLAYS", "PartyCase", "PartyDiff", "PartyScope", "PartySide", "PartyWitness",
           "case_menu", "cases", "differs", "party_diff", "play_cards", "play_kinds", "readings_side", "side",
           "single_variants"]
