"""The endgame's move generation (``state._Rules.moves``) against the turn rules applied directly.

``_Rules`` runs ``legal_turns`` and ``apply_turn`` once per class of tableaux
(hand, chopsticks in front, free wasabi up to 2) and adds the recorded change
to each tableau of the class; the reduction is cached per tableau. Here every
move list is recomputed the plain way (each legal turn applied to the very
tableau, then reduced) for many tableaux sharing a class, under rulesets where
wasabi placement is automatic or optional and where a wasabi taken first
holds the nigiri taken second or not.
"""

from __future__ import annotations

import random

import pytest
from sushigo.solver.endgame.position import N_CARDS, N_TOKENS
from sushigo.solver.endgame.state import _Rules
from sushigo.solver.reduce import reduce_tableau
from sushigo.spec.cards import Card, Token
from sushigo.spec.ruleset import get_ruleset
from sushigo.spec.turns import apply_turn, legal_turns

_HANDS = (Card.SALMON, Card.SQUID, Card.EGG, Card.WASABI, Card.CHOPSTICKS, Card.TEMPURA, Card.MAKI2)


def _plain(
    hand: tuple[int, ...], tab: tuple[int, ...], rules_name: str, keep_pudding: bool
) -> list[tuple[object, ...]]:
    """(turn, hand left, reduced tableau, banked) of each distinct legal turn, computed from scratch."""
    rules = get_ruleset(rules_name)
    out, seen = [], set()
    for turn in legal_turns(hand, tab, rules):
        h, t = list(hand), list(tab)
        apply_turn(h, t, turn, rules)
        nt, gain = reduce_tableau(t, rules, keep_pudding)
        if (tuple(h), nt, gain) not in seen:
            seen.add((tuple(h), nt, gain))
            out.append((turn, tuple(h), nt, gain))
    return out


@pytest.mark.parametrize("rules_name", ["official", "wasabi-optional", "wasabi-strict", "slovenian"])
def test_moves_match_the_turn_rules_applied_to_each_tableau(rules_name: str) -> None:
    rng = random.Random(rules_name)
    for keep_pudding in (False, True):
        gen = _Rules(get_ruleset(rules_name), keep_pudding)  # one cache across every tableau below
        for _ in range(12):
            hand = [0] * N_CARDS
            for _ in range(rng.randint(1, 5)):
                hand[int(rng.choice(_HANDS))] += 1
            for _ in range(15):
                tab = [0] * N_TOKENS
                for tok in (Token.TEMPURA, Token.SASHIMI, Token.DUMPLING, Token.MAKI1, Token.PUDDING):
                    tab[int(tok)] = rng.randint(0, 3)
                tab[int(Token.WASABI)] = rng.randint(0, 3)  # free wasabi 0, 1, 2 and 3 share classes
                tab[int(Token.CHOPSTICKS)] = rng.randint(0, 2)
                got = [(m.turn, m.rest, m.tab, m.gain) for m in gen.moves(tuple(hand), tuple(tab))]
                assert got == _plain(tuple(hand), tuple(tab), rules_name, keep_pudding), (hand, tab)
