"""`fives conformance diagnose --no-mutants` (its Python entry point,
fives.conformance.sessions.diagnose) against every shipped mutant, `fives serve` and the
JS example engine, each through the protocol as a black box: a mutant that is a rule variant
must be named exactly as its parameters (`Mutant.variant`) with nothing left; a misreading no
profile expresses must be named as nothing and show up among the unexplained clusters, with
a minimal case; the reference engines must give nothing and exit 0. Every fixture written is
checked for reachability. Prints the time and engine requests of each diagnosis.

    python benchmarks/diagnose_mutants.py [NAME ...]
"""
from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from fives.conformance.cases.fixtures import load_cases
from fives.conformance.engines.handle import EngineSpec
from fives.conformance.fuzz.shrink import size
from fives.conformance.mutants.registry import all_mutants
from fives.conformance.cases.reachable import problems
from fives.conformance.sessions.diagnose import DiagnoseOptions, diagnose
from fives.profiles import rules_under
from fives.rules import load_rules
from fives.support.paths import ROOT

PY = sys.executable
#: shipped "misreadings" a dimension of issue 27 now states (spec/variants.md): rule variants,
#: to be named by these parameters (until their Mutant.variant says so)
NOW_RULES = {"sniff-branch-halves-not-counted": {"american-sniff": {"counting.open_branch_side": "zero"}},
             "unused-branches-counted": {"horse-race": {"counting.open_branch_side": "one-half"}}}


def run(engine: str, out: Path, games: list[str]) -> tuple[dict, int, float]:
    """`conformance diagnose --engine ENGINE --no-mutants --json --out OUT --game G ...`, from
    Python: the diagnosis JSON, the exit code the command would give, the seconds."""
    t0 = time.monotonic()
    outcome = diagnose(DiagnoseOptions(EngineSpec(engine), tuple(games), mutants=False))
    outcome.write(out)
    return outcome.to_json(), 0 if outcome.conforms else 1, time.monotonic() - t0


def unreachable(out: Path) -> list[str]:
    bad = []
    for f in sorted((out / "fixtures").glob("*.yaml")) if (out / "fixtures").is_dir() else []:
        for c in load_cases([f]):
            rules = rules_under(c.profile, c.game) if c.profile is not None else load_rules(c.game)
            for p in problems(rules, c.kind, c.input):
                bad.append(f"{c.id}: {p}")
    return bad


def main(names: list[str]) -> int:
    failures = 0
    engines = [(m.name, f"{PY} -m fives serve --mutant {m.name}", m) for m in all_mutants()
               if not names or m.name in names]
    if not names:
        js = shutil.which("node")
        engines.append(("fives serve", f"{PY} -m fives serve", None))
        if js:
            engines.append(("js example", f"node {ROOT / 'conformance/examples/js-engine/engine.js'}", None))
    for name, cmd, m in engines:
        out = Path(tempfile.mkdtemp(prefix="dxm-"))
        games = ["horse-race", "american-sniff"]
        d, rc, dt = run(cmd, out, games)
        named = {f"{c['game']}: {k}": v for c in d["causes"] for k, v in (c["overrides"] or {}).items()}
        variant = (m.variant or NOW_RULES.get(m.name, {})) if m else {}
        planted = {f"{g}: {k}": v for g, o in variant.items() for k, v in o.items()}
        planted = json.loads(json.dumps(planted))
        left = sum(g["cases"] for g in d["unexplained"])
        bad = unreachable(out)
        if m is not None and variant:
            ok = named == planted and left == 0
            what = "variant"
        elif m is not None:
            ok = not named and left > 0
            what = "misreading"
        else:
            ok = not named and left == 0 and rc == 0
            what = "reference"
        ok = ok and not bad
        smallest = ""
        if d["unexplained"]:
            sizes = []
            for f in (out / "fixtures").glob("DX-*.yaml"):
                c = load_cases([f])[0]
                if "cluster" in c.source.get("derived", ""):
                    s = size(c.kind, c.input)
                    sizes.append((s["placements"], s["hand_tiles"], c.id))
            smallest = (f"; cluster cases shrunk {len(sizes)} of {len(d['unexplained'])}, placements "
                        f"{min(sizes)[0]}-{max(sizes)[0]} (smallest: {min(sizes)[1]} hand tiles)") if sizes else \
                "; no cluster case shrunk"
        req = d["requests"]
        print(f"{name} ({what}): named {json.dumps(named, sort_keys=True)}; unexplained {left} in "
              f"{len(d['unexplained'])} cluster(s){smallest}; unreachable fixtures {len(bad)}; exit {rc}; "
              f"requests {req['suite']}+{req['fuzz']}+{req['shrink']}; {dt:.1f} s; {'ok' if ok else 'WRONG'}",
              flush=True)
        for b in bad[:5]:
            print("   unreachable:", b)
        failures += not ok
    print(f"{len(engines) - failures} of {len(engines)} as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
