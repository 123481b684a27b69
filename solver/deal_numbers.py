"""``diff`` for the rule numbers that shape the deal (deck, hand sizes, rounds, the dummy's hands).

A scoring number (points, set sizes, the tables) changes how a table scores, and ``diff``'s table
search finds its witness like a scoring reading's. A deal number changes which games exist: the
smallest situation where two rulesets differ is then one that one ruleset deals and the other
cannot (a hand of 10 cards where the other deals 9, a sixth squid where the deck holds five, a
third round where the game ends after two). That situation is read off the two rulesets' numbers
directly: no solver is needed, and none is asked. Where a deal number cannot matter (the dummy's
hand size when neither ruleset plays the dummy variant) the answer is a structural proof with that
reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sushigo.spec.kinds import KINDS
from sushigo.spec.ruleset import NUMBER_BY_NAME, Effect, Ruleset

__all__ = ["DEAL_NUMBERS", "deal_number_witness"]

#: The rule numbers whose effect is the deal, from the numbers' table (spec.ruleset.NUMBERS).
DEAL_NUMBERS: tuple[str, ...] = tuple(n for n, p in NUMBER_BY_NAME.items() if p.effect is Effect.DEAL)


def _players(a: Ruleset, b: Ruleset, prange: Sequence[int]) -> list[int]:
    """The asked player counts both rulesets deal (the dummy variant: two players)."""
    def deals(r: Ruleset, n: int) -> bool:
        return n == r.min_players if r.dummy_2p else any(m == n for m, _ in r.hand_sizes)

    return [n for n in prange if deals(a, n) and deals(b, n)]


def deal_number_witness(
    a: Ruleset, b: Ruleset, name: str, prange: Sequence[int]
) -> tuple[Any, tuple[Any, ...]]:
    """(witness, proofs) for the deal number ``name`` that differs between ``a`` and ``b``: the smallest
    situation one ruleset deals and the other cannot, or (None, a structural proof) where the
    difference cannot change any game asked about."""
    from sushigo.solver.diff.results import Proof, Row, Witness  # diff imports this module

    number = NUMBER_BY_NAME[name]
    players = _players(a, b, prange)
    if not players:
        return None, tuple(Proof(n, -1, "not-applicable", "structural", "not played under both rulesets")
                           for n in prange)
    n = players[0]
    rows: list[Row] = []
    summary = ""
    cards = 0
    situation: dict[str, Any] = {"number": name}
    if name == "hand_sizes" or (name == "dummy_hand_size" and (a.dummy_2p or b.dummy_2p)):
        differ = [m for m in players if a.hand_size(m) != b.hand_size(m)]
        if not differ:
            return None, (Proof(n, -1, "unsat", "structural",
                                f"{name} differs only for player counts not asked for"),)
        n = differ[0]
        sa, sb = a.hand_size(n), b.hand_size(n)
        cards = max(sa, sb)
        rows = [Row(f"cards dealt to each hand ({n} players)", str(sa), str(sb))]
        summary = f"{n} players: a hand of {cards} cards, which only {'a' if sa > sb else 'b'} deals"
        situation.update(players=n, hand_size={"a": sa, "b": sb})
    elif name == "dummy_hand_size":
        return None, (Proof(n, -1, "unsat", "structural",
                            "dummy_hand_size is read only by the dummy-2p variant, which neither ruleset "
                            "plays"),)
    elif name == "rounds":
        ra, rb = a.rounds, b.rounds
        cards = a.hand_size(n) * a.seats(n) * min(ra, rb)
        rows = [Row("rounds in a game", str(ra), str(rb)),
                Row(f"puddings scored after round {min(ra, rb)}", "no" if ra > rb else "yes",
                    "no" if rb > ra else "yes")]
        summary = (f"{n} players: after round {min(ra, rb)} the game ends under "
                   f"{'b' if ra > rb else 'a'} (puddings score) and goes on under {'a' if ra > rb else 'b'}")
        situation.update(players=n, rounds={"a": ra, "b": rb})
    elif name == "deck":
        kinds = [i for i in range(len(KINDS)) if a.deck[i] != b.deck[i]]
        i = min(kinds, key=lambda k: (min(a.deck[k], b.deck[k]), k))
        ca, cb = a.deck[i], b.deck[i]
        cards = min(ca, cb) + 1
        kind = KINDS[i].name
        rows = [Row(f"copies of {kind} in the deck", str(ca), str(cb)),
                Row(f"a game dealing {cards} {kind}", "yes" if ca >= cards else "no",
                    "yes" if cb >= cards else "no")]
        summary = f"{n} players: a game dealing {cards} {kind}, which only {'a' if ca > cb else 'b'} holds"
        situation.update(players=n, kind=kind, copies={"a": ca, "b": cb})
    else:  # pragma: no cover - a new deal number must say here what its smallest situation is
        raise AssertionError(f"deal number {name!r} has no witness")
    witness = Witness("deal", n, cards, (name,), number.rule_ids, situation, tuple(rows), (),
                      summary=summary)
    return witness, ()
