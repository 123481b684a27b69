"""``sushigo.table``: the tableaux of a whole table from its round scores (solver imported lazily)."""

from __future__ import annotations

from argparse import ArgumentTypeError
from collections.abc import Callable, Sequence
from typing import TypeVar

from sushigo.api.base import (
    Document,
    Outcome,
    Rule,
    as_list,
    load_input,
    override_texts,
    public,
    rules_from_options,
    tagged,
)
from sushigo.common import budget_count, budget_seconds
from sushigo.limits import MAX_LIMIT
from sushigo.spec.errors import InputError
from sushigo.spec.numbers import check_whole

T = TypeVar("T")

FORMAT = "sushigo-table-result/1"


def table_outcome(
    *,
    scores: str | Sequence[int] | None = None,
    names: str | Sequence[str] | None = None,
    has: str | Sequence[str] = (),
    count: str | Sequence[str] = (),
    icons: str | Sequence[str] = (),
    input: Document | None = None,
    limit: int = 20,
    rules: str | None = None,
    rule: Rule = None,
    timeout: float | None = None,
    rlimit: int | None = None,
    progress: bool = False,
    game: str = "base",
    menu: str | None = None,
    cards: int | None = None,
) -> Outcome:
    """Tables (one tableau per seat) giving exactly these round ``scores`` ("12,7,3" or
    ``[12, 7, 3]``), with what holds in every solution; ``has``/``count``/``icons`` add what is
    known of a player ("2:sashimi*3", "1:squid=2", "1:5"); or the query as JSON in ``input``.
    Counting stops at ``limit``. ``timeout`` (seconds of wall clock) and ``rlimit`` (Z3 resource
    units) bound the whole run: past either, the answer is "unknown" with what was counted so far,
    marked incomplete. ``progress`` shows what the run has counted on a terminal's standard error.
    Returns what ``sushigo table --json`` prints (exit code 1 unless "possible").
    ``game="party"``: a Sushi Go Party! table on ``menu`` (``cards`` a seat if given; docs/party.md)."""
    from sushigo.api.party_sheet import base_only, party_only, party_table_outcome

    if game == "party":
        party_only("table", has=(has, ()), count=(count, ()), icons=(icons, ()), input=(input, None),
                   rules=(rules, None))
        return party_table_outcome(scores=scores, names=names, limit=limit, menu=menu,
                                   rule=override_texts(rule), cards=cards, timeout=timeout, rlimit=rlimit)
    base_only(game, menu=menu, cards=cards)
    from sushigo.progress import terminal_progress
    from sushigo.solver.table import RunBudget, answer_json, parse_query, query_from_options, solve

    check_whole(limit, "--limit", 1, MAX_LIMIT)
    run = RunBudget(None if timeout is None else _checked(budget_seconds, "--timeout", timeout),
                    None if rlimit is None else _checked(budget_count, "--rlimit", rlimit))
    if input is not None:
        given = [f"--{o}" for o, v in (("scores", scores), ("names", names), ("has", has),
                                       ("count", count), ("icons", icons)) if v]
        if given:
            raise InputError(f"--input FILE holds the whole query: drop {', '.join(given)} "
                             "(or put them in the file)")
        data, where = load_input(input, schema="table-query")
        if not isinstance(data, dict):
            raise InputError(f"{where}: expected a JSON object with \"scores\"")
        q = parse_query(data, rules_from_options(rules, rule, data.get("rules")))
    else:
        if not scores:
            raise InputError("give --scores S1,S2,... (or --input FILE)")
        points = parse_scores(scores)
        seat_names = [x.strip() for x in names.split(",")] if isinstance(names, str) else list(names or [])
        q = query_from_options(rules_from_options(rules, rule), points, seat_names, as_list(has),
                               as_list(count), as_list(icons))
    with terminal_progress(progress) as show:
        a = solve(q, limit=limit, run=run, progress=show)
    from sushigo.spec.answer import with_outcome

    data = with_outcome(tagged(FORMAT, answer_json(q, a)), a.verdict)
    return Outcome(data, 0 if a.status == "possible" else 1, (q, a))


def parse_scores(scores: str | Sequence[int]) -> list[int]:
    """``--scores``: "12,7,3" or a list of whole numbers (one line naming a bad one)."""
    if isinstance(scores, str):
        try:
            return [int(x) for x in scores.split(",")]
        except ValueError as exc:
            raise InputError(f"--scores {scores!r} must be whole numbers separated by commas") from exc
    points = list(scores)
    bad = [p for p in points if isinstance(p, bool) or not isinstance(p, int)]
    if bad:
        raise InputError(f"scores must be whole numbers, got {bad[0]!r}")
    return points


def _checked(check: Callable[[str], T], option: str, value: object) -> T:
    """A budget given to the library, held to the CLI's rule (finite, above 0, within Z3's range)."""
    if isinstance(value, bool):
        raise InputError(f"{option}: {value!r} is not a budget")
    try:
        return check(str(value))
    except ArgumentTypeError as exc:
        raise InputError(f"{option}: {exc}") from exc


table = public(table_outcome, "table")
