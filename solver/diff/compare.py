"""``diff(a, b)``: one search per group of differing parameters, the smallest witness wins."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import assert_never

from sushigo.solver.deal_numbers import DEAL_NUMBERS, deal_number_witness
from sushigo.solver.diff import parameters
from sushigo.solver.diff.deal import smallest_deal
from sushigo.solver.diff.parameters import DEFAULT_TIMEOUT_MS, _with, applies, differing_parameters, parameter
from sushigo.solver.diff.picks import smallest_picks
from sushigo.solver.diff.results import DiffResult, Proof, Witness
from sushigo.solver.diff.table_search import _scoring_only, _smallest_table_cached
from sushigo.solver.diff.witness import _deal_witness, _picks_witness, _table_witness
from sushigo.spec.model.budget import Budget
from sushigo.spec.ruleset import Effect, Ruleset


def diff(
    a: Ruleset, b: Ruleset, *, all_causes: bool = False, players: Sequence[int] | None = None,
    timeout_ms: int = DEFAULT_TIMEOUT_MS, extend: bool = True, rlimit: int | None = None,
    budget: Budget | None = None,
) -> DiffResult:
    """Smallest witness where ``a`` and ``b`` give different results, or the proof that none exists.

    Each query runs within ``timeout_ms`` and ``rlimit``, or ``budget``'s (the one
    :class:`~sushigo.spec.model.budget.Budget`; a limit it leaves open is the default)."""
    if budget is not None:
        timeout_ms = timeout_ms if budget.timeout_ms is None else budget.timeout_ms
        rlimit = rlimit if budget.rlimit is None else budget.rlimit
    start = time.monotonic()
    prange = tuple(players) if players is not None else tuple(
        range(min(a.min_players, b.min_players), max(a.max_players, b.max_players) + 1)
    )
    params = differing_parameters(a, b)
    found: list[Witness] = []
    proofs: list[Proof] = []
    unknown = ""
    # one search per group of parameters acting the same way; --all: one per parameter
    groups: list[tuple[str, ...]] = []
    if all_causes:
        groups = [(p,) for p in params]
    else:
        for kind in ((*parameters.SCORING_PARAMS, *parameters.SCORING_NUMBERS), parameters.PICK_PARAMS,
                     parameters.DEAL_PARAMS):
            g = tuple(p for p in params if p in kind)
            if g:
                groups.append(g)
        groups += [(p,) for p in params if p in DEAL_NUMBERS]  # each read off its own numbers
    if not params:
        # identical readings: ask the solver anyway, so agreement is a proof, not an assumption
        groups = [parameters.SCORING_PARAMS]
    covered = tuple(p for g in groups for p in g)
    # A differing parameter no search looks at would let "equivalent" claim what was never asked.
    uncovered = [p for p in params if p not in covered]
    no_effect: list[tuple[str, tuple[Proof, ...]]] = []
    for group in groups:
        w, pr, unk = _search_group(a, b, group, all_causes, prange, timeout_ms, rlimit, extend)
        proofs.extend(pr)
        if w is not None:
            found.append(w)
        elif all_causes and params and not unk:
            no_effect.append((group[0], pr))
        if unk:
            unknown = unk
    found.sort(key=lambda w: w.size)
    seconds = time.monotonic() - start
    if found:
        # an unfinished search elsewhere might have held a smaller witness: say so
        note = f"{unknown}; a smaller witness is not ruled out" if unknown else ""
        return DiffResult(a, b, "differ", found[0], tuple(found) if all_causes else (found[0],),
                          tuple(proofs), note, seconds, tuple(no_effect), covered)
    if unknown:
        return DiffResult(a, b, "unknown", None, (), tuple(proofs), unknown, seconds, covered=covered)
    if uncovered:
        return DiffResult(a, b, "unknown", None, (), tuple(proofs),
                          f"no search covers {', '.join(uncovered)}; agreement is not proved", seconds,
                          covered=covered)
    if proofs and all(p.answer == "not-applicable" for p in proofs):
        return DiffResult(a, b, "not-applicable", None, (), tuple(proofs),
                          "no player count asked for is played under both rulesets", seconds,
                          covered=covered)
    return DiffResult(a, b, "equivalent", None, (), tuple(proofs), "", seconds, covered=covered)


def _search_group(
    a: Ruleset, b: Ruleset, group: tuple[str, ...], single: bool, prange: tuple[int, ...], timeout_ms: int,
    rlimit: int | None, extend: bool,
) -> tuple[Witness | None, tuple[Proof, ...], str]:
    kind = group[0]
    if kind in DEAL_NUMBERS:
        witness, proofs = deal_number_witness(a, b, kind, prange)
        return witness, proofs, ""
    rulesets: list[Ruleset] = [a, b]
    pairs: list[tuple[int, int]] = [(0, 1)]
    if single:
        # the witness must separate a and b, and a from a with only this parameter changed
        rulesets.append(_with(a, kind, getattr(b, kind)))
        pairs.append((0, 2))
    effect = parameter(kind).effect
    if effect is Effect.SCORING:
        search = _smallest_table_cached(tuple(_scoring_only(r) for r in rulesets), tuple(pairs), prange,
                                        timeout_ms, rlimit)
        if search.tableaux is None:
            return None, search.proofs, search.unknown
        return _table_witness(search, a, b, timeout_ms, rlimit, extend, rulesets, pairs), search.proofs, ""
    if effect is Effect.PICK:
        playable = [p for p in prange if all(applies(r, p) for r in rulesets)]
        if not playable:
            return None, tuple(Proof(p, -1, "not-applicable", "structural",
                                     "not played under both rulesets") for p in prange), ""
        seq, n, proofs = smallest_picks(rulesets, pairs, players=playable[0])
        if seq is None:
            return None, proofs, ""
        return _picks_witness(seq, n, proofs, a, b, extend, playable[0]), proofs, ""
    if effect is Effect.DEAL:
        deal, proofs = smallest_deal(a, b, prange)
        if deal is None:
            return None, proofs, ""
        return _deal_witness(deal, proofs, a, b), proofs, ""
    assert_never(effect)
