"""The printed rulebook's numbers: the data of the ``official`` named ruleset.

:class:`~spec.ruleset.value.Ruleset` takes its defaults from here, so ``Ruleset()`` is the
official ruleset and every other named ruleset is a change of it (:mod:`spec.ruleset.named`).
The deck's copies are the card kinds' own (:mod:`spec.kinds`); the contested readings' defaults
are the rulebook's readings (:mod:`spec.ruleset.readings`). Nothing else in the package writes
these numbers: it reads a ruleset.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

# --- components and flow ---
HAND_SIZES: Final[tuple[tuple[int, int], ...]] = ((2, 10), (3, 9), (4, 8), (5, 7))  # players, cards each
DUMMY_HAND_SIZE: Final = 9  # the two-player variant with a dummy hand
ROUNDS: Final = 3
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
# --- round scoring ---
TEMPURA_SET: Final = 2
TEMPURA_POINTS: Final = 5
SASHIMI_SET: Final = 3
SASHIMI_POINTS: Final = 10
DUMPLING_POINTS: Final[tuple[int, ...]] = (0, 1, 3, 6, 10, 15)  # by count; the last holds beyond
NIGIRI_POINTS: Final[tuple[int, int, int]] = (1, 2, 3)  # egg, salmon, squid
WASABI_MULTIPLIER: Final = 3
MAKI_ICONS: Final[tuple[int, int, int]] = (1, 2, 3)  # maki1, maki2, maki3
MAKI_FIRST_POINTS: Final = 6
MAKI_SECOND_POINTS: Final = 3
# --- end of game ---
PUDDING_MOST_POINTS: Final = 6
PUDDING_FEWEST_PENALTY: Final = 6
