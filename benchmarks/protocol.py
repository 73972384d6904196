"""Conformance cases per second: the reference engine in process, through the persistent line
protocol (`--engine CMD`), and with one process per case (`--oneshot`), over the same cases;
each protocol mode also with `--jobs N` engine processes at once.

    python benchmarks/protocol.py [--engine "fives serve"] [--engine "node conformance/examples/js-engine/engine.js"]
                                  [--kind evaluate] [--repeat 1] [--jobs 1,2] [--limit N] [--modes persistent,oneshot]

Each protocol mode includes its engine start-up (the handshake) and every process start, as a
user of `fives conformance run` pays them; the in-process mode loads nothing per case. The
statuses of every `--jobs` run must equal those of `--jobs 1` (results do not depend on N);
the ratios are against `--jobs 1` of the same engine and mode, measured in the same run.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import time
from collections import Counter

from fives.conformance.engines.drivers import Engine, ReferenceEngine
from fives.conformance.engines.process import OneShotEngine, ProcessEngine
from fives.conformance.cases.fixtures import load_cases
from fives.conformance.runner import run_cases
from fives.conformance.cases.selection import CaseFilters


def measure(engine: Engine, cases: list, jobs: int = 1) -> tuple[float, Counter[str], list[str]]:
    t0 = time.perf_counter()
    engine.start()
    try:
        results = run_cases(engine, cases, jobs=jobs)
    finally:
        engine.close()
    return time.perf_counter() - t0, Counter(r.status for r in results), [r.status for r in results]


def main() -> None:
    default_serve = "fives serve" if shutil.which("fives") else f"{sys.executable} -m fives.cli serve"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", action="append", help=f"engine command (repeatable; default {default_serve!r})")
    ap.add_argument("--kind", action="append", help="case kinds to run (repeatable; default evaluate)")
    ap.add_argument("--repeat", type=int, default=1, help="run the case list this many times in every mode")
    ap.add_argument("--limit", type=int, default=0, help="only the first N cases (one-shot runs are slow)")
    ap.add_argument("--jobs", default="1,2", help="comma-separated engine process counts to measure (default 1,2)")
    ap.add_argument("--modes", default="persistent,oneshot", help="protocol modes to measure")
    ap.add_argument("--timeout", type=float, default=30.0)
    args = ap.parse_args()
    want = CaseFilters(kinds=tuple(args.kind or ["evaluate"]))
    cases = [c for c in load_cases(None) if want.matches(c)] * args.repeat
    if args.limit:
        cases = cases[:args.limit]
    jobs_list = [int(j) for j in args.jobs.split(",")]
    modes = args.modes.split(",")
    rows: list[tuple[str, str, int, float, Counter[str]]] = []
    seconds, statuses, _ = measure(ReferenceEngine(), cases)
    rows.append(("in-process", "fives reference", 1, seconds, statuses))
    mismatches = []
    for command in args.engine or [default_serve]:
        for mode in modes:
            cls = OneShotEngine if mode == "oneshot" else ProcessEngine
            base: list[str] | None = None
            for jobs in jobs_list:
                seconds, statuses, per_case = measure(cls(command, timeout=args.timeout), cases, jobs)
                rows.append((mode, command, jobs, seconds, statuses))
                if base is None:
                    base = per_case
                elif per_case != base:
                    mismatches.append(f"{mode} {command} --jobs {jobs}")

    print(f"{'mode':11} {'engine':48} {'jobs':>4} {'cases':>6} {'seconds':>8} {'cases/s':>9}  statuses")
    for mode, command, jobs, seconds, statuses in rows:
        status = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
        print(f"{mode:11} {command[:48]:48} {jobs:4d} {len(cases):6d} {seconds:8.3f} {len(cases) / seconds:9.1f}  {status}")
    rate = {(m, c, j): len(cases) / s for m, c, j, s, _ in rows}
    inproc = rate[("in-process", "fives reference", 1)]
    for command in args.engine or [default_serve]:
        first = jobs_list[0]
        if {"persistent", "oneshot"} <= set(modes):
            p, o = rate[("persistent", command, first)], rate[("oneshot", command, first)]
            print(f"{command}: persistent is {p / o:.1f}x oneshot; in-process is {inproc / p:.1f}x persistent")
        for mode in modes:
            for jobs in jobs_list[1:]:
                ratio = rate[(mode, command, jobs)] / rate[(mode, command, first)]
                print(f"{command} {mode}: --jobs {jobs} is {ratio:.2f}x --jobs {first} in cases/s")
    print(f"({len(cases)} cases of kind {', '.join(args.kind or ['evaluate'])}, repeated {args.repeat}x; "
          "protocol modes include engine start-up)")
    if mismatches:
        print(f"RESULTS DIFFER FROM --jobs {jobs_list[0]}: {', '.join(mismatches)}")
        sys.exit(1)


if __name__ == "__main__":
    main()
