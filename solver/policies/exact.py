"""``exact``: two players, the round's endgame played at equilibrium once both hands are known.

With two players the hands swap every turn, so from the round's second turn each seat knows
both hands (its own, and the one it held a turn ago less the pick the other seat's tableau now
shows: :mod:`knowledge`). From then on the rest of the round is a game of perfect information
with simultaneous picks, which :func:`solver.endgame.solve_two` solves exactly: this policy
samples the equilibrium's mixed first pick with its generator. The position is the seat's own
(it is player 0), with the finished rounds' scores and the puddings kept. With the objective
``game`` (the default), a round before the last is solved by :func:`carry.solve_carry`: its
points difference plus the expected margin of the pudding race at the game's end, so a pudding
is worth what it changes in that race; the last round by ``win`` (the chance of winning the game
less that of losing it, the real pudding scoring and the score so far included), and when that
round is lost whatever is played (the value is -1) by ``diff``, the margin, counted in
``margin``. ``objective=round`` is ``diff`` throughout (the round's points, puddings only in the
last round). ``rounds=all`` (the default) solves every round, ``rounds=last`` the last only.

Before both hands are known, or with a hand larger than ``depth`` cards (where the solver would
take longer than the move is worth), it plays its ``fallback`` (ismcts with the same budget
options, or lookahead). When the solver runs out of its budget (``solve_time`` CPU seconds,
``nodes`` states) it says ``unknown``, and the policy plays the fallback and counts it in
``out_of_budget``. With more than two players it plays the paranoid guarantee
(:func:`solver.endgame.solve_multi`, a pure pick) where the budget allows, else the fallback.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from sushigo.solver.policies.ismcts import IsmctsPolicy
from sushigo.solver.policies.knowledge import Memory, knowledge
from sushigo.solver.policies.lookahead import LookaheadPolicy
from sushigo.spec.cards import Token
from sushigo.spec.policies import PlayerView
from sushigo.spec.turns import Turn

__all__ = ["ExactPolicy"]

_PUD = int(Token.PUDDING)


class ExactPolicy:
    """``exact:fallback=ismcts|lookahead,depth=N,solve_time=S,nodes=N,objective=game|round`` plus the
    fallback's ``iterations``/``time``/``rollout`` (docs/policies.md)."""

    def __init__(self, name: str, iterations: int | None, seconds: float | None, rollout: str, fallback: str,
                 solve_time: float, nodes: int, objective: str, depth: int,
                 rounds: str = "all") -> None:
        self.name = name
        self.solve_time = solve_time
        self.nodes = nodes
        self.objective = objective
        self.depth = depth
        self.rounds = rounds
        self.memories: dict[int, Memory] = {}
        self.fallback: IsmctsPolicy | LookaheadPolicy = (
            IsmctsPolicy(name, iterations, seconds, rollout) if fallback == "ismcts"
            else LookaheadPolicy(name))
        self.solved = 0  # moves played from the endgame's equilibrium
        self.fallen_back = 0  # moves before both hands were known, or with more cards than depth
        self.out_of_budget = 0  # moves where the solver said unknown (the fallback played)
        self.margin = 0  # last-round moves in a round already lost, played for the margin

    @property
    def fallbacks(self) -> int:
        """Moves the fallback played for want of the solver's answer (out of its budget)."""
        return self.out_of_budget

    def choose(self, view: PlayerView, options: Sequence[Turn], rng: random.Random) -> Turn:
        mem = self.memories.get(view.seat)
        if mem is None:
            mem = self.memories[view.seat] = Memory()
        mem.see(view)
        if len(options) == 1:
            self.fallback.memory(view)  # the fallback's memory of the game stays whole
            return options[0]
        turn = self._solved(view, mem, options, rng)
        if turn is not None:
            self.solved += 1
            self.fallback.memory(view)
            return turn
        return self.fallback.choose(view, options, rng)

    def _solved(
        self, view: PlayerView, mem: Memory, options: Sequence[Turn], rng: random.Random
    ) -> Turn | None:
        rules = view.rules
        last = view.round_index + 1 == rules.rounds
        if (rules.dummy_2p or view.for_dummy or sum(view.hand) > self.depth
                or (self.rounds == "last" and not last and view.players == 2)):
            self.fallen_back += 1
            return None
        known = knowledge(view, mem, rules.pass_offset(view.round_index))
        if any(h is None for h in known.hands):
            self.fallen_back += 1
            return None
        from sushigo.solver.endgame import Position, solve_multi, solve_two
        from sushigo.solver.policies.carry import solve_carry

        n, s = view.players, view.seat
        order = [(s + k) % n for k in range(n)]  # the seat is the solver's player 0
        kept = [p - t[_PUD] for p, t in zip(view.puddings, view.tableaux, strict=True)]
        before = [sum(col) for col in zip(*view.scores, strict=True)] if view.scores else [0] * n
        hands = [known.hands[j] for j in order]
        pos = Position(
            rules=rules, round=view.round_index + 1,
            hands=tuple(h for h in hands if h is not None),
            taken=tuple(() for _ in order),
            tableaux=tuple(view.tableaux[j] for j in order),
            puddings=tuple(kept[j] for j in order),
            scores=tuple(before[j] for j in order),
        )
        if n == 2 and self.objective == "round":
            result = solve_two(pos, "diff", self.nodes, self.solve_time)
        elif n == 2 and not last:
            result = solve_carry(pos, self.nodes, self.solve_time)  # puddings by the race to come
        elif n == 2:
            result = solve_two(pos, "win", self.nodes, self.solve_time)
            if result.status == "solved" and result.value == -1:
                # Lost whatever is played: the margin (its points less the other's) instead of a
                # chance of winning that is 0 everywhere.
                result = solve_two(pos, "diff", self.nodes, self.solve_time)
                self.margin += result.status == "solved"
        else:
            result = solve_multi(pos, None, self.nodes, self.solve_time)
        if result.status != "solved" or not result.mix:
            self.out_of_budget += 1
            return None
        pick = _sample(result.mix, rng)
        for option in options:
            if option == pick:
                return option
        # the solver's turn in another order (a chopsticks pair): the same outcome
        for option in options:
            if sorted(map(str, option)) == sorted(map(str, pick)):
                return option
        raise AssertionError(f"the endgame's pick {pick} is not among the legal turns")


def _sample(mix: Sequence[tuple[Turn, Any]], rng: random.Random) -> Turn:
    """One turn of the mixed strategy: exact probabilities, one draw from the generator."""
    if len(mix) == 1:
        return mix[0][0]
    u = Fraction(rng.random())
    acc = Fraction(0)
    for turn, p in mix:
        acc += Fraction(p)
        if u < acc:
            return turn
    return mix[-1][0]
