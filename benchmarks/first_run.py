"""A fresh machine's first `fives conformance run` against a warm one, from a built wheel:

    python benchmarks/first_run.py [--wheel DIST.whl] [--repeat 3]
    python benchmarks/first_run.py --pip-install [--repeat 3] [--max-ratio 1.5]

With --pip-install the package is installed the way a user installs it: `pip install .` of
this checkout into a fresh venv, pip's build isolation on (issue 29: a wheel built that way
once lacked the prebuilt suite); the venv's own `fives` is then timed cold and warm, and
--max-ratio makes the CPU ratio a gate (exit 1 past it; .ci/run uses 1.5).

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


def timed_run(site: Path | None, cache: Path, work: Path, python: str = sys.executable) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child): CPU time stays meaningful on shared cores.
    `site`: a folder the package was installed into (PYTHONPATH); None: `python`'s own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FIVES_", "XDG_")) and k != "PYTHONPATH"}
    if site is not None:
        env["PYTHONPATH"] = str(site)
    env.update(FIVES_CACHE_DIR=str(cache / "cache"), XDG_CONFIG_HOME=str(cache / "config"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run([python, "-m", "fives.cli", "conformance", "run"], cwd=work, env=env,
                       capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if p.returncode != 0:
        raise SystemExit(f"conformance run failed ({p.returncode}): {p.stderr[-500:]}")
    return elapsed, cpu


def pip_install(repeat: int, max_ratio: float | None) -> int:
    """`pip install .` into a fresh venv, build isolation on; the first run against a warm one."""
    with tempfile.TemporaryDirectory(prefix="fives-pip-install-") as tmp:
        base = Path(tmp)
        subprocess.run([sys.executable, "-m", "venv", str(base / "venv")], check=True)
        python = str(base / "venv" / "bin" / "python")
        subprocess.run([python, "-m", "pip", "install", "-q", str(ROOT)], check=True, cwd=base)
        work = base / "work"
        work.mkdir()
        probe = subprocess.run([python, "-c", "import fives.support.paths as p; d = p.prebuilt_dir(); "
                                "print(len(list(d.glob('*.json'))) if d else 0)"], cwd=work, capture_output=True,
                               text=True, check=True)
        entries = int(probe.stdout.strip())
        print(f"pip install . (build isolation on): prebuilt entries: {entries}")
        if entries == 0:
            print("first_run: the installed package has no prebuilt suite", file=sys.stderr)
            return 1
        colds, warms = [], []
        for i in range(repeat):
            cache = base / f"cache-{i}"
            colds.append(timed_run(None, cache, work, python))
            warms.append(timed_run(None, cache, work, python))
        cold, warm = min(w for w, _ in colds), min(w for w, _ in warms)
        cold_cpu, warm_cpu = min(c for _, c in colds), min(c for _, c in warms)
        ratio = cold_cpu / warm_cpu
        print(f"{'install':<24}{'cold s':>8}{'warm s':>8}{'ratio':>7}{'cold cpu':>10}{'warm cpu':>10}{'ratio':>7}")
        print(f"{'pip install .':<24}{cold:>8.2f}{warm:>8.2f}{cold / warm:>6.2f}x{cold_cpu:>10.2f}{warm_cpu:>10.2f}"
              f"{ratio:>6.2f}x")
        if max_ratio is not None and ratio > max_ratio:
            print(f"first_run: the first run costs {ratio:.2f}x a warm one (CPU), over {max_ratio}x", file=sys.stderr)
            return 1
    return 0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--wheel", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pip-install", action="store_true", help="install with `pip install .` into a fresh venv")
    ap.add_argument("--max-ratio", type=float, help="with --pip-install: exit 1 when cold CPU / warm CPU exceeds it")
    args = ap.parse_args()
    if args.pip_install:
        sys.exit(pip_install(args.repeat, args.max_ratio))
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
