"""Sushi Go Party! games played and replayed (``sushigo play --game party``, ``sushigo replay``
of a Party record): the commands' work, on :mod:`sushigo.spec.party.executor`."""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Final

from sushigo.api.base import MAX_GAMES, Outcome, load_input
from sushigo.spec.errors import InputError, check_first_seed
from sushigo.spec.files import write_atomic
from sushigo.spec.party.executor import POLICIES, PartyRecord, PartyReplay, play_party, replay_party
from sushigo.spec.party.menus import parse_menu
from sushigo.spec.party.readings import PartyRules, party_rules

PLAY_FORMAT: Final = "sushigo-party-play-result/1"
REPLAY_FORMAT: Final = "sushigo-party-replay-result/1"


def _policies(policy: Sequence[str], players: int) -> list[str]:
    names = [p.strip().lower() for p in policy] or ["random"]
    for name in names:
        if name not in POLICIES:
            raise InputError(f"--policy {name}: Party games are played by {', '.join(POLICIES)} "
                             "(the base game's policies play Sushi Go! only)")
    if len(names) not in (1, players):
        raise InputError(f"--policy: give one policy for every player, or one per seat ({players} seats)")
    return names * players if len(names) == 1 else names


#: The task of a run of Party games on a worker (:mod:`sushigo.jobs`).
TASK: Final = "sushigo.api.party_play:games_task"
#: Games a task plays at most (a few tasks per worker, as the base game's ``play`` makes).
CHUNK: Final = 20

#: One game's result as :func:`summary` reads it: the seat totals and the winners.
Result = tuple[Sequence[int], Sequence[int]]


def games_task(doc: dict[str, Any]) -> list[list[list[int]]]:
    """Party games ``doc["seed"]`` .. ``+ doc["games"] - 1`` as a job's task: per game, in seed
    order, ``[totals, winners]`` (all :func:`summary` needs)."""
    rules = party_rules(list(doc["rule"]))
    table = parse_menu(doc["menu"], doc["players"], uramaki=rules.uramaki_split)
    out = []
    for s in range(doc["seed"], doc["seed"] + doc["games"]):
        score = play_party(table, doc["players"], s, doc["policies"], rules).score
        assert score is not None
        out.append([list(score.totals), list(score.winners)])
    return out


def _play_tasks(doc: dict[str, Any], seed: int, games: int, where: Any) -> list[Result]:
    """``games`` games as tasks on ``where``: whole chunks of :data:`CHUNK` seeds, answers in seed
    order (every game depends on its own seed only), so the summary is the one a serial run makes."""
    from sushigo import jobs as J

    workers = where.jobs if where.cluster in (None, J.LOCAL) else 8  # a cluster's size is not known here
    per = min(CHUNK, -(-games // (4 * max(1, workers))))
    tasks = [J.Task(f"party-games-{s}", {**doc, "seed": s, "games": min(per, seed + games - s)})
             for s in range(seed, seed + games, per)]
    return [(totals, winners) for answer in J.run(TASK, tasks, where) for totals, winners in answer]


def play_party_outcome(*, menu: str | None, players: int | None, seed: int = 0, games: int = 1,
                       policy: Sequence[str] = (), record: str | None = None,
                       rule: Sequence[str] = (), jobs: int | None = None,
                       cluster: str | None = None) -> Outcome:
    """Party games from seeds ``seed``, ``seed + 1``, ...: one game's record, or a summary. Many
    games without records run on ``jobs`` local processes or on the Dask scheduler at ``cluster``
    (:mod:`sushigo.jobs`); the summary is the same however they ran."""
    from sushigo.jobs import runner

    if menu is None:
        raise InputError("--game party plays a menu: add --menu NAME or --menu KIND,KIND,... "
                         "(sushigo rules --game party lists the menus)")
    if players is None:
        raise InputError("--game party: add --players N (2 to 8; the menu's tiles may allow fewer)")
    check_first_seed(seed, "--seed")
    if not 1 <= games <= MAX_GAMES:
        raise InputError(f"--games {games}: give 1 to {MAX_GAMES}")
    rules = party_rules(list(rule))
    table = parse_menu(menu, players, uramaki=rules.uramaki_split)
    policies = _policies(policy, players)
    where = runner(jobs, cluster)
    if games > 1 and record is None and where.spread:
        task = {"menu": menu, "players": players, "rule": list(rule), "policies": policies}
        results = _play_tasks(task, seed, games, where)
        doc = _summary(table.label, players, rules, policies, seed, results)
        return Outcome(doc, 0, [])
    records = [play_party(table, players, seed + g, policies, rules) for g in range(games)]
    if record is not None:
        docs = [r.as_json() for r in records]
        write_party_records(record, docs[0] if games == 1 else docs)
    return Outcome(summary(records), 0, records)


def summary(records: Sequence[PartyRecord]) -> dict[str, Any]:
    """Per seat the mean, spread, least and most of its totals and its share of the wins (a
    shared win counts 1/k to each of the k winners); one game also gives its record."""
    first = records[0]
    results = [(r.score.totals, r.score.winners) for r in records if r.score is not None]
    doc = _summary(first.menu.label, first.players, first.rules, first.policies, first.seed, results)
    if len(records) == 1:
        doc["record"] = first.as_json()
    return doc


def _summary(label: str, players: int, rules: PartyRules, policies: Sequence[str], seed: int,
             results: Sequence[Result]) -> dict[str, Any]:
    """The summary of games from seeds ``seed`` on, given per game (in seed order) its totals and winners."""
    seats = []
    for k in range(players):
        totals = [t[k] for t, _ in results]
        wins = sum(1 / len(w) for _, w in results if k in w)
        seats.append({"seat": k, "policy": policies[k], "mean": statistics.fmean(totals),
                      "stdev": statistics.pstdev(totals), "min": min(totals), "max": max(totals),
                      "win_share": wins / len(results)})
    return {"format": PLAY_FORMAT, "game": "party", "menu": label, "players": players,
            "readings": rules.changed(), "seeds": [seed, seed + len(results) - 1], "games": len(results),
            "seats": seats}


def write_party_records(path: str, data: Any) -> None:
    text = json.dumps(data, indent=1) + "\n"
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise InputError(f"cannot write record to {path!r}: {exc.strerror}") from exc
    except ValueError as exc:
        raise InputError(f"cannot write record to {path!r}: {exc}; give a file name or '-'") from exc


def is_party_record(data: object) -> bool:
    from sushigo.spec.party.executor import FORMAT

    if isinstance(data, list) and data:
        data = data[0]
    return isinstance(data, Mapping) and data.get("format") == FORMAT


def _replay_json(result: PartyReplay) -> dict[str, Any]:
    rec = result.record
    totals = list(rec.score.totals) if rec is not None and rec.score is not None else None
    return {"format": REPLAY_FORMAT, "ok": result.ok, "error": result.error, "rule_id": result.rule_id,
            "totals": totals}


def replay_party_outcome(input: object) -> Outcome:
    """Replay a Party record (or a list of them): exit code 1 when one is illegal."""
    data, where = load_input(input, schema="party-record")
    items = data if isinstance(data, list) else [data]
    if not items:
        raise InputError(f"{where}: an empty list holds no game records")
    results = [replay_party(item) for item in items]
    code = 0 if all(r.ok for r in results) else 1
    docs = [_replay_json(r) for r in results]
    return Outcome(docs if isinstance(data, list) else docs[0], code, results)


__all__ = ["PLAY_FORMAT", "REPLAY_FORMAT", "is_party_record", "play_party_outcome", "replay_party_outcome",
           "summary"]
