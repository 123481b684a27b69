"""Sushi Go Party!'s round scoring: the plain scorer held to the Z3 model (issue 28 item 4).

The pieces a ``check --game party`` family needs, shared with tests/test_party_model.py:
:func:`menus` draws a menu (a suggested one or a random legal one), a player count it seats and
the readings a final tableau shows; :func:`deal` deals final tableaux from that menu's deck;
:func:`check_party_round` scores them both ways and raises :class:`~.properties.Mismatch`
naming the rule ids of the categories that disagree. The executor is called through its module
at call time (``scoring.score_round``), so a planted fault that patches it is what is checked.
"""

from __future__ import annotations

import random

import sushigo.spec.party.scoring as scoring
from hypothesis import assume
from hypothesis import strategies as st
from sushigo.checks.properties import Mismatch
from sushigo.spec.party.kinds import KIND, Race
from sushigo.spec.party.menus import SUGGESTED, TILES, Menu, desserts_per_round, hand_size, parse_menu
from sushigo.spec.party.model import GONE, RoundModel
from sushigo.spec.party.readings import READINGS, PartyRules
from sushigo.spec.party.scoring import RacePaid
from sushigo.spec.party.tableau import SPECIAL, Item, Part, PartyTableau, format_party_tableau, kind_name

# The readings a final tableau can show (discarded_colours needs the discarded cards: not modelled).
_TABLEAU_READINGS = [r for r in READINGS if r.scope == "tableau" and r.name != "final_tie"]


@st.composite
def menus(draw: st.DrawFn) -> tuple[Menu, int, PartyRules]:
    """A menu, a player count it seats, and one value of every reading a final tableau shows."""
    rules = PartyRules(**{r.name: draw(st.sampled_from(r.values)) for r in _TABLEAU_READINGS})
    if draw(st.booleans()):
        menu = parse_menu(draw(st.sampled_from(sorted(SUGGESTED))), uramaki=rules.uramaki_split)
    else:
        by = {c: sorted(t.name for t in TILES.values() if t.course == c)
              for c in ("roll", "appetizer", "special", "dessert")}
        chosen = [draw(st.sampled_from(by["roll"])), *draw(st.permutations(by["appetizer"]))[:3],
                  *draw(st.permutations(by["special"]))[:2], draw(st.sampled_from(by["dessert"]))]
        menu = parse_menu(",".join(chosen), uramaki=rules.uramaki_split)
    low, high = menu.players()
    assume(low <= high)
    return menu, draw(st.integers(low, high)), rules


def _seat(cards: list[str], rng: random.Random) -> PartyTableau:
    """One final tableau from the cards a seat played: special orders copy one of its cards,
    a takeout box flips some, wasabi take nigiri, used menus and takeout boxes are gone, and
    uramaki stop short of 10 icons."""
    plain = [c for c in cards if kind_name(c) not in (*GONE, SPECIAL)]
    parts = [Part(c) for c in plain]
    for c in cards:
        if kind_name(c) == SPECIAL and plain:
            parts.append(Part(SPECIAL, rng.choice(plain)))
    if any(kind_name(c) == "takeout" for c in cards):
        for k in rng.sample(range(len(parts)), rng.randint(0, len(parts))):
            parts[k] = Part(parts[k].card, flipped=True)
    while sum(KIND["uramaki"].icons[KIND["uramaki"].cards.index(p.scores_as)] for p in parts
              if not p.flipped and kind_name(p.scores_as) == "uramaki") >= 10:
        parts.remove(next(p for p in parts if not p.flipped and kind_name(p.scores_as) == "uramaki"))
    items: list[Item] = []
    wasabi = [p for p in parts if not p.flipped and kind_name(p.scores_as) == "wasabi"]
    for p in [p for p in parts if p.flipped or kind_name(p.scores_as) != "wasabi"]:
        if not p.flipped and kind_name(p.scores_as) == "nigiri" and wasabi and rng.random() < 0.6:
            items.append(Item(p, wasabi.pop()))
        else:
            items.append(Item(p))
    items += [Item(w) for w in wasabi]
    return tuple(items)


def deal(menu: Menu, players: int, rng: random.Random) -> list[PartyTableau]:
    """Final tableaux for every seat, dealt from the menu's deck and round 1's desserts."""
    pool = [c for t in menu.tiles if t.course != "dessert" for c, n in t.cards for _ in range(n)]
    desserts = [c for c, n in menu.dessert.cards for _ in range(n)]
    pool += rng.sample(desserts, min(len(desserts), desserts_per_round(players)[0]))
    rng.shuffle(pool)
    out = []
    for _ in range(players):
        k = rng.randint(0, hand_size(players))
        out.append(_seat(pool[:k], rng))
        pool = pool[k:]
    return out



def race_paid(menu: Menu, players: int, rng: random.Random) -> RacePaid | None:
    """What an uramaki race might have paid during the round (None without uramaki on the menu):
    the first places, each to a seat drawn at random."""
    if "uramaki" not in menu.kinds:
        return None
    race = KIND["uramaki"].scoring
    assert isinstance(race, Race)
    used = rng.randint(0, len(race.points))
    paid = [0] * players
    for place in race.points[:used]:
        paid[rng.randrange(players)] += place
    return RacePaid(tuple(paid), used)


def check_party_round(menu: Menu, players: int, rules: PartyRules, tableaux: list[PartyTableau],
                      race: RacePaid | None = None) -> None:
    """Score ``tableaux`` (and what the uramaki ``race`` paid) by the executor and by the model;
    a disagreement is a :class:`Mismatch`."""
    scoring.check_round(tableaux, menu)
    scoring.check_final(tableaux)
    plain = [dict(p) for p in scoring.score_round(tableaux, menu, rules, race).points]
    model = RoundModel(menu, players, rules, race)
    solved = model.solve(tableaux)
    case = (f"menu {menu.label}, {rules.describe()}: "
            + " | ".join(format_party_tableau(t) for t in tableaux)
            + (f" (race paid {list(race.paid)}, {race.places_used} places)" if race else ""))
    if solved is None:
        raise Mismatch(case, "no tableau of the domain", plain, ["R-DOMAIN"])
    if solved != plain:
        wrong = sorted({model.rules_of[c] for s, p in zip(solved, plain, strict=True) for c in p
                        if s.get(c) != p[c]})
        raise Mismatch(case, solved, plain, wrong)


__all__ = ["check_party_round", "deal", "menus", "race_paid"]
