"""Every open question of Sushi Go Party! as a parameter (issue 28 item 3).

Each :class:`Reading` is one question the rulebook leaves open (PARTY.md section 4 and its
corrections): the values it may take, the default (the one the rulebook's text leans to), and
per value the texts or implementations that read it so. :class:`PartyRules` holds one value
per reading; the scorer and the turn-by-turn rounds read it, and nothing else decides them.
``sushigo rules --game party`` lists them; ``--rule NAME=VALUE`` chooses one.

Implementations are cited by the tags of PARTY.md: [RB] the rulebook, [MLY] mly32/sushi-go-party,
[SUB] Yag000/subarasushi, [BRI] brightsole/bg-sushi-go, [RYS] rysxtu/Sushi-Go-Party,
[KIK] KikeAjani/SushiGame.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from sushigo.spec.errors import RulesError
from sushigo.spec.party.menus import DEFAULT_URAMAKI_SPLIT, URAMAKI_SPLITS


@dataclass(frozen=True)
class Reading:
    """One open question: its values (the default first in ``support``) and who reads each how."""

    name: str
    question: str
    default: Any
    support: tuple[tuple[Any, str], ...]  # (value, who reads it so, in our words)
    scope: str  # where it can change a score: "tableau" (a final tableau shows it) or "turns"

    @property
    def values(self) -> tuple[Any, ...]:
        return tuple(v for v, _ in self.support)


_ALL_TIED = ("both", "nothing", "most", "most-unless-none")


def _all_tied(kind: str, most: int) -> tuple[tuple[Any, str], ...]:
    return (
        ("both", f"the rule as written: every player is both most and fewest, +{most} and -{most} (+{most} "
                 "with 2 players); [BRI]"),
        ("nothing", "nobody scores, as the base game's pudding rule; [MLY]"),
        ("most", f"everyone takes the most's +{most}" + ("; [RYS]" if kind == "temaki" else "")),
        ("most-unless-none", f"everyone +{most}, or -{most} when all have none; [SUB]"
                             + (", [RYS]" if kind == "pudding" else "")),
    )


#: The readings, in PARTY.md's order (section 4, then the corrections).
READINGS: Final[tuple[Reading, ...]] = (
    Reading("uramaki_split", "How do the 12 uramaki divide among 3, 4 and 5 icons?", DEFAULT_URAMAKI_SPLIT,
            tuple((name, f"{'/'.join(map(str, c))} copies; dealt so by {who}")
                  for name, (c, who) in URAMAKI_SPLITS.items()), "tableau"),
    Reading("temaki_all_tied", "Every player holds as many temaki: who scores?", "both",
            _all_tied("temaki", 4), "tableau"),
    Reading("pudding_all_tied", "Every player holds as many puddings at game end: who scores?", "both",
            _all_tied("pudding", 6), "tableau"),
    Reading("flipped_colour", "What colour is a card flipped by a takeout box (soy sauce, tea)?", "none",
            (("none", "a flipped card has lost its identity (RB p15); [SUB]"),
             ("one", "all flipped cards count as one more colour; [MLY]")), "tableau"),
    Reading("special_order_colour", "What colour is a special order (soy sauce, tea)?", "copied",
            (("copied", "the copied card's: it is an exact copy (RB p14); [SUB]"),
             ("rainbow", "its own rainbow background, a colour of its own (tile art, RB p3-4)")), "tableau"),
    Reading("special_order_copies", "Which cards may a special order copy?", "played",
            (("played", "any card already played this round, a card played earlier the same turn too "
                        "(RB p14: \"already played\")"),
             ("earlier-turns", "only cards of earlier turns; [MLY]")), "turns"),
    Reading("special_order_wasabi", "A special order copying a plain nigiri, with an empty wasabi: "
            "does it go on the wasabi?", "must",
            (("must", "the wasabi rule says the next nigiri goes on it (RB p15, p13)"),
             ("may", "the special order ruling's word (RB p14); the player chooses")), "turns"),
    Reading("bonus_actions", "How many chopsticks and spoon actions may one player take in a turn?", "any",
            (("any", "no limit is stated (RB p6, p13); [SUB]"),
             ("one", "one, as the base game's chopsticks; [MLY]")), "turns"),
    Reading("takeout_dessert", "May a takeout box flip a dessert played this round?", "flip",
            (("flip", "any card of an earlier turn this round (RB p15); [SUB]"),
             ("keep", "desserts are set aside for game end (RB p7)")), "turns"),
    Reading("takeout_stack", "Flipping a wasabi that holds a nigiri, or the nigiri on it:", "apart",
            (("apart", "each card flips alone: a flipped nigiri frees its wasabi ([MLY]), a flipped "
                       "wasabi leaves its nigiri at its plain points"),
             ("together", "the two cards flip together, 2 points each; [SUB]")), "turns"),
    Reading("menu_short_deck", "A menu with fewer than 4 cards left in the deck:", "draw-left",
            (("draw-left", "draw what is left and play 1 of them (RB p12 names no minimum)"),
             ("discard", "the menu is discarded with no effect; [SUB]")), "turns"),
    Reading("edamame_cap", "Is edamame's cap of 4 per card or per round?", "card",
            (("card", "the booklet's text and example, 3 / 2 / 1 edamame -> 6 / 4 / 2 (RB p10)"),
             ("round", "the tile's wording, \"maximum 4 per round\"")), "tableau"),
    Reading("tea_desserts", "Do desserts played this round count for tea?", "yes",
            (("yes", "they are played cards with a colour; soy sauce counts them (RB p12)"),
             ("no", "played desserts are set aside before scoring (RB p7)")), "tableau"),
    Reading("discarded_colours", "Do cards discarded during the round (miso, uramaki, a used menu or "
            "takeout box, a spoon that found nothing) count as colours?", "no",
            (("no", "they are no longer among the played cards (RB p13: \"discarded for the round\")"),
             ("yes", "[BRI] keeps discarded misos and counts them")), "turns"),
    Reading("uramaki_after_places", "Uramaki reaching 10 icons after all three places are paid:",
            "keep", (("keep", "they stay on the table (the discard comes with a payment, RB p9)"),
                     ("discard", "they are discarded all the same")), "turns"),
    Reading("uramaki_tie_many", "Three or more players reach the same uramaki total in one turn:",
            "use-places",
            (("use-places", "each is paid the place, and as many places as tied players are used up "
                            "(RB p9's two-player case: two use two)"),
             ("skip-one", "each is paid the place, and only the next place is skipped (RB p9's words "
                          "read literally)")), "turns"),
    Reading("uramaki_bonus_turn", "An uramaki played by a bonus action (chopsticks, spoon): does it race "
            "in the same turn as the normal plays?", "same-turn",
            (("same-turn", "it scores \"immediately\", in that turn (RB p13), ranked by icons with "
                           "the normal plays' finishers"),
             ("after", "bonus actions resolve after every normal play (RB p6), so they finish after")),
            "turns"),
    Reading("fruit_none", "A player with no fruit at all loses:", 0,
            ((0, "6: the table's -2 for each of the three fruits (RB p16, as its example reads)"),
             (-6, "12: a separate 6 on top of the table")), "tableau"),
    Reading("final_tie", "Players tied on points and dessert cards at game end:", "shared",
            (("shared", "share the win (RB p7 says no more)"),
             ("first-seat", "the first of them by seat wins; [SUB]")), "tableau"),
)

READING: Final[Mapping[str, Reading]] = {r.name: r for r in READINGS}


@dataclass(frozen=True)
class PartyRules:
    """One value for every open question of Party (the defaults lean to the rulebook's text)."""

    uramaki_split: str = DEFAULT_URAMAKI_SPLIT
    temaki_all_tied: Any = "both"
    pudding_all_tied: Any = "both"
    flipped_colour: str = "none"
    special_order_colour: str = "copied"
    special_order_copies: str = "played"
    special_order_wasabi: str = "must"
    bonus_actions: str = "any"
    takeout_dessert: str = "flip"
    takeout_stack: str = "apart"
    menu_short_deck: str = "draw-left"
    edamame_cap: Any = "card"
    tea_desserts: str = "yes"
    discarded_colours: str = "no"
    uramaki_after_places: str = "keep"
    uramaki_tie_many: str = "use-places"
    uramaki_bonus_turn: str = "same-turn"
    fruit_none: int = 0
    final_tie: str = "shared"

    def __post_init__(self) -> None:
        for r in READINGS:
            value = getattr(self, r.name)
            if value not in r.values:
                raise RulesError(f"Party reading {r.name}={value!r} is not one of "
                                 f"{', '.join(map(str, r.values))}")

    def changed(self) -> dict[str, Any]:
        """The readings that differ from the defaults."""
        return {r.name: getattr(self, r.name) for r in READINGS if getattr(self, r.name) != r.default}

    def as_json(self) -> dict[str, Any]:
        return {r.name: getattr(self, r.name) for r in READINGS}

    def describe(self) -> str:
        changed = self.changed()
        return "party defaults" + ("" if not changed else
                                   " with " + ", ".join(f"{k}={v}" for k, v in changed.items()))


DEFAULT: Final = PartyRules()

# One reading, one field, one default: the dataclass and the table may not drift apart.
assert [f.name for f in dataclasses.fields(PartyRules)] == [r.name for r in READINGS]
assert all(getattr(DEFAULT, r.name) == r.default == r.values[0] for r in READINGS)


def _near(word: str, choices: Iterable[str]) -> str:
    import difflib  # only an error line needs it

    near = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.4)
    return f"; did you mean {near[0]!r}?" if near else ""


