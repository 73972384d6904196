"""Golden cases per second (1 and 2 jobs) and peak memory as the case count grows.

    python benchmarks/golden.py [--cases 2000] [--big 100000]

Each run is a separate process (`fives golden generate`), so its peak RSS is measured
alone (`resource.getrusage(RUSAGE_CHILDREN)` of a fresh child, workers included).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time


def run(cases: int, jobs: int, game: str = "horse-race") -> tuple[float, float]:
    """(cases per second, peak RSS in MiB of the largest process) for one generation."""
    with tempfile.TemporaryDirectory() as out:
        code = ("import resource, sys, time\n"
                "from fives.cli import main\n"
                "t = time.perf_counter()\n"
                "try:\n"
                f"    main(['golden', 'generate', '--game', {game!r}, '--cases', '{cases}', '--seed', '1', "
                f"'--out', {out!r}, '--jobs', '{jobs}'])\n"
                "except SystemExit:\n"
                "    pass\n"
                "el = time.perf_counter() - t\n"
                "me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
                "ch = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
                "print(el, max(me, ch), file=sys.stderr)\n")
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        elapsed, rss_kb = p.stderr.strip().splitlines()[-1].split()
    return cases / float(elapsed), int(rss_kb) / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=2000)
    ap.add_argument("--big", type=int, default=100_000, help="the large run for the memory figure (0: skip)")
    args = ap.parse_args()
    print(f"{'cases':>8} {'jobs':>4} {'cases/s':>9} {'peak RSS MiB':>13}")
    sizes = [(args.cases // 4, 1), (args.cases, 1), (args.cases, 2)] + ([(args.big, 2)] if args.big else [])
    for n, jobs in sizes:
        rate, rss = run(n, jobs)
        print(f"{n:8d} {jobs:4d} {rate:9.1f} {rss:13.1f}", flush=True)
    print("(Horse Race, seed 1; memory stays flat as the case count grows: only the IDs seen are kept)")


if __name__ == "__main__":
    t0 = time.time()
    main()
    print(f"total {time.time() - t0:.0f}s")
