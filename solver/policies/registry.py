"""Policies by spec: ``NAME[:OPTION=VALUE,...]`` (``ismcts:iterations=1000``, ``ismcts:time=0.2``).

One table says which policies there are and which options each takes (with its type, bounds
and default); :func:`make_policy` parses a spec against it and builds the policy. A policy's
``name`` is its spec in canonical form (the options it was given, in the order given, each
value written as parsed), so a record says which options played.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from sushigo.spec.errors import InputError
from sushigo.spec.policies import POLICIES, GreedyPolicy, Policy, RandomPolicy

__all__ = ["POLICY_NAMES", "Option", "make_policy", "option_help", "parse_spec", "resolve_policies"]

Value = int | float | str


@dataclass(frozen=True)
class Option:
    """One option a policy takes: ``kind`` int, float or a tuple of the words it takes."""

    name: str
    kind: type[int] | type[float] | tuple[str, ...]
    default: Value
    help: str
    low: float = 0.0  # the smallest value (ints and floats)
    low_open: bool = False  # the value must be above ``low``, not equal to it

    def parse(self, text: str, spec: str) -> Value:
        if isinstance(self.kind, tuple):
            if text not in self.kind:
                raise InputError(f"policy {spec!r}: {self.name}={text!r} is not one of "
                                 f"{', '.join(self.kind)}")
            return text
        try:
            value: Value = self.kind(text)
        except ValueError:
            what = "a whole number" if self.kind is int else "a number"
            raise InputError(f"policy {spec!r}: {self.name}={text!r} is not {what}; give "
                             f"{self.name}={self.default}") from None
        assert not isinstance(value, str)
        if not math.isfinite(value) or value < self.low or (self.low_open and value == self.low):
            bound = f"above {self.low:g}" if self.low_open else f"{self.low:g} or more"
            raise InputError(f"policy {spec!r}: {self.name}={text} is out of range; give a value {bound}")
        return value


#: (canonical spec, every option with its default filled in, the options given) -> the policy.
Factory = Callable[[str, Mapping[str, Value], Mapping[str, Value]], Policy]


@dataclass(frozen=True)
class _Entry:
    factory: Factory
    options: tuple[Option, ...]
    help: str


def _plain(cls: Callable[[], Policy]) -> Factory:
    def make(_name: str, _opts: Mapping[str, Value], _given: Mapping[str, Value]) -> Policy:
        return cls()

    return make


def _lookahead(name: str, _opts: Mapping[str, Value], _given: Mapping[str, Value]) -> Policy:
    from sushigo.solver.policies.lookahead import LookaheadPolicy

    return LookaheadPolicy(name)


def _budget(opts: Mapping[str, Value], given: Mapping[str, Value]) -> tuple[int | None, float | None]:
    """(iterations, seconds): a time given alone lifts the default iteration count."""
    iterations = None if "time" in given and "iterations" not in given else int(opts["iterations"])
    seconds = float(opts["time"]) if "time" in given else None
    return iterations, seconds


def _ismcts(name: str, opts: Mapping[str, Value], given: Mapping[str, Value]) -> Policy:
    from sushigo.solver.policies.ismcts import IsmctsPolicy

    iterations, seconds = _budget(opts, given)
    return IsmctsPolicy(name, iterations, seconds, str(opts["rollout"]))


def _exact(name: str, opts: Mapping[str, Value], given: Mapping[str, Value]) -> Policy:
    from sushigo.solver.policies.exact import ExactPolicy

    iterations, seconds = _budget(opts, given)
    return ExactPolicy(name, iterations, seconds, str(opts["rollout"]), str(opts["fallback"]),
                       float(opts["solve_time"]), int(opts["nodes"]), str(opts["objective"]),
                       int(opts["depth"]), str(opts["rounds"]))


_ITERATIONS = Option("iterations", int, 1000, "playouts per move", low=1)
_TIME = Option("time", float, 1.0, "CPU seconds per move (with iterations: whichever ends first)",
               low=0.0, low_open=True)
_ROLLOUT = Option("rollout", ("greedy", "random"), "greedy", "how playouts choose")

_TABLE: dict[str, _Entry] = {
    "random": _Entry(_plain(RandomPolicy), (), "uniform over the legal turns"),
    "greedy": _Entry(_plain(GreedyPolicy), (), "the most immediate round points"),
    "lookahead": _Entry(_lookahead, (), "the best tableau, unfinished sets valued by expected completion"),
    "ismcts": _Entry(_ismcts, (_ITERATIONS, _TIME, _ROLLOUT),
                     "information-set Monte Carlo tree search to the end of the round"),
    "exact": _Entry(_exact, (
        _ITERATIONS, _TIME, _ROLLOUT,
        Option("fallback", ("ismcts", "lookahead"), "ismcts", "what plays before both hands are known"),
        Option("depth", int, 7, "the most cards in hand at which the endgame solver is asked", low=1),
        Option("solve_time", float, 4.0, "CPU seconds the endgame solver may take per move",
               low=0.0, low_open=True),
        Option("nodes", int, 200_000, "the endgame solver's node budget per move", low=1),
        Option("objective", ("game", "round"), "game", "game: puddings and the score so far; round: "
               "the round's points only"),
        Option("rounds", ("last", "all"), "all", "the rounds the endgame solver plays: all (a round "
               "before the last values its puddings by the race to come), or last"),
    ), "two players: the endgame's equilibrium once both hands are known"),
}


def option_help() -> str:
    """One line per policy with its options, for --help."""
    lines = []
    for name, entry in _TABLE.items():
        opts = ", ".join(f"{o.name}={o.default}" for o in entry.options)
        lines.append(f"{name}: {entry.help}" + (f" (options: {opts})" if opts else ""))
    return "\n".join(lines)


def _format(value: Value) -> str:
    return format(value, "g") if isinstance(value, float) else str(value)


def parse_spec(spec: str) -> tuple[str, str, dict[str, Value]]:
    """(name, canonical spec, options given) of ``spec``; InputError names what is wrong."""
    if not isinstance(spec, str):
        raise InputError(f"policy {spec!r}: give a policy name such as 'greedy' or 'ismcts:iterations=1000'")
    text = spec.strip()
    name, _, rest = text.partition(":")
    name = name.strip()
    entry = _entry(name)
    if entry is None:
        names = [*_TABLE, *(n for n in POLICIES if n not in _TABLE)]
        near = difflib.get_close_matches(name, names, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise InputError(f"unknown policy {name!r}{hint} (policies: {', '.join(names)})")
    known = {o.name: o for o in entry.options}
    given: dict[str, Value] = {}
    if rest.strip() or text.endswith(":"):
        for part in rest.split(","):
            key, eq, raw = part.partition("=")
            key, raw = key.strip(), raw.strip()
            if not eq or not key or not raw:
                raise InputError(f"policy {spec!r}: {part.strip()!r} is not OPTION=VALUE "
                                 f"(e.g. {name}:{_example(entry, name)})")
            option = known.get(key)
            if option is None:
                if not known:
                    raise InputError(f"policy {spec!r}: {name} takes no options")
                near = difflib.get_close_matches(key, list(known), n=1)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                raise InputError(f"policy {spec!r}: unknown option {key!r}{hint} "
                                 f"(options of {name}: {', '.join(known)})")
            if key in given:
                raise InputError(f"policy {spec!r}: option {key!r} is given twice")
            given[key] = option.parse(raw, spec)
    canonical = name + "".join(
        (":" if i == 0 else ",") + f"{k}={_format(v)}" for i, (k, v) in enumerate(given.items()))
    return name, canonical, given


def _entry(name: str) -> _Entry | None:
    """The table's entry, or one for a policy a caller added to spec.policies.POLICIES (no options)."""
    entry = _TABLE.get(name)
    if entry is None and name in POLICIES:
        entry = _Entry(_plain(POLICIES[name]), (), "")
    return entry


