"""The scoring search: the smallest table where the rulesets' Z3 scoring models differ."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import z3
from sushigo.solver.diff import parameters
from sushigo.solver.diff.parameters import DEFAULT_TIMEOUT_MS, applies
from sushigo.solver.diff.results import Proof
from sushigo.solver.diff.table import _PUD
from sushigo.spec.cards import Card
from sushigo.spec.model.budget import Budget, decide
from sushigo.spec.model.core import Model
from sushigo.spec.model.scoring import (
    card_count_terms,
    pudding_terms,
    round_terms,
    size_term,
    tableau_vars,
    winner_terms,
)
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.tableau import Tableau


@dataclass
class _TableQuery:
    model: Model
    tableaux: list[list[z3.ArithRef]]
    cards: z3.ArithRef
    seats: int


def _side_terms(
    m: Model, tag: str, tabs: list[list[z3.ArithRef]], rules: Ruleset, players: int
) -> dict[str, list[Any]]:
    seats = rules.seats(players)
    rt = round_terms(m, f"{tag}_r", tabs[:seats], rules)
    puds = [t[_PUD] for t in tabs[:seats]]
    pp = pudding_terms(m, f"{tag}_g", puds, rules)
    totals = [rt[i]["total"] + pp[i] for i in range(seats)]
    wins = winner_terms(m, f"{tag}_w", totals, puds, rules, players=players)
    return {
        "round": [d["total"] for d in rt],
        "maki": [d["maki"] for d in rt],
        "pudding": pp,
        "total": totals,
        "wins": wins,
    }


def _differ_term(x: dict[str, list[Any]], y: dict[str, list[Any]], players: int) -> z3.BoolRef:
    parts: list[z3.BoolRef] = []
    for key in ("round", "maki", "pudding", "total"):
        parts.extend(x[key][i] != y[key][i] for i in range(players))
    parts.extend(x["wins"][i] != y["wins"][i] for i in range(players))
    return z3.Or(*parts)


def _hand_caps(rulesets: Sequence[Ruleset], players: int, seats: int) -> list[int]:
    """Most cards a seat can hold: its hand size under every ruleset that seats it."""
    caps = []
    for i in range(seats):
        sizes = [r.hand_size(players) for r in rulesets if i < r.seats(players)]
        caps.append(min(sizes))
    return caps


def _build_table_query(
    rulesets: Sequence[Ruleset], pairs: Sequence[tuple[int, int]], players: int,
    rounds: int = 1, full: bool = False,
) -> _TableQuery:
    """Tableaux for ``rounds`` rounds, scored under every ruleset; some listed pair must differ.

    With ``full``, every tableau holds exactly a hand's worth of cards.
    """
    m = Model()
    seats = max(r.seats(players) for r in rulesets)
    base = rulesets[0]
    caps = _hand_caps(rulesets, players, seats)
    rounds_tabs = [
        [tableau_vars(m, f"t{k}_s{i}", base) for i in range(seats)] for k in range(rounds)
    ]
    sizes = []
    for k, tabs in enumerate(rounds_tabs):
        for i, t in enumerate(tabs):
            sz = size_term(t)
            sizes.append(sz)
            m.add("R-HAND-SIZE", sz == caps[i] if full else sz <= caps[i], f"t{k}_s{i}")
    all_tabs = [t for tabs in rounds_tabs for t in tabs]
    counts = [card_count_terms(t) for t in all_tabs]
    m.add("R-DECK", [z3.Sum([c[int(card)] for c in counts]) <= base.copies(card) for card in Card], "table")
    cards = m.int("cards", 0)
    m.add("R-CARDS", cards == z3.Sum(sizes), "table")
    sides = []
    for j, rules in enumerate(rulesets):
        if rounds == 1:
            sides.append(_side_terms(m, f"x{j}", rounds_tabs[0], rules, players))
        else:
            sides.append(_game_terms(m, f"x{j}", rounds_tabs, rules, players))
    for a, b in pairs:
        m.add("DIFFER", _differ_term(sides[a], sides[b], players), f"{a}-{b}")
    return _TableQuery(m, rounds_tabs[0], cards, seats)


def _game_terms(
    m: Model, tag: str, rounds_tabs: list[list[list[z3.ArithRef]]], rules: Ruleset, players: int
) -> dict[str, list[Any]]:
    seats = rules.seats(players)
    per_round = [round_terms(m, f"{tag}_r{k}", tabs[:seats], rules) for k, tabs in enumerate(rounds_tabs)]
    puds = [z3.Sum([tabs[i][_PUD] for tabs in rounds_tabs]) for i in range(seats)]
    pp = pudding_terms(m, f"{tag}_g", puds, rules)
    totals = [z3.Sum([r[i]["total"] for r in per_round]) + pp[i] for i in range(seats)]
    wins = winner_terms(m, f"{tag}_w", totals, puds, rules, players=players)
    rounds_flat = [r[i]["total"] for r in per_round for i in range(seats)]
    # "round" compares every round's total of every seat; laid out round by round.
    return {
        "round": _by_seat(rounds_flat, seats, len(per_round)),
        "maki": _by_seat([r[i]["maki"] for r in per_round for i in range(seats)], seats, len(per_round)),
        "pudding": pp,
        "total": totals,
        "wins": wins,
    }


def _by_seat(flat: list[Any], seats: int, rounds: int) -> list[Any]:
    """Seat i's values of every round, packed as one term that differs iff any of them does."""
    out = []
    for i in range(seats):
        vals = [flat[k * seats + i] for k in range(rounds)]
        # A seat's round totals, read as digits of a large base, differ iff some round differs.
        packed: Any = z3.IntVal(0)
        for v in vals:
            packed = packed * 1000 + (v + 500)
        out.append(packed)
    return out


