"""``sushigo.ladder``: policies against each other in seat-rotated seeded matches; win shares
with Wilson intervals and Bradley-Terry ratings with bootstrap intervals (docs/ladder.md)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from sushigo.api.base import MAX_GAMES, Outcome, Rule, public, rules_from_options, tagged
from sushigo.spec.errors import InputError, check_first_seed

FORMAT = "sushigo-ladder-result/1"
DEFAULT_POLICIES = ("random", "greedy")
DEFAULT_GAMES = 200
#: Games per task when the games are spread over workers (--jobs, --cluster).
CHUNK = 20
SCHEDULE = ("every set of PLAYERS distinct policies is a table; a table plays GAMES games, game k "
            "dealing seed SEED + k // PLAYERS with the policies rotated k % PLAYERS seats, so every "
            "table meets the same deals and each policy sits in every seat of a deal")
TIES = ("a win shared by k seats counts 1/k to each, a game without a winner 0; for the ratings a "
        "winner beats every other seat and winners tie among themselves (half a win each way), "
        "a game without a winner is a tie between every pair")
RATING = ("Bradley-Terry by maximum likelihood (MM algorithm) with one virtual tied game per pair that "
          "met, on the Elo scale (400 log10 strength) centred on the mean; 95% intervals: percentiles of "
          "a bootstrap over games, seeded by the ladder's seed")

Progress = Callable[[int, int], None]


def policy_list(policies: str | Sequence[str] | None) -> list[str]:
    """``--policies a,b,c`` (text or a list; commas inside a policy's options are kept with it:
    ``ismcts:iterations=100,time=1`` is one policy)."""
    if policies is None:
        return list(DEFAULT_POLICIES)
    if isinstance(policies, str):
        parts: list[str] = []
        for piece in policies.split(","):
            piece = piece.strip()
            # NAME:OPT=V,OPT2=V2: a piece with '=' and no ':' continues the previous policy's options
            if parts and "=" in piece and ":" not in piece:
                parts[-1] += "," + piece
            else:
                parts.append(piece)
        policies = parts
    if not isinstance(policies, Sequence) or not all(isinstance(p, str) for p in policies):
        raise InputError(f"policies must be names like 'random,greedy', got {policies!r}")
    names = [p.strip() for p in policies]
    if any(not p for p in names):
        raise InputError(f"an empty policy name in {','.join(names)!r}; give names like 'random,greedy'")
    return names


def whole_number(option: str, value: object, lo: int, hi: int) -> int:
    """A whole number from ``lo`` to ``hi`` (an int, never a bool), or one line naming the option."""
    if isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi:
        return value
    raise InputError(f"{option} must be a whole number from {lo} to {hi}, got {value!r}")


def play_schedule(rules: Any, players: int, seatings: Sequence[Any], jobs: int | None, cluster: str | None,
                  progress: Progress | None = None, function: str = "sushigo.solver.ladder:run_task",
                  extra: dict[str, Any] | None = None) -> list[Any]:
    """Every seating's game (solver.ladder.GameResult), on this process or spread by sushigo.jobs
    (``function`` plays a task's games; ``extra`` goes into every task's payload)."""
    from sushigo.jobs import Task, ruleset_json, run, runner
    from sushigo.solver.ladder import GameResult

    where = runner(jobs, cluster)
    games = [[s.seed, list(s.seats)] for s in seatings]
    tasks = [Task(f"games-{k}", {**(extra or {}), "rules": ruleset_json(rules), "players": players,
                                 "games": games[k:k + CHUNK]})
             for k in range(0, len(games), CHUNK)]
    done = [0]

    def arrived(_k: int, answer: Any) -> None:
        done[0] += len(answer)
        if progress is not None:
            progress(done[0], len(games))

    answers = run(function, tasks, where, arrived)
    return [GameResult.from_json(game) for batch in answers for game in batch]


def ladder_outcome(
    policies: str | Sequence[str] | None = None,
    *,
    players: int = 2,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    rules: str = "official",
    rule: Rule = None,
    bootstrap: int | None = None,
    jobs: int | None = None,
    cluster: str | None = None,
    progress: Progress | None = None,
) -> Outcome:
    """Every set of ``players`` distinct ``policies`` (names like ``greedy`` or
    ``ismcts:iterations=1000``; with two players, every pair) plays ``games`` seat-rotated games
    from seeds ``seed, seed+1, ...`` under ``rules`` (with ``rule`` overrides). Returns what
    ``sushigo ladder --json`` prints: per policy its win share with Wilson's 95% interval, its mean
    score and its Bradley-Terry rating (Elo scale) with a 95% bootstrap interval over
    ``bootstrap`` resamples; per table each policy's win share. ``jobs`` worker processes or the
    Dask scheduler at ``cluster`` play the games; the answer is the same whatever the workers."""
    from sushigo.solver import ladder as L
    from sushigo.solver.estimates import share
    from sushigo.spec.game import check_players

    names = policy_list(policies)
    n = whole_number("--games", games, 1, MAX_GAMES)
    check_first_seed(seed, "--seed")
    resamples = L.BOOTSTRAP if bootstrap is None else whole_number("--bootstrap", bootstrap, 0, 10_000)
    ruleset = rules_from_options(rules, rule)
    if not isinstance(players, int) or isinstance(players, bool):
        raise InputError(f"--players must be a whole number, got {players!r}")
    check_players(ruleset, players)
    if ruleset.dummy_2p:
        raise InputError(f"the ladder plays games without the dummy; {ruleset.name} is dummy-2p: "
                         "choose another ruleset")
    for name in names:
        L.policy_factory(name)  # an unknown name or a bad option: one line, before any game
    seatings = L.schedule(names, players, n, seed)
    results = play_schedule(ruleset, players, seatings, jobs, cluster, progress)
    index = {p: i for i, p in enumerate(names)}
    k = len(names)
    shares: list[list[float]] = [[] for _ in range(k)]
    scores: list[list[int]] = [[] for _ in range(k)]
    moves, fallbacks = [0] * k, [0] * k
    table_shares: dict[tuple[int, int], list[float]] = {}
    comparisons = []
    no_winner: dict[int, int] = {}
    for seating, res in zip(seatings, results, strict=True):
        seats = [index[p] for p in seating.seats]
        comparisons.append(L.comparisons(seats, res.winners))
        if not res.winners:
            no_winner[seating.table] = no_winner.get(seating.table, 0) + 1
        for s, i in enumerate(seats):
            got = 1 / len(res.winners) if s in res.winners else 0.0
            shares[i].append(got)
            scores[i].append(res.totals[s])
            moves[i] += res.moves[s]
            fallbacks[i] += res.fallbacks[s]
            table_shares.setdefault((seating.table, i), []).append(got)
    rated = L.rate(k, comparisons, seed, resamples)
    # A policy that won (or lost) every comparison has a rating set by the prior alone, and every
    # resample repeats its record: the interval says nothing then, and the report says so.
    wins = [[0.0] * k for _ in range(k)]
    for cs in comparisons:
        for a, b, x in cs:
            wins[a][b] += x
    by_prior = [math.fsum(wins[i]) == 0 or math.fsum(row[i] for row in wins) == 0 for i in range(k)]
    standings = []
    for i, name in enumerate(names):
        est = share(shares[i]).as_json()
        ci = rated.intervals[i]
        standings.append({
            "policy": name,
            "games": len(shares[i]),
            "win_share": est["value"],
            "win_share_ci95": est["ci95"],
            "mean_score": round(statistics.fmean(scores[i]), 4),
            "rating": round(rated.ratings[i], 1),
            "rating_ci95": None if ci is None else [round(ci[0], 1), round(ci[1], 1)],
            "rating_from_prior": by_prior[i],
            "moves": moves[i],
            "fallback_moves": fallbacks[i],
        })
    standings.sort(key=lambda r: (-r["rating"], names.index(r["policy"])))
    tables = []
    for t in sorted({s.table for s in seatings}):
        mine = [s for s in seatings if s.table == t]
        members = sorted(mine[0].seats, key=names.index)
        rows = []
        for p in members:
            est = share(table_shares[(t, index[p])]).as_json()
            rows.append({"policy": p, "win_share": est["value"], "win_share_ci95": est["ci95"]})
        tables.append({"policies": members, "games": len(mine), "win_shares": rows,
                       "games_without_winner": no_winner.get(t, 0)})
    data = tagged(FORMAT, {
        "rules": ruleset.describe(),
        "players": players,
        "policies": names,
        "games_per_table": n,
        "games": len(seatings),
        "first_seed": seed,
        "last_seed": seed + math.ceil(n / players) - 1,
        "schedule": SCHEDULE,
        "ties": TIES,
        "rating": {"model": "bradley-terry", "scale": "elo", "method": RATING, "bootstrap": resamples,
                   "prior_games": L.PRIOR_GAMES},
        "standings": standings,
        "tables": tables,
    })
    return Outcome(data, 0, None)


ladder = public(ladder_outcome, "ladder")
