"""The search engine of ``best --game party``: every line of play, with a memo over the table.

The state after ``t`` turns is the round's table as :mod:`sushigo.spec.party.turns` holds it
(each seat's cards, what is stacked on a wasabi, what was discarded, what the uramaki race paid);
the moves are the texts of the turn-by-turn notation, and the rules engine plays them, so no
rule is stated here: a text the rules refuse (``InputError``) is no move. Two lines that reach
the same table (its final tableaux, discards, race) are worth the same from there, so each table
is searched once (memo). The value of a finished line is :func:`~sushigo.spec.party.turns.finish_round`'s
round score of seat 0.

The move space per turn (the executor's, :mod:`sushigo.spec.party.executor`, with every takeout
choice): a card of the hand; a special order copying any card already played (each distinct card
once; bare when there is none); a takeout box flipping any choice of the earlier cards; a menu
playing any card of its draw (``menu-N:-`` with no draw); and at most one bonus action:
chopsticks of an earlier turn playing another card of the hand, or a spoon of an earlier turn
taking any card the players on the left hold (``spoon-N:-``: asking for what nobody has).
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from sushigo.spec.errors import BudgetSpent, InputError
from sushigo.spec.party.readings import PartyRules
from sushigo.spec.party.tableau import SPECIAL, kind_name
from sushigo.spec.party.turns import RoundTable, finish_round

from .puzzle import PartyPuzzle

TOOLS: Final = ("chopsticks", "spoon")
#: How often (nodes) the deadline is looked at.
_CHECK: Final = 256


#: The search's deadline passed before the optimum was proved: the project's one spent-budget
#: exception (the answer is unknown).
OutOfTime = BudgetSpent


def new_table(puzzle: PartyPuzzle) -> RoundTable:
    return RoundTable(puzzle.players, puzzle.rules)


def clone(table: RoundTable) -> RoundTable:
    """A copy of ``table`` to play one more turn on (its cards are frozen values, its slots not)."""
    new = object.__new__(type(table))
    new.__dict__.update(table.__dict__)
    seats = []
    for seat in table.seats:
        copies = {id(s): type(s)(s.part, s.turn) for s in seat.slots}
        for s in seat.slots:
            c = copies[id(s)]
            c.holds = copies[id(s.holds)] if s.holds is not None else None
            c.on = copies[id(s.on)] if s.on is not None else None
        seats.append(type(seat)([copies[id(s)] for s in seat.slots], list(seat.discarded), list(seat.played)))
    new.seats = seats
    new.paid = list(table.paid)
    new.events = list(table.events)
    new.misos = []
    return new


def play(table: RoundTable, texts: Sequence[str]) -> RoundTable | None:
    """The table after one more turn, or None when the rules refuse one of the plays."""
    out = clone(table)
    try:
        out.play_turn(list(texts))
    except InputError:
        return None
    return out


def seat_score(puzzle: PartyPuzzle, table: RoundTable) -> int | None:
    """Seat 0's round score of a finished line (None: the rules refuse the line)."""
    try:
        return finish_round(table, puzzle.menu, puzzle.rules).score.totals[0]
    except InputError:
        return None


def signature(table: RoundTable) -> tuple[Any, ...]:
    """What the rest of the round can depend on: seat 0's cards (a stack as its two halves),
    what it discarded, the other seats' table sizes, the race."""
    mine = tuple(sorted((str(s.part), s.holds is not None, s.on is not None) for s in table.seats[0].slots))
    others = tuple(len(s.slots) for s in table.seats[1:])  # their plays are fixed: only the race changes them
    gone = tuple(sorted(str(p) for p in table.seats[0].discarded))
    return (table.turn, mine, others, gone, tuple(table.paid), table.places)


def _text(slot: Any) -> str:
    return "flipped" if slot.part.flipped else str(slot.part)


def _sub_multisets(texts: Sequence[str]) -> list[list[str]]:
    counts = Counter(texts)
    names = sorted(counts)
    return [[n for n, k in zip(names, ks, strict=True) for _ in range(k)]
            for ks in itertools.product(*(range(counts[n] + 1) for n in names))]


