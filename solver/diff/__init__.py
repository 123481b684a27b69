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

Modules, one idea each: :mod:`.parameters` (the contested parameters and the search each one's
effect calls for), :mod:`.results` (witness, proof and result types), :mod:`.table` (a table
scored by the plain scorer), :mod:`.table_search` (the Z3 scoring search), :mod:`.picks` (the
turn-sequence search), :mod:`.deal` (the deal search), :mod:`.extension` (a witness extended to a
full legal game or round), :mod:`.witness` (a find made into a witness), :mod:`.compare`
(:func:`diff` itself), :mod:`.matrix` (every pair of named rulesets) and :mod:`.game` (a recorded
game under two rulesets).
"""

from __future__ import annotations

from sushigo.solver.diff.compare import diff
from sushigo.solver.diff.deal import passing_agrees, smallest_deal
from sushigo.solver.diff.extension import distinguishing_script as distinguishing_script
from sushigo.solver.diff.extension import extend_picks as extend_picks
from sushigo.solver.diff.extension import extend_to_game
from sushigo.solver.diff.extension import seat_round_record as seat_round_record
from sushigo.solver.diff.game import GameDiff as GameDiff
from sushigo.solver.diff.game import GameSide as GameSide
from sushigo.solver.diff.game import diff_game as diff_game
from sushigo.solver.diff.game import game_side as game_side
from sushigo.solver.diff.matrix import MatrixCell, matrix
from sushigo.solver.diff.matrix import ProgressFn as ProgressFn
from sushigo.solver.diff.matrix import _cached_diff as _cached_diff
from sushigo.solver.diff.parameters import CELL_RULES, describe_parameters, differing_parameters
from sushigo.solver.diff.parameters import DEAL_PARAMS as DEAL_PARAMS
from sushigo.solver.diff.parameters import DEFAULT_TIMEOUT_MS as DEFAULT_TIMEOUT_MS
from sushigo.solver.diff.parameters import PICK_PARAMS as PICK_PARAMS
from sushigo.solver.diff.parameters import SCORING_PARAMS as SCORING_PARAMS
from sushigo.solver.diff.parameters import applies as applies
from sushigo.solver.diff.picks import reachable, smallest_picks
from sushigo.solver.diff.results import DiffResult, Proof, Row, Witness
from sushigo.solver.diff.table import TableScore as TableScore
from sushigo.solver.diff.table import score_table, tables_differ
from sushigo.solver.diff.table_search import _smallest_table_cached as _smallest_table_cached
from sushigo.solver.diff.table_search import smallest_table
from sushigo.spec.record import record_from_tableaux as record_from_tableaux

# The ``X as X`` imports above are names used from this module before it became a package (by
# the CLI, the API, tests and benchmarks), kept importable from here; __all__ is unchanged.
__all__ = [
    "CELL_RULES", "DiffResult", "MatrixCell", "Proof", "Row", "Witness", "describe_parameters", "diff",
    "differing_parameters", "extend_to_game", "matrix", "passing_agrees", "reachable", "score_table",
    "smallest_deal", "smallest_picks", "smallest_table", "tables_differ",
]
