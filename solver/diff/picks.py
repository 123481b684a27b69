"""The pick search: the shortest sequence of one seat's turns that lands differently (wasabi readings)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from sushigo.solver.diff.results import Proof
from sushigo.spec.cards import NIGIRI, Card, Token
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import score_round
from sushigo.spec.tableau import Tableau
from sushigo.spec.turns import Pick, apply_turn, hand_counts

_PICK_CARD_BOUND = 4  # picks: sequences are enumerated up to this many cards


def _pick_variants(card: Card) -> list[Pick]:
    if card in NIGIRI:
        return [Pick(card, None), Pick(card, True), Pick(card, False)]
    return [Pick(card)]


def reachable(turns: Sequence[Sequence[Card]], rules: Ruleset) -> frozenset[Tableau]:
    """Final tableaux one seat can reach with these turns, by every allowed wasabi choice.

    Each turn is taken from a hand holding exactly its cards; chopsticks used
    go back into that hand (and leave the seat).
    """
    states: set[tuple[int, ...]] = {(0,) * len(Token)}
    for cards in turns:
        hand = hand_counts(cards)
        nxt: set[tuple[int, ...]] = set()
        for tab in states:
            for choice in itertools.product(*[_pick_variants(c) for c in cards]):
                turn: tuple[Pick, ...] = tuple(choice)
                new, h = list(tab), list(hand)
                try:
                    apply_turn(h, new, turn, rules)
                except ValueError:
                    continue
                nxt.add(tuple(new))
        states = nxt
    return frozenset(Tableau(s) for s in states)


def _seat_scores(tabs: frozenset[Tableau], rules: Ruleset) -> tuple[int, ...]:
    return tuple(sorted({score_round([t], rules)[0].total for t in tabs}))


def _turn_sequences(cards: int) -> Iterable[tuple[tuple[Card, ...], ...]]:
    """Every sequence of turns (one card, or two after a chopsticks turn) picking ``cards`` cards."""
    for shape in _compositions(cards):
        if shape[0] == 2:
            continue  # a first turn cannot use chopsticks (R-CHOPSTICKS-EARLIER): same under every ruleset
        pools = [itertools.product(Card, repeat=n) for n in shape]
        yield from itertools.product(*pools)


def _compositions(n: int) -> list[tuple[int, ...]]:
    if n == 0:
        return [()]
    out: list[tuple[int, ...]] = []
    for first in (1, 2):
        if first <= n:
            out.extend((first, *rest) for rest in _compositions(n - first))
    return out


def _within_deck(seq: Sequence[Sequence[Card]], rules: Ruleset) -> bool:
    counts = hand_counts([c for turn in seq for c in turn])
    return all(counts[int(c)] <= rules.copies(c) for c in Card)


def smallest_picks(
    rulesets: Sequence[Ruleset], pairs: Sequence[tuple[int, int]], max_cards: int = _PICK_CARD_BOUND,
    players: int | None = None,
) -> tuple[tuple[tuple[Card, ...], ...] | None, int, tuple[Proof, ...]]:
    """Fewest cards picked by one seat for which every listed pair of rulesets differ.

    A seat's turns are the same at any table size: ``players`` only labels the proofs.
    """
    if players is None:
        players = min(r.min_players for r in rulesets)
    for n in range(1, max_cards + 1):
        for seq in _turn_sequences(n):
            if not _within_deck(seq, rulesets[0]):
                continue
            outs = [_seat_scores(reachable(seq, r), r) for r in rulesets]
            if all(outs[a] != outs[b] for a, b in pairs):
                proofs = (Proof(players, n - 1, "unsat", "exhaustive",
                                "every sequence of turns picking fewer cards"),) if n > 1 else ()
                return seq, n, proofs
    return None, -1, (Proof(players, max_cards, "unsat", "exhaustive",
                            "every sequence of turns picking at most this many cards"),)
