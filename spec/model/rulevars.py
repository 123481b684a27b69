"""A model built once per shape: the ruleset's numbers and readings as the model's inputs.

A model built from a :class:`~spec.ruleset.Ruleset` has every rule number written into its
terms as a numeral (``5 * (n div 2)`` for tempura), so each ruleset needs a model of its own;
``sushigo check`` visits 16 named rulesets and a new combination of readings per
``mixed-readings`` case, and built a model for nearly every ruleset and seat count it met.
A model built from :class:`RuleVars` instead reads each number (and each reading, as the
values it decides: a tied share, a flag) as an integer variable, ``rule_tempura_points`` and
so on, made the first time the builder asks for it. The same builders write both
(:mod:`spec.model.scoring`, :mod:`spec.model.turns`, :mod:`spec.model.deal`), so the two
state the same rules; the template fixed by ``rule_x == value`` for every variable
(:meth:`RuleVars.values`) is the ruleset's own model.

What stays structural is the *shape* (:func:`shape_of`): the seats and players, the hand
size and the rounds (the number of turns and rounds modelled), the dummy, and the length of
each table by count (one ``If`` per entry). Rulesets of one shape share one template.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import z3
from sushigo.spec.kinds import KINDS, ByCount, resolve
from sushigo.spec.model.core import Model, mk_eq
from sushigo.spec.ruleset import Ruleset


class RuleVars:
    """The rule values a template reads, each an integer input made at its first read.

    ``shape`` is the ruleset the template was first built for: only its structure is read
    (:func:`shape_of`); every number and reading comes from the variables. ``vars`` and
    :meth:`values` list the variables and, for a ruleset of the same shape, their values, in
    one order (the order of first reads).
    """

    def __init__(self, m: Model, shape: Ruleset) -> None:
        self.m = m
        self.shape = shape
        self.vars: list[z3.ArithRef] = []
        self._reads: list[Callable[[Ruleset], int]] = []
        self._by_key: dict[str, z3.ArithRef] = {}

    def number(self, key: str, read: Callable[[Ruleset], int]) -> z3.ArithRef:
        """The input ``rule_<key>``, whose value under a ruleset is ``read(ruleset)``."""
        v = self._by_key.get(key)
        if v is None:
            v = self.m.int(f"rule_{key}", None)
            self._by_key[key] = v
            self.vars.append(v)
            self._reads.append(read)
        return v

    def flag(self, key: str, read: Callable[[Ruleset], bool]) -> z3.BoolRef:
        """``rule_<key> == 1``: a reading's yes or no (inputs are integers, 1 for yes)."""
        return mk_eq(self.number(key, lambda r: int(read(r))), 1)

    def param(self, param: Any) -> z3.ArithRef:
        """A card kind description's number (:func:`spec.kinds.resolve`'s ``Param``)."""
        key = param if isinstance(param, str) else f"{param[0]}_{param[1]}" if isinstance(param, tuple) \
            else f"literal_{param}"
        return self.number(key, lambda r: int(resolve(param, r)))

    def copies(self, card: int) -> z3.ArithRef:
        return self.number(f"deck_{KINDS[card].name}", lambda r: r.deck[card])

    def values(self, rules: Ruleset) -> list[int]:
        """The value of every variable under ``rules`` (a ruleset of this template's shape)."""
        return [read(rules) for read in self._reads]

    def facts(self, rules: Ruleset) -> list[z3.BoolRef]:
        """``rule_x == value`` for every variable: the template becomes ``rules``' model."""
        return [mk_eq(v, x) for v, x in zip(self.vars, self.values(rules), strict=True)]


Rules = Ruleset | RuleVars


def shape_of(rules: Ruleset, players: int | None = None) -> tuple[Any, ...]:
    """What a template's structure depends on: rulesets with equal shapes share one template.

    The tables by count (their length: one ``If`` per entry), the dummy, the rounds and, for
    ``players``, the seats and hand size. Every other number and every reading is an input.
    """
    tables = tuple(len(resolve(k.scoring.table, rules)) for k in KINDS if isinstance(k.scoring, ByCount))
    out: tuple[Any, ...] = (tables, rules.dummy_2p, rules.rounds)
    if players is not None:
        out += (players, rules.seats(players), rules.hand_size(players))
    return out


def concrete(rules: Rules) -> Ruleset | None:
    """The ruleset itself, or None for a template's variables."""
    return rules if isinstance(rules, Ruleset) else None


def numbers(rules: RuleVars, key: str, count: int,
            read: Callable[[Ruleset], Sequence[int]]) -> list[z3.ArithRef]:
    """``count`` inputs ``rule_<key>_<k>`` for the entries of a list the ruleset holds."""
    return [rules.number(f"{key}_{k}", lambda r, k=k: int(read(r)[k])) for k in range(count)]  # type: ignore[misc]
