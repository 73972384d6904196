"""Extra pool cases for benchmarks/mutation_hunt.py: the small request kinds golden suites do not make.

    python benchmarks/mutation_pool.py --out DIR [--rules NAME ...] [--legal N] [--seed S]

Golden suites hold evaluate, turn, settle and match-end cases. This writes, per game and per
rules (the seeds' and each `--rules` profile, default: every shipped one), the other kinds'
questions: every `setup` configuration (1 to 6 players, with and without partnerships), every
`next-leader` situation, `tally` scores across the range a game's record shows, and `--legal`
`legal-placements` questions in small reached states (the fuzzer's generator). The expected
answers are the reference's. Output: DIR/<rules>/<game>.yaml fixture files, a profile's with a
file-level `rules`; the same seed gives the same files.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

import yaml

from fives.conformance.cases.fixtures import load_cases
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.fuzz.small import small_legal
from fives.conformance.golden.cases import PREFIX, case_id
from fives.profiles import load_profile, rules_under, shipped_profiles
from fives.rules import game_ids, load_rules

CLAUSES = {"setup": ("PLAYERS-1", "DEAL-1"), "next-leader": ("LEAD-1", "LEAD-3"), "tally": ("RECORD-1",),
           "legal-placements": ("PLACE-1",)}


def questions(rng: random.Random, rules: Any, legal: int) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for players in range(1, 7):
        for partners in (False, True):
            out.append(("setup", {"players": players, "partnerships": partners}))
    for players in sorted({n for n, _ in rules.configurations()}):
        out.append(("next-leader", {"players": players, "previous": None}))
        out.append(("next-leader", {"players": players, "previous": {"ended": "blocked"}}))
        for seat in range(players):
            out.append(("next-leader", {"players": players, "previous": {"ended": "gone-out", "last_tile_seat": seat}}))
    if rules.raw["record"]["kind"] == "tally":
        scores = sorted({*range(-120, 130, 5), 245, 250, 255, 495, 500, 505, 1000, -500})
        out += [("tally", {"score": s}) for s in scores]
    else:
        for players in sorted({n for n, _ in rules.configurations()}):
            target = rules.target_raw[players] // rules.display_divisor
            out += [("tally", {"score": s, "players": players}) for s in sorted({0, 1, 4, 5, 6, 29, 30, 31, 59, 60,
                                                                              target - 1, target, target + 1,
                                                                              target + 7})]
    made = 0
    while made < legal:
        q = small_legal(rng, rules)
        if q is not None:
            out.append(("legal-placements", q["input"]))
            made += 1
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--rules", action="append", help="a shipped profile (default: every one)")
    ap.add_argument("--legal", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    engine = ReferenceEngine()
    plans: list[tuple[str, str, Any]] = [("seeds", g, None) for g in game_ids()]
    for name in args.rules or shipped_profiles():
        p = load_profile(name)
        plans.append((name, p.extends, p))
    for label, game, profile in plans:
        rules = rules_under(profile, game) if profile is not None else load_rules(game)
        rng = random.Random(f"{args.seed}:{label}:{game}")
        cases, seen = [], set()
        for kind, inp in questions(rng, rules, args.legal):
            # the ID digests the question and, for a profile's case, the profile's name too
            cid = case_id(game, kind, inp if profile is None else {"input": inp, "rules": label})
            if cid in seen:
                continue
            seen.add(cid)
            try:
                answer = engine.answer_under(rules, kind, inp)
            except Exception:  # a question the reference refuses by raising is no pool case
                continue
            cases.append({"id": cid, "kind": kind, "game": game,
                          "clauses": [f"{PREFIX[game]}-{c}" for c in CLAUSES[kind]],
                          "source": {"derived": f"benchmarks/mutation_pool.py: seed {args.seed}, {label}"},
                          "description": f"{kind} question for the mutation hunt", "input": inp, "expect": answer})
        doc: dict[str, Any] = {"format": "fives-fixtures/1", "title": f"mutation pool: {game}, {label}"}
        if profile is not None:
            doc["rules"] = label
        doc["cases"] = cases
        path = args.out / label / f"{game}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(doc, sort_keys=False, width=120), encoding="utf-8")
        loaded = load_cases([path], cache=False)  # read back: a schema violation stops here, naming the case
        print(f"{path}: {len(loaded)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
