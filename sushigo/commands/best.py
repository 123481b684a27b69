"""``sushigo best``: the most a player could score, with the picks and a proof nothing beats it."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from sushigo.solver.best import ENGINES, solve_hindsight, solve_puzzle
from sushigo.solver.best_dummy import DummyHindsight, dummy_hindsight_from_json, solve_dummy_hindsight
from sushigo.solver.search import (
    STATUS_OPTIMAL,
    BestResult,
    Hindsight,
    Puzzle,
    hindsight_from_record,
    parse_hindsight,
    parse_puzzle,
    replay_puzzle,
    replay_round,
)
from sushigo.spec.cards import Token
from sushigo.spec.errors import InputError
from sushigo.spec.turns import Turn, format_turn
from sushigo.common import (
    add_json_arg,
    add_rules_args,
    budget_seconds,
    load_json,
    print_json,
    print_table,
    rules_from_args,
)

ORDER = 40

DEFAULT_TIMEOUT = 60.0

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
--timeout budget ran out first, with the best score found so far. Details: docs/best.md
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "best",
        help="highest score reachable (a puzzle, a recorded round, or over all deals), proved",
        description="The most a player can score: for a fixed sequence of hands, for one seat of a "
        "recorded round (the others' picks fixed), or over all deals; with the optimal picks and a "
        "solver proof that one point more is unreachable.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("input", nargs="?", metavar="FILE",
                        help="puzzle, round or game record JSON ('-' for standard input)")
    parser.add_argument("--engine", choices=ENGINES, default="z3",
                        help="z3 (certified, default) or search (exhaustive dynamic programme)")
    parser.add_argument("--timeout", type=budget_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help="z3 budget (default %(default)s); past it the answer is 'unknown'")
    parser.add_argument("--seat", type=int, metavar="K", help="seat (0-based) of a game record")
    parser.add_argument("--round", nargs="?", const="all", default=None, metavar="R",
                        help="with a game record: the round (from 1); alone: best round score over "
                        "all deals")
    parser.add_argument("--game", action="store_true", help="best game score over all deals")
    parser.add_argument("--players", type=int, metavar="N",
                        help="over all deals: this player count only (default: table for 2..5)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="over all deals: seed of the local search that starts the losing-game "
                        "question (default 0; recorded in the output)")
    add_rules_args(parser, default=None)
    add_json_arg(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.timeout <= 0:
        raise InputError(f"--timeout must be positive, got {args.timeout}")
    if args.input is None:
        if args.round is None and not args.game:
            raise InputError("give a puzzle file, or --round / --game for the best over all deals")
        if args.round not in (None, "all"):
            raise InputError(f"--round {args.round} needs a game record file; alone, --round takes no value")
        if args.seat is not None:
            raise InputError("--seat needs a game record file")
        return _run_alldeals(args)
    if args.game or args.players is not None or args.seed != 0:
        raise InputError("--game, --players and --seed are for the best over all deals; "
                         "give no file with them")
    data = load_json(args.input, "best-input")
    if not isinstance(data, dict):
        raise InputError(f"{args.input}: expected a JSON object (a puzzle, a round or a game record)")
    rules = rules_from_args(args, data.get("rules"))
    if data.get("format") == "sushigo-record/1" or "rounds" in data:
        if args.round in (None, "all") or args.seat is None:
            raise InputError("a game record needs --round R (from 1) and --seat K (from 0)")
        try:
            rnd = int(args.round)
        except ValueError as exc:
            raise InputError(f"--round must be a round number, got {args.round!r}") from exc
        if rules.dummy_2p:
            return _show_dummy(args, dummy_hindsight_from_json(data, rnd, args.seat, rules))
        h = hindsight_from_record(data, rnd, args.seat, rules)
        return _show_hindsight(args, h, solve_hindsight(h, args.engine, args.timeout))
    if args.round is not None or args.seat is not None:
        raise InputError("--round and --seat apply to a game record; a round JSON names its own \"seat\"")
    if "deal" in data and rules.dummy_2p:
        return _show_dummy(args, dummy_hindsight_from_json(data, None, None, rules))
    if "deal" in data:
        h = parse_hindsight(data, rules)
        return _show_hindsight(args, h, solve_hindsight(h, args.engine, args.timeout))
    puzzle = parse_puzzle(data, rules)
    return _show_puzzle(args, puzzle, solve_puzzle(puzzle, args.engine, args.timeout))


def _status_line(res: BestResult) -> str:
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
    return [[t + 1, _hand_text(h), " ".join(format_turn(turn)), score]
            for t, (h, turn, score) in enumerate(zip(hands, picks, running, strict=True))]


def _show_puzzle(args: argparse.Namespace, puzzle: Puzzle, res: BestResult) -> int:
    if args.json:
        print_json(res.as_json())
    else:
        if res.picks:
            running = replay_puzzle(puzzle, res.picks)
            print_table(_rows(list(puzzle.hands), res.picks, running), ["turn", "hand", "picks", "score"],
                        title=f"rules {puzzle.rules.describe()}; opponents' maki "
                        f"{list(puzzle.opponents_maki) or 'none'}")
        print(_status_line(res))
    return 0 if res.status == STATUS_OPTIMAL else 1


def _show_hindsight(args: argparse.Namespace, h: Hindsight, res: BestResult) -> int:
    if args.json:
        print_json(res.as_json())
    else:
        if res.picks:
            hands, running = _seat_view(h, res.picks)
            print_table(_rows(hands, res.picks, running), ["turn", "hand", "picks", "score"],
                        title=f"seat {h.seat} of {h.seats}, round {h.round_index + 1}, rules "
                        f"{h.rules.describe()}; the other seats' picks as recorded")
        print(_status_line(res))
        print(f"actual score {res.extra['actual']} (recorded picks)")
    return 0 if res.status == STATUS_OPTIMAL else 1


def _show_dummy(args: argparse.Namespace, h: DummyHindsight) -> int:
    """Form 2 under dummy-2p: always the exhaustive search (``--engine`` and ``--timeout`` unused)."""
    res = solve_dummy_hindsight(h)
    if args.json:
        print_json(res.as_json())
        return 0
    rows = [[t + 1, " ".join(format_turn(turn)), "-" if gift is None else " ".join(gift)]
            for t, (turn, gift) in enumerate(zip(res.picks, res.extra["gifts"], strict=True))]
    print_table(rows, ["turn", "picks", "to the dummy"],
                title=f"seat {h.seat} of 2 (dummy-2p), round {h.round_index + 1}, rules "
                f"{h.rules.describe()}; the other player's picks and gifts to the dummy as recorded; "
                "engine: search")
    print(_status_line(res))
    print(f"actual score {res.extra['actual']} (recorded picks)")
    return 0


def _seat_view(h: Hindsight, picks: tuple[Turn, ...]) -> tuple[list[list[int]], list[int]]:
    """The hands the seat holds and its running score along ``picks`` (others as recorded)."""
    from sushigo.solver.search import tableau_score
    from sushigo.spec.scoring import maki_icons
    from sushigo.spec.turns import apply_turn

    tabs_end, _ = replay_round(h, picks)
    icons = [maki_icons(tabs_end[i], h.rules) for i in range(h.seats) if i != h.seat]
    piles = [list(d) for d in h.deal]
    tabs = [[0] * len(Token) for _ in range(h.seats)]
    hands, running = [], []
    for t in range(len(picks)):
        for i in range(h.seats):
            pile = piles[h.pile_at(i, t)]
            if i == h.seat:
                hands.append(list(pile))
            apply_turn(pile, tabs[i], picks[t] if i == h.seat else h.picks[i][t], h.rules)
        running.append(tableau_score(tabs[h.seat], icons, h.rules))
    return hands, running


def _run_alldeals(args: argparse.Namespace) -> int:
    from sushigo.solver.alldeals import best_over_deals

    if args.engine != "z3":
        raise InputError(f"--engine {args.engine} solves puzzles and recorded rounds; the best over all "
                         "deals is answered by z3 only (drop --engine)")
    rules = rules_from_args(args)
    if args.players is not None:
        rules.hand_size(args.players)  # rejects a player count the rules do not allow
        counts = [args.players]
    elif rules.dummy_2p:
        counts = [2]  # the variant is for two players (and the dummy)
    else:
        counts = list(range(rules.min_players, rules.max_players + 1))
    kinds = [k for k, on in (("round", args.round is not None), ("game", args.game)) if on]
    rows, docs, notes = [], [], []
    all_optimal = True
    for kind in kinds:
        for n in counts:
            best = best_over_deals(n, kind, rules, False, args.timeout, args.seed)
            lose = best_over_deals(n, kind, rules, True, args.timeout, args.seed)
            all_optimal = all_optimal and best.status == lose.status == STATUS_OPTIMAL
            for what, res in (("best", best), ("best losing", lose)):
                if res.status != STATUS_OPTIMAL:
                    notes.append(f"{kind}, {n} players, {what}: unknown ({res.reason}); best found "
                                 f"{_cell(res.score)}; budget {args.timeout:g} s")
            rows.append([kind, n, _cell(best.score), best.status, _cell(lose.score), lose.status,
                         " | ".join(str(t) for t in (best.tableaux[0] if best.tableaux else ())[:1]) or "-",
                         f"{best.seconds + lose.seconds:.1f}"])
            docs.append({
                "kind": kind, "players": n,
                "best": _alldeals_json(best, args.timeout), "best_losing": _alldeals_json(lose, args.timeout),
            })
    if args.json:
        print_json({"rules": rules.describe(), "seed": args.seed, "results": docs})
    else:
        print_table(rows, ["kind", "players", "best", "status", "best losing", "status",
                           "player's tableau (round 1)", "s"],
                    title=f"best single-player score over all deals, rules {rules.describe()}, "
                    f"seed {args.seed}; "
                    "'best losing': highest total while another player finishes higher")
        print("optimal = the solver proved best+1 unreachable; every witness game was replayed by "
              "the executor to the same score")
        for note in notes:
            print(note)
    return 0 if all_optimal else 1


def _cell(score: int | None) -> str:
    return "-" if score is None else str(score)


def _alldeals_json(res: Any, budget: float) -> dict[str, Any]:
    out: dict[str, Any] = res.as_json()
    out["seconds"] = round(res.seconds, 3)
    if res.status != STATUS_OPTIMAL:
        out["budget_seconds"] = budget
    out["witness"] = res.record
    return out
