"""Every disagreement asked again: an engine whose answers change between asks is nondeterministic.

Each case the target answered otherwise than the reference (a wrong score, or an exception,
a wrong type, an absurd number) is asked twice more, each time of a fresh engine process, the
second time in the reverse order: an engine that drifts after some calls, or whose answer
depends on what it was asked before, meets the case at another point of its life. When an
answer changes, the run reports one adapter fault, ``nondeterministic``, with the case and the
answers, and no rule fault: a fault search over answers that change would report noise as many
"independent" faults. The search's own reported cases are asked again the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sushigo.checks.conform.engine import BadTarget, Engine, OutOfTime, Reply
from sushigo.checks.conform.faults import Side
from sushigo.checks.conform.report import Disagreement

#: Disagreements asked again per side (each ask is one pipelined call: 2000 cost about a second).
REASK = 1000
#: Adapter faults that are answers (cheap to ask again); the others end the process.
_ANSWERS = ("raised", "wrong type", "absurd")


def disagreements(side: Side, cases: Sequence[Any]) -> list[Any]:
    """The asked cases whose answer is not the reference's (at most :data:`REASK`)."""
    out = []
    for c in dict.fromkeys(cases):
        ans = side.answers.get(c)
        if ans is None:
            continue
        if (ans.kind in _ANSWERS) or (ans.value is not None and list(ans.value) != side.ref_total(c)):
            out.append(c)
            if len(out) == REASK:
                break
    return out


def _same(a: Reply, b: Reply) -> bool:
    # A time-out on the second ask may be the machine's load, not the engine: not a change.
    return b.kind == "timed out" or (a.value, a.kind) == (b.value, b.kind)


def changes(side: Side, cases: Sequence[Any], fresh: Callable[[], Engine]) -> dict[Any, list[Reply]]:
    """The cases whose answer changed when asked again, each with every answer it got."""
    seen: dict[Any, list[Reply]] = {c: [side.answers[c]] for c in cases}
    for order in (list(cases), list(cases)[::-1]):
        if not order:
            break
        try:
            with fresh() as engine:
                got = engine.call_many(side.fn, [side.request(c) for c in order])
        except (BadTarget, OutOfTime):
            break  # it loaded before: a target that will not load again is no answer here
        for c, ans in zip(order, got, strict=False):  # fewer when the deadline came
            seen[c].append(ans)
    return {c: a for c, a in seen.items() if not all(_same(a[0], b) for b in a[1:])}


def _shown(ans: Reply) -> str:
    return str(list(ans.value)) if ans.value is not None else ans.detail


def entry(side: Side, changed: dict[Any, list[Reply]]) -> tuple[dict[str, Any], Disagreement]:
    """The one adapter fault (and its ``disagreements`` twin) of a nondeterministic target."""
    case = min(changed, key=side.size)
    detail = ("answered " + ", then ".join(_shown(a) for a in changed[case]) + " on the same case, asked "
              "again in fresh processes: its answers change between asks, so no disagreement is held "
              f"against a rule ({len(changed)} case(s) changed)")
    fn = side.fn
    doc = {"function": fn, "kind": "nondeterministic", "detail": detail, "case": side.fmt(case),
           "cases": len(changed), "first_seen": side.fmt(case), "minimised": False}
    return doc, Disagreement(side.kind, ("target error",), side.fmt(case), side.ref_total(case), detail,
                             len(changed), side.fmt(case))
