"""``sushigo conform --game party``: hold a user's Sushi Go Party! scorer against the reference.

The adapter protocol (docs/party.md, "Testing your Party scorer"): a module with

    score_party_round(case: dict) -> list[int]        # a round: final tableaux, or turn by turn
    score_party_desserts(case: dict) -> list[int]     # optional: the desserts at game end

runs in the base game's sandbox (:mod:`.engine`: its own process tree, bwrap where it works,
time and memory limits, hostile output), under ``Limits(protocol="party")``. The cases are
every suggested menu at every player count it seats, random legal menus, the edge families
(:func:`edge_cases`) and turn-by-turn rounds for the turn rules (uramaki races, miso, special
order, takeout box, wasabi); the reference is ``spec/party/scoring.py`` and ``turns.py``
under the chosen readings.

A disagreement is isolated as the base game's is: the case is cut down to one kind's cards
(its *category*; a round's points are a sum over its kinds), the category whose cut-down case
still disagrees is minimised, and the fault is attributed to a reading of :mod:`.readings` or a
known mistake of the public implementations (:data:`PITFALLS`) that, planted in the reference,
gives the target's answers; the fault is planted and the search goes on for the next one.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from sushigo.checks.conform import again
from sushigo.checks.conform.engine import BadTarget, Engine, Limits, OutOfTime, Reply, sandbox_of
from sushigo.checks.conform.faults import NO_ANSWER, RunClock
from sushigo.checks.conform.report import Disagreement, Report, adapter_entries, reading_row
from sushigo.checks.party import deal
from sushigo.spec.errors import InputError
from sushigo.spec.kinds import Sets, resolve
from sushigo.spec.party.kinds import FLIPPED_RULE, KIND, PartyKind, Race, Unscored, shape_of
from sushigo.spec.party.menus import DEFAULT_URAMAKI_SPLIT as DEFAULT_SPLIT
from sushigo.spec.party.menus import SUGGESTED, TILES, Menu, desserts_per_round, hand_size, parse_menu
from sushigo.spec.party.readings import READINGS, PartyRules
from sushigo.spec.party.scoring import check_final, check_round, score_round
from sushigo.spec.party.tableau import (
    FLIPPED,
    SPECIAL,
    Part,
    PartyTableau,
    kind_name,
    parse_party_tableau,
)
from sushigo.spec.party.turns import play_round
from sushigo.spec.shapes import MostFewest, Opponents, Places, Table
from sushigo.spec.shapes.base import number
from sushigo.spec.shapes.game_end import GameEnd

MAX_FAULTS = 12
_PROBE = 200  # cases a candidate is tried on (the failing ones first, then some the target gets right)


# --------------------------------------------------------------------------- cases


@dataclass(frozen=True, order=True)
class PartyCase:
    """One question: ``form`` "tableaux" (``rows``: each seat's items), "turns" (``rows``: each
    turn's plays, one per seat) or "desserts" (``rows``: each seat's dessert cards at game end)."""

    form: str
    menu: str
    rows: tuple[tuple[str, ...], ...]

    @property
    def players(self) -> int:
        return len(self.rows[0]) if self.form == "turns" else len(self.rows)

    def size(self) -> tuple[int, int]:
        return self.players, sum(1 for r in self.rows for x in r if x != "-")

    def request(self, menu: Menu) -> dict[str, Any]:
        """What the adapter is given (JSON)."""
        doc: dict[str, Any] = {"menu": self.menu, "kinds": list(menu.kinds), "players": self.players}
        if self.form == "desserts":
            doc["dessert"] = menu.dessert.name
        doc[self.form] = [list(r) for r in self.rows]
        return doc

    def __str__(self) -> str:
        if self.form == "turns":
            body = " / ".join(" ".join(t) for t in self.rows)
        else:
            body = " | ".join(" ".join(r) or "-" for r in self.rows)
        return f"menu {self.menu}, {self.form} {body}"


@cache
def menu_of(label: str, split: str) -> Menu:
    return parse_menu(label, uramaki=split)


def tableaux_case(menu: Menu, tableaux: Sequence[PartyTableau]) -> PartyCase:
    return PartyCase("tableaux", menu.label, tuple(tuple(str(i) for i in t) for t in tableaux))


def _parse_rows(case: PartyCase) -> list[PartyTableau]:
    return [parse_party_tableau(" ".join(r) or "-") for r in case.rows]


def _named(menu: str, players: int, *seats: str) -> PartyCase:
    """A tableau case from the notation (an edge case of the families below)."""
    m = parse_menu(menu)
    rows = [parse_party_tableau(s) for s in seats]
    assert len(rows) == players
    return tableaux_case(m, rows)


def edge_cases() -> list[PartyCase]:
    """The edge families, each worked by hand from the rulebook (page in the comment)."""
    e = _named
    out = [
        # maki (RB p8): 5,5,3,1 -> 6,6,3,0; 3 players 6/3 (not 6/4/2); 6 players 6/4/2; ties for second
        e("sushi-go", 4, "maki3 maki2", "maki2*2 maki1", "maki3", "maki1"),
        e("sushi-go", 3, "maki3", "maki2", "maki1"),
        e("sushi-go", 2, "maki1", "-"),
        e("big-banquet", 6, "maki3", "maki3", "maki2", "maki1", "-", "-"),
        e("big-banquet", 7, "maki3", "maki2", "maki2", "maki1", "maki1", "-", "-"),
        e("sushi-go", 5, "maki2", "maki1", "maki1", "-", "-"),
        # uramaki left over at round end (RB p9): the most icons take 8, ties all
        e("points-platter", 3, "uramaki5 uramaki4", "uramaki5 uramaki4", "uramaki3"),
        e("points-platter", 4, "uramaki3", "uramaki4", "-", "-"),
        # temaki (RB p8): with 2 players nobody loses; fewest counts zero
        e("party-sampler", 2, "temaki*2", "temaki"),
        e("party-sampler", 3, "temaki*2", "temaki", "-"),
        e("party-sampler", 4, "temaki", "temaki", "temaki", "-"),
        # edamame (RB p10): 3,2,1 -> 6,4,2; the cap of 4 a card; only holders count
        e("points-platter", 4, "edamame*3", "edamame*2", "edamame", "-"),
        e("points-platter", 6, "edamame", "edamame", "edamame", "edamame", "edamame", "edamame*2"),
        e("points-platter", 3, "edamame*4", "edamame", "-"),
        # onigiri (RB p10): circle, triangle, two squares -> 9 + 1; three of one shape -> 1+1+1
        e("dinner-for-two", 2, "onigiri-circle onigiri-triangle onigiri-square*2", "onigiri-rectangle*2"),
        e("master-menu", 3, "onigiri-circle onigiri-triangle onigiri-square onigiri-rectangle", "-", "-"),
        # tofu 1/2/3+, eel 1/2/3 (RB p10-11)
        e("party-sampler", 3, "tofu", "tofu*2", "tofu*3"),
        e("party-sampler", 2, "tofu*4", "-"),
        e("cutthroat-combo", 3, "eel", "eel*2", "eel*3"),
        # tempura, sashimi, dumpling counts (RB p10-11), 1 to 6 cards
        e("sushi-go", 3, "tempura", "tempura*2", "tempura*3"),
        e("sushi-go", 3, "tempura*5", "sashimi", "sashimi*2"),
        e("sushi-go", 3, "sashimi*4", "sashimi*3", "dumpling*6"),
        e("sushi-go", 3, "dumpling", "dumpling*2", "dumpling*5"),
        # nigiri on wasabi (RB p8, p15), an empty wasabi
        e("sushi-go", 2, "wasabi+squid wasabi+egg salmon", "wasabi"),
        # soy sauce (RB p12): the most colours, ties all paid, every soy sauce card
        e("cutthroat-combo", 3, "soy-sauce eel", "soy-sauce*2 tofu", "temaki"),
        e("cutthroat-combo", 3, "soy-sauce", "eel tofu", "-"),
        # tea (RB p15): the largest colour group; wasabi and nigiri share yellow
        e("my-first-meal", 2, "wasabi+squid salmon*2 tea", "tea tempura*2"),
        e("my-first-meal", 2, "tea*2 tempura*2", "tea sashimi"),
        # takeout (RB p15), special order (RB p14)
        e("master-menu", 3, "flipped*2 sashimi", "flipped", "-"),
        e("points-platter", 3, "dumpling special-order:dumpling", "edamame special-order:edamame", "edamame"),
    ]
    return out


def dessert_edges() -> list[PartyCase]:
    """Game-end desserts (RB p16): pudding most/fewest with ties and 2 players, ice cream sets,
    fruit by type (none of one type -2)."""
    def d(menu: str, *seats: str) -> PartyCase:
        return PartyCase("desserts", menu, tuple(tuple(s.split()) if s != "-" else () for s in seats))

    p = "pudding"
    return [
        d("sushi-go", f"{p} {p}", p, "-"), d("sushi-go", p, p, p), d("sushi-go", f"{p} {p}", p),
        d("sushi-go", "-", "-", "-"), d("sushi-go", f"{p} {p}", f"{p} {p}", p, p),
        d("my-first-meal", *("green-tea-ice-cream " * n for n in (3, 4, 2))),
        d("my-first-meal", "green-tea-ice-cream " * 8, "-"),
        d("master-menu", "fruit-watermelon fruit-orange-pineapple", "-", "fruit-pineapple fruit-pineapple "
          "fruit-watermelon-orange"),
        d("master-menu", "fruit-watermelon fruit-watermelon", "fruit-orange", "-"),
    ]


def _rng_menu(rng: random.Random) -> Menu:
    by = {c: sorted(t.name for t in TILES.values() if t.course == c)
          for c in ("roll", "appetizer", "special", "dessert")}
    while True:
        chosen = [rng.choice(by["roll"]), *rng.sample(by["appetizer"], 3), *rng.sample(by["special"], 2),
                  rng.choice(by["dessert"])]
        menu = parse_menu(",".join(chosen))
        if menu.seats():
            return menu


def _tables(rng: random.Random, menu: Menu | None = None) -> Iterator[tuple[Menu, int]]:
    """Every suggested menu at every player count it seats, then as many random legal menus
    (``menu``: that menu's player counts, in turn), again and again."""
    while menu is not None:
        yield from ((menu, n) for n in menu.seats())
    suggested = [(m, n) for m in map(parse_menu, SUGGESTED) for n in m.seats()]
    while True:
        for m, n in suggested:
            yield m, n
        for _ in suggested:
            m = _rng_menu(rng)
            yield m, rng.choice(list(m.seats()))


#: Specials a generated turn-by-turn round plays (chopsticks, spoon and menu act from hands
#: and decks the notation does not hold: not generated, see docs/party.md).
_TURN_SPECIALS = ("wasabi", "tea", "soy-sauce", "special-order", "takeout")
_TURN_MENUS = ("uramaki,onigiri,miso,eel,special-order,takeout,pudding",
               "uramaki,tempura,edamame,miso,wasabi,special-order,fruit",
               "maki,sashimi,miso,tofu,wasabi,special-order,green-tea-ice-cream",
               "points-platter", "my-first-meal")


def turn_round(menu: Menu, players: int, rng: random.Random) -> PartyCase:
    """A random round turn by turn: cards dealt from the deck, special orders copying a card of
    this round, takeout boxes flipping some earlier cards."""
    pool = [c for c, n in menu.deck() for _ in range(n)]
    desserts = [c for c, n in menu.desserts() for _ in range(n)]
    pool += rng.sample(desserts, desserts_per_round(players)[0])
    rng.shuffle(pool)
    turns = rng.randint(1, hand_size(players))
    played: list[list[str]] = [[] for _ in range(players)]
    rows = []
    for _ in range(turns):
        plays = []
        for k in range(players):
            card = pool.pop()
            kind = kind_name(card)
            if kind == SPECIAL:
                mine = [c for c in played[k] if kind_name(c) not in ("takeout", SPECIAL)]
                text = f"{SPECIAL}:{rng.choice(mine)}" if mine else SPECIAL
                if mine:
                    played[k].append(text.split(":", 1)[1])
            elif kind == "takeout":
                earlier = [c for c in played[k] if kind_name(c) != "takeout"]
                flips = rng.sample(earlier, rng.randint(0, len(earlier))) if earlier else []
                text = f"{card}:{','.join(flips) if flips else '-'}"
                played[k].append(card)
            else:
                text = card
                played[k].append(card)
            plays.append(text)
        rows.append(tuple(plays))
    return PartyCase("turns", menu.label, tuple(rows))


def turn_edges() -> list[PartyCase]:
    """Turn rules worked by hand: the uramaki race (RB p9), misos in one turn (RB p11), special
    orders (RB p14) and a takeout box (RB p15)."""
    def t(menu: str, *turns: str) -> PartyCase:
        return PartyCase("turns", parse_menu(menu).label, tuple(tuple(x.split()) for x in turns))

    pp = "points-platter"
    return [
        # two players at 12 in one turn: both 8, 5 never paid, the third gets 2 (RB p9)
        t(pp, "uramaki5 uramaki5 uramaki3", "uramaki4 uramaki4 uramaki5", "uramaki3 uramaki3 uramaki3"),
        # same-turn finishers ranked by icons: 11 before 10
        t(pp, "uramaki4 uramaki3 -", "uramaki3 uramaki3 -", "uramaki4 uramaki4 -"),
        # one uramaki left over after a finish takes the next place
        t(pp, "uramaki5 uramaki3 -", "uramaki5 - -"),
        # two misos in one turn: both discarded; a lone one scores 3
        t("my-first-meal", "miso miso tempura", "miso tempura miso"),
        # a special order copying a dumpling, an uramaki
        t(pp, "dumpling uramaki5 -", "special-order:dumpling special-order:uramaki5 -"),
        # a takeout box flipping two earlier cards
        t("uramaki,onigiri,miso,eel,special-order,takeout,pudding", "eel onigiri-circle",
          "eel onigiri-square", "takeout-10:eel,eel -"),
    ]


def _on(cases: list[PartyCase], menu: Menu | None) -> list[PartyCase]:
    return cases if menu is None else [c for c in cases if c.menu == menu.label]


def _turn_menu(menu: Menu) -> bool:
    return not {"chopsticks", "spoon", "menu"} & set(menu.kinds)


def round_cases(rules: PartyRules, n: int, seed: int | None, expired: Callable[[], bool],
                menu: Menu | None = None) -> list[PartyCase]:
    """The edge families, then ``n`` dealt rounds over the menus (a fifth of them turn by turn);
    ``menu``: only cases on that menu."""
    rng = random.Random(0 if seed is None else seed)
    out = _on([*edge_cases(), *turn_edges()], menu)
    goal = n + len(out)
    tables = _tables(rng, menu)
    turn_menus = [parse_menu(m, uramaki=rules.uramaki_split) for m in _TURN_MENUS] if menu is None else \
        [menu] if _turn_menu(menu) else []
    while len(out) < goal and not expired():
        if turn_menus and rng.random() < 0.2:
            m = rng.choice(turn_menus)
            case = turn_round(m, rng.choice(list(m.seats())), rng)
        else:
            m, players = next(tables)
            case = tableaux_case(m, deal(m, players, rng))
        if valid(case, rules):
            out.append(case)
    return out


def dessert_cases(rules: PartyRules, n: int, seed: int | None, expired: Callable[[], bool],
                  menu: Menu | None = None) -> list[PartyCase]:
    """The dessert edge cases, then ``n`` dessert holdings at game end over the menus."""
    rng = random.Random(1 if seed is None else seed + 1)
    out = _on(dessert_edges(), menu)
    goal = n + len(out)
    tables = _tables(rng, menu)
    while len(out) < goal and not expired():
        m, players = next(tables)
        pile = [c for c, k in m.desserts() for _ in range(k)]
        rng.shuffle(pile)
        held: list[list[str]] = [[] for _ in range(players)]
        for c in pile[:sum(desserts_per_round(players))]:
            k = rng.randrange(players + 1)  # some cards stay in the deck
            if k < players:
                held[k].append(c)
        out.append(PartyCase("desserts", m.label, tuple(tuple(sorted(h)) for h in held)))
    return out


def valid(case: PartyCase, rules: PartyRules) -> bool:
    """The reference can score it (a case cut down by the minimiser may not be a round)."""
    try:
        Scorer(rules).total(case)
    except (InputError, ValueError):
        return False
    return True


# --------------------------------------------------------------------------- the reference


class ExactSets(Sets):
    """A set kind scored only when the count is an exact multiple of the set (else nothing)."""

    def score(self, n: int, rules: Any) -> int:
        return super().score(n, rules) if n % int(resolve(self.size, rules)) == 0 else 0


@dataclass(frozen=True)
class OpponentCards(Opponents):
    """Edamame counting the opponents' edamame cards instead of the opponents holding some."""

    def score(self, own: int, others: Sequence[int], rules: Any) -> int:
        return own * min(sum(others) * number(self.per, rules), number(self.cap, rules))


@dataclass(frozen=True)
class Pitfall:
    """A public implementation's mistake, as the kind's definition it amounts to."""

    name: str
    tile: str
    text: str
    scoring: Any


#: The known mistakes (PARTY.md section 4.9 and correction 6), each a kind definition to plant.
PITFALLS: tuple[Pitfall, ...] = (
    Pitfall("maki-6-4-2-always", "maki", "maki pays 6/4/2 at every player count ([MLY])",
            Places(KIND["maki"].icons, ((2, (6, 4, 2)),))),
    Pitfall("maki-zero", "maki", "maki scores nothing ([MLY])", Unscored()),
    Pitfall("uramaki-10-8-5-2", "uramaki", "uramaki pays 10/8/5/2 ([BRI])", Race(10, (10, 8, 5, 2))),
    Pitfall("tempura-exact", "tempura", "tempura scores only an exact multiple of two ([BRI])",
            ExactSets(2, 5)),
    Pitfall("sashimi-exact", "sashimi", "sashimi scores only an exact multiple of three ([BRI])",
            ExactSets(3, 10)),
    Pitfall("ice-cream-exact", "green-tea-ice-cream",
            "green tea ice cream scores only an exact multiple of four ([BRI])", GameEnd(ExactSets(4, 12))),
    Pitfall("edamame-opponent-cards", "edamame", "edamame counts the opponents' cards, not the "
            "opponents holding edamame ([RYS])", OpponentCards(1, 4)),
    Pitfall("eel-5", "eel", "two or more eel score 5 ([RYS])", Table((0, -3, 5))),
)


@dataclass(frozen=True)
class Scorer:
    """The reference under ``rules`` with some kinds' definitions replaced (planted pitfalls)."""

    rules: PartyRules
    planted: tuple[tuple[str, Any], ...] = ()

    def kinds(self) -> Mapping[str, PartyKind]:
        if not self.planted:
            return KIND
        return {**KIND, **{t: dataclasses.replace(KIND[t], scoring=s) for t, s in self.planted}}

    def points(self, case: PartyCase) -> list[dict[str, int]]:
        """Per seat, the points by category."""
        return [dict(p) for p in _points(self, case)]

    def total(self, case: PartyCase) -> list[int]:
        return [sum(p.values()) for p in _points(self, case)]

    def category(self, case: PartyCase, cat: str) -> list[int]:
        return [p.get(cat, 0) for p in _points(self, case)]


_MEMO: dict[tuple[Scorer, PartyCase], tuple[dict[str, int], ...]] = {}


def _points(s: Scorer, case: PartyCase) -> tuple[dict[str, int], ...]:
    key = (s, case)
    hit = _MEMO.get(key)
    if hit is None:
        hit = _MEMO[key] = _score(s, case)
        if len(_MEMO) > 200_000:
            _MEMO.clear()
    return hit


def _score(s: Scorer, case: PartyCase) -> tuple[dict[str, int], ...]:
    menu = menu_of(case.menu, s.rules.uramaki_split)
    kinds = s.kinds()
    menu.check_players(case.players)
    if case.form == "desserts":
        kind = kinds[menu.dessert.name]
        held = [[r.count(c) for c in kind.cards] for r in case.rows]
        if sum(map(sum, held)) > sum(desserts_per_round(case.players)):
            raise InputError("more desserts than three rounds shuffle in")
        for c, n in menu.desserts():
            if sum(r.count(c) for r in case.rows) > n:
                raise InputError(f"more {c} than the pile holds")
        if any(kind_name(c) != kind.tile for r in case.rows for c in r):
            raise InputError("a card that is not the menu's dessert")
        shape = shape_of(kind, s.rules)
        assert isinstance(shape, GameEnd)
        return tuple({kind.tile: p} for p in shape.points(held, None))
    if case.form == "turns":
        return play_round([list(t) for t in case.rows], menu, s.rules, kinds=kinds).score.points
    tableaux = _parse_rows(case)
    check_round(tableaux, menu)
    check_final(tableaux)
    return score_round(tableaux, menu, s.rules, kinds=kinds).points


# --------------------------------------------------------------------------- categories


def _category_of_part(part: Part) -> str:
    if part.flipped:
        return FLIPPED
    tile = kind_name(part.scores_as)
    return "nigiri" if tile == "wasabi" else tile


_COLOURS = ("soy-sauce", "tea")


def project(case: PartyCase, cat: str) -> PartyCase | None:
    """The case cut down to one category's cards (None: it has none of them). Soy sauce and tea
    score the colours of every card, and a flipped card needs its takeout box: their cut-down
    case is the case itself."""
    if case.form == "desserts" or cat in (*_COLOURS, FLIPPED):
        return case if _holds(case, cat) else None
    if case.form == "tableaux":
        rows = tuple(tuple(i for i in r if _item_category(i) == cat) for r in case.rows)
        if not any(rows) and not scores_none(cat):
            return None
        return PartyCase("tableaux", case.menu, rows)
    turns = tuple(tuple(p if _play_category(p) == cat else "-" for p in t) for t in case.rows)
    if all(p == "-" for t in turns for p in t) and not scores_none(cat):
        return None
    return PartyCase("turns", case.menu, turns)


def _shows(case: PartyCase, cat: str) -> bool:
    """The case holds cards of the category (a dessert case: its dessert; a whole round: always)."""
    if cat == "round total":
        return True
    if case.form == "desserts":
        return cat == menu_of(case.menu, DEFAULT_SPLIT).dessert.name
    if scores_none(cat):  # it scores on every round of its menu
        return cat in menu_of(case.menu, DEFAULT_SPLIT).kinds
    return project(case, cat) is not None


def scores_none(cat: str) -> bool:
    """A kind that pays players holding none of it (temaki: the fewest, none counting): its
    cut-down case is kept without its cards, and it is looked at first (every other kind's
    cut-down case shows its points too)."""
    return cat in KIND and isinstance(KIND[cat].scoring, MostFewest)


def _item_category(text: str) -> str:
    item = parse_party_tableau(text)[0]
    return _category_of_part(item.top)


def _play_category(text: str) -> str:
    head = text.split()[0]
    if head == "-":
        return ""
    card, _, tail = head.partition(":")
    if kind_name(card) == "takeout":
        return FLIPPED
    if kind_name(card) == SPECIAL:
        return _category_of_part(Part(tail)) if tail else ""
    return _category_of_part(Part(card))


def _holds(case: PartyCase, cat: str) -> bool:
    if case.form == "desserts":
        return any(case.rows)
    if cat == FLIPPED:
        return any("flipped" in x or "takeout" in x for r in case.rows for x in r)
    return any(cat in x for r in case.rows for x in r)


def categories(case: PartyCase, split: str) -> list[str]:
    """The case's categories, the cut-down ones first (the colour kinds and flipped cards last)."""
    menu = menu_of(case.menu, split)
    if case.form == "desserts":
        return [menu.dessert.name]
    from sushigo.spec.party.scoring import round_categories

    cats = list(round_categories(menu))
    last = (*_COLOURS, FLIPPED)
    return sorted(cats, key=lambda c: 0 if scores_none(c) else 2 if c in last else 1)


def rule_ids(case: PartyCase, cat: str) -> tuple[str, ...]:
    """The rule id of the category's kind, with the acting kinds the case shows (wasabi, special
    order, takeout box, miso in a turn)."""
    if cat == FLIPPED:
        ids = [FLIPPED_RULE, KIND["takeout"].rule]
    elif cat == "round total":
        ids = []
    else:
        ids = [KIND[cat].rule]
    text = " ".join(x for r in case.rows for x in r)
    for tile in ("wasabi", SPECIAL, "takeout"):
        if tile in text and KIND[tile].rule not in ids and (tile != "wasabi" or cat == "nigiri"):
            ids.append(KIND[tile].rule)
    return tuple(ids)


def smaller(case: PartyCase, rules: PartyRules) -> list[PartyCase]:
    """One step smaller, still a case the reference scores: a seat dropped, a turn dropped, a
    card dropped (a play replaced by nothing)."""
    out: list[PartyCase] = []
    rows = case.rows
    if case.form == "turns":
        if case.players > 2:
            out += [dataclasses.replace(case, rows=tuple(t[:k] + t[k + 1:] for t in rows))
                    for k in range(case.players)]
        if len(rows) > 1:
            out += [dataclasses.replace(case, rows=rows[:j] + rows[j + 1:]) for j in range(len(rows))]
        out += [dataclasses.replace(case, rows=(*rows[:j], (*t[:k], "-", *t[k + 1:]), *rows[j + 1:]))
                for j, t in enumerate(rows) for k, p in enumerate(t) if p != "-"]
    else:
        if case.players > 2 or case.form == "desserts":
            out += [dataclasses.replace(case, rows=rows[:k] + rows[k + 1:]) for k in range(len(rows))]
        out += [dataclasses.replace(case, rows=(*rows[:k], r[:j] + r[j + 1:], *rows[k + 1:]))
                for k, r in enumerate(rows) for j in range(len(r))]
        out += [dataclasses.replace(case, rows=(*rows[:k], (*r[:j], x.split("+", 1)[1], *r[j + 1:]),
                                                *rows[k + 1:]))
                for k, r in enumerate(rows) for j, x in enumerate(r) if "+" in x]
    return [c for c in out if c.players >= 1 and valid(c, rules)]


# --------------------------------------------------------------------------- the target


class PartySide:
    """One function of the Party protocol: how to ask the target and score its cases (the
    interface of :class:`~.faults.Side` that :mod:`.again` and :mod:`.report` use)."""

    def __init__(self, kind: str, engine: Engine, rules: PartyRules, budget: RunClock) -> None:
        self.kind, self.engine, self.rules, self.budget = kind, engine, rules, budget
        self.fn = "score_party_round" if kind == "round" else "score_party_desserts"
        self.ref = Scorer(rules)
        self.answers: dict[PartyCase, Reply] = {}
        self.calls: list[tuple[PartyCase, Reply]] = []

    def request(self, case: PartyCase) -> tuple[Any, int]:
        return case.request(menu_of(case.menu, self.rules.uramaki_split)), case.players

    def prefetch(self, cases: Sequence[PartyCase]) -> None:
        todo = list(dict.fromkeys(c for c in cases if c not in self.answers))
        for k in range(0, len(todo), 256):
            if self.budget.expired():
                return
            batch = todo[k:k + 256]
            for case, ans in zip(batch, self.engine.call_many(self.fn, [self.request(c) for c in batch]),
                                 strict=False):
                self.answers[case] = ans
                self.calls.append((case, ans))

    def ask(self, case: PartyCase) -> Reply:
        if case not in self.answers:
            if self.budget.expired():
                return NO_ANSWER
            self.prefetch([case])
        return self.answers.get(case, NO_ANSWER)

    def got(self, case: PartyCase) -> list[int] | None:
        v = self.ask(case).value
        return list(v) if v is not None else None

    def ref_total(self, case: PartyCase) -> list[int]:
        return self.ref.total(case)

    def fmt(self, case: PartyCase) -> str:
        return str(case)

    def size(self, case: PartyCase) -> tuple[int, int]:
        return case.size()

    def shrink(self, case: PartyCase, keep: Callable[[PartyCase], bool]) -> PartyCase:
        cur, changed = case, True
        while changed and not self.budget.expired():
            changed = False
            for cand in smaller(cur, self.rules):
                if keep(cand):
                    cur, changed = cand, True
                    break
        return cur


# --------------------------------------------------------------------------- the search


@dataclass
class PartyFault:
    category: str
    method: str  # reading | pitfall | isolation | round-total
    how: str
    by: str | None
    case: PartyCase
    rule_ids: tuple[str, ...]
    cases: int
    first_seen: PartyCase
    expected: list[int] = field(default_factory=list)
    got: list[int] = field(default_factory=list)


Plant = Callable[[Scorer], Scorer]


def _reading(name: str, value: Any) -> Plant:
    return lambda s: dataclasses.replace(s, rules=dataclasses.replace(s.rules, **{name: value}))


def _pitfall(p: Pitfall) -> Plant:
    return lambda s: dataclasses.replace(s, planted=(*s.planted, (p.tile, p.scoring)))


def _candidates(cat: str, rules: PartyRules) -> list[tuple[str, str, str, Plant]]:
    """(name, method, text, how to plant it): the readings first, then the pitfalls of the kind."""
    out: list[tuple[str, str, str, Plant]] = []
    for r in READINGS:
        for v in r.values:
            if v != getattr(rules, r.name):
                out.append((f"{r.name}={v}", "reading", r.question, _reading(r.name, v)))
    for p in PITFALLS:
        if p.tile == cat:
            out.append((p.name, "pitfall", p.text, _pitfall(p)))
    return out


class Composite:
    """Per category a scorer: the reference with the faults found so far planted, or None where
    the target's own points stand (a fault nothing models)."""

    def __init__(self, ref: Scorer) -> None:
        self.ref = ref
        self.sources: dict[str, Scorer | None] = {}
        self.broken = False  # a round-total fault: no case can be held against the composite

    def of(self, cat: str) -> Scorer | None:
        return self.sources.get(cat, self.ref)


def _want(side: PartySide, comp: Composite, case: PartyCase) -> list[int] | None:
    cats = categories(case, side.rules.uramaki_split)
    total = [0] * case.players
    for cat in cats:
        src = comp.of(cat)
        if src is None:
            part = _target_cat(side, case, cat)
            if part is None:
                return None
        else:
            part = src.category(case, cat)
        total = [a + b for a, b in zip(total, part, strict=True)]
    return total


def _target_cat(side: PartySide, case: PartyCase, cat: str) -> list[int] | None:
    """The target's points of one category: its answer on the cut-down case less the reference's
    other categories there."""
    y = project(case, cat)
    if y is None:
        return [0] * case.players
    got = side.got(y)
    if got is None:
        return None
    others = [t - c for t, c in zip(side.ref.total(y), side.ref.category(y, cat), strict=True)]
    return [a - b for a, b in zip(got, others, strict=True)]


def _explains(side: PartySide, comp: Composite, y: PartyCase, cat: str, planted: Scorer) -> bool:
    """The target's answer on ``y`` is the composite's with ``planted`` scoring ``cat``."""
    base = comp.of(cat)
    assert base is not None
    try:
        now = _want(side, comp, y) or []
        parts = zip(now, base.category(y, cat), planted.category(y, cat), strict=True)
        want = [a - b + c for a, b, c in parts]
    except (InputError, ValueError):
        return False
    return side.got(y) == want


def _plainest(case: PartyCase) -> tuple[bool, bool, tuple[int, int]]:
    """Final tableaux on a suggested menu before a round turn by turn or a menu spelled out."""
    return case.form == "turns", case.menu not in SUGGESTED, case.size()


def find_faults(side: PartySide, cases: Sequence[PartyCase]) -> list[PartyFault]:
    """Every independent fault on ``cases`` (already asked), in the order found."""
    faults: list[PartyFault] = []
    comp = Composite(side.ref)
    valid_cases = [c for c in cases if side.answers.get(c, NO_ANSWER).value is not None]
    split = side.rules.uramaki_split
    while len(faults) < MAX_FAULTS and not side.budget.expired() and not comp.broken:
        def fails(x: PartyCase) -> bool:
            want = _want(side, comp, x)
            return want is not None and side.got(x) not in (None, want)

        failing = [x for x in valid_cases if fails(x)]
        if not failing:
            break
        x0 = min(failing, key=_plainest)
        cuts = {c: project(x0, c) for c in categories(x0, split) if comp.of(c) is not None}
        side.prefetch([y for y in cuts.values() if y is not None])
        bad = next((c for c, y in cuts.items() if y is not None and fails(y)), None)
        if bad is None:
            trigger = side.shrink(x0, fails)
            faults.append(PartyFault("round total", "round-total", "no one kind's cards show the "
                                     "disagreement: the round's total is wrong", None, trigger,
                                     rule_ids(trigger, "round total") or ("R-PARTY-TURNS",),
                                     len(failing), x0))
            comp.broken = True
            break
        cut = cuts[bad]
        assert cut is not None
        trigger = side.shrink(cut, fails)
        in_cat = [y for x in failing if (y := project(x, bad)) is not None and fails(y)]
        side.prefetch(in_cat)
        passing = [y for x in valid_cases[:_PROBE * 4] if (y := project(x, bad)) is not None and not fails(y)]
        side.prefetch(passing[:_PROBE])
        base = comp.of(bad)
        assert base is not None
        found = None
        for name, method, text, plant in _candidates(bad, side.rules):
            planted = plant(base)

            def explains(y: PartyCase, planted: Scorer = planted, cat: str = bad) -> bool:
                return _explains(side, comp, y, cat, planted)

            if explains(trigger) and all(explains(y) for y in in_cat[:_PROBE]) \
                    and all(explains(y) for y in passing[:_PROBE] if side.got(y) is not None):
                found = (name, method, text, planted)
                break
        if found is not None:
            name, method, text, planted = found
            comp.sources[bad] = planted
            how = f"planting the {method} {name} ({text}) in the reference gives the target's answers"
            faults.append(PartyFault(bad, method, how, name, trigger, rule_ids(trigger, bad), len(in_cat),
                                     x0))
        else:
            comp.sources[bad] = None
            faults.append(PartyFault(bad, "isolation", f"only the {bad} cards of the case disagree; no "
                                     "reading or known pitfall gives the target's points", None, trigger,
                                     rule_ids(trigger, bad), len(in_cat), x0))
    for f in faults:
        f.expected, f.got = side.ref_total(f.case), side.got(f.case) or []
    return faults


# --------------------------------------------------------------------------- the run


def fingerprint(sides: Sequence[PartySide], made: Sequence[Sequence[PartyCase]],
                faults: Sequence[PartyFault] = ()) -> list[dict[str, Any]]:
    """Per reading: which value the target follows on the cases where the values differ, read on
    the cases without the cards of a fault found (one the reading does not explain), so that a
    wrong eel does not hide which colours the target counts."""
    asked = [c for side, cases in zip(sides, made, strict=True) for c in cases
             if side.answers.get(c, NO_ANSWER).value is not None]
    side = sides[0]
    got = [(sides[-1] if c.form == "desserts" else side).got(c) for c in asked]
    rows = []
    for r in READINGS:
        if r.name == "uramaki_split":  # it changes the deck, not a score
            continue
        ours = getattr(side.rules, r.name)
        forms = ("tableaux", "turns") if r.scope == "turns" else ("tableaux", "turns", "desserts")
        other = {f.category for f in faults if not (f.by or "").startswith(f"{r.name}=")}
        keep = [k for k, c in enumerate(asked) if c.form in forms
                and not any(_shows(c, cat) for cat in other)]

        def score(c: PartyCase, value: Any, name: str = r.name) -> list[int]:
            try:
                return Scorer(dataclasses.replace(side.rules, **{name: value})).total(c)
            except (InputError, ValueError):
                return side.ref.total(c)

        rows.append(reading_row(r.name, KIND_OF_READING.get(r.name, "R-PARTY-TURNS"), ours, r.values,
                                [asked[k] for k in keep], [got[k] for k in keep], score))
    return rows


#: The rule id a reading's question is about (for the fingerprint's column).
KIND_OF_READING: dict[str, str] = {
    "temaki_all_tied": KIND["temaki"].rule, "pudding_all_tied": KIND["pudding"].rule,
    "flipped_colour": KIND["soy-sauce"].rule, "special_order_colour": KIND["soy-sauce"].rule,
    "special_order_copies": KIND[SPECIAL].rule, "special_order_wasabi": KIND["wasabi"].rule,
    "bonus_actions": KIND["chopsticks"].rule, "takeout_dessert": KIND["takeout"].rule,
    "takeout_stack": KIND["takeout"].rule, "menu_short_deck": KIND["menu"].rule,
    "edamame_cap": KIND["edamame"].rule, "tea_desserts": KIND["tea"].rule,
    "discarded_colours": KIND["soy-sauce"].rule, "uramaki_after_places": KIND["uramaki"].rule,
    "uramaki_tie_many": KIND["uramaki"].rule, "uramaki_bonus_turn": KIND["uramaki"].rule,
    "fruit_none": KIND["fruit"].rule, "final_tie": "R-PARTY-WINNER",
}


def conform_party(target: str, rules: PartyRules, examples: int, seed: int | None, limits: Limits,
                  start: float | None = None, menu: Menu | None = None) -> Report:
    """Hold ``target`` (the Party adapter protocol) against the reference under ``rules``: the
    same run as the base game's :func:`~sushigo.checks.conform.conform`, over Party's cases."""
    lim = dataclasses.replace(limits, protocol="party")
    report = Report(target, f"party ({rules.describe()})", seed=seed, sandbox=sandbox_of(lim.sandbox))
    report.budget = {"examples": examples, **lim.as_dict()}
    budget = RunClock.of(lim.budget(), time.monotonic, start)
    started = budget.deadline - lim.time_limit
    budget.phase = "loading the target"
    try:
        engine = Engine(target, lim, 10_000, budget.left)
        engine.start()
    except OutOfTime:
        budget.expired()
        report.stopped = f"the time limit of {lim.time_limit:g} s ran out while loading the target"
        return report
    try:
        _run(report, engine, rules, examples, seed, budget, menu)
    finally:
        engine.close()
    if budget.hit and not report.stopped:
        done = report.round_cases_run + report.pudding_cases_run
        total = report.round_cases + report.pudding_cases
        report.stopped = f"the time limit of {lim.time_limit:g} s ran out after {done} of {total} cases"
    report.seconds = time.monotonic() - started
    return report


def _run(report: Report, engine: Engine, rules: PartyRules, examples: int, seed: int | None,
         budget: RunClock, menu: Menu | None) -> None:
    sides = [PartySide("round", engine, rules, budget)]
    budget.phase = "generating the cases"
    made = [round_cases(rules, examples, seed, budget.expired, menu)]
    if engine.score_puddings:
        report.pudding_checked = True
        sides.append(PartySide("desserts", engine, rules, budget))
        made.append(dessert_cases(rules, max(1, examples // 4), seed, budget.expired, menu))
    report.round_cases = len(made[0])
    report.pudding_cases = len(made[1]) if len(made) > 1 else 0
    budget.phase = "asking the target"
    for side, cases in zip(sides, made, strict=True):
        side.prefetch(cases)
    report.round_cases_run = sum(1 for c in made[0] if c in sides[0].answers)
    report.pudding_cases_run = sum(1 for c in made[1] if c in sides[1].answers) if len(made) > 1 else 0

    def fresh() -> Engine:
        return Engine(engine.target, engine.limits, engine.bound, budget.left)

    budget.phase = "asking the disagreements again"
    for side, cases in zip(sides, made, strict=True):
        changed = again.changes(side, again.disagreements(side, cases), fresh)  # type: ignore[arg-type]
        if changed:
            doc, old = again.entry(side, changed)  # type: ignore[arg-type]
            report.adapter_faults.append(doc)
            report.disagreements.append(old)
            return
    budget.phase = "searching for faults"
    number = 1
    found: list[PartyFault] = []
    for side, cases in zip(sides, made, strict=True):
        faults = find_faults(side, cases)
        found += faults
        for f in faults:
            report.faults.append({
                "number": number, "kind": side.kind, "category": f.category, "case": str(f.case),
                "expected": f.expected, "got": f.got, "rule_ids": list(f.rule_ids),
                "attribution": {"method": f.method, "how": f.how, "by": f.by}, "cases": f.cases,
                "first_seen": str(f.first_seen), "isolated_on": str(f.case), "note": None})
            report.disagreements.append(Disagreement(side.kind, f.rule_ids, str(f.case), f.expected,
                                                     str(f.got), f.cases, str(f.first_seen),
                                                     f.by if f.method == "reading" and f.by else ""))
            number += 1
    budget.phase = "minimising the adapter faults"
    for side in sides:
        entries, twins = adapter_entries(side)  # type: ignore[arg-type]
        report.adapter_faults += entries
        report.disagreements += twins
    report.fingerprint = fingerprint(sides, made, found) if not budget.hit else []
    report.restarts = engine.restarts
    if engine.gave_up:
        done = report.round_cases_run + report.pudding_cases_run
        report.stopped = (f"conform gave the target up after {done} of "
                          f"{report.round_cases + report.pudding_cases} cases: {engine.gave_up}")


__all__ = ["PITFALLS", "BadTarget", "PartyCase", "Scorer", "conform_party", "dessert_cases", "edge_cases",
           "find_faults", "project", "round_cases", "turn_edges"]
