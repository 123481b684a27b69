"""``sushigo best``: the most a player could score, with the picks and a proof nothing beats it."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from sushigo.common import (
    add_jobs_args,
    add_json_arg,
    add_rules_args,
    budget_count,
    budget_seconds,
    print_json,
    print_table,
)

if TYPE_CHECKING:
    from sushigo.api.best import BestDetail
    from sushigo.solver.best_dummy import DummyHindsight
    from sushigo.solver.search import BestResult, Hindsight, Puzzle
    from sushigo.spec.ruleset import Ruleset
    from sushigo.spec.turns import Turn

ORDER = 40
HELP = "highest score reachable (a puzzle, a recorded round, or over all deals), proved"

_EPILOG = """\
forms:
  sushigo best PUZZLE.json              # fixed hands H1..Hk: {"rules", "hands", "opponents_maki"}
  sushigo best ROUND.json               # hindsight: {"rules", "deal", "picks", "seat", "round"}
  sushigo best game.json --round 2 --seat 1    # hindsight on a game record (sushigo play --json)
  sushigo best --players 4 --round      # over all deals: best round score (and best losing one)
  sushigo best --game                   # over all deals: best game score, table for 2..5 players
  sushigo best --game --rules dummy-2p  # over all deals, two players and the dummy (scored as a seat)
dummy-2p rounds: {"rules": "dummy-2p", "deal": [[player 0], [player 1], [dummy pile, top first]],
  "turns": [[p0 turn, p1 turn, gift to the dummy], ...], "seat": K, "round": R}
