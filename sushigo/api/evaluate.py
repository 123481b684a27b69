"""``sushigo.evaluate``: a bot's regret against exact play on seeded two-player endgames, and its
win shares against the ladder's policies (docs/evaluate.md).

The bot is an adapter (a Python file with ``choose(observation) -> turn``, run in its own process
under a time limit per call and a memory limit: :mod:`sushigo.adapter`) or a built-in policy
(``greedy``, ``lookahead:...``), evaluated the same way."""

from __future__ import annotations

import difflib
import functools
import os
import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sushigo.api.base import MAX_GAMES, Outcome, Rule, public, rules_from_options, tagged
from sushigo.api.ladder import whole_number
from sushigo.spec.errors import InputError, check_first_seed

FORMAT = "sushigo-evaluate-result/1"
DEFAULT_POSITIONS = 200
DEFAULT_GAMES = 100
DEFAULT_AGAINST = ("random", "greedy")
MAX_POSITIONS = 100_000
#: The name the bot has in a schedule's seats (no policy can be called so).
SUBJECT = "@bot"
CHUNK = 20
POSITIONS = "position k: random_position(seed + k, 2, 2 + k % 3, rules, rounds): the last round"
REGRET = ("regret of a move: the equilibrium value of the point difference minus the move's value "
          "when the other seat plays its equilibrium strategy and both play exactly afterwards; "
          "95% interval: normal approximation over positions, cut at 0")


def _seconds(option: str, value: object, lo: float, hi: float) -> float:
    try:
        number = float(str(value))
    except ValueError:
        number = float("nan")
    if not lo <= number <= hi:
        raise InputError(f"{option} must be a number of seconds from {lo:g} to {hi:g}, got {str(value)!r}")
    return number


def is_adapter_file(target: str) -> bool:
    return target.endswith(".py") or os.sep in target or os.path.isfile(target)


