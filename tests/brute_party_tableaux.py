"""A brute force for Party's scores back to cards (tests/test_party_sheet.py), independent of the Z3
round model: every table of small final tableaux of normal plays, written out card by card and
scored by the plain scorer (spec/party/scoring.py).

The scope is the one docs/party.md states for ``tableaux --game party``: printed cards and nigiri
on a wasabi; no special order's copy, no flipped card, no used menu or takeout box, no uramaki
total of 10 or more; every seat holds exactly ``k`` cards (a stack is two); the deck's copies per
printed card, and round 1's desserts, bound the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations_with_replacement, product

from sushigo.spec.party.menus import Menu, desserts_per_round
from sushigo.spec.party.readings import DEFAULT, PartyRules
from sushigo.spec.party.scoring import score_round
from sushigo.spec.party.tableau import parse_party_tableau

NIGIRI = ("egg", "salmon", "squid")
#: Printed cards no final tableau of normal plays shows (RB p12, p14, p15).
GONE = ("menu", "takeout", "special-order")
URAMAKI_ICONS = {"uramaki3": 3, "uramaki4": 4, "uramaki5": 5}


def copies(menu: Menu) -> dict[str, int]:
    return {card: n for t in menu.tiles if t.name not in GONE for card, n in t.cards}


def seat_tableaux(menu: Menu, k: int) -> list[tuple[str, Counter[str]]]:
    """Every tableau of ``k`` cards one seat can show: its text and its printed cards."""
    deck = copies(menu)
    out = []
    for combo in combinations_with_replacement(sorted(deck), k):
        held = Counter(combo)
        if any(n > deck[c] for c, n in held.items()):
            continue
        if sum(URAMAKI_ICONS.get(c, 0) * n for c, n in held.items()) >= 10:
            continue
        wasabi = held["wasabi"]
        nigiri = [c for c in NIGIRI if held[c]]
        for stacks in product(*[range(min(held[c], wasabi) + 1) for c in nigiri]):
            if sum(stacks) > wasabi:
                continue
            words = [c for c in combo if c not in NIGIRI and c != "wasabi"]
            for c, s in zip(nigiri, stacks, strict=True):
                words += [f"wasabi+{c}"] * s + [c] * (held[c] - s)
            words += ["wasabi"] * (wasabi - sum(stacks))
            out.append((" ".join(words) or "-", held))
    return out


def tables(menu: Menu, players: int, k: int, rules: PartyRules = DEFAULT
           ) -> Iterator[tuple[tuple[str, ...], tuple[int, ...]]]:
    """Every table of ``players`` tableaux of ``k`` cards within the deck, with its round scores."""
    deck = copies(menu)
    dessert = {c for c, _ in menu.dessert.cards}
    dealt = desserts_per_round(players)[0]
    seats = seat_tableaux(menu, k)
    for row in product(seats, repeat=players):
        used: Counter[str] = Counter()
        for _, held in row:
            used.update(held)
        if any(n > deck[c] for c, n in used.items()) or sum(used[c] for c in dessert) > dealt:
            continue
        texts = tuple(t for t, _ in row)
        score = score_round([parse_party_tableau(t) for t in texts], menu, rules)
        yield texts, score.totals


def seat_listing(menu: Menu, players: int, k: int, seat: int, score: int | None,
                 rules: PartyRules = DEFAULT) -> set[str]:
    """The seat's tableaux (canonical text) that some table gives ``score`` (None: any score)."""
    return {canon(texts[seat]) for texts, totals in tables(menu, players, k, rules)
            if score is None or totals[seat] == score}


def canon(text: str) -> str:
    from sushigo.spec.party.tableau import format_party_tableau

    return format_party_tableau(parse_party_tableau(text))
