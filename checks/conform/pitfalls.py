"""What a fault can be attributed to: a contested reading, or a known pitfall of public engines.

Each :class:`Candidate` changes one category of a :class:`~.cases.Scorer`: a reading sets
one rule parameter to another value; a pitfall plants a mutant of ``checks/mutants.py``
(its patched function built from the scorer's own, so pitfalls compose) or one of the
few pitfalls below that only the adapter protocol can show.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sushigo.checks.conform.cases import RULES_OF, Scorer
from sushigo.checks.mutants import MUTANTS, Mutant
from sushigo.spec.ruleset import OFFICIAL, PARAMETER_BY_NAME, PARAMETERS, Observability, Ruleset

#: Contested readings the adapter protocol can observe (placement, passing, the
#: dummy and the winner are not part of what a target is asked): each parameter says.
ROUND_READINGS = tuple(p.name for p in PARAMETERS if p.observability is Observability.ROUND)
PUDDING_READINGS = tuple(p.name for p in PARAMETERS if p.observability is Observability.PUDDING)

#: Scorer field a mutant's patched attribute stands for.
_FIELD = {"maki_points": "maki", "pudding_points": "puddings", "_tables": "tables",
          "apply_turn": "apply_turn"}


#: A rule id's family (the word after "R-") -> the scoring category it belongs to (from the
#: categories' rule ids, which come from the kinds: R-WASABI-ONE makes WASABI a nigiri family).
_FAMILY_CATEGORY = {rid.removeprefix("R-").split("-", 1)[0]: cat
                    for cat, rids in RULES_OF.items() for rid in rids}


def _category(rule_id: str) -> str | None:
    return _FAMILY_CATEGORY.get(rule_id.removeprefix("R-").split("-", 1)[0])


def _maki_zero_ranked(orig: Any) -> Any:
    def f(icons: Sequence[int], rules: Ruleset = OFFICIAL) -> list[int]:
        # Bug: the ranking forgets R-MAKI-ZERO; one icon more for everyone keeps the order
        # and lets the players with none place (all of them share first when nobody has maki).
        out: list[int] = orig([v + 1 for v in icons], rules)
        return out

    return f


#: Pitfalls only the adapter protocol shows (``sushigo check`` plants the MUTANTS).
PROTOCOL_PITFALLS: tuple[Mutant, ...] = (
    Mutant("maki-zero-ranked", "players with no maki icons are ranked like the others (with nobody "
           "holding maki they all share first)", "R-MAKI-ZERO", "sushigo.spec.scoring", "maki_points",
           _maki_zero_ranked),
)


@dataclass(frozen=True)
class Candidate:
    name: str  # "maki_first_tie=each" or a pitfall's name
    kind: str  # "reading" | "pitfall"
    category: str
    rule_id: str
    text: str
    apply: Callable[[Scorer], Scorer]

    def describe(self) -> str:
        if self.kind == "reading":
            return f"the reading {self.name}"
        return f"the pitfall {self.name} ({self.text})"


def _reading(pname: str, value: Any) -> Callable[[Scorer], Scorer]:
    return lambda s: replace(s, rules=s.rules.replace(**{pname: value}))


def _planted(m: Mutant) -> Callable[[Scorer], Scorer]:
    field = _FIELD[m.attr]
    return lambda s: replace(s, **{field: m.make(getattr(s, field))})


def candidates(category: str, rules: Ruleset) -> list[Candidate]:
    """Readings first (a reading is a choice the texts allow, a pitfall a mistake), then pitfalls."""
    out: list[Candidate] = []
    for pname in (*ROUND_READINGS, *PUDDING_READINGS):
        param = PARAMETER_BY_NAME[pname]
        if _category(param.rule_id) != category:
            continue
        for value in param.values:
            if value != getattr(rules, pname):
                shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
                out.append(Candidate(f"{pname}={shown}", "reading", category, param.rule_id,
                                     param.question, _reading(pname, value)))
    for m in (*MUTANTS, *PROTOCOL_PITFALLS):
        if m.attr in _FIELD and _category(m.rule_id) == category:
            out.append(Candidate(m.name, "pitfall", category, m.rule_id, m.pitfall, _planted(m)))
    return out