class SeatMoves:
    """The texts one seat may play in a turn (module docstring): ``hand`` its cards, ``left`` the
    cards a spoon may take, ``draws`` what its menus draw in turn (the first menu to act the first)."""

    def __init__(self, rules: PartyRules, seat: int = 0) -> None:
        self.seat = seat
        self.same_turn = rules.special_order_copies == "played"

    def expand(self, table: RoundTable, card: str, draws: Sequence[Sequence[str]], later: bool,
               used: str = "", placed: Sequence[str] = ()) -> list[str]:
        """The texts playing ``card`` may take."""
        name = kind_name(card)
        seat = table.seats[self.seat]
        slots = [s for s in seat.slots if str(s.part) != used]
        if name == SPECIAL:
            targets = [_text(s) for s in slots] + (list(placed) if later and self.same_turn else [])
            return [f"{SPECIAL}:{x}" for x in dict.fromkeys(targets)] or [SPECIAL]
        if name == "takeout":
            aims = [str(s.part) for s in slots if not s.part.flipped]
            return [f"{card}:{','.join(f)}" if f else card for f in _sub_multisets(aims)]
        if name == "menu":
            acted = sum(1 for p in seat.discarded if kind_name(p.card) == "menu")
            if acted >= len(draws):
                return [f"{card}:-"]
            out = [f"{card}:{x}" for c in dict.fromkeys(draws[acted]) if kind_name(c) != "menu"
                   for x in self.expand(table, c, draws, True, used, placed)]
            return out or [f"{card}:-"]
        return [card]

    def moves(self, table: RoundTable, hand: Sequence[str], left: Sequence[str],
              draws: Sequence[Sequence[str]]) -> list[str]:
        seat = table.seats[self.seat]
        tools = list(dict.fromkeys(str(s.part) for s in seat.slots
                                   if s.part.scores_as and kind_name(s.part.scores_as) in TOOLS))
        if table.turn + 1 >= table.last:
            tools = []  # turns.py: no bonus action on the round's last turn
        out: list[str] = []
        for card in dict.fromkeys(hand):
            rest = list(hand)
            rest.remove(card)
            for normal in self.expand(table, card, draws, False):
                out.append(normal)
                placed = [_placed(normal)]
                for tool in tools:
                    if kind_name(tool.rpartition(":")[2]) == "chopsticks":
                        pool = list(dict.fromkeys(rest))
                    else:
                        pool = [c for c in dict.fromkeys(left) if c != tool]
                        out.append(f"{normal} {tool}:-")
                    for other in pool:
                        out += [f"{normal} {tool}:{x}"
                                for x in self.expand(table, other, draws, True, tool, placed)]
        return out


def _placed(text: str) -> str:
    """The card a normal play leaves on the table, as a later special order names it."""
    head, _, rest = text.partition(":")
    name = kind_name(head)
    if name in ("menu", "takeout") or text == SPECIAL:
        return ""
    if name == SPECIAL:
        return "flipped" if rest == "flipped" else f"{SPECIAL}:{rest.split(':')[-1]}"
    return text


def search(puzzle: PartyPuzzle, deadline: float | None = None) -> tuple[int, list[str], dict[str, int]]:
    """Seat 0's best round score, its plays turn by turn, and the search's statistics; raises
    :class:`OutOfTime` past ``deadline`` (a ``time.monotonic()`` value)."""
    gen = SeatMoves(puzzle.rules)
    memo: dict[tuple[Any, ...], tuple[int, tuple[str, ...]] | None] = {}
    opp = puzzle.opponents
    turns = len(puzzle.hands)
    nodes = 0

    def best(table: RoundTable, t: int) -> tuple[int, tuple[str, ...]] | None:
        nonlocal nodes
        if t == turns:
            score = seat_score(puzzle, table)
            return None if score is None else (score, ())
        key = signature(table)
        if key in memo:
            return memo[key]
        nodes += 1
        if deadline is not None and nodes % _CHECK == 0 and time.monotonic() > deadline:
            raise OutOfTime
        found: tuple[int, tuple[str, ...]] | None = None
        for text in gen.moves(table, puzzle.hands[t], puzzle.left_at(t), puzzle.draws):
            nxt = play(table, [text, *opp[t]])
            if nxt is None:
                continue
            sub = best(nxt, t + 1)
            if sub is not None and (found is None or sub[0] > found[0]):
                found = (sub[0], (text, *sub[1]))
        memo[key] = found
        return found

    answer = best(new_table(puzzle), 0)
    if answer is None:
        raise InputError("the puzzle has no legal line of play: check the opponents' plays against the "
                         "rules (sushigo score --game party plays a round turn by turn)")
    return answer[0], list(answer[1]), {"states": nodes, "memo": len(memo)}


def replay(puzzle: PartyPuzzle, plays: Sequence[str]) -> tuple[list[int], int]:
    """Seat 0's running score after each turn of ``plays`` (the round scored as if it ended
    there) and the final score: the check every answer passes before it is shown."""
    table = new_table(puzzle)
    running = []
    for t, text in enumerate(plays):
        nxt = play(table, [text, *puzzle.opponents[t]])
        if nxt is None:
            raise InputError(f"turn {t + 1}: the rules refuse {text!r}")
        table = nxt
        score = seat_score(puzzle, table)
        running.append(0 if score is None else score)
    final = seat_score(puzzle, table)
    if final is None:
        raise InputError("the rules refuse the line at round end")
    return running, final
