"""Sushi Go Party!'s ``tableaux``, ``table`` and ``scoresheet`` (``--game party``; solver imported lazily).

Each returns what its command prints with ``--json``; the base game's functions
(:mod:`sushigo.api.tableaux`, :mod:`sushigo.api.table`, :mod:`sushigo.api.scoresheet`) hand
``game="party"`` here. Scope and method: :mod:`sushigo.solver.party_tableaux`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from sushigo.api.base import Document, Outcome, as_list, load_input, solver_budget, tagged
from sushigo.limits import MAX_LIMIT
from sushigo.spec.answer import Verdict, with_outcome
from sushigo.spec.errors import InputError
from sushigo.spec.numbers import check_whole

TABLEAUX_FORMAT: Final = "sushigo-party-tableaux-result/1"
TABLE_FORMAT: Final = "sushigo-party-table-result/1"
SHEET_RESULT_FORMAT: Final = "sushigo-party-scoresheet-result/1"


def base_only(game: str, **party: object) -> None:
    """Refuse a game other than base and party, and Party's options on the base game."""
    if game not in ("base", "party"):
        raise InputError(f"game {game!r}: give 'base' (Sushi Go!, the default) or 'party' (Sushi Go Party!)")
    for name, value in party.items():
        if value is not None:
            raise InputError(f"--{name} is a Sushi Go Party! option: add --game party")


def party_only(command: str, **given: tuple[object, object]) -> None:
    """Refuse the base game's options (name: (value, default)) with ``--game party``."""
    for name, (value, default) in given.items():
        unset: tuple[object, ...] = (None, (), [])
        if value != default and not (value in unset and default in unset):
            raise InputError(f"--{name.replace('_', '-')} is not an option of {command} --game party "
                             "(docs/party.md: scores back to cards)")


def _menu_rules(menu: str | None, rule: Sequence[str], players: int) -> tuple[Any, Any]:
    from sushigo.spec.party.menus import parse_menu
    from sushigo.spec.party.readings import party_rules

    if menu is None:
        raise InputError("--game party needs its menu: --menu NAME or --menu KIND,KIND,... "
                         "(sushigo rules --game party lists the menus)")
    rules = party_rules(rule)
    chosen = parse_menu(menu, uramaki=rules.uramaki_split)
    chosen.check_players(players)
    return chosen, rules


def _scores(text: str | Sequence[int], players: int | None) -> list[int]:
    from sushigo.api.table import parse_scores

    points = parse_scores(text)
    if players is not None and len(points) != players:
        raise InputError(f"--scores gives {len(points)} scores for --players {players}: one score a seat")
    return points


def _cards(cards: int | None, players: int) -> None:
    from sushigo.spec.party.menus import hand_size

    if cards is not None and (isinstance(cards, bool) or not 0 <= cards <= hand_size(players)):
        raise InputError(f"--cards {cards!r}: a Party tableau of {players} players holds 0 to "
                         f"{hand_size(players)} cards (the hand size, RB p5)")


def party_tableaux_outcome(*, players: int | None, score: int | None, scores: str | Sequence[int] | None,
                           player: int, cards: int | None, count: bool, limit: int | None,
                           must: Sequence[str], without: Sequence[str], menu: str | None,
                           rule: Sequence[str], timeout: float | None, rlimit: int | None) -> Outcome:
    """Every final tableau of seat ``player`` behind its round ``score`` (the other seats free), or
    behind the whole table's ``scores``; ``count`` alone, or the first ``limit``."""
    from sushigo.solver.party_tableaux import enumerate_seat
    from sushigo.spec.party.tableau import format_party_tableau, parse_party_tableau

    if players is None:
        raise InputError("--game party needs --players N (2 to 8): the hand size and the relative kinds "
                         "(maki, temaki, edamame, soy sauce) depend on the table")
    chosen, rules = _menu_rules(menu, rule, players)
    if limit is not None:
        check_whole(limit, "--limit", 0, MAX_LIMIT)
    _cards(cards, players)
    if isinstance(player, bool) or not 0 <= player < players:
        raise InputError(f"--player {player!r}: the seats are 0 to {players - 1}")
    if (score is None) == (scores is None):
        raise InputError("give --score S (the player's round score) or --scores S0,S1,... (the whole "
                         "table's), one of them")
    wanted = {player: score} if score is not None else dict(enumerate(_scores(scores or "", players)))
    needs = [parse_party_tableau(t) for t in must]
    with solver_budget(timeout, rlimit):
        listing = enumerate_seat(chosen, players, wanted, player, rules, cards=cards,
                                 limit=0 if count else limit, cap=MAX_LIMIT, must=needs,
                                 without=[w.strip().lower() for w in without])
    data: dict[str, Any] = {"game": "party", "menu": chosen.label, "players": players, "player": player,
                            "scores": {str(k): v for k, v in wanted.items()}, "cards": cards,
                            "count": listing.count, "complete": listing.complete}
    if not count:
        data["tableaux"] = [format_party_tableau(t) for t in listing.tableaux]
    if listing.unknown:
        data.update(status="unknown", reason=listing.unknown)
        return Outcome(with_outcome(tagged(TABLEAUX_FORMAT, data), Verdict.UNKNOWN), 1,
                       (chosen, rules, listing))
    return Outcome(with_outcome(tagged(TABLEAUX_FORMAT, data), Verdict.PROVED), 0, (chosen, rules, listing))


