"""How often the default fuzz reaches each clause's situations, per 500 draws.

    python benchmarks/fuzz_rare.py [--draws 500] [--seeds 0 1 2 3 4] [--situations]

For each seed, draws the first `--draws` requests of `fives conformance fuzz` (both games,
every kind; the same requests diagnose's fuzz stage sends), answers each with the reference
and counts, for every clause of spec/rules.md, the requests that exercise it
(fives/conformance/fuzz/situations.py: a blocked hand, a tie, a continuation into the target,
going out on a winning tile, a zero sum, a score below zero, the last boneyard tile drawn,
partnership settlements...). Prints one row per clause (its count for each seed, the least,
and what shows it), then the rare turns of fives/conformance/fuzz/rare.py as before
(`--situations`). Exits 1 if some clause is reached 0 times for some seed. Nothing is timed.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter

from fives.conformance.cases.clauses import load_clauses
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.fuzz import Fuzzer
from fives.conformance.fuzz.rare import SITUATIONS as RARE, situations
from fives.conformance.fuzz.situations import exercised, situation_of

COLUMNS = (*RARE, "refused-action")


def count(seed: int, draws: int) -> tuple[Counter[str], Counter[str]]:
    """(requests per clause, requests per rare turn situation) among the first `draws`."""
    fuzzer = Fuzzer(ReferenceEngine(), seed=seed)
    reference = fuzzer.oracle.reference
    clauses: Counter[str] = Counter()
    rare: Counter[str] = Counter()
    for i in range(draws):
        game, _, case = fuzzer.draw(i)
        answer = reference.answer(case["kind"], game, case["input"])
        clauses.update(exercised(reference.rules_for(game), case["kind"], case["input"], answer))
        rare.update(situations({**case, "expect": answer}))
        if case["kind"] == "turn" and "error" in answer:
            rare["refused-action"] += 1
    return clauses, rare


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--draws", type=int, default=500)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    ap.add_argument("--situations", action="store_true", help="also the rare turns of fuzz/rare.py")
    args = ap.parse_args()
    rows = {seed: count(seed, args.draws) for seed in args.seeds}
    print(f"requests exercising each clause, per {args.draws} default draws")
    print(f"{'clause':<13}" + "".join(f"{'seed ' + str(s):>8}" for s in args.seeds) + f"{'least':>7}  situations")
    zero = []
    for cid in load_clauses():
        counts = [rows[s][0][cid] for s in args.seeds]
        zero += [cid] if min(counts) == 0 else []
        what = situation_of(cid)
        print(f"{cid:<13}" + "".join(f"{n:>8}" for n in counts) + f"{min(counts):>7}  {what}")
    if args.situations:
        print(f"\n{'seed':>6} " + " ".join(f"{c:>17}" for c in COLUMNS))
        for seed in args.seeds:
            print(f"{seed:>6} " + " ".join(f"{rows[seed][1][c]:>17}" for c in COLUMNS))
    print(f"clauses reached 0 times for some seed: {', '.join(zero) or 'none'}")
    return 1 if zero else 0


if __name__ == "__main__":
    sys.exit(main())
