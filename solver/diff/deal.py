"""The deal search: the smallest deal that the passing readings play differently."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from sushigo.solver.diff.parameters import applies
from sushigo.solver.diff.results import Proof
from sushigo.spec.cards import Card, Token
from sushigo.spec.ruleset import Ruleset
from sushigo.spec.scoring import score_round
from sushigo.spec.tableau import Tableau, format_tableau


def passing_agrees(a: Ruleset, b: Ruleset, seats: int) -> bool:
    """Same receiving seat every round: then the rulesets play every deal identically."""
    return all((a.pass_offset(k) - b.pass_offset(k)) % seats == 0 for k in range(max(a.rounds, b.rounds)))


def _play_round(hands: Sequence[Sequence[Card]], first: Sequence[Card], offset: int) -> list[Tableau]:
    """Hands of two cards: every seat takes ``first[i]``, passes, and takes the card passed in."""
    seats = len(hands)
    left = []
    for h, f in zip(hands, first, strict=True):
        rest = list(h)
        rest.remove(f)
        left.append(rest[0])
    tabs = []
    for i in range(seats):
        got = left[(i - offset) % seats]
        tabs.append(Tableau.of([Token(int(first[i])), Token(int(got))]))
    return tabs


_DEAL_ALPHABET: tuple[Card, ...] = (Card.TEMPURA, Card.EGG, Card.SALMON, Card.SQUID, Card.SASHIMI)


def smallest_deal(
    a: Ruleset, b: Ruleset, players_range: Iterable[int]
) -> tuple[dict[str, Any] | None, tuple[Proof, ...]]:
    """A deal of two-card hands where the same first picks end in different round scores."""
    proofs: list[Proof] = []
    for players in players_range:
        if not (applies(a, players) and applies(b, players)):
            proofs.append(Proof(players, -1, "not-applicable", "structural",
                                "not played under both rulesets (the dummy variant is 2-player only)"))
            continue
        seats = players
        if passing_agrees(a, b, seats):
            proofs.append(Proof(players, -1, "unsat", "structural",
                                "every round passes to the same seat under both rulesets"))
            continue
        rnd = next(k for k in range(a.rounds) if (a.pass_offset(k) - b.pass_offset(k)) % seats)
        # One-card hands are never passed, so two cards per hand is the least that can differ.
        for hands in itertools.product(itertools.combinations_with_replacement(_DEAL_ALPHABET, 2),
                                       repeat=seats):
            first = [h[0] for h in hands]
            ta = _play_round(hands, first, a.pass_offset(rnd))
            tb = _play_round(hands, first, b.pass_offset(rnd))
            sa = [s.total for s in score_round(ta, a)]
            sb = [s.total for s in score_round(tb, b)]
            if sa != sb:
                proofs.append(Proof(players, players, "unsat", "structural",
                                    "a hand of one card is never passed"))
                return {
                    "players": players, "round": rnd + 1,
                    "hands": [[c.label for c in h] for h in hands],
                    "first_picks": [c.label for c in first],
                    "tableaux_a": [format_tableau(t) for t in ta],
                    "tableaux_b": [format_tableau(t) for t in tb],
                    "scores_a": sa, "scores_b": sb,
                    "offset_a": a.pass_offset(rnd), "offset_b": b.pass_offset(rnd),
                }, tuple(proofs)
    return None, tuple(proofs)
