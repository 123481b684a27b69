"""An impossible sheet in words: the rules' own words, the round maximum, the possible pudding rows."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

import z3
from sushigo.solver.scoresheet.model import DEFAULT_TIMEOUT_MS, Cell
from sushigo.solver.scoresheet.sheet import Sheet
from sushigo.spec.cards import Card
from sushigo.spec.errors import BudgetSpent
from sushigo.spec.model.budget import Budget, decide
from sushigo.spec.model.core import Model
from sushigo.spec.model.scoring import card_count_terms, round_terms, size_term, tableau_vars
from sushigo.spec.ruleset import PARAMETERS, Ruleset
from sushigo.spec.scoring import pudding_points

#: What each rule id used here says, in our words (for explanations); a ``{field}`` is the sheet
#: ruleset's number (:func:`spec.model.catalogue.rule_numbers`).
RULE_WORDS: dict[str, str] = {
    "R-HAND-SIZE": "every final tableau holds exactly the hand size's number of cards",
    "R-DECK": "all rounds are dealt from one deck, so no card kind is used more often than the deck holds",
    "R-TEMPURA": "tempura scores only per {tempura_group}",
    "R-SASHIMI": "sashimi scores only per {sashimi_group}",
    "R-DUMPLING": "dumplings score by the dumpling table",
    "R-NIGIRI": "nigiri score egg/salmon/squid points, {wasabi_ed} on a wasabi",
    "R-MAKI-ICONS": "maki icons are counted per roll",
    "R-MAKI-FIRST": "most maki icons takes first place",
    "R-MAKI-SECOND": "second place is paid only when first is not tied",
    "R-MAKI-POINTS": "maki points go only to the first and second places",
    "R-ROUND-TOTAL": "a round score is the sum of its categories",
    "R-PUDDING-MOST": "most puddings earn the bonus (shared when tied)",
    "R-PUDDING-FEWEST": "fewest puddings pay the penalty (shared when tied)",
    "R-PUDDING-CARRY": "puddings are kept over the rounds and counted at the end",
    "R-GAME-TOTAL": "a game total is the sum of the round scores and the pudding points",
    "R-DOMAIN": "counts are whole numbers within the deck",
    # the contested readings' words are declared with their parameters
    **{p.rule_id: p.words for p in PARAMETERS if p.words is not None},
}


def rule_words(rule_id: str, rules: Ruleset) -> str:
    """What ``rule_id`` says under ``rules``: our short words, else the catalogue's statement."""
    from sushigo.spec.model.catalogue import rule_numbers, rule_statement

    words = RULE_WORDS.get(rule_id)
    if words:
        return words.format(**rule_numbers(rules))
    return rule_statement(rule_id, rules) or rule_id


@lru_cache(maxsize=64)
def round_maximum(rules: Ruleset, players: int) -> int:
    """The highest round score one player can make at this table (maki points included), proved."""
    seats, k = rules.seats(players), rules.hand_size(players)
    m = Model()
    row = [tableau_vars(m, f"mx_tab_p{i}", rules) for i in range(seats)]
    for t in row:
        m.add("R-HAND-SIZE", size_term(t) == k)
    used = [card_count_terms(t) for t in row]
    for card in Card:
        m.add("R-DECK", z3.Sum([u[int(card)] for u in used]) <= rules.copies(card))
    terms = round_terms(m, "mx", row, rules)
    opt = m.solver(optimize=True, timeout_ms=DEFAULT_TIMEOUT_MS)
    assert isinstance(opt, z3.Optimize)
    h = opt.maximize(terms[0]["total"])
    if not decide(opt, Budget.kept()).sat:  # built with DEFAULT_TIMEOUT_MS
        raise BudgetSpent.unknown("no round maximum found", f"timeout {DEFAULT_TIMEOUT_MS} ms")
    return int(h.value().as_long())


@lru_cache(maxsize=64)
def pudding_rows(rules: Ruleset, seats: int) -> frozenset[tuple[int, ...]]:
    """Every pudding-points row some pudding counts give (brute force over the counts)."""
    cap = rules.copies(Card.PUDDING)
    out = set()
    for counts in itertools.product(range(cap + 1), repeat=seats):
        if sum(counts) <= cap:
            out.add(tuple(pudding_points(counts, rules)))
    return frozenset(out)


def explain(sheet: Sheet, cells: Sequence[Cell], rule_ids: Sequence[str]) -> list[str]:
    out: list[str] = []
    n, k = len(sheet.players), sheet.hand_size
    rows = {c.row for c in cells}
    if len(cells) == 1 and cells[0].row.startswith("round"):
        c = cells[0]
        hi = round_maximum(sheet.rules, n)
        if c.value > hi:
            out.append(f"{c.row}: {sheet.seat_name(c.seat)} {c.value} with {k} cards is above the "
                       f"{n}-player round maximum of {hi}")
        elif c.value < 0:
            out.append(f"{c.row}: {sheet.seat_name(c.seat)} {c.value} is negative; round scores never are")
        else:
            out.append(f"{c.row}: no tableau of {k} cards scores exactly {c.value} for "
                       f"{sheet.seat_name(c.seat)} at a {n}-player table")
    elif rows == {"pudding"} and sheet.pudding is not None:
        seats = sheet.seats
        possible = pudding_rows(sheet.rules, seats)
        sums = sorted({sum(p[:n]) for p in possible})
        total = sum(sheet.pudding)
        if total not in sums:
            penalty = sheet.rules.pudding_penalty_applies(seats)
            why = (" but the fewest-pudding penalty must be paid unless everyone is tied" if penalty
                   else " (no fewest-pudding penalty is paid at this table)")
            out.append(f"pudding row sums to {total:+d} with {seats} seats{why}; possible sums: "
                       f"{', '.join(f'{x:+d}' for x in sums)}")
        else:
            out.append(f"pudding row {list(sheet.pudding)} is not produced by any pudding counts "
                       f"with {seats} seats and {sheet.rules.copies(Card.PUDDING)} pudding cards")
    elif "total" in rows and sheet.totals is not None:
        for c in cells:
            if c.row != "total":
                continue
            i = c.seat
            parts = [r[i] for r in sheet.rounds]
            pud = sheet.pudding[i] if sheet.pudding is not None else None
            expect = sum(parts) + (pud or 0)
            if pud is not None and expect != c.value:
                out.append(f"totals row does not add up: {sheet.seat_name(i)} has {c.value}, but the rounds "
                           f"{' + '.join(map(str, parts))} and pudding {pud:+d} make {expect}")
    if not out:
        listed = "; ".join(c.describe(sheet) for c in cells) or "(no cell: the rules alone)"
        out.append(f"these cells cannot all hold together: {listed}")
    for rid in rule_ids:
        out.append(f"{rid}: {rule_words(rid, sheet.rules)}")
    return out
