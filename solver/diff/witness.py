"""A search's find made into a :class:`Witness`: its causes, rule ids and side-by-side rows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sushigo.solver.diff import parameters
from sushigo.solver.diff.extension import extend_picks, extend_to_game
from sushigo.solver.diff.parameters import CELL_RULES, _with, differing_parameters, parameter
from sushigo.solver.diff.picks import _seat_scores, reachable
from sushigo.solver.diff.results import Proof, Row, Witness
from sushigo.solver.diff.table import _PUD, TableScore, score_table, tables_differ
from sushigo.solver.diff.table_search import _TableSearch
from sushigo.spec.cards import Card
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.tableau import Tableau, format_tableau


def _causes_table(tabs: Sequence[Tableau], a: Ruleset, b: Ruleset, players: int) -> tuple[str, ...]:
    sa = score_table(tabs, a, players)
    out = []
    for p in differing_parameters(a, b):
        if p not in parameters.SCORING_PARAMS and p not in parameters.SCORING_NUMBERS:
            continue
        alone = score_table(tabs, _with(a, p, getattr(b, p)), players)
        if p == "dummy_2p" or tables_differ(sa, alone, players):
            out.append(p)
    return tuple(out)


def _rule_ids(causes: Sequence[str], cells: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for p in causes:
        # the reading's own rule, then the ranking rule it qualifies (its related ids)
        for rid in parameter(p).rule_ids:
            seen.setdefault(rid, None)
    for c in cells:
        for rid in CELL_RULES.get(c, ()):
            seen.setdefault(rid, None)
    return tuple(seen)


def _fmt_seq(xs: Sequence[int]) -> str:
    return " ".join(str(x) for x in xs)


def _table_witness(
    search: _TableSearch, a: Ruleset, b: Ruleset, timeout_ms: int, rlimit: int | None, extend: bool,
    pairs_rules: Sequence[Ruleset],
    pairs: Sequence[tuple[int, int]],
) -> Witness:
    assert search.tableaux is not None
    tabs = search.tableaux
    players = search.players
    sa, sb = score_table(tabs, a, players), score_table(tabs, b, players)
    if not tables_differ(sa, sb, players):  # the model and spec.scoring disagree: never report it
        raise AssertionError(f"solver witness does not differ when re-scored: {[str(t) for t in tabs]}")
    seats = max(a.seats(players), b.seats(players))
    rows: list[Row] = []
    cells: set[str] = set()

    def cell(i: int, xs: tuple[int, ...]) -> str:
        return str(xs[i]) if i < len(xs) else "(not seated)"

    for i in range(seats):
        who = f"p{i}" if i < players else "dummy"
        rows.append(Row(f"{who} tableau", format_tableau(tabs[i]), format_tableau(tabs[i])))
    for key, label in (("maki", "maki"), ("rounds", "round"), ("pudding", "pudding"), ("totals", "total")):
        va, vb = getattr(sa, key), getattr(sb, key)
        if not any(va) and not any(vb):
            continue  # nothing scored in this line under either ruleset: leave it out of the table
        for i in range(seats):
            who = f"p{i}" if i < players else "dummy"
            row = Row(f"{who} {label}", cell(i, getattr(sa, key)), cell(i, getattr(sb, key)), i < players)
            if row.differs and i < players:
                cells.add({"rounds": "round", "totals": "total"}.get(key, key))
            rows.append(row)
    wrow = Row("winners", _fmt_winners(sa.winners), _fmt_winners(sb.winners))
    if wrow.differs:
        cells.add("winners")
    rows.append(wrow)
    causes = _causes_table(tabs, a, b, players)
    ext = extend_to_game(tabs, pairs_rules, pairs, players, timeout_ms, rlimit) if extend else None
    desc = ", ".join(f"p{i}: {format_tableau(t)}" if i < players else f"dummy: {format_tableau(t)}"
                     for i, t in enumerate(tabs))
    return Witness(
        "table", players, search.cards, causes, _rule_ids(causes, sorted(cells)),
        {"tableaux": [format_tableau(t) for t in tabs], "dummy": seats > players,
         "puddings": [t.counts[_PUD] for t in tabs],
         "scores": {"a": _table_score_json(sa), "b": _table_score_json(sb)}},
        tuple(rows), search.proofs, ext,
        f"{players} players, {search.cards} card{'' if search.cards == 1 else 's'}: {desc}",
    )


def _table_score_json(t: TableScore) -> dict[str, list[int]]:
    return {"round": list(t.rounds), "maki": list(t.maki), "pudding": list(t.pudding),
            "total": list(t.totals), "winners": list(t.winners)}


def _fmt_winners(ws: Sequence[int]) -> str:
    return " ".join(f"p{w}" for w in ws) if ws else "nobody"


def _picks_witness(seq: tuple[tuple[Card, ...], ...], n: int, proofs: tuple[Proof, ...],
                   a: Ruleset, b: Ruleset, extend: bool = True, players: int = 2) -> Witness:
    ra, rb = reachable(seq, a), reachable(seq, b)
    turns_txt = [" ".join(c.label for c in t) for t in seq]
    rows = [Row(f"turn {k + 1}", t, t) for k, t in enumerate(turns_txt)]
    rows.append(Row("reachable tableaux", _fmt_set(ra), _fmt_set(rb)))
    ska, skb = _seat_scores(ra, a), _seat_scores(rb, b)
    rows.append(Row("reachable scores", _fmt_seq(ska) or "(illegal)", _fmt_seq(skb) or "(illegal)"))
    rows.append(Row("best score", str(max(ska)) if ska else "-", str(max(skb)) if skb else "-"))
    causes = tuple(
        p for p in differing_parameters(a, b)
        if p in parameters.PICK_PARAMS and _seat_scores(reachable(seq, _with(a, p, getattr(b, p))), a) != ska
    )
    ext = extend_picks(seq, a, b) if extend else None
    return Witness(
        "picks", players, n, causes, _rule_ids(causes, ["tableau", "score"]),
        {"turns": [[c.label for c in t] for t in seq]}, tuple(rows), proofs, ext,
        f"{players} players, {n} cards: one seat's turns {' | '.join(turns_txt)}",
    )


def _fmt_set(tabs: frozenset[Tableau]) -> str:
    return " ; ".join(sorted(format_tableau(t) for t in tabs)) or "(illegal)"


def _deal_witness(deal: dict[str, Any], proofs: tuple[Proof, ...], a: Ruleset, b: Ruleset) -> Witness:
    players = deal["players"]
    rows = [Row(f"p{i} dealt", " ".join(h), " ".join(h)) for i, h in enumerate(deal["hands"])]
    rows.append(Row("hands go to", _dir(deal["offset_a"]), _dir(deal["offset_b"])))
    rows.extend(Row(f"p{i} first pick", c, c) for i, c in enumerate(deal["first_picks"]))
    rows.extend(Row(f"p{i} tableau", x, y) for i, (x, y) in
                enumerate(zip(deal["tableaux_a"], deal["tableaux_b"], strict=True)))
    rows.extend(Row(f"p{i} round", str(x), str(y)) for i, (x, y) in
                enumerate(zip(deal["scores_a"], deal["scores_b"], strict=True)))
    return Witness(
        "deal", players, 2 * players, ("passing",), _rule_ids(("passing",), ["round"]), deal, tuple(rows),
        proofs, None,
        f"{players} players, round {deal['round']}, hands of 2: "
        + " / ".join(" ".join(h) for h in deal["hands"]),
    )


def _dir(offset: int) -> str:
    return "left (seat i to i+1)" if offset == 1 else "right (seat i to i-1)"
