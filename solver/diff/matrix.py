"""Every pair of named rulesets compared, with searches shared by pairs with the same readings."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sushigo.solver.diff.compare import diff
from sushigo.solver.diff.parameters import DEFAULT_TIMEOUT_MS
from sushigo.solver.diff.results import DiffResult
from sushigo.spec.answer import Answer, DiffStatus
from sushigo.spec.ruleset import RULESETS, Ruleset

ProgressFn = Callable[[str], None]


@dataclass(frozen=True)
class MatrixCell(Answer[DiffStatus]):
    a: str
    b: str
    status: DiffStatus
    players: int | None
    cards: int | None
    kind: str | None
    result: DiffResult | None = field(default=None, compare=False, repr=False)

    def as_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "status": self.status, "players": self.players,
                "cards": self.cards, "kind": self.kind}

    def short(self) -> str:
        if self.status == "differ":
            return f"{self.players}p/{self.cards}c"
        return {"equivalent": "=", "unknown": "?"}.get(self.status, self.status)


def _key(rules: Ruleset) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(rules.readings().items()))


@lru_cache(maxsize=512)
def _cached_diff(
    ka: tuple[tuple[str, Any], ...], kb: tuple[tuple[str, Any], ...], timeout_ms: int, rlimit: int | None
) -> DiffResult:
    a = RULESETS["official"].replace(name="a", **dict(ka))
    b = RULESETS["official"].replace(name="b", **dict(kb))
    return diff(a, b, timeout_ms=timeout_ms, extend=False, rlimit=rlimit)


def matrix(
    names: Sequence[str] | None = None, timeout_ms: int = DEFAULT_TIMEOUT_MS,
    progress: ProgressFn | None = None, rlimit: int | None = None,
) -> list[MatrixCell]:
    """Every pair of named rulesets: differ or not, and the size of the smallest witness.

    Pairs with the same readings share one search (whatever their names), and table searches
    are shared by rulesets with the same scoring readings.
    """
    names = list(names) if names is not None else list(RULESETS)
    pairs = list(itertools.combinations(names, 2))
    out = []
    for k, (x, y) in enumerate(pairs):
        ra, rb = RULESETS[x], RULESETS[y]
        ka, kb = _key(ra), _key(rb)
        if kb < ka:
            ka, kb = kb, ka
        res = _cached_diff(ka, kb, timeout_ms, rlimit)
        w = res.witness
        out.append(MatrixCell(x, y, res.status, w.players if w else None, w.cards if w else None,
                              w.kind if w else None, res))
        if progress is not None:
            progress(f"[{k + 1}/{len(pairs)}] {x} vs {y}: {out[-1].short()}")
    return out
