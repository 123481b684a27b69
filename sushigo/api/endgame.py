"""``sushigo.endgame``: exact best play for the rest of a round when every hand is known.

The solver is imported when a position is solved, not with this module (start-up time)."""

from __future__ import annotations

from sushigo.api.base import (
    Document,
    Outcome,
    Rule,
    load_input,
    public,
    rules_from_options,
    solver_budget,
    tagged,
)
from sushigo.spec.answer import combine, verdict_of, with_outcome
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
    from sushigo.solver.endgame import (
        Certificate,
        certify_guarantee,
        parse_position,
        parse_position_text,
        solve_position,
    )

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
    if max_nodes < 1 or time_limit <= 0:
        raise InputError("--max-nodes and --time-limit must be positive")
    if certify:
        if pos.players != 2 or pos.pile is not None or policy is not None or pos.cards_left > 3:
            raise InputError(
                "--certify covers 2-player positions (not dummy-2p, no --policy) of up to 3 turns"
            )
        if objective not in (None, "diff", "own"):
            raise InputError("--certify covers the diff and own objectives")
    result = solve_position(pos, objective, policy, max_nodes, time_limit)
    certs: list[Certificate] = []
    if certify and result.status == "solved":
        with solver_budget(time_limit, rlimit):
            certs = [certify_guarantee(pos, pv.turn, int(pv.guarantee), result.objective)
                     for pv in result.first_picks]
    out = result.to_json()
    for entry, cert in zip(out["first_picks"], certs, strict=False):
        entry["certified"] = cert.status
    ok = result.status == "solved" and all(c.status == "proved" for c in certs)
    verdict = combine([verdict_of(result.status), *(verdict_of(c.status) for c in certs)])
    return Outcome(with_outcome(tagged(FORMAT, out), verdict), 0 if ok else 1, (result, certs))


endgame = public(endgame_outcome, "endgame")
