"""What ``diff`` answers: witnesses, the proofs behind them, and the whole result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sushigo.solver.diff.parameters import _value_json, differing_parameters, parameter
from sushigo.spec.answer import Answer, DiffStatus
from sushigo.spec.ruleset import Ruleset


@dataclass(frozen=True)
class Row:
    """One line of a side-by-side witness table."""

    label: str
    a: str
    b: str
    compare: bool = True  # False for the dummy's own lines: it is not a player

    @property
    def differs(self) -> bool:
        return self.compare and self.a != self.b


@dataclass(frozen=True)
class Proof:
    """What the solver (or the enumeration) showed for one player count."""

    players: int
    max_cards: int  # no witness with at most this many cards (-1: none looked at)
    answer: str  # "unsat" | "unknown" | "not-applicable"
    method: str  # "z3" | "exhaustive" | "structural"
    note: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"players": self.players, "max_cards": self.max_cards, "answer": self.answer,
                "method": self.method, "note": self.note}

    def __str__(self) -> str:
        if self.answer == "not-applicable":
            return f"{self.players} players: {self.note}"
        what = "no witness" if self.answer == "unsat" else "unknown for witnesses"
        plural = "card" if self.max_cards == 1 else "cards"
        size = f"with at most {self.max_cards} {plural}" if self.max_cards >= 0 else "of any size"
        tail = f" ({self.note})" if self.note else ""
        return f"{self.players} players: {what} {size} [{self.method}: {self.answer}]{tail}"


@dataclass(frozen=True)
class Witness:
    kind: str  # "table" | "picks" | "deal"
    players: int
    cards: int
    causes: tuple[str, ...]  # contested parameters that alone change the result
    rule_ids: tuple[str, ...]
    situation: dict[str, Any]  # JSON-able statement of the situation
    rows: tuple[Row, ...]
    minimality: tuple[Proof, ...]
    extension: dict[str, Any] | None = None  # the same difference in a full legal round or game
    summary: str = ""

    @property
    def size(self) -> tuple[int, int]:
        return (self.players, self.cards)

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "players": self.players,
            "cards": self.cards,
            "summary": self.summary,
            "causes": list(self.causes),
            "rule_ids": list(self.rule_ids),
            "situation": self.situation,
            "rows": [{"label": r.label, "a": r.a, "b": r.b, "differs": r.differs} for r in self.rows],
            "minimality": [p.as_json() for p in self.minimality],
            "extension": self.extension,
        }


@dataclass(frozen=True)
class DiffResult(Answer[DiffStatus]):
    a: Ruleset
    b: Ruleset
    status: DiffStatus
    witness: Witness | None
    witnesses: tuple[Witness, ...] = ()  # one per cause (--all)
    proofs: tuple[Proof, ...] = ()  # the proof of agreement (equivalent) or what was looked at
    reason: str = ""
    seconds: float = 0.0
    # --all: differing parameters that change nothing within the bound, with the proofs
    no_effect: tuple[tuple[str, tuple[Proof, ...]], ...] = ()
    # the parameters some search covered: "equivalent" holds only when every differing one is here
    covered: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "format": "sushigo-diff/1",
            "a": {"name": self.a.name, "readings": _readings_json(self.a)},
            "b": {"name": self.b.name, "readings": _readings_json(self.b)},
            "differing_parameters": [
                {"name": p, "rule_id": parameter(p).rule_id, "a": _value_json(self.a, p),
                 "b": _value_json(self.b, p)}
                for p in differing_parameters(self.a, self.b)
            ],
            "status": self.status,
            "witness": self.witness.as_json() if self.witness else None,
            "witnesses": [w.as_json() for w in self.witnesses],
            "proofs": [p.as_json() for p in self.proofs],
            "no_effect": [{"parameter": name, "proofs": [p.as_json() for p in prs]}
                          for name, prs in self.no_effect],
            "reason": self.reason,
            "covered_parameters": list(self.covered),
        }


def _readings_json(rules: Ruleset) -> dict[str, Any]:
    return dict(rules.readings())