def _tableaux_from(model: z3.ModelRef, tabs: Sequence[Sequence[z3.ArithRef]]) -> list[Tableau]:
    return [Tableau(tuple(model.eval(v, model_completion=True).as_long() for v in t)) for t in tabs]


@dataclass(frozen=True)
class _TableSearch:
    tableaux: tuple[Tableau, ...] | None
    players: int
    cards: int
    proofs: tuple[Proof, ...]
    unknown: str = ""


def _check(s: z3.Solver, extra: z3.BoolRef, budget: Budget) -> str:
    s.push()
    s.add(extra)
    r = decide(s, budget).status
    if r != "sat":
        s.pop()
    return r


def smallest_table(
    rulesets: Sequence[Ruleset], pairs: Sequence[tuple[int, int]], players_range: Iterable[int],
    timeout_ms: int = DEFAULT_TIMEOUT_MS, rlimit: int | None = None,
) -> _TableSearch:
    """Fewest players, then fewest cards, over tables; with the unsat proofs for everything smaller.

    ``rlimit`` (Z3 resource units per query) gives a budget that stops at the same point on
    any machine; ``timeout_ms`` a wall-clock one.
    """
    proofs: list[Proof] = []
    for players in players_range:
        if not all(applies(r, players) for r in rulesets):
            proofs.append(Proof(players, -1, "not-applicable", "structural",
                                "the dummy-2p variant is played by 2 players only; not compared"))
            continue
        q = _build_table_query(rulesets, pairs, players)
        s = q.model.solver(timeout_ms=timeout_ms, rlimit=rlimit)
        assert isinstance(s, z3.Solver)
        bound = sum(_hand_caps(rulesets, players, q.seats))
        budget = Budget.kept()  # the solver's own timeout_ms and rlimit
        r: str = decide(s, budget).status
        if r == "unsat":
            proofs.append(Proof(players, bound, "unsat", "z3", "every table within the hand sizes and deck"))
            continue
        if r == "unknown":
            return _TableSearch(None, players, -1, tuple(proofs),
                                f"z3 returned unknown ({s.reason_unknown()}) at {players} players")
        for c in range(0, bound + 1):
            r = _check(s, q.cards <= c, budget)
            if r == "sat":
                tabs = _tableaux_from(s.model(), q.tableaux)
                s.pop()
                if c > 0:
                    proofs.append(Proof(players, c - 1, "unsat", "z3", "fewer cards"))
                return _TableSearch(tuple(tabs), players, c, tuple(proofs))
            if r == "unknown":
                return _TableSearch(None, players, -1, tuple(proofs),
                                    f"z3 returned unknown ({s.reason_unknown()}) at {players} players, "
                                    f"{c} cards")
        raise AssertionError("sat at the bound but at no size up to it")  # pragma: no cover
    return _TableSearch(None, 0, -1, tuple(proofs))


def _scoring_only(rules: Ruleset) -> Ruleset:
    """The ruleset as far as scoring a table goes: no name, the play readings of official."""
    play = (*parameters.PICK_PARAMS, *parameters.DEAL_PARAMS)
    return rules.replace(name="", **{p: getattr(OFFICIAL, p) for p in play})


@lru_cache(maxsize=1024)
def _smallest_table_cached(
    rulesets: tuple[Ruleset, ...], pairs: tuple[tuple[int, int], ...], prange: tuple[int, ...],
    timeout_ms: int, rlimit: int | None,
) -> _TableSearch:
    """Tables score the same whatever the play readings: rulesets that differ only there share a search."""
    return smallest_table(rulesets, pairs, prange, timeout_ms, rlimit)
