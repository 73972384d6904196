"""The fuzzer against every mutant engine: time to find and shrink each, requests per second.

    python benchmarks/fuzz.py [--seconds 60] [--seed 0] [--in-process] [--mutant NAME ...]

For each mutant of fives/conformance/mutants/registry.py and fives/conformance/mutants/play.py, runs the fuzzer against
`fives serve --mutant NAME` (through the protocol; `--in-process` uses the mutant engine in
process instead) until it reports the mutant's clause with a case of at most 4 placements,
or `--seconds` pass. Then checks the written fixture: it must fail the mutant and pass the
reference. Also fuzzes `fives serve` itself for `--clean-seconds` (default 60): it must find
nothing. Prints one row per mutant and the requests per second through the protocol.

    python benchmarks/fuzz.py --default [--seed 0] [--mutant NAME ...]

The default fuzz (500 draws, `fives conformance fuzz`'s default) against every mutant in
process (issue 37: it must find every one): the engine requests sent when the first finding
came and when the first one under the mutant's clause came (`Mutant.clauses_in`), the
findings, and whether each is filed under the mutant's clause. Then the time of a default
fuzz of the reference against the same fuzz without the second lane (the generators before
issue 37) measured in the same run, as a ratio. Exits 1 if a mutant is missed.
"""
from __future__ import annotations

import argparse
import sys
import time

from fives.conformance.engines.drivers import Engine, ReferenceEngine
from fives.conformance.engines.handle import EngineSpec
from fives.conformance.cases.fixtures import Case
from fives.conformance.fuzz import Finding, FuzzReport, Fuzzer
from fives.conformance.mutants.registry import Mutant, all_mutants
from fives.conformance.runner import run_cases

MAX_PLACEMENTS = 4


def engine_for(m: Mutant | None, in_process: bool) -> Engine:
    if in_process:  # no time limit in process (timeout 0), as the fuzzer's own oracle has none
        return EngineSpec(None, timeout=0, hooks=m.hooks() if m else None, name=m.name if m else None).open()
    return EngineSpec(f"{sys.executable} -m fives.cli serve" + (f" --mutant {m.name}" if m else ""), timeout=20).open()


def hit(m: Mutant, report: FuzzReport) -> Finding | None:
    ok = [f for f in report.findings if f.clause in m.clauses_in(f.game) and f.size["placements"] <= MAX_PLACEMENTS]
    return min(ok, key=lambda f: f.seconds_to_find, default=None)


def verified(m: Mutant, f: Finding, seed: int) -> bool:
    """The fixture fails the mutant and passes the reference (both in process)."""
    c = f.case(seed)
    case = Case(c["id"], c["kind"], c["game"], tuple(c["clauses"]), c["source"], c["input"], c["expect"], "fuzz")
    bad = run_cases(ReferenceEngine(m.hooks(), name=m.name), [case])[0].status
    good = run_cases(ReferenceEngine(), [case])[0].status
    return bad == "failed" and good == "passed"


def default_reach(mutants: list[Mutant], seed: int) -> int:
    """The default fuzz against every mutant: the rows of `--default`; 1 if one is missed."""
    print(f"{'mutant':<34} {'clause':<12} {'first':>6} {'own':>6} {'found':>6}  labels")
    missed = []
    for m in mutants:
        report = Fuzzer(ReferenceEngine(m.hooks(), name=m.name), seed=seed).run(cases=500)
        firsts = sorted(f.requests_to_find for f in report.findings)
        own = sorted(f.requests_to_find for f in report.findings if f.clause in m.clauses_in(f.game))
        wrong = sorted({f.clause for f in report.findings if f.clause not in m.clauses_in(f.game)})
        if not firsts:
            missed.append(m.name)
        print(f"{m.name:<34} {m.clause:<12} {firsts[0] if firsts else '-':>6} {own[0] if own else '-':>6} "
              f"{len(firsts):>6}  {'all under its clause' if not wrong else 'also ' + ', '.join(wrong)}")
    times = {}
    for lane in (False, True):
        fuzzer = Fuzzer(ReferenceEngine(), seed=seed)
        if not lane:
            fuzzer.lane = {}
        t0 = time.perf_counter()
        fuzzer.run(cases=500)
        times[lane] = time.perf_counter() - t0
    print(f"default fuzz of the reference: {times[True]:.1f}s, {times[True] / times[False]:.2f}x the same fuzz "
          f"without the second lane ({times[False]:.1f}s, same run)")
    print(f"missed: {', '.join(missed) or 'none'}")
    return 1 if missed else 0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--default", action="store_true", help="the default fuzz (500 draws) against every mutant")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--clean-seconds", type=float, default=60.0, help="fuzz the reference itself (0: skip)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--in-process", action="store_true")
    ap.add_argument("--mutant", action="append", default=[])
    args = ap.parse_args()
    mutants = [m for m in all_mutants() if not args.mutant or m.name in args.mutant]
    if args.default:
        sys.exit(default_reach(mutants, args.seed))
    print(f"{'mutant':<32} {'clause':<12} {'found':>7} {'shrink':>7} {'size':<26} {'req/s':>6}  fixture")
    total_req = total_s = 0.0
    missed = []
    for m in mutants:
        engine = engine_for(m, args.in_process)
        engine.start()
        t0 = time.monotonic()
        try:
            report = Fuzzer(engine, seed=args.seed).run(seconds=args.seconds, until=lambda r: hit(m, r) is not None)
        finally:
            engine.close()
        total_req += report.requests
        total_s += report.seconds
        f = hit(m, report)
        rate = report.requests / max(report.seconds, 1e-9)
        if f is None:
            missed.append(m.name)
            seen = ", ".join(sorted({x.clause for x in report.findings})) or "nothing"
            print(f"{m.name:<32} {m.clause:<12} {'-':>7} {'-':>7} {'(saw ' + seen + ')':<26} {rate:6.0f}  -")
            continue
        s = f.size
        size = f"{s['placements']}p {s['hand_tiles']}h {s['boneyard']}b {s['players']}pl" if f.kind != "evaluate" \
            else f"{s['placements']} placements"
        ok = "fails mutant, passes reference" if verified(m, f, args.seed) else "NOT VERIFIED"
        print(f"{m.name:<32} {m.clause:<12} {f.seconds_to_find:6.1f}s {f.seconds_to_shrink:6.2f}s {size:<26} "
              f"{rate:6.0f}  {ok}  ({time.monotonic() - t0:.1f}s total)")
    print(f"requests per second over all mutant runs: {total_req / max(total_s, 1e-9):.0f}"
          f" ({'in process' if args.in_process else 'through the protocol'})")
    if args.clean_seconds > 0:
        engine = engine_for(None, args.in_process)
        engine.start()
        try:
            report = Fuzzer(engine, seed=args.seed).run(seconds=args.clean_seconds)
        finally:
            engine.close()
        print(f"fives serve: {report.draws} requests in {report.seconds:.0f}s "
              f"({report.requests / max(report.seconds, 1e-9):.0f}/s), {len(report.findings)} disagreements")
    if missed:
        print(f"missed: {', '.join(missed)}")


if __name__ == "__main__":
    main()
