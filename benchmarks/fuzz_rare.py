"""How often the fuzzer's requests show the rare situations, per 300 draws.

    python benchmarks/fuzz_rare.py [--draws 300] [--seeds 0 1 2 3 4]

For each seed, draws the first `--draws` requests of `fives conformance fuzz` (both games,
every kind; the same requests diagnose's fuzz stage sends) and counts the `turn` requests
that show each situation of fives/conformance/fuzz/rare.py: a draw that blocks the hand, a
continuation that goes out, the target reached mid-turn, a partnership tie, and a draw or
pass the seeds refuse. Prints one row per seed and the mean; nothing is timed.
"""
from __future__ import annotations

import argparse
from collections import Counter

from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.fuzz import Fuzzer
from fives.conformance.fuzz.rare import SITUATIONS, situations

COLUMNS = (*SITUATIONS, "refused-action")


def count(seed: int, draws: int) -> Counter[str]:
    fuzzer = Fuzzer(ReferenceEngine(), seed=seed)
    seen: Counter[str] = Counter()
    for i in range(draws):
        _, _, case = fuzzer.draw(i)
        seen.update(situations(case))
        if case["kind"] == "turn" and "error" in case["expect"]:
            seen["refused-action"] += 1
    return seen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--draws", type=int, default=300)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    args = ap.parse_args()
    print(f"{'seed':>6} " + " ".join(f"{c:>17}" for c in COLUMNS))
    total: Counter[str] = Counter()
    for seed in args.seeds:
        seen = count(seed, args.draws)
        total.update(seen)
        print(f"{seed:>6} " + " ".join(f"{seen[c]:>17}" for c in COLUMNS))
    n = len(args.seeds)
    print(f"{'mean':>6} " + " ".join(f"{total[c] / n:>17.1f}" for c in COLUMNS))


if __name__ == "__main__":
    main()
