"""Benchmark of ``sushigo check``: cases per second of each property, and the time of the default budget.

``python -m benchmarks.bench_check`` runs the default budget (2,000 cases per
property family, every named ruleset, every enumerated edge case) on 2 worker
processes, as ``sushigo check`` does; ``--quick`` runs the quick profile (300).
Wall time depends on the machine's load, so the CPU time of the run is shown too.
"""

from __future__ import annotations

import os
import resource
import sys
import time

from tabulate import tabulate

from sushigo.checks import runner as R


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    budget = R.PROFILES["quick" if quick else "default"]
    jobs = min(2, os.cpu_count() or 1)
    opts = R.Options(examples=budget)
    cpu0, t0 = _cpu(), time.perf_counter()
    outs = R.run_parallel(opts, jobs)
    wall, cpu = time.perf_counter() - t0, _cpu() - cpu0
    rows = [[o.prop, o.examples, f"{o.seconds:.1f}",
             f"{o.examples / o.seconds:.0f}" if o.seconds > 0 else "-", o.status] for o in outs]
    print(tabulate(rows, headers=["property", "cases", "time (s)", "cases/s", "result"],
                   disable_numparse=True))
    cases = sum(o.examples for o in outs)
    props = len(outs)
    print(f"\nbudget {budget} per family, {jobs} workers: {cases} cases, {props} properties in "
          f"{wall:.1f} s wall ({cpu:.1f} s CPU)")
    print(f"{props / wall:.2f} properties/s, {cases / wall:.0f} cases/s; "
          "target: the default budget in under 120 s on 2 cores")


if __name__ == "__main__":
    main(sys.argv[1:])
