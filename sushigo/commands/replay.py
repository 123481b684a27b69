"""``sushigo replay RECORD``: re-execute a game record and verify every step and score.

Exit 0 when the record is valid, 1 with the first illegal step, 2 on malformed
input. A file holding a JSON list of records (``sushigo play --games G --record``)
checks each one.
"""

from __future__ import annotations

import argparse
from typing import Any

from sushigo.commands.play import print_game
from sushigo.common import add_json_arg, add_rules_args, print_json

ORDER = 35
HELP = "re-execute a game record, verify every step and score, name the first illegal step"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "replay",
        help=HELP,
        description="Re-execute a game record (from 'sushigo play --record') and check every deal, "
        "pick, tableau and score; exit 0 if valid, 1 with the first illegal step, 2 on malformed "
        "input. --rules/--rule replay it under other rules (default: the record's own).",
    )
    p.add_argument("record", metavar="RECORD", help="record JSON file, or - for standard input")
    p.add_argument("--game", choices=("base", "party"), default=None,
                   help="base: a Sushi Go! record; party: a Sushi Go Party! record (sushigo play --game "
                   "party --record); default: the record's own format")
    add_rules_args(p, default=None)
    add_json_arg(p)
    p.set_defaults(func=run)


def _party_file(path: str) -> bool:
    """Whether the file holds a Party record (standard input is read once: say --game party)."""
    import os

    from sushigo.api.party_play import is_party_record
    from sushigo.common import load_json

    if path == "-" or not os.path.isfile(path):
        return False
    try:
        return is_party_record(load_json(path))
    except ValueError:
        return False  # the base reader names the problem


def _run_party(args: argparse.Namespace) -> int:
    from sushigo.api.party_play import replay_party_outcome
    from sushigo.commands.play import _party_title, print_party_game
    from sushigo.spec.errors import InputError

    if args.rules is not None or args.rule:
        raise InputError("a Party record is replayed under its own readings: drop --rules and --rule")
    out = replay_party_outcome(args.record)
    if args.json:
        print_json(out.data)
        return out.code
    results = out.detail
    if isinstance(out.data, list):
        for k, res in enumerate(results):
            if not res.ok:
                print(f"record {k}: INVALID: {res.error}")
        print(f"{sum(r.ok for r in results)} of {len(results)} records valid")
        return out.code
    [result] = results
    if result.ok and result.record is not None:
        print_party_game(result.record, "replayed: " + _party_title(result.record))
        print("valid: every deal, play, draw and score checks")
        return 0
    print(f"INVALID: {result.error}")
    return 1


def run(args: argparse.Namespace) -> int:
    from sushigo.api.replay import replay_outcome

    if args.game == "party" or (args.game is None and _party_file(args.record)):
        return _run_party(args)

    out = replay_outcome(args.record, rules=args.rules, rule=list(args.rule))
    if args.json:
        print_json(out.data)
        return out.code
    if isinstance(out.data, list):
        bad = [(k, res) for k, (_rec, res) in enumerate(out.detail) if not res.ok]
        for k, res in bad:
            print(f"record {k}: INVALID: {res.error}")
        print(f"{len(out.detail) - len(bad)} of {len(out.detail)} records valid")
        return out.code
    [(record, result)] = out.detail
    if result.record is not None:
        seed = f", seed {record.seed}" if record.seed is not None else ""
        title = f"replayed: {record.players} players, rules {result.record.rules.describe()}{seed}"
        print_game(result.record, title + " (scores as the rules give them)")
    if result.ok:
        print("valid: every deal, pick, tableau and score checks")
        return 0
    print(f"INVALID: {result.error}")
    return 1
