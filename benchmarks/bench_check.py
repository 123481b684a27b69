"""Benchmark of ``sushigo check``: cases per second of each property, the time of the default budget,
and the peak memory of the whole run (issue 14 target 5: at most 300 MB, at least 2x the cases/s).

``python -m benchmarks.bench_check`` runs the default budget (2,000 cases per
property family, every named ruleset, every enumerated edge case) on 2 worker
processes, as ``sushigo check`` does; ``--quick`` runs the quick profile (300).
Wall time depends on the machine's load, so the CPU time of the run is shown too.

``--memory`` instead runs ``sushigo check --json`` as a user does, in a child process, and
samples that process and its workers every 0.1 s (``/proc``, Linux): the peak of their summed
proportional set size (PSS: a page shared by the forked workers counts once, split between
them), the peak of their summed resident set size (shared pages counted in every process), the
largest single process (``ru_maxrss``), the cases checked, and cases per wall and per CPU second.
``--python PATH`` measures another installation's ``sushigo`` (e.g. a checkout of main), for
a before/after table measured the same way.

``--versus PATH [--pairs N]`` measures the way ``--memory`` does, alternating this installation
with the one of ``PATH`` (a baseline's python, e.g. a worktree of b6e1ce7 with its own venv)
``N`` times each (default 2), and prints every run, the load average around it, and the ratio of
cases per CPU second (this / baseline) per pair and their median (issue 27 item 7: at least 2x,
peak memory under 300 MB, the same cases and verdicts).

``--tasks`` finds what holds the memory: each task of the run (a property or an edge-case
family) in a process of its own, forked from this one, with its peak resident set (``ru_maxrss``
from ``os.wait4``) and CPU seconds; the CPU seconds choose ``checks.runner.SLOW``, the tasks
started first.

``--compare [NAME ...]`` measures the ways ``Checker.agrees`` can answer against each other in
this one process: each property (or edge-case family) runs serially three times, from fresh
models each time (``checks.properties.EVALUATOR``): the solver deciding every case (the path
before any evaluator), the substitution evaluator (``Z3_substitute`` and ``z3.simplify`` per
case), and the compiled evaluator (the default); the table shows the cases per CPU second of
each and the compiled path's ratios to the other two (quick budget unless ``--default``).
Same cases, same verdicts: the cases columns must be equal.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sushigo.checks import runner as R
from tabulate import tabulate


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _tree(root: int) -> list[int]:
    """``root`` and every descendant (from /proc/*/stat parent ids)."""
    parent: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    out, frontier = [root], [root]
    while frontier:
        frontier = [p for p, pp in parent.items() if pp in frontier]
        out += frontier
    return out


def _memory_kb(pid: int) -> tuple[int, int]:
    """(PSS, RSS) of one process in kB, (0, 0) if it is gone."""
    pss = rss = 0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                pss = int(line.split()[1])
            elif line.startswith("Rss:"):
                rss = int(line.split()[1])
    except OSError:
        pass
    return pss, rss


def measure_cli(python: str, args: list[str]) -> dict[str, float]:
    """Run ``python -m sushigo check --json ARGS``; its cases, time and peak memory."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen([python, "-m", "sushigo", "check", "--json", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            cwd=tempfile.gettempdir())  # not a checkout: its folders would shadow the package
    peak_pss = peak_rss = 0
    while proc.poll() is None:
        pids = _tree(proc.pid)
        mems = [_memory_kb(p) for p in pids]
        peak_pss = max(peak_pss, sum(m[0] for m in mems))
        peak_rss = max(peak_rss, sum(m[1] for m in mems))
        time.sleep(0.1)
    out = proc.stdout.read() if proc.stdout else ""
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    report = json.loads(out)
    cases = sum(p["examples"] for p in report["properties"])
    return {"cases": cases, "ok": float(bool(report["ok"])), "wall": wall, "cpu": cpu,
            "pss_mb": peak_pss / 1024, "rss_mb": peak_rss / 1024, "max_rss_mb": after.ru_maxrss / 1024}


def memory_main(argv: list[str]) -> None:
    python = argv[argv.index("--python") + 1] if "--python" in argv else sys.executable
    extra = ["--profile", "quick"] if "--quick" in argv else []
    load = os.getloadavg()[0]
    m = measure_cli(python, extra)
    load_after = os.getloadavg()[0]
    rows = [[python, f"{m['cases']:.0f}", "yes" if m["ok"] else "NO", f"{m['wall']:.0f}", f"{m['cpu']:.0f}",
             f"{m['cases'] / m['wall']:.0f}", f"{m['cases'] / m['cpu']:.0f}", f"{m['pss_mb']:.0f}",
             f"{m['rss_mb']:.0f}", f"{m['max_rss_mb']:.0f}"]]
    print(tabulate(rows, headers=["sushigo of", "cases", "ok", "wall s", "CPU s", "cases/s wall",
                                  "cases/CPU s", "peak PSS MB", "peak RSS MB (sum)", "largest process MB"],
                   disable_numparse=True))
    print(f"load average {load:.1f} before, {load_after:.1f} after, {os.cpu_count()} cores; "
          "target: peak memory at most 300 MB")


def versus_main(argv: list[str]) -> None:
    base = argv[argv.index("--versus") + 1]
    pairs = int(argv[argv.index("--pairs") + 1]) if "--pairs" in argv else 2
    extra = ["--profile", "quick"] if "--quick" in argv else []
    rows, ratios, counts = [], [], set()
    for k in range(pairs):
        rate = {}
        # Alternate which side goes first, so a load that rises or falls during the pair is shared.
        sides = [("baseline", base), ("this", sys.executable)]
        for label, python in sides if k % 2 == 0 else sides[::-1]:
            load = os.getloadavg()[0]
            m = measure_cli(python, extra)
            rate[label] = m["cases"] / m["cpu"]
            counts.add((m["cases"], m["ok"]))
            rows.append([f"{label} ({python})", f"{m['cases']:.0f}", "yes" if m["ok"] else "NO",
                         f"{m['wall']:.0f}", f"{m['cpu']:.1f}", f"{rate[label]:.0f}", f"{m['pss_mb']:.0f}",
                         f"{m['max_rss_mb']:.0f}", f"{load:.1f} / {os.getloadavg()[0]:.1f}"])
        ratios.append(rate["this"] / rate["baseline"])
    print(tabulate(rows, headers=["sushigo of", "cases", "ok", "wall s", "CPU s", "cases/CPU s",
                                  "peak PSS MB", "largest process MB", "load before / after"],
                   disable_numparse=True))
    median = statistics.median(ratios)
    print(f"cases per CPU second, this / baseline: pairs {', '.join(f'{r:.2f}x' for r in ratios)}; "
          f"median {median:.2f}x (target: at least 2x, peak PSS under 300 MB)")
    same = ("the same cases and verdicts on both" if len(counts) == 1
            else f"DIFFERENT cases or verdicts {counts}")
    print(f"{same}; {os.cpu_count()} cores shared with other jobs (load average per run above)")


def tasks_main(argv: list[str]) -> None:
    budget = R.PROFILES["quick" if "--quick" in argv else "default"]
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rows = []
    for name in R.task_names(R.Options(examples=budget)):
        t0 = time.perf_counter()
        pid = os.fork()
        if pid == 0:  # the child runs one task and reports by its exit status
            out = R.run_one(name, R.Options(examples=budget))
            os._exit(0 if out.status == "ok" else 1)
        _, status, usage = os.wait4(pid, 0)
        rows.append([name, f"{usage.ru_maxrss / 1024:.0f}", f"{usage.ru_utime + usage.ru_stime:.1f}",
                     f"{time.perf_counter() - t0:.1f}", "ok" if status == 0 else "FAIL"])
    print(tabulate(rows, headers=["task", "peak RSS MB", "CPU s", "wall s", "result"], disable_numparse=True))
    print(f"budget {budget} per family; this parent {base:.0f} MB before forking; "
          f"load average {os.getloadavg()[0]:.1f}")


def compare_main(argv: list[str]) -> None:
    from sushigo.checks import properties as P
    from sushigo.spec.model import compiled

    budget = R.PROFILES["default" if "--default" in argv else "quick"]
    names = [a for a in argv if not a.startswith("--")] or R.task_names(R.Options(examples=budget))
    load = os.getloadavg()[0]
    kinds = ("solver", "substitution", "compiled")
    rows, totals = [], {k: [0, 0.0] for k in kinds}
    for name in names:
        row: list[str] = [name]
        rate = {}
        for kind in kinds:
            P.EVALUATOR[0] = kind
            P.release_models()  # each path starts from fresh models, as a new process would
            compiled._function.cache_clear()
            t0 = time.process_time()
            out = R.run_one(name, R.Options(examples=budget))
            cpu = time.process_time() - t0
            totals[kind][0] += out.examples
            totals[kind][1] += cpu
            rate[kind] = out.examples / cpu
            row += [str(out.examples), out.status, f"{rate[kind]:.0f}"]
        row += [f"{rate['compiled'] / rate['solver']:.2f}", f"{rate['compiled'] / rate['substitution']:.2f}"]
        rows.append(row)
    P.EVALUATOR[0] = "compiled"
    rate = {k: n / c for k, (n, c) in totals.items()}
    rows.append(["total", *(x for k in kinds for x in (str(totals[k][0]), "", f"{rate[k]:.0f}")),
                 f"{rate['compiled'] / rate['solver']:.2f}",
                 f"{rate['compiled'] / rate['substitution']:.2f}"])
    print(tabulate(rows, headers=["task", "cases (solver)", "result", "cases/CPU s",
                                  "cases (substitution)", "result", "cases/CPU s",
                                  "cases (compiled)", "result", "cases/CPU s",
                                  "compiled / solver", "compiled / substitution"], disable_numparse=True))
    print(f"budget {budget} per family, serial, one process; load average {load:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after, {os.cpu_count()} cores")


def main(argv: list[str]) -> None:
    if "--compare" in argv:
        compare_main(argv)
        return
    if "--memory" in argv:
        memory_main(argv)
        return
    if "--tasks" in argv:
        tasks_main(argv)
        return
    if "--versus" in argv:
        versus_main(argv)
        return
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
