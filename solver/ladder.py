"""A ladder of policies: seat-rotated seeded matches, win shares and Bradley-Terry ratings.

Schedule (docs/ladder.md): a *table* is one set of ``players`` distinct policies; every such set
of the ladder's policies is a table (with two players: every pair). Each table plays ``games``
games; game ``k`` deals seed ``first_seed + k // players`` and seats the table's policies rotated
by ``k % players``, so every table meets the same deals (common random numbers) and, over a
multiple of ``players`` games, each policy sits in every seat of every deal once. The policies'
generator of a game is the executor's (``random.Random(game.policy_seed)``), so a game of the
shipped ``random``/``greedy`` policies is exactly :func:`spec.executor.play_game`'s.

Winners follow the rules (most points, then puddings, then ``winner_tie``). A win shared by
``k`` seats counts ``1/k`` to each; a game without a winner counts 0 to every seat.

Ratings: Bradley-Terry by maximum likelihood (Hunter's MM algorithm, 2004) on pairwise results
(:func:`comparisons`): in each game every winner beats every seat that did not win; winners tie
among themselves, and a game without a winner is a tie between every pair (a tie is half a win
each way). One virtual tied game between every pair that met keeps a policy that never lost
finite. Ratings are on the Elo scale, ``400 log10(strength)``, centred
on their mean; their 95% intervals are percentile intervals of a bootstrap over games (each
game's comparisons resampled together), seeded from the ladder's seed.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sushigo.spec.errors import InputError
from sushigo.spec.policies import Policy
from sushigo.spec.ruleset import Ruleset

__all__ = [
    "BOOTSTRAP", "GameResult", "Ladder", "Seating", "bradley_terry", "comparisons", "elo", "play",
    "policy_factory", "run_task", "schedule",
]

#: Bootstrap resamples of the rating intervals.
BOOTSTRAP = 200
#: Virtual tied games per pair that met (a draw prior: finite ratings for a policy that never lost).
PRIOR_GAMES = 1.0
#: The prefix of OpenSpiel's bots (resolved here, not in solver.policies).
OPENSPIEL_PREFIX = "openspiel-"

Factory = Callable[[], Policy]


def policy_factory(spec: str) -> Factory:
    """A maker of fresh ``spec`` policies (``NAME[:OPTION=VALUE,...]``), checked now: an unknown
    name (with the nearest) or a bad option is one :class:`InputError`."""
    if not isinstance(spec, str) or not spec.strip():
        raise InputError(f"a policy is a name like 'greedy' or 'ismcts:iterations=1000', got {spec!r}")
    if spec.startswith(OPENSPIEL_PREFIX):
        from sushigo.solver.ladder_openspiel import openspiel_factory

        return openspiel_factory(spec)
    from sushigo.solver.policies import make_policy

    make_policy(spec)  # its errors now, once
    return lambda: make_policy(spec)


# --------------------------------------------------------------------------- the schedule


@dataclass(frozen=True)
class Seating:
    """One game of the ladder: its table (index), deal seed and the policy of each seat."""

    table: int
    seed: int
    seats: tuple[str, ...]


def schedule(policies: Sequence[str], players: int, games: int, first_seed: int) -> list[Seating]:
    """Every game of the ladder, table by table (see the module docstring)."""
    if len(set(policies)) != len(policies):
        dup = next(p for p in policies if policies.count(p) > 1)
        raise InputError(f"policy {dup!r} is listed twice; list each policy once")
    if len(policies) < max(2, players):
        raise InputError(f"a ladder of {players} players needs at least {max(2, players)} policies, "
                         f"got {len(policies)}: {', '.join(policies) or 'none'}")
    out = []
    for t, table in enumerate(itertools.combinations(policies, players)):
        for k in range(games):
            r = k % players
            out.append(Seating(t, first_seed + k // players, table[r:] + table[:r]))
    return out


# --------------------------------------------------------------------------- playing


@dataclass(frozen=True)
class GameResult:
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    moves: tuple[int, ...] = ()  # decisions per seat
    fallbacks: tuple[int, ...] = ()  # per seat: moves its fallback played, out of budget

    def as_json(self) -> list[list[int]]:
        return [list(self.totals), list(self.winners), list(self.moves), list(self.fallbacks)]

    @classmethod
    def from_json(cls, doc: list[list[int]]) -> GameResult:
        return cls(*(tuple(x) for x in doc))


class _Counted:
    """A seat's policy, its decisions counted."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.name = policy.name
        self.moves = 0

    def choose(self, view: Any, options: Sequence[Any], rng: random.Random) -> Any:
        self.moves += 1
        return self.policy.choose(view, options, rng)


def _fallbacks(policy: Policy) -> int:
    """Moves a policy played by its documented fallback for want of budget (0 if it has none)."""
    got = getattr(policy, "fallbacks", 0)
    return got if isinstance(got, int) else 0


def play(rules: Ruleset, players: int, seed: int, makers: Sequence[Factory]) -> GameResult:
    """One game from ``seed``, each seat a fresh policy from its maker (as the executor plays it)."""
    from sushigo.spec.game import MutableGame

    made = [make() for make in makers]
    seats = [_Counted(p) for p in made]
    if any(getattr(p, "needs_openspiel", False) for p in made):
        from sushigo.solver.ladder_openspiel import play_openspiel

        totals, winners = play_openspiel(rules, players, seed, made, seats)
    else:
        game = MutableGame.new(players, seed, rules)
        prng = random.Random(game.policy_seed)
        while not game.over:
            game.step([p.choose(game.observation(s), game.legal_actions(s), prng)
                       for s, p in enumerate(seats)])
        totals, winners = game.scores(), game.winners()
    return GameResult(tuple(totals), tuple(winners), tuple(p.moves for p in seats),
                      tuple(_fallbacks(p) for p in made))


