"""``sushigo replay RECORD``: re-execute a game record and verify every step and score.

Exit 0 when the record is valid, 1 with the first illegal step, 2 on malformed
input. A file holding a JSON list of records (``sushigo play --games G --record``)
checks each one.
"""

from __future__ import annotations

import argparse
from typing import Any

from sushigo.spec.errors import InputError
from sushigo.spec.executor import ReplayResult, replay
from sushigo.spec.record import GameRecord
from sushigo.spec.ruleset import apply_overrides, get_ruleset
from sushigo.commands.play import print_game
from sushigo.common import add_json_arg, add_rules_args, load_json, print_json

ORDER = 35


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "replay",
        help="re-execute a game record, verify every step and score, name the first illegal step",
        description="Re-execute a game record (from 'sushigo play --record') and check every deal, "
        "pick, tableau and score; exit 0 if valid, 1 with the first illegal step, 2 on malformed "
        "input. --rules/--rule replay it under other rules (default: the record's own).",
    )
    p.add_argument("record", metavar="RECORD", help="record JSON file, or - for standard input")
    add_rules_args(p, default=None)
    add_json_arg(p)
    p.set_defaults(func=run)


def _one(data: object, args: argparse.Namespace) -> tuple[GameRecord, ReplayResult]:
    record = GameRecord.from_json(data)
    rules = get_ruleset(args.rules) if args.rules is not None else record.rules
    rules = apply_overrides(rules, list(args.rule))
    return record, replay(record, rules if rules != record.rules else None)


def _as_json(result: ReplayResult) -> dict[str, Any]:
    return {
        "ok": result.ok,
        "error": result.error,
        "rule_id": result.rule_id,
        "score": result.score.as_json() if result.score is not None else None,
    }


def run(args: argparse.Namespace) -> int:
    data = load_json(args.record, "records")
    if isinstance(data, list):
        if not data:
            raise InputError(f"{args.record}: an empty list holds no game records")
        results = [_one(item, args) for item in data]
        if args.json:
            print_json([_as_json(res) for _rec, res in results])
        else:
            bad = [(k, res) for k, (_rec, res) in enumerate(results) if not res.ok]
            for k, res in bad:
                print(f"record {k}: INVALID: {res.error}")
            print(f"{len(results) - len(bad)} of {len(results)} records valid")
        return 0 if all(res.ok for _rec, res in results) else 1
    record, result = _one(data, args)
    if args.json:
        print_json(_as_json(result))
        return 0 if result.ok else 1
    if result.record is not None:
        seed = f", seed {record.seed}" if record.seed is not None else ""
        title = f"replayed: {record.players} players, rules {result.record.rules.describe()}{seed}"
        print_game(result.record, title + " (scores as the rules give them)")
    if result.ok:
        print("valid: every deal, pick, tableau and score checks")
        return 0
    print(f"INVALID: {result.error}")
    return 1
