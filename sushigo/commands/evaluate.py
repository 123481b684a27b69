"""``sushigo evaluate ADAPTER``: a bot's regret against exact play, and its win shares."""

from __future__ import annotations

import argparse
from typing import Any

from sushigo.common import add_jobs_args, add_json_arg, add_rules_args, print_json, print_table

ORDER = 78
HELP = "a bot's regret against exact play on seeded endgames, and its win shares against policies"

_EPILOG = """\
ADAPTER is a .py file defining choose(observation) -> turn (the protocol: docs/evaluate.md;
examples/policy_adapter.py), run in its own process under --call-timeout and --memory-limit, or a
built-in policy (greedy, lookahead:...), evaluated the same way. Regret of a move: the
equilibrium value of the point difference minus the move's value when the other seat plays its
equilibrium strategy (solver.endgame); positions: seeded two-player endgames of 2 to 4 cards.

examples:
  sushigo evaluate examples/policy_adapter.py
  sushigo evaluate greedy --positions 500 --games 200 --against random,greedy,lookahead
"""


def register(subparsers: Any) -> None:
    from sushigo.api.evaluate import DEFAULT_AGAINST, DEFAULT_GAMES, DEFAULT_POSITIONS

    p = subparsers.add_parser(
        "evaluate", help=HELP, epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Measure a bot: its mean regret against exact play on seeded two-player endgame "
        "positions (points lost against the equilibrium value when the other seat plays the "
        "equilibrium), with its 95% interval and the worst position, and its win shares in "
        "seat-rotated games against --against.")
    p.add_argument("adapter", metavar="ADAPTER", help="a .py file with choose(observation), or a policy name")
    p.add_argument("--positions", type=int, default=DEFAULT_POSITIONS, metavar="N",
                   help=f"endgame positions (default {DEFAULT_POSITIONS})")
    p.add_argument("--games", type=int, default=DEFAULT_GAMES, metavar="N",
                   help=f"games against each policy of --against (default {DEFAULT_GAMES}; 0: none)")
    p.add_argument("--against", default=",".join(DEFAULT_AGAINST), metavar="P1,P2,...",
                   help=f"policies to play against (default {','.join(DEFAULT_AGAINST)})")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="seed of the first position and of the first deal (default 0)")
    p.add_argument("--call-timeout", default="2", metavar="SECONDS",
                   help="time limit of one call of the adapter (default 2)")
    p.add_argument("--memory-limit", type=int, default=2048, metavar="MB",
                   help="address-space limit of the adapter's process (default 2048; 0: none)")
    add_rules_args(p)
    add_jobs_args(p, "local worker processes playing the games (default: none, all in this process)")
    add_json_arg(p)
    p.set_defaults(func=run)


def print_report(data: dict[str, Any]) -> None:
    r = data["regret"]
    ci = r["ci95"]
    print(f"evaluate: {data['adapter']} ({data['kind']}), {data['rules']}, seed {data['first_seed']}")
    print()
    print(f"regret against exact play over {r['positions']} endgame positions: mean {r['mean']:.3f} points"
          + (f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "")
          + f", max {r['max']:g}; nothing lost on {r['zero_share']:.1%} of them")
    w = r["worst"]
    if w is not None and w["regret"] > 0:
        print(f"worst: position {w['index']} ({', '.join(' '.join(h) for h in w['position']['hands'])}): "
              f"played {' '.join(w['move'])}, lost {w['regret']:g} points")
    if data["against"]:
        rows = [[a["policy"], a["games"],
                 f"{a['win_share']:.1%}" + (f" [{a['win_share_ci95'][0]:.1%}, {a['win_share_ci95'][1]:.1%}]"
                                            if a["win_share_ci95"] else ""),
                 f"{a['mean_score']:.2f}", f"{a['opponent_mean_score']:.2f}"] for a in data["against"]]
        print()
        print_table(rows, ["against", "games", "win share", "mean score", "opponent's"])
    print()
    print("[low, high]: 95% intervals (regret: normal approximation over positions; win shares: Wilson)")


def run(args: argparse.Namespace) -> int:
    from sushigo.api.evaluate import evaluate_outcome

    out = evaluate_outcome(args.adapter, positions=args.positions, games=args.games, against=args.against,
                           seed=args.seed, rules=args.rules, rule=list(args.rule),
                           call_timeout=args.call_timeout, memory_limit=args.memory_limit, jobs=args.jobs,
                           cluster=args.cluster)
    if args.json:
        print_json(out.data)
    else:
        print_report(out.data)
    return out.code
