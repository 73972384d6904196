"""A fresh machine's first `fives conformance run` against a warm one, from a built wheel:

    python benchmarks/first_run.py [--wheel DIST.whl] [--repeat 3]

The wheel (built with `python -m build --wheel` unless given) is installed into a temporary
folder, once as built (with the prebuilt suite, `fives/_prebuilt/`) and once with that folder
removed (what a first run cost before). For each, `fives conformance run` (all cases, the
in-process reference engine) runs in a fresh process with an empty cache folder and key
(`cold`: a new CI job), then again with the cache it left (`warm`). Each figure is the best of
`--repeat`, in wall and in CPU seconds (the child's: meaningful when others share the cores);
the goal (issue 20 point 9, issue 21) is cold <= 1.5 x warm with the prebuilt suite.
The user's own cache and key are never touched.
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

ROOT = Path(__file__).resolve().parent.parent


def build_wheel(dest: Path) -> Path:
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dest), str(ROOT)], check=True,
                   stdout=subprocess.DEVNULL)
    (wheel,) = dest.glob("fives-*.whl")
    return wheel


def timed_run(site: Path, cache: Path, work: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child): CPU time stays meaningful on shared cores."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FIVES_", "XDG_"))}
    env.update(PYTHONPATH=str(site), FIVES_CACHE_DIR=str(cache / "cache"), XDG_CONFIG_HOME=str(cache / "config"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "fives.cli", "conformance", "run"], cwd=work, env=env,
                       capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if p.returncode != 0:
        raise SystemExit(f"conformance run failed ({p.returncode}): {p.stderr[-500:]}")
    return elapsed, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--wheel", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="fives-first-run-") as tmp:
        base = Path(tmp)
        wheel = args.wheel or build_wheel(base / "dist")
        site = base / "site"
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
                       check=True)
        bare = base / "site-without-prebuilt"
        shutil.copytree(site, bare, symlinks=True)
        shutil.rmtree(bare / "fives" / "_prebuilt", ignore_errors=True)
        work = base / "work"
        work.mkdir()
        check = subprocess.run([sys.executable, "-c", "import fives, sys; print(fives.__file__)"], cwd=work,
                               env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True)
        assert check.stdout.startswith(str(site)), f"fives imported from {check.stdout.strip()}, not the wheel"
        print(f"wheel: {wheel.name}; prebuilt entries: {len(list((site / 'fives' / '_prebuilt').glob('*.json')))}")
        print(f"{'install':<24}{'cold s':>8}{'warm s':>8}{'ratio':>7}{'cold cpu':>10}{'warm cpu':>10}{'ratio':>7}")
        for label, where in (("with prebuilt suite", site), ("without (as before)", bare)):
            colds, warms = [], []
            for i in range(args.repeat):
                cache = base / f"cache-{label[:4]}-{i}"
                colds.append(timed_run(where, cache, work))
                warms.append(timed_run(where, cache, work))
            (cold, cold_cpu), (warm, warm_cpu) = min(colds), min(warms)
            cold_cpu, warm_cpu = min(c for _, c in colds), min(c for _, c in warms)
            print(f"{label:<24}{cold:>8.2f}{warm:>8.2f}{cold / warm:>6.2f}x{cold_cpu:>10.2f}{warm_cpu:>10.2f}"
                  f"{cold_cpu / warm_cpu:>6.2f}x")


if __name__ == "__main__":
    main()
