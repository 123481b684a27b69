"""``sushigo tableaux``: every final tableau of K cards scoring exactly S."""

from __future__ import annotations

import argparse
from itertools import groupby
from typing import TYPE_CHECKING

from sushigo.common import (
    add_budget_args,
    add_game_args,
    add_json_arg,
    add_rules_args,
    print_json,
    print_table,
    whole_number,
)
from sushigo.limits import MAX_LIMIT

if TYPE_CHECKING:
    from sushigo.api.base import Outcome
    from sushigo.solver.tableaux import Enumeration, TokenFact
    from sushigo.spec.ruleset import Ruleset

ORDER = 50
HELP = "all tableaux of K cards that score exactly S"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "tableaux",
        help=HELP,
        description="All final tableaux holding exactly K cards (a stack counts as 2) within the deck "
        "whose round score is exactly S when the player's maki points are M.",
    )
    p.add_argument("--score", type=int, metavar="S", help="round score, maki points included")
    p.add_argument("--cards", type=int, default=None, metavar="K",
                   help="cards in the tableau (required; with --game party: in every seat's tableau, "
                        "default the hand size)")
    p.add_argument("--maki-points", type=int, default=0, metavar="M",
                   help="the player's maki points (default 0; M > 0 needs at least one maki icon)")
    p.add_argument("--count", action="store_true", help="print only the number of tableaux")
    p.add_argument("--all-scores", action="store_true",
                   help="with --count: the number of tableaux for every score (a table of score, count)")
    p.add_argument("--limit", type=whole_number(0, MAX_LIMIT), default=None, metavar="N",
                   help=f"print at most N tableaux (at most {MAX_LIMIT})")
    p.add_argument("--must", action="append", default=[], metavar="TABLEAU",
                   help="keep tableaux holding at least these tokens, e.g. 'sashimi*3' (repeatable)")
    p.add_argument("--without", action="append", default=[], metavar="NAME",
                   help="drop tableaux holding this card (a card name also rules out its stack; "
                        "a stack name rules out only that stack) (repeatable)")
    p.add_argument("--facts", action="store_true",
                   help="per token, the proved minimum and maximum over every consistent tableau")
    p.add_argument("--unreachable", action="store_true",
                   help="list the scores 0..maximum that no tableau of K cards reaches")
    p.add_argument("--players", type=whole_number(2, 8), default=None, metavar="N",
                   help="with --game party: the players at the table (2 to 8)")
    p.add_argument("--player", type=whole_number(0, 7), default=0, metavar="P",
                   help="with --game party: the seat whose tableaux are listed (from 0; default 0)")
    p.add_argument("--scores", default=None, metavar="S0,S1,...",
                   help="with --game party: every seat's round score, instead of --score for one seat")
    add_budget_args(p)
    add_rules_args(p)
    add_game_args(p, "the tableaux of a seat at a table of --players N, for --menu, Party's notation")
    add_json_arg(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sushigo.api.tableaux import tableaux_outcome

    out = tableaux_outcome(score=args.score, cards=args.cards, maki_points=args.maki_points,
                           count=args.count, limit=args.limit, must=list(args.must),
                           without=list(args.without), facts=args.facts, unreachable=args.unreachable,
                           all_scores=args.all_scores, rules=args.rules, rule=list(args.rule),
                           timeout=args.timeout, rlimit=args.rlimit, game=args.game, menu=args.menu,
                           players=args.players, player=args.player, scores=args.scores)
    if args.json:
        print_json(out.data)
        return out.code
    if args.game == "party":
        return _party(args, out)
    rules, result = out.detail[0], out.detail[1:]
    if isinstance(result[0], Exception):
        print(str(result[0]))  # Z3 ran out of its budget: the text names it and the budget
        return out.code
    if args.all_scores:
        return _all_scores(args, result[0])
    if args.unreachable:
        return _unreachable(args, *result)
    if args.facts:
        return _facts(args, result[0])
    return _list(args, rules, result[0])


def _party(args: argparse.Namespace, out: Outcome) -> int:
    """A Party listing: the count and the seat's tableaux (docs/party.md)."""
    d = out.data
    scores = d["scores"]
    whose = (f"player {d['player']} scores {scores[str(d['player'])]}" if len(scores) == 1 else
             f"the table scores {', '.join(str(v) for v in scores.values())}, player {d['player']}'s tableau")
    size = (f"{d['cards']} card{'' if d['cards'] == 1 else 's'} a seat" if d["cards"] is not None
            else "final tableaux")
    head = f"{d['count']}{'' if d['complete'] else ' or more'} tableaux ({size}; menu {d['menu']}, " \
           f"{d['players']} players): {whose}"
    if "tableaux" in d and len(d["tableaux"]) < d["count"]:
        head += f" (showing {len(d['tableaux'])})"
    if d.get("status") == "unknown":
        print(f"unknown: {d['reason']}; tableaux found before the budget ran out: {d['count']}")
        return out.code
    if args.count:
        print(d["count"] if d["complete"] else f"{d['count']} or more")
        return out.code
    print(head)
    for t in d["tableaux"]:
        print(f"  {t}")
    return out.code


def _all_scores(args: argparse.Namespace, counts: dict[int, int]) -> int:
    maki = f" with {args.maki_points} maki points" if args.maki_points else ""
    print_table([[s, n] for s, n in counts.items()], ["score", "count"],
                title=f"{sum(counts.values())} tableaux of {args.cards} cards{maki}, by score:")
    return 0


def _list(args: argparse.Namespace, rules: Ruleset, e: Enumeration | int) -> int:
    from sushigo.solver.tableaux import breakdown

    if isinstance(e, int):  # --count: the exact count alone
        print(e)
        return 0
    maki = f" with {args.maki_points} maki points" if args.maki_points else ""
    print(f"{e.count} tableaux of {args.cards} cards score {args.score}{maki}"
          + ("" if e.complete else f" (showing {len(e.tableaux)})"))
    ordered = sorted(e.tableaux, key=lambda t: (breakdown(t, rules), [-n for n in t.counts]))
    for label, group in groupby(ordered, key=lambda t: breakdown(t, rules)):
        items = list(group)
        print(f"\n{label} ({len(items)}):")
        for t in items:
            print(f"  {t}")
    return 0


def _facts(args: argparse.Namespace, result: list[TokenFact] | None) -> int:
    if result is None:
        print(f"no tableau of {args.cards} cards scores {args.score}")
        return 1
    rows = [[f.token.label, f.low, f.high] for f in result if f.high > 0]
    print_table(rows, ["token", "min", "max"],
                title=f"Every tableau of {args.cards} cards scoring {args.score} (bounds proved; "
                      "tokens that never appear left out):")
    for f in result:
        if f.low > 0:
            print(f"every way to score {args.score} with {args.cards} cards has at least "
                  f"{f.low} {f.token.label}")
    never = [f.token.label for f in result if f.high == 0 and f.cap > 0]
    if never:
        print(f"no way to score {args.score} with {args.cards} cards uses: {', '.join(never)}")
    return 0


def _unreachable(args: argparse.Namespace, hi: int | None, missing: list[int]) -> int:
    if hi is None:
        print(f"no tableau of {args.cards} cards exists")
        return 1
    print(f"maximum with {args.cards} cards: {hi}")
    print(f"unreachable scores (0..{hi}): {', '.join(map(str, missing)) if missing else 'none'}")
    return 0