def party_table_outcome(*, scores: str | Sequence[int] | None, names: str | Sequence[str] | None,
                        limit: int, menu: str | None, rule: Sequence[str], cards: int | None,
                        timeout: float | None, rlimit: int | None) -> Outcome:
    """Tables (a tableau per seat, within the scope) giving exactly ``scores``: a witness, the number
    of tables up to ``limit``; impossible, or unknown (out of budget, or "none" on a menu whose
    kinds lie partly outside the scope)."""
    from sushigo.solver.party_tableaux import enumerate_tables, scope_gaps
    from sushigo.spec.party.tableau import format_party_tableau

    if not scores:
        raise InputError("give --scores S0,S1,... (one round score a seat)")
    points = _scores(scores, None)
    chosen, rules = _menu_rules(menu, rule, len(points))
    check_whole(limit, "--limit", 1, MAX_LIMIT)
    _cards(cards, len(points))
    seat_names = [x.strip() for x in names.split(",")] if isinstance(names, str) else list(names or [])
    if seat_names and len(seat_names) != len(points):
        raise InputError(f"--names gives {len(seat_names)} names for {len(points)} scores")
    seat_names = seat_names or [f"player {k}" for k in range(len(points))]
    with solver_budget(rlimit=rlimit, whole=timeout):
        listing = enumerate_tables(chosen, len(points), points, rules, cards=cards, limit=1, cap=limit)
    data: dict[str, Any] = {"game": "party", "menu": chosen.label, "players": len(points),
                            "names": seat_names, "scores": points}
    if listing.tables:
        table, pts = listing.tables[0], listing.points[0]
        data["witness"] = [{"player": n, "tableau": format_party_tableau(t), "points": p}
                           for n, t, p in zip(seat_names, table, pts, strict=True)]
    data.update(count=listing.count, complete=listing.complete and not listing.unknown)
    gaps = scope_gaps(chosen)
    if listing.unknown:
        status, reason = "unknown", listing.unknown
    elif listing.count:
        status, reason = "possible", ""
    elif gaps:
        status, reason = "unknown", ("no table of final tableaux of normal plays gives these scores; the "
                                     f"menu's {' and '.join(gaps)} are not modelled, so it is not proved "
                                     "impossible")
    else:
        status, reason = "impossible", ""
    data["status"] = status
    if reason:
        data["reason"] = reason
    verdict = {"possible": Verdict.PROVED, "impossible": Verdict.IMPOSSIBLE}.get(status, Verdict.UNKNOWN)
    return Outcome(with_outcome(tagged(TABLE_FORMAT, data), verdict), 0 if status == "possible" else 1,
                   (chosen, rules, data))


def party_scoresheet_outcome(input: Document, *, menu: str | None, rule: Sequence[str], timeout: float | None,
                             rlimit: int | None) -> Outcome:
    """A Party scoresheet (schema ``party-scoresheet``) decided: possible with a witness game,
    impossible with the cells and rule ids of a minimal unsat core, or unknown."""
    from sushigo.solver.party_sheet import check_party_sheet, parse_party_sheet

    data, _where = load_input(input, schema="party-scoresheet")
    sheet = parse_party_sheet(data, menu, as_list(list(rule)))
    with solver_budget(timeout, rlimit):
        verdict = check_party_sheet(sheet)
    kind = {"possible": Verdict.PROVED, "impossible": Verdict.IMPOSSIBLE}.get(verdict.status, Verdict.UNKNOWN)
    out = with_outcome(tagged(SHEET_RESULT_FORMAT, {"game": "party", **verdict.to_json(sheet)}), kind)
    return Outcome(out, 0 if verdict.status == "possible" else 1, (sheet, verdict))


__all__ = ["SHEET_RESULT_FORMAT", "TABLEAUX_FORMAT", "TABLE_FORMAT",
           "party_scoresheet_outcome", "party_table_outcome", "party_tableaux_outcome"]
