"""Is a scoresheet possible? (``sushigo scoresheet``)

A sheet is possible when some legal game produces exactly its cells. Every
final tableau holds exactly the hand size's number of cards (each turn adds
one card net: a chopsticks turn adds two and gives one back), and every
collection of such tableaux that fits in the deck together is reachable by
legal play (deal each player's cards into the hands in the order they will
meet them; take plain nigiri before wasabi and each stacked nigiri right
after its wasabi). So the model is: per round and seat a tableau of K cards,
all rounds within one deck (R-DECK), round scores with the maki ranking of
that round, puddings summed over the rounds, pudding points and totals.

Each sheet cell and each rule id is tracked by its own literal, so an unsat
core names cells and rules; the core is then minimised by deletion and put
into words.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import z3
from sushigo.solver.tableaux import SolverUnknown
from sushigo.spec.cards import Card, Token
from sushigo.spec.document import check_format
from sushigo.spec.errors import InputError
from sushigo.spec.model.budget import Budget, decide
from sushigo.spec.model.core import Model
from sushigo.spec.model.scoring import card_count_terms, pudding_terms, round_terms, size_term, tableau_vars
from sushigo.spec.record import record_from_tableaux, rules_fields
from sushigo.spec.rulefile import rules_value, ruleset_from_value
from sushigo.spec.ruleset import PARAMETERS, Ruleset
from sushigo.spec.scoring import pudding_points, score_game
from sushigo.spec.tableau import Tableau

DEFAULT_TIMEOUT_MS = 120_000  # a wall-clock safety net only
#: Optional format tag of a scoresheet document (older ones have none).
SHEET_FORMAT = "sushigo-scoresheet/1"
#: The budget of the main solver calls, in Z3 resource units (deterministic across machines and
#: load, unlike a timeout); about 10 s of CPU here. Local row checks and core shrinking get less.
DEFAULT_RLIMIT = 300_000_000

#: What each rule id used here says, in our words (for explanations).
RULE_WORDS: dict[str, str] = {
    "R-HAND-SIZE": "every final tableau holds exactly the hand size's number of cards",
    "R-DECK": "all rounds are dealt from one deck, so no card kind is used more often than the deck holds",
    "R-TEMPURA": "tempura scores only per pair",
    "R-SASHIMI": "sashimi scores only per set of three",
    "R-DUMPLING": "dumplings score by the dumpling table",
    "R-NIGIRI": "nigiri score egg/salmon/squid points, tripled on a wasabi",
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


def _catalogue_words(rule_id: str) -> str:
    """The rule catalogue's statement for an id this module has no shorter words for."""
    from sushigo.spec.model.catalogue import RULE_CATALOGUE

    return RULE_CATALOGUE.get(rule_id, rule_id)


@dataclass(frozen=True)
class Sheet:
    rules: Ruleset
    players: tuple[str, ...]
    rounds: tuple[tuple[int, ...], ...]
    pudding: tuple[int, ...] | None = None
    totals: tuple[int, ...] | None = None

    @property
    def seats(self) -> int:
        return self.rules.seats(len(self.players))

    @property
    def hand_size(self) -> int:
        return self.rules.hand_size(len(self.players))

    def seat_name(self, i: int) -> str:
        return self.players[i] if i < len(self.players) else "the dummy"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rules": rules_value(self.rules), "players": list(self.players),
                               "rounds": [list(r) for r in self.rounds]}
        if self.pudding is not None:
            out["pudding"] = list(self.pudding)
        if self.totals is not None:
            out["totals"] = list(self.totals)
        return out


