"""What the cases that pin a profile's values cost a run under it, in one run:

    python benchmarks/profile_pins.py [--repeat 3] [--profile NAME ...]

For each shipped profile (or those named) P:
- `plan`: the baseline, `plan_under(P, suite)`: every case of the default suite answered again
  by the reference under P, which every run under P has always done before its engine starts;
- `pins`: `pin_cases(P)`: the rivals of every value P sets played and the pins found;
- `run pins`: the pins run through the in-process reference under P (what an engine is asked more);
- the number of pins and of rivals, and the rivals no state separates.

Each time is the best of `--repeat`; the ratio is pins over plan, both measured here. The suite is
loaded once (its load is the same with or without pins).
"""
from __future__ import annotations

import argparse
import time
from typing import Any, Callable

from fives.conformance.cases.expected_under import plan_under
from fives.conformance.cases.fixtures import load_cases
from fives.conformance.cases.profile_pins import pin_cases, with_pins
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.runner import run_cases
from fives.profiles import load_profile, shipped_profiles


def best(repeat: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="append", default=[])
    args = ap.parse_args()
    suite = load_cases(None)
    print(f"{'profile':<22} {'plan s':>7} {'pins s':>7} {'ratio':>6} {'run pins s':>10} {'pins':>5} {'rivals':>6}  unpinned")
    total_plan = total_pins = 0.0
    for name in args.profile or sorted(shipped_profiles()):
        p = load_profile(name)
        plan_s, (cases, plan) = best(args.repeat, lambda: plan_under(p, suite))
        pins_s, pins = best(args.repeat, lambda: pin_cases(p))
        added, full = with_pins([], plan, None)
        run_s, results = best(1, lambda: run_cases(ReferenceEngine(profile=p), added, plan=full))
        assert all(r.status == "passed" for r in results), name
        total_plan, total_pins = total_plan + plan_s, total_pins + pins_s
        print(f"{name:<22} {plan_s:7.2f} {pins_s:7.2f} {pins_s / plan_s:6.2f} {run_s:10.2f} {len(pins.cases):5d} "
              f"{pins.rivals:6d}  {', '.join(pins.unpinned) or '-'}")
    print(f"{'all':<22} {total_plan:7.2f} {total_pins:7.2f} {total_pins / total_plan:6.2f}")


if __name__ == "__main__":
    main()
