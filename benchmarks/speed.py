"""The speed goals of issue 41, each as a ratio against its yardstick measured in the same run.

    python benchmarks/speed.py                 # every figure, best of 3
    python benchmarks/speed.py --repeat 5
    python benchmarks/speed.py --quick         # the naive depth-6 perft scaled from depth 5, not run

Every figure is the CPU seconds (user + system) of a whole process tree, started as a user
would start it (`fives ...` as `python -m fives`), read with resource.getrusage(RUSAGE_CHILDREN)
around it: the best of `--repeat` runs. The yardsticks:
- the naive perft (benchmarks/naive_perft.py: plain make/unmake Python, no tables, no bulk
  counting), Horse Race depth 5 and depth 6 (run once: about a minute), its counts checked
  against `fives perft`'s;
- a bare `python -c pass`;
- the JavaScript example engine (conformance/examples/js-engine) answering the same
  `evaluate` layouts through the protocol as `fives evaluate --jsonl` reads (skipped without node).
It prints one line per figure, `name: CPU s; ratio against yardstick (goal)`, and exits 1 if a
goal is missed or two counts disagree. docs/design.md reports what it prints.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
FIVES = [PY, "-m", "fives"]
JS_ENGINE = ROOT / "conformance" / "examples" / "js-engine" / "engine.js"


def _children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cpu(cmd: list[str], repeat: int, env: dict[str, str] | None = None, stdin: str | None = None) -> tuple[float, str]:
    """(best CPU seconds of the process tree of `cmd`, its stdout)."""
    best, out = float("inf"), ""
    for _ in range(repeat):
        c0 = _children()
        proc = subprocess.run(cmd, cwd=ROOT, env=env, input=stdin, capture_output=True, text=True)
        used = _children() - c0
        if proc.returncode not in (0,):
            raise SystemExit(f"{' '.join(cmd)}: exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
        best, out = min(best, used), proc.stdout
    return best, out


def counts(text: str) -> str:
    """`GAME depth D: nodes N points P` of a perft's output (the line both perfts print)."""
    return text.strip().splitlines()[-1]


