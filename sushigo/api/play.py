"""``sushigo.play``: play games with the reference executor; one game's record, or a summary."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from sushigo.api.base import Outcome, Rule, as_list, public, rules_from_options, tagged
from sushigo.spec.errors import InputError
from sushigo.spec.executor import play_game, resolve_policies
from sushigo.spec.record import GameRecord
from sushigo.spec.stats import summarise

FORMAT = "sushigo-play-result/1"



def _progress(n: int) -> Callable[[int, float], None]:
    """Games played so far, on standard error (at most five times a second)."""
    last = [0.0]

    def show(k: int, seconds: float) -> None:
        if seconds - last[0] > 0.2:
            last[0] = seconds
            print(f"\rplayed {k}/{n} games ({k / seconds:.0f}/s)", end="", file=sys.stderr, flush=True)

    return show


def write_records(path: str, records: list[GameRecord]) -> None:
    """One record as a JSON object, several as a list; '-' writes to standard output."""
    data: Any = records[0].to_json() if len(records) == 1 else [r.to_json() for r in records]
    text = json.dumps(data, indent=1) + "\n"
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise InputError(f"cannot write record to {path!r}: {exc.strerror}") from exc


def play_outcome(
    *,
    players: int | None = None,
    seed: int = 0,
    games: int = 1,
    policy: str | Sequence[str] | None = None,
    record: str | None = None,
    rules: str = "official",
    rule: Rule = None,
    progress: bool = False,
) -> Outcome:
    """Play ``games`` games from seeds ``seed``, ``seed+1``, ... with ``players`` players (default 4;
    2 under dummy-2p) and ``policy`` (one name for every seat, or one per seat; default random).
    ``record`` writes the game records to this file ('-': standard output). Returns what ``sushigo
    play --json`` prints: one game's record (``"format": "sushigo-record/1"``), or for several
    games the mean and spread of scores and win shares per seat and per policy. ``progress``
    shows a counter on standard error for long runs."""
    ruleset = rules_from_options(rules, rule)
    n = players if players is not None else (2 if ruleset.dummy_2p else 4)
    if isinstance(n, bool) or not ruleset.min_players <= n <= ruleset.max_players:
        raise InputError(f"--players {n!r}: Sushi Go! takes {ruleset.min_players} to "
                         f"{ruleset.max_players} players")
    ruleset.hand_size(n)  # a variant may allow fewer counts (dummy-2p: two)
    if games < 1:
        raise InputError(f"--games must be at least 1, got {games}")
    policies = resolve_policies(n, as_list(policy))
    records: list[GameRecord] = []
    if games == 1 or record:
        # records are only kept when asked for: a record file, or the one game's table
        records = [play_game(n, s, ruleset, policies) for s in range(seed, seed + games)]
        if record:
            write_records(record, records)
        if games == 1:
            return Outcome(records[0].to_json(), 0, (ruleset, n, policies, records))
        played = [(r.totals, r.winners) for r in records]
        summary = summarise(n, seed, games, ruleset, policies, played)
    else:
        summary = summarise(n, seed, games, ruleset, policies, None, _progress(games) if progress else None)
        if progress:
            print("\r" + " " * 50 + "\r", end="", file=sys.stderr, flush=True)
    return Outcome(tagged(FORMAT, summary), 0, (ruleset, n, policies, records))


play = public(play_outcome, "play")
