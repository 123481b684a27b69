"""``sushigo score``: score one round given as tableaux, or a score document of 1..3 rounds."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from sushigo.common import add_json_arg, add_rules_args, print_json, print_table

if TYPE_CHECKING:
    from sushigo.spec.document import ScoreDocument
    from sushigo.spec.scoring import GameScore

ORDER = 20
HELP = "score a round from tableaux, or a game from a JSON score document"

_EPILOG = """\
examples:
  sushigo score "maki3 maki1 tempura*2 dumpling*3 wasabi+salmon" "maki3 sashimi*3 egg" \\
                "sashimi*2 tempura dumpling*5"
  sushigo score game.json            # {"rules": "official", "rounds": [[T1, T2, ...], ...]}
  sushigo score - --json < game.json
tableau notation: docs/notation.md (names, aliases, name*N, wasabi+squid stacks, '-' for empty)
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "score",
        help=HELP,
        description="Score one round (each argument is one player's tableau) or 1 to 3 rounds "
        "from a JSON score document (FILE or '-' for standard input). Puddings are scored when "
        "every round is given.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "inputs",
        nargs="+",
        metavar="FILE.json|-|TABLEAU",
        help="one JSON score document, or one tableau per player",
    )
    add_rules_args(parser, default=None)
    add_json_arg(parser)
    parser.set_defaults(func=run)


def _seat_label(seat: int, doc: ScoreDocument) -> str:
    return "dummy" if seat >= doc.players else f"player {seat}"


def _winners_line(score: GameScore, doc: ScoreDocument) -> str:
    if score.winners:
        seats = ", ".join(str(k) for k in score.winners)
        if len(score.winners) == 1:
            k = score.winners[0]
            return f"winner: player {seats} with {score.totals[k]} points"
        return (
            f"winners (shared, tied on points and puddings): players {seats} "
            f"with {score.totals[score.winners[0]]} points"
        )
    best = max(score.totals[:doc.players])
    tied = [k for k in range(doc.players) if score.totals[k] == best]
    return (
        f"no winner: players {', '.join(map(str, tied))} are still tied after the pudding tie-break "
        f"(winner_tie={doc.rules.winner_tie})"
    )


def _print_tables(score: GameScore, doc: ScoreDocument) -> None:
    from sushigo.spec.scoring import CATEGORIES
    from sushigo.spec.tableau import format_tableau

    print(f"rules: {doc.rules.describe()}")
    for r, (scores, tableaux) in enumerate(zip(score.rounds, doc.rounds, strict=True)):
        rows = [
            [_seat_label(k, doc), *(getattr(s, c) for c in CATEGORIES), s.total, format_tableau(t)]
            for k, (s, t) in enumerate(zip(scores, tableaux, strict=True))
        ]
        print()
        print_table(rows, ["player", *CATEGORIES, "total", "tableau"], title=f"round {r + 1}")
    if len(score.rounds) > 1 or score.pudding is not None:
        rows = []
        for k in range(doc.seats):
            sums = [sum(getattr(rs[k], c) for rs in score.rounds) for c in CATEGORIES]
            pudding = "-" if score.pudding is None else score.pudding[k]
            rows.append([_seat_label(k, doc), *sums, pudding, score.totals[k], score.puddings[k]])
        title = "game" if score.pudding is not None else (
            f"game so far ({len(score.rounds)} of {doc.rules.rounds} rounds, puddings not scored yet)"
        )
        print()
        print_table(rows, ["player", *CATEGORIES, "pudding", "total", "puddings held"], title=title)
    print()
    print(_winners_line(score, doc))


def run(args: argparse.Namespace) -> int:
    from sushigo.api.score import score_outcome

    out = score_outcome(list(args.inputs), rules=args.rules, rule=list(args.rule))
    if args.json:
        print_json(out.data)
    else:
        doc, score = out.detail
        _print_tables(score, doc)
    return out.code
