"""A scoresheet: its JSON form, read and checked, and the sheet of a game record."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sushigo.spec.document import check_format
from sushigo.spec.errors import InputError
from sushigo.spec.rulefile import rules_value, ruleset_from_value
from sushigo.spec.ruleset import Ruleset

#: Optional format tag of a scoresheet document (older ones have none).
SHEET_FORMAT = "sushigo-scoresheet/1"


@dataclass(frozen=True)
class Sheet:
    rules: Ruleset
    players: tuple[str, ...]
    rounds: tuple[tuple[int, ...], ...]
    pudding: tuple[int, ...] | None = None
    totals: tuple[int, ...] | None = None

    @property
    def seats(self) -> int:
        return self.rules.seats(len(self.players))

    @property
    def hand_size(self) -> int:
        return self.rules.hand_size(len(self.players))

    def seat_name(self, i: int) -> str:
        return self.players[i] if i < len(self.players) else "the dummy"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rules": rules_value(self.rules), "players": list(self.players),
                               "rounds": [list(r) for r in self.rounds]}
        if self.pudding is not None:
            out["pudding"] = list(self.pudding)
        if self.totals is not None:
            out["totals"] = list(self.totals)
        return out


def _int_row(value: object, n: int, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise InputError(f"{where} must be a list of {n} whole numbers, got {value!r}")
    if len(value) != n:
        raise InputError(f"{where} has {len(value)} cells but the sheet has {n} players")
    return tuple(value)


def parse_sheet(data: object, rules: Ruleset | None = None) -> Sheet:
    """A sheet from its JSON; ``rules`` (from the command line) overrides the file's ``rules``."""
    if not isinstance(data, dict):
        raise InputError('a scoresheet is a JSON object like {"players": [...], "rounds": [[...], ...]}')
    unknown = set(data) - {"format", "rules", "players", "rounds", "pudding", "totals", "source", "note"}
    if unknown:
        raise InputError(f"unknown scoresheet field(s) {sorted(unknown)}; "
                         "fields: format, rules, players, rounds, pudding, totals")
    check_format(data, SHEET_FORMAT, "scoresheet")
    if rules is None:
        rules = ruleset_from_value(data.get("rules", "official"), 'the scoresheet\'s "rules"')
    players = data.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        raise InputError(f'"players" must be a list of player names, got {players!r}')
    if len(set(players)) != len(players):
        raise InputError(f'"players" has a repeated name: {players!r}')
    rules.hand_size(len(players))  # raises a RulesError for a wrong player count
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise InputError(f'"rounds" must be a list of rows of round scores, got {rounds!r}')
    if len(rounds) > rules.rounds:
        raise InputError(f"the sheet has {len(rounds)} rounds but the game has {rules.rounds}")
    n = len(players)
    rows = tuple(_int_row(r, n, f"round {k + 1}") for k, r in enumerate(rounds))
    pudding = None
    if data.get("pudding") is not None:
        if len(rows) != rules.rounds:
            raise InputError(f"a pudding row needs all {rules.rounds} rounds; the sheet has {len(rows)}")
        pudding = _int_row(data["pudding"], n, "pudding")
    totals = _int_row(data["totals"], n, "totals") if data.get("totals") is not None else None
    return Sheet(rules, tuple(players), rows, pudding, totals)


def sheet_from_record(record: Any, names: Sequence[str] | None = None) -> Sheet:
    """The sheet a scorekeeper writes for a game record (:class:`spec.record.GameRecord`)."""
    n = record.players
    players = tuple(names) if names is not None else tuple(f"P{i + 1}" for i in range(n))
    return Sheet(
        record.rules, players, tuple(tuple(r.scores[:n]) for r in record.rounds),
        tuple(record.pudding[:n]) if record.pudding is not None else None, tuple(record.totals[:n]),
    )
