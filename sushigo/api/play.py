"""``sushigo.play``: play games with the reference executor; one game's record, or a summary."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from sushigo.api.base import (
    MAX_GAMES,
    Outcome,
    Rule,
    public,
    rules_from_options,
    tagged,
)
from sushigo.solver.policies import make_policy, resolve_policies
from sushigo.spec.errors import InputError, check_first_seed
from sushigo.spec.executor import PolicyLike, play_game, policy_names
from sushigo.spec.files import write_atomic
from sushigo.spec.policies import Policy
from sushigo.spec.record import GameRecord
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.stats import CHUNK, game_results, summarise

FORMAT = "sushigo-play-result/1"


def _progress(n: int) -> Callable[[int, float], None]:
    """Games played so far, on standard error (at most five times a second)."""
    last = [0.0]

    def show(k: int, seconds: float) -> None:
        if seconds - last[0] > 0.2:
            last[0] = seconds
            print(f"\rplayed {k}/{n} games ({k / seconds:.0f}/s)", end="", file=sys.stderr, flush=True)

    return show


#: The task of a run of games on a worker (:mod:`sushigo.jobs`).
TASK = "sushigo.api.play:games_task"


def games_task(doc: dict[str, Any]) -> dict[str, Any]:
    """Games ``doc["seed"]`` .. ``+ doc["games"] - 1`` as a job's task: per seat how many games
    ended on each total, and the winners of each game in order, one character a game (the bit
    mask of the winning seats): all :func:`summarise` needs, in a small JSON document."""
    from sushigo.jobs import ruleset_from_json

    rules = ruleset_from_json(doc["rules"])
    counts: list[dict[int, int]] = [{} for _ in range(rules.seats(doc["players"]))]
    masks = []
    policies = [make_policy(p) for p in doc["policies"]]
    for totals, winners in game_results(doc["players"], doc["seed"], doc["games"], rules, policies):
        for s, total in enumerate(totals):
            counts[s][total] = counts[s].get(total, 0) + 1
        masks.append(chr(_MASK_BASE + sum(1 << w for w in winners)))
    return {"totals": [sorted(c.items()) for c in counts], "winners": "".join(masks)}


_MASK_BASE = 48  # printable characters: masks of up to 6 seats stay below 127


def _merged(answers: Sequence[dict[str, Any]]) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(totals, winners) per game for :func:`summarise`, rebuilt from :func:`games_task`'s answers.

    The winners come in game order, so shared wins add up in the same order as a serial run's;
    each seat's totals come grouped by value rather than in game order, which changes none of
    the statistics (mean, spread, min and max of whole numbers do not depend on the order: the
    mean is a correctly rounded sum, the spread an exact sum of squares)."""
    seats = len(answers[0]["totals"]) if answers else 0
    totals = [iter([t for a in answers for t, k in a["totals"][s] for _ in range(k)]) for s in range(seats)]
    for a in answers:
        for ch in a["winners"]:
            mask = ord(ch) - _MASK_BASE
            yield tuple(next(it) for it in totals), tuple(s for s in range(seats) if mask >> s & 1)


