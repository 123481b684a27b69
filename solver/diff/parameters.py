"""The contested parameters, sorted by how they act: which search looks for a witness of each."""

from __future__ import annotations

from typing import Any

from sushigo.spec.ruleset import (
    NUMBER_BY_NAME,
    NUMBERS,
    PARAMETER_BY_NAME,
    PARAMETERS,
    Effect,
    NumberParameter,
    Parameter,
    Ruleset,
    format_number,
    format_value,
)

# Which search finds a witness for a reading follows from its effect (spec.ruleset.PARAMETERS).
# The other modules read these lists as ``parameters.SCORING_PARAMS`` (an attribute of this
# module, looked up at each call), so a test that takes a parameter out of one list here changes
# what every search covers (tests/test_readings.py).
SCORING_PARAMS: tuple[str, ...] = tuple(p.name for p in PARAMETERS if p.effect is Effect.SCORING)
PICK_PARAMS: tuple[str, ...] = tuple(p.name for p in PARAMETERS if p.effect is Effect.PICK)
DEAL_PARAMS: tuple[str, ...] = tuple(p.name for p in PARAMETERS if p.effect is Effect.DEAL)
# The rule numbers (spec.ruleset.NUMBERS): a scoring number is searched with the scoring readings
# (a table is its witness); a deal number's witness is read off the numbers (solver.deal_numbers).
SCORING_NUMBERS: tuple[str, ...] = tuple(n.name for n in NUMBERS if n.effect is Effect.SCORING)


#: Scoring rule ids behind each kind of cell of a witness table.
CELL_RULES: dict[str, tuple[str, ...]] = {
    "round": ("R-ROUND-TOTAL",),
    "maki": ("R-MAKI-POINTS",),
    "pudding": ("R-PUDDING-MOST", "R-PUDDING-FEWEST"),
    "total": ("R-GAME-TOTAL",),
    "winners": ("R-WINNER", "R-WINNER-TIE"),
    "tableau": ("R-WASABI-PLACE", "R-WASABI-ONE"),
    "score": ("R-NIGIRI",),
}


DEFAULT_TIMEOUT_MS = 30_000


def differing_parameters(a: Ruleset, b: Ruleset) -> list[str]:
    """The readings, then the rule numbers, that differ between ``a`` and ``b``."""
    every: tuple[Parameter | NumberParameter, ...] = (*PARAMETERS, *NUMBERS)
    return [p.name for p in every if getattr(a, p.name) != getattr(b, p.name)]


def parameter(name: str) -> Parameter | NumberParameter:
    """A reading's or a rule number's declaration (its effect, its rule ids, its own first)."""
    param = PARAMETER_BY_NAME.get(name)
    return param if param is not None else NUMBER_BY_NAME[name]


def _value_json(rules: Ruleset, name: str) -> Any:
    """A parameter's value as JSON: a reading's value, or a rule number as ``--rule`` writes it."""
    number = NUMBER_BY_NAME.get(name)
    return getattr(rules, name) if number is None else format_number(number, getattr(rules, name))


def _with(rules: Ruleset, name: str, value: Any) -> Ruleset:
    return rules.replace(**{name: value})


def applies(rules: Ruleset, players: int) -> bool:
    """Whether the ruleset can be played by ``players`` players (the dummy variant is 2-player only)."""
    if rules.dummy_2p:
        return players == rules.min_players
    return any(n == players for n, _ in rules.hand_sizes)


def describe_parameters(a: Ruleset, b: Ruleset) -> list[tuple[str, str, str, str]]:
    """(parameter, rule id, value in a, value in b) for every differing parameter."""
    def text(rules: Ruleset, p: str) -> str:
        return str(_value_json(rules, p)) if p in NUMBER_BY_NAME else format_value(getattr(rules, p))

    return [(p, parameter(p).rule_id, text(a, p), text(b, p)) for p in differing_parameters(a, b)]
