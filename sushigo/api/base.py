"""What every API function shares: input given as a value or a path, the rules options, the
one exception class at the boundary, and the outcome the CLI renders.

Only the standard library and light spec modules are imported here (start-up time)."""

from __future__ import annotations

import collections
import contextlib
import functools
import os
import time
import types
from collections.abc import Callable, Iterator, Mapping, Sequence

# re-exported (the ``as`` form): the api modules take the bounds and their test from here
from sushigo.limits import MAX_BUDGET_COUNT as MAX_BUDGET_COUNT
from sushigo.limits import MAX_BUDGET_SECONDS as MAX_BUDGET_SECONDS
from sushigo.limits import MAX_GAMES as MAX_GAMES
from sushigo.limits import in_range as in_range
from sushigo.spec.errors import BudgetSpent, InputError, SushiGoError

# typing is not imported at run time (``sushigo score`` imports no typing: start-up time)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final, Literal, NamedTuple, ParamSpec, TypeVar, overload

    from sushigo.spec.model.budget import Budget
    from sushigo.spec.ruleset import Ruleset

    P = ParamSpec("P")
    T = TypeVar("T")
else:
    def overload(func):  # the overloads below are for type checkers; the last definition stands
        return func

#: ``rule=`` overrides: ``{"maki_first_tie": "each"}``, or ``["maki_first_tie=each", ...]`` as
#: the CLI's repeated ``--rule NAME=VALUE`` (one such text alone too).
Rule = str | Mapping[str, object] | Sequence[str] | None

#: A JSON input: the parsed document (dict or list), or a path to it ('-' is standard input).
if TYPE_CHECKING:
    Document = Mapping[str, Any] | Sequence[Any] | str | os.PathLike[str]

    class Outcome(NamedTuple):
        data: Any
        code: int = 0
        detail: Any = None
else:
    # The same alias and class at run time, built without typing's Any and NamedTuple
    # (typing.NamedTuple makes this very class with collections.namedtuple). A bare Sequence,
    # as Sequence[Any] reads to sushigo.api.arguments ("a list"; Sequence[object] is "a list of
    # objects" in its messages).
    Document = Mapping[str, object] | Sequence | str | os.PathLike[str]
    Outcome = collections.namedtuple("Outcome", ["data", "code", "detail"], defaults=(0, None))
Outcome.__doc__ = """One command's answer: ``data`` is exactly what ``--json`` prints, ``code`` the
exit code (0 answered, 1 a check failed or the answer is "no" or unknown), ``detail`` the library
values the CLI draws its tables from."""


def budget_of(timeout: float | None = None, rlimit: int | None = None) -> Budget | None:
    """``--timeout`` seconds and ``--rlimit`` units as one :class:`Budget` (``None`` if neither)."""
    from sushigo.spec.model.budget import Budget

    if timeout is not None and not in_range(timeout, 0, MAX_BUDGET_SECONDS):
        raise InputError(f"--timeout must be a number of seconds above 0, at most {MAX_BUDGET_SECONDS}, "
                         f"got {timeout!r}")
    if rlimit is not None and not in_range(rlimit, 0, MAX_BUDGET_COUNT, whole=True):
        raise InputError(f"--rlimit must be a whole number from 1 to {MAX_BUDGET_COUNT}, got {rlimit!r}")
    if timeout is None and rlimit is None:
        return None
    return Budget(None if timeout is None else max(1, int(timeout * 1000)), rlimit)


@contextlib.contextmanager
def solver_budget(timeout: float | None = None, rlimit: int | None = None,
                  whole: float | None = None) -> Iterator[None]:
    """While inside, every Z3 call runs within ``timeout`` seconds and ``rlimit`` Z3 resource
    units at most (``--timeout``/``--rlimit``; ``None``: the solver's own budget), and none after
    ``whole`` seconds from now. A call that runs out answers unknown, never a guess."""
    import dataclasses  # beside spec.model.budget, which needs it anyway (not on score's path)

    from sushigo.spec.model.budget import Budget, ceiling

    budget = budget_of(timeout, rlimit)
    if whole is not None:
        budget = dataclasses.replace(budget or Budget(None, None), deadline=time.time() + whole)
    if budget is None:
        yield
        return
    with ceiling(budget):
        yield


