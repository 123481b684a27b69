"""Whole numbers read from text: the one parser for notation counts and command-line options.

Python's ``int(text)`` takes more than a count should (``" 3"``, ``"+2"``, ``"1_0"``, Arabic-Indic
digits) and fails badly on more: past 4,300 digits it raises a ValueError that names Python's
integer-string limit, not the input, and below that limit it spends quadratic time converting
digits only to find the number out of range. :func:`parse_whole` reads ASCII digits only, compares
the digit string's length against the bound before converting anything, and raises one
:class:`NotationError` that quotes the input and names the range; :func:`check_whole` holds a value
given to the library (an int already, or not) to the same range.
"""

from __future__ import annotations

import re

from sushigo.spec.errors import InputError, NotationError

_WHOLE = re.compile(r"[+-]?[0-9]+")

#: The largest count notation reads (``squid*N``, ``--count 1:squid=N``): past every deck a ruleset
#: may hold (at most 30 copies of each of 12 kinds, 360 cards; ``spec.ruleset``'s deck bound), so
#: a count up to it reaches the check that names the deck ("more squid than the deck holds") and
#: a larger one is a notation error here, before it is converted.
MAX_COUNT = 1_000


def parse_whole(text: str, what: str, low: int = 0, high: int = MAX_COUNT) -> int:
    """The whole number ``text`` spells, from ``low`` to ``high``; else a NotationError naming
    ``what`` (how the caller spells it: ``"--examples"``, ``"count in 'squid*3'"``).

    Surrounding whitespace is allowed, as ``int`` allows it; inside, only an optional sign and
    ASCII digits. The digit string is measured before it is converted, so a number of any length
    costs time linear in its length and never meets Python's integer-string limit.
    """
    if not isinstance(text, str):
        raise NotationError(f"{what} {text!r}: give a whole number from {low} to {high} as text")
    word = text.strip()
    if not _WHOLE.fullmatch(word):
        raise NotationError(f"{what} {text!r} is not a whole number: give one from {low} to {high}")
    digits = word.lstrip("+-").lstrip("0") or "0"
    widest = max(len(str(abs(low))), len(str(abs(high))))
    value = int(word[0] + digits if word[0] in "+-" else digits) if len(digits) <= widest else None
    if value is None or not low <= value <= high:
        return _out_of_range(what, text, low, high)
    return value


def check_whole(value: object, what: str, low: int = 0, high: int = MAX_COUNT) -> int:
    """``value`` if it is an int (not a bool) from ``low`` to ``high``; else an InputError naming
    ``what``: the library's counts held to the bounds the command line's are."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(f"{what} must be a whole number from {low} to {high}, got {_shown(value)}")
    return value


def _shown(value: object) -> str:
    """``repr(value)``, but a huge int by its size: printing one of more than 4,300 digits raises
    ValueError (Python's integer-string limit), and an error line is no place for 400 digits."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**40:
        return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
    try:
        return repr(value)
    except ValueError:  # a container holding such an int
        return f"a {type(value).__name__}"


def quoted(text: str) -> str:
    """``text`` quoted for an error line: whole up to 40 characters, else its ends and length."""
    word = text.strip()
    return repr(text) if len(word) <= 40 else f"'{word[:12]}...{word[-4:]}' ({len(word)} characters)"


def _out_of_range(what: str, text: str, low: int, high: int) -> int:
    raise NotationError(f"{what} {quoted(text)} is out of range: give a whole number from {low} to {high}")


__all__ = ["MAX_COUNT", "check_whole", "parse_whole", "quoted"]
