"""A complete adapter for ``sushigo conform``: a small, self-contained Sushi Go scorer.

This file stands for *your* engine. It imports nothing from this project, so
it can be copied as a template: keep the two functions' signatures and call
your own code inside them.

    sushigo conform examples/conform_adapter.py          # exit 0: it follows the official rules

Protocol (see docs/checks.md):

* ``score_round(tableaux)``: ``tableaux[p]`` is the list of canonical card
  names player ``p`` took this round, in pick order (``"tempura"``,
  ``"sashimi"``, ``"dumpling"``, ``"maki1"``, ``"maki2"``, ``"maki3"``,
  ``"egg"``, ``"salmon"``, ``"squid"``, ``"pudding"``, ``"wasabi"``,
  ``"chopsticks"``). A two-card chopsticks turn appears as its two cards in
  order; chopsticks that were used are not listed. Return the round points
  per player, puddings excluded.
* ``score_puddings(counts)`` (optional): pudding cards per player at the end
  of the game; return the pudding points per player.

Being someone else's engine, it carries its own numbers (the printed rules).
"""

from __future__ import annotations

NIGIRI_POINTS = {"egg": 1, "salmon": 2, "squid": 3}
MAKI_ICONS = {"maki1": 1, "maki2": 2, "maki3": 3}
DUMPLINGS = [0, 1, 3, 6, 10, 15]
WASABI_FACTOR = 3
MAKI_FIRST, MAKI_SECOND = 6, 3
PUDDING_MOST, PUDDING_FEWEST = 6, 6


def _dishes(cards: list[str]) -> int:
    points = 0
    free_wasabi = 0
    for card in cards:
        if card == "wasabi":
            free_wasabi += 1
        elif card in NIGIRI_POINTS:
            # A nigiri goes on a wasabi taken earlier that holds nothing yet.
            if free_wasabi:
                free_wasabi -= 1
                points += WASABI_FACTOR * NIGIRI_POINTS[card]
            else:
                points += NIGIRI_POINTS[card]
    points += cards.count("tempura") // 2 * 5
    points += cards.count("sashimi") // 3 * 10
    points += DUMPLINGS[min(cards.count("dumpling"), len(DUMPLINGS) - 1)]
    return points


def _maki(icons: list[int]) -> list[int]:
    out = [0] * len(icons)
    first = max(icons)
    if first == 0:
        return out  # nobody with no icons places
    top = [p for p, n in enumerate(icons) if n == first]
    for p in top:
        out[p] = MAKI_FIRST // len(top)
    if len(top) > 1:
        return out  # a tie for first pays no second place
    second = max((n for n in icons if 0 < n < first), default=0)
    if second:
        runners = [p for p, n in enumerate(icons) if n == second]
        for p in runners:
            out[p] = MAKI_SECOND // len(runners)
    return out


def score_round(tableaux: list[list[str]]) -> list[int]:
    icons = [sum(MAKI_ICONS.get(c, 0) for c in cards) for cards in tableaux]
    return [_dishes(cards) + maki for cards, maki in zip(tableaux, _maki(icons), strict=True)]


def score_puddings(counts: list[int]) -> list[int]:
    out = [0] * len(counts)
    most, fewest = max(counts), min(counts)
    if most == fewest:
        return out  # everyone tied: nobody scores
    top = [p for p, n in enumerate(counts) if n == most]
    for p in top:
        out[p] += PUDDING_MOST // len(top)
    if len(counts) > 2:  # no penalty in a 2-player game
        low = [p for p, n in enumerate(counts) if n == fewest]
        for p in low:
            out[p] -= PUDDING_FEWEST // len(low)  # remainder dropped: 4 tied lose 1 each
    return out
