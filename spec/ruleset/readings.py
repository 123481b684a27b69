"""The contested readings: each point where the rule texts disagree or say nothing, as a closed
enumeration of its values, with the texts that support each value, declared once in
:data:`PARAMETERS` (see ``docs/RULES-READINGS.md`` and ``sushigo rules``).

``official`` follows the Gamewright rulebook (the English text); where it is silent we pick the
reading most players use and say so in its :class:`Parameter`. A :class:`~spec.ruleset.Ruleset`
holds one value per reading and decides each one exhaustively (``Ruleset.maki_share`` and the
rest); every other list of readings in the toolkit derives from this table.
"""

from __future__ import annotations

import enum
from sushigo.spec.frozen import frozen
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

from sushigo.spec.errors import RulesError, assert_never


class MakiFirstTie(enum.StrEnum):
    SPLIT = "split"
    EACH = "each"
    HALF = "half"


class MakiSecondTie(enum.StrEnum):
    SPLIT = "split"
    EACH = "each"


class PenaltyRounding(enum.StrEnum):
    TOWARD_ZERO = "toward-zero"
    TOWARD_MINUS_INFINITY = "toward-minus-infinity"


class PuddingAllTied(enum.StrEnum):
    NOBODY = "nobody"
    BOTH = "both"


class WasabiPlacement(enum.StrEnum):
    AUTOMATIC = "automatic"
    OPTIONAL = "optional"


class WinnerTie(enum.StrEnum):
    SHARED = "shared"
    NONE = "none"


class Passing(enum.StrEnum):
    LEFT = "left"
    BOTH_WAYS = "both-ways"


class Effect(enum.StrEnum):
    """Which part of the game a reading acts on (``diff`` searches each part its own way)."""

    SCORING = "scoring"  # how a final position scores (a table of tableaux is a witness)
    PICK = "pick"  # which picks are legal and where a card goes (a pick sequence is a witness)
    DEAL = "deal"  # where hands go (a deal is a witness)


class Observability(enum.StrEnum):
    """What ``sushigo conform`` can ask a target about a reading (its scoring protocol)."""

    ROUND = "round"  # seen in round scores of final tableaux
    PUDDING = "pudding"  # seen in end-of-game pudding points
    NONE = "none"  # not part of what a target is asked (placement, passing, the dummy, the winner)


@frozen
class Parameter:
    """One contested reading, declared once: everything else that lists readings derives from here.

    ``rule_id`` names the reading's own rule (constraint groups, cores, the catalogue);
    ``related_ids`` the rules it qualifies (a witness for the reading cites them too).
    ``support`` says, per value, which rule texts support it (cited by language, in our words).
    ``statement`` is the catalogue's line for ``rule_id`` and ``listed_after`` the catalogue id
    it follows (rulebook order); ``words`` the scoresheet's short explanation, if it has one.
    ``check_family`` is the ``sushigo check`` family that exercises every value (an edge-case
    family of ``checks/edge_cases.py`` where one exists).
    """

    name: str
    question: str
    values: tuple[Any, ...]
    support: tuple[tuple[Any, str], ...]  # (value, which texts support it, in our words)
    rule_id: str
    related_ids: tuple[str, ...]
    effect: Effect
    observability: Observability
    check_family: str
    statement: str
    listed_after: str
    words: str | None = None

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return (self.rule_id, *self.related_ids)

    @property
    def observable(self) -> bool:
        """Whether ``conform`` can observe the reading through the scoring protocol."""
        match self.observability:
            case Observability.ROUND | Observability.PUDDING:
                return True
            case Observability.NONE:
                return False
            case _:
                assert_never(self.observability)

    def coerce(self, value: Any) -> Any:
        """``value`` as this parameter's own value (an enum member from its text), or RulesError."""
        for v in self.values:
            if type(v) is bool:
                if type(value) is bool and value == v:
                    return v
            elif isinstance(value, str) and value == v:
                return v
        raise RulesError(
            f"rule {self.name}={value!r} is not allowed; choose one of "
            f"{', '.join(format_value(v) for v in self.values)}"
        )


