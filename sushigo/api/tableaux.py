"""``sushigo.tableaux``: every final tableau of K cards scoring exactly S (solver imported lazily)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sushigo.api.base import (
    Outcome,
    Rule,
    as_list,
    override_texts,
    public,
    rules_from_options,
    solver_budget,
    tagged,
)
from sushigo.api.party_sheet import base_only
from sushigo.limits import MAX_LIMIT
from sushigo.spec.answer import Verdict, with_outcome
from sushigo.spec.errors import InputError
from sushigo.spec.numbers import check_whole

FORMAT = "sushigo-tableaux-result/1"


def tableaux_outcome(
    *,
    score: int | None = None,
    cards: int | None = None,
    maki_points: int = 0,
    count: bool = False,
    limit: int | None = None,
    must: str | Sequence[str] = (),
    without: str | Sequence[str] = (),
    facts: bool = False,
    unreachable: bool = False,
    all_scores: bool = False,
    rules: str = "official",
    rule: Rule = None,
    timeout: float | None = None,
    rlimit: int | None = None,
    game: str = "base",
    menu: str | None = None,
    players: int | None = None,
    player: int = 0,
    scores: str | Sequence[int] | None = None,
) -> Outcome:
    """All final tableaux of ``cards`` cards scoring ``score`` (with ``maki_points`` maki points):
    their ``count`` and ``tableaux`` (at most ``limit``; none with ``count=True``). ``must`` and
    ``without`` filter by tokens; ``facts`` gives per token the proved minimum and maximum;
    ``unreachable`` the scores no tableau reaches; ``all_scores`` (with ``count``, without ``score``)
    the number of tableaux for every score, ``{"cards": K, "counts": {"S": n, ...}}``. Counts
    come from an exact count by generating functions (:mod:`sushigo.solver.counting`, tested
    against the Z3 enumeration and brute force), not from listing tableaux. When Z3 runs out
    of its budget (``timeout`` seconds, ``rlimit`` resource units a call) the answer is
    ``{"status": "unknown", "reason": ..., "budget": ...}`` (exit code 1). Returns what
    ``sushigo tableaux --json`` prints.

    ``game="party"``: Sushi Go Party! on ``menu`` at a table of ``players``: the tableaux of seat
    ``player`` behind its ``score`` (or every seat's ``scores``), ``cards`` a seat if given
    (:func:`sushigo.api.party_sheet.party_tableaux_outcome`; docs/party.md)."""
    if game == "party":
        from sushigo.api.party_sheet import party_only, party_tableaux_outcome

        party_only("tableaux", maki_points=(maki_points, 0), facts=(facts, False),
                   unreachable=(unreachable, False), all_scores=(all_scores, False),
                   rules=(rules, "official"))
        return party_tableaux_outcome(players=players, score=score, scores=scores, player=player, cards=cards,
                                      count=count, limit=limit, must=as_list(must), without=as_list(without),
                                      menu=menu, rule=override_texts(rule), timeout=timeout, rlimit=rlimit)
    base_only(game, menu=menu, players=players, scores=scores)
    if cards is None:
        raise InputError("give --cards K (the cards in the tableau)")
    from sushigo.solver import tableaux as T
    from sushigo.solver.counting import count_score, score_counts

    ruleset = rules_from_options(rules, rule)
    filters = T.parse_filters(as_list(must), as_list(without))
    if limit is not None:
        check_whole(limit, "--limit", 0, MAX_LIMIT)
    if not 0 <= cards <= ruleset.deck_size():
        raise InputError(
            f"--cards {cards}: a tableau holds 0 to {ruleset.deck_size()} cards (the whole deck); "
            f"a real round deals {min(s for _, s in ruleset.hand_sizes)} to "
            f"{max(s for _, s in ruleset.hand_sizes)}"
        )
    modes = [f"--{m}" for m, on in (("facts", facts), ("count", count), ("unreachable", unreachable)) if on]
    if len(modes) > 1 and not (all_scores and modes == ["--count"]):
        raise InputError(f"{' and '.join(modes)} are different answers: give one of them")
    top = ruleset.maki_points_cap
    if isinstance(maki_points, bool) or not 0 <= maki_points <= top:
        raise InputError(f"--maki-points {maki_points!r}: a player scores 0 to {top} maki points in a "
                         f"round under {ruleset.name} (most maki icons: {ruleset.maki_first_points})")
    if all_scores:
        if not count or score is not None or facts or unreachable:
            raise InputError("--all-scores goes with --count and without --score, --facts or --unreachable: "
                             "sushigo tableaux --cards K --count --all-scores")
        counts = score_counts(cards, maki_points, ruleset, filters)
        data_all: dict[str, Any] = {"cards": cards, "counts": {str(s): n for s, n in counts.items()}}
        return Outcome(with_outcome(tagged(FORMAT, data_all), Verdict.PROVED), 0, (ruleset, counts))
    try:
        with solver_budget(timeout, rlimit):
            if unreachable:
                hi, missing = T.unreachable(cards, maki_points, ruleset, filters)
                data: dict[str, Any] = {"cards": cards, "maximum": hi, "unreachable": missing}
                return Outcome(with_outcome(tagged(FORMAT, data), Verdict.PROVED), 0, (ruleset, hi, missing))
            if score is None:
                raise InputError("give --score S (or --unreachable)")
            if facts:
                result = T.facts(score, cards, maki_points, ruleset, filters)
                if result is None:
                    none = with_outcome(tagged(FORMAT, {"count": 0, "facts": None}), Verdict.IMPOSSIBLE)
                    return Outcome(none, 1, (ruleset, None))
                data = {"facts": [{"token": f.token.label, "min": f.low, "max": f.high} for f in result]}
                return Outcome(with_outcome(tagged(FORMAT, data), Verdict.PROVED), 0, (ruleset, result))
            if count:
                n = count_score(score, cards, maki_points, ruleset, filters)
                return Outcome(with_outcome(tagged(FORMAT, {"count": n}), Verdict.PROVED), 0, (ruleset, n))
            e = T.enumerate_tableaux(score, cards, maki_points, ruleset, filters, limit=limit)
            data = {"count": e.count, "tableaux": [str(t) for t in e.tableaux]}
            return Outcome(with_outcome(tagged(FORMAT, data), Verdict.PROVED), 0, (ruleset, e))
    except T.SolverUnknown as exc:
        data = {"status": "unknown", "reason": exc.reason, "budget": exc.budget}
        return Outcome(with_outcome(tagged(FORMAT, data), Verdict.UNKNOWN), 1, (ruleset, exc))


tableaux = public(tableaux_outcome, "tableaux")
