"""``sushigo table``: the tableaux of a whole table from its round scores."""

from __future__ import annotations

import argparse

from sushigo.common import (
    add_game_args,
    add_json_arg,
    add_rules_args,
    budget_count,
    budget_seconds,
    print_json,
    print_table,
    whole_number,
)
from sushigo.limits import MAX_LIMIT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sushigo.api.base import Outcome

ORDER = 55
HELP = "tables of tableaux that give every player's round score"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "table",
        help=HELP,
        description="Find tables (one tableau per seat, each of the hand size, all within the deck) "
        "giving exactly these round scores, maki ranking included. Prints a witness, the number "
        "of tables (or a lower bound and 'more'), and what holds in every solution.",
    )
    p.add_argument("--scores", metavar="S1,S2,...", help="round score per player, in seat order")
    p.add_argument("--names", metavar="A,B,...", help="player names (default P1, P2, ...)")
    p.add_argument("--has", action="append", default=[], metavar="P:TABLEAU",
                   help="player P (from 1) holds at least these tokens, e.g. '2:sashimi*3' (repeatable)")
    p.add_argument("--count", action="append", default=[], metavar="P:NAME=N",
                   help="player P holds exactly N of this card (a card name counts its stacks too) "
                        "or stack, e.g. '1:squid=2' (repeatable)")
    p.add_argument("--icons", action="append", default=[], metavar="P:N",
                   help="player P has exactly N maki icons (repeatable)")
    p.add_argument("--input", metavar="FILE",
                   help='JSON instead of the options: {"rules": ..., "scores": [...], "names": [...], '
                        '"known": [{"player": 1, "has": "...", "counts": {"squid": 2}, "icons": 5}]}')
    p.add_argument("--limit", type=whole_number(1, MAX_LIMIT), default=20, metavar="N",
                   help=f"count tables up to N (default 20, at most {MAX_LIMIT}); beyond, report 'N or more'")
    p.add_argument("--timeout", type=budget_seconds, default=None, metavar="SECONDS",
                   help="wall-clock budget of the whole run (default: none); past it the answer is "
                        "'unknown' with the tables counted so far, marked incomplete")
    p.add_argument("--rlimit", type=budget_count, default=None, metavar="N",
                   help="Z3 resource budget of the whole run (machine-independent; default: none); "
                        "past it 'unknown' as with --timeout")
    p.add_argument("--cards", type=whole_number(0, 10), default=None, metavar="K",
                   help="with --game party: every seat's tableau holds exactly K cards (default: the hand "
                        "size, fewer only where the menu discards cards)")
    add_rules_args(p, default=None)
    add_game_args(p, "a table of Party tableaux for --menu (Party's notation)")
    add_json_arg(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sushigo.api.table import table_outcome
    out = table_outcome(scores=args.scores, names=args.names, has=list(args.has), count=list(args.count),
                        icons=list(args.icons), input=args.input, limit=args.limit, rules=args.rules,
                        rule=list(args.rule), timeout=args.timeout, rlimit=args.rlimit,
                        progress=not args.json, game=args.game, menu=args.menu, cards=args.cards)
    if args.json:
        print_json(out.data)
        return out.code
    if args.game == "party":
        return _party(out)
    q, a = out.detail
    from sushigo.spec.cards import Card

    if a.status == "impossible":
        print(f"impossible: no table of {q.seats} tableaux gives the scores {list(q.scores)} "
              f"under {q.rules.describe()}")
        return 1
    if a.witness is None:
        print(f"unknown: {a.reason}")
        return 1
    names = [q.seat_name(i) for i in range(q.seats)]
    rows = [[names[i], q.scores[i] if i < len(q.scores) else "-", str(t)] for i, t in enumerate(a.witness)]
    print_table(rows, ["player", "score", "tableau"], title="A witness table:")
    if not a.finished:
        # The budget ran out: the witness is a table, the count a lower bound, no fact is proved.
        print(f"\ntables counted before the budget ran out: {a.count}"
              + ("" if a.complete else " or more (incomplete)"))
        print(f"unknown: {a.reason}")
        return 1
    print(f"\ntables: {a.count}" + ("" if a.complete else " or more (counting stopped at --limit)"))
    for f in a.maki:
        print({"first": f"{names[f.seat]} must have won maki (first place) in every solution",
               "second": f"{names[f.seat]} must have come second in maki in every solution",
               "none": f"{names[f.seat]} won no maki points in every solution"}[f.place])
    if any(any(row) for row in a.minimum):
        cols = [c for c in Card if any(r[int(c)] for r in a.minimum)]
        rows = [[names[i]] + [str(row[int(c)]) for c in cols] for i, row in enumerate(a.minimum) if any(row)]
        print_table(rows, ["at least"] + [c.label for c in cols],
                    title="\nCards every solution gives them (proved minimum):")
    return 0


def _party(out: Outcome) -> int:
    """A Party table: the witness and the count, or impossible, or unknown (docs/party.md)."""
    d = out.data
    if d["status"] == "impossible":
        print(f"impossible: no table of {d['players']} tableaux gives the scores {d['scores']} on the menu "
              f"{d['menu']}")
        return out.code
    if "witness" in d:
        rows = [[w["player"], s, w["tableau"]] for w, s in zip(d["witness"], d["scores"], strict=True)]
        print_table(rows, ["player", "score", "tableau"], title="A witness table:")
        more = "" if d["complete"] else " or more" + ("" if d["status"] == "unknown"
                                                          else " (counting stopped at --limit)")
        print(f"\ntables: {d['count']}{more}")
    if d["status"] == "unknown":
        print(f"unknown: {d['reason']}")
    return out.code
