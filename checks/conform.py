"""Conformance harness: hold someone else's Sushi Go scoring against the reference.

The target is a Python file or an importable module exposing the adapter
protocol (see ``docs/checks.md`` and ``examples/conform_adapter.py``)::

    score_round(tableaux: list[list[str]]) -> list[int]
    score_puddings(counts: list[int]) -> list[int]        # optional

``tableaux`` holds, per player, the canonical card names the player took this
round in pick order (a chopsticks turn is its two cards in order; used
chopsticks are not listed). The order matters: under the official rules a
nigiri taken after a free wasabi lies on it, so the harness generates pick
*orders*, not just multisets.

Cases are the strategies of ``sushigo check`` (tables as pick orders, pudding
counts) plus every enumerated edge case (maki and pudding tie structures,
every dish count). Each disagreement is explained by the Z3 model (the rule
ids in the unsat core of "these picks score what the target said"), grouped by
those rule ids, and the first case of each group is minimised by removing
cards and seats while the same rules stay broken.

Fingerprint: for each contested reading the protocol can observe, the target
is compared with each single-reading variant of the chosen ruleset on the
cases where the variant and the ruleset disagree; the reading it matches on
those cases is the one it follows.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import strategies as st

import sushigo.spec.scoring as scoring
import sushigo.spec.turns as turns
from sushigo.checks import edge_cases as E
from sushigo.checks import strategies as S
from sushigo.checks.properties import explain, pudding_model, round_model
from sushigo.spec.cards import NIGIRI, NIGIRI_OF, Card, Token
from sushigo.spec.errors import InputError
from sushigo.spec.ruleset import PARAMETER_BY_NAME, Ruleset
from sushigo.spec.tableau import Tableau

#: Contested readings the adapter protocol can observe (placement, passing, the
#: dummy and the winner are not part of what a target is asked).
ROUND_READINGS = ("maki_first_tie", "maki_second_tie")
PUDDING_READINGS = ("pudding_penalty_rounding", "pudding_all_tied", "pudding_penalty_2p")
_GENERIC = {"R-ROUND-TOTAL", "R-DOMAIN", "FACT", "CLAIM"}


class BadTarget(InputError):
    """The target cannot be loaded or does not expose ``score_round``."""


@dataclass
class Target:
    name: str
    score_round: Callable[[list[list[str]]], Any]
    score_puddings: Callable[[list[int]], Any] | None


def load_target(spec: str) -> Target:
    """A target from a ``.py`` path or an importable module name; BadTarget with the fix if not."""
    module: ModuleType
    try:
        if spec.endswith(".py") or os.sep in spec or os.path.isfile(spec):
            if not os.path.isfile(spec):
                raise BadTarget(f"target file {spec!r} does not exist; give a .py file or a module name")
            name = "_sushigo_conform_target_" + os.path.splitext(os.path.basename(spec))[0]
            loader_spec = importlib.util.spec_from_file_location(name, spec)
            if loader_spec is None or loader_spec.loader is None:
                raise BadTarget(f"cannot load {spec!r} as a Python file")
            module = importlib.util.module_from_spec(loader_spec)
            sys.modules[name] = module
            loader_spec.loader.exec_module(module)
        else:
            module = importlib.import_module(spec)
    except BadTarget:
        raise
    except ModuleNotFoundError as exc:
        raise BadTarget(f"cannot import target {spec!r}: {exc}; give a .py file or an importable module") \
            from exc
    except Exception as exc:  # the target's own import-time error
        raise BadTarget(f"target {spec!r} failed while loading: {type(exc).__name__}: {exc}") from exc
    fn = getattr(module, "score_round", None)
    if not callable(fn):
        raise BadTarget(f"target {spec!r} has no function score_round(tableaux) -> list[int] "
                        "(see docs/checks.md, the adapter protocol)")
    pud = getattr(module, "score_puddings", None)
    return Target(spec, fn, pud if callable(pud) else None)


# --------------------------------------------------------------------------- cases


RoundCase = tuple[tuple[Card, ...], ...]  # pick orders per seat
PuddingCase = tuple[int, ...]


def picks_of_tableau(t: Tableau) -> tuple[Card, ...]:
    """A pick order that leaves exactly ``t``: bare nigiri before any free wasabi, stacks as wasabi+nigiri."""
    out: list[Card] = []
    for c in NIGIRI:
        out += [c] * t.counts[int(c)]
    for tok, nig in NIGIRI_OF.items():
        out += [Card.WASABI, nig] * t.counts[int(tok)]
    for c in Card:
        if c not in NIGIRI:
            out += [c] * t.counts[int(c)]
    return tuple(out)


def reference_tableau(picks: Sequence[Card], rules: Ruleset) -> Tableau:
    """The executor's reading of a pick order: one card a turn through ``spec.turns``."""
    hand = [0] * len(Card)
    for c in picks:
        hand[int(c)] += 1
    tab = [0] * len(Token)
    for c in picks:
        turns.apply_turn(hand, tab, (turns.Pick(c),), rules)
    return Tableau(tuple(tab))


