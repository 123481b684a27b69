"""The Z3 engine of ``best --game party``: which card is picked each turn, maximising the round
score of :class:`sushigo.spec.party.model.RoundModel`, proved by "one point more is unsat".

A Boolean per turn and card of that turn's hand, exactly one true a turn. Seat 0's counts in the
round model are the sums of its picks; the order the rules care about is encoded turn by turn:
a nigiri goes on a wasabi when one of the earlier wasabi is still empty (RB p15), and a miso
played on a turn when another seat plays one is discarded (RB p11). The other seats' final
tableaux and what their uramaki race paid come from playing their turns alone
(:mod:`sushigo.spec.party.turns`) and are fixed in the model.

Covered: puzzles whose hands hold no chopsticks, spoon, menu, takeout box, special order or
uramaki (their effects hang on moves and the race, which the search engine plays), under every
reading but ``discarded_colours=yes`` (not in the round model), and, with soy sauce on the menu,
where no single miso of another seat shares a turn with a hand holding a miso (that seat's
miso, and so its colours, would hang on the pick).
Any other puzzle is refused with one line naming what is not covered (:func:`coverage`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from sushigo.spec.errors import BudgetSpent, InputError
from sushigo.spec.model.budget import Budget, decide
from sushigo.spec.party.kinds import KIND
from sushigo.spec.party.model import RoundModel, seat_counts
from sushigo.spec.party.scoring import RacePaid
from sushigo.spec.party.tableau import SPECIAL, kind_name
from sushigo.spec.party.turns import RoundTable

from .puzzle import PartyPuzzle

if TYPE_CHECKING:
    import z3

#: Kinds the Z3 engine leaves to the search (moves of their own, or the uramaki race).
NOT_COVERED: Final = ("chopsticks", "spoon", "menu", "takeout", SPECIAL, "uramaki")


def _others(puzzle: PartyPuzzle) -> tuple[RoundTable, list[int]]:
    """The other seats' turns played alone (seat 0 plays nothing), and their misos per turn."""
    table = RoundTable(puzzle.players, puzzle.rules)
    misos = []
    for plays in puzzle.opponents:
        table.play_turn(["-", *plays])
        misos.append(len(table.misos))
    return table, misos


def coverage(puzzle: PartyPuzzle) -> str | None:
    """Why the Z3 engine does not answer ``puzzle`` (None: it does)."""
    kinds = sorted({kind_name(c) for h in puzzle.hands for c in h} & set(NOT_COVERED))
    if kinds:
        return f"the hands hold {', '.join(kinds)}, which Z3 does not encode (moves and the uramaki race)"
    if puzzle.rules.discarded_colours == "yes":
        return "discarded_colours=yes is not in the Z3 round model"
    _, misos = _others(puzzle)
    for t, hand in enumerate(puzzle.hands):
        if "soy-sauce" not in puzzle.menu.kinds:
            break  # the other seats' misos score for them only: seat 0's points do not hang on them
        if misos[t] == 1 and any(kind_name(c) == "miso" for c in hand):
            return (f"turn {t + 1}: another seat's single miso would hang on the pick "
                    "(the search engine plays it)")
    return None


def solve_z3(puzzle: PartyPuzzle, budget: Budget) -> tuple[int, list[str]]:
    """Seat 0's best round score and its picks, proved optimal; raises ``InputError`` for a puzzle
    it does not cover and ``BudgetSpent`` when ``budget`` runs out first."""
    import z3

    why = coverage(puzzle)
    if why is not None:
        raise InputError(f"--engine z3: {why}; use --engine search, which covers every puzzle")
    table, misos = _others(puzzle)
    race = RacePaid(tuple(table.paid), table.places)
    model = RoundModel(puzzle.menu, puzzle.players, puzzle.rules, race)
    solver = z3.Solver()
    solver.add(*model.domain.values())
    for s in range(1, puzzle.players):
        solver.add(*model.fix(s, seat_counts(table.seats[s].tableau(), puzzle.menu)))
    picks = [{c: z3.Bool(f"pick_{t}_{c}") for c in dict.fromkeys(hand)}
             for t, hand in enumerate(puzzle.hands)]
    for choice in picks:
        solver.add(z3.PbEq([(b, 1) for b in choice.values()], 1))
    _counts(solver, model, puzzle, picks, misos)
    _deck(solver, puzzle, table, picks)
    total = model.total(0)
    best: int | None = None
    chosen: list[str] = []
    while True:
        answer = decide(solver, budget)
        if answer.unknown:
            raise answer.spent()
        if not answer.sat:
            break
        m = solver.model()
        best = m.eval(total, model_completion=True).as_long()
        chosen = [next(c for c, b in choice.items() if z3.is_true(m.eval(b, model_completion=True)))
                  for choice in picks]
        solver.add(total > best)  # one point more, until unsat proves the optimum
    if best is None:
        raise InputError("--engine z3: the round model admits no line of these hands (report this)")
    return best, chosen


def _deck(solver: z3.Solver, puzzle: PartyPuzzle, table: RoundTable,
          picks: Sequence[dict[str, z3.BoolRef]]) -> None:
    """Every card played, by every seat, within the menu's deck (RB p2; as
    :func:`~sushigo.spec.party.scoring.check_round` counts them: misos discarded too)."""
    import z3

    played = Counter(p.card for seat in table.seats[1:] for p in seat.played
                     if kind_name(p.card) not in ("chopsticks", "spoon"))
    for tile in puzzle.menu.tiles:
        for card, copies in tile.cards:
            mine = [z3.If(choice[card], 1, 0) for choice in picks if card in choice]
            if mine:
                solver.add(z3.Sum(mine) + played[card] <= copies)


def _counts(solver: z3.Solver, model: RoundModel, puzzle: PartyPuzzle, picks: Sequence[dict[str, z3.BoolRef]],
            misos: Sequence[int]) -> None:
    """Seat 0's counts as sums of its picks, wasabi and miso by the turn order."""
    import z3

    def one(b: z3.BoolRef) -> z3.ArithRef:
        return z3.If(b, 1, 0)

    nigiri = KIND["nigiri"].cards
    free: z3.ArithRef = z3.IntVal(0)
    stacked: list[list[z3.ArithRef]] = [[] for _ in nigiri]
    for choice in picks:
        for v, card in enumerate(nigiri):
            if card in choice:
                stacked[v].append(one(z3.And(choice[card], free > 0)))
        held = [choice[c] for c in nigiri if c in choice]
        took = z3.Or(*held) if held else z3.BoolVal(False)
        wasabi = one(choice["wasabi"]) if "wasabi" in choice else 0
        free = free + wasabi - one(z3.And(took, free > 0))
    for tile in puzzle.menu.kinds:
        for v, card in enumerate(KIND[tile].cards):
            terms = [one(choice[card]) for t, choice in enumerate(picks) if card in choice
                     and not (tile == "miso" and misos[t] > 0)]
            solver.add(model.n[0][tile][v] == z3.Sum(terms) if terms else model.n[0][tile][v] == 0)
        solver.add(model.c[0][tile] == 0)
    for v in range(len(nigiri)):
        solver.add(model.w[0][v] == (z3.Sum(stacked[v]) if stacked[v] else 0))
    solver.add(model.f[0] == 0)


__all__ = ["BudgetSpent", "coverage", "solve_z3"]