def _play_tasks(players: int, seed: int, n: int, rules: Ruleset, policies: Sequence[PolicyLike], where: Any,
                progress: bool) -> list[dict[str, Any]]:
    """``n`` games as tasks on ``where`` (:mod:`sushigo.jobs`): a few tasks per worker, whole
    chunks of :data:`CHUNK` games each (every game depends on its own seed only)."""
    from sushigo import jobs as J

    workers = where.jobs if where.cluster in (None, J.LOCAL) else 8  # a cluster's size is not known here
    per = -(-n // (4 * max(1, workers)))
    per = -(-per // CHUNK) * CHUNK
    plain = {"players": players, "rules": J.ruleset_json(rules), "policies": list(policy_names(policies))}
    tasks = [J.Task(f"games-{s}", {**plain, "seed": s, "games": min(per, seed + n - s)})
             for s in range(seed, seed + n, per)]
    played = [0]

    def done(k: int, answer: dict[str, Any]) -> None:
        played[0] += len(answer["winners"])
        if progress:
            print(f"\rplayed {played[0]}/{n} games", end="", file=sys.stderr, flush=True)

    answers = J.run(TASK, tasks, where, done)
    if progress:
        print("\r" + " " * 50 + "\r", end="", file=sys.stderr, flush=True)
    return answers


def write_records(path: str, records: list[GameRecord]) -> None:
    """One record as a JSON object, several as a list; '-' writes to standard output."""
    data: Any = records[0].to_json() if len(records) == 1 else [r.to_json() for r in records]
    text = json.dumps(data, indent=1) + "\n"
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        write_atomic(path, text)  # a failed write leaves any file that was there as it was
    except OSError as exc:
        raise InputError(f"cannot write record to {path!r}: {exc.strerror}") from exc
    except ValueError as exc:  # a NUL in the name: no command line holds one, a library call can
        raise InputError(f"cannot write record to {path!r}: {exc}; give a file name or '-'") from exc


def play_outcome(
    *,
    players: int | None = None,
    seed: int = 0,
    games: int = 1,
    policy: str | Sequence[str | Policy] | Policy | None = None,
    record: str | None = None,
    rules: str = "official",
    rule: Rule = None,
    progress: bool = False,
    jobs: int | None = None,
    cluster: str | None = None,
) -> Outcome:
    """Play ``games`` games from seeds ``seed``, ``seed+1``, ... with ``players`` players (default 4;
    2 under dummy-2p) and ``policy`` (one policy spec ``NAME[:OPTION=VALUE,...]`` or policy object for
    every seat, or one per seat; default random; docs/policies.md).
    ``record`` writes the game records to this file ('-': standard output). Returns what ``sushigo
    play --json`` prints: one game's record (``"format": "sushigo-record/1"``), or for several
    games the mean and spread of scores and win shares per seat and per policy. ``progress``
    shows a counter on standard error for long runs. Many games without records run on ``jobs``
    local processes or on the Dask scheduler at ``cluster`` (docs/scale.md); the summary is the
    same however they ran."""
    from sushigo.jobs import runner

    ruleset = rules_from_options(rules, rule)
    n = players if players is not None else (2 if ruleset.dummy_2p else 4)
    if isinstance(n, bool) or not ruleset.min_players <= n <= ruleset.max_players:
        raise InputError(f"--players {n!r}: Sushi Go! takes {ruleset.min_players} to "
                         f"{ruleset.max_players} players")
    ruleset.hand_size(n)  # a variant may allow fewer counts (dummy-2p: two)
    if record is not None and not record.strip():  # an empty name is a mistake, not "no record"
        raise InputError(f"--record {record!r}: give a file name, or '-' for standard output")
    if not 1 <= games <= MAX_GAMES:
        raise InputError(f"--games must be a whole number from 1 to {MAX_GAMES}, got {games}")
    check_first_seed(seed, "--seed")
    policies = resolve_policies(n, policy)
    names = policy_names(policies)
    where = runner(jobs, cluster)
    records: list[GameRecord] = []
    if games == 1 or record:
        # records are only kept when asked for: a record file, or the one game's table
        records = [play_game(n, s, ruleset, policies) for s in range(seed, seed + games)]
        if record:
            write_records(record, records)
        if games == 1:
            return Outcome(records[0].to_json(), 0, (ruleset, n, names, records))
        played = [(r.totals, r.winners) for r in records]
        summary = summarise(n, seed, games, ruleset, policies, played)
    elif where.spread:
        answers = _play_tasks(n, seed, games, ruleset, policies, where, progress)
        summary = summarise(n, seed, games, ruleset, policies, _merged(answers))
    else:
        summary = summarise(n, seed, games, ruleset, policies, None, _progress(games) if progress else None)
        if progress:
            print("\r" + " " * 50 + "\r", end="", file=sys.stderr, flush=True)
    return Outcome(tagged(FORMAT, summary), 0, (ruleset, n, names, records))


play = public(play_outcome, "play")
