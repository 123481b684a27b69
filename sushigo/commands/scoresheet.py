"""``sushigo scoresheet FILE``: could a legal game have produced this scoresheet?"""

from __future__ import annotations

import argparse

from sushigo.common import (
    add_game_args,
    add_json_arg,
    add_rules_args,
    budget_count,
    budget_whole_seconds,
    print_json,
    print_table,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sushigo.api.base import Outcome

ORDER = 60
HELP = "decide whether a scoresheet can come from a legal game"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from sushigo.api.scoresheet import DEFAULT_RLIMIT, DEFAULT_TIMEOUT

    p = subparsers.add_parser(
        "scoresheet",
        help=HELP,
        description='Input JSON: {"rules": "official", "players": ["Ana", "Ben", "Cy"], '
        '"rounds": [[r1 scores], [r2], [r3]], "pudding": [...] (optional, pudding points), '
        '"totals": [...] (optional)}. Exit 0 possible (with a witness game), 1 impossible '
        "(with an explanation) or unknown, 2 bad input.",
    )
    p.add_argument("file", metavar="FILE", help="the scoresheet JSON, or - for standard input")
    p.add_argument("--rlimit", type=budget_count, default=DEFAULT_RLIMIT, metavar="N",
                   help=f"Z3 resource budget per main solver call (default {DEFAULT_RLIMIT}, about 10 s)")
    p.add_argument("--timeout", type=budget_whole_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help="wall-clock safety net per solver call (default 120)")
    add_rules_args(p, default=None)
    add_game_args(p, 'a Party scoresheet {"menu": M, "players": [...], "rounds": [[...], ...], "desserts": '
                  '[...], "totals": [...]}', "the sheet's own \"menu\" otherwise")
    add_json_arg(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sushigo.api.scoresheet import scoresheet_outcome

    out = scoresheet_outcome(args.file, rlimit=args.rlimit, timeout=args.timeout, rules=args.rules,
                             rule=list(args.rule), game=args.game, menu=args.menu)
    if args.json:
        print_json(out.data)
        return out.code
    if args.game == "party":
        return _party(out)
    sheet, verdict = out.detail
    if verdict.status == "possible" and verdict.witness is not None:
        w = verdict.witness
        print(f"possible under {sheet.rules.describe()}: a legal game gives exactly this sheet. Witness:")
        names = [sheet.seat_name(i) for i in range(sheet.seats)]
        rows = []
        for r, row in enumerate(w.rounds):
            for i, t in enumerate(row):
                score = sheet.rounds[r][i] if i < len(sheet.players) else "-"
                rows.append([f"round {r + 1}", names[i], score, str(t)])
        print_table(rows, ["round", "player", "score", "tableau"])
        print("puddings at the end: " + ", ".join(f"{names[i]} {n}" for i, n in enumerate(w.puddings)))
        return 0
    if verdict.status == "impossible":
        print(f"impossible under {sheet.rules.describe()}:")
        for line in verdict.explanation:
            print(f"  {line}")
        return 1
    print(f"unknown: {verdict.reason}")
    return 1


def _party(out: Outcome) -> int:
    """A Party sheet: the witness game, or the core's cells and rules, or unknown (docs/party.md)."""
    sheet, verdict = out.detail
    if verdict.status == "possible":
        print(f"possible on the menu {sheet.menu.label} ({sheet.rules.describe()}): a game of final "
              "tableaux gives exactly this sheet. Witness:")
        rows = [[f"round {r + 1}", name, sheet.rounds[r][k], t]
                for r, row in enumerate(out.data["witness"]["rounds"])
                for k, (name, t) in enumerate(zip(sheet.players, row, strict=True))]
        print_table(rows, ["round", "player", "score", "tableau"])
        if verdict.dessert_points is not None:
            print(f"{sheet.menu.dessert.name} at game end: "
                  + ", ".join(f"{n} {p}" for n, p in zip(sheet.players, verdict.dessert_points, strict=True)))
        return 0
    if verdict.status == "impossible":
        print(f"impossible on the menu {sheet.menu.label} ({sheet.rules.describe()}):")
        for line in verdict.explanation:
            print(f"  {line}")
        return 1
    print(f"unknown: {verdict.reason}")
    return 1