def reference_round(case: RoundCase, rules: Ruleset) -> list[int]:
    return scoring.round_totals([reference_tableau(p, rules).counts for p in case], rules)


def _collect(strategy: st.SearchStrategy[Any], n: int, seed: int | None) -> list[Any]:
    out: list[Any] = []

    @settings(max_examples=max(1, n), derandomize=seed is None, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
              phases=[Phase.explicit, Phase.generate])
    @given(strategy)
    def grab(x: Any) -> None:
        out.append(x)

    if seed is not None:
        import hypothesis

        grab = hypothesis.seed(seed)(grab)
    grab()
    return out


def round_cases(rules: Ruleset, n: int, seed: int | None) -> list[RoundCase]:
    cases: list[RoundCase] = []
    for seats in E.seat_range(rules):
        for ec in E.maki_cases(seats, rules):
            if ec.value is not None:
                cases.append(tuple(picks_of_tableau(t) for t in ec.tableaux()))
    for ec in E.dish_cases(rules):
        cases.append(tuple(picks_of_tableau(t) for t in ec.tableaux()))
    others: tuple[tuple[Card, ...], ...] = ((),) * (min(E.seat_range(rules)) - 1)
    cases += [(order, *others) for order in E.wasabi_orders()]
    cases += [t.picks for t in _collect(S.tables(rules), n, seed)]
    return cases


def pudding_cases(rules: Ruleset, n: int, seed: int | None) -> list[PuddingCase]:
    cases: list[PuddingCase] = []
    for seats in E.seat_range(rules):
        cases += [ec.value for ec in E.pudding_cases(seats, rules) if ec.value is not None]  # type: ignore[misc]
    cases += _collect(S.pudding_counts(rules), n, seed)
    return cases


# --------------------------------------------------------------------------- comparing


def _names(case: RoundCase) -> list[list[str]]:
    return [[c.label for c in p] for p in case]


def _call(fn: Callable[[Any], Any], arg: Any, seats: int) -> tuple[list[int] | None, str]:
    """The target's answer, or None and what was wrong with it."""
    try:
        got = fn(arg)
    except Exception as exc:
        return None, f"raised {type(exc).__name__}: {exc}"
    if not isinstance(got, list | tuple) or len(got) != seats or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in got
    ):
        return None, f"returned {got!r}, not a list of {seats} ints"
    return list(got), ""


@dataclass
class Disagreement:
    kind: str  # "round" | "pudding"
    rule_ids: tuple[str, ...]
    case: str
    expected: list[int]
    actual: str
    count: int = 1
    first_case: str = ""
    reading: str = ""  # the single contested reading that explains it, if one does

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "rule_ids": list(self.rule_ids), "case": self.case,
                "expected": self.expected, "actual": self.actual, "cases": self.count,
                "first_seen": self.first_case, "explained_by_reading": self.reading or None}


