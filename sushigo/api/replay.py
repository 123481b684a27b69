"""``sushigo.replay``: re-execute a game record and verify every step and score."""

from __future__ import annotations

from typing import Any

from sushigo.api.base import (
    DOCUMENTS,
    Document,
    Outcome,
    Rule,
    load_input,
    override_texts,
    public,
    rules_from_options,
    tagged,
)
from sushigo.spec.errors import InputError
from sushigo.spec.executor import ReplayResult
from sushigo.spec.executor import replay as replay_record
from sushigo.spec.record import GameRecord
from sushigo.spec.ruleset import apply_overrides

FORMAT = "sushigo-replay-result/1"


def _one(data: object, rules: str | None, rule: Rule) -> tuple[GameRecord, ReplayResult]:
    record = GameRecord.from_json(data)
    # --rules goes through the one ruleset reader (a name, a file, a Ruleset; anything else refused)
    ruleset = rules_from_options(rules, rule) if rules is not None \
        else apply_overrides(record.rules, override_texts(rule))
    return record, replay_record(record, ruleset if ruleset != record.rules else None)


def _as_json(result: ReplayResult) -> dict[str, Any]:
    return {
        "ok": result.ok,
        "error": result.error,
        "rule_id": result.rule_id,
        "score": result.score.as_json() if result.score is not None else None,
    }


def replay_outcome(input: Document, *, rules: str | None = None, rule: Rule = None) -> Outcome:
    """Replay a game record (``sushigo play --json``; a dict or a path), or a list of them. Under
    the record's own rules unless ``rules``/``rule`` say otherwise. Returns what ``sushigo replay
    --json`` prints: ``ok``, the first ``error`` and its ``rule_id``, and the ``score``; for a list
    of records, a list of those, each with its format tag as for one record. Exit code 1 when a
    record is invalid."""
    data, where = load_input(input, schema="records")
    if isinstance(data, list):
        if not data:
            raise InputError(f"{where}: an empty list holds no game records")
        results = [_one(item, rules, rule) for item in data]
        ok = all(res.ok for _rec, res in results)
        return Outcome([tagged(FORMAT, _as_json(res)) for _rec, res in results], 0 if ok else 1, results)
    record, result = _one(data, rules, rule)
    return Outcome(tagged(FORMAT, _as_json(result)), 0 if result.ok else 1, [(record, result)])


replay = public(replay_outcome, "replay", DOCUMENTS)
