"""Exceptions. One root; each subclass also inherits the builtin it resembles."""

from __future__ import annotations


class SushiGoError(Exception):
    """Root of every error this toolkit raises on purpose."""


class NotationError(SushiGoError, ValueError):
    """Text that does not parse: an unknown card name, a bad count, bad syntax."""


class InputError(SushiGoError, ValueError):
    """Well-formed input that breaks a limit: too many copies, wrong hand size, bad JSON."""


class RulesError(SushiGoError, ValueError):
    """An unknown ruleset or rule parameter, or a value the parameter does not take."""


class IllegalMoveError(SushiGoError, ValueError):
    """A pick or game step the rules do not allow."""


class BudgetSpent(SushiGoError):
    """A budget ran out before the question was settled: the answer is unknown, never read as yes
    or no. The one exception for it, whatever ran out: a Z3 call's time or rlimit, a search's
    nodes, a run's wall clock (:class:`sushigo.spec.model.budget.Budget` holds them all).

    ``reason`` says why (Z3's reason, or which limit ran out); ``budget`` what was allowed;
    ``whole_run`` is true when the budget of a whole run ran out (the run keeps what it found so
    far), false when one call's own limit did."""

    def __init__(self, message: str = "budget spent", reason: str = "", budget: str = "", *,
                 whole_run: bool = False) -> None:
        super().__init__(message)
        self.reason = reason or message
        self.budget = budget
        self.whole_run = whole_run

    @classmethod
    def unknown(cls, reason: str, budget: str) -> BudgetSpent:
        """Z3 (or a solver on it) gave up: "unknown: REASON (budget BUDGET)"."""
        return cls(f"unknown: {reason} (budget {budget})", reason, budget)


#: The name :class:`BudgetSpent` had (an unsettled question); kept, library code catches it.
Unsettled = BudgetSpent


def check_first_seed(seed: int, name: str = "seed") -> None:
    """Refuse a negative first seed of a run of games (``name`` is how the caller spells it).

    Python's generator seeds with an int's absolute value, so seed -s deals the game of seed s,
    and a run from a negative seed up past 0 would deal games twice. One game's seed goes to
    ``random.Random`` as given (``Game.new``, ``play_game``); a run of games starts at 0 or more.
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InputError(f"{name} {seed!r}: give a whole number of 0 or more")
    if seed < 0:
        raise InputError(f"{name} {seed}: give a whole number of 0 or more (Python's generator takes the "
                         f"absolute value, so seed {seed} would deal the game of seed {-seed})")


TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn


def assert_never(value: NoReturn) -> NoReturn:
    """:func:`typing.assert_never` (the same check for type checkers, the same error when reached)
    without importing :mod:`typing`: ``sushigo score`` imports no typing (start-up time, issue 31)."""
    text = repr(value)
    if len(text) > 100:
        text = text[:100] + "..."
    raise AssertionError(f"Expected code to be unreachable, but got: {text}")
