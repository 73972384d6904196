"""Conformance cases per second: the reference engine in process, through the persistent line
protocol (`--engine CMD`), and with one process per case (`--oneshot`), over the same cases.

    python benchmarks/protocol.py [--engine "fives serve"] [--engine "node conformance/examples/js-engine/engine.js"]
                                  [--kind evaluate] [--repeat 1]

Each protocol mode includes its engine start-up (the handshake) and every process start, as a
user of `fives conformance run` pays them; the in-process mode loads nothing per case.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import time
from collections import Counter

from fives.engine import Engine, OneShotEngine, ProcessEngine, ReferenceEngine
from fives.fixtures import load_cases
from fives.kinds import load_kinds
from fives.runner import Filters, run_cases


def measure(engine: Engine, cases: list, kinds: dict) -> tuple[float, Counter[str]]:
    t0 = time.perf_counter()
    engine.start()
    try:
        results = run_cases(engine, cases, kinds)
    finally:
        engine.close()
    return time.perf_counter() - t0, Counter(r.status for r in results)


def main() -> None:
    default_serve = "fives serve" if shutil.which("fives") else f"{sys.executable} -m fives.cli serve"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", action="append", help=f"engine command (repeatable; default {default_serve!r})")
    ap.add_argument("--kind", action="append", help="case kinds to run (repeatable; default evaluate)")
    ap.add_argument("--repeat", type=int, default=1, help="run the case list this many times in every mode")
    ap.add_argument("--timeout", type=float, default=30.0)
    args = ap.parse_args()
    kinds = load_kinds()
    cases = Filters(kinds=tuple(args.kind or ["evaluate"])).select(load_cases(None), kinds) * args.repeat
    rows: list[tuple[str, str, float, Counter[str]]] = []
    rows.append(("in-process", "fives reference", *measure(ReferenceEngine(), cases, kinds)))
    for command in args.engine or [default_serve]:
        rows.append(("persistent", command, *measure(ProcessEngine(command, timeout=args.timeout), cases, kinds)))
        rows.append(("oneshot", command, *measure(OneShotEngine(command, timeout=args.timeout), cases, kinds)))

    print(f"{'mode':11} {'engine':52} {'cases':>6} {'seconds':>8} {'cases/s':>9}  statuses")
    for mode, command, seconds, statuses in rows:
        status = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
        print(f"{mode:11} {command[:52]:52} {len(cases):6d} {seconds:8.3f} {len(cases) / seconds:9.1f}  {status}")
    rate = {(m, c): len(cases) / s for m, c, s, _ in rows}
    inproc = rate[("in-process", "fives reference")]
    for command in args.engine or [default_serve]:
        p, o = rate[("persistent", command)], rate[("oneshot", command)]
        print(f"{command}: persistent is {p / o:.1f}x oneshot; in-process is {inproc / p:.1f}x persistent")
    print(f"({len(cases)} cases of kind {', '.join(args.kind or ['evaluate'])}, repeated {args.repeat}x; "
          "protocol modes include engine start-up)")


if __name__ == "__main__":
    main()
