"""The best score over all deals: how much can one player make when the deal and every other
player's picks are free?

Structure that makes this a small model:

* Every turn adds exactly one card to a tableau, net: one pick, or two picks
  and a chopsticks card leaving. So after a round each tableau holds exactly
  hand-size cards (a wasabi stack counts two).
* Conversely every tuple of tableaux of hand-size cards, within the deck, is
  reachable: give each seat an order of its cards (plain nigiri first, each
  wasabi immediately followed by the nigiri it holds, free wasabi last), and
  deal pile p the cards that the seats holding it will take: on turn t pile p
  is held by seat p + t * offset, which takes its card number t. Every pick is
  then one card from the hand held, and every wasabi lands as planned, under
  every ruleset (no chopsticks turn is needed).

The dummy-2p variant (three tableaux of hand-size cards: both players and the
dummy) has the same structure. Every turn each player's tableau gains one card
net and the dummy's gains the one card its controller gives it, so each ends
with hand-size cards. Conversely any three such tableaux are reachable: the
players draft their two hands as above, and the dummy pile holds the dummy's
cards in the order it should get them; each turn the controller draws the top
card, takes their own planned pick (the drawn card stays in hand) and gives the
drawn card to the dummy. The dummy is scored as a third seat (maki, puddings)
but is not a player: in the losing question seat 1, the other player, is the
one who finishes higher.

So the question is a choice of token counts per seat and round: each round's
tableaux have hand-size cards, all rounds together stay within the deck
(cards are not returned between rounds), and the rankings (maki, pudding) are
the Z3 terms of :mod:`spec.model.scoring`. Player 0 is the player; the others
absorb the rest of the deal, which matters most with five players (105 of 108
cards are dealt), where they cannot all avoid maki.

Certification as everywhere: a value v is found, then "total >= v + 1" must be
unsat. The witness becomes a full game record (deals and turns), which
:func:`spec.executor.replay` re-executes to the same score.

The best losing game is the hard question (two seats near the top, coupled
through one deck). It starts from a seeded local search
(:mod:`solver.alldeals_search`) improved by solver neighbourhoods
(:func:`_improve`), and every bisection question runs as a portfolio of the
whole question and nine pudding cubes on threads (:func:`_ask`). Valid cuts
(points per card, category caps over the game, the pair's maki and pudding)
tighten the arithmetic relaxation; they never exclude a real game (tested).
"""

from __future__ import annotations

import gc
import itertools
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import z3
from sushigo.solver.alldeals_search import anneal
from sushigo.solver.search import STATUS_OPTIMAL, STATUS_UNKNOWN
from sushigo.spec.answer import Answer, BestStatus
from sushigo.spec.cards import Card, Token
from sushigo.spec.kinds import KINDS as CARD_KINDS
from sushigo.spec.kinds import ByCount, CardKind, Sets, resolve
from sushigo.spec.model import budget
from sushigo.spec.model.core import Model
from sushigo.spec.model.scoring import (
    card_count_terms,
    dish_terms,
    icons_term,
    maki_terms,
    pudding_terms,
    size_term,
    tableau_vars,
    total_term,
)
from sushigo.spec.record import record_from_tableaux
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.tableau import Tableau, format_tableau

KINDS = ("round", "game")
_CLIMB_SECONDS = 5.0  # the climb from below gets this long before bisection takes over
_HOOD_SECONDS = 5.0  # one neighbourhood question of the improvement search
_IMPROVE_SHARE = 0.4  # of the budget, at most, for the improvement search of the losing game


