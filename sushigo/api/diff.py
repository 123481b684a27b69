"""``sushigo.diff``: where two rulesets disagree (the smallest witness), or the proof they agree.

The solver imports z3; it is imported when a question is asked, not with this module."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from sushigo.api.base import (
    Document,
    Outcome,
    Rule,
    as_list,
    budget_of,
    load_input,
    override_texts,
    public,
    tagged,
)
from sushigo.spec.answer import Verdict, combine, with_outcome
from sushigo.spec.errors import InputError

FORMAT = "sushigo-diff-result/1"

#: ``sushigo.solver.diff.DEFAULT_TIMEOUT_MS`` in seconds (a test holds the two equal).
DEFAULT_TIMEOUT = 30.0


def diff_outcome(
    a: str | None = None,
    b: str | None = None,
    *,
    rule_a: Rule = None,
    rule_b: Rule = None,
    all: bool = False,
    matrix: bool = False,
    game: Document | None = None,
    players: int | Sequence[int] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    rlimit: int | None = None,
    no_extend: bool = False,
    progress: bool = False,
    jobs: int | None = None,
    cluster: str | None = None,
    menu: str | None = None,
    max_cards: int | None = None,
) -> Outcome:
    """The smallest situation where rulesets ``a`` and ``b`` (with ``rule_a``/``rule_b``
    overrides) give different scores or winners, or the solver's proof that none exists
    ("equivalent"); ``all`` gives one witness per differing reading; ``matrix`` compares every
    pair of named rulesets; ``game`` (a record, dict or path) asks whether that game's scores or
    winner change. ``timeout`` (seconds) and ``rlimit`` bound each query; past them the status is
    "unknown" (exit code 1). ``progress`` reports the matrix's progress on standard error; the
    matrix's searches run on ``jobs`` local processes or the Dask scheduler at ``cluster``.
    Returns what ``sushigo diff --json`` prints.

    ``game="party"`` compares two Sushi Go Party! readings-sets instead (:func:`party_diff_outcome`;
    ``game="base"`` is the base game); any other ``game`` is a record, as above."""
    from sushigo.spec.ruleset import get_ruleset

    if game == "party":
        if all or matrix or no_extend or rlimit is not None or jobs is not None or cluster is not None:
            raise InputError("diff --game party takes A B, --rule-a, --rule-b, --menu, --players, "
                             "--max-cards and --json; --all, --matrix, --no-extend, --rlimit, --jobs and "
                             "--cluster are the base game's")
        return party_diff_outcome(a, b, rule_a=rule_a, rule_b=rule_b, menu=menu, players=players,
                                  max_cards=max_cards)
    if menu is not None or max_cards is not None:
        raise InputError("--menu and --max-cards compare Sushi Go Party! readings: add --game party")
    if game == "base":
        game = None

    budget_of(timeout, rlimit)  # the bounds of every solver budget
    timeout_ms = max(1, int(timeout * 1000))
    from sushigo.jobs import runner

    where = runner(jobs, cluster)
    if matrix:
        if a or b or game:
            raise InputError("--matrix compares every named ruleset; give no rulesets and no --game")
        return _matrix(timeout_ms, rlimit, progress, where)
    if where.spread:
        raise InputError("--jobs and --cluster spread the searches of --matrix; one pair is searched here")
    if not a or not b:
        raise InputError("give two rulesets, e.g. 'sushigo diff official french', or use --matrix")
    rules_a = get_ruleset(a, override_texts(rule_a))
    rules_b = get_ruleset(b, override_texts(rule_b))
    if rules_a.name == rules_b.name and rules_a.readings() != rules_b.readings():
        rules_b = rules_b.replace(name=rules_b.name + "'")
    from sushigo.solver.diff import diff, diff_game

    if game is not None:
        data, source = load_input(game, schema="record")  # ``where`` is the runner
        if not isinstance(data, dict):
            raise InputError(f"{source}: a game record must be a JSON object")
        gd = diff_game(data, rules_a, rules_b)  # not comparable: exit 1 (README)
        # Both sides replayed: the comparison is a fact; a side the rules forbid: impossible.
        verdict = Verdict.PROVED if gd.comparable else Verdict.IMPOSSIBLE
        return Outcome(with_outcome(tagged(FORMAT, gd.as_json()), verdict), 0 if gd.comparable else 1, gd)
    counts = None
    if players is not None:
        for n in as_list(players):
            if not rules_a.min_players <= n <= rules_a.max_players:
                raise InputError(f"--players {n}: Sushi Go! takes {rules_a.min_players} to "
                                 f"{rules_a.max_players} players")
        counts = sorted(set(as_list(players))) or None
    from sushigo.spec.model.budget import Budget

    res = diff(rules_a, rules_b, all_causes=all, players=counts, extend=not no_extend,
               budget=Budget(timeout_ms, rlimit))
    code = 1 if res.status in ("unknown", "not-applicable") else 0
    return Outcome(with_outcome(tagged(FORMAT, res.as_json()), res.verdict), code, res)


def party_diff_outcome(a: str | None = None, b: str | None = None, *, rule_a: Rule = None,
                       rule_b: Rule = None,
                       menu: str | None = None, players: int | Sequence[int] | None = None,
                       max_cards: int | None = None) -> Outcome:
    """The smallest Party round (fewest cards, then players, then turns) that readings-sets ``a``
    and ``b`` score differently, each ``"defaults"`` or ``"NAME=VALUE[,NAME=VALUE...]"`` with
    ``rule_a``/``rule_b`` on top; ``menu`` fixes the menu, ``players`` the player counts,
    ``max_cards`` the search's bound (docs/party.md, "Comparing readings: diff"). Exit code 0 for
    a witness or readings that cannot differ, 1 for none within the bound."""
    from sushigo.solver.diff.party import DEFAULT_MAX_CARDS, party_diff, readings_side
    from sushigo.spec.party.menus import parse_menu

    if a is None or b is None:
        raise InputError("give two Party readings-sets, e.g. 'sushigo diff --game party defaults "
                         "edamame_cap=round'")
    rules_a = readings_side(a, override_texts(rule_a))
    rules_b = readings_side(b, override_texts(rule_b))
    limit = DEFAULT_MAX_CARDS if max_cards is None else max_cards
    if not 0 <= limit <= 12:
        raise InputError(f"--max-cards {limit}: give 0 to 12 (the search grows fast past 7)")
    counts = sorted(set(as_list(players))) if players is not None else None
    for n in counts or ():
        if not 2 <= n <= 8:
            raise InputError(f"--players {n}: Sushi Go Party! takes 2 to 8 players")
    if menu is not None:
        fixed = parse_menu(menu)
        for n in counts or ():
            fixed.check_players(n)
    res = party_diff(rules_a, rules_b, menu=menu, players=counts, max_cards=limit)
    code = 1 if res.status == "unknown" else 0
    return Outcome(with_outcome(tagged(FORMAT, res.as_json()), res.verdict), code, res)


#: One search of the matrix on a worker (:mod:`sushigo.jobs`).
TASK = "sushigo.api.diff:pair_task"


def pair_task(doc: dict[str, Any]) -> dict[str, Any]:
    """Do the readings ``doc["a"]`` and ``doc["b"]`` differ, and how small is the smallest witness:
    one cell of the matrix (shared by every pair of rulesets with these readings)."""
    from sushigo.solver.diff import _cached_diff

    def key(readings: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
        return tuple(sorted(readings.items()))

    res = _cached_diff(key(doc["a"]), key(doc["b"]), doc["timeout_ms"], doc["rlimit"])
    w = res.witness
    return {"status": res.status, "players": w.players if w else None, "cards": w.cards if w else None,
            "kind": w.kind if w else None}


def _matrix_tasks(names: list[str], timeout_ms: int, rlimit: int | None, where: Any,
                  show: Callable[[str], None]) -> list[Any]:
    """The matrix with each distinct pair of readings searched as a task (as the serial
    :func:`sushigo.solver.diff.matrix` shares them), cells in its order."""
    import itertools

    from sushigo import jobs as J
    from sushigo.solver.diff import MatrixCell
    from sushigo.spec.ruleset import RULESETS

    pairs = list(itertools.combinations(names, 2))
    keys: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    for x, y in pairs:
        ra, rb = sorted((RULESETS[x].readings(), RULESETS[y].readings()), key=lambda r: sorted(r.items()))
        keys.setdefault(json.dumps([ra, rb], sort_keys=True), (ra, rb))
    order = list(keys)
    tasks = [J.Task(f"pair-{k}", {"a": ra, "b": rb, "timeout_ms": timeout_ms, "rlimit": rlimit})
             for k, (ra, rb) in enumerate(keys.values())]
    answers = J.run(TASK, tasks, where, lambda k, _a: show(f"[{k + 1}/{len(tasks)}] searched"))
    cells = []
    for x, y in pairs:
        ra, rb = sorted((RULESETS[x].readings(), RULESETS[y].readings()), key=lambda r: sorted(r.items()))
        a = answers[order.index(json.dumps([ra, rb], sort_keys=True))]
        cells.append(MatrixCell(x, y, a["status"], a["players"], a["cards"], a["kind"]))
    return cells


def _matrix(timeout_ms: int, rlimit: int | None, progress: bool, where: Any) -> Outcome:
    from sushigo.solver.diff import matrix
    from sushigo.spec.ruleset import RULESETS

    def show(msg: str) -> None:
        if progress:
            print("\r\033[K" + msg, end="", file=sys.stderr, flush=True)

    names = list(RULESETS)
    if where.spread:
        cells = _matrix_tasks(names, timeout_ms, rlimit, where, show)
    else:
        cells = matrix(names, timeout_ms=timeout_ms, progress=show, rlimit=rlimit)
    if progress:
        print("\r\033[K", end="", file=sys.stderr, flush=True)
    data = with_outcome({"format": "sushigo-diff-matrix/1", "pairs": [c.as_json() for c in cells]},
                        combine(c.verdict for c in cells))
    return Outcome(data, 1 if any(c.status == "unknown" for c in cells) else 0, (names, cells))


diff = public(diff_outcome, "diff")
