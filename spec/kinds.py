"""Card kinds as data: one definition per kind of card in the deck.

Each :class:`CardKind` says everything the toolkit needs to know about a kind: its name
and input aliases, its copies in the printed deck, how it scores (a small
:data:`Scoring` description), which scoring column its points go to and under which
rule id, and its part in the wasabi/chopsticks mechanics. Everything else is derived:

- :mod:`spec.cards` checks its ``Card`` enumeration against :data:`KINDS` (one member per
  definition, same order) and derives the tokens, stacks, aliases and groups from them;
- :mod:`spec.ruleset` takes the printed deck from the ``copies`` here;
- :mod:`spec.scoring` (plain Python) and :mod:`spec.model.scoring` (Z3) both interpret the
  same :data:`Scoring` description, so the two scorers cannot drift apart;
- the searches' reduced state keeps of each kind what :meth:`CardKind.keep` says
  (:mod:`spec.reduce`).

A scoring description names its numbers either literally or as a :class:`Ruleset` field
(``"tempura_points"``) or one entry of a tuple field (``("nigiri_points", 0)``), so a
ruleset override still changes the points and the rule numbers stay in one place.

This module imports nothing from the rest of the package (the enumerations are built on
it), and no z3: the Z3 reading of a description lives in :mod:`spec.model.scoring`.
"""

from __future__ import annotations

from collections.abc import Sequence
from sushigo.spec.frozen import frozen
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: A number in a scoring description: a literal, a Ruleset field, or (field, index).
Param = int | str | tuple[str, int]


def resolve(param: Param, rules: Any) -> Any:
    """The value of ``param`` under ``rules``."""
    if isinstance(param, int):
        return param
    if isinstance(param, str):
        return getattr(rules, param)
    field, index = param
    return getattr(rules, field)[index]


@frozen
class PerCard:
    """Every card scores ``points`` (a nigiri's points; a throwaway "4 points per card")."""

    points: Param

    def score(self, n: int, rules: Any) -> int:
        return int(resolve(self.points, rules)) * n


@frozen
class Sets:
    """Every complete set of ``size`` cards scores ``points``; leftovers score nothing."""

    size: Param
    points: Param

    def score(self, n: int, rules: Any) -> int:
        return (n // int(resolve(self.size, rules))) * int(resolve(self.points, rules))


@frozen
class ByCount:
    """A table of points by count; its last entry holds for every larger count."""

    table: Param

    def score(self, n: int, rules: Any) -> int:
        table: Sequence[int] = resolve(self.table, rules)
        return table[min(n, len(table) - 1)]


@frozen
class Icons:
    """The card shows ``icons`` rolls; the table ranks its players by rolls (maki)."""

    icons: Param

    def score(self, n: int, rules: Any) -> int:
        """The rolls ``n`` cards show (points come from the ranking, not from the card)."""
        return int(resolve(self.icons, rules)) * n


@frozen
class Ranked:
    """Kept until the game ends, then the table ranks its players by count (pudding)."""

    def score(self, n: int, rules: Any) -> int:
        return 0


@frozen
class Unscored:
    """Scores nothing by itself (wasabi, chopsticks: their part is in the mechanics)."""

    def score(self, n: int, rules: Any) -> int:
        return 0


Scoring = PerCard | Sets | ByCount | Icons | Ranked | Unscored
#: Descriptions whose points are a function of one tableau's count of the kind alone.
DISH_SCORINGS = (PerCard, Sets, ByCount)

#: Roles in the mechanics: a nigiri may lie on a free wasabi (and then scores
#: ``wasabi_multiplier`` times its points); chopsticks allow a second pick.
ROLES = ("", "nigiri", "wasabi", "chopsticks")


@frozen
class CardKind:
    """One kind of card: its name, deck copies, scoring and mechanics."""

    name: str
    copies: int
    scoring: Scoring
    category: str  # the RoundScore column its points go to ("" when it scores nothing in a round)
    rule: str  # the rule id of that scoring ("" when it scores nothing in a round)
    aliases: tuple[str, ...] = ()
    role: str = ""  # one of ROLES

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"card kind {self.name!r}: role {self.role!r} is not one of {ROLES}")
        if isinstance(self.scoring, (*DISH_SCORINGS, Icons)) and not (self.category and self.rule):
            raise ValueError(f"card kind {self.name!r} scores, so it needs a category and a rule id")
        if self.role == "nigiri" and not isinstance(self.scoring, PerCard):
            raise ValueError(f"card kind {self.name!r}: a nigiri scores per card (the wasabi multiplies it)")

    @property
    def dish(self) -> bool:
        """Its round points depend on this tableau's count of it alone."""
        return isinstance(self.scoring, DISH_SCORINGS)

    def keep(self) -> str:
        """What a search's reduced state keeps of this kind's count in a tableau.

        ``residue``: the count modulo the set size (complete sets are banked);
        ``capped``: the count up to the end of its table (more changes nothing);
        ``banked``: nothing (the points are banked at once);
        ``icons``: the rolls, summed with the other maki (the ranking needs only the sum);
        ``count``: the count itself (pudding ranks at game end; wasabi and chopsticks act).
        """
        s = self.scoring
        if isinstance(s, Sets):
            return "residue"
        if isinstance(s, ByCount):
            return "capped"
        if isinstance(s, PerCard):
            return "banked"
        if isinstance(s, Icons):
            return "icons"
        return "count"