@dataclass(frozen=True)
class AllDealsResult(Answer[BestStatus]):
    """The best total of player 0 (optionally while another player finishes higher)."""

    players: int
    kind: str  # "round" | "game"
    losing: bool  # the best total that still finishes below another player
    score: int | None
    status: BestStatus
    seconds: float
    tableaux: tuple[tuple[Tableau, ...], ...]  # per round, per seat
    totals: tuple[int, ...]  # per seat (round or game totals)
    record: dict[str, Any] | None  # witness game (every round dealt; only round 1 counts for "round")
    reason: str | None = None
    seed: int = 0  # of the local search that starts the losing game question


    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "players": self.players,
            "kind": self.kind,
            "losing": self.losing,
            "score": self.score,
            "status": self.status,
            "totals": list(self.totals),
            "tableaux": [[format_tableau(t) for t in rnd] for rnd in self.tableaux],
            "seed": self.seed,
        }
        if self.reason:
            out["reason"] = self.reason
        return out


Tabs = list[list[list[z3.ArithRef]]]  # per round, per seat, 15 token counts


#: Told each step of a question as one line ("best game, 3 players: 97 found, 98..104 open").
ProgressFn = Callable[[str], None]


@dataclass
class _Progress:
    """What one question has established so far: the best game found and the proved bound.
    A stop (Ctrl-C) reports exactly this: the game (replayed) and the open range above it.
    ``report``, if given, is told every step: a better game, a lower bound proved, a question
    asked."""

    best: int | None = None
    tableaux: tuple[tuple[Tableau, ...], ...] | None = None
    hi: int | None = None
    report: ProgressFn | None = None
    label: str = ""

    def found(self, value: int, tableaux: tuple[tuple[Tableau, ...], ...]) -> None:
        if self.best is None or value > self.best:
            self.best, self.tableaux = value, tableaux
            self.step()

    def bound(self, hi: int) -> int:
        """``hi`` is proved: no game scores more."""
        self.hi = hi
        self.step()
        return hi

    def open_range(self) -> str:
        lo = "?" if self.best is None else str(self.best + 1)
        return f"open range {lo}..{'?' if self.hi is None else self.hi}"

    def step(self, doing: str = "") -> None:
        if self.report is None:
            return
        found = "nothing found yet" if self.best is None else f"{self.best} found"
        lo = "?" if self.best is None else str(self.best + 1)
        hi = "?" if self.hi is None else str(self.hi)
        self.report(f"{self.label}: {found}, {lo}..{hi} open" + (f", {doing}" if doing else ""))


def _model(
    players: int, kind: str, losing: bool, rules: Ruleset, symmetry: bool = True
) -> tuple[Model, Tabs, list[z3.ArithRef]]:
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}")
    m = Model()
    seats = rules.seats(players)
    size = rules.hand_size(players)
    rounds = rules.rounds if kind == "game" else 1
    tabs = [[tableau_vars(m, f"tab_r{r}_p{i}", rules) for i in range(seats)] for r in range(rounds)]
    used: list[z3.ArithRef] = [z3.IntVal(0)] * len(Card)
    for r in range(rounds):
        for i in range(seats):
            m.add("R-HAND-SIZE", size_term(tabs[r][i]) == size, f"r{r}_p{i}")
            used = [u + c for u, c in zip(used, card_count_terms(tabs[r][i]), strict=True)]
    m.add("R-DECK", [u <= rules.copies(c) for u, c in zip(used, Card, strict=True)], "all rounds")
    # Only the player (and, for "losing", one seat that beats them: by symmetry seat 1) need
    # their dishes scored; every seat's maki icons and puddings enter the rankings.
    scored = (0, 1) if losing else (0,)
    round_totals: list[list[z3.ArithRef]] = []
    for r in range(rounds):
        icons = []
        for i in range(seats):
            ic = m.int(f"r{r}_p{i}_maki_icons", 0)
            m.add("R-MAKI-ICONS", ic == icons_term(tabs[r][i], rules), f"r{r}_p{i}")
            icons.append(ic)
        maki = maki_terms(m, f"r{r}", icons, rules)
        row = []
        for i in scored:
            d = dish_terms(m, f"r{r}_p{i}", tabs[r][i], rules)
            t = m.int(f"r{r}_p{i}_total", None)
            m.add("R-ROUND-TOTAL", t == total_term(d, maki[i]), f"r{r}_p{i}")
            _cuts(m, f"r{r}_p{i}", tabs[r][i], d, rules)
            row.append(t)
        round_totals.append(row)
    _category_caps(m, rounds, scored, rules)
    totals: list[z3.ArithRef] = []
    if kind == "game":
        puddings = [z3.Sum([tabs[r][i][Token.PUDDING] for r in range(rounds)]) for i in range(seats)]
        pud = pudding_terms(m, "end", puddings, rules)
        for k, i in enumerate(scored):
            t = m.int(f"p{i}_game_total", None)
            m.add("R-GAME-TOTAL", t == z3.Sum([round_totals[r][k] for r in range(rounds)]) + pud[i], f"p{i}")
            totals.append(t)
        # Rounds are interchangeable (the deck is shared, puddings add up): order them.
        for r in range(rounds - 1 if symmetry else 0):
            m.add("Q-SYMMETRY", round_totals[r][0] >= round_totals[r + 1][0], f"round {r}")
    else:
        totals = [round_totals[0][k] for k in range(len(scored))]
    # The seats that are not scored are interchangeable (each only absorbs cards and enters the
    # rankings): order them by puddings over the game, or by maki icons for one round.
    others = [i for i in range(seats) if i not in scored]
    if symmetry:
        if kind == "game":
            key = [z3.Sum([tabs[r][i][Token.PUDDING] for r in range(rounds)]) for i in range(seats)]
        else:
            key = [m.int(f"r0_p{i}_maki_icons", 0) for i in range(seats)]
        for a, b in itertools.pairwise(others):
            m.add("Q-SYMMETRY", key[a] >= key[b], f"seats {a} and {b}")
    if losing:
        m.add("Q-LOSES", totals[1] > totals[0],
              "seat 1 finishes higher (another player: by symmetry any; under dummy-2p the other player)")
        _pair_cuts(m, rounds, kind == "game", rules)
    return m, tabs, totals


