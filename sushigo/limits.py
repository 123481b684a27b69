"""The bounds every budget and game count is held to, and the one test of a value against them.

A module of its own, importing nothing: ``sushigo.common`` (every command's options, the
top-level help included) checks option values with it, and start-up must not pay for the
library behind the commands (``sushigo.api.base`` re-exports these names).
"""

from __future__ import annotations

#: Budgets above these are refused: Z3 takes timeouts in milliseconds and resource limits
#: as unsigned 32-bit numbers, and no answer is worth waiting eleven days for.
MAX_BUDGET_SECONDS = 1_000_000
MAX_BUDGET_COUNT = 2**32 - 1
#: The most games one run plays (play, balance): hours of work; beyond, a run never ends.
MAX_GAMES = 10_000_000
#: The most cases per property family ``check`` runs (``--examples``; five times the ``long``
#: profile's 20,000, a day's work on two cores): beyond, a run never ends.
MAX_EXAMPLES = 100_000
#: The most worker processes ``--jobs`` starts: each is a Python process of about 100 MB, so more
#: than this exhausts a large machine's memory before it saves any time.
MAX_JOBS = 256
#: The most tables or tableaux one ``table``/``tableaux`` run counts or lists (``--limit``): each
#: is a Z3 call, so a million is hours of work; "N or more" is the answer past it.
MAX_LIMIT = 1_000_000


def in_range(value: object, low: float, high: float, whole: bool = False) -> bool:
    """Whether ``value`` is a number (not a bool; an int if ``whole``) with ``low < value <= high``.

    Compared, never converted: nan compares false, inf and an int of any size compare exactly
    (``math.isfinite(10**400)`` would raise OverflowError)."""
    kinds = int if whole else int | float
    return isinstance(value, kinds) and not isinstance(value, bool) and low < value <= high
