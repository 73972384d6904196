"""The cost of `fives serve`'s wrong-type check (issue 40): every shipped case's request answered
by `serve.handle`, with the check and with it replaced by a no-op (the baseline), in one run,
interleaved; prints requests per second of each and the ratio.

    python benchmarks/serve_checks.py [--repeat 3] [--kind turn]
"""
from __future__ import annotations

import argparse
import time
from typing import Any

from fives.conformance.cases.fixtures import load_cases
from fives.conformance.engines import serve
from fives.conformance.engines.drivers import ReferenceEngine


def requests(kind: str | None) -> list[dict[str, Any]]:
    return [{"id": c.id, "type": c.kind, "game": c.game, "input": c.input}
            for c in load_cases() if c.profile is None and "slow" not in c.tags and (kind is None or c.kind == kind)]


def seconds(engine: ReferenceEngine, lines: list[dict[str, Any]]) -> float:
    t0 = time.perf_counter()
    for msg in lines:
        serve.handle(engine, msg)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kind")
    args = ap.parse_args()
    lines, engine = requests(args.kind), ReferenceEngine()
    checked, unchecked = [], []
    real = serve.wrong_type
    seconds(engine, lines)  # warm: rules, caches, the kinds' field types
    for _ in range(args.repeat):
        serve.wrong_type = real
        checked.append(seconds(engine, lines))
        serve.wrong_type = lambda kind, value: None  # the baseline: no check
        unchecked.append(seconds(engine, lines))
    serve.wrong_type = real
    best_c, best_u = min(checked), min(unchecked)
    print(f"{len(lines)} requests: with the check {len(lines) / best_c:,.0f}/s, without {len(lines) / best_u:,.0f}/s; "
          f"time ratio {best_c / best_u:.3f} (best of {args.repeat})")


if __name__ == "__main__":
    main()
