"""Placements evaluated per second (incremental, in process) and layouts per second through
`fives evaluate --jsonl`.

    python benchmarks/evaluate.py [--layouts 2000] [--seed 1]
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time

from fives.layout import Layout
from fives.rules import load_rules
from fives.tiles import ALL_TILES


def random_games(game: str, n: int, seed: int) -> list[list]:
    rng = random.Random(seed)
    rules = load_rules(game)
    out = []
    for _ in range(n):
        layout = Layout(rules)
        while moves := layout.legal_placements(ALL_TILES):
            layout.push(rng.choice(moves))
            if len(layout) >= rng.randint(5, 28):
                break
        out.append(layout.history())
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--layouts", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"{'game':16} {'placements/s (push)':>20} {'push+pop/s':>12} {'layouts/s (--jsonl)':>20}")
    for game in ("american-sniff", "horse-race"):
        games = random_games(game, args.layouts, args.seed)
        rules = load_rules(game)
        n = sum(len(g) for g in games)
        t0 = time.perf_counter()
        for g in games:
            layout = Layout(rules)
            for p in g:
                layout.push(p)
        push_rate = n / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        for g in games:
            layout = Layout(rules)
            for p in g:
                layout.push(p)
            while len(layout):
                layout.pop()
        pp_rate = n / (time.perf_counter() - t0)
        lines = "".join(json.dumps({"game": game, "placements": [p.to_dict() for p in g]}) + "\n" for g in games)
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "fives.cli", "evaluate", "--jsonl"], input=lines,
                              capture_output=True, text=True, check=True)
        jsonl_rate = len(games) / (time.perf_counter() - t0)
        assert len(proc.stdout.splitlines()) == len(games)
        print(f"{game:16} {push_rate:20,.0f} {pp_rate:12,.0f} {jsonl_rate:20,.0f}")
    print(f"({args.layouts} random layouts of 5-28 tiles per game, seed {args.seed}; --jsonl includes process start-up)")


if __name__ == "__main__":
    main()
