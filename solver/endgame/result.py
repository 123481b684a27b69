"""Endgame answers and their JSON form."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from sushigo.solver.endgame.position import Position
from sushigo.solver.endgame.state import BudgetExceeded
from sushigo.solver.matrixgame import Number
from sushigo.spec.answer import Answer, EndgameStatus
from sushigo.spec.record import rules_fields
from sushigo.spec.turns import Turn, format_turn


def _num(v: Number) -> int | float:
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    return v


def _exact(v: Number) -> str:
    return str(v)


@dataclass
class PickValue:
    turn: Turn
    guarantee: Number
    dummy: Turn | None = None  # dummy-2p: the card given to the dummy with this pick


@dataclass(frozen=True)
class EndgameResult(Answer[EndgameStatus]):
    """A solved (or budget-exhausted) endgame, from player 0's point of view (a search fills in
    an :class:`EndgameDraft` and returns it frozen)."""

    position: Position
    objective: str  # diff | own | win | paranoid | policy
    status: EndgameStatus
    value: Number | None = None
    first_picks: list[PickValue] = field(default_factory=list)
    mix: list[tuple[Turn, Number]] = field(default_factory=list)
    line: list[list[Turn]] = field(default_factory=list)
    nodes: int = 0
    policy: str | None = None
    reason: str | None = None
    mix_gifts: list[Turn | None] = field(default_factory=list)  # dummy-2p: the dummy's card per mix entry

    @property
    def best_picks(self) -> list[Turn]:
        if not self.first_picks:
            return []
        top = max(p.guarantee for p in self.first_picks)
        return [p.turn for p in self.first_picks if p.guarantee == top]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "value": None if self.value is None else _num(self.value),
            "objective": self.objective,
            "first_picks": [
                {"pick": format_turn(p.turn), "guarantee": _num(p.guarantee)}
                | ({"dummy": format_turn(p.dummy)} if p.dummy is not None else {})
                for p in self.first_picks
            ],
            "mix": [
                {"pick": format_turn(t), "p": _num(p)}
                | ({"dummy": format_turn(g)} if g is not None else {})
                for (t, p), g in zip(self.mix, self.mix_gifts or [None] * len(self.mix), strict=True)
            ],
            "line": [[format_turn(t) for t in step] for step in self.line],
            "status": self.status,
            "players": self.position.players,
            **rules_fields(self.position.rules),  # the rules the line was found under
            "nodes": self.nodes,
        }
        if self.policy is not None:
            out["policy"] = self.policy
        if self.reason is not None:
            out["reason"] = self.reason
        if self.value is not None:
            out["exact"] = {
                "value": _exact(self.value),
                "first_picks": [_exact(p.guarantee) for p in self.first_picks],
                "mix": [_exact(p) for _, p in self.mix],
            }
        return out


class EndgameDraft:
    """An endgame answer while a search finds it: :class:`EndgameResult`'s fields, unknown until
    the search ends (:func:`searching`); :meth:`freeze` is the answer."""

    def __init__(self, position: Position, objective: str, policy: str | None = None) -> None:
        self.position = position
        self.objective = objective
        self.status: EndgameStatus = "unknown"
        self.value: Number | None = None
        self.first_picks: list[PickValue] = []
        self.mix: list[tuple[Turn, Number]] = []
        self.line: list[list[Turn]] = []
        self.nodes = 0
        self.policy = policy
        self.reason: str | None = None
        self.mix_gifts: list[Turn | None] = []

    def freeze(self) -> EndgameResult:
        return EndgameResult(**vars(self))


@contextmanager
def searching(result: EndgameDraft, search: Any) -> Iterator[None]:
    """Run a search into ``result``: solved when the block ends, unknown when a budget runs out;
    the states the search visited (``search.nodes``) are recorded either way."""
    try:
        yield
    except BudgetExceeded as exc:
        set_unknown(result, exc)
    else:
        result.status = "solved"
    finally:
        result.nodes = search.nodes


def set_unknown(result: EndgameDraft, exc: Exception) -> None:
    """The budget ran out: the answer is unknown, with the reason; no value or pick is claimed."""
    result.reason = str(exc)
    result.value = None
    result.first_picks, result.mix = [], []