status: "optimal" only after the solver proved score+1 unreachable; "unknown" (exit 1) when the
--timeout budget ran out first, with the best score found so far. Over all deals, a terminal shows
the best found and the proved bound as the search narrows (not in pipes, not with --json).
Details: docs/best.md
"""


def register(subparsers: Any) -> None:
    from sushigo.api.best import DEFAULT_TIMEOUT, ENGINES

    parser = subparsers.add_parser(
        "best",
        help=HELP,
        description="The most a player can score: for a fixed sequence of hands, for one seat of a "
        "recorded round (the others' picks fixed), or over all deals; with the optimal picks and a "
        "solver proof that one point more is unreachable.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("input", nargs="?", metavar="FILE",
                        help="puzzle, round or game record JSON ('-' for standard input)")
    parser.add_argument("--engine", choices=ENGINES, default=None,
                        help="z3 (certified, default) or search (exhaustive dynamic programme); with "
                        "--game party: search (default) or z3")
    parser.add_argument("--timeout", type=budget_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help="z3 budget (default %(default)s); past it the answer is 'unknown'")
    parser.add_argument("--rlimit", type=budget_count, default=None, metavar="N",
                        help="Z3 resource units each call may spend (machine-independent)")
    parser.add_argument("--seat", type=int, metavar="K", help="seat (0-based) of a game record")
    parser.add_argument("--round", nargs="?", const="all", default=None, metavar="R",
                        help="with a game record: the round (from 1); alone: best round score over "
                        "all deals")
    parser.add_argument("--game", nargs="?", const=True, default=False, metavar="party",
                        help="alone: best game score over all deals; --game party: a Sushi Go Party! "
                        "puzzle or recorded round (docs/party.md)")
    parser.add_argument("--menu", default=None, metavar="MENU",
                        help="with --game party: the menu (a suggested menu's name, or KIND,KIND,...), "
                        "for a seeded puzzle or over a puzzle's own")
    parser.add_argument("--players", type=int, metavar="N",
                        help="over all deals: this player count only (default: table for 2..5)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="over all deals: seed of the local search that starts the losing-game "
                        "question (default 0; recorded in the output); with --game party and no file: "
                        "the seeded puzzle S of --menu")
    add_rules_args(parser, default=None)
    add_jobs_args(parser, "over all deals: local worker processes, one question each (default 1)")
    add_json_arg(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sushigo.api.best import best_outcome
    from sushigo.spec.errors import InputError

    if args.game not in (True, False, "base", "party"):
        raise InputError(f"--game {args.game}: give --game alone (best game over all deals) or --game party")
    out = best_outcome(args.input, engine=args.engine, timeout=args.timeout, seat=args.seat,
                       round=args.round, game=False if args.game == "base" else args.game,
                       players=args.players, seed=args.seed, rules=args.rules, rule=list(args.rule),
                       progress=not args.json, jobs=args.jobs, cluster=args.cluster, rlimit=args.rlimit,
                       menu=args.menu)
    if args.json:
        print_json(out.data)
        return out.code
    detail: BestDetail = out.detail
    # each form's question and result types differ: the detail's form says which
    show: dict[str, Callable[[argparse.Namespace, Any, Any], None]] = {
        "puzzle": _show_puzzle, "hindsight": _show_hindsight, "dummy": _show_dummy,
        "alldeals": _show_alldeals, "party": _show_party}
    show[detail.form](args, detail.question, detail.result)
    return out.code


def _status_line(res: BestResult) -> str:
    from sushigo.api.best import STATUS_OPTIMAL

    if res.status == STATUS_OPTIMAL:
        how = f"proved: {res.score + 1} is unreachable" if res.engine == "z3" else "exhaustive search"
        return f"best score {res.score} (optimal; {how}; {res.engine}, {res.seconds:.2f} s)"
    if not res.picks:
        return f"no answer (unknown: {res.reason}; budget {res.budget:g} s)"
    return (f"best score found {res.score} (unknown: {res.reason}; budget {res.budget:g} s; "
            "a higher score was not ruled out)")


def _hand_text(hand: Sequence[int]) -> str:
    from sushigo.spec.cards import Card

    return " ".join(f"{Card(c).label}*{n}" if n > 1 else Card(c).label for c, n in enumerate(hand) if n > 0)


def _rows(hands: Sequence[Sequence[int]], picks: tuple[Turn, ...], running: list[int]) -> list[list[Any]]:
    from sushigo.spec.turns import format_turn

    return [[t + 1, _hand_text(h), " ".join(format_turn(turn)), score]
            for t, (h, turn, score) in enumerate(zip(hands, picks, running, strict=True))]


def _show_puzzle(args: argparse.Namespace, puzzle: Puzzle, res: BestResult) -> None:
    from sushigo.solver.search import replay_puzzle

    if res.picks:
        running = replay_puzzle(puzzle, res.picks)
        print_table(_rows(list(puzzle.hands), res.picks, running), ["turn", "hand", "picks", "score"],
                    title=f"rules {puzzle.rules.describe()}; opponents' maki "
                    f"{list(puzzle.opponents_maki) or 'none'}")
    print(_status_line(res))


def _show_hindsight(args: argparse.Namespace, h: Hindsight, res: BestResult) -> None:
    if res.picks:
        from sushigo.solver.search import seat_view

        hands, running = seat_view(h, res.picks)
        print_table(_rows(hands, res.picks, running), ["turn", "hand", "picks", "score"],
                    title=f"seat {h.seat} of {h.seats}, round {h.round_index + 1}, rules "
                    f"{h.rules.describe()}; the other seats' picks as recorded")
    print(_status_line(res))
    print(f"actual score {res.extra['actual']} (recorded picks)")


def _show_dummy(args: argparse.Namespace, h: DummyHindsight, res: BestResult) -> None:
    from sushigo.spec.turns import format_turn

    rows = [[t + 1, " ".join(format_turn(turn)), "-" if gift is None else " ".join(gift)]
            for t, (turn, gift) in enumerate(zip(res.picks, res.extra["gifts"], strict=True))]
    print_table(rows, ["turn", "picks", "to the dummy"],
                title=f"seat {h.seat} of 2 (dummy-2p), round {h.round_index + 1}, rules "
                f"{h.rules.describe()}; the other player's picks and gifts to the dummy as recorded; "
                "engine: search")
    print(_status_line(res))
    print(f"actual score {res.extra['actual']} (recorded picks)")


def _show_alldeals(args: argparse.Namespace, rules: Ruleset, answers: list[Any]) -> None:
    from sushigo.api.best import STATUS_OPTIMAL

    rows, notes = [], []
    for kind, n, best, lose in answers:
        for what, res in (("best", best), ("best losing", lose)):
            if res.status != STATUS_OPTIMAL:
                notes.append(f"{kind}, {n} players, {what}: unknown ({res.reason}); best found "
                             f"{_cell(res.score)}; budget {args.timeout:g} s")
        rows.append([kind, n, _cell(best.score), best.status, _cell(lose.score), lose.status,
                     " | ".join(str(t) for t in (best.tableaux[0] if best.tableaux else ())[:1]) or "-",
                     f"{best.seconds + lose.seconds:.1f}"])
    print_table(rows, ["kind", "players", "best", "status", "best losing", "status",
                       "player's tableau (round 1)", "s"],
                title=f"best single-player score over all deals, rules {rules.describe()}, "
                f"seed {0 if args.seed is None else args.seed}; "
                "'best losing': highest total while another player finishes higher")
    print("optimal = the solver proved best+1 unreachable; every witness game was replayed by "
          "the executor to the same score")
    for note in notes:
        print(note)


def _show_party(args: argparse.Namespace, puzzle: Any, res: Any) -> None:
    from sushigo.api.best import STATUS_OPTIMAL

    readings = puzzle.rules.describe()
    where = f"{puzzle.source}; " if puzzle.source else ""
    others = "the other seats' plays as recorded" if puzzle.source else (
        "the other seats' plays as given" if any(p != "-" for t in puzzle.opponents for p in t)
        else "the other seats play nothing")
    if res.plays:
        rows = [[t + 1, _party_hand(hand), play, score]
                for t, (hand, play, score) in enumerate(zip(puzzle.hands, res.plays, res.running,
                                                            strict=True))]
        print_table(rows, ["turn", "hand", "play", "score"],
                    title=f"Sushi Go Party!, menu {puzzle.menu.label}, {puzzle.players} players, {readings}; "
                    f"{where}seat 0's round score, {others}")
    if res.status == STATUS_OPTIMAL:
        how = f"proved: {res.score + 1} is unreachable" if res.engine == "z3" else "exhaustive search"
        print(f"best score {res.score} (optimal; {how}; {res.engine}, {res.seconds:.2f} s)")
    else:
        print(f"no answer (unknown: {res.reason}; budget {res.budget:g} s)")
    if res.actual is not None:
        print(f"actual score {res.actual} (recorded picks)")


def _party_hand(hand: Sequence[str]) -> str:
    from collections import Counter

    return " ".join(f"{c}*{n}" if n > 1 else c for c, n in sorted(Counter(hand).items()))


def _cell(score: int | None) -> str:
    return "-" if score is None else str(score)
