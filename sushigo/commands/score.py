"""``sushigo score``: score one round given as tableaux, or a score document of 1..3 rounds."""

from __future__ import annotations

import argparse
TYPE_CHECKING = False

from sushigo.common import add_game_args, add_json_arg, add_rules_args, print_json, print_table

if TYPE_CHECKING:
    from typing import Any

    from sushigo.spec.document import ScoreDocument
    from sushigo.spec.party.document import PartyGame
    from sushigo.spec.scoring import GameScore

ORDER = 20
HELP = "score a round from tableaux, or a game from a JSON score document"

_EPILOG = """\
examples:
  sushigo score "maki3 maki1 tempura*2 dumpling*3 wasabi+salmon" "maki3 sashimi*3 egg" \\
                "sashimi*2 tempura dumpling*5"
  sushigo score game.json            # {"rules": "official", "rounds": [[T1, T2, ...], ...]}
  sushigo score - --json < game.json
  sushigo score --game party --menu sushi-go "maki3 maki2" "maki2*2 maki1" maki3 maki1
  sushigo score --game party party-game.json   # {"menu": M, "rounds": [[T1, ...] or {"turns": ...}]}
tableau notation: docs/notation.md (names, aliases, name*N, wasabi+squid stacks, '-' for empty);
Sushi Go Party!: docs/party.md
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
    add_game_args(parser, "Party's card names, --menu, --rule NAME=VALUE for its readings",
                  "a Party document's own \"menu\" otherwise")
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


def _print_party(game: PartyGame) -> None:
    """A Party game's rounds, the game so far or whole, and the winner."""
    from sushigo.spec.party.tableau import format_party_tableau

    score = game.score
    label = game.menu.label
    print(f"Sushi Go Party!, menu {label}, {game.players} players; readings: {game.rules.describe()}")
    for r, rnd in enumerate(game.rounds):
        cats = list(rnd.score.rules)
        rows = [[f"player {k}", *(p[c] for c in cats), sum(p.values()), format_party_tableau(t)]
                for k, (p, t) in enumerate(zip(rnd.score.points, rnd.tableaux, strict=True))]
        print()
        print_table(rows, ["player", *cats, "total", "tableau"], title=f"round {r + 1}")
        print("rule ids: " + ", ".join(f"{c} {rule}" for c, rule in rnd.score.rules.items()))
        for event in rnd.events:
            print(event)
    dessert = score.dessert
    if score.dessert_points is None:
        if len(game.rounds) > 1:
            rows = [[f"player {k}", t, n] for k, (t, n) in enumerate(zip(score.totals, score.dessert_cards,
                                                                          strict=True))]
            print()
            print_table(rows, ["player", "total", f"{dessert} held"],
                        title=f"game so far ({len(game.rounds)} of 3 rounds, {dessert} not scored yet)")
        return
    rows = [[f"player {k}", *(r.totals[k] for r in score.rounds), score.dessert_points[k], score.totals[k],
             score.dessert_cards[k]] for k in range(game.players)]
    print()
    print_table(rows, ["player", "round 1", "round 2", "round 3", dessert, "total", "dessert cards"],
                title="game")
    print()
    seats = ", ".join(str(k) for k in score.winners)
    if len(score.winners) == 1:
        print(f"winner: player {seats} with {score.totals[score.winners[0]]} points")
    else:
        print(f"winners (shared, tied on points and dessert cards): players {seats} with "
              f"{score.totals[score.winners[0]]} points")


def run(args: argparse.Namespace) -> int:
    from sushigo.api.score import score_outcome

    out = score_outcome(list(args.inputs), rules=args.rules, rule=list(args.rule), game=args.game,
                        menu=args.menu)
    if args.json:
        print_json(out.data)
    elif args.game == "party":
        _print_party(out.detail)
    else:
        doc, score = out.detail
        _print_tables(score, doc)
    return out.code