@frozen
class TokenKind:
    """What can lie in a final tableau: one card, or a nigiri on a wasabi (two cards)."""

    label: str
    cards: tuple[int, ...]  # indexes into the kinds
    multiplier: bool = False  # a stack: the nigiri's points times the wasabi multiplier


#: The base game's 12 kinds, in the order of the ``Card`` enumeration (rulebook component list).
KINDS: tuple[CardKind, ...] = (
    CardKind("tempura", 14, Sets("tempura_set", "tempura_points"), "tempura", "R-TEMPURA", ("tem",)),
    CardKind("sashimi", 14, Sets("sashimi_set", "sashimi_points"), "sashimi", "R-SASHIMI", ("sas",)),
    CardKind("dumpling", 14, ByCount("dumpling_points"), "dumpling", "R-DUMPLING", ("dum", "dumplings")),
    CardKind("maki1", 6, Icons(("maki_icons", 0)), "maki", "R-MAKI-ICONS", ("m1",)),
    CardKind("maki2", 12, Icons(("maki_icons", 1)), "maki", "R-MAKI-ICONS", ("m2",)),
    CardKind("maki3", 8, Icons(("maki_icons", 2)), "maki", "R-MAKI-ICONS", ("m3",)),
    CardKind("egg", 5, PerCard(("nigiri_points", 0)), "nigiri", "R-NIGIRI", (), "nigiri"),
    CardKind("salmon", 10, PerCard(("nigiri_points", 1)), "nigiri", "R-NIGIRI", ("sal",), "nigiri"),
    CardKind("squid", 5, PerCard(("nigiri_points", 2)), "nigiri", "R-NIGIRI", ("sq",), "nigiri"),
    CardKind("pudding", 10, Ranked(), "", "", ("pud",)),
    CardKind("wasabi", 6, Unscored(), "", "", ("was", "wa"), "wasabi"),
    CardKind("chopsticks", 4, Unscored(), "", "", ("chop", "cs"), "chopsticks"),
)


def tokens_of(kinds: Sequence[CardKind]) -> tuple[TokenKind, ...]:
    """The tokens of a tableau: every kind, then a stack ``wasabi+<nigiri>`` per nigiri kind."""
    wasabi = [i for i, k in enumerate(kinds) if k.role == "wasabi"]
    out = [TokenKind(k.name, (i,)) for i, k in enumerate(kinds)]
    if wasabi:
        out += [TokenKind(f"{kinds[wasabi[0]].name}+{k.name}", (wasabi[0], i), True)
                for i, k in enumerate(kinds) if k.role == "nigiri"]
    return tuple(out)


def categories_of(kinds: Sequence[CardKind]) -> tuple[str, ...]:
    """The round's scoring columns in order of first appearance, maki (the ranking) last."""
    seen: list[str] = []
    for k in kinds:
        if k.dish and k.category not in seen:
            seen.append(k.category)
    return (*seen, "maki")


def dish_rules(kinds: Sequence[CardKind]) -> dict[str, str]:
    """The rule id of each dish category (every kind of a category shares it)."""
    return {k.category: k.rule for k in kinds if k.dish}


def aliases_of(kinds: Sequence[CardKind]) -> dict[str, str]:
    """Short names accepted on input -> the kind's name."""
    return {alias: k.name for k in kinds for alias in k.aliases}


def deck_of(kinds: Sequence[CardKind]) -> tuple[int, ...]:
    """Copies per kind in the printed deck."""
    return tuple(k.copies for k in kinds)


def dish_points_of(
    counts: Sequence[int], rules: Any, kinds: Sequence[CardKind] = KINDS
) -> dict[str, int]:
    """Dish points per category of one tableau's token counts (``tokens_of(kinds)`` order).

    The general reading of the descriptions, for any list of kinds. :mod:`spec.scoring`
    precomputes the same numbers into tables for the official kinds (its fast path);
    tests check the two agree.
    """
    out = {c: 0 for c in categories_of(kinds)[:-1]}
    for i, tok in enumerate(tokens_of(kinds)):
        kind = kinds[tok.cards[-1]]
        if not kind.dish:
            continue
        if tok.multiplier:
            pts = kind.scoring.score(counts[i], rules) * int(rules.wasabi_multiplier)
        else:
            pts = kind.scoring.score(counts[i], rules)
        out[kind.category] += pts
    return out


def icons_of(counts: Sequence[int], rules: Any, kinds: Sequence[CardKind] = KINDS) -> int:
    """Maki rolls of one tableau's token counts."""
    return sum(k.scoring.score(counts[i], rules) for i, k in enumerate(kinds) if isinstance(k.scoring, Icons))