def _value(reading: Reading, text: str) -> Any:
    for v in reading.values:
        if str(v) == text:
            return v
    hint = _near(text, map(str, reading.values))
    raise RulesError(f"--rule {reading.name}={text}: not a value of {reading.name}{hint} "
                     f"(values: {', '.join(map(str, reading.values))})")


def party_rules(assignments: Iterable[str] = (), base: Mapping[str, Any] | None = None) -> PartyRules:
    """The readings from ``NAME=VALUE`` texts (``--rule``) over ``base`` (a document's own
    ``"readings"``); an unknown name or value is one :class:`RulesError` line naming the nearest."""
    chosen: dict[str, Any] = {}
    for name, value in (base or {}).items():
        if name not in READING:
            raise RulesError(f"Party reading {name!r} does not exist{_near(name, READING)} "
                             "(list: sushigo rules --game party)")
        chosen[name] = _value(READING[name], str(value))
    for text in assignments:
        name, sep, value = text.partition("=")
        name = name.strip().replace("-", "_")
        if not sep:
            raise RulesError(f"--rule {text!r}: give NAME=VALUE, e.g. --rule edamame_cap=round")
        if name not in READING:
            raise RulesError(f"--rule {text}: no Party reading is called {name!r}{_near(name, READING)} "
                             "(list: sushigo rules --game party)")
        chosen[name] = _value(READING[name], value.strip())
    return PartyRules(**chosen)


def document(rules: PartyRules = DEFAULT) -> list[dict[str, Any]]:
    """The readings as plain data (``sushigo rules --game party --json``): each question, its
    values with who reads each so, the default and the value chosen."""
    return [{"name": r.name, "question": r.question, "default": r.default, "value": getattr(rules, r.name),
             "scope": r.scope, "values": [{"value": v, "read_by": who} for v, who in r.support]}
            for r in READINGS]


__all__ = ["DEFAULT", "READING", "READINGS", "PartyRules", "Reading", "document", "party_rules"]
