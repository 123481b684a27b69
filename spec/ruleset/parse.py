"""A ruleset from text: a named ruleset (or a rules file) and ``NAME=VALUE`` overrides, as
``--rules`` and ``--rule`` give them."""

from __future__ import annotations

import os
from collections.abc import Mapping
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

from sushigo.spec.errors import RulesError
from sushigo.spec.kinds import KINDS
from sushigo.spec.ruleset.named import RULESETS
from sushigo.spec.ruleset.numbers import (
    NUMBERS,
    PLAYER_LIMITS,
    SETTABLE_BY_NAME,
    Shape,
    _kind_index,
    format_number,
    parse_number,
)
from sushigo.spec.ruleset.readings import PARAMETER_BY_NAME, format_value, parse_value
from sushigo.spec.ruleset.value import Ruleset


def get_ruleset(name: str, overrides: list[str] | tuple[str, ...] = ()) -> Ruleset:
    """A named ruleset (or a rules file: a .toml name or a path, :mod:`spec.rulefile`) with
    ``NAME=VALUE`` overrides applied (in order)."""
    if isinstance(name, os.PathLike):
        name = os.fspath(name)
    if not isinstance(name, str):
        raise RulesError(f"a ruleset is named by a string (see 'sushigo rules') or a rules file's path, "
                         f"got {name!r:.60}")
    key = name.strip().lower()
    if key in RULESETS:
        # No named ruleset's name is a rules file's (tests/test_rulefile.py), so the common case
        # does without importing spec.rulefile: a part of 'sushigo score's start-up.
        return apply_overrides(RULESETS[key], overrides)
    from sushigo.spec import rulefile  # lazy: rulefile builds on this package

    if rulefile.is_rules_path(name):
        return apply_overrides(rulefile.load_rules_file(name), overrides)
    import difflib

    near = difflib.get_close_matches(key, list(RULESETS), n=1, cutoff=0.5)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    raise RulesError(f"unknown ruleset {name!r}{hint} (rulesets: {', '.join(RULESETS)})")


def apply_overrides(rules: Ruleset, overrides: list[str] | tuple[str, ...]) -> Ruleset:
    """``rules`` with ``NAME=VALUE`` overrides applied in order: a reading (:data:`PARAMETERS`) or a
    rule number (:data:`NUMBERS`; ``deck.KIND=N`` for one kind's copies). The result is named
    ``BASE[NAME=VALUE, ...]`` when it differs from ``rules``; it is validated as it is built."""
    changes: dict[str, Any] = {}
    labels: dict[str, str] = {}  # what the name shows, per parameter (deck: per kind)
    # The overrides so far, read without building a Ruleset: the result is validated once, after
    # the last override, so their order never matters (deck.tempura=0 before deck.sashimi=30).
    current = _Overridden(rules, changes)
    for item in overrides:
        pname, sep, value = item.partition("=")
        pname = pname.strip().replace("-", "_")
        if not sep:
            raise RulesError(f"rule override {item!r} must look like NAME=VALUE")
        head, dot, kind = pname.partition(".")
        number = SETTABLE_BY_NAME.get(head)
        if number is not None and (number.shape is Shape.DECK) == bool(dot):
            changes[number.name] = parse_number(number, value, current, kind if dot else None)
            label = f"deck.{KINDS[_kind_index(kind, item)].name}" if dot else number.name
            labels[label] = f"{label}={value.strip() if dot else format_number(number, changes[number.name])}"
            continue
        param = PARAMETER_BY_NAME.get(pname)
        if param is None:
            if number is not None:  # deck without a kind, or a kind after a number that has none
                raise RulesError(f"rule {pname}: write "
                                 + ("deck.KIND=N, e.g. deck.squid=10" if number.shape is Shape.DECK
                                    else f"{number.name}=VALUE without a '.'"))
            import difflib

            names = [*PARAMETER_BY_NAME, *SETTABLE_BY_NAME]
            near = difflib.get_close_matches(head, names, n=1, cutoff=0.6)
            hint = f"; did you mean {near[0] + ('.KIND' if near[0] == 'deck' else '')!r}?" if near else ""
            raise RulesError(
                f"unknown rule parameter {pname!r}{hint} (parameters: {', '.join(PARAMETER_BY_NAME)}; "
                f"numbers: {', '.join(n.name + ('.KIND' if n.shape is Shape.DECK else '') for n in NUMBERS)}"
                f", {', '.join(n.name for n in PLAYER_LIMITS)})"
            )
        changes[param.name] = parse_value(param, value)
        labels[param.name] = f"{param.name}={format_value(changes[param.name])}"
    if not changes:
        return rules
    new = rules.replace(**changes)
    if new.replace(name=rules.name) != rules:
        new = new.replace(name=f"{rules.name}[{', '.join(labels.values())}]")
    return new


class _Overridden:
    """A ruleset's fields with the overrides so far on top, read as attributes (never validated)."""

    def __init__(self, rules: Ruleset, changes: Mapping[str, Any]) -> None:
        self._rules, self._changes = rules, changes

    def __getattr__(self, name: str) -> Any:
        if name in self._changes:
            return self._changes[name]
        return getattr(self._rules, name)
