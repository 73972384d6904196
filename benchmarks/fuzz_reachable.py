"""A long fuzz of every mutant engine writes no unreachable fixture (spec/fuzz.md, Reachable states).

    python benchmarks/fuzz_reachable.py [--minutes 10] [--jobs 2] [--seed 0] [--out DIR]

The wall budget: --minutes is the total, split evenly across the shipped mutants
(fives/conformance/mutants/registry.py, all_mutants()). A Pool of --jobs workers fuzzes one mutant each
at a time (in process, both games, every kind) for `seconds = minutes * 60 / mutants * jobs`,
so all of them together take about --minutes of wall time (plus the shrink in progress when
a mutant's time runs out, and start-up). Each mutant's findings are written as fixture files
(write_findings) into a temporary folder, or into --out/MUTANT to keep them; every written
fixture is read back (load_cases) and each case, and each finding's input itself, is checked
with reachable.problems under the rules of its game. One line per mutant, then a total; exit
status 1 if any fixture or finding is unreachable, with its problems. For one seed the run is
deterministic except for how many draws each mutant gets through in its time.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.cases.fixtures import load_cases
from fives.conformance.fuzz import Fuzzer
from fives.conformance.fuzz.output import write_findings
from fives.conformance.mutants.registry import all_mutants
from fives.conformance.cases.reachable import problems
from fives.rules import game_ids, load_rules


def fuzz_one(job: tuple[str, float, int, str | None]) -> dict[str, Any]:
    """Fuzz mutant `name` for `seconds`; write, read back and check its fixtures."""
    name, seconds, seed, out = job
    m = next(x for x in all_mutants() if x.name == name)
    t0 = time.monotonic()
    report = Fuzzer(ReferenceEngine(m.hooks(), name=name), games=game_ids(), seed=seed).run(seconds=seconds)
    bad: list[str] = []  # one line per unreachable finding or fixture case, with its problems
    for f in report.findings:  # the finding's input as the fuzzer kept it
        if ps := problems(load_rules(f.game), f.kind, f.input):
            bad.append(f"finding {f.id} ({f.game} {f.kind}, draw {f.draw}): {'; '.join(ps)}; input {f.input}")
    with tempfile.TemporaryDirectory(prefix=f"fuzz-{name}-") as tmp:
        folder = Path(out) / name if out else Path(tmp)
        paths = write_findings(report.findings, folder, seed)
        for path in paths:  # the fixture as written and read back
            for case in load_cases([path], cache=False):
                if ps := problems(load_rules(case.game), case.kind, case.input):
                    bad.append(f"fixture {path.name} case {case.id} ({case.game} {case.kind}): {'; '.join(ps)}; "
                               f"input {case.input}")
    return {"name": name, "draws": report.draws, "requests": report.requests, "findings": len(report.findings),
            "fixtures": len(paths), "bad": bad, "seconds": time.monotonic() - t0}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10.0, help="total wall budget, split across mutants")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", help="keep each mutant's fixtures in OUT/MUTANT (default: a temporary folder)")
    args = ap.parse_args(argv)
    names = [m.name for m in all_mutants()]
    jobs = max(1, args.jobs)
    share = args.minutes * 60 / len(names) * jobs
    print(f"{len(names)} mutants, {jobs} job(s), {share:.1f} s of fuzzing each, seed {args.seed}", flush=True)
    print(f"{'mutant':<34} {'draws':>7} {'requests':>9} {'findings':>8} {'fixtures':>8} {'unreach':>7} {'seconds':>8}",
          flush=True)
    t0 = time.monotonic()
    results: list[dict[str, Any]] = []
    with Pool(jobs) as pool:
        for r in pool.imap(fuzz_one, [(n, share, args.seed, args.out) for n in names]):
            results.append(r)
            print(f"{r['name']:<34} {r['draws']:>7} {r['requests']:>9} {r['findings']:>8} {r['fixtures']:>8} "
                  f"{len(r['bad']):>7} {r['seconds']:>8.1f}", flush=True)
    draws = sum(r["draws"] for r in results)
    fixtures = sum(r["fixtures"] for r in results)
    unreachable = sum(len(r["bad"]) for r in results)
    print(f"{len(results)} mutants, {draws} draws, {fixtures} fixtures written, {unreachable} unreachable, "
          f"in {time.monotonic() - t0:.0f} s")
    for r in results:
        for line in r["bad"]:
            print(f"UNREACHABLE {r['name']}: {line}")
    return 1 if unreachable else 0


if __name__ == "__main__":
    sys.exit(main())
