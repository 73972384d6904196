"""Diagnose 10 seeded random profiles of one to three dimensions, each served as
`fives serve --rules P` (a black box): which dimensions `fives conformance diagnose` names
against those planted, the engine requests and the time of each.

    python benchmarks/diagnose_random.py [--mutants]
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from fives.profiles import random_profile


def main() -> int:
    rng = random.Random(2026)
    exact = 0
    extra = [] if "--mutants" in sys.argv else ["--no-mutants"]
    for i in range(10):
        game = rng.choice(["horse-race", "american-sniff"])
        prof = random_profile(rng, game, rng.randint(1, 3))
        d = Path(tempfile.mkdtemp(prefix="diag-"))
        pf = d / "p.yaml"
        pf.write_text(yaml.safe_dump({"extends": prof.extends, "name": f"random-{i}", "source": "test",
                                      "rules": dict(prof.overrides)}, sort_keys=True))
        t0 = time.monotonic()
        r = subprocess.run([sys.executable, "-m", "fives", "conformance", "diagnose", "--engine",
                            f"{sys.executable} -m fives serve --rules {pf}", "--game", game, "--json",
                            "--out", str(d / "out"), *extra], capture_output=True, text=True, timeout=400)
        dt = time.monotonic() - t0
        try:
            diag = json.loads(r.stdout)
        except ValueError:
            print(i, game, dict(prof.overrides), "rc", r.returncode, "no json", r.stderr[-300:], flush=True)
            continue
        named: dict[str, object] = {}
        for c in diag["causes"]:
            named.update(c["overrides"] or {f"mutant {c['mutant']}": True})
        planted = json.loads(json.dumps(dict(prof.overrides)))  # by-players keys as JSON has them
        ok = named == planted and not diag["unexplained"]
        exact += ok
        req = diag["requests"]
        print(f"{i} {game}: planted {json.dumps(dict(prof.overrides), sort_keys=True)}; "
              f"named {json.dumps(named, sort_keys=True)}; {'exact' if ok else 'MISSED'}; "
              f"unexplained {sum(g['cases'] for g in diag['unexplained'])}; exit {r.returncode}; "
              f"requests {req['suite']}+{req['fuzz']}+{req['shrink']} (suite+fuzz+shrink); {dt:.1f} s", flush=True)
    print(f"{exact} of 10 named exactly")
    return 0 if exact == 10 else 1


if __name__ == "__main__":
    sys.exit(main())