def run_task(payload: dict[str, Any]) -> list[list[list[int]]]:
    """A batch of games on a worker (sushigo.jobs): :meth:`GameResult.as_json` per game, in order."""
    from sushigo.jobs import ruleset_from_json

    rules = ruleset_from_json(payload["rules"])
    makers: dict[str, Factory] = {}
    out = []
    for seed, seats in payload["games"]:
        for name in seats:
            if name not in makers:
                makers[name] = policy_factory(name)
        out.append(play(rules, payload["players"], seed, [makers[n] for n in seats]).as_json())
    return out


# --------------------------------------------------------------------------- ratings

#: (winner index, loser index, weight): one pairwise result of a game.
Comparison = tuple[int, int, float]


def comparisons(seats: Sequence[int], winners: Sequence[int]) -> list[Comparison]:
    """A game's pairwise results between policies (indices per seat): every winner beats every
    non-winner; winners tie among themselves; with no winner every pair ties (half each way)."""
    won = set(winners)
    out: list[Comparison] = []
    for a, b in itertools.combinations(range(len(seats)), 2):
        if (a in won) != (b in won):
            w, lo = (a, b) if a in won else (b, a)
            out.append((seats[w], seats[lo], 1.0))
        else:
            out += [(seats[a], seats[b], 0.5), (seats[b], seats[a], 0.5)]
    return out


def bradley_terry(wins: Sequence[Sequence[float]], prior: float = PRIOR_GAMES,
                  tolerance: float = 1e-12, max_iterations: int = 100_000) -> list[float]:
    """Bradley-Terry strengths (geometric mean 1) maximising the likelihood of ``wins[i][j]``
    (i's wins over j, fractions allowed), with ``prior`` virtual tied games added to each pair
    that met. Hunter's MM update ``p_i = W_i / sum_j n_ij / (p_i + p_j)``. A policy with no
    games, or a table no strength fits (one never lost and ``prior`` is 0), raises ValueError."""
    k = len(wins)
    w = [[wins[i][j] + (prior / 2 if wins[i][j] + wins[j][i] > 0 else 0.0) for j in range(k)]
         for i in range(k)]
    n = [[w[i][j] + w[j][i] for j in range(k)] for i in range(k)]
    total = [math.fsum(w[i]) for i in range(k)]
    if any(t <= 0 for t in total):
        raise ValueError("a policy without a win (or without games) has no finite strength")
    p = [1.0] * k
    for _ in range(max_iterations):
        new = [total[i] / math.fsum(n[i][j] / (p[i] + p[j]) for j in range(k) if j != i and n[i][j])
               for i in range(k)]
        scale = math.exp(math.fsum(math.log(x) for x in new) / k)
        new = [x / scale for x in new]
        done = max(abs(a - b) / b for a, b in zip(new, p, strict=True)) < tolerance
        p = new
        if done:
            return p
    raise ValueError(f"Bradley-Terry did not converge in {max_iterations} iterations "
                     "(a policy that never lost, with no prior?)")


def elo(strengths: Sequence[float]) -> list[float]:
    """Strengths on the Elo scale (``400 log10 p``), centred on their mean."""
    r = [400 * math.log10(x) for x in strengths]
    m = math.fsum(r) / len(r)
    return [x - m for x in r]


def _table(k: int, games: Sequence[Sequence[Comparison]],
           counts: Sequence[int] | None = None) -> list[list[float]]:
    """``wins[i][j]``: i's wins over j in ``games`` (game g counted ``counts[g]`` times)."""
    wins = [[0.0] * k for _ in range(k)]
    for g, cs in enumerate(games):
        times = 1 if counts is None else counts[g]
        if times:
            for a, b, x in cs:
                wins[a][b] += x * times
    return wins


@dataclass(frozen=True)
class Ladder:
    """The ladder's figures: per policy rating and its bootstrap interval."""

    ratings: tuple[float, ...]
    intervals: tuple[tuple[float, float] | None, ...]


def rate(k: int, games: Sequence[Sequence[Comparison]], seed: int, resamples: int = BOOTSTRAP) -> Ladder:
    """Elo-scale Bradley-Terry ratings of ``k`` policies from each game's comparisons, with 95%
    percentile intervals over ``resamples`` bootstrap resamples of the games (seeded by ``seed``)."""
    ratings = elo(bradley_terry(_table(k, games)))
    # Games with the same comparisons are one kind: a resample draws kinds by their frequency.
    kinds = Counter(tuple(cs) for cs in games)
    order = list(kinds)
    freq = [kinds[c] for c in order]
    rng = random.Random(f"sushigo-ladder-bootstrap:{seed}")
    draws: list[list[float]] = [[] for _ in range(k)]
    for _ in range(resamples if len(games) > 1 else 0):
        drawn = Counter(rng.choices(range(len(order)), weights=freq, k=len(games)))
        try:
            strengths = bradley_terry(_table(k, order, [drawn[i] for i in range(len(order))]))
        except ValueError:
            continue  # a resample where a policy played no game: no rating to draw
        for i, x in enumerate(elo(strengths)):
            draws[i].append(x)
    intervals: list[tuple[float, float] | None] = []
    for xs in draws:
        if len(xs) < max(2, resamples // 2):
            intervals.append(None)
            continue
        xs.sort()
        intervals.append((_percentile(xs, 0.025), _percentile(xs, 0.975)))
    return Ladder(tuple(ratings), tuple(intervals))


def _percentile(xs: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default)."""
    pos = q * (len(xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)