_CATEGORY = {
    Card.TEMPURA: "tempura", Card.SASHIMI: "sashimi", Card.DUMPLING: "dumpling",
    Card.MAKI1: "maki", Card.MAKI2: "maki", Card.MAKI3: "maki",
    Card.EGG: "nigiri", Card.SALMON: "nigiri", Card.SQUID: "nigiri", Card.WASABI: "nigiri",
    Card.PUDDING: "pudding", Card.CHOPSTICKS: "chopsticks",
}
#: Rule ids of each category: a core's rule id is shown only if its cards are in the case.
_RULES_OF = {
    "tempura": ("R-TEMPURA",), "sashimi": ("R-SASHIMI",), "dumpling": ("R-DUMPLING",),
    "nigiri": ("R-NIGIRI", "R-WASABI-ONE", "R-WASABI-PLACE"),
    "maki": ("R-MAKI-ICONS", "R-MAKI-FIRST", "R-MAKI-SECOND", "R-MAKI-TIE-FIRST", "R-MAKI-TIE-SECOND",
             "R-MAKI-ZERO", "R-MAKI-POINTS"),
}


def _categories(case: RoundCase) -> tuple[str, ...]:
    return tuple(sorted({_CATEGORY[c] for p in case for c in p}))


def _round_ids(case: RoundCase, got: list[int], rules: Ruleset) -> tuple[str, ...]:
    """Rule ids of the unsat core of "these picks score ``got``", kept to the categories present."""
    tabs = [reference_tableau(p, rules) for p in case]
    model = round_model(rules, len(tabs))
    facts = [n for t in tabs for n in t.counts]
    totals = [model.outputs[k] for k in range(5, len(model.outputs), 6)]  # "total" of each seat
    claims = [t == v for t, v in zip(totals, got, strict=True)]
    relevant = {r for cat in _categories(case) for r in _RULES_OF.get(cat, ())}
    ids = [r for r in explain(model.m, model.facts(facts), claims) if r in relevant]
    # A placement mistake shows as wrong nigiri points; name the placement rules with it.
    if "R-NIGIRI" in ids and Card.WASABI in {c for p in case for c in p}:
        ids += ["R-WASABI-ONE", "R-WASABI-PLACE"]
    return tuple(dict.fromkeys(ids)) or ("R-ROUND-TOTAL",)


def _pudding_ids(case: PuddingCase, got: list[int], rules: Ruleset) -> tuple[str, ...]:
    model = pudding_model(rules, len(case))
    ids = [r for r in model.explain(case, got) if r not in _GENERIC]
    return tuple(ids) or ("R-PUDDING",)


def _fmt_round(case: RoundCase) -> str:
    return " | ".join(S.format_picks(p) for p in case)


def _variant(rules: Ruleset, params: Sequence[str], score: Callable[[Ruleset], list[int]],
             got: list[int]) -> tuple[str, str] | None:
    """The single contested reading that explains the target's answer on this case, if one does."""
    for pname in params:
        for value in PARAMETER_BY_NAME[pname].values:
            if value != getattr(rules, pname) and score(rules.replace(**{pname: value})) == got:
                return PARAMETER_BY_NAME[pname].rule_id, f"{pname}={_fmt(value)}"
    return None


def _shrink(case: Any, smaller: Callable[[Any], list[Any]], keep: Callable[[Any], bool]) -> Any:
    """Greedy: take the first smaller candidate that keeps the property, until none does."""
    cur = case
    changed = True
    while changed:
        changed = False
        for cand in smaller(cur):
            if keep(cand):
                cur, changed = cand, True
                break
    return cur


def _smaller_round(case: RoundCase, min_seats: int) -> list[RoundCase]:
    out: list[RoundCase] = []
    if len(case) > min_seats:
        out += [case[:i] + case[i + 1:] for i in range(len(case))]
    for i, p in enumerate(case):
        out += [(*case[:i], p[:j] + p[j + 1:], *case[i + 1:]) for j in range(len(p))]
    return out


def _smaller_pudding(case: PuddingCase, min_seats: int) -> list[PuddingCase]:
    out: list[PuddingCase] = []
    if len(case) > min_seats:
        out += [case[:i] + case[i + 1:] for i in range(len(case))]
    if case and min(case) > 0:
        out.append(tuple(v - 1 for v in case))  # the same ties, fewer puddings
    out += [(*case[:i], v - 1, *case[i + 1:]) for i, v in enumerate(case) if v > 0]
    return out


