"""``sushigo.scoresheet``: could a legal game have produced this scoresheet? (solver imported lazily)"""

from __future__ import annotations

from sushigo.api.base import (
    Document,
    Outcome,
    Rule,
    budget_of,
    load_input,
    override_texts,
    public,
    rules_from_options,
    tagged,
)
from sushigo.spec.answer import with_outcome
from sushigo.spec.errors import InputError

FORMAT = "sushigo-scoresheet-result/1"

#: ``sushigo.solver.scoresheet.DEFAULT_RLIMIT`` (a test holds the two equal).
DEFAULT_RLIMIT = 300_000_000
DEFAULT_TIMEOUT = 120


def scoresheet_outcome(
    input: Document,
    *,
    rlimit: int = DEFAULT_RLIMIT,
    timeout: int = DEFAULT_TIMEOUT,
    rules: str | None = None,
    rule: Rule = None,
    game: str = "base",
    menu: str | None = None,
) -> Outcome:
    """Decide whether a scoresheet (``{"players": [...], "rounds": [[...], ...], "pudding": [...],
    "totals": [...]}``, a dict or a path) can come from a legal game: "possible" with a witness
    game, "impossible" with an explanation, or "unknown" past the budget (``rlimit`` Z3 resource
    units per main call, ``timeout`` seconds as a safety net). Returns what ``sushigo scoresheet
    --json`` prints (exit code 1 unless "possible"). ``game="party"``: a Sushi Go Party! sheet
    (schema ``party-scoresheet``; ``menu`` overrides its own; docs/party.md)."""
    from sushigo.api.party_sheet import base_only, party_scoresheet_outcome

    if game == "party":
        if rules is not None:
            raise InputError("--rules names a base-game ruleset; with --game party choose readings with "
                             "--rule NAME=VALUE (sushigo rules --game party)")
        return party_scoresheet_outcome(input, menu=menu, rule=override_texts(rule), timeout=timeout,
                                        rlimit=rlimit)
    base_only(game, menu=menu)
    from sushigo.solver.scoresheet import check_sheet, parse_sheet

    budget_of(timeout, rlimit)  # the bounds of every solver budget
    data, _where = load_input(input, schema="scoresheet")
    file_rules = data.get("rules") if isinstance(data, dict) else None
    sheet = parse_sheet(data, rules_from_options(rules, rule, file_rules))
    from sushigo.spec.model.budget import Budget

    verdict = check_sheet(sheet, budget=Budget(max(1, timeout) * 1000, max(1, rlimit)))
    code = 0 if verdict.status == "possible" else 1
    data = with_outcome(tagged(FORMAT, verdict.to_json(sheet)), verdict.verdict)
    return Outcome(data, code, (sheet, verdict))


scoresheet = public(scoresheet_outcome, "scoresheet")
