"""What isolating the target costs ``sushigo conform``: calls per second through the child process.

``python -m benchmarks.bench_conform [--cases N] [--seed S]``

The cases are N drawn tables (seeded). The baseline is the example adapter's ``score_round``
called in this process, measured in the same run; "one at a time" is a request and its reply
per case through the child; "pipelined" is what conform does (requests written a window at a
time). Wall-clock seconds (the child is another process); the load average is printed with them.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import time
from pathlib import Path

from sushigo.checks import strategies as S
from sushigo.checks.conform import cases as K
from sushigo.checks.conform.engine import Engine, Limits
from sushigo.spec.ruleset import OFFICIAL
from tabulate import tabulate

ADAPTER = Path(__file__).resolve().parent.parent / "examples" / "conform_adapter.py"


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(prog="bench_conform")
    ap.add_argument("--cases", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    cases = [t.picks for t in K._collect(S.tables(OFFICIAL), args.cases, args.seed)]
    args_of = [(K.names(c), len(c)) for c in cases]
    spec = importlib.util.spec_from_file_location("bench_adapter", ADAPTER)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)

    t0 = time.perf_counter()
    direct = [tuple(mod.score_round(a)) for a, _ in args_of]
    base = time.perf_counter() - t0
    rows = [["in-process (baseline)", len(cases), f"{base:.3f}", f"{len(cases) / base:,.0f}", "1.0"]]
    with Engine(str(ADAPTER), Limits(), None) as engine:
        t0 = time.perf_counter()
        single = [engine.call("score_round", a, n).value for a, n in args_of]
        one = time.perf_counter() - t0
        t0 = time.perf_counter()
        piped = [a.value for a in engine.call_many("score_round", args_of)]
        many = time.perf_counter() - t0
    assert single == direct == piped, "the child must answer what the adapter answers in process"
    for name, sec in (("child, one at a time", one), ("child, pipelined (conform)", many)):
        rows.append([name, len(cases), f"{sec:.3f}", f"{len(cases) / sec:,.0f}", f"{sec / base:.1f}"])
    print(tabulate(rows, headers=["calls", "cases", "seconds", "cases/s", "x baseline"],
                   tablefmt="simple", disable_numparse=True))
    print(f"seed {args.seed}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
