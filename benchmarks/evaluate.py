"""Layout speed against baselines measured in the same run, on the same random layouts.

    python benchmarks/evaluate.py [--layouts 2000] [--seed 1] [--stream 20000] [--no-js]

For each game, on the same random layouts of 1-28 tiles:
- placements per second of the naive from-scratch evaluator (tests/simple_evaluator.py),
  of `Layout.push` + `pop` of pre-built placements, and of `fives.evaluation.evaluate` on
  the placement records; the ratios against the naive evaluator (goal: 10x or more);
- layouts per second of `fives evaluate --jsonl` and of the JavaScript example engine
  (conformance/examples/js-engine) through the line protocol, both fed the same layouts as
  one stream on stdin (process start-up included); the ratio (goal: 2x or more); and of
  `fives evaluate --jsonl` without its compiled fast path (FIVES_PURE_PYTHON=1).
Times are CPU seconds (in process: this process's; streams: the child's, every thread
included), so that other load on a shared machine skews them less; stream wall times are
shown too. Absolute figures drift with machine load; the ratios are the measurement.
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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the naive evaluator lives with the tests

import simple_evaluator as simple  # noqa: E402

from fives.evaluation import evaluate  # noqa: E402
from fives.layout import Layout, Placement  # noqa: E402
from fives.rules import load_rules  # noqa: E402
from fives.tiles import ALL_TILES  # noqa: E402

JS_ENGINE = ROOT / "conformance" / "examples" / "js-engine" / "engine.js"
GAMES = ("american-sniff", "horse-race")


def random_layouts(game: str, n: int, seed: int) -> list[list[Placement]]:
    """`n` random legal layouts, each grown to a random size from 1 to 28 (or until stuck)."""
    rng = random.Random(seed)
    rules = load_rules(game)
    out = []
    for _ in range(n):
        layout = Layout(rules)
        size = rng.randint(1, 28)
        while len(layout) < size and (moves := layout.legal_placements(ALL_TILES)):
            layout.push(rng.choice(moves))
        out.append(layout.history())
    return out


def timed(fn, repeat: int = 3) -> float:
    """The best of `repeat` runs, in CPU seconds of this process (other load on the machine
    slows every contender alike in wall time, but by different amounts run to run)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def in_process(game: str, layouts: list[list[Placement]]) -> dict[str, float]:
    """Placements per second: naive evaluator, push+pop, fives.evaluation.evaluate."""
    rules = load_rules(game)
    records = [[p.to_dict() for p in g] for g in layouts]
    params = simple.game_parameters(game)
    n = sum(len(g) for g in layouts)

    def naive() -> None:
        for recs in records:
            simple.evaluate(params, recs)

    def push_pop() -> None:
        for g in layouts:
            layout = Layout(rules)
            push = layout.push
            for p in g:
                push(p)
            pop = layout.pop
            for _ in g:
                pop()

    def fives_evaluate() -> None:
        for recs in records:
            evaluate(rules, recs)

    return {"naive": n / timed(naive), "push+pop": n / timed(push_pop), "evaluate": n / timed(fives_evaluate)}


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def stream_rate(cmd: list[str], text: str, lines: int, repeat: int = 2,
                env: dict[str, str] | None = None) -> tuple[float, float]:
    """(layouts per CPU second, per wall second) of a process fed `text` on stdin, one reply
    line per request, start-up included; the best of `repeat` runs. CPU time is the child's
    user + system time, every thread included."""
    best_cpu = best_wall = float("inf")
    for _ in range(repeat):
        c0, t0 = _children_cpu(), time.perf_counter()
        proc = subprocess.run(cmd, input=text, capture_output=True, text=True, cwd=ROOT, env=env)
        wall, cpu = time.perf_counter() - t0, _children_cpu() - c0
        got = len(proc.stdout.splitlines())
        if got != lines:
            raise SystemExit(f"{' '.join(cmd)}: {got} reply lines for {lines} requests; stderr: {proc.stderr[-300:]}")
        best_cpu, best_wall = min(best_cpu, cpu), min(best_wall, wall)
    return lines / best_cpu, lines / best_wall


def through_streams(game: str, layouts: list[list[Placement]], count: int, js: bool) -> dict[str, tuple[float, float]]:
    records = [[p.to_dict() for p in g] for g in layouts]
    stream = [records[i % len(records)] for i in range(count)]
    jsonl = "".join(json.dumps({"game": game, "placements": r}) + "\n" for r in stream)
    cmd = [sys.executable, "-m", "fives.cli", "evaluate", "--jsonl"]
    out = {"--jsonl": stream_rate(cmd, jsonl, count),
           "pure": stream_rate(cmd, jsonl, count, env={**os.environ, "FIVES_PURE_PYTHON": "1"})}
    if js:
        hello = json.dumps({"id": "hello", "type": "hello", "protocol": 1}) + "\n"
        proto = hello + "".join(json.dumps({"id": f"b{i}", "type": "evaluate", "game": game,
                                            "input": {"placements": r}}) + "\n" for i, r in enumerate(stream))
        out["js"] = stream_rate(["node", str(JS_ENGINE)], proto, count + 1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layouts", type=int, default=2000, help="random layouts per game (in process)")
    ap.add_argument("--stream", type=int, default=20000, help="layouts per game in the --jsonl / protocol stream")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-js", action="store_true", help="skip the JavaScript engine (no node)")
    args = ap.parse_args()
    js = not args.no_js and shutil.which("node") is not None
    print("In process, placements per CPU second (ratio: against the naive evaluator, goal >= 10x)")
    print(f"{'game':15} {'naive':>10} {'push+pop':>10} {'ratio':>6} {'evaluate':>10} {'ratio':>6}")
    streams = {}
    for game in GAMES:
        layouts = random_layouts(game, args.layouts, args.seed)
        r = in_process(game, layouts)
        print(f"{game:15} {r['naive']:10,.0f} {r['push+pop']:10,.0f} {r['push+pop'] / r['naive']:5.1f}x"
              f" {r['evaluate']:10,.0f} {r['evaluate'] / r['naive']:5.1f}x", flush=True)
        streams[game] = layouts
    print(f"\nStreams of {args.stream} layouts, start-up included, layouts per second: CPU (wall)"
          " (ratio: `fives evaluate --jsonl` against the JavaScript engine through the protocol, goal >= 2x)")
    print(f"{'game':15} {'--jsonl':>18} {'js engine':>18} {'ratio cpu (wall)':>17} {'pure Python --jsonl':>20}")
    for game, layouts in streams.items():
        s = through_streams(game, layouts, args.stream, js)
        py = s["--jsonl"]
        if js:
            cols = f" {s['js'][0]:8,.0f} ({s['js'][1]:7,.0f}) {py[0] / s['js'][0]:7.1f}x ({py[1] / s['js'][1]:.1f}x)"
        else:
            cols = f" {'-':>18} {'-':>17}"
        print(f"{game:15} {py[0]:8,.0f} ({py[1]:7,.0f}){cols} {s['pure'][0]:9,.0f} ({s['pure'][1]:7,.0f})", flush=True)
    print(f"({args.layouts} random layouts of 1-28 tiles per game in process, seed {args.seed}; best of 3 runs "
          "in process and 2 per stream)")


if __name__ == "__main__":
    main()
