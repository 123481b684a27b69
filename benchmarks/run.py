"""Run every benchmark (``benchmarks/bench_*.py``), or those named: ``python -m benchmarks.run [name ...]``.

Each benchmark is a module with ``main(argv: list[str]) -> None`` that prints its own table.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time

import benchmarks


def main(argv: list[str] | None = None) -> None:
    names = sys.argv[1:] if argv is None else argv
    found = sorted(i.name for i in pkgutil.iter_modules(benchmarks.__path__) if i.name.startswith("bench_"))
    chosen = [n for n in found if not names or n in names or n.removeprefix("bench_") in names]
    for name in chosen:
        print(f"== {name}")
        t0 = time.perf_counter()
        importlib.import_module(f"benchmarks.{name}").main([])
        print(f"({name}: {time.perf_counter() - t0:.1f} s)\n")


if __name__ == "__main__":
    main()
