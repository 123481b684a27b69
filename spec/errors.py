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
