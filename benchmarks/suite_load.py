"""Loading the conformance suite (fixtures, golden suites, perft table), before and after, in one run:

    python benchmarks/suite_load.py [--repeat 3] [--no-cli]

- `old`: the path before the fixture cache, as it was: YAML (C loader) and jsonschema's
  `iter_errors` over every file and every case, nothing remembered;
- `cold`: today's loader with an empty cache (YAML, compiled fastjsonschema validators, then
  the cache written);
- `warm`: today's loader from a warm cache (no YAML, no validation; each entry's HMAC checked);
- `prebuilt`: the suite as a wheel ships it (fives/_prebuilt/, built here first), no user cache;
- then the wall time of `fives conformance run` (all cases, in-process reference engine) and
  of `fives conformance run --id ONE-ID`, each a fresh process with a warm cache.

Each figure is the best of `--repeat` runs; ratios are against `old` measured in the same run.
The cache used is a temporary folder (`FIVES_CACHE_DIR`), so the user's cache is untouched.
The first-run figure from a built wheel, cold against warm, is `benchmarks/first_run.py`.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from fives.support import paths
from fives.conformance.cases import prebuilt
from fives.conformance.cases.fixture_cache import FixtureCache
from fives.conformance.cases.fixtures import PERFT_FORMAT, Case, display_name, fixture_files, load_cases, perft_cases
from fives.support.reading import parse_text, read_text
from fives.conformance.cases.kinds import load_kinds


def old_load() -> list[Case]:
    """The loader as it was before the cache (jsonschema iter_errors per file and per case)."""
    import json

    import jsonschema

    def validator(path: Path) -> jsonschema.Draft202012Validator:
        return jsonschema.Draft202012Validator(json.loads(path.read_text(encoding="utf-8")))

    def first_error(v: jsonschema.Draft202012Validator, data: Any) -> Any:
        return min(v.iter_errors(data), key=lambda e: list(e.absolute_path), default=None)

    base = paths.CONFORMANCE_SCHEMAS
    kinds = load_kinds()
    envelope, perft = validator(base / "fixtures.schema.json"), validator(base / "perft.schema.json")
    by_kind = {n: validator(base / "kinds" / k.schema) for n, k in kinds.items()}
    cases: list[Case] = []
    for f in fixture_files():
        text, _ = read_text(f)
        data, name = parse_text(text, str(f)), display_name(f)
        if isinstance(data, dict) and data.get("format") == PERFT_FORMAT:
            assert first_error(perft, data) is None
            cases.extend(perft_cases(data, name))
            continue
        assert first_error(envelope, data) is None
        for raw in data["cases"]:
            assert first_error(by_kind[raw["kind"]], {"input": raw["input"], "expect": raw["expect"]}) is None
            cases.append(Case(raw["id"], raw["kind"], raw["game"], tuple(raw["clauses"]), raw["source"],
                              raw["input"], raw["expect"], name, raw.get("description", ""),
                              tuple(raw.get("tags", ()))))
    return cases


def best(fn: Callable[[], Any], repeat: int, before: Callable[[], None] = lambda: None) -> tuple[float, float, Any]:
    """(best wall seconds, best CPU seconds, last result); CPU time includes finished children,
    so it stays meaningful when other work shares the cores."""
    walls, cpus, out = [], [], None
    for _ in range(repeat):
        before()
        c0, t0 = _cpu(), time.perf_counter()
        out = fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(_cpu() - c0)
    return min(walls), min(cpus), out


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def wall(argv: list[str], env: dict[str, str], repeat: int,
         before: Callable[[], None] = lambda: None) -> tuple[float, float]:
    def once() -> None:
        r = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(argv)}: exit {r.returncode}: {r.stderr.strip()[-300:]}")
    t, cpu, _ = best(once, repeat, before)
    return t, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is kept")
    ap.add_argument("--no-cli", action="store_true", help="skip the `fives conformance run` wall times")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="fives-bench-cache-"))
    folder = tmp / "fixtures"
    try:
        t_old, c_old, old = best(old_load, args.repeat)
        t_cold, c_cold, cold = best(lambda: load_cases(cache=FixtureCache(folder)), args.repeat,
                                    before=lambda: shutil.rmtree(folder, ignore_errors=True))
        t_warm, c_warm, warm = best(lambda: load_cases(cache=FixtureCache(folder)), args.repeat)
        prebuilt.build(tmp / "prebuilt")  # what the wheel ships: fives/_prebuilt/
        t_pre, c_pre, pre = best(lambda: load_cases(cache=FixtureCache(None, prebuilt=tmp / "prebuilt")), args.repeat)
        assert [c.to_dict() for c in pre] == [c.to_dict() for c in warm] == [c.to_dict() for c in cold]
        # (the old loader knew no rule profiles: compare what it did know)
        assert ([{k: v for k, v in c.to_dict().items() if k != "rules"} for c in old]
                == [{k: v for k, v in c.to_dict().items() if k != "rules"} for c in cold])
        n = len(warm)
        print(f"suite: {n} cases in {len(fixture_files())} files (best of {args.repeat})")
        print(f"{'load, in process':<40}{'wall s':>8}{'cpu s':>8}{'cases/s':>9}{'vs old':>8}")
        for label, t, cpu in (("old (jsonschema, no cache)", t_old, c_old),
                              ("cold cache (fastjsonschema)", t_cold, c_cold), ("warm cache", t_warm, c_warm),
                              ("prebuilt suite, no user cache", t_pre, c_pre)):
            print(f"{label:<40}{t:8.3f}{cpu:8.3f}{n / t:9.0f}{c_old / cpu:7.1f}x")
        if not args.no_cli:
            env = {**os.environ, "FIVES_CACHE_DIR": str(tmp), "XDG_CONFIG_HOME": str(tmp / "config")}
            fives = [sys.executable, "-m", "fives.cli"]
            one = next(c.id for c in warm if c.kind == "evaluate")
            run_one = fives + ["conformance", "run", "--id", one]
            rows = [("fives conformance run (all cases)", fives + ["conformance", "run"]),
                    (f"fives conformance run --id {one}", run_one),
                    ("python -c pass (bare start-up)", [sys.executable, "-c", "pass"])]
            print(f"{'fresh process, warm cache':<44}{'wall s':>8}{'cpu s':>8}")
            for label, argv in rows:
                t, cpu = wall(argv, env, args.repeat)
                print(f"{label:<44}{t:8.3f}{cpu:8.3f}")
            t, cpu = wall(run_one, env, args.repeat, before=lambda: shutil.rmtree(folder, ignore_errors=True))
            print(f"{'the same --id, cold cache (emptied each time)':<44}{t:8.3f}{cpu:8.3f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
