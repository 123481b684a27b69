"""A recorded game re-executed under two rulesets: does it matter for us?"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sushigo.solver.diff.parameters import applies
from sushigo.spec.errors import InputError, SushiGoError
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.tableau import format_tableau


@dataclass(frozen=True)
class GameSide:
    """A recorded game under one ruleset: re-executed if the picks are legal, else why not."""

    rules: Ruleset
    legal: bool
    method: str  # "replay": the picks re-executed (the schema also allows "rescore", never produced now)
    error: str = ""
    rule_id: str = ""
    rounds: tuple[tuple[int, ...], ...] = ()
    pudding: tuple[int, ...] | None = None
    totals: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.name, "legal": self.legal, "method": self.method,
            "error": self.error or None, "rule_id": self.rule_id or None,
            "rounds": [list(r) for r in self.rounds],
            "pudding": list(self.pudding) if self.pudding is not None else None,
            "totals": list(self.totals), "winners": list(self.winners),
        }


@dataclass(frozen=True)
class GameDiff:
    players: int
    a: GameSide
    b: GameSide

    @property
    def comparable(self) -> bool:
        return self.a.legal and self.b.legal

    @property
    def scores_change(self) -> bool:
        return self.comparable and (self.a.rounds != self.b.rounds or self.a.totals != self.b.totals
                                    or self.a.pudding != self.b.pudding)

    @property
    def winner_changes(self) -> bool:
        return self.comparable and self.a.winners != self.b.winners

    def as_json(self) -> dict[str, Any]:
        return {
            "format": "sushigo-diff-game/1",
            "players": self.players,
            "a": self.a.as_json(),
            "b": self.b.as_json(),
            "comparable": self.comparable,
            "scores_change": self.scores_change,
            "winner_changes": self.winner_changes,
        }


def _side_from_score(rules: Ruleset, method: str, score: Any) -> GameSide:
    return GameSide(
        rules, True, method, rounds=tuple(tuple(s.total for s in r) for r in score.rounds),
        pudding=tuple(score.pudding) if score.pudding is not None else None,
        totals=tuple(score.totals), winners=tuple(score.winners),
    )


def game_side(data: dict[str, Any], rules: Ruleset) -> GameSide:
    """Re-execute a recorded game's picks under ``rules`` (spec.executor.replay)."""
    from sushigo.spec import executor
    from sushigo.spec.record import record_from_json

    record = record_from_json(data)
    try:
        res = executor.replay(record, rules)
    except SushiGoError as exc:
        return GameSide(rules, False, "replay", str(exc))
    # A replay under other rules reports the recorded scores as mismatches; the picks
    # were legal whenever the game could be re-executed (a score is there).
    if res.score is None:
        error, rule_id = _first_illegal_step(executor, data, rules)
        return GameSide(rules, False, "replay", error or res.error or "illegal", rule_id or res.rule_id or "")
    return _side_from_score(rules, "replay", res.score)


def _first_illegal_step(executor: Any, data: dict[str, Any], rules: Ruleset) -> tuple[str, str]:
    """The first illegal step of a record under ``rules``, not a mismatch of its recorded scores.

    The replay names the first problem, and a recorded score that differs under
    other rules comes before a later illegal pick. So replay growing prefixes of
    the rounds, each time with the earlier rounds' results as re-executed.
    """
    rounds = list(data.get("rounds") or [])
    done: list[dict[str, Any]] = []
    for k in range(len(rounds)):
        prefix = dict(data)
        prefix["rounds"] = [*done, rounds[k]]
        res = executor.replay(prefix, rules)
        if res.score is None:
            return (res.error or "", res.rule_id or "")
        got = res.record.rounds[k]
        done.append({**rounds[k], "tableaux": [format_tableau(t) for t in got.tableaux],
                     "scores": list(got.scores)})
    return ("", "")


def diff_game(data: dict[str, Any], a: Ruleset, b: Ruleset) -> GameDiff:
    """Does it matter for us? The recorded game under both rulesets."""
    from sushigo.spec.record import record_from_json

    record = record_from_json(data)
    if not applies(record.rules, record.players):
        raise InputError(f"the record's {record.players} players cannot play its own rules "
                         f"{record.rules.name!r}; check \"players\" and \"rules\"")
    return GameDiff(record.players, game_side(data, a), game_side(data, b))
