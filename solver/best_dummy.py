"""Form 2 of ``sushigo best`` under the dummy-2p variant, by exhaustive search.

The question: in a recorded dummy-2p round, what could seat K (0 or 1) have
scored if K's own turns and the cards K gave the dummy on K's controller turns
were free, while the other player's turns and the cards the other player gave
the dummy stay as recorded (and must stay legal)?

Engine: ``search``. The turn order is the executor's (:mod:`spec.executor`):
on turn ``t`` player ``t % 2`` draws the dummy pile's ``t``-th card, takes
their turn (chopsticks only with at least 3 cards in hand), gives the dummy one
card (the dummy never uses chopsticks; used chopsticks rejoin the hand after
the gift), the other player takes a normal turn, and the two hands are swapped.
Every choice of seat K is enumerated with :func:`spec.turns.legal_turns`; the
other player's recorded turn is checked with :func:`spec.turns.resolve_turn`
against the hand it now holds, and a line where it became illegal is dropped.
The maki ranking involves the dummy's tableau, which K's gifts change, so the
value of a state is the best final score of K from it (no additive shortcut);
states are memoised on (turn, both hands, K's and the dummy's tableaux). The
other player's tableau is fixed by their recorded turns. The found line is
replayed through the same turn rules and its score checked before it is shown.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sushigo.solver.search import STATUS_OPTIMAL, BestResult, check_deck, hand_from_json
from sushigo.spec.cards import Card, Token, parse_card
from sushigo.spec.errors import IllegalMoveError, InputError
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import round_totals
from sushigo.spec.turns import Pick, Turn, apply_turn, legal_turns, parse_turn, resolve_turn

DUMMY = 2
_CHOP = int(Card.CHOPSTICKS)
N_CARDS = len(Card)
N_TOKENS = len(Token)


@dataclass(frozen=True)
class DummyHindsight:
    """A recorded dummy-2p round: deal (the dummy pile in draw order), turns[t][seat], the seat asked."""

    hands: tuple[tuple[int, ...], tuple[int, ...]]  # players' dealt hands, 12 counts each
    pile: tuple[int, ...]  # the dummy pile, top card first (Card values)
    turns: tuple[tuple[Turn, Turn, Turn], ...]  # per turn: player 0, player 1, the gift to the dummy
    seat: int
    rules: Ruleset
    round_index: int = 0


def _step(
    rules: Ruleset, t: int, hands: list[list[int]], tabs: list[list[int]], pile: Sequence[int],
    own: Sequence[tuple[Pick, ...]], gift: tuple[Pick, ...],
) -> None:
    """One turn, in place, exactly as the executor plays it; IllegalMoveError on a bad step."""
    ctrl = t % 2
    for s in range(2):
        hand, tab = hands[s], tabs[s]
        if s == ctrl:
            hand[pile[t]] += 1
        res = resolve_turn(hand, tab, own[s], rules)
        if s == ctrl and res.chopsticks and sum(hand) < 3:
            raise IllegalMoveError(
                f"turn {t + 1}: chopsticks with {sum(hand)} cards leave none for the dummy (R-DUMMY)")
        apply_turn(hand, tab, own[s], rules)
        if s == ctrl:
            hand[_CHOP] -= int(res.chopsticks)
            if len(gift) != 1:
                raise IllegalMoveError(f"turn {t + 1}: the dummy takes exactly one card (R-DUMMY)")
            resolve_turn(hand, tabs[DUMMY], gift, rules)
            apply_turn(hand, tabs[DUMMY], gift, rules)
            hand[_CHOP] += int(res.chopsticks)
    hands[0], hands[1] = hands[1], hands[0]


def replay_dummy(h: DummyHindsight, mine: Sequence[tuple[Turn, Turn | None]]) -> list[int]:
    """Play the round with seat K's (turn, gift or None) replaced; the three round totals."""
    hands = [list(h.hands[0]), list(h.hands[1])]
    tabs = [[0] * N_TOKENS for _ in range(3)]
    for t, rec in enumerate(h.turns):
        own = [rec[0], rec[1]]
        own[h.seat] = mine[t][0]
        gift = rec[2]
        if t % 2 == h.seat:
            g = mine[t][1]
            assert g is not None
            gift = g
        _step(h.rules, t, hands, tabs, h.pile, own, gift)
    return list(round_totals(tabs, h.rules))


