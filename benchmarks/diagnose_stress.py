"""A harder test of the diagnosis search than benchmarks/diagnose_random.py: N seeded engines,
each a random profile of one to three dimensions, half of them with a random misreading mutant
on top (house rules and a bug, as a real engine has). For each: are the planted dimensions named
exactly (`--no-mutants`), and does no cause claim the bug's failures? In process (the suite's
answers are the engine's; no fuzzing), so hundreds of engines take minutes.

    python benchmarks/diagnose_stress.py [--engines 40] [--seed 7]
    python benchmarks/diagnose_stress.py --big [--seconds 170]
    python benchmarks/diagnose_stress.py --two-bugs [--engines 10]

`--big`: engines built on a shipped misreading with 600 or more failures (`fives serve --mutant
M`, through the protocol, both games), diagnosed with the default budget, the misreadings
searched (the bug named, exit 1) and not (`--no-mutants`: the bug as clusters): the time, the
requests, and whether every example and every cluster is shrunk.

`--two-bugs`: each engine a random profile with two misreadings on top (of different hooks,
each failing some case under the profile; in process): the planted dimensions must be named
exactly and no cluster merged by the inferred rules (spec/diagnose.md, "Clusters") may mix the
two bugs (hold a case only one bug changes the answer of, beside one only the other changes).
A difference pattern both bugs show first (`error: missing`: each lets some illegal action
through) mixes them before any merge: counted and said, not a failure of the merging.
"""
from __future__ import annotations

import argparse
import json
import random
import time

from fives.conformance.diagnose import diagnosis as dx
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.cases.fixtures import load_cases
from fives.conformance.mutants.registry import all_mutants
from fives.conformance.runner import run_cases
from fives.profile_space import random_profile


#: the shipped misreadings that fail 600 or more suite cases (both games together)
BIG = ("covered-branch-still-counts", "branches-before-lines")


def big(seconds: float) -> int:
    """`conformance diagnose --engine "fives serve --mutant M" --json --seconds S --out DIR
    [--no-mutants]` per big misreading, from Python (fives.conformance.sessions.diagnose)."""
    import sys
    import tempfile
    from pathlib import Path

    from fives.conformance.engines.handle import EngineSpec
    from fives.conformance.sessions.diagnose import Budget, DiagnoseOptions, diagnose

    wrong = 0
    for name in BIG:
        for extra in ([], ["--no-mutants"]):
            out = Path(tempfile.mkdtemp(prefix="dxbig-"))
            t0 = time.monotonic()
            outcome = diagnose(DiagnoseOptions(EngineSpec(f"{sys.executable} -m fives serve --mutant {name}"),
                                               budget=Budget(seconds), mutants=not extra))
            outcome.write(out / "dx")
            dt = time.monotonic() - t0
            d, rc = outcome.to_json(), 0 if outcome.conforms else 1
            items = [(c["cause"], c.get("shrunk")) for c in d["causes"]] + \
                [(g["group"][:60], g.get("shrunk")) for g in d["unexplained"]]
            not_shrunk = [f"{k}: {v}" for k, v in items if v != "shrunk"]
            named = [c["cause"] for c in d["causes"]]
            # named once per game it shows in; the budget bounds fuzz, search and shrinking (the
            # suite runs whole before it)
            ok = (rc == 1 and dt <= seconds + 60 and not not_shrunk
                  and (set(named) == {f"mutant {name}"} if not extra else not named and d["unexplained"]))
            wrong += not ok
            req = d["requests"]
            print(f"{name} {' '.join(extra) or '(mutants searched)'}: {d['failing']} failing; named {named}; "
                  f"{len(d['unexplained'])} cluster(s) "
                  + "".join(f"[{g['cases']} {g['group'][:90]}; {g.get('label')}; e.g. {g['example']}] "
                            for g in d["unexplained"])
                  + f"; not shrunk {not_shrunk or 'none'}; stopped {d['stopped']}; exit {rc}; requests "
                  f"{req['suite']}+{req['fuzz']}+{req['shrink']} (suite+fuzz+shrink); {dt:.1f} s; "
                  f"{'ok' if ok else 'WRONG'}", flush=True)
    return 1 if wrong else 0


def seeds_suite() -> dict[str, list]:
    """Per game, the default suite's cases under the seeds' rules (no slow perft row)."""
    return {g: [c for c in load_cases() if c.game == g and c.profile is None and "slow" not in c.tags]
            for g in ("horse-race", "american-sniff")}


