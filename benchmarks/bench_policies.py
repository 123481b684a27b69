"""The policies' strength and speed against the targets of issue 30 (one table).

Matches are seat-rotated and seeded: game ``g`` deals from seed ``first + g`` and puts the
policy under test in seat ``g % players`` (the others in the rest). A win shared by k seats
counts 1/k; each share has its Wilson 95% interval (solver.estimates.share). Per-move times are
CPU seconds of the policy's own ``choose`` (process time, so the other jobs on a shared machine
do not count), their median over every move the policy was asked for.

1. 2 players: ``ismcts:iterations=1000`` vs ``greedy`` (target: wins >= 60%).
2. 2 players: ``exact`` vs ``ismcts:iterations=1000`` (target >= 55%, at equal or less time per
   move: both medians are shown; exact plays ismcts:iterations=1000 until both hands are known).
3. 2 players: ``exact`` vs OpenSpiel's ISMCTS bot (open_spiel.python.algorithms.ismcts, random
   rollouts, through sushigo/openspiel.py's turn-based game), its simulations set so that its
   median time per move matches exact's (measured on the first games, then fixed) (target >= 55%).
   Needs the ``openspiel`` extra; skipped without it.
4. 4 players: ``ismcts:iterations=1000`` in one seat against three ``greedy`` (target >= 35%).
5. Per-move CPU medians: ismcts 1000 at 4 players (target < 0.5 s), exact at 2 players (< 5 s).
6. ``balance examples/tempura6.toml --policy ismcts``: tempura under tempura6 and official with
   their intervals (target: higher under tempura6, intervals apart). Shown: the pick rate (which
   cannot move: every dealt card ends in some tableau, whatever the players choose) and
   ``taken_when_offered``, the share of turns with a tempura in hand that took one (which can).

The issue asks 2,000 games per match (the default); that is hours of CPU. ``--games N`` plays N
per match (the table says how many were played), ``--only 1,4`` picks matches, ``--jobs`` plays
games in parallel processes (the same games and results in any number of jobs).

    python -m benchmarks.bench_policies --games 40 --jobs 2
    python -m benchmarks.bench_policies                 # the full run (2,000 games a match)
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from sushigo.solver.estimates import share
from sushigo.solver.policies import make_policy
from sushigo.spec.executor import play_game
from sushigo.spec.policies import PlayerView, Policy
from sushigo.spec.ruleset import OFFICIAL
from sushigo.spec.turns import Turn
from tabulate import tabulate


class Timed:
    """A policy that records the CPU seconds of each of its moves (with more than one option)."""

    def __init__(self, inner: Policy) -> None:
        self.inner = inner
        self.name = inner.name
        self.seconds: list[float] = []

    def choose(self, view: PlayerView, options: Sequence[Turn], rng: random.Random) -> Turn:
        t0 = time.process_time()
        turn = self.inner.choose(view, options, rng)
        if len(options) > 1:
            self.seconds.append(time.process_time() - t0)
        return turn


def _game(job: tuple[str, str, int, int, int]) -> tuple[float, list[float], list[float], dict[str, int]]:
    """One seat-rotated game: (the tested policy's win share, its move times, the others' move
    times, its counters)."""
    tested, other, players, seed, g = job
    me = g % players
    mine = Timed(make_policy(tested))
    others = [Timed(make_policy(other)) for _ in range(players - 1)]
    seats: list[Policy] = list(others)
    seats.insert(me, mine)
    rec = play_game(players, seed, OFFICIAL, seats)
    won = 1 / len(rec.winners) if me in rec.winners else 0.0
    counters = {k: getattr(mine.inner, k)
                for k in ("solved", "fallen_back", "out_of_budget", "margin", "fallbacks")
                if hasattr(mine.inner, k)}
    return won, mine.seconds, [x for o in others for x in o.seconds], counters


def match(tested: str, other: str, players: int, games: int, first: int, jobs: int) -> dict[str, Any]:
    work = [(tested, other, players, first + g, g) for g in range(games)]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(_game, work)
    else:
        results = [_game(w) for w in work]
    counters: dict[str, int] = {}
    for _, _, _, c in results:
        for k, v in c.items():
            counters[k] = counters.get(k, 0) + v
    return {
        "share": share([r[0] for r in results]),
        "mine": [x for r in results for x in r[1]],
        "theirs": [x for r in results for x in r[2]],
        "counters": counters,
        "games": games,
    }


def _pct(est: Any) -> str:
    if est.value is None:
        return "-"
    ci = "" if est.low is None else f" [{est.low:.1%}, {est.high:.1%}]"
    return f"{est.value:.1%}{ci}"


def _median(xs: Sequence[float]) -> str:
    return f"{statistics.median(xs):.3f}" if xs else "-"


# ----------------------------------------------------------------------------- OpenSpiel
def _openspiel_game(job: tuple[str, int, int, int]) -> tuple[float, list[float], list[float]]:
    """One game of ``tested`` against OpenSpiel's ISMCTS bot with ``simulations`` per move."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from examples.ismcts_vs_policies import policy_action
    from sushigo import openspiel as sg

    tested, simulations, seed, g = job
    game = pyspiel.load_game(sg.GAME_NAME, {"players": 2, "utility": "diff", "turn_based": True})
    me = g % 2
    deal_rng = random.Random(seed)
    np_rng = np.random.RandomState(seed % 2**32)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np_rng), 10.0, simulations,
                           random_state=np_rng)
    mine = Timed(make_policy(tested))
    rng = random.Random(seed)
    bot_seconds: list[float] = []
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(deal_rng.choices(cards, probs)[0])
        elif state.current_player() == me:
            state.apply_action(policy_action(state, me, mine, rng))
        else:
            t0 = time.process_time()
            action = int(bot.step(state))
            if len(state.legal_actions()) > 1:
                bot_seconds.append(time.process_time() - t0)
            state.apply_action(action)
    score = state.step.score()
    return (1 / len(score.winners) if me in score.winners else 0.0), mine.seconds, bot_seconds