def _int_row(value: object, n: int, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise InputError(f"{where} must be a list of {n} whole numbers, got {value!r}")
    if len(value) != n:
        raise InputError(f"{where} has {len(value)} cells but the sheet has {n} players")
    return tuple(value)


def parse_sheet(data: object, rules: Ruleset | None = None) -> Sheet:
    """A sheet from its JSON; ``rules`` (from the command line) overrides the file's ``rules``."""
    if not isinstance(data, dict):
        raise InputError('a scoresheet is a JSON object like {"players": [...], "rounds": [[...], ...]}')
    unknown = set(data) - {"format", "rules", "players", "rounds", "pudding", "totals", "source", "note"}
    if unknown:
        raise InputError(f"unknown scoresheet field(s) {sorted(unknown)}; "
                         "fields: format, rules, players, rounds, pudding, totals")
    check_format(data, SHEET_FORMAT, "scoresheet")
    if rules is None:
        rules = ruleset_from_value(data.get("rules", "official"), 'the scoresheet\'s "rules"')
    players = data.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        raise InputError(f'"players" must be a list of player names, got {players!r}')
    if len(set(players)) != len(players):
        raise InputError(f'"players" has a repeated name: {players!r}')
    rules.hand_size(len(players))  # raises a RulesError for a wrong player count
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise InputError(f'"rounds" must be a list of rows of round scores, got {rounds!r}')
    if len(rounds) > rules.rounds:
        raise InputError(f"the sheet has {len(rounds)} rounds but the game has {rules.rounds}")
    n = len(players)
    rows = tuple(_int_row(r, n, f"round {k + 1}") for k, r in enumerate(rounds))
    pudding = None
    if data.get("pudding") is not None:
        if len(rows) != rules.rounds:
            raise InputError(f"a pudding row needs all {rules.rounds} rounds; the sheet has {len(rows)}")
        pudding = _int_row(data["pudding"], n, "pudding")
    totals = _int_row(data["totals"], n, "totals") if data.get("totals") is not None else None
    return Sheet(rules, tuple(players), rows, pudding, totals)


def sheet_from_record(record: Any, names: Sequence[str] | None = None) -> Sheet:
    """The sheet a scorekeeper writes for a game record (:class:`spec.record.GameRecord`)."""
    n = record.players
    players = tuple(names) if names is not None else tuple(f"P{i + 1}" for i in range(n))
    return Sheet(
        record.rules, players, tuple(tuple(r.scores[:n]) for r in record.rounds),
        tuple(record.pudding[:n]) if record.pudding is not None else None, tuple(record.totals[:n]),
    )


@dataclass(frozen=True)
class Cell:
    row: str  # "round 2", "pudding", "total"
    seat: int
    value: int

    def describe(self, sheet: Sheet) -> str:
        return f"{self.row}: {sheet.seat_name(self.seat)} {self.value}"


@dataclass
class SheetModel:
    sheet: Sheet
    model: Model
    tabs: list[list[list[z3.ArithRef]]]  # [round][seat] -> 15 counts
    round_totals: list[list[z3.ArithRef]]
    puddings: list[z3.ArithRef]
    pudding_pts: list[z3.ArithRef] | None
    game_totals: list[z3.ArithRef]
    cells: list[tuple[Cell, z3.BoolRef]] = field(default_factory=list)


def build(sheet: Sheet) -> SheetModel:
    rules = sheet.rules
    seats, k = sheet.seats, sheet.hand_size
    m = Model()
    tabs: list[list[list[z3.ArithRef]]] = []
    totals: list[list[z3.ArithRef]] = []
    for r in range(len(sheet.rounds)):
        row = [tableau_vars(m, f"tab_r{r + 1}_p{i}", rules) for i in range(seats)]
        for i, t in enumerate(row):
            m.add("R-HAND-SIZE", size_term(t) == k, f"round {r + 1}, {sheet.seat_name(i)}")
        terms = round_terms(m, f"r{r + 1}", row, rules)
        tabs.append(row)
        totals.append([d["total"] for d in terms])
    used = [card_count_terms(t) for row in tabs for t in row]
    for card in Card:
        m.add("R-DECK", z3.Sum([u[int(card)] for u in used]) <= rules.copies(card), card.label)
    puddings = []
    for i in range(seats):
        p = m.int(f"puddings_p{i}", 0)
        kept = z3.Sum([row[i][int(Token.PUDDING)] for row in tabs])
        m.add("R-PUDDING-CARRY", p == kept, sheet.seat_name(i))
        puddings.append(p)
    pud_pts = pudding_terms(m, "game", puddings, rules) if len(sheet.rounds) == rules.rounds else None
    game_totals = []
    for i in range(seats):
        g = m.int(f"game_p{i}_total", None)
        parts = [row[i] for row in totals] + ([pud_pts[i]] if pud_pts is not None else [])
        m.add("R-GAME-TOTAL", g == z3.Sum(parts), sheet.seat_name(i))
        game_totals.append(g)
    sm = SheetModel(sheet, m, tabs, totals, puddings, pud_pts, game_totals)
    for r, values in enumerate(sheet.rounds):
        for i, v in enumerate(values):
            sm.cells.append((Cell(f"round {r + 1}", i, v), totals[r][i] == v))
    if sheet.pudding is not None and pud_pts is not None:
        for i, v in enumerate(sheet.pudding):
            sm.cells.append((Cell("pudding", i, v), pud_pts[i] == v))
    if sheet.totals is not None:
        for i, v in enumerate(sheet.totals):
            sm.cells.append((Cell("total", i, v), game_totals[i] == v))
    return sm


@dataclass(frozen=True)
class Witness:
    rounds: tuple[tuple[Tableau, ...], ...]  # [round][seat]
    puddings: tuple[int, ...]


@dataclass(frozen=True)
class Verdict:
    status: str  # "possible" | "impossible" | "unknown"
    witness: Witness | None = None
    cells: tuple[Cell, ...] = ()
    rule_ids: tuple[str, ...] = ()
    explanation: tuple[str, ...] = ()
    reason: str | None = None

    def to_json(self, sheet: Sheet) -> dict[str, Any]:
        out: dict[str, Any] = {"possible": {"possible": True, "impossible": False}.get(self.status)}
        if self.witness is not None:
            names = [sheet.seat_name(i) for i in range(sheet.seats)]
            out["witness"] = {
                "seats": names,
                "rounds": [[str(t) for t in row] for row in self.witness.rounds],
                "puddings": list(self.witness.puddings),
                **rules_fields(sheet.rules),
                # the same game dealt and played: 'sushigo replay' re-executes it
                "record": record_from_tableaux(self.witness.rounds, sheet.rules, len(sheet.players)),
            }
        if self.status == "impossible":
            out["explanation"] = list(self.explanation)
            out["core"] = {
                "cells": [{"row": c.row, "player": sheet.seat_name(c.seat), "value": c.value}
                          for c in self.cells],
                "rules": list(self.rule_ids),
            }
        if self.status == "unknown":
            out["reason"] = self.reason
        return out


class _Tracked:
    """One solver; every rule id, every sheet cell and every card's cross-round deck limit is
    guarded by its own literal, so a check under a subset of literals is a check of a
    subset of the sheet and the rules, and an unsat core names cells and rules."""

    def __init__(self, sm: SheetModel, timeout_ms: int, rlimit: int) -> None:
        self.sm = sm
        self.timeout_ms = timeout_ms
        self.rlimit = rlimit
        s = z3.Solver()
        s.set("timeout", timeout_ms)
        self.rules: dict[str, z3.BoolRef] = {}
        self.deck: dict[Card, z3.BoolRef] = {}
        for rid, label, cs in sm.model.groups:
            if rid == "R-DOMAIN":
                s.add(*cs)  # variable domains: never part of an explanation
                continue
            if rid == "R-DECK":
                lit = self.deck.setdefault(Card[label.upper()], z3.Bool(f"rule:R-DECK:{label}"))
            else:
                lit = self.rules.setdefault(rid, z3.Bool(f"rule:{rid}"))
            s.add(z3.Implies(lit, z3.And(*cs)))
        # Each round alone within the deck: implied by R-DECK, added so that the cross-round
        # limits can be left out at first (they are what makes the full problem slow).
        per_round = self.rules.setdefault("R-DECK", z3.Bool("rule:R-DECK"))
        for row in sm.tabs:
            used = [card_count_terms(t) for t in row]
            for card in Card:
                cap = sm.sheet.rules.copies(card)
                s.add(z3.Implies(per_round, z3.Sum([u[int(card)] for u in used]) <= cap))
        self.cells: list[tuple[Cell, z3.BoolRef]] = []
        for k, (cell, c) in enumerate(sm.cells):
            lit = z3.Bool(f"cell:{k}")
            s.add(z3.Implies(lit, c))
            self.cells.append((cell, lit))
        self.s = s

    def check(self, lits: Sequence[z3.BoolRef], rlimit: int | None = None) -> z3.CheckSatResult:
        return decide(self.s, Budget(self.timeout_ms, rlimit or self.rlimit), lits).as_z3()


def check_sheet(sheet: Sheet, timeout_ms: int = DEFAULT_TIMEOUT_MS, rlimit: int = DEFAULT_RLIMIT) -> Verdict:
    """Possible (with a witness re-scored by :func:`spec.scoring.score_game`), impossible (with
    an explanation from a minimised unsat core), or unknown (with the reason and the budget)."""
    sm = build(sheet)
    tr = _Tracked(sm, timeout_ms, rlimit)
    budget = f"rlimit {rlimit} per solver call, timeout {timeout_ms} ms"
    rules = list(tr.rules.values())
    cells = tr.cells
    # Local checks first: each round's row alone, the pudding row alone. Most wrong sheets
    # fail one of these. Each row is tried in a small model of its own: far cheaper than a
    # row on the tracked whole-sheet model, which runs (for the core) only when one looks wrong.
    rows: dict[str, list[z3.BoolRef]] = {}
    for cell, lit in cells:
        rows.setdefault(cell.row, []).append(lit)
    plausible = _rows_plausible(sheet, timeout_ms, max(1, rlimit // STAGE_SHARE))
    for row, lits in rows.items() if not plausible else ():
        if row != "total" and tr.check(rules + lits, rlimit=max(1, rlimit // 10)) == z3.unsat:
            return _impossible(tr, list(tr.s.unsat_core()))
    # A constructive pre-pass: the rounds one at a time (see :func:`_staged`). It finds a
    # witness for almost every possible sheet in a fraction of the whole model's time.
    staged = _staged_search(sheet, timeout_ms, rlimit)
    if staged is not None:
        _rescore(sheet, staged)
        return Verdict("possible", witness=staged)
    # The whole sheet, untracked: tracking literals slow the search for a witness several-fold.
    # Search times are heavy-tailed: restart with another random seed and a longer budget.
    for attempt, share in enumerate((4, 2, 1)):
        plain = sm.model.solver(timeout_ms=timeout_ms, rlimit=max(1, rlimit // share))
        plain.set("random_seed", attempt)
        plain.add(*[c for _, c in sm.cells])
        r = decide(plain, Budget.kept()).as_z3()  # built with its share of the budget
        if r == z3.sat:
            witness = _witness(sm, plain.model())
            _rescore(sheet, witness)
            return Verdict("possible", witness=witness)
        if r == z3.unsat:
            break
    # Impossible (or too hard untracked): the tracked solver for the core, adding each card's
    # cross-round deck limit only once a witness breaks it.
    active: list[z3.BoolRef] = []
    everything = rules + [lit for _, lit in cells]
    for _ in range(len(Card) + 1):
        r2 = tr.check(everything + active)
        if r2 == z3.unknown:
            return Verdict("unknown", reason=f"{tr.s.reason_unknown()} ({budget})")
        if r2 == z3.unsat:
            return _impossible(tr, list(tr.s.unsat_core()))
        witness = _witness(sm, tr.s.model())
        over = _over_deck(sheet, witness)
        if not over:
            _rescore(sheet, witness)
            return Verdict("possible", witness=witness)
        active += [tr.deck[c] for c in over]
    raise AssertionError("every deck limit was added and the witness still breaks one")


#: The staged pre-pass: (round order, per-round share slack or None for no share cap, seed),
#: tried in turn, each round with ``rlimit // STAGE_SHARE`` resource units (the last round,
#: which must fit exactly in what is left, ``LAST_BOOST`` times that). Many short attempts
#: with varied orders and seeds beat a few long ones: a failed attempt mostly runs out of
#: budget in its last round, and another order or seed often succeeds at once.
STAGE_PLANS: tuple[tuple[str, int | None, int], ...] = tuple(
    (("easiest", "given", "hardest", "easiest")[k % 4], k % 2 if k % 3 else 0, k) for k in range(12)
)
STAGE_SHARE = 60
LAST_BOOST = 4


def _staged_search(sheet: Sheet, timeout_ms: int, rlimit: int) -> Witness | None:
    """A witness from :func:`_staged` under each plan of :data:`STAGE_PLANS`, or None."""
    scores = [sum(row) for row in sheet.rounds]
    by = {
        "given": list(range(len(scores))),
        "hardest": sorted(range(len(scores)), key=lambda r: -scores[r]),
        "easiest": sorted(range(len(scores)), key=lambda r: scores[r]),
    }
    targets = _pudding_targets(sheet)
    for plan, (order, slack, seed) in enumerate(STAGE_PLANS):
        target = targets[plan % len(targets)] if targets else None
        w = _staged(sheet, by[order], slack, seed, timeout_ms, max(1, rlimit // STAGE_SHARE), target)
        if w is not None and _mismatch(sheet, w) is None:
            return w
    return None


def _pudding_targets(sheet: Sheet) -> list[tuple[int, ...]]:
    """Pudding counts at the end of the game that give the sheet's pudding points (from the
    pudding row, or from totals minus rounds): fewest puddings first, then most, then the
    rest. Empty when the sheet does not fix pudding points."""
    rules, n = sheet.rules, len(sheet.players)
    if len(sheet.rounds) != rules.rounds:
        return []
    if sheet.pudding is not None:
        want = tuple(sheet.pudding)
    elif sheet.totals is not None:
        want = tuple(v - sum(rw[i] for rw in sheet.rounds) for i, v in enumerate(sheet.totals))
    else:
        return []
    cap = rules.copies(Card.PUDDING)
    found = sorted((c for c in itertools.product(range(cap + 1), repeat=sheet.seats)
                    if sum(c) <= cap and tuple(pudding_points(c, rules)[:n]) == want), key=sum)
    if len(found) <= 2:
        return found
    return [found[0], found[-1], *found[1:-1]]


def _staged(sheet: Sheet, order: Sequence[int], slack: int | None, seed: int, timeout_ms: int,
            rlimit: int, target: tuple[int, ...] | None = None) -> Witness | None:
    """One round at a time, each within what the earlier rounds left of the deck.

    The rounds of a sheet interact only through the deck and the puddings, so a game can be
    built round by round: each round's row is a small model (one round, its maki ranking, its
    scores), solved against the cards still unused. To leave the later rounds enough, a round
    that is not the last may take at most its fair share of each card kind (what is left over
    the rounds still to come, rounded up, plus ``slack``; None: no cap). The pudding row and
    the totals are constraints of the last round, with the puddings of the earlier rounds as
    constants. Incomplete (None when a round fails), never wrong: the result is re-scored.
    """
    rules = sheet.rules
    seats = sheet.seats
    full = len(sheet.rounds) == rules.rounds
    left = [rules.copies(c) for c in Card]
    kept = [0] * seats
    found: dict[int, tuple[Tableau, ...]] = {}
    for step, r in enumerate(order):
        last = step == len(order) - 1
        caps = list(left)
        if not last and slack is not None:
            caps = [min(x, -(-x // (len(order) - step)) + slack) for x in left]
        m, row = _round_model(sheet, r, caps)
        if target is not None:
            # spread each player's final puddings evenly over the rounds
            done = step + 1
            for i, p in enumerate(target):
                have = kept[i] + row[i][int(Token.PUDDING)]
                m.add("R-PUDDING-CARRY", [have >= p * done // len(order),
                                          have <= -(-p * done // len(order))])
        if last and full and (sheet.pudding is not None or sheet.totals is not None):
            puds = []
            for i in range(seats):
                p = m.int(f"st_puddings_p{i}", 0)
                m.add("R-PUDDING-CARRY", p == kept[i] + row[i][int(Token.PUDDING)])
                puds.append(p)
            pts = pudding_terms(m, "st", puds, rules)
            if sheet.pudding is not None:
                m.add("cell", [pts[i] == v for i, v in enumerate(sheet.pudding)])
            if sheet.totals is not None:
                m.add("cell", [pts[i] + sum(rw[i] for rw in sheet.rounds) == v
                               for i, v in enumerate(sheet.totals)])
        elif last and sheet.totals is not None:
            if any(sum(rw[i] for rw in sheet.rounds) != v for i, v in enumerate(sheet.totals)):
                return None
        s = m.solver(timeout_ms=timeout_ms, rlimit=rlimit * (LAST_BOOST if last else 1))
        s.set("random_seed", seed)
        if not decide(s, Budget.kept()).sat:  # built with timeout_ms and boost
            return None
        mdl = s.model()
        tabs = tuple(Tableau(tuple(mdl.eval(v, model_completion=True).as_long() for v in t)) for t in row)
        found[r] = tabs
        for i, tab in enumerate(tabs):
            kept[i] += tab.counts[int(Token.PUDDING)]
            for kind, n in enumerate(tab.card_counts()):
                left[kind] -= n
    return Witness(tuple(found[r] for r in range(len(sheet.rounds))), tuple(kept))


def _round_model(sheet: Sheet, r: int, caps: Sequence[int]) -> tuple[Model, list[list[z3.ArithRef]]]:
    """Round ``r`` of the sheet alone: its tableaux (at most ``caps[card]`` cards of each kind
    together), its maki ranking and its row of scores."""
    rules = sheet.rules
    m = Model()
    row = [tableau_vars(m, f"st_tab_p{i}", rules) for i in range(sheet.seats)]
    for t in row:
        m.add("R-HAND-SIZE", size_term(t) == sheet.hand_size)
    terms = round_terms(m, "st", row, rules)
    used = [card_count_terms(t) for t in row]
    for c in Card:
        m.add("R-DECK", z3.Sum([u[int(c)] for u in used]) <= caps[int(c)])
    for i, v in enumerate(sheet.rounds[r]):
        m.add("cell", terms[i]["total"] == v)
    return m, row


def _rows_plausible(sheet: Sheet, timeout_ms: int, rlimit: int) -> bool:
    """Each round's row alone has a table (a small untracked model each) and the pudding row
    comes from some pudding counts. False (or out of budget) only sends the check to the
    tracked row checks, which name the cells of an impossible row."""
    rules = sheet.rules
    deck = [rules.copies(c) for c in Card]
    for r in range(len(sheet.rounds)):
        m, _ = _round_model(sheet, r, deck)
        if not decide(m.solver(timeout_ms=timeout_ms, rlimit=rlimit), Budget.kept()).sat:
            return False
    if sheet.pudding is not None:
        n = len(sheet.players)
        return tuple(sheet.pudding) in {p[:n] for p in pudding_rows(rules, sheet.seats)}
    return True


def _over_deck(sheet: Sheet, w: Witness) -> list[Card]:
    used = [0] * len(Card)
    for row in w.rounds:
        for t in row:
            for c, n in enumerate(t.card_counts()):
                used[c] += n
    return [c for c in Card if used[int(c)] > sheet.rules.copies(c)]


def _impossible(tr: _Tracked, core: list[z3.BoolRef]) -> Verdict:
    core, minimal = _minimise(tr, core)
    by_name = {str(lit): cell for cell, lit in tr.cells}
    cells = tuple(by_name[str(b)] for b in core if str(b) in by_name)
    names = {str(b) for b in core}
    rids = [rid for rid, lit in tr.rules.items() if str(lit) in names]
    if any(str(lit) in names for lit in tr.deck.values()) and "R-DECK" not in rids:
        rids.append("R-DECK")
    sheet = tr.sm.sheet
    words = explain(sheet, cells, rids)
    if not minimal:
        words.append("(the solver could not finish shrinking this explanation: it may name more than needed)")
    return Verdict("impossible", cells=cells, rule_ids=tuple(rids), explanation=tuple(words))


def _minimise(tr: _Tracked, core: list[z3.BoolRef]) -> tuple[list[z3.BoolRef], bool]:
    """Deletion: drop each literal whose removal keeps the rest unsat. (core, proved minimal)"""
    kept = list(core)
    minimal = True
    for lit in list(core):
        if not any(b.eq(lit) for b in kept):
            continue
        trial = [b for b in kept if not b.eq(lit)]
        r = tr.check(trial, rlimit=max(1, tr.rlimit // 6))
        if r == z3.unknown:
            minimal = False
        elif r == z3.unsat:
            # z3's own core of the smaller set may be smaller still
            smaller = {str(b) for b in tr.s.unsat_core()}
            kept = [b for b in trial if str(b) in smaller]
    return kept, minimal


def _witness(sm: SheetModel, mdl: z3.ModelRef) -> Witness:
    rounds = tuple(
        tuple(Tableau(tuple(mdl.eval(v, model_completion=True).as_long() for v in t)) for t in row)
        for row in sm.tabs
    )
    puds = tuple(mdl.eval(p, model_completion=True).as_long() for p in sm.puddings)
    return Witness(rounds, puds)


def _rescore(sheet: Sheet, w: Witness) -> None:
    """The witness must give back the sheet through the executor's scoring, or this is a bug."""
    problem = _mismatch(sheet, w)
    if problem:
        raise AssertionError(problem)


def _mismatch(sheet: Sheet, w: Witness) -> str | None:
    """What the witness, re-scored by :func:`spec.scoring.score_game`, gets wrong (None: nothing)."""
    game = score_game(w.rounds, sheet.rules, players=len(sheet.players))
    n = len(sheet.players)
    for r, row in enumerate(sheet.rounds):
        got = [s.total for s in game.rounds[r][:n]]
        if list(row) != got:
            return f"witness re-scores round {r + 1} to {got}, sheet says {list(row)}"
    if sheet.pudding is not None and (game.pudding is None or list(game.pudding[:n]) != list(sheet.pudding)):
        return f"witness pudding {game.pudding} differs from the sheet {sheet.pudding}"
    if sheet.totals is not None and list(game.totals[:n]) != list(sheet.totals):
        return f"witness totals {game.totals} differ from the sheet {sheet.totals}"
    for t in (t for row in w.rounds for t in row):
        if t.size != sheet.hand_size:
            return f"witness tableau {t} holds {t.size} cards, not {sheet.hand_size}"
    if _over_deck(sheet, w):
        return f"witness uses more {', '.join(c.label for c in _over_deck(sheet, w))} than the deck holds"
    return None


# --- explanations ----------------------------------------------------------------------


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
        raise SolverUnknown("no round maximum found", f"timeout {DEFAULT_TIMEOUT_MS} ms")
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
        out.append(f"{rid}: {RULE_WORDS.get(rid) or _catalogue_words(rid)}")
    return out
