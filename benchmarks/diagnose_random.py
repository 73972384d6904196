"""Diagnose 10 seeded random profiles, each served as `fives serve --rules P` (a black box):
which planted parameters `fives conformance diagnose` names, and in what time.

    python benchmarks/diagnose_random.py
"""
import json, random, subprocess, sys, time, tempfile, os
from pathlib import Path
import yaml
from fives.profiles import random_profile
rng = random.Random(2026)
out = []
for i in range(10):
    game = rng.choice(["horse-race", "american-sniff"])
    prof = random_profile(rng, game, rng.randint(1, 3))
    d = Path(tempfile.mkdtemp(prefix="diag-"))
    pf = d / "p.yaml"
    pf.write_text(yaml.safe_dump({"extends": prof.extends, "name": f"random-{i}", "source": "test",
                                  "rules": dict(prof.overrides)}, sort_keys=True))
    t0 = time.monotonic()
    r = subprocess.run(["fives", "conformance", "diagnose", "--engine", f"fives serve --rules {pf}", "--game", game,
                        "--json", "--no-mutants", "--out", str(d / "out")], capture_output=True, text=True, timeout=400)
    dt = time.monotonic() - t0
    try:
        diag = json.loads(r.stdout)
    except Exception:
        print(i, game, dict(prof.overrides), "rc", r.returncode, "no json", r.stderr[-300:], flush=True); continue
    causes = diag.get("causes", [])
    named = sorted(json.dumps(c.get("overrides") or c.get("mutant"), sort_keys=True) for c in causes)
    print(i, game, "planted", json.dumps(dict(prof.overrides), sort_keys=True), "named", named,
          "unexplained", len(diag.get("unexplained", diag.get("clusters", []))), "rc", r.returncode, f"{dt:.0f}s",
          flush=True)
