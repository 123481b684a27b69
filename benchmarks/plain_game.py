"""The plain game loop of issue 14: the baseline the executor's speed is measured against.

Written as a newcomer would, and kept honest (not slowed down): deal from a shuffled deck,
each player picks a random legal option (one card, or two with chopsticks taken on an
earlier turn, which then go back into the hand), pass the hands left, score from counts.
Numbers come from the Ruleset; the readings are the official ones (split maki ties, no
pudding penalty with 2 players, nigiri on a free wasabi). It plays *a* random game per seed,
not the executor's game (its options and draws differ): only its speed is compared.
"""

from __future__ import annotations

import random

from sushigo.spec.ruleset import OFFICIAL, Ruleset

TEMPURA, SASHIMI, DUMPLING, MAKI1, MAKI2, MAKI3, EGG, SALMON, SQUID, PUDDING, WASABI, CHOPSTICKS = range(12)
NIGIRI = (EGG, SALMON, SQUID)


def plain_game(players: int, seed: int, rules: Ruleset = OFFICIAL) -> list[int]:
    """One random game; the final totals per player."""
    rng = random.Random(seed)
    deck = [card for card in range(12) for _ in range(rules.deck[card])]
    rng.shuffle(deck)
    size = rules.hand_size(players)
    totals = [0] * players
    puddings = [0] * players
    for _round in range(rules.rounds):
        hands = []
        for _p in range(players):
            hands.append(deck[:size])
            del deck[:size]
        counts = [[0] * 12 for _ in range(players)]
        free_wasabi = [0] * players
        nigiri_points = [0] * players
        for _turn in range(size):
            for p in range(players):
                hand = hands[p]
                kinds = sorted(set(hand))
                options: list[tuple[int, ...]] = [(c,) for c in kinds]
                if counts[p][CHOPSTICKS] > 0 and len(hand) >= 2:
                    for a in kinds:
                        for b in kinds:
                            if a != b or hand.count(a) >= 2:
                                options.append((a, b))
                picks = rng.choice(options)
                for card in picks:
                    hand.remove(card)
                    counts[p][card] += 1
                    if card in NIGIRI:
                        value = rules.nigiri_points[card - EGG]
                        if free_wasabi[p] > 0:
                            free_wasabi[p] -= 1
                            value *= rules.wasabi_multiplier
                        nigiri_points[p] += value
                    elif card == WASABI:
                        free_wasabi[p] += 1
                if len(picks) == 2:
                    counts[p][CHOPSTICKS] -= 1
                    hand.append(CHOPSTICKS)
            hands = hands[-1:] + hands[:-1]
        icons = []
        for p in range(players):
            c = counts[p]
            totals[p] += (c[TEMPURA] // rules.tempura_set) * rules.tempura_points
            totals[p] += (c[SASHIMI] // rules.sashimi_set) * rules.sashimi_points
            table = rules.dumpling_points  # the last entry holds for every larger count
            totals[p] += table[min(c[DUMPLING], len(table) - 1)]
            totals[p] += nigiri_points[p]
            puddings[p] += c[PUDDING]
            icons.append(c[MAKI1] * rules.maki_icons[0] + c[MAKI2] * rules.maki_icons[1]
                         + c[MAKI3] * rules.maki_icons[2])
        top = max(icons)
        if top > 0:
            first = [p for p in range(players) if icons[p] == top]
            for p in first:
                totals[p] += rules.maki_first_points // len(first)
            if len(first) == 1:
                rest = [i for i in icons if 0 < i < top]
                if rest:
                    second = [p for p in range(players) if icons[p] == max(rest)]
                    for p in second:
                        totals[p] += rules.maki_second_points // len(second)
    most, fewest = max(puddings), min(puddings)
    if most != fewest:
        top_p = [p for p in range(players) if puddings[p] == most]
        for p in top_p:
            totals[p] += rules.pudding_most_points // len(top_p)
        if players > 2:
            low = [p for p in range(players) if puddings[p] == fewest]
            for p in low:
                totals[p] -= rules.pudding_fewest_penalty // len(low)
    return totals