class _Side:
    """One of the two functions of the protocol: how to ask the target and the reference."""

    def __init__(self, kind: str, fn: Callable[[Any], Any], rules: Ruleset) -> None:
        self.kind, self.fn, self.rules = kind, fn, rules
        self.params = ROUND_READINGS if kind == "round" else PUDDING_READINGS
        self.min_seats = min(E.seat_range(rules))
        self.fixed_seats = rules.dummy_2p

    def ref(self, case: Any, rules: Ruleset | None = None) -> list[int]:
        r = rules or self.rules
        return reference_round(case, r) if self.kind == "round" else scoring.pudding_points(case, r)

    def ask(self, case: Any) -> tuple[list[int] | None, str]:
        arg = _names(case) if self.kind == "round" else list(case)
        return _call(self.fn, arg, len(case))

    def fmt(self, case: Any) -> str:
        return "picks " + _fmt_round(case) if self.kind == "round" else f"puddings {list(case)}"

    def smaller(self, case: Any) -> list[Any]:
        if self.fixed_seats:
            cands = _smaller_round(case, len(case)) if self.kind == "round" else \
                _smaller_pudding(case, len(case))
        else:
            cands = _smaller_round(case, self.min_seats) if self.kind == "round" else \
                _smaller_pudding(case, self.min_seats)
        return cands

    def ids(self, case: Any, got: list[int]) -> tuple[str, ...]:
        return _round_ids(case, got, self.rules) if self.kind == "round" else \
            _pudding_ids(case, got, self.rules)

    def key(self, case: Any, got: list[int] | None, err: str) -> tuple[tuple[str, ...], Any]:
        """(group key, minimised case) of one disagreement."""
        if got is None:
            return (self.kind, "error", err.split(":")[0]), case
        var = _variant(self.rules, self.params, lambda r: self.ref(case, r), got)
        if var is not None:
            def keep_var(c: Any) -> bool:
                g, _ = self.ask(c)
                return g is not None and g != self.ref(c) and \
                    _variant(self.rules, self.params, lambda r: self.ref(c, r), g) == var
            return (self.kind, "reading", *var), _shrink(case, self.smaller, keep_var)

        def keep(c: Any) -> bool:
            g, _ = self.ask(c)
            return g is not None and g != self.ref(c) and \
                _variant(self.rules, self.params, lambda r: self.ref(c, r), g) is None
        small = _shrink(case, self.smaller, keep)
        cats = _categories(small) if self.kind == "round" else ("pudding",)
        return (self.kind, "other", *cats), small


@dataclass
class Report:
    target: str
    rules: str
    round_cases: int = 0
    pudding_cases: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)
    fingerprint: list[dict[str, Any]] = field(default_factory=list)
    pudding_checked: bool = False

    @property
    def ok(self) -> bool:
        return not self.disagreements

    def as_dict(self) -> dict[str, Any]:
        return {"target": self.target, "rules": self.rules, "round_cases": self.round_cases,
                "pudding_cases": self.pudding_cases, "pudding_checked": self.pudding_checked,
                "conforms": self.ok, "disagreements": [d.as_dict() for d in self.disagreements],
                "fingerprint": self.fingerprint}


def conform(target: Target, rules: Ruleset, examples: int = 2000, seed: int | None = None) -> Report:
    report = Report(target.name, rules.name)
    rcases = round_cases(rules, examples, seed)
    report.round_cases = len(rcases)
    groups: dict[tuple[str, ...], Disagreement] = {}
    answers = _compare(_Side("round", target.score_round, rules), rcases, groups)
    pcases: list[PuddingCase] = []
    pud_answers: list[list[int] | None] = []
    if target.score_puddings is not None:
        report.pudding_checked = True
        pcases = pudding_cases(rules, examples, seed)
        report.pudding_cases = len(pcases)
        pud_answers = _compare(_Side("pudding", target.score_puddings, rules), pcases, groups)
    report.disagreements = list(groups.values())
    report.fingerprint = fingerprint(rules, rcases, answers, pcases, pud_answers,
                                     target.score_puddings is not None)
    return report


