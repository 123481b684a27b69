"""Where two rulesets disagree: the smallest witness, or a proof that none exists within a bound.

Three kinds of situation, one per way a contested reading can act:

* **table** (scoring readings: maki ties, pudding rounding, everyone tied on
  pudding, the 2-player penalty, winner ties, and the dummy of ``dummy-2p``
  taking part in the rankings). A table is one tableau per seat. It is scored
  as a round, and, taking it as all the cards of the game (the other rounds
  left empty), to the end of the game: pudding points, game totals, winners.
  Both rulesets are built with :mod:`spec.model.scoring` over the *same*
  symbolic tableaux and Z3 is asked for a table where any round total, maki
  points, pudding points, game total or the set of winners differs.
  ``cards`` counts every card on the table (a wasabi stack is two), within the
  deck, each seat holding at most a hand's worth. For each player count (2..5)
  the least card count is found by asking for ``cards <= c`` with c rising;
  the unsat answer for ``c - 1`` is the proof that no smaller table exists,
  and unsat at ``players * hand size`` is the proof that the rulesets agree at
  that player count. The witness is then extended by the solver to a full
  legal game (every tableau of every round holds exactly a hand's worth of
  cards, all rounds within one deck) that still differs.
* **picks** (``wasabi_placement``, ``wasabi_same_turn``): the readings change
  what a turn does, so the situation is one seat's sequence of turns (each one
  card, or two with chopsticks). The turns are taken from hands holding the
  cards picked (a real round holds more; the other cards do not matter). Two
  rulesets differ on a sequence when the sets of tableaux the seat can reach
  with it (every allowed wasabi choice; none when a turn is illegal) score
  differently. ``cards`` counts the cards picked; minimality is proved by
  enumerating every shorter sequence of the 12 card kinds. The smallest table
  has 2 players.
* **deal** (``passing``): a deal of one round where every hand holds ``k``
  cards and every seat makes the same first picks under both rulesets; the
  forced rest of the round lands differently. Passing directions that agree
  modulo the number of seats (left and right at 2 players) are the same play,
  which is the proof of agreement there; a hand of one card is never passed,
  so ``k = 2`` (``cards = players * 2``) is the least.

Rule ids: the contested parameter(s) that alone change the witness (checked by
re-scoring it with only that parameter changed) plus the scoring rules of the
cells that differ.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, assert_never

import z3
from sushigo.solver.deal_numbers import DEAL_NUMBERS, deal_number_witness
from sushigo.spec.cards import NIGIRI, Card, Token
from sushigo.spec.errors import InputError, SushiGoError
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
from sushigo.spec.record import record_document, record_from_tableaux
from sushigo.spec.ruleset import (
    NUMBER_BY_NAME,
    NUMBERS,
    OFFICIAL,
    PARAMETER_BY_NAME,
    PARAMETERS,
    RULESETS,
    Effect,
    Ruleset,
    format_number,
    format_value,
)
from sushigo.spec.scoring import pudding_points, score_game, score_round, winners
from sushigo.spec.tableau import Tableau, format_tableau
from sushigo.spec.turns import Pick, Turn, apply_turn, hand_counts

# Which search finds a witness for a reading follows from its effect (spec.ruleset.PARAMETERS).
SCORING_PARAMS: tuple[str, ...] = tuple(p.name for p in PARAMETERS if p.effect is Effect.SCORING)
PICK_PARAMS: tuple[str, ...] = tuple(p.name for p in PARAMETERS if p.effect is Effect.PICK)
DEAL_PARAMS: tuple[str, ...] = tuple(p.name for p in PARAMETERS if p.effect is Effect.DEAL)
# The rule numbers (spec.ruleset.NUMBERS): a scoring number is searched with the scoring readings
# (a table is its witness); a deal number's witness is read off the numbers (solver.deal_numbers).
SCORING_NUMBERS: tuple[str, ...] = tuple(n.name for n in NUMBERS if n.effect is Effect.SCORING)

#: Scoring rule ids behind each kind of cell of a witness table.
CELL_RULES: dict[str, tuple[str, ...]] = {
    "round": ("R-ROUND-TOTAL",),
    "maki": ("R-MAKI-POINTS",),
    "pudding": ("R-PUDDING-MOST", "R-PUDDING-FEWEST"),
    "total": ("R-GAME-TOTAL",),
    "winners": ("R-WINNER", "R-WINNER-TIE"),
    "tableau": ("R-WASABI-PLACE", "R-WASABI-ONE"),
    "score": ("R-NIGIRI",),
}

DEFAULT_TIMEOUT_MS = 30_000
_PICK_CARD_BOUND = 4  # picks: sequences are enumerated up to this many cards
_PUD = int(Token.PUDDING)


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Row:
    """One line of a side-by-side witness table."""

    label: str
    a: str
    b: str
    compare: bool = True  # False for the dummy's own lines: it is not a player

    @property
    def differs(self) -> bool:
        return self.compare and self.a != self.b


@dataclass(frozen=True)
class Proof:
    """What the solver (or the enumeration) showed for one player count."""

    players: int
    max_cards: int  # no witness with at most this many cards (-1: none looked at)
    answer: str  # "unsat" | "unknown" | "not-applicable"
    method: str  # "z3" | "exhaustive" | "structural"
    note: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"players": self.players, "max_cards": self.max_cards, "answer": self.answer,
                "method": self.method, "note": self.note}

    def __str__(self) -> str:
        if self.answer == "not-applicable":
            return f"{self.players} players: {self.note}"
        what = "no witness" if self.answer == "unsat" else "unknown for witnesses"
        plural = "card" if self.max_cards == 1 else "cards"
        size = f"with at most {self.max_cards} {plural}" if self.max_cards >= 0 else "of any size"
        tail = f" ({self.note})" if self.note else ""
        return f"{self.players} players: {what} {size} [{self.method}: {self.answer}]{tail}"


@dataclass(frozen=True)
class Witness:
    kind: str  # "table" | "picks" | "deal"
    players: int
    cards: int
    causes: tuple[str, ...]  # contested parameters that alone change the result
    rule_ids: tuple[str, ...]
    situation: dict[str, Any]  # JSON-able statement of the situation
    rows: tuple[Row, ...]
    minimality: tuple[Proof, ...]
    extension: dict[str, Any] | None = None  # the same difference in a full legal round or game
    summary: str = ""

    @property
    def size(self) -> tuple[int, int]:
        return (self.players, self.cards)

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "players": self.players,
            "cards": self.cards,
            "summary": self.summary,
            "causes": list(self.causes),
            "rule_ids": list(self.rule_ids),
            "situation": self.situation,
            "rows": [{"label": r.label, "a": r.a, "b": r.b, "differs": r.differs} for r in self.rows],
            "minimality": [p.as_json() for p in self.minimality],
            "extension": self.extension,
        }


@dataclass(frozen=True)
class DiffResult:
    a: Ruleset
    b: Ruleset
    status: str  # "differ" | "equivalent" | "unknown" | "not-applicable"
    witness: Witness | None
    witnesses: tuple[Witness, ...] = ()  # one per cause (--all)
    proofs: tuple[Proof, ...] = ()  # the proof of agreement (equivalent) or what was looked at
    reason: str = ""
    seconds: float = 0.0
    # --all: differing parameters that change nothing within the bound, with the proofs
    no_effect: tuple[tuple[str, tuple[Proof, ...]], ...] = ()
    # the parameters some search covered: "equivalent" holds only when every differing one is here
    covered: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "format": "sushigo-diff/1",
            "a": {"name": self.a.name, "readings": _readings_json(self.a)},
            "b": {"name": self.b.name, "readings": _readings_json(self.b)},
            "differing_parameters": [
                {"name": p, "rule_id": _rule_ids_of(p)[0], "a": _value_json(self.a, p),
                 "b": _value_json(self.b, p)}
                for p in differing_parameters(self.a, self.b)
            ],
            "status": self.status,
            "witness": self.witness.as_json() if self.witness else None,
            "witnesses": [w.as_json() for w in self.witnesses],
            "proofs": [p.as_json() for p in self.proofs],
            "no_effect": [{"parameter": name, "proofs": [p.as_json() for p in prs]}
                          for name, prs in self.no_effect],
            "reason": self.reason,
            "covered_parameters": list(self.covered),
        }


def _readings_json(rules: Ruleset) -> dict[str, Any]:
    return dict(rules.readings())


def differing_parameters(a: Ruleset, b: Ruleset) -> list[str]:
    """The readings, then the rule numbers, that differ between ``a`` and ``b``."""
    return [p.name for p in (*PARAMETERS, *NUMBERS) if getattr(a, p.name) != getattr(b, p.name)]


def _rule_ids_of(name: str) -> tuple[str, ...]:
    """A reading's or a rule number's rule ids (its own first)."""
    param = PARAMETER_BY_NAME.get(name)
    return param.rule_ids if param is not None else NUMBER_BY_NAME[name].rule_ids


def _value_json(rules: Ruleset, name: str) -> Any:
    """A parameter's value as JSON: a reading's value, or a rule number as ``--rule`` writes it."""
    number = NUMBER_BY_NAME.get(name)
    return getattr(rules, name) if number is None else format_number(number, getattr(rules, name))


def _with(rules: Ruleset, name: str, value: Any) -> Ruleset:
    return rules.replace(**{name: value})


# --------------------------------------------------------------------------- scoring a table


def applies(rules: Ruleset, players: int) -> bool:
    """Whether the ruleset can be played by ``players`` players (the dummy variant is 2-player only)."""
    if rules.dummy_2p:
        return players == rules.min_players
    return any(n == players for n, _ in rules.hand_sizes)


@dataclass(frozen=True)
class TableScore:
    """A table scored under one ruleset (only the seats that ruleset has)."""

    rounds: tuple[int, ...]
    maki: tuple[int, ...]
    pudding: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]


def score_table(tableaux: Sequence[Tableau], rules: Ruleset, players: int) -> TableScore:
    """Score a table with :mod:`spec.scoring` (independent of the Z3 model)."""
    seats = rules.seats(players)
    tabs = list(tableaux[:seats])
    rs = score_round(tabs, rules)
    puds = [t.counts[_PUD] for t in tabs]
    pp = pudding_points(puds, rules)
    totals = [r.total + p for r, p in zip(rs, pp, strict=True)]
    return TableScore(
        tuple(r.total for r in rs), tuple(r.maki for r in rs), tuple(pp), tuple(totals),
        tuple(winners(totals, puds, rules, players)),
    )


def tables_differ(x: TableScore, y: TableScore, players: int) -> bool:
    """Any player's round total, maki, pudding or game total, or the winners, differ.

    Only players are compared: the dummy of ``dummy-2p`` is not a player.
    """
    for field_ in ("rounds", "maki", "pudding", "totals"):
        if getattr(x, field_)[:players] != getattr(y, field_)[:players]:
            return True
    return x.winners != y.winners


# --------------------------------------------------------------------------- the Z3 table query


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
        r = decide(s, budget).status
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
    return rules.replace(name="", **{p: getattr(OFFICIAL, p) for p in (*PICK_PARAMS, *DEAL_PARAMS)})


@lru_cache(maxsize=1024)
def _smallest_table_cached(
    rulesets: tuple[Ruleset, ...], pairs: tuple[tuple[int, int], ...], prange: tuple[int, ...],
    timeout_ms: int, rlimit: int | None,
) -> _TableSearch:
    """Tables score the same whatever the play readings: rulesets that differ only there share a search."""
    return smallest_table(rulesets, pairs, prange, timeout_ms, rlimit)


def extend_to_game(
    tableaux: Sequence[Tableau], rulesets: Sequence[Ruleset], pairs: Sequence[tuple[int, int]],
    players: int, timeout_ms: int = DEFAULT_TIMEOUT_MS, rlimit: int | None = None,
) -> dict[str, Any]:
    """A full legal game (exact hand sizes, one deck) whose first round contains the witness table and
    where the rulesets still differ. Verified with :func:`spec.scoring.score_game`."""
    base = rulesets[0]
    q = _build_table_query(rulesets, pairs, players, rounds=base.rounds, full=True)
    s = q.model.solver(timeout_ms=timeout_ms, rlimit=rlimit)
    assert isinstance(s, z3.Solver)
    for i, t in enumerate(tableaux):
        for tok in Token:
            s.add(q.model.vars[f"t0_s{i}_{_TOKEN_VAR[tok]}"] >= t.counts[int(tok)])
    r = decide(s, Budget.kept()).status  # built with timeout_ms and rlimit
    if r != "sat":
        return {"status": "unknown" if r == "unknown" else "impossible",
                "reason": s.reason_unknown() if r == "unknown" else
                "no full game keeps the difference with this table in round 1"}
    model = s.model()
    seats = q.seats
    game = [
        _tableaux_from(model, [[model.eval(q.model.vars[f"t{k}_s{i}_{n}"], model_completion=True)
                                for n in _TOKEN_VAR.values()] for i in range(seats)])
        for k in range(base.rounds)
    ]
    scored = []
    for rules in rulesets[:2]:
        n = rules.seats(players)
        g = score_game([rd[:n] for rd in game], rules, players)
        scored.append({"rules": rules.name, "totals": list(g.totals), "winners": list(g.winners),
                       "rounds": [[s_.total for s_ in rd] for rd in g.rounds],
                       "pudding": list(g.pudding) if g.pudding is not None else None})
    out: dict[str, Any] = {"status": "found", "rounds": [[format_tableau(t) for t in rd] for rd in game],
                           "scores": scored}
    sizes = {r.hand_size(players) for r in rulesets[:2]}
    if len(sizes) > 1:
        legal = [r.name for r in rulesets[:2] if r.hand_size(players) == min(sizes)]
        out["note"] = (f"hands of {min(sizes)} cards: a full round under {', '.join(legal)} only "
                       "(the rulesets deal different hand sizes)")
    # the same game as a record ('sushigo diff A B --game' or the executor replays it), dealt
    # by a ruleset whose hand sizes it fits
    dealer = next((r for r in rulesets[:2] if r.hand_size(players) == min(sizes)), base)
    out["record"] = record_from_tableaux([rd[:dealer.seats(players)] for rd in game], dealer, players)
    return out


_TOKEN_VAR: dict[Token, str] = {t: t.label.replace("+", "_") for t in Token}


# --------------------------------------------------------------------------- turn sequences (wasabi)


def _pick_variants(card: Card) -> list[Pick]:
    if card in NIGIRI:
        return [Pick(card, None), Pick(card, True), Pick(card, False)]
    return [Pick(card)]


def reachable(turns: Sequence[Sequence[Card]], rules: Ruleset) -> frozenset[Tableau]:
    """Final tableaux one seat can reach with these turns, by every allowed wasabi choice.

    Each turn is taken from a hand holding exactly its cards; chopsticks used
    go back into that hand (and leave the seat).
    """
    states: set[tuple[int, ...]] = {(0,) * len(Token)}
    for cards in turns:
        hand = hand_counts(cards)
        nxt: set[tuple[int, ...]] = set()
        for tab in states:
            for choice in itertools.product(*[_pick_variants(c) for c in cards]):
                turn: Turn = tuple(choice)
                new, h = list(tab), list(hand)
                try:
                    apply_turn(h, new, turn, rules)
                except ValueError:
                    continue
                nxt.add(tuple(new))
        states = nxt
    return frozenset(Tableau(s) for s in states)


def _seat_scores(tabs: frozenset[Tableau], rules: Ruleset) -> tuple[int, ...]:
    return tuple(sorted({score_round([t], rules)[0].total for t in tabs}))


def _turn_sequences(cards: int) -> Iterable[tuple[tuple[Card, ...], ...]]:
    """Every sequence of turns (one card, or two after a chopsticks turn) picking ``cards`` cards."""
    for shape in _compositions(cards):
        if shape[0] == 2:
            continue  # a first turn cannot use chopsticks (R-CHOPSTICKS-EARLIER): same under every ruleset
        pools = [itertools.product(Card, repeat=n) for n in shape]
        yield from itertools.product(*pools)


def _compositions(n: int) -> list[tuple[int, ...]]:
    if n == 0:
        return [()]
    out: list[tuple[int, ...]] = []
    for first in (1, 2):
        if first <= n:
            out.extend((first, *rest) for rest in _compositions(n - first))
    return out


def _within_deck(seq: Sequence[Sequence[Card]], rules: Ruleset) -> bool:
    counts = hand_counts([c for turn in seq for c in turn])
    return all(counts[int(c)] <= rules.copies(c) for c in Card)


def smallest_picks(
    rulesets: Sequence[Ruleset], pairs: Sequence[tuple[int, int]], max_cards: int = _PICK_CARD_BOUND,
    players: int | None = None,
) -> tuple[tuple[tuple[Card, ...], ...] | None, int, tuple[Proof, ...]]:
    """Fewest cards picked by one seat for which every listed pair of rulesets differ.

    A seat's turns are the same at any table size: ``players`` only labels the proofs.
    """
    if players is None:
        players = min(r.min_players for r in rulesets)
    for n in range(1, max_cards + 1):
        for seq in _turn_sequences(n):
            if not _within_deck(seq, rulesets[0]):
                continue
            outs = [_seat_scores(reachable(seq, r), r) for r in rulesets]
            if all(outs[a] != outs[b] for a, b in pairs):
                proofs = (Proof(players, n - 1, "unsat", "exhaustive",
                                "every sequence of turns picking fewer cards"),) if n > 1 else ()
                return seq, n, proofs
    return None, -1, (Proof(players, max_cards, "unsat", "exhaustive",
                            "every sequence of turns picking at most this many cards"),)


# --------------------------------------------------------------------------- deals (passing)


def passing_agrees(a: Ruleset, b: Ruleset, seats: int) -> bool:
    """Same receiving seat every round: then the rulesets play every deal identically."""
    return all((a.pass_offset(k) - b.pass_offset(k)) % seats == 0 for k in range(max(a.rounds, b.rounds)))


def _play_round(hands: Sequence[Sequence[Card]], first: Sequence[Card], offset: int) -> list[Tableau]:
    """Hands of two cards: every seat takes ``first[i]``, passes, and takes the card passed in."""
    seats = len(hands)
    left = []
    for h, f in zip(hands, first, strict=True):
        rest = list(h)
        rest.remove(f)
        left.append(rest[0])
    tabs = []
    for i in range(seats):
        got = left[(i - offset) % seats]
        tabs.append(Tableau.of([Token(int(first[i])), Token(int(got))]))
    return tabs


_DEAL_ALPHABET: tuple[Card, ...] = (Card.TEMPURA, Card.EGG, Card.SALMON, Card.SQUID, Card.SASHIMI)


def smallest_deal(
    a: Ruleset, b: Ruleset, players_range: Iterable[int]
) -> tuple[dict[str, Any] | None, tuple[Proof, ...]]:
    """A deal of two-card hands where the same first picks end in different round scores."""
    proofs: list[Proof] = []
    for players in players_range:
        if not (applies(a, players) and applies(b, players)):
            proofs.append(Proof(players, -1, "not-applicable", "structural",
                                "not played under both rulesets (the dummy variant is 2-player only)"))
            continue
        seats = players
        if passing_agrees(a, b, seats):
            proofs.append(Proof(players, -1, "unsat", "structural",
                                "every round passes to the same seat under both rulesets"))
            continue
        rnd = next(k for k in range(a.rounds) if (a.pass_offset(k) - b.pass_offset(k)) % seats)
        # One-card hands are never passed, so two cards per hand is the least that can differ.
        for hands in itertools.product(itertools.combinations_with_replacement(_DEAL_ALPHABET, 2),
                                       repeat=seats):
            first = [h[0] for h in hands]
            ta = _play_round(hands, first, a.pass_offset(rnd))
            tb = _play_round(hands, first, b.pass_offset(rnd))
            sa = [s.total for s in score_round(ta, a)]
            sb = [s.total for s in score_round(tb, b)]
            if sa != sb:
                proofs.append(Proof(players, players, "unsat", "structural",
                                    "a hand of one card is never passed"))
                return {
                    "players": players, "round": rnd + 1,
                    "hands": [[c.label for c in h] for h in hands],
                    "first_picks": [c.label for c in first],
                    "tableaux_a": [format_tableau(t) for t in ta],
                    "tableaux_b": [format_tableau(t) for t in tb],
                    "scores_a": sa, "scores_b": sb,
                    "offset_a": a.pass_offset(rnd), "offset_b": b.pass_offset(rnd),
                }, tuple(proofs)
    return None, tuple(proofs)


# --------------------------------------------------------------------------- putting it together


def _causes_table(tabs: Sequence[Tableau], a: Ruleset, b: Ruleset, players: int) -> tuple[str, ...]:
    sa = score_table(tabs, a, players)
    out = []
    for p in differing_parameters(a, b):
        if p not in SCORING_PARAMS and p not in SCORING_NUMBERS:
            continue
        alone = score_table(tabs, _with(a, p, getattr(b, p)), players)
        if p == "dummy_2p" or tables_differ(sa, alone, players):
            out.append(p)
    return tuple(out)


def _rule_ids(causes: Sequence[str], cells: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for p in causes:
        # the reading's own rule, then the ranking rule it qualifies (its related ids)
        for rid in _rule_ids_of(p):
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
        if p in PICK_PARAMS and _seat_scores(reachable(seq, _with(a, p, getattr(b, p))), a) != ska
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


ProgressFn = Callable[[str], None]


def diff(
    a: Ruleset, b: Ruleset, *, all_causes: bool = False, players: Sequence[int] | None = None,
    timeout_ms: int = DEFAULT_TIMEOUT_MS, extend: bool = True, rlimit: int | None = None,
) -> DiffResult:
    """Smallest witness where ``a`` and ``b`` give different results, or the proof that none exists."""
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
        for kind in ((*SCORING_PARAMS, *SCORING_NUMBERS), PICK_PARAMS, DEAL_PARAMS):
            g = tuple(p for p in params if p in kind)
            if g:
                groups.append(g)
        groups += [(p,) for p in params if p in DEAL_NUMBERS]  # each read off its own numbers
    if not params:
        # identical readings: ask the solver anyway, so agreement is a proof, not an assumption
        groups = [SCORING_PARAMS]
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
    effect = PARAMETER_BY_NAME[kind].effect if kind in PARAMETER_BY_NAME else NUMBER_BY_NAME[kind].effect
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


# --------------------------------------------------------------------------- the matrix


@dataclass(frozen=True)
class MatrixCell:
    a: str
    b: str
    status: str
    players: int | None
    cards: int | None
    kind: str | None
    result: DiffResult | None = field(default=None, compare=False, repr=False)

    def as_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "status": self.status, "players": self.players,
                "cards": self.cards, "kind": self.kind}

    def short(self) -> str:
        if self.status == "differ":
            return f"{self.players}p/{self.cards}c"
        return {"equivalent": "=", "unknown": "?"}.get(self.status, self.status)


def _key(rules: Ruleset) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(rules.readings().items()))


@lru_cache(maxsize=512)
def _cached_diff(
    ka: tuple[tuple[str, Any], ...], kb: tuple[tuple[str, Any], ...], timeout_ms: int, rlimit: int | None
) -> DiffResult:
    a = RULESETS["official"].replace(name="a", **dict(ka))
    b = RULESETS["official"].replace(name="b", **dict(kb))
    return diff(a, b, timeout_ms=timeout_ms, extend=False, rlimit=rlimit)


def matrix(
    names: Sequence[str] | None = None, timeout_ms: int = DEFAULT_TIMEOUT_MS,
    progress: ProgressFn | None = None, rlimit: int | None = None,
) -> list[MatrixCell]:
    """Every pair of named rulesets: differ or not, and the size of the smallest witness.

    Pairs with the same readings share one search (whatever their names), and table searches
    are shared by rulesets with the same scoring readings.
    """
    names = list(names) if names is not None else list(RULESETS)
    pairs = list(itertools.combinations(names, 2))
    out = []
    for k, (x, y) in enumerate(pairs):
        ra, rb = RULESETS[x], RULESETS[y]
        ka, kb = _key(ra), _key(rb)
        if kb < ka:
            ka, kb = kb, ka
        res = _cached_diff(ka, kb, timeout_ms, rlimit)
        w = res.witness
        out.append(MatrixCell(x, y, res.status, w.players if w else None, w.cards if w else None,
                              w.kind if w else None, res))
        if progress is not None:
            progress(f"[{k + 1}/{len(pairs)}] {x} vs {y}: {out[-1].short()}")
    return out


# --------------------------------------------------------------------------- misc


def describe_parameters(a: Ruleset, b: Ruleset) -> list[tuple[str, str, str, str]]:
    """(parameter, rule id, value in a, value in b) for every differing parameter."""
    def text(rules: Ruleset, p: str) -> str:
        return str(_value_json(rules, p)) if p in NUMBER_BY_NAME else format_value(getattr(rules, p))

    return [(p, _rule_ids_of(p)[0], text(a, p), text(b, p)) for p in differing_parameters(a, b)]


__all__ = [
    "CELL_RULES", "DiffResult", "MatrixCell", "Proof", "Row", "Witness", "describe_parameters", "diff",
    "differing_parameters", "extend_to_game", "matrix", "passing_agrees", "reachable", "score_table",
    "smallest_deal", "smallest_picks", "smallest_table", "tables_differ",
]


# --------------------------------------------------------------------------- a recorded game


@dataclass(frozen=True)
class GameSide:
    """A recorded game under one ruleset: re-executed if the picks are legal, else why not."""

    rules: Ruleset
    legal: bool
    method: str  # "replay" (picks re-executed) | "rescore" (recorded tableaux re-scored)
    error: str = ""
    rule_id: str = ""
    rounds: tuple[tuple[int, ...], ...] = ()
    pudding: tuple[int, ...] | None = None
    totals: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.name, "legal": self.legal, "method": self.method,
            "error": self.error or None, "rule_id": self.rule_id or None,
            "rounds": [list(r) for r in self.rounds],
            "pudding": list(self.pudding) if self.pudding is not None else None,
            "totals": list(self.totals), "winners": list(self.winners),
        }


@dataclass(frozen=True)
class GameDiff:
    players: int
    a: GameSide
    b: GameSide

    @property
    def comparable(self) -> bool:
        return self.a.legal and self.b.legal

    @property
    def scores_change(self) -> bool:
        return self.comparable and (self.a.rounds != self.b.rounds or self.a.totals != self.b.totals
                                    or self.a.pudding != self.b.pudding)

    @property
    def winner_changes(self) -> bool:
        return self.comparable and self.a.winners != self.b.winners

    def as_json(self) -> dict[str, Any]:
        return {
            "format": "sushigo-diff-game/1",
            "players": self.players,
            "a": self.a.as_json(),
            "b": self.b.as_json(),
            "comparable": self.comparable,
            "scores_change": self.scores_change,
            "winner_changes": self.winner_changes,
        }


def _turn_level(rules: Ruleset) -> tuple[Any, ...]:
    return tuple(getattr(rules, p) for p in (*PICK_PARAMS, *DEAL_PARAMS, "dummy_2p"))


def _side_from_score(rules: Ruleset, method: str, score: Any) -> GameSide:
    return GameSide(
        rules, True, method, rounds=tuple(tuple(s.total for s in r) for r in score.rounds),
        pudding=tuple(score.pudding) if score.pudding is not None else None,
        totals=tuple(score.totals), winners=tuple(score.winners),
    )


def game_side(data: dict[str, Any], rules: Ruleset) -> GameSide:
    """Re-execute a recorded game's picks under ``rules`` (spec.executor.replay).

    Without the executor, a game whose play-affecting readings equal the
    record's own is re-scored from its recorded tableaux instead.
    """
    from sushigo.spec.record import record_from_json

    record = record_from_json(data)
    try:
        from sushigo.spec import executor
    except ImportError:
        executor = None  # type: ignore[assignment]
    if executor is not None:
        try:
            res = executor.replay(record, rules)
        except SushiGoError as exc:
            return GameSide(rules, False, "replay", str(exc))
        # A replay under other rules reports the recorded scores as mismatches; the picks
        # were legal whenever the game could be re-executed (a score is there).
        if res.score is None:
            error, rule_id = _first_illegal_step(executor, data, rules)
            return GameSide(rules, False, "replay", error or res.error or "illegal",
                            rule_id or res.rule_id or "")
        return _side_from_score(rules, "replay", res.score)
    if _turn_level(rules) != _turn_level(record.rules):
        return GameSide(rules, False, "rescore",
                        "the executor (spec/executor.py) is needed to re-play the picks under these rules")
    players = record.players
    score = score_game([list(r.tableaux) for r in record.rounds], rules, players)
    return _side_from_score(rules, "rescore", score)


def _first_illegal_step(executor: Any, data: dict[str, Any], rules: Ruleset) -> tuple[str, str]:
    """The first illegal step of a record under ``rules``, not a mismatch of its recorded scores.

    The replay names the first problem, and a recorded score that differs under
    other rules comes before a later illegal pick. So replay growing prefixes of
    the rounds, each time with the earlier rounds' results as re-executed.
    """
    rounds = list(data.get("rounds") or [])
    done: list[dict[str, Any]] = []
    for k in range(len(rounds)):
        prefix = dict(data)
        prefix["rounds"] = [*done, rounds[k]]
        res = executor.replay(prefix, rules)
        if res.score is None:
            return (res.error or "", res.rule_id or "")
        got = res.record.rounds[k]
        done.append({**rounds[k], "tableaux": [format_tableau(t) for t in got.tableaux],
                     "scores": list(got.scores)})
    return ("", "")


def diff_game(data: dict[str, Any], a: Ruleset, b: Ruleset) -> GameDiff:
    """Does it matter for us? The recorded game under both rulesets."""
    from sushigo.spec.record import record_from_json

    record = record_from_json(data)
    if not applies(record.rules, record.players):
        raise InputError(f"the record's {record.players} players cannot play its own rules "
                         f"{record.rules.name!r}; check \"players\" and \"rules\"")
    return GameDiff(record.players, game_side(data, a), game_side(data, b))


# --------------------------------------------------------------------------- turns in a full round


def _run_script(script: Sequence[Turn], rules: Ruleset) -> tuple[int, ...] | None:
    """The seat's tableau after the script (explicit picks), or None if a turn is illegal."""
    tab = [0] * len(Token)
    for turn in script:
        hand = hand_counts([p.card for p in turn])
        try:
            apply_turn(hand, tab, turn, rules)
        except ValueError:
            return None
    return tuple(tab)


