"""What ``sushigo conform`` found: faults, adapter faults, the fingerprint, the budgets."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sushigo.spec.scoring as scoring
from sushigo.checks.conform.cases import CATEGORY_OF, PuddingCase, RoundCase, reference_round
from sushigo.checks.conform.engine import Reply
from sushigo.checks.conform.faults import Fault, Side
from sushigo.checks.conform.pitfalls import PUDDING_READINGS, ROUND_READINGS
from sushigo.spec.ruleset import PARAMETER_BY_NAME, Ruleset

#: Adapter faults cheap enough to minimise (each try is one call, not a restart or a time limit).
_MINIMISED = ("raised", "wrong type", "absurd", "printed")


@dataclass
class Disagreement:
    """One entry of the ``disagreements`` list (kept as it was: one per fault)."""

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


@dataclass
class Report:
    target: str
    rules: str
    round_cases: int = 0
    pudding_cases: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)
    fingerprint: list[dict[str, Any]] = field(default_factory=list)
    pudding_checked: bool = False
    faults: list[dict[str, Any]] = field(default_factory=list)
    adapter_faults: list[dict[str, Any]] = field(default_factory=list)
    budget: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    round_cases_run: int = 0
    pudding_cases_run: int = 0
    stopped: str = ""  # why the run ended before every case was compared and every fault searched
    restarts: int = 0
    seconds: float = 0.0
    sandbox: str = ""  # where the target ran: "bwrap" (a pid namespace) or "process" (engine.sandbox_of)

    @property
    def completed(self) -> bool:
        return not self.stopped

    @property
    def ok(self) -> bool:
        return self.completed and not self.disagreements and not self.adapter_faults

    @property
    def verdict(self) -> str:
        if self.disagreements or self.adapter_faults:
            return "faults"
        return "conforms" if self.completed else "unknown"

    def as_dict(self) -> dict[str, Any]:
        return {"target": self.target, "rules": self.rules, "round_cases": self.round_cases,
                "pudding_cases": self.pudding_cases, "pudding_checked": self.pudding_checked,
                "conforms": self.ok, "disagreements": [d.as_dict() for d in self.disagreements],
                "fingerprint": self.fingerprint,
                "verdict": self.verdict, "completed": self.completed, "stopped": self.stopped or None,
                "seed": self.seed, "round_cases_run": self.round_cases_run,
                "pudding_cases_run": self.pudding_cases_run, "budget": self.budget,
                "faults": self.faults, "adapter_faults": self.adapter_faults,
                "restarts": self.restarts, "seconds": round(self.seconds, 2), "sandbox": self.sandbox}


def fault_entries(side: Side, faults: Sequence[Fault], first: int) -> tuple[list[dict[str, Any]],
                                                                             list[Disagreement]]:
    """The ``faults`` entries (numbered from ``first``) and their ``disagreements`` twins."""
    out, old = [], []
    for k, f in enumerate(faults, first):
        reading = f.candidate.name if f.candidate is not None and f.method == "reading" else None
        out.append({"number": k, "kind": f.side, "category": f.category, "case": side.fmt(f.case),
                    "expected": f.expected, "got": f.got, "rule_ids": list(f.rule_ids),
                    "attribution": {"method": f.method, "how": f.how,
                                    "by": f.candidate.name if f.candidate is not None else None},
                    "cases": f.cases, "first_seen": side.fmt(f.first_seen),
                    "isolated_on": side.fmt(f.trigger), "note": f.note or None})
        old.append(Disagreement(f.side, f.rule_ids, side.fmt(f.case), f.expected, str(f.got), f.cases,
                                side.fmt(f.first_seen), reading or ""))
    return out, old


def _group(kind: str, detail: str) -> tuple[str, str]:
    """Adapter faults of one kind group together; exceptions and crashes by their type, exits by code."""
    if kind in ("raised", "crashed"):
        return kind, detail.split(":")[0]
    return kind, detail if kind == "exited" else kind


def _faults_of(ans: Reply) -> list[tuple[str, str]]:
    """(kind, detail) of each adapter fault of one call: its outcome, and its printing."""
    out = [(ans.kind, ans.detail)] if ans.kind else []
    if ans.printed:
        out.append(("printed", f"printed to stdout: {ans.printed.strip()[:80]!r}"))
    return out


def adapter_entries(side: Side) -> tuple[list[dict[str, Any]], list[Disagreement]]:
    """Adapter faults grouped by kind (and exception type), the first case of each minimised."""
    fn = side.fn
    groups: dict[tuple[str, str], list[Any]] = {}
    for case, ans in list(side.calls):
        for kind, detail in _faults_of(ans):
            groups.setdefault(_group(kind, detail), []).append(case)
    out, old = [], []
    for key, cases in groups.items():
        case = cases[0]
        if key[0] in _MINIMISED:
            def same(y: Any, key: tuple[str, str] = key) -> bool:
                return any(_group(*kd) == key for kd in _faults_of(side.ask(y)))
            case = side.shrink(case, same)
        # The first detail of the group, unless the minimised case has its own (a shorter repr).
        detail = next((d for k, d in _faults_of(side.ask(case)) if _group(k, d) == key),
                      next(d for k, d in _faults_of(side.answers[cases[0]]) if _group(k, d) == key))
        out.append({"function": fn, "kind": key[0], "detail": detail, "case": side.fmt(case),
                    "cases": len(cases), "first_seen": side.fmt(cases[0]), "minimised": key[0] in _MINIMISED})
        old.append(Disagreement(side.kind, ("target error",), side.fmt(case), side.ref_total(case), detail,
                                len(cases), side.fmt(cases[0])))
    return out, old


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
            keep = [k for k, c in enumerate(cases)
                    if c and all(CATEGORY_OF[x] == "maki" for p in c for x in p)]
            cases, got = [cases[k] for k in keep], [got[k] for k in keep]

        def score(c: Any, value: Any, pname: str = pname, is_round: bool = is_round) -> list[int]:
            r = rules.replace(**{pname: value})
            return reference_round(c, r) if is_round else scoring.pudding_points(c, r)

        rows.append(reading_row(pname, param.rule_id, ours, param.values, cases, got, score))
    return rows


def reading_row(pname: str, rule_id: str, ours: Any, values: Sequence[Any], cases: Sequence[Any],
                got: Sequence[list[int] | None], score: Callable[[Any, Any], list[int]]) -> dict[str, Any]:
    """One fingerprint row: on the cases where another value of the reading ``pname`` changes the
    reference's score (``score(case, value)``), how often the target's answer (``got``) matches
    each value; ``follows`` is the value it matches on every discriminating case, if one does."""
    ref = [score(c, ours) for c in cases]
    evidence: dict[Any, tuple[int, int]] = {}
    for value in values:
        if value == ours:
            continue
        theirs = [score(c, value) for c in cases]
        disc = [k for k in range(len(cases)) if theirs[k] != ref[k]]
        if not disc:
            continue
        follows_variant = sum(1 for k in disc if got[k] == theirs[k])
        follows_ours = sum(1 for k in disc if got[k] == ref[k])
        evidence[value] = (follows_variant, len(disc))
        evidence.setdefault(ours, (0, 0))
        prev = evidence[ours]
        evidence[ours] = (prev[0] + follows_ours, prev[1] + len(disc))
    if not evidence:
        return {"parameter": pname, "rule_id": rule_id, "reference": ours, "follows": None,
                "evidence": "no discriminating case"}
    best = max(evidence.items(), key=lambda kv: (kv[1][0] / kv[1][1] if kv[1][1] else 0, kv[0] == ours))
    value, (hit, total) = best
    follows = value if total and hit == total else None
    detail = ", ".join(f"{_fmt(v)} {h}/{t}" for v, (h, t) in evidence.items())
    return {"parameter": pname, "rule_id": rule_id, "reference": ours,
            "follows": follows, "evidence": f"matches on discriminating cases: {detail}"}


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