def _compare(side: _Side, cases: Sequence[Any], groups: dict[tuple[str, ...], Disagreement]
             ) -> list[list[int] | None]:
    answers: list[list[int] | None] = []
    seen: dict[Any, tuple[str, ...]] = {}
    for case in cases:
        got, err = side.ask(case)
        answers.append(got)
        if got is not None and got == side.ref(case):
            continue
        memo = (case, tuple(got) if got is not None else err)
        if memo in seen:
            groups[seen[memo]].count += 1
            continue
        key, small = side.key(case, got, err)
        seen[memo] = key
        if key in groups:
            groups[key].count += 1
            continue
        sgot, serr = side.ask(small)
        if key[1] == "reading":
            ids: tuple[str, ...] = (key[2],)
        elif sgot is None:
            ids = ("target error",)
        else:
            ids = side.ids(small, sgot)
        groups[key] = Disagreement(side.kind, ids, side.fmt(small), side.ref(small),
                                   str(sgot) if sgot is not None else serr, 1, side.fmt(case))
        if key[1] == "reading":
            groups[key].reading = key[3]
    return answers


def fingerprint(rules: Ruleset, rcases: Sequence[RoundCase], answers: Sequence[list[int] | None],
                pcases: Sequence[PuddingCase], pud_answers: Sequence[list[int] | None],
                puddings: bool) -> list[dict[str, Any]]:
    """Per observable contested reading: which value the target follows on the discriminating cases."""
    rows: list[dict[str, Any]] = []
    params = list(ROUND_READINGS) + (list(PUDDING_READINGS) if puddings else [])
    for pname in params:
        param = PARAMETER_BY_NAME[pname]
        ours = getattr(rules, pname)
        is_round = pname in ROUND_READINGS
        cases: Sequence[Any] = rcases if is_round else pcases
        got: Sequence[list[int] | None] = answers if is_round else pud_answers
        if is_round:
            # Maki readings are read on maki-only rounds, so a bug in another category
            # (a misplaced wasabi) does not hide which reading the target follows.
            keep = [k for k, c in enumerate(cases) if c and all(_CATEGORY[x] == "maki" for p in c for x in p)]
            cases, got = [cases[k] for k in keep], [got[k] for k in keep]

        def score(c: Any, r: Ruleset, is_round: bool = is_round) -> list[int]:
            return reference_round(c, r) if is_round else scoring.pudding_points(c, r)

        ref = [score(c, rules) for c in cases]
        evidence: dict[Any, tuple[int, int]] = {}
        for value in param.values:
            if value == ours:
                continue
            variant = rules.replace(**{pname: value})
            disc = [k for k, c in enumerate(cases) if score(c, variant) != ref[k]]
            if not disc:
                continue
            follows_variant = sum(1 for k in disc if got[k] == score(cases[k], variant))
            follows_ours = sum(1 for k in disc if got[k] == ref[k])
            evidence[value] = (follows_variant, len(disc))
            evidence.setdefault(ours, (0, 0))
            prev = evidence[ours]
            evidence[ours] = (prev[0] + follows_ours, prev[1] + len(disc))
        if not evidence:
            rows.append({"parameter": pname, "rule_id": param.rule_id, "reference": ours, "follows": None,
                         "evidence": "no discriminating case"})
            continue
        best = max(evidence.items(), key=lambda kv: (kv[1][0] / kv[1][1] if kv[1][1] else 0, kv[0] == ours))
        value, (hit, total) = best
        follows = value if total and hit == total else None
        detail = ", ".join(f"{_fmt(v)} {h}/{t}" for v, (h, t) in evidence.items())
        rows.append({"parameter": pname, "rule_id": param.rule_id, "reference": ours,
                     "follows": follows, "evidence": f"matches on discriminating cases: {detail}"})
    return rows


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def describe_fingerprint(row: dict[str, Any]) -> str:
    ours, follows = row["reference"], row["follows"]
    if row["evidence"] == "no discriminating case":
        return "not observed (no case tells the readings apart)"
    if follows is None:
        return "follows none of the readings consistently"
    if follows == ours:
        return f"follows {_fmt(ours)} (the reference)"
    return f"follows {_fmt(follows)}, not the reference's {_fmt(ours)}"
