"""The one place for Z3 calls costs nothing measurable: ``decide`` against a direct ``check()``.

Baseline, measured in the same process: the same small questions (a tableau enumeration's
size: a few thousand checks on one solver, push/pop around each) asked with ``s.check()``.
Target: ratio decide / direct at most 1.10 (the budget is set on a solver built with it, so
``decide`` adds a Python call and a dictionary look-up per check).
"""

from __future__ import annotations

import time

import z3
from sushigo.spec.model.budget import Budget, decide


def _questions(n: int) -> tuple[z3.Solver, list[z3.BoolRef]]:
    xs = [z3.Int(f"x{i}") for i in range(6)]
    s = z3.SolverFor("QF_LIA")
    s.set("rlimit", 50_000_000)
    s.add(*[x >= 0 for x in xs], z3.Sum(xs) == 10)
    return s, [xs[k % 6] == k % 11 for k in range(n)]


def _run(ask: str, n: int) -> float:
    s, qs = _questions(n)
    t0 = time.perf_counter()
    for q in qs:
        s.push()
        s.add(q)
        if ask == "direct":
            s.check()  # the baseline decide is measured against
        else:
            decide(s, Budget.kept())
        s.pop()
    return time.perf_counter() - t0


def main(argv: list[str]) -> None:
    n = int(argv[0]) if argv else 3000
    from tabulate import tabulate

    best = {k: min(_run(k, n) for _ in range(3)) for k in ("direct", "decide")}
    rows = [[k, n, f"{v:.3f}", f"{v / best['direct']:.2f}"] for k, v in best.items()]
    print(tabulate(rows, headers=["way", "checks", "seconds (best of 3)", "ratio to direct"]))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