def two_bugs(engines: int, seed: int) -> int:
    """Two misreadings on one profile: are they kept apart?"""
    from fives.conformance.cases.fixtures import Case

    suite = seeds_suite()
    bugs = [m for m in all_mutants() if not m.variant]
    rng = random.Random(seed)
    good = same_pattern = 0

    def answers(engine: ReferenceEngine, cases: list[Case]) -> dict[str, str]:
        return {c.id: json.dumps([o.status, o.answer], sort_keys=True, default=str)
                for c in cases for o in [engine.run(c)]}

    for i in range(engines):
        game = rng.choice(sorted(suite))
        prof = random_profile(rng, game, rng.randint(1, 3))
        plain = answers(ReferenceEngine(profile=prof), suite[game])
        while True:
            a, b = rng.sample(bugs, 2)
            if set(a.hooks()) & set(b.hooks()):
                continue  # one hook each: two bugs, not one hiding the other
            only = {m.name: {k for k, v in answers(ReferenceEngine(m.hooks(), profile=prof), suite[game]).items()
                             if v != plain[k]} for m in (a, b)}
            if all(only.values()):
                break
        t0 = time.monotonic()
        engine = ReferenceEngine({**a.hooks(), **b.hooks()}, profile=prof)
        d = dx.diagnose(run_cases(engine, suite[game]), [game], mutants=False)
        named = {k: v for c in d.causes for k, v in c.candidate.overrides.items()}
        a_only, b_only = only[a.name] - only[b.name], only[b.name] - only[a.name]
        mixed = [g.key for g in d.unexplained if {ex.result.case.id for ex in g.explanations} & a_only
                 and {ex.result.case.id for ex in g.explanations} & b_only]
        # a merge that mixed them (the failure); a pattern both bugs show first (`error:
        # missing`: each lets an illegal action through) mixes them before any merge: said
        by_merge = [k for k in mixed if " under the inferred rules " in k]
        ok = named == dict(prof.overrides) and not by_merge
        good += ok
        same_pattern += bool(mixed) and not by_merge
        merged = sum(" under the inferred rules " in g.key for g in d.unexplained)
        print(f"{i} {game}: planted {json.dumps(dict(prof.overrides), sort_keys=True, default=str)}; "
              f"{'exact' if named == dict(prof.overrides) else 'named ' + json.dumps(named, sort_keys=True, default=str)}"
              f"; bugs {a.name} ({len(a_only)} alone) and {b.name} ({len(b_only)} alone): "
              f"{len(d.unexplained)} cluster(s), {merged} merged by the inferred rules, "
              + ("none mixing them" if not mixed else
                 ("MIXED BY A MERGE: " if by_merge else "one pattern both show first: ") + "; ".join(mixed))
              + f"; {time.monotonic() - t0:.1f} s", flush=True)
    print(f"{good} of {engines} named exactly with the two bugs in no cluster merged (by the inferred rules) "
          f"from both; {same_pattern} with a difference pattern both bugs show first")
    return 0 if good == engines else 1


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--engines", type=int, help="engines to diagnose (default 40; 10 with --two-bugs)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--big", action="store_true", help="misreadings with 600+ failures, through the protocol")
    ap.add_argument("--seconds", type=float, default=170.0, help="with --big: diagnose's --seconds (its default)")
    ap.add_argument("--two-bugs", action="store_true", help="two misreadings on each profile, in process")
    args = ap.parse_args()
    if args.big:
        return big(args.seconds)
    if args.two_bugs:
        return two_bugs(args.engines or 10, args.seed)
    suite = seeds_suite()
    bugs = [m for m in all_mutants() if not m.variant]
    rng = random.Random(args.seed)
    exact = with_bug = bug_kept = 0
    t_all = time.monotonic()
    engines = args.engines or 40
    for i in range(engines):
        game = rng.choice(sorted(suite))
        prof = random_profile(rng, game, rng.randint(1, 3))
        bug = rng.choice(bugs) if i % 2 else None
        engine = ReferenceEngine(bug.hooks() if bug else None, profile=prof)
        t0 = time.monotonic()
        d = dx.diagnose(run_cases(engine, suite[game]), [game], mutants=False)
        named = {k: v for c in d.causes for k, v in c.candidate.overrides.items()}
        ok = named == dict(prof.overrides)
        exact += ok
        left = sum(g.count for g in d.unexplained)
        note = ""
        if bug:
            with_bug += 1
            # the bug alone against the seeds: does it fail anything here? then it must stay unexplained
            alone = sum(1 for r in run_cases(ReferenceEngine(bug.hooks()), suite[game]) if r.status == "failed")
            kept = left > 0 or alone == 0
            bug_kept += kept
            note = f"; bug {bug.name} (fails {alone} alone): {left} left unexplained{'' if kept else ' MISSED'}"
        print(f"{i} {game}: planted {json.dumps(dict(prof.overrides), sort_keys=True, default=str)}; "
              f"{'exact' if ok else 'named ' + json.dumps(named, sort_keys=True, default=str)}{note}; "
              f"{time.monotonic() - t0:.1f} s", flush=True)
    print(f"{exact} of {engines} named exactly; {bug_kept} of {with_bug} bugs left unexplained; "
          f"{time.monotonic() - t_all:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
