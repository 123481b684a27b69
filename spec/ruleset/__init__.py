"""Rulesets: every rule number and every contested reading, in one frozen value.

The executor, the Z3 model, the solvers and the checks all read a
:class:`Ruleset`; no point value or deck count is written anywhere else.

Contested readings (see ``docs/RULES-READINGS.md`` and ``sushigo rules``) are
the parameters listed in :data:`PARAMETERS`. ``official`` follows the
Gamewright rulebook (the English text); where it is silent we pick the reading
most players use and say so in :data:`PARAMETERS`.

One idea per module; every name is imported from here (``from sushigo.spec.ruleset import X``):

- :mod:`~spec.ruleset.readings`: the readings' enumerations, the texts that support each
  value (:data:`PARAMETERS`), and a reading's value from and to text;
- :mod:`~spec.ruleset.numbers`: the rule numbers' table (:data:`NUMBERS`), their text form
  and their validation;
- :mod:`~spec.ruleset.printed`: the printed rulebook's numbers, the official ruleset's data
  (the :class:`Ruleset` defaults);
- :mod:`~spec.ruleset.value`: the :class:`Ruleset` itself, its derived numbers and the
  deciders of the readings;
- :mod:`~spec.ruleset.named`: the named rulesets (:data:`OFFICIAL`, :data:`RULESETS`);
- :mod:`~spec.ruleset.parse`: a ruleset from its name (or a rules file) and ``NAME=VALUE``
  overrides (:func:`get_ruleset`, :func:`apply_overrides`).
"""

from __future__ import annotations

from sushigo.spec.ruleset.named import OFFICIAL, RULESETS, SINGLE_READING_VARIANTS
from sushigo.spec.ruleset.numbers import (
    NUMBER_BY_NAME,
    NUMBERS,
    PLAYER_LIMITS,
    SETTABLE_BY_NAME,
    NumberParameter,
    Shape,
    format_number,
    parse_number,
    validate_numbers,
)
from sushigo.spec.ruleset.parse import apply_overrides, get_ruleset
from sushigo.spec.ruleset.readings import (
    PARAMETER_BY_NAME,
    PARAMETERS,
    Effect,
    MakiFirstTie,
    MakiSecondTie,
    Observability,
    Parameter,
    Passing,
    PenaltyRounding,
    PuddingAllTied,
    WasabiPlacement,
    WinnerTie,
    format_value,
    parse_value,
)
from sushigo.spec.ruleset.value import Ruleset

__all__ = [
    "NUMBERS",
    "NUMBER_BY_NAME",
    "OFFICIAL",
    "PARAMETERS",
    "PARAMETER_BY_NAME",
    "PLAYER_LIMITS",
    "RULESETS",
    "SETTABLE_BY_NAME",
    "SINGLE_READING_VARIANTS",
    "Effect",
    "MakiFirstTie",
    "MakiSecondTie",
    "NumberParameter",
    "Observability",
    "Parameter",
    "Passing",
    "PenaltyRounding",
    "PuddingAllTied",
    "Ruleset",
    "Shape",
    "WasabiPlacement",
    "WinnerTie",
    "apply_overrides",
    "format_number",
    "format_value",
    "get_ruleset",
    "parse_number",
    "parse_value",
    "validate_numbers",
]
