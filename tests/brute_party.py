"""A plain enumerator of Party best-play puzzles, to hold the engines of ``best --game party`` to.

Independent of :mod:`sushigo.solver.party.search`: no memo, no copied tables, no deduplicated
moves. Every line of play is enumerated turn by turn (takeout flips as subsets of the table's
positions, special orders naming any card of the menu), each prefix is played again from a
fresh table by :class:`~sushigo.spec.party.turns.RoundTable` (which refuses what the rules
refuse), and the best finished line wins. The move space is the one the engines document: the
normal play and at most one bonus action a turn. Only for tiny puzzles (3 or 4 turns).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from sushigo.solver.party.puzzle import PartyPuzzle
from sushigo.spec.errors import InputError
from sushigo.spec.party.tableau import SPECIAL, kind_name
from sushigo.spec.party.turns import RoundTable, finish_round


def _table(puzzle: PartyPuzzle, line: Sequence[str]) -> RoundTable | None:
    table = RoundTable(puzzle.players, puzzle.rules)
    try:
        for t, text in enumerate(line):
            table.play_turn([text, *puzzle.opponents[t]])
    except InputError:
        return None
    return table


def _texts(puzzle: PartyPuzzle, table: RoundTable, card: str, names: Sequence[str]) -> list[str]:
    """Every text for playing ``card`` (a superset: the rules engine refuses the wrong ones)."""
    kind = kind_name(card)
    slots = table.seats[0].slots
    if kind == SPECIAL:
        return [SPECIAL] + [f"{SPECIAL}:{n}" for n in (*names, "flipped")]
    if kind == "takeout":
        out = []
        for r in range(len(slots) + 1):
            for chosen in itertools.combinations(range(len(slots)), r):
                out.append(card + (":" + ",".join(str(slots[i].part) for i in chosen) if chosen else ""))
        return out
    if kind == "menu":
        acted = sum(1 for p in table.seats[0].discarded if kind_name(p.card) == "menu")
        drawn = puzzle.draws[acted] if acted < len(puzzle.draws) else ()
        return [f"{card}:-"] + [f"{card}:{x}" for c in drawn if kind_name(c) != "menu"
                                for x in _texts(puzzle, table, c, names)]
    return [card]


def brute_best(puzzle: PartyPuzzle) -> int:
    """The most seat 0 scores in ``puzzle``, by enumeration."""
    names = sorted({c for c, _ in (*puzzle.menu.deck(), *puzzle.menu.desserts())})
    best: int | None = None

    def walk(line: list[str]) -> None:
        nonlocal best
        table = _table(puzzle, line)
        if table is None:
            return
        t = len(line)
        if t == len(puzzle.hands):
            try:
                score = finish_round(table, puzzle.menu, puzzle.rules).score.totals[0]
            except InputError:
                return
            best = score if best is None else max(best, score)
            return
        hand = puzzle.hands[t]
        tools = [str(s.part) for s in table.seats[0].slots
                 if s.part.scores_as and kind_name(s.part.scores_as) in ("chopsticks", "spoon")]
        for i, card in enumerate(hand):
            rest = [c for j, c in enumerate(hand) if j != i]
            for normal in _texts(puzzle, table, card, names):
                walk([*line, normal])
                for tool in tools:
                    if kind_name(tool.rpartition(":")[2]) == "chopsticks":
                        pool = rest
                    else:
                        pool = list(puzzle.left_at(t))
                        walk([*line, f"{normal} {tool}:-"])
                    for other in pool:
                        for x in _texts(puzzle, table, other, names):
                            walk([*line, f"{normal} {tool}:{x}"])

    walk([])
    assert best is not None, "no legal line"
    return best