def evaluate_streams(count: int, seed: int) -> tuple[str, str]:
    """The same random Horse Race layouts as `fives evaluate --jsonl` lines and as protocol requests."""
    sys.path.insert(0, str(ROOT))
    from fives.layout import Layout

    rng = random.Random(seed)
    layouts = []
    for _ in range(500):
        layout = Layout("horse-race")
        for _ in range(rng.randint(1, 28)):
            moves = layout.moves()
            if not moves:
                break
            layout.push_move(rng.choice(moves))
        layouts.append([p.to_dict() for p in layout.history()])
    stream = [layouts[i % len(layouts)] for i in range(count)]
    jsonl = "".join(json.dumps({"game": "horse-race", "placements": r}) + "\n" for r in stream)
    hello = json.dumps({"id": "hello", "type": "hello", "protocol": 1}) + "\n"
    proto = hello + "".join(json.dumps({"id": f"b{i}", "type": "evaluate", "game": "horse-race",
                                        "input": {"placements": r}}) + "\n" for i, r in enumerate(stream))
    return jsonl, proto


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs of each command")
    ap.add_argument("--quick", action="store_true", help="scale the naive depth-6 perft from depth 5 (nodes ratio)")
    ap.add_argument("--stream", type=int, default=20000, help="layouts in the evaluate stream")
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "FIVES_PURE_PYTHON"}
    pure = {**env, "FIVES_PURE_PYTHON": "1"}
    bad = 0
    lines: list[str] = []

    def report(name: str, seconds: float, base: float, base_name: str, goal: str = "", ok: bool = True) -> None:
        nonlocal bad
        bad += not ok
        ratio = seconds / base
        text = f"{ratio:.3f}x" if ratio >= 0.1 else f"1/{base / seconds:.0f}"
        line = f"{name}: {seconds:.3f} CPU s; {text} {base_name}" + (f" (goal {goal}{'' if ok else ': MISSED'})" if goal else "")
        lines.append(line)
        print(line, flush=True)

    bare, _ = cpu([PY, "-c", "pass"], args.repeat)
    print(f"python -c pass: {bare:.3f} CPU s", flush=True)
    naive5, out5 = cpu([PY, "benchmarks/naive_perft.py", "--game", "horse-race", "--depth", "5"], args.repeat)
    print(f"naive perft horse-race depth 5: {naive5:.3f} CPU s ({counts(out5)})", flush=True)
    fives5, f5 = cpu(FIVES + ["perft", "--game", "horse-race", "--depth", "5"], args.repeat, env)
    if counts(f5) != counts(out5):
        print(f"MISMATCH: fives {counts(f5)}, naive {counts(out5)}")
        bad += 1
    f6cmd = FIVES + ["perft", "--game", "horse-race", "--depth", "6"]
    fives6, f6 = cpu(f6cmd, args.repeat, env)
    pure6, p6 = cpu(f6cmd, args.repeat, pure)
    if args.quick:
        nodes = [int(counts(t).split()[4]) for t in (out5, f6)]
        naive6 = naive5 * nodes[1] / nodes[0]
        print(f"naive perft horse-race depth 6: {naive6:.3f} CPU s (scaled from depth 5 by nodes: --quick)", flush=True)
    else:
        naive6, out6 = cpu([PY, "benchmarks/naive_perft.py", "--game", "horse-race", "--depth", "6"], 1)
        print(f"naive perft horse-race depth 6: {naive6:.3f} CPU s ({counts(out6)})", flush=True)
        if counts(out6) != counts(f6):
            print(f"MISMATCH: fives {counts(f6)}, naive {counts(out6)}")
            bad += 1
    if counts(p6) != counts(f6):
        print(f"MISMATCH: pure {counts(p6)}, compiled {counts(f6)}")
        bad += 1
    report("fives perft --game horse-race --depth 6", fives6, naive6, "the naive perft at depth 6", "<= 1/100",
           fives6 <= naive6 / 100)
    report("  the same, FIVES_PURE_PYTHON=1", pure6, naive6, "the naive perft at depth 6")
    report("fives perft --game horse-race --depth 5", fives5, naive5, "the naive perft at depth 5")
    run_all, _ = cpu(FIVES + ["conformance", "run"], args.repeat, env)
    report("fives conformance run", run_all, naive5, "the naive perft at depth 5", "<= 0.5", run_all <= naive5 / 2)
    settle, _ = cpu(FIVES + ["conformance", "run", "--kind", "settle"], args.repeat, env)
    report("fives conformance run --kind settle", settle, naive5, "the naive perft at depth 5", "<= 0.25",
           settle <= naive5 / 4)
    evaluate, _ = cpu(FIVES + ["conformance", "run", "--kind", "evaluate"], args.repeat, env)
    report("fives conformance run --kind evaluate", evaluate, naive5, "the naive perft at depth 5")
    one, _ = cpu(FIVES + ["conformance", "run", "--id", "PERFT-horse-race-empty-D3"], args.repeat, env)
    report("fives conformance run --id PERFT-horse-race-empty-D3", one, bare, "python -c pass")
    helped, _ = cpu(FIVES + ["--help"], args.repeat, env)
    report("fives --help", helped, bare, "python -c pass")
    jsonl, proto = evaluate_streams(args.stream, 1)
    ev, _ = cpu(FIVES + ["evaluate", "--jsonl"], args.repeat, env, jsonl)
    if shutil.which("node"):
        js, _ = cpu(["node", str(JS_ENGINE)], args.repeat, None, proto)
        report(f"fives evaluate --jsonl ({args.stream} layouts)", ev, js, "the JavaScript engine, same layouts")
        evp, _ = cpu(FIVES + ["evaluate", "--jsonl"], args.repeat, pure, jsonl)
        report("  the same, FIVES_PURE_PYTHON=1", evp, js, "the JavaScript engine, same layouts")
    else:
        print("fives evaluate --jsonl: skipped (no node for the JavaScript engine)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