def distinguishing_script(seq: Sequence[Sequence[Card]], a: Ruleset, b: Ruleset) -> list[Turn] | None:
    """Explicit picks (wasabi choices spelled out) for the turns that land differently under a and b.

    Preferred: legal under both and scoring differently; else legal under one only.
    """
    one_sided: list[Turn] | None = None
    for choice in itertools.product(*[itertools.product(*[_pick_variants(c) for c in t]) for t in seq]):
        script = [tuple(t) for t in choice]
        ta, tb = _run_script(script, a), _run_script(script, b)
        if ta is None and tb is None:
            continue
        if ta is not None and tb is not None:
            sa = score_round([Tableau(ta)], a)[0].total
            sb = score_round([Tableau(tb)], b)[0].total
            if sa != sb:
                return script
        elif one_sided is None:
            one_sided = script
    return one_sided


def seat_round_record(script: Sequence[Turn], rules: Ruleset, players: int = 2) -> dict[str, Any]:
    """A one-round record where seat 0 plays ``script`` first and everything else is filler.

    Seat 0 holds the hand dealt to seat ``-offset * t`` at turn ``t``; the script's cards of
    turn t are dealt into that hand, every other card is a filler (tempura, then sashimi,
    then dumpling) that every seat takes first, so the script's cards wait for seat 0.
    """
    size = rules.hand_size(players)
    d = rules.pass_offset(0)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for t, turn in enumerate(script):
        hands[(-d * t) % players].extend(p.card for p in turn)
    fill = [c for c in (Card.TEMPURA, Card.SASHIMI, Card.DUMPLING) for _ in range(rules.copies(c))]
    for h in hands:
        while len(h) < size:
            h.append(fill.pop(0))
    cur = [hand_counts(h) for h in hands]
    tabs = [[0] * len(Token) for _ in range(players)]
    order = (Card.TEMPURA, Card.SASHIMI, Card.DUMPLING, *Card)
    turns = []
    for t in range(size):
        step = []
        for s in range(players):
            if s == 0 and t < len(script):
                turn = tuple(script[t])
            else:
                turn = (Pick(next(c for c in order if cur[s][int(c)] > 0)),)
            apply_turn(cur[s], tabs[s], turn, rules)
            step.append([str(p) for p in turn])
        turns.append(step)
        cur = [cur[(s - d) % players] for s in range(players)]
    final = [Tableau(tuple(t)) for t in tabs]
    return record_document([{"hands": [[c.label for c in h] for h in hands], "turns": turns}], [final],
                           rules, players)


def extend_picks(seq: Sequence[Sequence[Card]], a: Ruleset, b: Ruleset) -> dict[str, Any]:
    """The witness turns as seat 0's first turns of a full 2-player round, replayed by the executor."""
    script = distinguishing_script(seq, a, b)
    if script is None:
        return {"status": "impossible", "reason": "no explicit picks land differently"}
    legal_under = a if _run_script(script, a) is not None else b
    record = seat_round_record(script, legal_under)
    out: dict[str, Any] = {"status": "found", "script": [[str(p) for p in t] for t in script],
                           "record": record, "sides": []}
    try:
        from sushigo.spec import executor
    except ImportError:  # pragma: no cover - the executor ships with spec
        out["sides"] = []
        return out
    for rules in (a, b):
        res = executor.replay(record, rules)
        if res.record is None:
            out["sides"].append({"rules": rules.name, "legal": False, "error": res.error})
        else:
            rnd = res.record.rounds[0]
            out["sides"].append({"rules": rules.name, "legal": True,
                                 "tableau": format_tableau(rnd.tableaux[0]), "score": rnd.scores[0]})
    return out