def openspiel_match(tested: str, games: int, first: int, jobs: int, target: float) -> dict[str, Any] | str:
    """``tested`` against OpenSpiel's ISMCTS with simulations calibrated to ``target`` seconds a move."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return "skipped: OpenSpiel is not installed (pip install 'sushigo-spec[openspiel]')"
    probe = _openspiel_game((tested, 50, first, 1))
    per_sim = statistics.median(probe[2]) / 50
    simulations = max(1, round(target / per_sim))
    work = [(tested, simulations, first + g, g) for g in range(games)]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(_openspiel_game, work)
    else:
        results = [_openspiel_game(w) for w in work]
    return {"share": share([r[0] for r in results]), "mine": [x for r in results for x in r[1]],
            "theirs": [x for r in results for x in r[2]], "simulations": simulations, "games": games}


# ----------------------------------------------------------------------------- balance
def tempura(games: int, first: int, spec: str) -> tuple[Any, Any, int]:
    """The tempura pick rate of ``spec`` players under tempura6 and official (2 players)."""
    from sushigo.api.balance import balance_outcome

    path = os.path.join(os.path.dirname(__file__), "..", "examples", "tempura6.toml")
    out = balance_outcome(path, games=games, players=2, policy=spec, seed=first, maxima=False,
                          smallest_diff=False)
    rates = []
    for side in ("ruleset", "vs"):
        kind = next(k for k in out.data[side]["kinds"] if k["kind"] == "tempura")
        rates.append((kind["pick_rate"], kind["taken_when_offered"]))
    return rates[0], rates[1], games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games per match (default 2000, the issue's)")
    ap.add_argument("--balance-games", type=int, default=None,
                    help="games per ruleset of part 6 (default --games)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--jobs", type=int, default=1, help="processes playing games at once (default 1)")
    ap.add_argument("--only", default="1,2,3,4,5,6", help="parts to run, e.g. 1,4 (default all)")
    ap.add_argument("--ismcts", default="ismcts:iterations=1000", help="the ismcts spec under test")
    ap.add_argument("--exact", default="exact", help="the exact spec under test")
    ap.add_argument("--balance-policy", default="ismcts", help="the policy of part 6 (default ismcts)")
    args = ap.parse_args(argv)
    parts = {int(p) for p in args.only.split(",")}
    n, first, jobs = args.games, args.seed, args.jobs
    rows: list[list[Any]] = []
    print(f"bench_policies: {n} seat-rotated games per match from seed {first}, official rules, "
          f"{jobs} job(s); load average " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    exact_seconds: list[float] = []
    ismcts4: list[float] = []

    def done() -> None:  # each match's row as soon as it is played (a long run shows what it has)
        print("  " + " | ".join(str(x) for x in rows[-1]), flush=True)

    if 1 in parts:
        m = match(args.ismcts, "greedy", 2, n, first, jobs)
        rows.append(["1", f"{args.ismcts} vs greedy", "2", m["games"], _pct(m["share"]), ">= 60%",
                     _median(m["mine"]), _median(m["theirs"]), ""])
        done()
    if 2 in parts:
        m = match(args.exact, args.ismcts, 2, n, first, jobs)
        exact_seconds += m["mine"]
        c = m["counters"]
        rows.append(["2", f"{args.exact} vs {args.ismcts}", "2", m["games"], _pct(m["share"]), ">= 55%",
                     _median(m["mine"]), _median(m["theirs"]),
                     f"solved {c.get('solved', 0)}, before known {c.get('fallen_back', 0)}, "
                     f"out of budget {c.get('out_of_budget', 0)}, "
                     f"lost round for the margin {c.get('margin', 0)}"])
        done()
    if 3 in parts:
        target = statistics.median(exact_seconds) if exact_seconds else 0.05
        o = openspiel_match(args.exact, n, first, jobs, target)
        if isinstance(o, str):
            rows.append(["3", f"{args.exact} vs OpenSpiel ISMCTS", "2", 0, o, ">= 55%", "", "", ""])
        else:
            exact_seconds += o["mine"]
            rows.append(["3", f"{args.exact} vs OpenSpiel ISMCTS ({o['simulations']} simulations)", "2",
                         o["games"], _pct(o["share"]), ">= 55%", _median(o["mine"]), _median(o["theirs"]),
                         ""])
        done()
    if 4 in parts:
        m = match(args.ismcts, "greedy", 4, n, first, jobs)
        ismcts4 += m["mine"]
        rows.append(["4", f"{args.ismcts} vs 3 greedy", "4", m["games"], _pct(m["share"]), ">= 35%",
                     _median(m["mine"]), _median(m["theirs"]), ""])
        done()
    print()
    print(tabulate(rows, headers=["part", "match", "players", "games", "win share [95%]", "target",
                                  "s/move (tested)", "s/move (other)", "notes"], disable_numparse=True))
    if 5 in parts:
        if not ismcts4:
            ismcts4 = match(args.ismcts, "greedy", 4, max(1, n // 10), first, jobs)["mine"]
        if not exact_seconds:
            exact_seconds = match(args.exact, args.ismcts, 2, max(1, n // 10), first, jobs)["mine"]
        print()
        print(tabulate([
            [f"{args.ismcts}, 4 players", len(ismcts4), _median(ismcts4), "< 0.5",
             f"{max(ismcts4):.3f}" if ismcts4 else "-"],
            [f"{args.exact}, 2 players", len(exact_seconds), _median(exact_seconds), "< 5",
             f"{max(exact_seconds):.3f}" if exact_seconds else "-"],
        ], headers=["per-move CPU seconds", "moves", "median", "target", "max"], disable_numparse=True))
    if 6 in parts:
        games = args.balance_games or n
        a, b, played = tempura(games, first, args.balance_policy)

        def ci(e: dict[str, Any]) -> str:
            return f"{e['value']:.3f} [{e['ci95'][0]:.3f}, {e['ci95'][1]:.3f}]"

        print()
        print(tabulate([[f"tempura {what}, {args.balance_policy} (2 players)", played, ci(a[i]), ci(b[i]),
                         "yes" if a[i]["ci95"][0] > b[i]["ci95"][1] else "no"]
                        for i, what in enumerate(("pick rate", "taken when in hand"))],
                       headers=["balance examples/tempura6.toml", "games", "tempura6", "official",
                                "higher, intervals apart"], disable_numparse=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