def _gifts(hand: Sequence[int], dummy_tab: Sequence[int], rules: Ruleset) -> list[Turn]:
    stub = list(dummy_tab)
    stub[_CHOP] = 0  # the dummy never uses chopsticks
    return [g for g in legal_turns(hand, stub, rules) if len(g) == 1]


def solve_dummy_hindsight(h: DummyHindsight) -> BestResult:
    start = time.perf_counter()
    rules, k = h.rules, h.seat
    size = len(h.turns)
    memo: dict[tuple[Any, ...], tuple[int, tuple[Turn, Turn | None] | None]] = {}

    def best(t: int, hands: list[list[int]], tabs: list[list[int]]) -> int:
        if t == size:
            return round_totals(tabs, rules)[k]
        key = (t, tuple(hands[0]), tuple(hands[1]), tuple(tabs[k]), tuple(tabs[DUMMY]))
        hit = memo.get(key)
        if hit is not None:
            return hit[0]
        ctrl = t % 2
        hand = list(hands[k])
        if ctrl == k:
            hand[h.pile[t]] += 1
        options = legal_turns(hand, tabs[k], rules)
        if ctrl == k and sum(hand) < 3:
            options = [o for o in options if len(o) == 1]
        value, choice = -1, None
        for turn in options:
            gifts: list[Turn | None] = [None]
            if ctrl == k:
                after = list(hand)
                after_tab = list(tabs[k])
                used = len(turn) == 2
                apply_turn(after, after_tab, turn, rules)
                after[_CHOP] -= int(used)
                gifts = list(_gifts(after, tabs[DUMMY], rules))
            for gift in gifts:
                own: list[tuple[Pick, ...]] = [(), ()]  # both seats filled below
                own[k] = turn
                own[1 - k] = h.turns[t][1 - k]
                g = gift if gift is not None else h.turns[t][2]
                nh = [list(hands[0]), list(hands[1])]
                nt = [list(x) for x in tabs]
                try:
                    _step(rules, t, nh, nt, h.pile, own, g)
                except IllegalMoveError:
                    continue  # the other player's recorded pick (or gift) is no longer possible
                v = best(t + 1, nh, nt)
                if v > value:
                    value, choice = v, (turn, gift)
        memo[key] = (value, choice)
        return value

    hands0 = [list(h.hands[0]), list(h.hands[1])]
    tabs0 = [[0] * N_TOKENS for _ in range(3)]
    score = best(0, hands0, tabs0)
    if score < 0:
        raise IllegalMoveError(
            "no line keeps the other player's recorded picks legal (the record is inconsistent)")
    # Walk the memo along the chosen line.
    line: list[tuple[Turn, Turn | None]] = []
    hands, tabs = hands0, tabs0
    for t in range(size):
        key = (t, tuple(hands[0]), tuple(hands[1]), tuple(tabs[k]), tuple(tabs[DUMMY]))
        choice = memo[key][1]
        assert choice is not None
        line.append(choice)
        own: list[tuple[Pick, ...]] = [(), ()]  # both seats filled below
        own[k] = choice[0]
        own[1 - k] = h.turns[t][1 - k]
        gift = choice[1] if choice[1] is not None else h.turns[t][2]
        _step(rules, t, hands, tabs, h.pile, own, gift)
    totals = replay_dummy(h, line)
    assert totals[k] == score, f"search line replays to {totals[k]}, not {score}"
    actual = replay_dummy(h, [(rec[k], rec[2] if t % 2 == k else None) for t, rec in enumerate(h.turns)])[k]
    gifts_json = [None if g is None else [p.card.label for p in g] for _, g in line]
    return BestResult(score, tuple(turn for turn, _ in line), STATUS_OPTIMAL, "search",
                      time.perf_counter() - start,
                      extra={"actual": actual, "engine": "search", "gifts": gifts_json},
                      stats={"states": len(memo)})