PARAMETERS: tuple[Parameter, ...] = (
    Parameter(
        "maki_first_tie",
        "Several players tie for most maki icons",
        tuple(MakiFirstTie),
        (
            (MakiFirstTie.SPLIT, "English (rulebook): share the first-place points, remainder dropped, "
                                 "no second place; Slovenian: same"),
            (MakiFirstTie.EACH, "French: every tied player gets the full first-place points, "
                                "no second place"),
            (MakiFirstTie.HALF, "Dutch: the tied players get half the first-place points (3) each, "
                                "nobody gets second place"),
        ),
        "R-MAKI-TIE-FIRST",
        related_ids=("R-MAKI-FIRST",),
        effect=Effect.SCORING,
        observability=Observability.ROUND,
        check_family="edge-maki-ties",
        statement="Players tied for most maki icons share, each take, or halve the first-place "
                  "points, by ruleset; nobody places second.",
        listed_after="R-MAKI-SECOND",
        words="a tie for most maki shares the first-place points",
    ),
    Parameter(
        "maki_second_tie",
        "Several players tie for second most maki icons",
        tuple(MakiSecondTie),
        (
            (MakiSecondTie.SPLIT, "English: share the second-place points (remainder dropped, as for "
                                  "first); Slovenian: shared, rounded down"),
            (MakiSecondTie.EACH, "French: every tied player gets the full second-place points"),
        ),
        "R-MAKI-TIE-SECOND",
        related_ids=("R-MAKI-SECOND",),
        effect=Effect.SCORING,
        observability=Observability.ROUND,
        check_family="edge-maki-ties",
        statement="Players tied for second share (remainder dropped) or each take the "
                  "second-place points, by ruleset.",
        listed_after="R-MAKI-TIE-FIRST",
        words="a tie for second shares the second-place points",
    ),
    Parameter(
        "pudding_penalty_rounding",
        "How a shared fewest-pudding penalty is rounded",
        tuple(PenaltyRounding),
        (
            (PenaltyRounding.TOWARD_ZERO, "English (rulebook): each loses the penalty divided by the "
                                          "number tied, remainder dropped (4 tied lose 1 each); French: "
                                          "same; Dutch: split, rounding not stated"),
            (PenaltyRounding.TOWARD_MINUS_INFINITY, "Slovenian, read literally: the negative share is "
                                                    "rounded down to the more negative integer (4 tied "
                                                    "lose 2 each)"),
        ),
        "R-PUDDING-SPLIT",
        related_ids=("R-PUDDING-FEWEST",),
        effect=Effect.SCORING,
        observability=Observability.PUDDING,
        check_family="edge-pudding-ties",
        statement="How a shared pudding penalty is rounded: toward zero or toward minus infinity.",
        listed_after="R-PUDDING-FEWEST",
    ),
    Parameter(
        "pudding_all_tied",
        "Every player has the same number of puddings",
        tuple(PuddingAllTied),
        (
            (PuddingAllTied.NOBODY, "English (rulebook): nobody scores pudding points"),
            (PuddingAllTied.BOTH, "Dutch, Slovenian, French are silent; read literally, the most and "
                                  "the fewest rules both apply to everyone"),
        ),
        "R-PUDDING-ALL-TIED",
        related_ids=(),
        effect=Effect.SCORING,
        observability=Observability.PUDDING,
        check_family="edge-pudding-ties",
        statement="When every player has the same number of puddings, nobody scores them "
                  "(or both rules apply, by ruleset).",
        listed_after="R-PUDDING-2P",
        words="pudding points are the most-pudding bonus plus the fewest-pudding penalty "
              "(when everyone is tied, as the all-tied reading says)",
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
        related_ids=("R-PUDDING-FEWEST",),
        effect=Effect.SCORING,
        observability=Observability.PUDDING,
        check_family="edge-pudding-ties",
        statement="With two players the fewest-pudding penalty is not paid (unless the ruleset says so).",
        listed_after="R-PUDDING-SPLIT",
    ),
    Parameter(
        "wasabi_placement",
        "Must a nigiri taken with a free wasabi go on it",
        tuple(WasabiPlacement),
        (
            (WasabiPlacement.AUTOMATIC, "English (rulebook): it goes on the wasabi; French: onto a "
                                        "wasabi already there"),
            (WasabiPlacement.OPTIONAL, "Slovenian: 'if you place' a nigiri on a wasabi; Dutch: a "
                                       "wasabi may be combined with a nigiri"),
        ),
        "R-WASABI-PLACE",
        related_ids=(),
        effect=Effect.PICK,
        observability=Observability.NONE,
        check_family="edge-wasabi-orders",
        statement="A nigiri taken while a free wasabi lies in front of the player goes on it "
                  "(automatic or optional, by ruleset).",
        listed_after="R-CHOPSTICKS-RETURN",
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
        related_ids=(),
        effect=Effect.PICK,
        observability=Observability.NONE,
        check_family="edge-wasabi-orders",
        statement="Whether a wasabi taken first in a chopsticks turn can hold the nigiri "
                  "taken second.",
        listed_after="R-WASABI-ONE",
    ),
    Parameter(
        "winner_tie",
        "Players still tied after the pudding tie-break",
        tuple(WinnerTie),
        (
            (WinnerTie.SHARED, "Slovenian: the tied players share the win; English, French, Dutch "
                               "silent (we follow the Slovenian text by default)"),
            (WinnerTie.NONE, "No text; a reading of the silence: nobody wins"),
        ),
        "R-WINNER-TIE",
        related_ids=(),
        effect=Effect.SCORING,
        observability=Observability.NONE,
        check_family="winners",
        statement="Players still tied after the pudding tie-break share the win, or nobody wins, "
                  "by ruleset.",
        listed_after="R-WINNER",
    ),
    Parameter(
        "passing",
        "Direction hands are passed",
        tuple(Passing),
        (
            (Passing.LEFT, "All four texts: always to the left"),
            (Passing.BOTH_WAYS, "Rulebook variant: rounds 1 and 3 pass left, round 2 passes right"),
        ),
        "R-PASS",
        related_ids=(),
        effect=Effect.DEAL,
        observability=Observability.NONE,
        check_family="executor-games",
        statement="After each turn the rest of the hand goes to the next player (left; the printed "
                  "variant passes right in the second round).",
        listed_after="R-TABLEAU",
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
        related_ids=(),
        effect=Effect.SCORING,
        observability=Observability.NONE,
        check_family="executor-games",
        statement="Two-player variant: a third, dummy hand is played by the players in turn and scored "
                  "as a third seat.",
        listed_after="R-WASABI-SAME-TURN",
    ),
)

PARAMETER_BY_NAME: dict[str, Parameter] = {p.name: p for p in PARAMETERS}


def format_value(value: Any) -> str:
    """A reading's value as ``--rule`` and ``sushigo rules`` write it (booleans as yes/no)."""
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
        f"{', '.join(format_value(v) for v in param.values)}"
    )
