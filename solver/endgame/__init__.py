"""Endgames: the rest of a round played exactly when every hand is known.

Late in a round every hand has been seen, so what is left is a game of
perfect information with simultaneous picks. This module reads such a
position, checks it against the rules and solves it.

Position JSON (pinned by the issue)::

    {"rules": "official", "round": 3,
     "hands": [["squid", "tempura"], ["egg", "maki2"]],
     "taken": [[["wasabi"], ["chopsticks"]], [["tempura"], ["salmon"]]],
     "puddings": [1, 2], "scores": [20, 25]}

``taken[p]`` lists the turns player ``p`` took this round, in order, each a list
of 1-2 picks in :mod:`spec.turns` notation (so free wasabi and chopsticks are
known). ``puddings`` are pudding cards from earlier rounds, ``scores`` the
points of earlier rounds (both optional, zero by default).

What is solved (``objective``):

* two players, ``diff``: the value of the zero-sum game whose payoff is player
  0's points minus player 1's at the end of this round (earlier scores, this
  round, and the pudding points when this is the last round). At every node
  the simultaneous pick is a matrix game solved exactly (:mod:`solver.matrixgame`).
* two players, ``own``: player 0's own end-of-round total, with player 1
  minimising it (a zero-sum reading: the opponent is out to hurt you).
* two players, ``win``: +1 if player 0 is the only winner at the end of the
  round (by :func:`spec.scoring.winners`: most points, then most puddings),
  -1 if player 1 is, 0 for a shared win or no winner. The value is
  P(win) - P(loss) under optimal play.
* three to five players, ``paranoid``: player 0's own total when the others
  form a coalition minimising it and see player 0's pick before choosing
  theirs; player 0 picks purely. This is a guarantee: player 0 scores at least
  this whatever the others do.
* any player count, ``policy``: player 0's best own total when every other
  player follows a fixed policy (``greedy``, see :func:`greedy_turn`).
* dummy-2p (:func:`solve_dummy`): as two players, with the dummy pile given as
  a third hand in draw order; a move of the player controlling the dummy is the
  pair (own turn, card given to the dummy).

The *guarantee* of a first pick is the pure-strategy maximin: play that pick,
then at every later turn pick purely while the opponents (who see each pick
before answering) do their worst. It never exceeds the game value.

Turn legality and effects come from :mod:`spec.turns`; scores from
:mod:`spec.scoring`. The search keeps only what can still change a score:
tempura and sashimi modulo their set sizes, dumplings capped where the table
stops growing, nigiri banked as soon as they are taken (the banked points are
computed by :func:`spec.scoring.dish_points`, so the reduction is exact).
"""

from __future__ import annotations

from sushigo.solver.endgame.certificate import Certificate, certify_guarantee
from sushigo.solver.endgame.dummy import DummyMove, solve_dummy
from sushigo.solver.endgame.exact import ENGINES, solve_two, solve_two_exact
from sushigo.solver.endgame.multi import (
    first_pick_gains,
    greedy_first_pick,
    greedy_gains,
    greedy_turn,
    solve_multi,
)
from sushigo.solver.endgame.position import (
    N_CARDS,
    N_TOKENS,
    POSITION_FORMAT,
    Hand,
    Position,
    Tab,
    hand_names,
    parse_position,
    parse_position_text,
    random_position,
)
from sushigo.solver.endgame.reference import solve_two_reference
from sushigo.solver.endgame.result import EndgameResult, PickValue
from sushigo.solver.endgame.state import DEFAULT_MAX_NODES, OBJECTIVES, POLICIES, BudgetExceeded, Move
from sushigo.spec.errors import InputError
from sushigo.spec.model.budget import Budget


def solve_position(
    pos: Position,
    objective: str | None = None,
    policy: str | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    time_limit: float | None = None,
    *,
    budget: Budget | None = None,
) -> EndgameResult:
    """Dispatch: two players zero-sum by default; paranoid for 3-5; ``policy`` for a fixed opposition.

    The search's budget: ``max_nodes`` states and ``time_limit`` seconds, or ``budget`` (the one
    :class:`~sushigo.spec.model.budget.Budget`: its ``nodes`` and ``run_seconds``; a limit it
    leaves open is none, nodes :data:`DEFAULT_MAX_NODES`). A budget that runs out answers unknown."""
    if budget is not None:
        max_nodes = DEFAULT_MAX_NODES if budget.nodes is None else budget.nodes
        time_limit = budget.run_seconds
    if policy is not None and pos.pile is not None:
        raise InputError("not supported for endgame: --policy with the dummy-2p variant")
    if policy is not None:
        if objective not in (None, "own"):
            raise InputError("--policy maximises player 0's own score; use --objective own or leave it out")
        return solve_multi(pos, policy, max_nodes, time_limit)
    if pos.pile is not None:
        return solve_dummy(pos, objective or "diff", max_nodes, time_limit)
    if pos.players == 2:
        return solve_two(pos, objective or "diff", max_nodes, time_limit)
    if objective not in (None, "own"):
        raise InputError(
            f"with {pos.players} players the endgame is paranoid on player 0's own score; "
            "--objective diff and win are for 2 players"
        )
    return solve_multi(pos, None, max_nodes, time_limit)



__all__ = [
    "DEFAULT_MAX_NODES",
    "ENGINES",
    "N_CARDS",
    "N_TOKENS",
    "OBJECTIVES",
    "POLICIES",
    "POSITION_FORMAT",
    "BudgetExceeded",
    "Certificate",
    "DummyMove",
    "EndgameResult",
    "Hand",
    "Move",
    "PickValue",
    "Position",
    "Tab",
    "certify_guarantee",
    "first_pick_gains",
    "greedy_first_pick",
    "greedy_gains",
    "greedy_turn",
    "hand_names",
    "parse_position",
    "parse_position_text",
    "random_position",
    "solve_dummy",
    "solve_multi",
    "solve_position",
    "solve_two",
    "solve_two_exact",
    "solve_two_reference",
]
