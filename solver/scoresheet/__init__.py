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

Modules, one idea each: :mod:`.sheet` (the sheet and its JSON), :mod:`.model` (the Z3 model of
a sheet), :mod:`.witness` (a witness game and its re-scoring), :mod:`.staged` (the round-by-round
pre-pass), :mod:`.explain` (an impossible sheet in words) and :mod:`.check` (:func:`check_sheet`).
"""

from __future__ import annotations

from sushigo.solver.scoresheet.check import SheetAnswer, check_sheet
from sushigo.solver.scoresheet.explain import RULE_WORDS, explain, pudding_rows, round_maximum
from sushigo.solver.scoresheet.model import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS, Cell, SheetModel, build
from sushigo.solver.scoresheet.sheet import SHEET_FORMAT, Sheet, parse_sheet, sheet_from_record
from sushigo.solver.scoresheet.staged import LAST_BOOST, STAGE_PLANS, STAGE_SHARE
from sushigo.solver.scoresheet.staged import _staged_search as _staged_search
from sushigo.solver.scoresheet.witness import Witness

__all__ = [
    "DEFAULT_RLIMIT",
    "DEFAULT_TIMEOUT_MS",
    "LAST_BOOST",
    "RULE_WORDS",
    "SHEET_FORMAT",
    "STAGE_PLANS",
    "STAGE_SHARE",
    "Cell",
    "Sheet",
    "SheetAnswer",
    "SheetModel",
    "Witness",
    "build",
    "check_sheet",
    "explain",
    "parse_sheet",
    "pudding_rows",
    "round_maximum",
    "sheet_from_record",
]
