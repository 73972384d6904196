"""Start-up time of the `fives` command, against a bare Python start measured in the same run.

    python benchmarks/startup.py [--runs 20] [--breakdown]

Each command runs `--runs` times, interleaved (so load drifts hit every command alike); the
best and the median wall time are printed in milliseconds, with the ratio of the best to the
bare `python -c pass` and the overhead above it:
- `python -c pass` (the baseline),
- `python -c "import fives"` (goal: the core only; no jsonschema, reports, urllib, http),
- `fives --help` (goal: under 60 ms),
- `fives evaluate --game horse-race` on a 3-tile layout file (goal: under 80 ms).
The goals are absolute figures for an idle machine; on a loaded one read the overhead above
the baseline, and the CPU time of each child (user + system, the `cpu ms` column), which a
busy machine inflates less than wall time. `--breakdown` also splits `fives evaluate`'s CPU
time by stage (interpreter, stdlib, click, yaml, fives), in process.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LAYOUT = """\
- {tile: "[1|4]"}
- {tile: "[1|1]", to: "[1|4]", side: low}
- {tile: "[4|4]", to: "[1|4]", side: high}
"""
#: modules that must not load on `import fives` (issue 12: the core only)
HEAVY = ("jsonschema", "fastjsonschema", "fives.conformance.reports.formats", "xml", "urllib.request", "http", "fives.conformance.engines.drivers",
         "fives.conformance.runner", "z3", "click")
GOALS_MS = {"fives --help": 60.0, "fives evaluate (3 tiles)": 80.0}


def fives_command() -> list[str]:
    """The installed `fives` script beside this Python, else `python -m fives`."""
    script = Path(sys.executable).parent / "fives"
    if script.is_file():
        return [str(script)]
    found = shutil.which("fives")
    return [found] if found else [sys.executable, "-m", "fives"]


#: children run as a user's would: with bytecode caches (a PYTHONDONTWRITEBYTECODE in the
#: environment would make every run compile the package from source)
ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPROFILEIMPORTTIME")}


def time_once(argv: list[str], cwd: str) -> tuple[float, float]:
    """(wall ms, CPU ms of the child: user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(argv, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = (time.perf_counter() - t0) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {r.returncode}: {r.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return elapsed, cpu


def loaded_modules(code: str, cwd: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", f"{code}\nimport sys; print('\\n'.join(sys.modules))"],
                         cwd=cwd, env=ENV, capture_output=True, text=True, check=True).stdout
    return set(out.split())


#: Run in a child: CPU ms of each stage of `fives evaluate`, imports in dependency order.
BREAKDOWN = """
import time, sys, io, contextlib
pt = time.process_time
marks = [("interpreter start", pt())]
import typing, enum, re, collections, functools, dataclasses, json, pathlib
marks.append(("stdlib the package needs anyway (dataclasses, pathlib, re, ...)", pt()))
import click
marks.append(("click (the rest of it)", pt()))
import yaml
marks.append(("yaml", pt()))
import fives.tiles, fives.moves, fives.layout_tables, fives.rules, fives.layout, fives.evaluate
marks.append(("fives core (tiles, moves, layout, rules, evaluate)", pt()))
import fives.cli, fives.support.reading, fives.cli.evaluate
marks.append(("fives CLI and io", pt()))
sys.argv = ["fives", "evaluate", "--game", "horse-race", sys.argv[1]]
try:
    with contextlib.redirect_stdout(io.StringIO()):
        fives.cli.main()
except SystemExit:
    pass
marks.append(("the run (rules, parse, evaluate, output)", pt()))
print("\\n".join(f"{name}\\t{(b - a) * 1000 if i else b * 1000}" for i, ((name, b), (_, a))
                  in enumerate(zip(marks, [marks[0]] + marks))))
"""


def print_breakdown(layout: str, cwd: str, runs: int) -> None:
    best: dict[str, float] = {}
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", BREAKDOWN, layout], cwd=cwd, env=ENV, capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            name, ms = line.split("\t")
            best[name] = min(best.get(name, float("inf")), float(ms))
    print("`fives evaluate` CPU ms by stage, in process (best of each):")
    for name, ms in best.items():
        print(f"  {ms:6.1f}  {name}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--breakdown", action="store_true",
                    help="also split `fives evaluate`'s CPU time by stage, in process (best of --runs)")
    args = ap.parse_args()
    fives = fives_command()
    with tempfile.TemporaryDirectory(prefix="fives-startup-") as tmp:
        layout = Path(tmp, "layout.yaml")
        layout.write_text(LAYOUT, encoding="utf-8")
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "import fives": [sys.executable, "-c", "import fives"],
            "fives --help": [*fives, "--help"],
            "fives evaluate (3 tiles)": [*fives, "evaluate", "--game", "horse-race", str(layout)],
        }
        for argv in commands.values():  # warm the file cache and any caches of fives itself
            time_once(argv, tmp)
        times: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, argv in commands.items():
                wall, cpu = time_once(argv, tmp)
                times[name].append(wall)
                cpus[name].append(cpu)
        base, base_cpu = min(times["python -c pass"]), min(cpus["python -c pass"])
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; {args.runs} runs each")
        print(f"{'command':<26} {'best ms':>8} {'median':>8} {'x base':>7} {'+ms':>7} {'cpu ms':>7} {'+cpu':>6}  goal (best wall)")
        for name, ts in times.items():
            best, cpu = min(ts), min(cpus[name])
            goal = GOALS_MS.get(name)
            verdict = "" if goal is None else f"< {goal:.0f} ms: {'yes' if best < goal else 'NO'}"
            print(f"{name:<26} {best:8.1f} {statistics.median(ts):8.1f} {best / base:7.2f} {best - base:7.1f}"
                  f" {cpu:7.1f} {cpu - base_cpu:6.1f}  {verdict}")
        heavy = sorted(m for m in loaded_modules("import fives", tmp)
                       if any(m == h or m.startswith(h + ".") for h in HEAVY))
        print(f"heavy modules after `import fives`: {', '.join(heavy) or 'none'}")
        if args.breakdown:
            print_breakdown(str(layout), tmp, args.runs)

if __name__ == "__main__":
    main()
