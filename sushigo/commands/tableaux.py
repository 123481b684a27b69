"""``sushigo tableaux``: every final tableau of K cards scoring exactly S."""

from __future__ import annotations

import argparse
from itertools import groupby

from sushigo.common import add_json_arg, add_rules_args, print_json, print_table, rules_from_args
from sushigo.solver.counting import count_score, score_counts
from sushigo.solver.tableaux import (
    Filters,
    SolverUnknown,
    breakdown,
    enumerate_tableaux,
    facts,
    parse_filters,
    unreachable,
)
from sushigo.spec.errors import InputError
from sushigo.spec.ruleset import Ruleset

ORDER = 50


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "tableaux",
        help="all tableaux of K cards that score exactly S",
        description="All final tableaux holding exactly K cards (a stack counts as 2) within the deck "
        "whose round score is exactly S when the player's maki points are M.",
    )
    p.add_argument("--score", type=int, metavar="S", help="round score, maki points included")
    p.add_argument("--cards", type=int, required=True, metavar="K", help="cards in the tableau")
    p.add_argument("--maki-points", type=int, default=0, metavar="M",
                   help="the player's maki points (default 0; M > 0 needs at least one maki icon)")
    p.add_argument("--count", action="store_true", help="print only the number of tableaux")
    p.add_argument("--all-scores", action="store_true",
                   help="with --count: the number of tableaux for every score (a table of score, count)")
    p.add_argument("--limit", type=int, default=None, metavar="N", help="print at most N tableaux")
    p.add_argument("--must", action="append", default=[], metavar="TABLEAU",
                   help="keep tableaux holding at least these tokens, e.g. 'sashimi*3' (repeatable)")
    p.add_argument("--without", action="append", default=[], metavar="NAME",
                   help="drop tableaux holding this card (a card name also rules out its stack; "
                        "a stack name rules out only that stack) (repeatable)")
    p.add_argument("--facts", action="store_true",
                   help="per token, the proved minimum and maximum over every consistent tableau")
    p.add_argument("--unreachable", action="store_true",
                   help="list the scores 0..maximum that no tableau of K cards reaches")
    add_rules_args(p)
    add_json_arg(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    filters = parse_filters(args.must, args.without)
    if args.limit is not None and args.limit < 0:
        raise InputError(f"--limit must be 0 or more, got {args.limit}")
    if not 0 <= args.cards <= rules.deck_size():
        raise InputError(
            f"--cards {args.cards}: a tableau holds 0 to {rules.deck_size()} cards (the whole deck); "
            f"a real round deals {min(s for _, s in rules.hand_sizes)} to "
            f"{max(s for _, s in rules.hand_sizes)}"
        )
    try:
        if args.all_scores:
            return _all_scores(args, rules, filters)
        if args.unreachable:
            return _unreachable(args, rules, filters)
        if args.score is None:
            raise InputError("give --score S (or --unreachable)")
        if args.facts:
            return _facts(args, rules, filters)
        return _list(args, rules, filters)
    except SolverUnknown as exc:
        print(str(exc))
        return 1


def _list(args: argparse.Namespace, rules: Ruleset, filters: Filters) -> int:
    if args.count:
        n = count_score(args.score, args.cards, args.maki_points, rules, filters)
        if args.json:
            print_json({"count": n})
        else:
            print(n)
        return 0
    limit = args.limit
    e = enumerate_tableaux(args.score, args.cards, args.maki_points, rules, filters, limit=limit)
    if args.json:
        print_json({"count": e.count, "tableaux": [str(t) for t in e.tableaux]})
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


def _all_scores(args: argparse.Namespace, rules: Ruleset, filters: Filters) -> int:
    if not args.count or args.score is not None or args.facts or args.unreachable:
        raise InputError("--all-scores goes with --count and without --score, --facts or --unreachable: "
                         "sushigo tableaux --cards K --count --all-scores")
    counts = score_counts(args.cards, args.maki_points, rules, filters)
    if args.json:
        print_json({"cards": args.cards, "counts": {str(s): n for s, n in counts.items()}})
        return 0
    maki = f" with {args.maki_points} maki points" if args.maki_points else ""
    print_table([[s, n] for s, n in counts.items()], ["score", "count"],
                title=f"{sum(counts.values())} tableaux of {args.cards} cards{maki}, by score:")
    return 0


def _facts(args: argparse.Namespace, rules: Ruleset, filters: Filters) -> int:
    result = facts(args.score, args.cards, args.maki_points, rules, filters)
    if result is None:
        if args.json:
            print_json({"count": 0, "facts": None})
        else:
            print(f"no tableau of {args.cards} cards scores {args.score}")
        return 1
    if args.json:
        print_json({"facts": [{"token": f.token.label, "min": f.low, "max": f.high} for f in result]})
        return 0
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


def _unreachable(args: argparse.Namespace, rules: Ruleset, filters: Filters) -> int:
    hi, missing = unreachable(args.cards, args.maki_points, rules, filters)
    if args.json:
        print_json({"cards": args.cards, "maximum": hi, "unreachable": missing})
        return 0
    if hi is None:
        print(f"no tableau of {args.cards} cards exists")
        return 1
    print(f"maximum with {args.cards} cards: {hi}")
    print(f"unreachable scores (0..{hi}): {', '.join(map(str, missing)) if missing else 'none'}")
    return 0
