"""Puzzle benchmarks: generation throughput and z3 against brute force as puzzles grow.

    python benchmarks/puzzles.py                 # 200 puzzles per kind and game, both runs, all checks
    python benchmarks/puzzles.py --count 20 --per-size 3   # a quick look

Part 1 generates COUNT puzzles of each kind for each game twice from the same seed, checks
the two files are byte-identical, verifies every puzzle (engine replay, z3 uniqueness,
brute-force count) and reports puzzles per minute. Part 2 times, per puzzle, z3 (find the
answer and prove it unique: solve, block, unsat) and the brute-force count pruned by the
target, as the number of placements grows, on positions dealt by random legal play whose
target is the points of one random answer.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from fives.layout import Layout
from fives.puzzles.brute import TooLarge, count_solutions
from fives.puzzles.generate import generate_set, kinds_for, random_layout
from fives.puzzles.model import Problem, dumps
from fives.puzzles.space import canonical_placements, grants_continuation, points
from fives.puzzles.verify import check
from fives.puzzles.z3model import PuzzleModel
from fives.rules import load_rules
from fives.tiles import ALL_TILES

GAMES = ("american-sniff", "horse-race")


def throughput(count: int, seed: int) -> None:
    print(f"## Generation: {count} puzzles per kind and game, seed {seed}\n")
    print("| game | kind | generate (s) | puzzles/min | identical rerun | verify (s) | brute force agrees |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for game in GAMES:
        for kind in kinds_for(load_rules(game)):
            t0 = time.perf_counter()
            first = dumps(generate_set([game], kind, count, seed, None).to_dict())
            gen = time.perf_counter() - t0
            pset = generate_set([game], kind, count, seed, None)
            same = dumps(pset.to_dict()) == first
            t0 = time.perf_counter()
            agree = sum(check(p).brute == "agrees" for p in pset.puzzles)
            ver = time.perf_counter() - t0
            print(f"| {game} | {kind} | {gen:.1f} | {count / gen * 60:.0f} | {'yes' if same else 'NO'} "
                  f"| {ver:.1f} | {agree}/{count} |", flush=True)


def _position(game: str, kind: str, size: int, rng: random.Random) -> Problem | None:
    """A position with `size` tiles to place and a target met by at least one answer."""
    rules = load_rules(game)
    if kind == "build":
        table = random_layout(rules, rng, size)
        if len(table) < size:
            return None
        layout, tiles = Layout(rules), tuple(sorted(table.tiles))
        pts = tuple(points(rules, layout.push(p)) for p in table.history())
        return Problem(game, kind, (), tiles, pts)
    table = random_layout(rules, rng, rng.randint(4, 10))
    rest = sorted(set(ALL_TILES) - set(table.tiles))
    hand = tuple(sorted(rng.sample(rest, size)))
    moves = canonical_placements(table, hand)
    if not moves:
        return None
    left, total = set(hand), 0
    while True:  # one random answer: a single placement, or a whole turn
        p = rng.choice(moves)
        raw = table.push(p)
        total += points(rules, raw)
        left.discard(p.tile)
        moves = canonical_placements(table, left)
        if kind == "single" or not (left and grants_continuation(rules, p.tile, raw)) or not moves:
            break
    return Problem(game, kind, tuple(_table_before(table, len(hand) - len(left))), hand, total)


def _table_before(table: Layout, undo: int) -> list:
    hist = table.history()
    return hist[:len(hist) - undo]


def scaling(per_size: int, seed: int, budget: int) -> None:
    print(f"\n## z3 against brute force: median seconds per puzzle ({per_size} positions per size)\n")
    print("z3 = find the answers and prove there are no more (solve, block, unsat, up to 2 answers);")
    print(f"brute = count every answer by search pruned on the target (budget {budget} placements).\n")
    print("| game | kind | tiles to place | z3 (s) | brute (s) | brute nodes | faster |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    sizes = {"single": (2, 4, 7), "turn": (2, 3, 4, 5, 6, 7), "build": (3, 4, 5, 6, 7, 8, 9, 10, 12, 14)}
    for game in GAMES:
        for kind in kinds_for(load_rules(game)):
            for size in sizes[kind]:
                rng = random.Random(f"{seed}:{game}:{kind}:{size}")
                tz, tb, nodes, over = [], [], [], 0
                while len(tz) < per_size:
                    pr = _position(game, kind, size, rng)
                    if pr is None:
                        continue
                    t0 = time.perf_counter()
                    found = PuzzleModel(pr).solve(limit=2)
                    tz.append(time.perf_counter() - t0)
                    t0 = time.perf_counter()
                    try:
                        c = count_solutions(pr, budget)
                        tb.append(time.perf_counter() - t0)
                        nodes.append(c.nodes)
                        if min(c.count, 2) != len(found):
                            print(f"MISMATCH {game} {kind} {size}: z3 {len(found)}, brute {c.count}", file=sys.stderr)
                    except TooLarge:
                        over += 1
                        tb.append(float("inf"))
                z, b = statistics.median(tz), statistics.median(tb)
                bs = "too large" if b == float("inf") else f"{b:.4f}"
                ns = f"{int(statistics.median(nodes))}" if nodes else "-"
                if over:
                    ns += f" ({over} over budget)"
                print(f"| {game} | {kind} | {size} | {z:.4f} | {bs} | {ns} | {'z3' if z < b else 'brute'} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--per-size", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=int, default=2_000_000)
    ap.add_argument("--skip-throughput", action="store_true")
    a = ap.parse_args()
    if not a.skip_throughput:
        throughput(a.count, a.seed)
    scaling(a.per_size, a.seed, a.budget)


if __name__ == "__main__":
    main()
