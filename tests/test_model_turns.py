"""One turn in the Z3 turn model allows exactly the turns spec.turns allows.

For random small hands and tableaux, every solution of the model's turn
constraints (first pick token, second pick token) is enumerated and compared
with spec.turns.legal_turns resolved by spec.turns.resolve_turn.
"""

from __future__ import annotations

import z3
from hypothesis import given, settings
from hypothesis import strategies as st
from sushigo.spec.cards import Card, Token
from sushigo.spec.model.core import Model
from sushigo.spec.model.turns import seat_turn
from sushigo.spec.ruleset import OFFICIAL, Ruleset
from sushigo.spec.turns import legal_turns, resolve_turn

RULES = {
    "official": OFFICIAL,
    "optional": OFFICIAL.replace(wasabi_placement="optional"),
    "strict": OFFICIAL.replace(wasabi_same_turn=False),
    "optional-strict": OFFICIAL.replace(wasabi_placement="optional", wasabi_same_turn=False),
}
# Cards whose rules interact within a turn, plus one plain card.
KINDS = [Card.WASABI, Card.CHOPSTICKS, Card.EGG, Card.SQUID, Card.TEMPURA]

Outcome = tuple[Token, Token | None]


def model_outcomes(hand: list[int], tab: list[int], rules: Ruleset) -> set[Outcome]:
    m = Model()
    st_, _, _ = seat_turn(m, rules, "p0_r0_t0", [z3.IntVal(x) for x in hand], [z3.IntVal(x) for x in tab])
    s = m.solver()
    out: set[Outcome] = set()
    while s.check() == z3.sat:
        mod = s.model()
        a = [mod.eval(v, model_completion=True).as_long() for v in st_.first]
        b = [mod.eval(v, model_completion=True).as_long() for v in st_.second]
        first = Token(a.index(1))
        second = Token(b.index(1)) if sum(b) == 1 else None
        assert sum(b) <= 1
        out.add((first, second))
        s.add(z3.Or(*[v != k for v, k in zip(st_.first + st_.second, a + b, strict=True)]))
    return out


def rule_outcomes(hand: list[int], tab: list[int], rules: Ruleset) -> set[Outcome]:
    out: set[Outcome] = set()
    for turn in legal_turns(hand, tab, rules, dedupe=False):
        tokens = resolve_turn(hand, tab, turn, rules).tokens
        out.add((tokens[0], tokens[1] if len(tokens) == 2 else None))
    return out


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(sorted(RULES)),
    st.lists(st.sampled_from(KINDS), min_size=1, max_size=4),
    st.integers(0, 2),
    st.integers(0, 1),
    st.integers(0, 1),
)
def test_turn_model_matches_legal_turns(
    name: str, cards: list[Card], wasabi: int, chop: int, stack: int
) -> None:
    rules = RULES[name]
    hand = [0] * len(Card)
    for c in cards:
        hand[int(c)] += 1
    tab = [0] * len(Token)
    tab[int(Token.WASABI)] = wasabi
    tab[int(Token.CHOPSTICKS)] = chop
    tab[int(Token.WASABI_SALMON)] = stack  # a used wasabi is not free
    assert model_outcomes(hand, tab, rules) == rule_outcomes(hand, tab, rules)
