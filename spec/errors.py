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


class Unsettled(SushiGoError):
    """A question not settled within its budget: the answer is unknown, never read as yes or no.

    ``reason`` says why (Z3's reason, or which limit ran out); ``budget`` what was spent."""

    def __init__(self, message: str, reason: str = "", budget: str = "") -> None:
        super().__init__(message)
        self.reason = reason or message
        self.budget = budget
