"""Z3 certificates of a first pick's pure guarantee."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sushigo.solver.endgame.position import N_CARDS, Position
from sushigo.solver.endgame.state import _CHOP, _PUD, _WAS
from sushigo.spec.answer import Answer, CertificateStatus
from sushigo.spec.cards import NIGIRI, STACKS, Card
from sushigo.spec.errors import InputError
from sushigo.spec.model.budget import Budget, decide
from sushigo.spec.turns import Turn


@dataclass(frozen=True)
class Certificate(Answer[CertificateStatus]):
    """What Z3 proved about one first pick's pure guarantee ``g`` (see :func:`certify_guarantee`).

    ``status`` is ``proved`` (both statements hold and ``g + 1`` is refuted),
    ``refuted`` (some statement is false: the search is wrong) or ``unknown``
    (the solver ran out of its resource limit).
    """

    turn: Turn
    guarantee: int
    status: CertificateStatus
    holds: bool | None  # player 0 can force >= g
    opponent_holds: bool | None  # the opponent can force <= g
    better_refuted: bool | None  # player 0 cannot force >= g + 1
    leaves: int  # distinct final tables scored by the Z3 model


_Opt = tuple[tuple[int, bool | None], ...]  # picks as (card, wasabi flag or None for automatic)


def certify_guarantee(
    pos: Position, turn: Turn, guarantee: int, objective: str = "diff", rlimit: int = 50_000_000
) -> Certificate:
    """Prove with Z3 that ``guarantee`` is exactly the pure maximin of the first pick ``turn``.

    For two players and at most 3 turns left. The remaining turns are encoded
    from the position with our own pick encoding (independent of
    :mod:`spec.turns`): per option a legality condition and the effect on the
    hand and the full tableau (wasabi by ``wasabi_placement`` and
    ``wasabi_same_turn``, chopsticks taken earlier, returned to the hand). The
    final scores are the terms of :mod:`spec.model.scoring` (round, pudding in
    the last round). The quantifiers of the alternating game (player 0 picks,
    the opponent answers knowing the pick, each turn) are expanded over the
    finite option sets: a universal choice becomes a conjunction guarded by its
    legality, an existential choice a fresh Z3 integer selecting one legal
    option (so a sat answer carries player 0's replies as a witness). Three
    statements are checked:

    * ``holds``: after ``turn``, player 0 can force a payoff >= g;
    * ``opponent_holds``: the opponent can force a payoff <= g;
    * ``better_refuted``: player 0 cannot force >= g + 1 (unsat).
    """
    import z3
    from sushigo.spec.model.core import Model
    from sushigo.spec.model.scoring import pudding_terms, round_terms

    if pos.players != 2:
        raise InputError("certification is for 2 players")
    if pos.cards_left > 3:
        raise InputError(f"certification covers positions of up to 3 turns, not {pos.cards_left}")
    if objective not in ("diff", "own"):
        raise InputError("certification covers the diff and own objectives")
    rules = pos.rules
    optional = rules.wasabi_placement == "optional"
    nigiri = {int(c) for c in NIGIRI}
    stack_of = {int(c): int(t) for c, t in zip(NIGIRI, STACKS, strict=True)}
    Terms = list[Any]

    def options(hand: Sequence[int]) -> list[_Opt]:
        # Every card kind in the hand and every ordered pair; legality is left to Z3 (see ``step``).
        cards = [c for c in range(N_CARDS) if hand[c] > 0]
        flags: dict[int, list[bool | None]] = {c: ([True, False] if optional and c in nigiri else [None])
                                               for c in cards}
        singles: list[_Opt] = [((c, f),) for c in cards for f in flags[c]]
        pairs: list[_Opt] = [((c1, f1), (c2, f2)) for c1 in cards for f1 in flags[c1]
                             for c2 in cards for f2 in flags[c2]]
        return singles + pairs

    def effect(hand: Terms, tab: Terms, opt: _Opt) -> tuple[Any, Terms, Terms]:
        h, t = list(hand), list(tab)
        legal = []
        if len(opt) == 2:
            legal.append(tab[_CHOP] >= 1)  # R-CHOPSTICKS-EARLIER: counted at the start of the turn
        free = tab[_WAS]
        for c, flag in opt:
            legal.append(h[c] >= 1)  # R-PICK
            h[c] = h[c] - 1
            if c in nigiri:
                if flag is None:
                    on = free >= 1  # R-WASABI-PLACE (automatic)
                else:
                    on = z3.BoolVal(flag)
                    if flag:
                        legal.append(free >= 1)  # R-WASABI-ONE
                st = stack_of[c]
                t[st] = t[st] + z3.If(on, 1, 0)
                t[c] = t[c] + z3.If(on, 0, 1)
                t[_WAS] = t[_WAS] - z3.If(on, 1, 0)
                free = free - z3.If(on, 1, 0)
            else:
                t[c] = t[c] + 1
                if c == int(Card.WASABI) and rules.wasabi_same_turn:
                    free = free + 1  # R-WASABI-SAME-TURN
        if len(opt) == 2:
            t[_CHOP] = t[_CHOP] - 1  # R-CHOPSTICKS-RETURN
            h[int(Card.CHOPSTICKS)] = h[int(Card.CHOPSTICKS)] + 1
        return z3.And(*legal), h, t

    State = tuple[int, ...]
    steps: dict[tuple[State, State, _Opt], tuple[bool, State, State]] = {}

    def step(hand: State, tab: State, opt: _Opt) -> tuple[bool, State, State]:
        """Legality and effect of one option from a concrete state, evaluated by Z3's simplifier."""
        key = (hand, tab, opt)
        got = steps.get(key)
        if got is None:
            legal, h, t = effect([z3.IntVal(x) for x in hand], [z3.IntVal(x) for x in tab], opt)
            got = steps[key] = (
                z3.is_true(z3.simplify(legal)),
                tuple(z3.simplify(x).as_long() for x in h),
                tuple(z3.simplify(x).as_long() for x in t),
            )
        return got

    def legal_options(hand: State, tab: State) -> list[tuple[_Opt, State, State]]:
        # Options with the same effect are one choice; illegal ones are no choice.
        seen: set[tuple[State, State]] = set()
        out = []
        for o in options(hand):
            ok, nh, nt = step(hand, tab, o)
            if ok and (nh, nt) not in seen:
                seen.add((nh, nt))
                out.append((o, nh, nt))
        return out

    m = Model()
    leaves: dict[tuple[State, State], Any] = {}
    counter = itertools.count()

    def payoff(t0: State, t1: State) -> Any:
        # One scoring model per distinct final table; every leaf reaching it shares the term.
        key = (t0, t1)
        if key not in leaves:
            prefix = f"leaf{len(leaves)}"
            seats = round_terms(m, prefix, [[z3.IntVal(x) for x in t] for t in (t0, t1)], rules)
            tot = [pos.scores[p] + seats[p]["total"] for p in range(2)]
            if pos.final_round:
                puds = [z3.IntVal(pos.puddings[p] + (t0, t1)[p][_PUD]) for p in range(2)]
                pp = pudding_terms(m, prefix, puds, rules)
                tot = [tot[p] + pp[p] for p in range(2)]
            leaves[key] = tot[0] - tot[1] if objective == "diff" else tot[0]
        return leaves[key]

    nodes: dict[tuple[Any, ...], Any] = {}

    def game(h0: State, h1: State, t0: State, t1: State, first: _Opt | None, ok: Any,
             mover_exists: bool) -> Any:
        """The statement 'the side that must reach ``ok`` can' from this node.

        ``mover_exists``: player 0's choices are existential (the statements
        about player 0), else the opponent's are (the statement about the opponent).
        Nodes with the same state share one formula (and so one choice
        variable): the future depends on the state only, so a reply that works
        from a state works from every history that reaches it.
        """
        key = (id(ok), mover_exists, first, h0, h1, t0, t1)
        got = nodes.get(key)
        if got is None:
            got = nodes[key] = _game(h0, h1, t0, t1, first, ok, mover_exists)
        return got

    def _game(h0: State, h1: State, t0: State, t1: State, first: _Opt | None, ok: Any,
              mover_exists: bool) -> Any:
        if not any(h0):
            return ok(payoff(t0, t1))
        if first is not None:
            legal, nh, nt = step(h0, t0, first)
            opts0 = [(first, nh, nt)] if legal else []
        else:
            opts0 = legal_options(h0, t0)
        opts1 = legal_options(h1, t1)
        branches0 = []
        for _, nh0, nt0 in opts0:
            # The hands change owners after the turn (two players: left and right agree).
            subs = [game(nh1, nh0, nt0, nt1, None, ok, mover_exists) for _, nh1, nt1 in opts1]
            branches0.append(_choose(subs, not mover_exists))
        if first is not None:
            return branches0[0] if branches0 else z3.BoolVal(False)
        return _choose(branches0, mover_exists)

    def _choose(subs: list[Any], exists: bool) -> Any:
        # An existential choice is a fresh integer naming the option taken (the witness).
        if exists:
            pick = z3.Int(f"choice{next(counter)}")
            if not subs:
                return z3.BoolVal(False)
            return z3.Or(*[z3.And(pick == i, sub) for i, sub in enumerate(subs)])
        return z3.And(*subs)

    first_opt: _Opt = tuple((int(p.card), p.wasabi if optional else None) for p in turn)
    start_hands = pos.hands
    start_tabs = pos.tableaux

    def check(statement: Any) -> bool | None:
        s = z3.Solver()
        s.add(*m.constraints())
        s.add(statement)
        answer = decide(s, Budget(rlimit=rlimit))
        return None if answer.unknown else answer.sat

    def statement(ok: Any, mover_exists: bool) -> Any:
        return game(start_hands[0], start_hands[1], start_tabs[0], start_tabs[1], first_opt, ok, mover_exists)

    def at_least(v: Any) -> Any:
        return v >= guarantee

    def above(v: Any) -> Any:
        return v >= guarantee + 1

    def at_most(v: Any) -> Any:
        return v <= guarantee

    holds = check(statement(at_least, True))
    better = check(statement(above, True))
    opp = check(statement(at_most, False))
    status: CertificateStatus
    if None in (holds, better, opp):
        status = "unknown"
    elif holds and opp and better is False:
        status = "proved"
    else:
        status = "refuted"
    refuted = None if better is None else not better
    return Certificate(turn, guarantee, status, holds, opp, refuted, len(leaves))