def _pair_cuts(m: Model, rounds: int, game: bool, rules: Ruleset) -> None:
    """Valid bounds on what the loser and the winner take together from each ranking: one first
    and one second place of maki per round (a tie for first shares its points unless every tied
    player gets them all), one pudding bonus. The arithmetic relaxation cannot see these through
    the ranking terms, and without them it lets both seats count the same points."""
    # Alone: first and second place; tied: each of two tied players takes the reading's share.
    pair_maki = max(rules.maki_first_points + rules.maki_second_points,
                    2 * rules.maki_share(True, 2), 2 * rules.maki_share(False, 2))
    for r in range(rounds):
        mk = [m.int(f"r{r}_p{i}_maki", None) for i in (0, 1)]
        m.add("Q-CUTS", [mk[0] + mk[1] <= pair_maki, mk[0] >= 0, mk[1] >= 0,
                         mk[0] <= rules.maki_points_cap, mk[1] <= rules.maki_points_cap], f"maki r{r}")
    if game:
        most = rules.pudding_most_points
        pd = [m.int(f"end_p{i}_pudding", None) for i in (0, 1)]
        m.add("Q-CUTS", [pd[0] + pd[1] <= most, pd[0] <= most, pd[1] <= most], "pudding")


def table_cap(table: ByCount, rules: Ruleset, cards: int) -> int:
    """Most points ``cards`` cards of a kind scored by a table can bring, split over any number
    of tableaux (14 dumplings at best 5 + 5 + 4)."""
    best = [0] * (cards + 1)
    for k in range(1, cards + 1):
        best[k] = max(best[k - j] + table.score(j, rules) for j in range(1, k + 1))
    return best[cards]


def dumpling_cap(rules: Ruleset, cards: int) -> int:
    """Most dumpling points ``cards`` dumplings can bring, split over any number of tableaux."""
    dumpling = CARD_KINDS[int(Card.DUMPLING)].scoring
    assert isinstance(dumpling, ByCount)
    return table_cap(dumpling, rules, cards)


