"""The public functions' arguments checked against their annotations, before any work.

``sushigo.tableaux(cards=3.0, ...)`` or ``sushigo.play(seed="x")`` used to fail deep inside
(TypeError, AttributeError, a Z3 parser error) with a traceback; the CLI never sends such
values (argparse converts them). Here every argument of a public call is compared with its
parameter's annotation, and a mismatch is one :class:`InputError` naming the parameter, what
it takes and what it got. Annotations this checker cannot read (a name only imported for type
checking) are not checked; values, not types, stay the functions' own business.
"""

from __future__ import annotations

import collections.abc
import functools
import inspect
import os
import sys
import types
import typing
from collections.abc import Callable
from typing import Any

from sushigo.spec.errors import InputError

_SHOWN = 60
#: Parameters naming a ruleset take more forms than their annotation says (a Path, a Ruleset,
#: a mapping of a rules file's keys): the ruleset reader checks them itself.
RULESET_PARAMETERS = frozenset({"rules", "ruleset", "vs", "a", "b"})


def check_arguments(run: Callable[..., Any], name: str, args: tuple[Any, ...],
                    kwargs: dict[str, Any]) -> None:
    """Raise :class:`InputError` for the first argument of ``run(*args, **kwargs)`` that its
    annotation refuses (a call that does not fit the signature raises TypeError as usual)."""
    signature, hints = _hints(run)
    for param, value in signature.bind(*args, **kwargs).arguments.items():
        if _overlong(value):
            raise InputError(f"sushigo.{name}: {param} holds a whole number of more than {MAX_DIGITS} "
                             "digits; no count, score, budget or seed is that long")
        hint = hints.get(param)
        if hint is None or param in RULESET_PARAMETERS \
                or signature.parameters[param].kind is inspect.Parameter.VAR_KEYWORD:
            continue
        if not _matches(value, hint):
            shown = repr(value)
            if len(shown) > _SHOWN:
                shown = shown[: _SHOWN - 3] + "..."
            raise InputError(f"sushigo.{name}: {param} must be {describe(hint)}, got {shown}")


#: Past this many digits an int is refused before anything formats it: Python's integer-string
#: limit (4,300 digits) makes ``str()``, ``repr()`` and every f-string of one raise ValueError, so
#: an error message about such a number was itself a crash.
MAX_DIGITS = 4000
_MAX_BITS = int(MAX_DIGITS / 0.30103)


def _overlong(value: object, depth: int = 0) -> bool:
    """Whether ``value`` is, or holds (in lists, tuples and dicts a few levels deep), an int too
    long to print."""
    if isinstance(value, int):
        return value.bit_length() > _MAX_BITS
    if depth < 4 and isinstance(value, list | tuple):
        return any(_overlong(v, depth + 1) for v in value)
    if depth < 4 and isinstance(value, dict):
        return any(_overlong(v, depth + 1) for v in value.values())
    return False


@functools.cache
def _hints(run: Callable[..., Any]) -> tuple[inspect.Signature, dict[str, Any]]:
    """The signature and the readable annotations of ``run``, by parameter."""
    signature = inspect.signature(run)
    space = vars(sys.modules[run.__module__])
    hints: dict[str, Any] = {}
    for param in signature.parameters.values():
        text = param.annotation
        if text is inspect.Parameter.empty:
            continue
        try:
            hints[param.name] = eval(text, space) if isinstance(text, str) else text
        except Exception:  # a name imported only for type checking: left unchecked
            continue
    return signature, hints


def _members(hint: Any) -> tuple[Any, ...]:
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return typing.get_args(hint)
    return (hint,)


def _matches(value: object, hint: Any) -> bool:
    """Whether ``value`` fits ``hint`` (unions, the builtin scalars, mappings, sequences and
    their items, callables, classes); anything else is taken as fitting."""
    members = _members(hint)
    if len(members) > 1:
        return any(_matches(value, m) for m in members)
    if hint is Any or hint is object:
        return True
    if hint is None or hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:  # an int is a float (PEP 484's numeric tower), a bool is neither
        return isinstance(value, int | float) and not isinstance(value, bool)
    origin = typing.get_origin(hint) or hint
    if origin in (collections.abc.Mapping, dict):
        return isinstance(value, collections.abc.Mapping)
    if origin in (collections.abc.Sequence, list, tuple):
        if not isinstance(value, collections.abc.Sequence) or isinstance(value, str | bytes | bytearray):
            return False
        item = typing.get_args(hint)
        return not item or item[0] in (Any, Ellipsis) or all(_matches(v, item[0]) for v in value)
    if origin is collections.abc.Callable:
        return callable(value)
    if origin is os.PathLike:
        return isinstance(value, os.PathLike)
    if isinstance(origin, type):
        return isinstance(value, origin)
    return True


def describe(hint: Any, plural: bool = False) -> str:
    """What ``hint`` takes, in words: ``int | None`` is 'a whole number or None', ``list[int]``
    'a list of whole numbers'."""
    members = _members(hint)
    if len(members) > 1:
        return " or ".join(dict.fromkeys(describe(m, plural) for m in members))
    if hint is None or hint is type(None):
        return "None"
    words = {bool: ("True or False", "True or False values"), int: ("a whole number", "whole numbers"),
             float: ("a number", "numbers"), str: ("a string", "strings")}
    if hint in words:
        return words[hint][plural]
    origin = typing.get_origin(hint) or hint
    if origin in (collections.abc.Mapping, dict):
        name = "mapping"
    elif origin in (collections.abc.Sequence, list, tuple):
        item = typing.get_args(hint)
        if item and item[0] not in (Any, Ellipsis):
            return ("lists" if plural else "a list") + f" of {describe(item[0], plural=True)}"
        name = "list"
    elif origin is collections.abc.Callable:
        name = "function"
    elif origin is os.PathLike:
        name = "path"
    else:
        name = getattr(origin, "__name__", str(origin))
    return f"{name}s" if plural else f"a {name}"


__all__ = ["check_arguments", "describe"]
