"""OpenSpiel's information-set MCTS against the executor's ``greedy`` and ``random`` players.

Needs the ``openspiel`` extra. Two players, ``python_sushigo(turn_based=true,utility=diff)``
(ISMCTS only searches sequential games; the turn-based form keeps each pick hidden until
the turn is revealed). Game ``g`` deals from ``random.Random(seed + g)``; ISMCTS sits in
seat ``g % 2``; its generator is ``numpy.random.RandomState(seed + g)``, the opponent's
``random.Random(seed + g)``: the same command prints the same table.

    python examples/ismcts_vs_policies.py --games 120 --simulations 10 --world-samples 3 --jobs 4
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from tabulate import tabulate

from sushigo import openspiel as sg
from sushigo.actions import encode
from sushigo.spec.cards import Token
from sushigo.spec.policies import POLICIES, PlayerView, Policy
from sushigo.spec.step import options


def policy_action(state: Any, seat: int, policy: Policy, rng: random.Random) -> int:
    """The action a ``spec.policies`` policy takes, seeing what the executor would show it."""
    step = state.step
    pud = int(Token.PUDDING)
    view = PlayerView(
        seat=seat,
        target=seat,
        players=step.players,
        round_index=step.round_index,
        turn=step.turn,
        hand=step.hands[seat],
        tableaux=step.tableaux,
        puddings=tuple(step.kept[s] + step.tableaux[s][pud] for s in range(step.seats)),
        scores=step.scores,
        rules=step.rules,
    )
    return encode(policy.choose(view, options(step, seat), rng))


def load() -> Any:
    return pyspiel.load_game(sg.GAME_NAME, {"players": 2, "utility": "diff", "turn_based": True})


def play(
    game: Any, opponent: str, seed: int, simulations: int, uct_c: float, world_samples: int = -1
) -> tuple[int, int, float]:
    """One game; returns (ISMCTS total, opponent total, ISMCTS's share of the win)."""
    me = seed % 2
    deal_rng = random.Random(seed)
    np_rng = np.random.RandomState(seed % 2**32)
    evaluator = mcts.RandomRolloutEvaluator(1, np_rng)
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c, simulations, max_world_samples=world_samples, random_state=np_rng
    )
    policy = POLICIES[opponent]()
    policy_rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(deal_rng.choices(cards, probs)[0])
        elif state.current_player() == me:
            state.apply_action(int(bot.step(state)))
        else:
            state.apply_action(policy_action(state, state.current_player(), policy, policy_rng))
    score = state.step.score()  # the executor's scoring: totals, then puddings, then winner_tie
    share = 1 / len(score.winners) if me in score.winners else 0.0
    return score.totals[me], score.totals[1 - me], share


def _play_one(job: tuple[str, int, int, float, int]) -> tuple[int, int, float]:
    opponent, seed, simulations, uct_c, world_samples = job
    return play(load(), opponent, seed, simulations, uct_c, world_samples)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=150, help="games per opponent (default 150)")
    ap.add_argument("--simulations", type=int, default=30, help="ISMCTS simulations per move (default 30)")
    ap.add_argument(
        "--uct-c", type=float, default=10.0, help="UCT exploration constant (default 10: payoffs are points)"
    )
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument(
        "--world-samples", type=int, default=-1, help="ISMCTS max_world_samples (default -1: unlimited)"
    )
    ap.add_argument("--jobs", type=int, default=1, help="processes playing games at once (default 1)")
    ap.add_argument(
        "--opponent", action="append", choices=sorted(POLICIES), help="opponent (repeatable; default both)"
    )
    args = ap.parse_args(argv)
    rows = []
    for opponent in args.opponent or ["random", "greedy"]:
        t0 = time.monotonic()
        settings = (args.simulations, args.uct_c, args.world_samples)
        jobs = [(opponent, args.seed + g, *settings) for g in range(args.games)]
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(_play_one, jobs)  # in seed order, whatever the number of jobs
        mine = [a for a, _, _ in results]
        theirs = [b for _, b, _ in results]
        wins = sum(w for _, _, w in results)
        rows.append(
            [
                opponent,
                len(results),
                f"{statistics.fmean(mine):.1f}",
                f"{statistics.fmean(theirs):.1f}",
                f"{statistics.fmean(a - b for a, b, _ in results):+.1f}",
                f"{wins / len(results):.1%}",
                f"{time.monotonic() - t0:.0f}",
            ]
        )
    print(
        f"ISMCTS ({args.simulations} simulations, world samples {args.world_samples}, uct_c {args.uct_c}, "
        "random rollouts) vs executor "
        f"policies, 2 players, official rules, seeds {args.seed}..{args.seed + args.games - 1}\n"
    )
    print(
        tabulate(
            rows,
            headers=["opponent", "games", "ISMCTS mean", "opp. mean", "mean diff", "ISMCTS wins", "seconds"],
            disable_numparse=True,
        )
    )
    print("(wins by the executor's rules: points, then puddings; a shared win counts half)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