def tagged(fmt: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with a ``"format"`` tag as its first key (an existing tag is kept)."""
    if "format" in data:
        return dict(data)
    return {"format": fmt, **data}


def at_boundary(run: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``run(*args, **kwargs)``; every bad input leaves as one class, :class:`InputError`, with
    the message the CLI prints (a notation, rules or illegal-move error becomes its cause)."""
    try:
        return run(*args, **kwargs)
    except (InputError, BudgetSpent):  # an unknown answer is not bad input
        raise
    except SushiGoError as exc:
        raise InputError(str(exc)) from exc


#: What a public function returns, as its annotation says: the JSON document ``--json`` prints.
DOCUMENT: Final = "dict[str, Any]"
#: ... or, for a command that also answers with a list (replay of many records, puzzle --list).
DOCUMENTS: Final = "dict[str, Any] | list[dict[str, Any]]"


@overload
def public(run: Callable[P, Outcome], name: str,
           returns: Literal["dict[str, Any]"] = ...) -> Callable[P, dict[str, Any]]: ...


@overload
def public(run: Callable[P, Outcome], name: str, returns: Literal["dict[str, Any] | list[dict[str, Any]]"]
           ) -> Callable[P, dict[str, Any] | list[dict[str, Any]]]: ...


def public(run: Callable[P, Outcome], name: str, returns: str = DOCUMENT) -> Callable[P, Any]:
    """The public function for ``run``: the same arguments, returns ``Outcome.data`` as the JSON
    the CLI prints would parse (tuples become lists), so the two are equal, not just alike.
    ``returns`` is its return annotation (what ``help()`` shows), and the overloads give mypy
    the same type: ``sushigo.score(...)`` is a ``dict[str, Any]`` to a type checker too."""

    @functools.wraps(run)
    def call(*args: P.args, **kwargs: P.kwargs) -> Any:
        import json  # lazy: the CLI's commands come here without calling a public function

        from sushigo.api.arguments import check_arguments

        check_arguments(run, name, args, kwargs)  # a wrong type is one InputError, not a traceback
        return json.loads(json.dumps(at_boundary(run, *args, **kwargs).data))

    call.__name__ = call.__qualname__ = name
    # help() and inspect.signature() follow __wrapped__ to ``run``, whose return annotation is
    # the Outcome the CLI renders; the caller gets the document. A copy of ``run`` that says so
    # (the same code, defaults and parameter annotations; no inspect at import: start-up time).
    shown = types.FunctionType(run.__code__, run.__globals__, name, run.__defaults__, run.__closure__)
    shown.__kwdefaults__ = run.__kwdefaults__
    shown.__annotations__ = {**run.__annotations__, "return": returns}
    shown.__doc__, shown.__module__, shown.__qualname__ = run.__doc__, run.__module__, name
    call.__wrapped__ = shown
    call.__annotations__ = shown.__annotations__
    return call


def load_input(value: object, what: str = "input", schema: str | None = None) -> tuple[Any, str]:
    """The JSON document ``value`` names (a path, or '-' for standard input) or is (a dict or
    list), with the name error messages give it; checked against the JSON Schema ``schema``
    (see :mod:`sushigo.schemas`) whichever way it came."""
    from sushigo.common import load_json

    if isinstance(value, str | os.PathLike):
        path = os.fspath(value)
        return load_json(path, schema), path
    if isinstance(value, Mapping):
        data: Any = dict(value)
    elif isinstance(value, Sequence) and not isinstance(value, bytes):
        data = list(value)
    else:
        raise InputError(
            f"{what} must be a JSON document (a dict or list) or a path to a JSON file, got {value!r}"
        )
    if schema is not None:
        from sushigo.schemas import check_document

        check_document(data, schema, what)
    return data, what


def as_list(value: str | int | Sequence[Any] | None) -> list[Any]:
    """A repeatable option: ``None`` is none, one value is one, a sequence is many."""
    if value is None:
        return []
    if isinstance(value, str | int):
        return [value]
    return list(value)


def override_texts(rule: Rule) -> list[str]:
    """``rule=`` as the CLI's ``NAME=VALUE`` texts (booleans as yes/no)."""
    if rule is None:
        return []
    if isinstance(rule, str):
        return [rule]
    if isinstance(rule, Mapping):
        from sushigo.spec.ruleset import format_value

        return [f"{k}={format_value(v)}" for k, v in rule.items()]
    return [str(item) for item in rule]


#: ``rules=``: a ruleset's name, a rules file (a .toml path), or the ruleset itself (a
#: :class:`Ruleset`, or an object with a rules file's keys).
if TYPE_CHECKING:
    Rules = str | os.PathLike[str] | Mapping[str, Any] | None
else:
    Rules = str | os.PathLike[str] | Mapping[str, object] | None


def rules_from_options(rules: Rules | Ruleset, rule: Rule, file_rules: object = None) -> Ruleset:
    """The ruleset: ``rules`` if given, else the document's "rules" (a name, or the ruleset as an
    object), else official; then ``rule``."""
    # spec.rulefile only where a ruleset comes as an object: 'sushigo score' starts without it.
    from sushigo.spec.ruleset import Ruleset, apply_overrides, get_ruleset

    overrides = override_texts(rule)
    if isinstance(rules, Ruleset):
        return apply_overrides(rules, overrides)
    if isinstance(rules, Mapping):
        from sushigo.spec.rulefile import ruleset_from_value

        return apply_overrides(ruleset_from_value(rules, "rules="), overrides)
    if rules is not None:
        if not isinstance(rules, str | os.PathLike):
            raise InputError("rules must be a ruleset's name, a rules file's path, a Ruleset or a mapping "
                             f"of a rules file's keys, got {rules!r:.60}")
        return get_ruleset(os.fspath(rules), overrides)
    if file_rules is None:
        return get_ruleset("official", overrides)
    if not isinstance(file_rules, str | Mapping):
        raise InputError(f'"rules" must be a ruleset name or a ruleset object, got {file_rules!r}')
    from sushigo.spec.rulefile import ruleset_from_value

    return apply_overrides(ruleset_from_value(file_rules), overrides)


def ruleset(name: str = "official", **overrides: object) -> Ruleset:
    """The named ruleset with parameters overridden, e.g. ``ruleset("official",
    maki_first_tie="each")``; an unknown name or value raises :class:`InputError`."""
    return at_boundary(rules_from_options, name, overrides)