def _example(entry: _Entry, name: str) -> str:
    if not entry.options:
        return "(no options)"
    o = entry.options[0]
    return f"{o.name}={o.default}"


def make_policy(spec: str) -> Policy:
    """The policy ``spec`` names (``NAME[:OPTION=VALUE,...]``), with its options' defaults filled in.

    Raises InputError for an unknown policy (naming the nearest) or a bad option."""
    name, canonical, given = parse_spec(spec)
    entry = _entry(name)
    assert entry is not None  # parse_spec found it
    options: dict[str, Value] = {o.name: o.default for o in entry.options}
    options.update(given)
    return entry.factory(canonical, options, given)


def _is_policy(value: object) -> bool:
    return isinstance(getattr(value, "name", None), str) and callable(getattr(value, "choose", None))


def resolve_policies(players: int, specs: object) -> tuple[Policy, ...]:
    """One policy object per player from ``specs``: None = all random; one spec or policy object
    = for everyone (a spec makes a fresh object per seat, so a policy's memory and counters are
    its seat's); else a list, one per player. InputError for anything else."""
    if specs is None or isinstance(specs, str) or _is_policy(specs):
        listed: list[object] = [] if specs is None else [specs]
    elif isinstance(specs, Sequence):
        listed = list(specs)
    else:
        raise InputError(f"policy {specs!r}: give a policy spec such as 'greedy', a policy object, "
                         "or a list of them, one per player")
    for item in listed:
        if not isinstance(item, str) and not _is_policy(item):
            raise InputError(f"policy {item!r}: give a policy spec such as 'ismcts:iterations=1000' or "
                             "an object with a name and choose(view, options, rng)")
    given = listed or ["random"]
    if len(given) == 1:
        given = given * players
    if len(given) != players:
        raise InputError(
            f"give one policy for everyone or one per player: got {len(given)} for {players} players"
        )
    return tuple(make_policy(p) if isinstance(p, str) else cast(Policy, p) for p in given)


#: The policy names, in the order --help lists them.
POLICY_NAMES: tuple[str, ...] = tuple(_TABLE)
