"""Rulesets: every rule number and every contested reading, in one frozen value.

The executor, the Z3 model, the solvers and the checks all read a
:class:`Ruleset`; no point value or deck count is written anywhere else.

Contested readings (see ``docs/RULES-READINGS.md`` and ``sushigo rules``) are
the parameters listed in :data:`PARAMETERS`. ``official`` follows the
Gamewright rulebook (the English text); where it is silent we pick the reading
most players use and say so in :data:`PARAMETERS`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from sushigo.spec.cards import Card
from sushigo.spec.errors import RulesError
from sushigo.spec.kinds import KINDS, deck_of

# The printed deck, card kind -> copies (rulebook component list), from the kinds' definitions.
_DECK: tuple[int, ...] = deck_of(KINDS)


@dataclass(frozen=True)
class Parameter:
    """One contested reading: its allowed values and which text supports which."""

    name: str
    question: str
    values: tuple[Any, ...]
    support: tuple[tuple[Any, str], ...]  # (value, which texts support it, in our words)
    rule_id: str


PARAMETERS: tuple[Parameter, ...] = (
    Parameter(
        "maki_first_tie",
        "Several players tie for most maki icons",
        ("split", "each", "half"),
        (
            ("split", "English (rulebook): share the first-place points, remainder dropped, "
                      "no second place; Slovenian: same"),
            ("each", "French: every tied player gets the full first-place points, no second place"),
            ("half", "Dutch: the tied players get half the first-place points (3) each, "
                     "nobody gets second place"),
        ),
        "R-MAKI-TIE-FIRST",
    ),
    Parameter(
        "maki_second_tie",
        "Several players tie for second most maki icons",
        ("split", "each"),
        (
            ("split", "English: share the second-place points (remainder dropped, as for first); "
                      "Slovenian: shared, rounded down"),
            ("each", "French: every tied player gets the full second-place points"),
        ),
        "R-MAKI-TIE-SECOND",
    ),
    Parameter(
        "pudding_penalty_rounding",
        "How a shared fewest-pudding penalty is rounded",
        ("toward-zero", "toward-minus-infinity"),
        (
            ("toward-zero", "English (rulebook): each loses the penalty divided by the number tied, "
                            "remainder dropped (4 tied lose 1 each); French: same; Dutch: split, "
                            "rounding not stated"),
            ("toward-minus-infinity", "Slovenian, read literally: the negative share is rounded down "
                                      "to the more negative integer (4 tied lose 2 each)"),
        ),
        "R-PUDDING-SPLIT",
    ),
    Parameter(
        "pudding_all_tied",
        "Every player has the same number of puddings",
        ("nobody", "both"),
        (
            ("nobody", "English (rulebook): nobody scores pudding points"),
            ("both", "Dutch, Slovenian, French are silent; read literally, the most and the fewest "
                     "rules both apply to everyone"),
        ),
        "R-PUDDING-ALL-TIED",
    ),
    Parameter(
        "pudding_penalty_2p",
        "Is the fewest-pudding penalty paid in a 2-player game",
        (False, True),
        (
            (False, "English, Slovenian, French, Dutch: no penalty with 2 players"),
            (True, "No text; a common house rule and a common engine bug"),
        ),
        "R-PUDDING-2P",
    ),
    Parameter(
        "wasabi_placement",
        "Must a nigiri taken with a free wasabi go on it",
        ("automatic", "optional"),
        (
            ("automatic", "English (rulebook): it goes on the wasabi; French: onto a wasabi already there"),
            ("optional", "Slovenian: 'if you place' a nigiri on a wasabi; Dutch: a wasabi may be "
                         "combined with a nigiri"),
        ),
        "R-WASABI-PLACE",
    ),
    Parameter(
        "wasabi_same_turn",
        "In a chopsticks turn, does a wasabi taken first hold the nigiri taken second",
        (True, False),
        (
            (True, "Not covered by any text; a ruling attributed to the designer lets the player "
                   "order the two cards, so yes"),
            (False, "English and French say 'already' there: read strictly, a wasabi taken in the "
                    "same turn does not count"),
        ),
        "R-WASABI-SAME-TURN",
    ),
    Parameter(
        "winner_tie",
        "Players still tied after the pudding tie-break",
        ("shared", "none"),
        (
            ("shared", "Slovenian: the tied players share the win; English, French, Dutch silent "
                       "(we follow the Slovenian text by default)"),
            ("none", "No text; a reading of the silence: nobody wins"),
        ),
        "R-WINNER-TIE",
    ),
    Parameter(
        "passing",
        "Direction hands are passed",
        ("left", "both-ways"),
        (
            ("left", "All four texts: always to the left"),
            ("both-ways", "Rulebook variant: rounds 1 and 3 pass left, round 2 passes right"),
        ),
        "R-PASS",
    ),
    Parameter(
        "dummy_2p",
        "Two-player game with a dummy third hand",
        (False, True),
        (
            (False, "All four texts: the plain game"),
            (True, "Rulebook variant: three hands of 9, a face-down dummy pile controlled by the "
                   "players in turn, scored as a third player"),
        ),
        "R-DUMMY",
    ),
)

PARAMETER_BY_NAME: dict[str, Parameter] = {p.name: p for p in PARAMETERS}


@dataclass(frozen=True)
class Ruleset:
    """Every number and reading of the rules. Frozen; derive variants with :meth:`replace`."""

    name: str = "official"
    # --- components and flow (rulebook) ---
    deck: tuple[int, ...] = _DECK  # copies per Card, indexed by Card
    hand_sizes: tuple[tuple[int, int], ...] = ((2, 10), (3, 9), (4, 8), (5, 7))
    dummy_hand_size: int = 9
    rounds: int = 3
    min_players: int = 2
    max_players: int = 5
    # --- round scoring (rulebook) ---
    tempura_set: int = 2
    tempura_points: int = 5
    sashimi_set: int = 3
    sashimi_points: int = 10
    dumpling_points: tuple[int, ...] = (0, 1, 3, 6, 10, 15)  # by count; the last holds beyond
    nigiri_points: tuple[int, int, int] = (1, 2, 3)  # egg, salmon, squid
    wasabi_multiplier: int = 3
    maki_icons: tuple[int, int, int] = (1, 2, 3)  # maki1, maki2, maki3
    maki_first_points: int = 6
    maki_second_points: int = 3
    # --- end of game (rulebook) ---
    pudding_most_points: int = 6
    pudding_fewest_penalty: int = 6
    # --- contested readings ---
    maki_first_tie: str = "split"
    maki_second_tie: str = "split"
    pudding_penalty_rounding: str = "toward-zero"
    pudding_all_tied: str = "nobody"
    pudding_penalty_2p: bool = False
    wasabi_placement: str = "automatic"
    wasabi_same_turn: bool = True
    winner_tie: str = "shared"
    passing: str = "left"
    dummy_2p: bool = False
    # free text: where this ruleset comes from
    source: str = field(default="Gamewright rulebook (English text)", compare=False)

    def __post_init__(self) -> None:
        for p in PARAMETERS:
            value = getattr(self, p.name)
            if value not in p.values or type(value) is not type(p.values[0]):
                raise RulesError(
                    f"rule {p.name}={value!r} is not allowed; choose one of "
                    f"{', '.join(_fmt_value(v) for v in p.values)}"
                )
        if len(self.deck) != len(Card):
            raise RulesError(f"deck must list {len(Card)} card counts, got {len(self.deck)}")

    # --- derived numbers ---
    def hand_size(self, players: int) -> int:
        """Cards dealt to each hand for a game of ``players`` seats (the dummy counts as a hand)."""
        if self.dummy_2p:
            if players not in (2, 3):
                raise RulesError(f"the dummy-2p variant is for 2 players, not {players}")
            return self.dummy_hand_size
        for n, size in self.hand_sizes:
            if n == players:
                return size
        raise RulesError(
            f"{players} players is not allowed; Sushi Go! takes "
            f"{self.min_players} to {self.max_players} players"
        )

    def seats(self, players: int) -> int:
        """Tableaux scored at the table: the players, plus the dummy in ``dummy_2p``."""
        return players + 1 if self.dummy_2p else players

    def deck_size(self) -> int:
        return sum(self.deck)

    def copies(self, card: Card) -> int:
        return self.deck[int(card)]

    def dumpling_score(self, n: int) -> int:
        table = self.dumpling_points
        return table[n] if n < len(table) else table[-1]

    def pass_offset(self, round_index: int) -> int:
        """+1 when hands go to the left (seat i gives to seat i+1), -1 to the right.

        ``round_index`` counts from 0.
        """
        if self.passing == "both-ways" and round_index % 2 == 1:
            return -1
        return 1

    def pudding_penalty_applies(self, seats: int) -> bool:
        return seats > 2 or self.pudding_penalty_2p

    def replace(self, **changes: Any) -> Ruleset:
        return dataclasses.replace(self, **changes)

    def readings(self) -> dict[str, Any]:
        """The contested readings only, by parameter name."""
        return {p.name: getattr(self, p.name) for p in PARAMETERS}

    def describe(self) -> str:
        """Name plus the readings that differ from ``official``."""
        base = OFFICIAL.readings()
        diffs = [f"{k}={_fmt_value(v)}" for k, v in self.readings().items() if base[k] != v]
        return self.name + (f" ({', '.join(diffs)})" if diffs and self.name not in RULESETS else "")


def _fmt_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def parse_value(param: Parameter, text: str) -> Any:
    """A parameter value from text (``yes``/``no``/``true``/``false`` for booleans)."""
    low = text.strip().lower()
    if isinstance(param.values[0], bool):
        if low in ("yes", "true", "1", "on"):
            return True
        if low in ("no", "false", "0", "off"):
            return False
    else:
        for v in param.values:
            if low == v:
                return v
    raise RulesError(
        f"rule {param.name}={text!r} is not allowed; choose one of "
        f"{', '.join(_fmt_value(v) for v in param.values)}"
    )


OFFICIAL = Ruleset()

#: Named rulesets: the official rules, one per rule text, one per single reading,
#: and the two printed variants.
RULESETS: dict[str, Ruleset] = {
    "official": OFFICIAL,
    "english": OFFICIAL.replace(name="english", source="English text (follows the rulebook)"),
    "slovenian": OFFICIAL.replace(
        name="slovenian",
        pudding_penalty_rounding="toward-minus-infinity",
        wasabi_placement="optional",
        source="Slovenian text, contested points read literally",
    ),
    "french": OFFICIAL.replace(
        name="french", maki_first_tie="each", maki_second_tie="each", source="French text"
    ),
    "dutch": OFFICIAL.replace(
        name="dutch",
        maki_first_tie="half",
        pudding_all_tied="both",
        wasabi_placement="optional",
        source="Dutch text, contested points read literally",
    ),
    # single-reading variants of official
    "maki-first-each": OFFICIAL.replace(name="maki-first-each", maki_first_tie="each"),
    "maki-first-half": OFFICIAL.replace(name="maki-first-half", maki_first_tie="half"),
    "maki-second-each": OFFICIAL.replace(name="maki-second-each", maki_second_tie="each"),
    "pudding-floor": OFFICIAL.replace(
        name="pudding-floor", pudding_penalty_rounding="toward-minus-infinity"
    ),
    "pudding-all-tied-both": OFFICIAL.replace(name="pudding-all-tied-both", pudding_all_tied="both"),
    "pudding-penalty-2p": OFFICIAL.replace(name="pudding-penalty-2p", pudding_penalty_2p=True),
    "wasabi-optional": OFFICIAL.replace(name="wasabi-optional", wasabi_placement="optional"),
    "wasabi-strict": OFFICIAL.replace(name="wasabi-strict", wasabi_same_turn=False),
    "winner-tie-none": OFFICIAL.replace(name="winner-tie-none", winner_tie="none"),
    # the printed variants
    "pass-both-ways": OFFICIAL.replace(name="pass-both-ways", passing="both-ways"),
    "dummy-2p": OFFICIAL.replace(name="dummy-2p", dummy_2p=True),
}

#: The single-reading variants of official (each differs in exactly one parameter).
SINGLE_READING_VARIANTS: tuple[str, ...] = (
    "maki-first-each",
    "maki-first-half",
    "maki-second-each",
    "pudding-floor",
    "pudding-all-tied-both",
    "pudding-penalty-2p",
    "wasabi-optional",
    "wasabi-strict",
    "winner-tie-none",
    "pass-both-ways",
    "dummy-2p",
)


def get_ruleset(name: str, overrides: list[str] | tuple[str, ...] = ()) -> Ruleset:
    """A named ruleset with ``NAME=VALUE`` overrides applied (in order)."""
    key = name.strip().lower()
    if key not in RULESETS:
        import difflib

        near = difflib.get_close_matches(key, list(RULESETS), n=1, cutoff=0.5)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise RulesError(
            f"unknown ruleset {name!r}{hint} (rulesets: {', '.join(RULESETS)})"
        )
    rules = RULESETS[key]
    return apply_overrides(rules, overrides)


def apply_overrides(rules: Ruleset, overrides: list[str] | tuple[str, ...]) -> Ruleset:
    changes: dict[str, Any] = {}
    for item in overrides:
        pname, sep, value = item.partition("=")
        pname = pname.strip().replace("-", "_")
        if not sep:
            raise RulesError(f"rule override {item!r} must look like NAME=VALUE")
        param = PARAMETER_BY_NAME.get(pname)
        if param is None:
            raise RulesError(
                f"unknown rule parameter {pname!r} (parameters: {', '.join(PARAMETER_BY_NAME)})"
            )
        changes[param.name] = parse_value(param, value)
    if not changes:
        return rules
    new = rules.replace(**changes)
    if new.readings() != rules.readings():
        overridden = ", ".join(f"{k}={_fmt_value(v)}" for k, v in changes.items())
        new = new.replace(name=f"{rules.name}[{overridden}]")
    return new


def format_value(value: Any) -> str:
    return _fmt_value(value)
