"""The turns of one round as Z3 constraints: hands held, cards taken, passing.

Per seat ``i``, round ``r`` (from 0) and turn ``t`` (from 0) the model holds

* ``p{i}_r{r}_t{t}_hand_{card}``: the hand held at the start of the turn (12 counts);
* ``p{i}_r{r}_t{t}_pick_{token}``: the first card taken, one-hot over the 15
  tokens, where ``pick_wasabi_squid`` means "took a squid and laid it on a free
  wasabi" and ``pick_squid`` a plain squid;
* ``p{i}_r{r}_t{t}_pick2_{token}``: the cards taken with chopsticks after the
  first (a count vector whose sum is the number of chopsticks uses);
* ``p{i}_r{r}_t{t}_chopsticks``: chopsticks uses this turn;
* ``p{i}_r{r}_t{t}_tab_{token}``: the tableau at the start of turn ``t``
  (``t`` = hand size is the final tableau; before the first turn it is empty).

Encoding the wasabi placement in the pick token keeps every rule linear: no
product of a placement flag and a card indicator is needed. Derived counts
(hands after the deal, tableaux) carry no domain bounds of their own, so that
an impossible record is blamed on the rule it breaks (R-PICK,
R-CHOPSTICKS-EARLIER...) and not on a variable's range.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3
from sushigo.spec.cards import NIGIRI, STACK_OF, Card, Token
from sushigo.spec.model.core import Model, mk_eq, mk_ge, mk_if, mk_implies, mk_le, mk_sub, mk_sum
from sushigo.spec.model.rulevars import Rules, RuleVars
from sushigo.spec.model.scoring import TOKEN_NAMES

CARD_NAMES = [c.label for c in Card]
_W = int(Token.WASABI)
_CHOP = int(Token.CHOPSTICKS)
_NIGIRI = [int(c) for c in NIGIRI]
_STACK = {int(c): int(t) for c, t in STACK_OF.items()}
_STACKS = list(_STACK.values())


@dataclass
class SeatTurn:
    """The symbolic state and choice of one seat at one turn."""

    name: str  # "p{i}_r{r}_t{t}"
    hand: list[z3.ArithRef]  # 12, by Card
    tableau: list[z3.ArithRef]  # 15, by Token, at the start of the turn
    first: list[z3.ArithRef]  # 15, one-hot
    second: list[z3.ArithRef]  # 15, counts; sum = chopsticks uses
    uses: z3.ArithRef
    free: z3.ArithRef  # free wasabi before the first pick
    free_mid: z3.ArithRef  # free wasabi before the second pick (as the ruleset counts them)

    def taken(self, card: Card, second: bool = False) -> z3.ArithRef:
        """How many ``card`` this pick takes (plain or laid on a wasabi)."""
        v = self.second if second else self.first
        return _card_taken(v, int(card))


@dataclass
class RoundModel:
    index: int
    seats: int
    hand_size: int
    pass_left: z3.BoolRef  # r{r}_pass_left: seat i gives to seat i+1
    turns: list[list[SeatTurn]] = field(default_factory=list)  # [t][seat]
    final: list[list[z3.ArithRef]] = field(default_factory=list)  # [seat] 15 token counts
    draws: list[list[z3.ArithRef]] = field(default_factory=list)  # dummy-2p: [t] 12, the card drawn
    deal: list[list[z3.ArithRef]] = field(default_factory=list)  # [seat] 12, as dealt


def _card_taken(v: list[z3.ArithRef], c: int) -> z3.ArithRef:
    return mk_sum([v[c], v[_STACK[c]]]) if c in _STACK else v[c]


def seat_turn(
    m: Model, rules: Rules, name: str, h: list[z3.ArithRef], tab: list[z3.ArithRef], chopsticks: bool = True
) -> tuple[SeatTurn, list[z3.ArithRef], list[z3.ArithRef]]:
    """One seat's turn on hand ``h`` and tableau ``tab``: (the turn, the tableau after, the cards left).

    The cards left do not yet include the used chopsticks (they are returned by
    the caller, after a dummy's card is chosen in dummy-2p).
    """
    a = [m.int(f"{name}_pick_{tn}", 0) for tn in TOKEN_NAMES]
    b = [m.int(f"{name}_pick2_{tn}", 0) for tn in TOKEN_NAMES]
    u = m.int(f"{name}_chopsticks", 0)
    xs = [_card_taken(a, c) for c in range(len(Card))]
    ys = [_card_taken(b, c) for c in range(len(Card))]
    # Terms go straight through the C API (spec.model.core.mk_*): the same terms as the
    # operators build, a turn's worth of them without the z3py overhead (most of a game's build).
    m.add("R-PICK", [mk_eq(mk_sum(a), 1), mk_eq(mk_sum(b), u),
                     *[mk_le(mk_sum([xs[c], ys[c]]), h[c]) for c in range(len(Card))]], name)
    if chopsticks:
        m.add("R-CHOPSTICKS-ONCE", mk_le(u, 1), name)
        m.add("R-CHOPSTICKS-EARLIER", mk_implies(mk_ge(u, 1), mk_ge(tab[_CHOP], 1)), name)
    else:
        m.add("R-DUMMY", mk_eq(u, 0), name)  # the dummy takes exactly one card
    a_st = mk_sum([a[k] for k in _STACKS])
    b_st = mk_sum([b[k] for k in _STACKS])
    free = tab[_W]
    # A nigiri goes only on a wasabi already lying there, one per wasabi; the
    # physical bound lets a wasabi taken first this turn hold the second card.
    a_b_st = mk_sum([a_st, b_st])
    m.add("R-WASABI-ONE", [mk_le(a_st, free), mk_le(a_b_st, mk_sum([free, a[_W]]))], name)
    if isinstance(rules, RuleVars):
        # A template: each reading is an input, the constraint it adds holds when it is set.
        same = rules.flag("wasabi_same_turn", lambda r: r.wasabi_same_turn)
        free_mid = mk_if(same, mk_sum([mk_sub(free, a_st), a[_W]]), mk_sub(free, a_st))
        if chopsticks:
            m.add("R-WASABI-SAME-TURN", mk_implies(z3.Not(same), mk_le(a_b_st, free)), name)
        auto = rules.flag("wasabi_automatic", lambda r: r.wasabi_automatic)
        a_plain = mk_sum([a[c] for c in _NIGIRI])
        b_plain = mk_sum([b[c] for c in _NIGIRI])
        m.add("R-WASABI-PLACE", [mk_implies(z3.And(auto, mk_ge(free, 1)), mk_eq(a_plain, 0)),
                                 mk_implies(z3.And(auto, mk_ge(free_mid, 1)), mk_eq(b_plain, 0))], name)
    elif rules.wasabi_same_turn:
        free_mid = mk_sum([mk_sub(free, a_st), a[_W]])
    else:
        free_mid = mk_sub(free, a_st)
        if chopsticks:
            m.add("R-WASABI-SAME-TURN", mk_le(a_b_st, free), name)
    if not isinstance(rules, RuleVars) and rules.wasabi_automatic:
        a_plain = mk_sum([a[c] for c in _NIGIRI])
        b_plain = mk_sum([b[c] for c in _NIGIRI])
        m.add("R-WASABI-PLACE", [mk_implies(mk_ge(free, 1), mk_eq(a_plain, 0)),
                                 mk_implies(mk_ge(free_mid, 1), mk_eq(b_plain, 0))], name)
    st = SeatTurn(name, h, tab, a, b, u, free, free_mid)
    seat, rnd, t = name.split("_")
    nxt = f"{seat}_{rnd}_t{int(t[1:]) + 1}_tab"
    new = [m.int(f"{nxt}_{tn}", None) for tn in TOKEN_NAMES]
    added = [mk_sum([mk_sum([tab[k], a[k]]), b[k]]) for k in range(len(Token))]
    m.add("R-TABLEAU", [mk_eq(new[k], added[k]) for k in range(len(Token)) if k not in (_W, _CHOP)], name)
    m.add("R-TABLEAU", mk_eq(new[_W], mk_sub(mk_sub(added[_W], a_st), b_st)), name)
    m.add("R-CHOPSTICKS-RETURN", mk_eq(new[_CHOP], mk_sub(added[_CHOP], u)), name)
    left = [mk_sub(mk_sub(h[c], xs[c]), ys[c]) for c in range(len(Card))]
    return st, new, left


def build_round(m: Model, rules: Rules, players: int, round_index: int = 0) -> RoundModel:
    """Add the turn rules of one round for ``players`` players to ``m``.

    The dealt hands are ``p{i}_r{r}_t0_hand_{card}`` (bounded by the deck's
    copies, each of the hand size: R-DEAL); the deck across rounds is
    :func:`spec.model.deal.deck_constraints`' job. In dummy-2p, seat 2 is the
    dummy: its pile is drawn in order (``p2_r{r}_t{t}_draw_{card}``, one card a
    turn into the hand of the controlling player, seat ``t % 2``), and
    ``p2_r{r}_t{t}_pick_{token}`` is the card that player gives it.
    """
    shape = rules.shape if isinstance(rules, RuleVars) else rules  # hand size, seats, dummy: the shape
    size = shape.hand_size(players)
    seats = shape.seats(players)
    n = players
    r = round_index
    pass_left = m.bool(f"r{r}_pass_left")
    # R-PASS pins the direction; the hand transfer below reads the Boolean, so a
    # record passed the wrong way is blamed on this one constraint.
    if isinstance(rules, RuleVars):
        m.add("R-PASS", pass_left == rules.flag(f"r{r}_pass_left", lambda x: x.pass_offset(r) == 1), f"r{r}")
    else:
        m.add("R-PASS", pass_left if rules.pass_offset(r) == 1 else z3.Not(pass_left), f"r{r}")
    rm = RoundModel(r, seats, size, pass_left)
    zero: list[z3.ArithRef] = [z3.IntVal(0)] * len(Token)
    tabs: list[list[z3.ArithRef]] = [list(zero) for _ in range(seats)]
    hands: list[list[z3.ArithRef]] = []
    for i in range(seats):
        if isinstance(rules, RuleVars):
            h = [m.int(f"p{i}_r{r}_t0_hand_{cn}", 0) for cn in CARD_NAMES]
            m.add("R-DOMAIN", [mk_le(v, rules.copies(c)) for c, v in enumerate(h)], f"p{i}_r{r} copies")
        else:
            h = [m.int(f"p{i}_r{r}_t0_hand_{cn}", 0, rules.copies(c))
                 for c, cn in zip(Card, CARD_NAMES, strict=True)]
        m.add("R-DEAL", mk_eq(mk_sum(h), size), f"p{i}_r{r}")
        hands.append(h)
    rm.deal = list(hands)
    draws: list[list[z3.ArithRef]] = []
    if shape.dummy_2p:
        d = n  # the dummy's seat
        draws = [[m.int(f"p{d}_r{r}_t{t}_draw_{cn}", 0) for cn in CARD_NAMES] for t in range(size)]
        m.add("R-DUMMY", [mk_eq(mk_sum(dr), 1) for dr in draws], f"p{d}_r{r}")
        rm.draws = draws
        # The pile, drawn top first, is the dummy's dealt hand.
        m.add("R-DUMMY", [mk_eq(hands[d][c], mk_sum([dr[c] for dr in draws])) for c in range(len(Card))],
              f"p{d}_r{r}")
    for t in range(size):
        row: list[SeatTurn] = []
        lefts: list[list[z3.ArithRef]] = []
        ctrl = t % 2 if shape.dummy_2p else -1
        gift: SeatTurn | None = None
        for i in range(n):
            name = f"p{i}_r{r}_t{t}"
            h = hands[i]
            if t > 0:
                m.add("R-HAND-SIZE", mk_eq(mk_sum(h), size - t), name)
            if i == ctrl:
                h = [mk_sum([h[c], draws[t][c]]) for c in range(len(Card))]
            st, new, left = seat_turn(m, rules, name, h, tabs[i])
            tabs[i] = new
            if i == ctrl:
                gift, tabs[n], left = seat_turn(m, rules, f"p{n}_r{r}_t{t}", left, tabs[n], chopsticks=False)
            left[_CHOP] = mk_sum([left[_CHOP], st.uses])
            row.append(st)
            lefts.append(left)
        if gift is not None:
            row.append(gift)
        rm.turns.append(row)
        if t == size - 1:
            for i in range(n):
                m.add("R-LAST-CARD", [mk_eq(x, 0) for x in lefts[i]], f"p{i}_r{r}")
            break
        new_hands = []
        for j in range(n):
            h = [m.int(f"p{j}_r{r}_t{t + 1}_hand_{cn}", None) for cn in CARD_NAMES]
            from_left, from_right = lefts[(j - 1) % n], lefts[(j + 1) % n]
            if n == 2:
                m.add("R-PASS", [mk_eq(h[c], from_left[c]) for c in range(len(Card)) if c != _CHOP],
                      f"p{j}_r{r}_t{t}")
                chop_in = from_left[_CHOP]
            else:
                m.add("R-PASS", [mk_eq(h[c], mk_if(pass_left, from_left[c], from_right[c]))
                                 for c in range(len(Card)) if c != _CHOP], f"p{j}_r{r}_t{t}")
                chop_in = mk_if(pass_left, from_left[_CHOP], from_right[_CHOP])
            m.add("R-CHOPSTICKS-RETURN", mk_eq(h[_CHOP], chop_in), f"p{j}_r{r}_t{t}")
            new_hands.append(h)
        hands = new_hands + hands[n:]
    rm.final = tabs
    for i in range(seats):
        for tn, v in zip(TOKEN_NAMES, tabs[i], strict=True):
            m.terms[f"p{i}_r{r}_final_{tn}"] = v
    return rm
