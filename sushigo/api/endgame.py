"""``sushigo.endgame``: exact best play for the rest of a round when every hand is known.

The solver is imported when a position is solved, not with this module (start-up time)."""

from __future__ import annotations

import os
from typing import Any

from sushigo.api.base import (
    MAX_BUDGET_COUNT,
    MAX_BUDGET_SECONDS,
    Document,
    Outcome,
    Rule,
    in_range,
    load_input,
    public,
    rules_from_options,
    solver_budget,
    tagged,
)
from sushigo.spec.answer import combine, with_outcome
from sushigo.spec.errors import InputError

FORMAT = "sushigo-endgame-result/1"

#: As in ``sushigo.solver.endgame`` (here so the CLI lists them without importing the solver;
#: a test holds them equal).
OBJECTIVES = ("diff", "own", "win")
POLICIES = ("greedy",)
DEFAULT_MAX_NODES = 2_000_000
DEFAULT_TIME_LIMIT = 300.0


def endgame_outcome(
    input: Document | None = None,
    *,
    hands: str | None = None,
    taken: str | None = None,
    round: int = 1,
    puddings: str | None = None,
    scores: str | None = None,
    objective: str | None = None,
    policy: str | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    certify: bool = False,
    time_limit: float = DEFAULT_TIME_LIMIT,
    rules: str | None = None,
    rule: Rule = None,
    rlimit: int | None = None,
) -> Outcome:
    """Solve the rest of a round exactly: the position as JSON (``input``, a dict or a path) or in
    the text form (``hands="squid tempura / egg wasabi"``, ``taken``, ``round``, ``puddings``,
    ``scores``). Two players: a zero-sum game (``objective`` diff, own or win); three to five:
    player 0's paranoid guarantee, or the best reply when the others follow ``policy``.
    ``certify`` proves each first pick's guarantee with Z3 (2 players, up to 3 turns; each Z3
    call within ``time_limit`` seconds and ``rlimit`` resource units). Past ``max_nodes``
    states or ``time_limit`` seconds the status is "unknown" (exit code 1).
    Returns what ``sushigo endgame --json`` prints."""
    from sushigo.solver.endgame import parse_position, parse_position_text

    if input is not None and hands is not None:
        raise InputError("give either a position file or --hands, not both")
    if input is not None:
        data, _where = load_input(input, schema="position")
        file_rules = data.get("rules") if isinstance(data, dict) else None
    elif hands is not None:
        data = parse_position_text(hands, taken, round, puddings, scores)
        file_rules = None
    else:
        raise InputError("give a position (a JSON file or '-') or --hands \"...\" (see --help)")
    pos = parse_position(data, rules_from_options(rules, rule, file_rules))
    _check_options(pos, objective, policy, max_nodes, certify, time_limit)
    return _solve(pos, objective, policy, max_nodes, certify, time_limit, rlimit)


def _check_options(pos: Any, objective: str | None, policy: str | None, max_nodes: int, certify: bool,
                   time_limit: float) -> None:
    if not (in_range(max_nodes, 0, MAX_BUDGET_COUNT, whole=True)
            and in_range(time_limit, 0, MAX_BUDGET_SECONDS)):
        raise InputError(f"--max-nodes must be a whole number up to {MAX_BUDGET_COUNT} and --time-limit a "
                         f"number of seconds up to {MAX_BUDGET_SECONDS}, got {max_nodes!r:.60} and "
                         f"{time_limit!r:.60}")
    if certify:
        if pos.players != 2 or pos.pile is not None or policy is not None or pos.cards_left > 3:
            raise InputError(
                "--certify covers 2-player positions (not dummy-2p, no --policy) of up to 3 turns"
            )
        if objective not in (None, "diff", "own"):
            raise InputError("--certify covers the diff and own objectives")


def _solve(pos: Any, objective: str | None, policy: str | None, max_nodes: int, certify: bool,
           time_limit: float, rlimit: int | None = None) -> Outcome:
    from sushigo.solver.endgame import Certificate, certify_guarantee, solve_position
    from sushigo.spec.model.budget import Budget

    result = solve_position(pos, objective, policy, budget=Budget(None, None, nodes=max_nodes,
                                                                   run_seconds=time_limit))
    certs: list[Certificate] = []
    if certify and result.status == "solved":
        with solver_budget(time_limit, rlimit):
            certs = [certify_guarantee(pos, pv.turn, int(pv.guarantee), result.objective)
                     for pv in result.first_picks]
    out = result.to_json()
    for entry, cert in zip(out["first_picks"], certs, strict=False):
        entry["certified"] = cert.status
    ok = result.status == "solved" and all(c.status == "proved" for c in certs)
    verdict = combine([result.verdict, *(c.verdict for c in certs)])
    return Outcome(with_outcome(tagged(FORMAT, out), verdict), 0 if ok else 1, (result, certs))


# --------------------------------------------------------------------------- many positions

BATCH_FORMAT = "sushigo-endgame-batch/1"
#: The task of one position on a worker (:mod:`sushigo.jobs`).
TASK = "sushigo.api.endgame:position_task"


