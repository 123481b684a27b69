"""The hardened document loader against plain ``json.loads``, and the refusal of a huge file.

``python -m benchmarks.bench_loader [--records N] [--seed S]``

Documents are real game records (the executor's, seeded), alone and as a list (what
``sushigo replay`` reads). Rows: the baseline ``json.loads`` of the same bytes; the loader's
checks without the schema (size, UTF-8, depth scan, finite numbers, surrogates); the whole
loader with the schema; and refusing a 50 MB file from its size (issue 16: it used to be
read and parsed whole, 35 s and 950 MB). Times are the best of three, in CPU seconds of this
process (``time.process_time``), so other load on the machine does not count.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sushigo.spec.errors import InputError
from sushigo.spec.executor import play_game
from sushigo.spec.ruleset import OFFICIAL
from tabulate import tabulate

from sushigo.schemas import loader

BIG_FILE_BYTES = 50_000_000


def _best_of_three(work: Callable[[], object]) -> float:
    times = []
    for _ in range(3):
        t0 = time.process_time()
        work()
        times.append(time.process_time() - t0)
    return min(times)


def _refuse(path: str) -> None:
    try:
        loader.read_json(path, "score-document")
    except InputError:
        return
    raise AssertionError("a 50 MB document was not refused")


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(prog="bench_loader")
    ap.add_argument("--records", type=int, default=200, help="records in the list (default 200)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    games = [play_game(2 + k % 4, args.seed + k, OFFICIAL).to_json() for k in range(args.records)]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for what, doc, schema in (("one record", games[0], "record"),
                                  (f"{args.records} records", games, "records")):
            path = Path(tmp) / "doc.json"
            path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
            raw = path.read_bytes()
            base = _best_of_three(lambda raw=raw: json.loads(raw.decode("utf-8")))  # type: ignore[misc]
            checks = _best_of_three(lambda p=str(path): loader.read_json(p))  # type: ignore[misc]
            full = _best_of_three(lambda p=str(path), s=schema: loader.read_json(p, s))  # type: ignore[misc]
            size = f"{len(raw) / 1e3:.0f} kB"
            rows.append([what, size, "json.loads (baseline)", f"{base * 1e3:.2f}", "1.00"])
            rows.append([what, size, "loader, no schema", f"{checks * 1e3:.2f}", f"{checks / base:.2f}"])
            rows.append([what, size, "loader + schema", f"{full * 1e3:.2f}", f"{full / base:.2f}"])
        big = Path(tmp) / "big.json"
        with open(big, "wb") as fh:
            fh.truncate(BIG_FILE_BYTES)  # sparse: its size says 50 MB
        refuse = _best_of_three(lambda: _refuse(str(big)))
        rows.append(["50 MB file", f"{BIG_FILE_BYTES / 1e3:.0f} kB", "refused from its size",
                     f"{refuse * 1e3:.2f}", f"{refuse / base:.4f}"])
    print(tabulate(rows, headers=["document", "size", "reader", "ms (CPU)", "x json.loads"],
                   tablefmt="simple", disable_numparse=True))
    print("ratio: against json.loads of the same bytes (the 50 MB row: of the record list)")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