def check_subject(target: str) -> str:
    """``"adapter"`` for a .py file or an importable module, ``"policy"`` for a built-in policy
    (a policy's name wins over a module of that name); one line otherwise."""
    from sushigo.solver.ladder import OPENSPIEL_PREFIX, policy_factory
    from sushigo.solver.policies import POLICY_NAMES

    if not isinstance(target, str) or not target.strip():
        raise InputError("ADAPTER must be a .py file with choose(observation) or a policy name, "
                         f"got {target!r}")
    if is_adapter_file(target):
        if not os.path.isfile(target):
            what = "is not a regular file" if os.path.exists(target) else "does not exist"
            raise InputError(f"adapter file {target!r} {what}; give a .py file with choose(observation) "
                             "or a policy name")
        return "adapter"
    name = target.partition(":")[0]
    names = list(POLICY_NAMES)
    if name.startswith(OPENSPIEL_PREFIX):
        raise InputError(f"{target!r} plays only in games driven through OpenSpiel, not on endgame "
                         "positions: give it to --against (or to 'sushigo ladder')")
    if name not in names:
        if _importable(target):
            return "adapter"
        near = difflib.get_close_matches(name, names, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise InputError(f"{target!r} is neither a .py adapter file, an importable module nor a policy"
                         f"{hint} (policies: {', '.join(names)})")
    policy_factory(target)
    return "policy"


def _importable(name: str) -> bool:
    """Whether ``name`` is a module this interpreter can import (found, not imported here)."""
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a parent package that is missing, or a relative name
        return False


@contextmanager
def subject(target: str, kind: str, limits: Any, where: str = "") -> Iterator[Callable[[str], Any]]:
    """A maker of the bot's policy for one game or position (``where`` names it in errors)."""
    if kind == "policy":
        from sushigo.solver.ladder import policy_factory

        make = policy_factory(target)
        yield lambda _where: make()
        return
    from sushigo.adapter import AdapterPolicy, AdapterProcess

    with AdapterProcess(target, limits) as proc:
        yield lambda at: AdapterPolicy(proc, target, at)


def _limits(payload: dict[str, Any]) -> Any:
    from sushigo.adapter import Limits

    return Limits(call_timeout=payload["call_timeout"], memory_mb=payload["memory_mb"])


def run_task(payload: dict[str, Any]) -> list[list[list[int]]]:
    """Games of the bot against the ladder's policies on a worker: ``[totals, winners]`` each."""
    from sushigo.jobs import ruleset_from_json
    from sushigo.solver.ladder import play, policy_factory

    rules = ruleset_from_json(payload["rules"])
    out = []
    with subject(payload["target"], payload["kind"], _limits(payload)) as bot:
        makers: dict[str, Any] = {}
        for seed, seats in payload["games"]:
            at = f"game of seed {seed} (seats {', '.join(seats)})"
            for s in seats:
                if s != SUBJECT and s not in makers:
                    makers[s] = policy_factory(s)
            seat_makers = [functools.partial(bot, at) if s == SUBJECT else makers[s] for s in seats]
            out.append(play(rules, 2, seed, seat_makers).as_json())
    return out


def _regrets(target: str, kind: str, limits: Any, rules: Any, seed: int, n: int) -> dict[str, Any]:
    from sushigo.solver import regret as R
    from sushigo.solver.estimates import mean
    from sushigo.spec.turns import format_turn

    values: list[float] = []
    worst: dict[str, Any] | None = None
    with subject(target, kind, limits) as bot:
        for k in range(n):
            pos = R.position(seed, k, rules)
            at = f"position {k} (seed {seed + k}, round {pos.round}, {pos.cards_left} cards left)"
            options = R.options(pos)
            rng = random.Random(f"sushigo-evaluate:{seed}:{k}")
            move = bot(at).choose(R.view(pos), options, rng)
            got = R.regret(pos, move)
            x = float(got.regret)
            values.append(x)
            if worst is None or x > worst["regret"]:
                worst = {"index": k, "position": pos.to_json(), "move": format_turn(move),
                         "regret": round(x, 4),
                         "value": float(got.value), "move_value": float(got.move_value),
                         "opponent_mix": [{"pick": format_turn(t), "p": float(p)}
                                          for t, p in got.opponent_mix]}
    est = mean(values).as_json()
    if est["ci95"] is not None:  # a regret is never negative: the normal interval is cut at 0
        est["ci95"][0] = max(est["ci95"][0], 0.0)
    return {
        "positions": n,
        "mean": est["value"],
        "ci95": est["ci95"],
        "max": round(max(values), 4),
        "zero_share": round(sum(1 for x in values if x == 0) / n, 4),
        "worst": worst,
    }


def evaluate_outcome(
    adapter: str,
    *,
    positions: int = DEFAULT_POSITIONS,
    games: int = DEFAULT_GAMES,
    against: str | Sequence[str] | None = None,
    seed: int = 0,
    rules: str = "official",
    rule: Rule = None,
    call_timeout: float | str = 2.0,
    memory_limit: int = 2048,
    jobs: int | None = None,
    cluster: str | None = None,
) -> Outcome:
    """The bot ``adapter`` (a .py file with ``choose(observation) -> turn``, docs/evaluate.md, or a
    policy name such as ``greedy``) on ``positions`` seeded two-player endgame positions: its mean
    regret against exact play (the points its move loses when the other seat plays the
    equilibrium), with a 95% interval, and the worst position; then ``games`` seat-rotated games
    against each policy of ``against`` (default random, greedy): its win shares with Wilson's 95%
    interval. The adapter runs in its own process, ``call_timeout`` seconds a call, ``memory_limit``
    MB (0: none). Returns what ``sushigo evaluate --json`` prints."""
    from sushigo.api.ladder import play_schedule, policy_list
    from sushigo.solver.estimates import share
    from sushigo.solver.ladder import Seating, policy_factory

    kind = check_subject(adapter)
    n = whole_number("--positions", positions, 1, MAX_POSITIONS)
    g = whole_number("--games", games, 0, MAX_GAMES)
    check_first_seed(seed, "--seed")
    opponents = policy_list(list(DEFAULT_AGAINST) if against is None else against)
    for o in opponents:
        policy_factory(o)
    ruleset = rules_from_options(rules, rule)
    if ruleset.dummy_2p:
        raise InputError(f"evaluate plays two players without the dummy; {ruleset.name} is dummy-2p: "
                         "choose another ruleset")
    from sushigo.adapter import Limits

    limits = Limits(call_timeout=_seconds("--call-timeout", call_timeout, 0.01, 3600),
                    memory_mb=whole_number("--memory-limit", memory_limit, 0, 1 << 20))
    regret = _regrets(adapter, kind, limits, ruleset, seed, n)
    seatings = [Seating(t, seed + k // 2, (SUBJECT, o) if k % 2 == 0 else (o, SUBJECT))
                for t, o in enumerate(opponents) for k in range(g)]
    rows = []
    if seatings:
        extra = {"target": adapter, "kind": kind, "call_timeout": limits.call_timeout,
                 "memory_mb": limits.memory_mb}
        results = play_schedule(ruleset, 2, seatings, jobs, cluster, None, f"{__name__}:run_task", extra)
        for t, o in enumerate(opponents):
            mine = [(s, r) for s, r in zip(seatings, results, strict=True) if s.table == t]
            me = [s.seats.index(SUBJECT) for s, _ in mine]
            pairs = [(m, r) for m, (_, r) in zip(me, mine, strict=True)]
            got = [1 / len(r.winners) if m in r.winners else 0.0 for m, r in pairs]
            est = share(got).as_json()
            rows.append({
                "policy": o, "games": len(mine), "win_share": est["value"], "win_share_ci95": est["ci95"],
                "mean_score": round(statistics.fmean(r.totals[m] for m, r in pairs), 4),
                "opponent_mean_score": round(statistics.fmean(r.totals[1 - m] for m, r in pairs), 4),
            })
    data = tagged(FORMAT, {
        "adapter": adapter,
        "kind": kind,
        "rules": ruleset.describe(),
        "first_seed": seed,
        "limits": limits.as_dict(),
        "positions_from": POSITIONS,
        "regret_method": REGRET,
        "regret": regret,
        "games_per_policy": g,
        "against": rows,
    })
    return Outcome(data, 0, ruleset)


evaluate = public(evaluate_outcome, "evaluate")