def make_dummy_hindsight(
    hands: Sequence[Sequence[str]], turns: Sequence[Sequence[object]], seat: int, rules: Ruleset,
    round_index: int, where: str,
) -> DummyHindsight:
    """Validate a dummy-2p round (card names per seat, dummy pile top first; turns[t][seat])."""
    if len(hands) != 3:
        raise InputError(
            f"{where}: dummy-2p has 3 hands (player 0, player 1, the dummy pile), got {len(hands)}")
    if seat not in (0, 1):
        raise InputError(
            f"seat {seat} does not exist; dummy-2p players are 0 and 1 (the dummy is not a player)")
    size = rules.hand_size(2)
    counts = [hand_from_json(list(x), f"{where}, hand of seat {i}") for i, x in enumerate(hands)]
    for i, c in enumerate(counts):
        if sum(c) != size:
            raise InputError(f"{where}: seat {i} was dealt {sum(c)} cards; dummy-2p deals {size} each")
    check_deck(counts, rules, "the deal")
    if len(turns) != size or any(not isinstance(x, list | tuple) or len(x) != 3 for x in turns):
        raise InputError(f'{where}: "turns" must be {size} turns of [player 0, player 1, dummy] picks')
    parsed: list[tuple[Turn, Turn, Turn]] = []
    for t, row in enumerate(turns):
        cells = []
        for s, cell in enumerate(row):
            if not isinstance(cell, list | str):
                raise InputError(
                    f"{where}, turn {t + 1}, seat {s}: expected a list of card names, got {cell!r}")
            cells.append(parse_turn(cell))
        parsed.append((cells[0], cells[1], cells[2]))
    h = DummyHindsight((counts[0], counts[1]), tuple(int(parse_card(str(c))) for c in hands[2]),
                       tuple(parsed), seat, rules, round_index)
    try:
        replay_dummy(h, [(rec[seat], rec[2] if t % 2 == seat else None) for t, rec in enumerate(h.turns)])
    except IllegalMoveError as exc:
        raise InputError(f"{where}: the recorded round is not legal: {exc}") from exc
    return h


def dummy_hindsight_from_json(data: dict[str, Any], round_number: int | None, seat: int | None,
                              rules: Ruleset) -> DummyHindsight:
    """From a game record (``rounds``; --round and --seat) or a round JSON (``deal``, ``turns``, ``seat``)."""
    if round_number is not None:
        rounds = data.get("rounds")
        if not isinstance(rounds, list) or not rounds:
            raise InputError('the game record has no "rounds"')
        assert seat is not None
        if not 1 <= round_number <= len(rounds):
            raise InputError(f"--round {round_number}: the record has rounds 1..{len(rounds)}")
        rnd = rounds[round_number - 1]
        if not isinstance(rnd, dict) or not isinstance(rnd.get("hands"), list) or \
                not isinstance(rnd.get("turns"), list):
            raise InputError(f'round {round_number} of the record needs "hands" and "turns" lists')
        return make_dummy_hindsight(rnd["hands"], rnd["turns"], seat, rules, round_number - 1,
                                    f"round {round_number}")
    deal, turns, k = data.get("deal"), data.get("turns"), data.get("seat")
    if not isinstance(deal, list) or not all(isinstance(x, list) for x in deal):
        raise InputError(
            '"deal" must list 3 hands of card names (player 0, player 1, the dummy pile top first)')
    if not isinstance(turns, list):
        raise InputError('dummy-2p rounds give "turns": turns[t] = [player 0, player 1, dummy] picks')
    if not isinstance(k, int) or isinstance(k, bool):
        raise InputError(f'"seat" must be 0 or 1, got {k!r}')
    rnd_no = data.get("round", 1)
    if not isinstance(rnd_no, int) or isinstance(rnd_no, bool) or rnd_no < 1:
        raise InputError(f'"round" must be a round number from 1, got {rnd_no!r}')
    return make_dummy_hindsight(deal, turns, k, rules, rnd_no - 1, "the round")
