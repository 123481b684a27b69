"""The one shuffle: the deck of a seeded game, and the seed of its policies' generator.

A game's deck is the ruleset's deck in Card order, shuffled once by ``random.Random(seed)``;
the 64 bits drawn right after it seed the policies' generator (so a policy's generator reveals
nothing about the deck order). :func:`shuffled_deck` states it with CPython's own shuffle;
:func:`fast_shuffled_deck` gives the same cards from the generator's raw words in one block,
and is what every engine path deals from (the step API, play_game, the batch path).
"""

from __future__ import annotations

import random
from _random import Random as _CoreRandom
from collections.abc import Sequence

from sushigo.spec.engine.packed import N_CARDS
from sushigo.spec.ruleset import Ruleset

__all__ = ["fast_shuffled_deck", "shuffled_deck", "shuffled_deck_of"]


def shuffled_deck(rules: Ruleset, seed: int) -> tuple[list[int], int]:
    """The deck (card numbers) as ``random.Random(seed)`` shuffles it once, and the 64 bits
    drawn right after the shuffle that seed the policies' generator."""
    rng = random.Random(seed)
    deck = [c for c in range(N_CARDS) for _ in range(rules.deck[c])]
    rng.shuffle(deck)
    return deck, rng.getrandbits(64)


# A 108-card shuffle draws 159 words for the median seed, more than 192 for one seed in a
# thousand: those take the plain path (the same result, drawn again).
_BLOCK = 192
# per deck size and cards kept: (i, shift) from the top down, above the cards kept and among them
_DOWN: dict[tuple[int, int], tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]] = {}


def fast_shuffled_deck(base: Sequence[int], seed: int, keep: int | None = None) -> tuple[list[int], int]:
    """:func:`shuffled_deck` of the unshuffled deck ``base``, without its per-card calls.

    ``random.shuffle`` asks ``_randbelow(i + 1)`` for i from the top down, and that asks
    ``getrandbits(k)`` (k = bit length of i + 1) until the value is at most i; for k <= 32,
    ``getrandbits(k)`` is the generator's next 32-bit word shifted right by ``32 - k``, and
    ``getrandbits(32 * W)`` gives the next W words, the first one lowest. So the words are
    drawn in one block and the same loop runs on them; the policies' seed is the next two words
    (``getrandbits(64)``: first word low). With at most 255 cards k is at most 8, so only each
    word's top byte counts (shifted right by ``8 - k``): the loop reads the block's every fourth
    byte, small ints that need no allocation. tests/test_game.py compares it with shuffled_deck.

    With ``keep``, only the first ``keep`` cards are returned (the cards a game deals): step i of
    the shuffle fixes position i for good, so above ``keep`` a step only moves the card at i
    down to j (the same words drawn, the same first ``keep`` cards).
    """
    n = len(base)
    if n > 255:
        deck, policy_seed = shuffled_deck_of(base, seed)
        return deck[:keep], policy_seed
    if keep is None or keep > n:
        keep = n
    down = _DOWN.get((n, keep))
    if down is None:
        steps = [(i, 8 - (i + 1).bit_length()) for i in range(n - 1, 0, -1)]
        down = _DOWN[(n, keep)] = (tuple(steps[: n - keep]), tuple(steps[n - keep :]))
    above, below = down
    # random.Random(seed) for an int seed is its C base class seeded with it (Random.seed passes
    # an int straight on); the base class skips the Python-level __init__ and seed().
    rng = _CoreRandom(seed) if type(seed) is int else random.Random(seed)
    block = rng.getrandbits(32 * _BLOCK).to_bytes(4 * _BLOCK, "little")
    tops = list(block[3::4])  # a list: indexing it is the interpreter's fastest path
    deck = list(base)
    p = 0
    try:
        for i, shift in above:
            j = tops[p] >> shift
            p += 1
            while j > i:
                j = tops[p] >> shift
                p += 1
            deck[j] = deck[i]
        for i, shift in below:
            j = tops[p] >> shift
            p += 1
            while j > i:
                j = tops[p] >> shift
                p += 1
            deck[i], deck[j] = deck[j], deck[i]
    except IndexError:
        deck, policy_seed = shuffled_deck_of(base, seed)
        return deck[:keep], policy_seed
    if 4 * p + 8 > len(block):
        deck, policy_seed = shuffled_deck_of(base, seed)
        return deck[:keep], policy_seed
    del deck[keep:]
    return deck, int.from_bytes(block[4 * p : 4 * p + 8], "little")


def shuffled_deck_of(base: Sequence[int], seed: int) -> tuple[list[int], int]:
    """The plain shuffle of ``base`` (what :func:`shuffled_deck` does with the ruleset's deck)."""
    rng = random.Random(seed)
    deck = list(base)
    rng.shuffle(deck)
    return deck, rng.getrandbits(64)