def read_batch(path: str) -> list[tuple[Any, str]]:
    """The positions of a batch file ('-': standard input): a JSON list of positions, or JSON
    Lines (one position a line; blank lines skipped). Each comes with the name error messages
    give it: ``position K`` (K counted from 0, in input order), plus the line in JSON Lines."""
    from sushigo.schemas.loader import decode, parse, read_bytes

    raw, where = read_bytes(path)
    text = decode(raw, where)
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise InputError(f"{where} holds no position: give a JSON list of positions or one position a line")
    if text.lstrip().startswith("["):
        value = parse(text, where)
        if not isinstance(value, list) or not value:
            raise InputError(f"{where}: a batch is a non-empty JSON list of positions")
        return [(pos, f"position {k}") for k, pos in enumerate(value)]
    return [(parse(line, f"{where} line {n} (position {k})"), f"position {k} (line {n})")
            for k, (n, line) in enumerate(lines)]


def position_task(doc: dict[str, Any]) -> dict[str, Any]:
    """One position of a batch, solved on a worker: what ``sushigo endgame --json`` prints for it,
    and its exit code."""
    from sushigo.jobs import ruleset_from_json
    from sushigo.solver.endgame import parse_position

    pos = parse_position(doc["position"], ruleset_from_json(doc["rules"]))
    out = _solve(pos, doc["objective"], doc["policy"], doc["max_nodes"], doc["certify"], doc["time_limit"],
                 doc.get("rlimit"))
    return {"answer": out.data, "code": out.code}


def endgame_batch_outcome(
    input: Document,
    *,
    objective: str | None = None,
    policy: str | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    certify: bool = False,
    time_limit: float = DEFAULT_TIME_LIMIT,
    rules: str | None = None,
    rule: Rule = None,
    jobs: int | None = None,
    cluster: str | None = None,
    rlimit: int | None = None,
) -> Outcome:
    """Solve many positions (``input``: a path to a JSON list of positions or to JSON Lines, '-'
    for standard input, or a list of position dicts), each as ``sushigo endgame`` would with the
    same options; on ``jobs`` local processes or the Dask scheduler at ``cluster``. Every position
    is checked before any is solved (a bad one: one line naming its index). Returns what
    ``sushigo endgame --batch FILE --json`` prints: the answers in input order (exit code 1 if
    any is not solved or not certified)."""
    from sushigo import jobs as J
    from sushigo.schemas import check_document
    from sushigo.solver.endgame import parse_position

    where = J.runner(jobs, cluster)
    if isinstance(input, str | os.PathLike):
        items = read_batch(os.fspath(input))
    elif isinstance(input, list | tuple):
        if not input:
            raise InputError("a batch needs at least one position")
        items = [(pos, f"position {k}") for k, pos in enumerate(input)]
    else:
        raise InputError(f"a batch is a path to a file of positions or a list of positions, got {input!r}")
    tasks = []
    for k, (data, name) in enumerate(items):
        try:
            check_document(data, "position", name)
            file_rules = data.get("rules") if isinstance(data, dict) else None
            ruleset = rules_from_options(rules, rule, file_rules)
            _check_options(parse_position(data, ruleset), objective, policy, max_nodes, certify, time_limit)
        except InputError as exc:
            text = str(exc)
            raise type(exc)(text if text.startswith(name) else f"{name}: {text}") from None
        tasks.append(J.Task(f"position-{k}", {
            "position": data, "rules": J.ruleset_json(ruleset), "objective": objective, "policy": policy,
            "max_nodes": max_nodes, "certify": certify, "time_limit": time_limit, "rlimit": rlimit}))
    answers = J.run(TASK, tasks, where)
    data = {"format": BATCH_FORMAT, "positions": len(answers), "answers": [a["answer"] for a in answers]}
    return Outcome(data, max(a["code"] for a in answers), answers)


endgame = public(endgame_outcome, "endgame")
endgame_batch = public(endgame_batch_outcome, "endgame_batch")


PARTY_FORMAT = "sushigo-party-endgame-result/1"


def party_endgame_outcome(position: Document | None, *, timeout: float | None = DEFAULT_TIME_LIMIT,
                          rule: Rule = None, rules: str | None = None) -> Outcome:
    """A Sushi Go Party! endgame (docs/party.md, "Endgames"): the position's exact value and the
    first turn's optimal mixed strategies; unknown past ``timeout`` seconds."""
    from sushigo.api.base import budget_of, load_input, override_texts, tagged
    from sushigo.solver.party.endgame import parse_position, solve_party_endgame

    if rules is not None:
        raise InputError("--rules names a base-game ruleset; with --game party choose readings with "
                         "--rule NAME=VALUE (sushigo rules --game party)")
    if position is None:
        raise InputError("--game party: give a position file (format sushigo-party-position/1; "
                         "docs/party.md)")
    budget_of(timeout)
    data, source = load_input(position)
    if not isinstance(data, dict):
        raise InputError(f"{source}: expected a JSON object (a Party position)")
    pos = parse_position(data, override_texts(rule), where=source)
    res = solve_party_endgame(pos, timeout)
    doc = with_outcome(tagged(PARTY_FORMAT, {"menu": pos.menu.label, "players": pos.players,
                                             "cards_left": len(pos.hands[0]), **res.as_json()}), res.verdict)
    return Outcome(doc, 0 if res.status == "optimal" else 1, (res, pos))