def _sole_kinds() -> list[tuple[int, CardKind]]:
    """The set and table kinds that have their column to themselves (a cut on the column is
    a cut on the kind), in deck order."""
    dish = [k for k in CARD_KINDS if k.dish]
    return [(i, k) for i, k in enumerate(CARD_KINDS) if isinstance(k.scoring, (Sets, ByCount))
            and sum(o.category == k.category for o in dish) == 1]


def category_caps(rules: Ruleset) -> dict[str, int]:
    """Most points a category can bring over a whole game, all seats together, read from the
    kinds' descriptions: a set lies in one tableau and the deck holds so many copies (14 tempura
    make 7 pairs, 14 sashimi 4 sets), a table's best split (14 dumplings at best 5 + 5 + 4)."""
    out = {}
    for card, kind in _sole_kinds():
        s = kind.scoring
        copies = rules.copies(Card(card))
        if isinstance(s, Sets):
            out[kind.category] = int(resolve(s.points, rules)) * (copies // int(resolve(s.size, rules)))
        elif isinstance(s, ByCount):
            out[kind.category] = table_cap(s, rules, copies)
    return out


def _category_caps(m: Model, rounds: int, scored: Sequence[int], rules: Ruleset) -> None:
    """The scored seats' points of a category, over all rounds, within :func:`category_caps`. The
    per-card cuts alone let the relaxation count 14 sashimi as 46 2/3 points; with these caps the
    two-player losing game is proved in under a minute instead of staying open."""
    for cat, cap in category_caps(rules).items():
        terms = [m.int(f"r{r}_p{i}_{cat}", None) for r in range(rounds) for i in scored]
        m.add("Q-CUTS", z3.Sum(terms) <= cap, f"cap {cat}")


def _cuts(
    m: Model, label: str, tab: Sequence[z3.ArithRef], d: dict[str, z3.ArithRef], rules: Ruleset
) -> None:
    """Valid bounds of points per card (a set's points spread over its cards, the best dumpling
    ratio), so the arithmetic solver's relaxation sees what a card is worth."""
    kinds = _sole_kinds()
    # Built in this order (every ratio, then every floor, then every table's top): Z3 numbers
    # its terms as they are made, and that order picks which of equal optima a search finds.
    cuts = []
    for card, kind in kinds:
        s, got, cards = kind.scoring, d[kind.category], tab[card]
        if isinstance(s, Sets):
            cuts.append(int(resolve(s.size, rules)) * got <= int(resolve(s.points, rules)) * cards)
        elif isinstance(s, ByCount):
            table = resolve(s.table, rules)
            best = max(s.score(k, rules) / k for k in range(1, len(table)))
            num, den = best.as_integer_ratio()
            cuts.append(den * got <= num * cards)
    cuts += [d[kind.category] >= 0 for _, kind in kinds]
    cuts += [d[kind.category] <= max(resolve(kind.scoring.table, rules))
             for _, kind in kinds if isinstance(kind.scoring, ByCount)]
    m.add("Q-CUTS", cuts, label)


def _read_tableaux(model: z3.ModelRef, tabs: Tabs) -> tuple[tuple[Tableau, ...], ...]:
    return tuple(
        tuple(Tableau(tuple(model.eval(v, model_completion=True).as_long() for v in seat)) for seat in rnd)
        for rnd in tabs
    )


def witness_record(tableaux: Sequence[Sequence[Tableau]], players: int, rules: Ruleset) -> dict[str, Any]:
    """A full game record whose deals and turns produce exactly ``tableaux`` (per round, per seat).

    Missing rounds (the "round" question solves one) are filled with any cards left in the deck,
    dealt the same way, so the record is a complete game the executor can replay.
    """
    seats = rules.seats(players)
    size = rules.hand_size(players)
    left = list(rules.deck)
    for done in tableaux:
        for tab in done:
            for c, n in enumerate(tab.card_counts()):
                left[c] -= n
    full: list[list[Tableau]] = [list(r) for r in tableaux]
    while len(full) < rules.rounds:
        rnd = []
        for _ in range(seats):
            counts = [0] * len(Token)
            need = size
            for c in Card:  # fill with whatever is left, plain cards only
                take = min(need, left[int(c)])
                counts[int(c)] += take
                left[int(c)] -= take
                need -= take
            rnd.append(Tableau(tuple(counts)))
        full.append(rnd)
    return record_from_tableaux(full, rules, players, policy="witness")


def verify_witness(record: dict[str, Any], rules: Ruleset, kind: str, score: int) -> tuple[int, ...]:
    """Replay the witness with the executor; the player's round-1 or game total must be ``score``."""
    from sushigo.spec.executor import replay

    res = replay(record, rules)
    if not res.ok or res.score is None:
        raise AssertionError(f"witness does not replay: {res.error}")
    if kind == "round":
        totals = tuple(s.total for s in res.score.rounds[0])
    else:
        totals = tuple(res.score.totals)
    if totals[0] != score:
        raise AssertionError(f"witness replays to {totals[0]}, not {score}")
    return totals


def _per_card_cap(rules: Ruleset) -> Fraction:
    """Most points one card can bring in a round's dishes (a set's or a stack's points per card)."""
    return rules.card_points_cap()


def upper_bound(
    players: int, kind: str, rules: Ruleset, timeout: float, progress: ProgressFn | None = None
) -> int:
    """A proved upper bound on the player's total, to start the bisection from.

    A round's total is at most hand-size cards at the best points per card plus first-place maki.
    A game's is at most rounds x the (solved) round maximum plus the pudding bonus: every round is
    played from a subset of the deck, and pudding points never exceed the bonus.
    """
    size = rules.hand_size(players)
    trivial = int(size * _per_card_cap(rules)) + rules.maki_points_cap
    if kind == "round":
        return trivial
    rnd = best_over_deals(players, "round", rules, False, timeout, progress=progress)
    budget.stop_point()  # a stop during the round question ends the game question too
    per_round = rnd.score if rnd.status == STATUS_OPTIMAL and rnd.score is not None else trivial
    return rules.rounds * per_round + rules.pudding_most_points


def _seconds(left: float) -> budget.Budget:
    """A wall-clock budget of ``left`` seconds (no resource limit: the search's own deadline
    bounds it; a command's ``--rlimit`` still applies through :func:`budget.ceiling`)."""
    return budget.Budget(max(1, int(left * 1000)), None)


def _solver(m: Model) -> z3.Solver:
    """A solver for the model's groups. The model is linear integer arithmetic throughout; the
    QF_LIA solver answers the same questions; within 60 s it narrowed the open 3-player losing-game
    range far more than the default solver (92..97 against 78..104) and proved the round and game
    maxima as before, though on 2 players the default solver did better (99..104 against 90..114).
    Both measured on the loaded 2-core box; the losing game stays open either way."""
    s = z3.SolverFor("QF_LIA")
    s.add(*m.constraints())
    return s


Tableaux = tuple[tuple[Tableau, ...], ...]


def _maximise(
    m: Model, total: z3.ArithRef, tabs: Tabs, hi: int, deadline: float,
    start: tuple[int, Tableaux] | None = None, cubes: Sequence[z3.BoolRef] = (),
    progress: _Progress | None = None,
) -> tuple[BestStatus, Tableaux | None, int | None, str | None]:
    """Highest value of ``total``: from ``start`` (a game found by the local search) or a short
    climb from below, then bisection against ``hi``.

    Climbing (each model asks for one point more) finds good games fast but can stall near the
    top; bisection's unsat answers close the gap from above. A bisection question that runs out
    of its share of the time is not the end: the next question is asked nearer ``hi``, where
    unsat answers come quicker, so the open range still narrows. Optimal only once
    "total >= best + 1" was answered unsat by a Solver. ``progress`` follows the best game and
    the bound as they improve (what a stop reports).
    """
    run = progress if progress is not None else _Progress(hi=hi)
    best: int | None = None
    best_tabs: Tableaux | None = None
    if start is not None:
        best, best_tabs = start
    else:
        climb = _solver(m)
        climb_until = time.perf_counter() + _CLIMB_SECONDS
        while True:
            left = min(deadline, climb_until) - time.perf_counter()
            if left <= 0:
                break
            r = budget.decide(climb, _seconds(left)).as_z3()
            if r == z3.sat:
                model = climb.model()
                best = model.eval(total, model_completion=True).as_long()
                best_tabs = _read_tableaux(model, tabs)
                run.found(best, best_tabs)
                climb.add(total >= best + 1)
            elif r == z3.unsat:
                if best is None:
                    return STATUS_UNKNOWN, None, None, "no game satisfies the question"
                return STATUS_OPTIMAL, best_tabs, best, None
            else:
                break
    lo = -1 if best is None else best
    proved = False  # hi + 1 was answered unsat (else hi is the a-priori bound)
    give_up = lo  # questions at or below this ran out of time: ask above it
    while lo < hi:
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        mid = max((lo + hi + 1) // 2, give_up + 1)
        # Each question gets a share of what is left: enough for the about log2(range) questions.
        share = left / max(1, (hi - lo).bit_length()) if mid > lo + 1 else left
        run.step(f"asking for {mid}")
        r, found = _ask(m, tabs, total, mid, cubes, share)
        if r == z3.sat and found is not None:
            best = lo = found[0]
            best_tabs = found[1]
            give_up = max(give_up, lo)
            run.found(*found)
        elif r == z3.unsat:
            hi = run.bound(mid - 1)
            proved = True
        else:
            give_up = mid
            if mid >= hi:  # even the top question is open: nothing left to try
                break
    if best is None:
        return STATUS_UNKNOWN, None, None, "no game satisfies the question"
    if lo >= hi:
        # hi is now either a value answered unsat or the a-priori bound; the latter still needs
        # the solver's certificate.
        if proved or _ask(m, tabs, total, best + 1, cubes, deadline - time.perf_counter())[0] == z3.unsat:
            return STATUS_OPTIMAL, best_tabs, best, None
        return STATUS_UNKNOWN, best_tabs, best, "could not prove one point more unreachable"
    return STATUS_UNKNOWN, best_tabs, best, f"time budget exhausted (open range {best + 1}..{hi})"


def _ask(
    m: Model, tabs: Tabs, total: z3.ArithRef, bound: int, cubes: Sequence[z3.BoolRef], seconds: float
) -> tuple[z3.CheckSatResult, tuple[int, Tableaux] | None]:
    """Is there a game with ``total >= bound``? sat (with the game found), unsat, or unknown.

    With ``cubes`` (constraints that together cover every game) this is a portfolio: the whole
    question and the question within each cube, each in its own Z3 context on its own thread
    (at least two threads, more with more processors). The whole question's answer, or unsat in
    every cube, or a sat anywhere settles it and interrupts the rest. A cube is a smaller proof
    (the solver case-splits less), which is what closes the 3-player losing game; the whole
    question is quicker where the relaxation is already tight (2 players).
    """
    deadline = time.perf_counter() + seconds
    constraints = m.constraints()
    lock = threading.Lock()  # the model's own context is read by one thread at a time
    running: dict[int, z3.Context] = {}
    budget.stop_point()
    answers: dict[int, z3.CheckSatResult] = {}
    settled = threading.Event()
    result: list[tuple[z3.CheckSatResult, tuple[int, Tableaux] | None]] = []
    questions: list[z3.BoolRef | None] = [None, *cubes]

    def settle(r: z3.CheckSatResult, game: tuple[int, Tableaux] | None) -> None:
        # with the lock held
        if not settled.is_set():
            result.append((r, game))
            settled.set()
            for ctx in running.values():
                budget.interrupt(ctx)

    def one(k: int) -> None:
        # Every Z3 call but check() runs under the lock, and every Z3 object made here is kept
        # until all threads are done, so two threads never touch Z3 at once except to solve,
        # each in its own context.
        with lock:
            left = deadline - time.perf_counter()
            if settled.is_set() or left <= 0 or budget.stop_requested():
                return
            ctx = z3.Context()
            budget.watch(ctx)  # a stop (Ctrl-C) interrupts this thread's check too
            s = z3.SolverFor("QF_LIA", ctx=ctx)
            s.add(*[c.translate(ctx) for c in constraints])
            s.add((total >= bound).translate(ctx))
            cube = questions[k]
            if cube is not None:
                s.add(cube.translate(ctx))
            local_tabs = [[[v.translate(ctx) for v in seat] for seat in rnd] for rnd in tabs]
            local_total = total.translate(ctx)
            running[k] = ctx
            keep.append((ctx, s, local_tabs, local_total))
        r = budget.decide(s, _seconds(left)).as_z3()
        with lock:
            running.pop(k, None)
            if settled.is_set():  # another answer came first (and may have interrupted this one)
                return
            answers[k] = r
            if r == z3.sat:
                model = s.model()
                keep.append(model)
                value = model.eval(local_total, model_completion=True).as_long()
                settle(r, (value, _read_tableaux(model, local_tabs)))
            elif r == z3.unsat and k == 0:
                settle(r, None)
            elif len(questions) > 1 and all(answers.get(j) == z3.unsat for j in range(1, len(questions))):
                settle(z3.unsat, None)

    keep: list[object] = []
    workers = max(2, min(len(questions), os.cpu_count() or 1)) if cubes else 1
    collecting = gc.isenabled()
    gc.disable()  # no collection (and no Z3 finalizer) may run on a thread in the middle of a call
    try:
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(one, range(len(questions))))
    finally:
        if collecting:
            gc.enable()
    keep.clear()
    return result[0] if result else (z3.unknown, None)


def _pudding_cubes(tabs: Tabs) -> list[z3.BoolRef]:
    """The player's and seat 1's game puddings, each 0, 1 or 2 and more: nine cubes covering every
    game. The pudding ranking is where the relaxation is weakest (whether a seat escapes the
    penalty, shares the bonus); fixing the classes lets each cube's proof start from tighter
    bounds. On the 3-player losing game the nine cubes took 21..210 s each, where the whole
    question stayed open after 600 s."""
    puddings = [z3.Sum([rnd[i][Token.PUDDING] for rnd in tabs]) for i in (0, 1)]

    def classes(p: z3.ArithRef) -> list[z3.BoolRef]:
        return [p == 0, p == 1, p >= 2]

    return [z3.And(a, b) for a in classes(puddings[0]) for b in classes(puddings[1])]


def _improve(
    players: int, rules: Ruleset, start: tuple[int, Tableaux], seed: int, deadline: float,
    progress: _Progress | None = None,
) -> tuple[int, Tableaux]:
    """Large-neighbourhood search with the solver: keep part of the game as it is (the other
    seats; or one round; or one of the two scored seats), free the rest, and ask the losing
    model for one point more. Stops after a pass (every neighbourhood once, in a seeded order)
    in which each answered no or ran out of its few seconds, or at the deadline. Rounds are not
    ordered here (a kept round has a fixed place), so the model is built without that symmetry
    breaking."""
    m, tabs, totals = _model(players, "game", True, rules, symmetry=False)
    seats = rules.seats(players)
    hoods: list[list[tuple[int, int]]] = []
    if seats > 2:
        hoods.append([(r, i) for r in range(rules.rounds) for i in range(2, seats)])
    hoods += [[(r, i) for i in range(seats)] for r in range(rules.rounds)]
    hoods += [[(r, k) for r in range(rules.rounds)] for k in (1, 0)]
    rng = random.Random(f"alldeals-improve/{seed}")
    value, game = start
    solver = _solver(m)
    order = list(range(len(hoods)))
    improved = True
    # passes over every neighbourhood, in a seeded order, until one gains nothing (or a stop)
    while improved and not budget.stop_requested():
        improved = False
        rng.shuffle(order)
        for k in order:
            left = deadline - time.perf_counter()
            if left <= 0.5:
                return value, game
            solver.push()
            solver.add([v == n for r, i in hoods[k]
                        for v, n in zip(tabs[r][i], game[r][i].counts, strict=True)])
            solver.add(totals[0] >= value + 1)
            if budget.decide(solver, _seconds(min(_HOOD_SECONDS, left))).sat:
                model = solver.model()
                value = model.eval(totals[0], model_completion=True).as_long()
                game = _read_tableaux(model, tabs)
                if progress is not None:
                    progress.found(value, game)
                improved = True
            solver.pop()
    return value, game


def best_over_deals(
    players: int, kind: str, rules: Ruleset, losing: bool = False, timeout: float = 120.0, seed: int = 0,
    progress: ProgressFn | None = None,
) -> AllDealsResult:
    """Highest round (kind="round") or game total of player 0 over every deal and every line of
    play; with ``losing``, the highest such total while another player finishes strictly higher.

    The losing game starts from a game found by :func:`solver.alldeals_search.anneal` (seeded by
    ``seed``) improved by :func:`_improve`; everything else climbs from below. The status is
    ``optimal`` only after the solver answered "one point more" unsat. ``progress`` is told each
    step: the best found and the proved bound (``sushigo best`` shows it on a terminal).
    """
    start_time = time.perf_counter()
    run = _Progress(report=progress, label=f"best {'losing ' if losing else ''}{kind}, {players} players")
    if budget.stop_requested():  # after a stop, no new question starts
        return _result(players, kind, rules, losing, seed, start_time, STATUS_UNKNOWN, None, None,
                       "not started: interrupted")
    try:
        return _best_over_deals(players, kind, rules, losing, timeout, seed, start_time, run)
    except KeyboardInterrupt:
        # Stopped (Ctrl-C, SIGTERM): report the best game found, replayed, and the open range.
        budget.request_stop(budget.stopped_by() or signal.SIGINT)
        reason = f"interrupted after {time.perf_counter() - start_time:.1f} s ({run.open_range()})"
        return _result(players, kind, rules, losing, seed, start_time, STATUS_UNKNOWN,
                       run.tableaux, run.best, reason)


def _best_over_deals(
    players: int, kind: str, rules: Ruleset, losing: bool, timeout: float, seed: int,
    start_time: float, run: _Progress,
) -> AllDealsResult:
    deadline = start_time + timeout
    run.step("bounding")
    hi = run.bound(upper_bound(players, kind, rules, timeout / 4, run.report))
    start: tuple[int, Tableaux] | None = None
    if losing and kind == "game":
        # A fixed amount of annealing (so a seed gives one start), less under a short budget.
        value, game = anneal(players, kind, rules, True, seed, restarts=1 if timeout < 60 else 3,
                             on_best=run.found)
        if game:
            run.found(value, game)
            start = _improve(players, rules, (value, game), seed, start_time + _IMPROVE_SHARE * timeout, run)
    m, tabs, totals = _model(players, kind, losing, rules)
    cubes = _pudding_cubes(tabs) if losing and kind == "game" else []
    status, tableaux, best, reason = _maximise(m, totals[0], tabs, hi, deadline, start, cubes, run)
    return _result(players, kind, rules, losing, seed, start_time, status, tableaux, best, reason)


def _result(
    players: int, kind: str, rules: Ruleset, losing: bool, seed: int, start_time: float, status: BestStatus,
    tableaux: Tableaux | None, best: int | None, reason: str | None,
) -> AllDealsResult:
    """The answer, its witness game made into a record and replayed by the executor."""
    elapsed = time.perf_counter() - start_time
    if tableaux is None or best is None:
        return AllDealsResult(players, kind, losing, None, status, elapsed, (), (), None, reason, seed)
    record = witness_record(tableaux, players, rules)
    replayed = verify_witness(record, rules, kind, best)
    if losing:
        assert max(replayed[1:players]) > replayed[0]
    return AllDealsResult(players, kind, losing, best, status, elapsed, tableaux, replayed, record, reason,
                          seed)
