"""Perft speed against the naive evaluator in the same run, jobs 1 against 2, and full
recomputation of the table.

    python benchmarks/perft.py                      # both games, depth 6, jobs 1 and 2, naive sample
    python benchmarks/perft.py --naive-units 4      # a larger sample of the naive evaluator
    python benchmarks/perft.py --depth 5 --jobs 1 2 4
    python benchmarks/perft.py --table              # recompute all of conformance/perft/perft.yaml
    python benchmarks/perft.py --simple-depth 5 --id american-sniff-empty --id horse-race-empty
                                                    # the simple evaluator against the table, deeper
                                                    # than the test suite goes (slow on purpose)

Every count is compared with the committed table where it has that value; a mismatch
exits 1. Timings go to stdout, one line each.

The naive evaluator (tests/simple_evaluator.py, every layout rebuilt from scratch) would take
hours for a whole depth-6 tree, so it counts a seeded sample of the depth-6 work units (the
subtrees below two first placements, the units `--jobs` hands out); `fives.perft` counts the
same units, and the whole tree. Ratios are of nodes per CPU second (goal: 20x or more);
jobs 2 against jobs 1 is of wall time (goal: 1.6x or more on 2 idle cores).
"""
from __future__ import annotations

import argparse
import multiprocessing
import random
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the simple evaluator lives with the tests

import yaml  # noqa: E402

from fives.moves import placement_of  # noqa: E402
from fives.perft import count_unit, perft, start_layout  # noqa: E402
from fives.rules import load_rules  # noqa: E402

TABLE_PATH = ROOT / "conformance" / "perft" / "perft.yaml"
GAMES = ["american-sniff", "horse-race"]


def table_value(game: str, depth: int, start: list | None = None) -> tuple[int, int] | None:
    table = yaml.safe_load(TABLE_PATH.read_text(encoding="utf-8"))
    for entry in table["tables"]:
        if entry["game"] == game and entry["from"] == (start or []):
            for row in entry["depths"]:
                if row["depth"] == depth:
                    return row["nodes"], row["points"]
    return None


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def naive_sample(game: str, depth: int, units: int, seed: int) -> tuple[int, float, float]:
    """(nodes, naive CPU seconds, fives CPU seconds) over `units` seeded random work units of
    a depth-`depth` perft from the empty layout: the subtrees below two first placements."""
    import simple_evaluator as simple

    rules = load_rules(game)
    layout = start_layout(rules, [])
    pairs = []
    for m1 in layout.moves():
        layout.push_move(m1)
        pairs.extend((m1, m2) for m2 in layout.moves())
        layout.pop_move()
    chosen = random.Random(seed).sample(pairs, units)
    nodes = 0
    naive = fast = 0.0
    for m1, m2 in chosen:
        t0 = time.process_time()
        n, p = count_unit((rules, type(layout), (), (m1, m2), depth))
        fast += time.process_time() - t0
        records = [placement_of(m1).to_dict(), placement_of(m2).to_dict()]
        t0 = time.process_time()
        got = simple.perft(game, depth - 2, records)
        naive += time.process_time() - t0
        if got != (n, p):
            raise SystemExit(f"MISMATCH naive {got} fives {(n, p)} below {records}")
        nodes += n
    return nodes, naive, fast


def bench(games: list[str], depth: int, jobs_list: list[int], naive_units: int, seed: int) -> int:
    bad = 0
    for game in games:
        want = table_value(game, depth)
        walls: dict[int, float] = {}
        cpus: dict[int, float] = {}
        rate = 0.0
        for jobs in jobs_list:
            t0, c0, k0 = time.perf_counter(), time.process_time(), _children_cpu()
            got = perft(game, depth, jobs=jobs)
            dt, cpu = time.perf_counter() - t0, time.process_time() - c0
            walls[jobs], cpus[jobs] = dt, cpu + _children_cpu() - k0
            if jobs == 1:
                rate = got.nodes / cpu
            check = "" if want is None else ("  (= table)" if (got.nodes, got.points) == want else f"  MISMATCH table {want}")
            bad += "MISMATCH" in check
            print(f"{game} depth {depth} jobs {jobs}: {got.nodes} nodes, {got.points} points in {dt:.2f} s wall"
                  + (f", {cpu:.2f} s CPU = {rate:,.0f} nodes per CPU s" if jobs == 1 else "") + check, flush=True)
        if 1 in walls:
            for jobs in jobs_list:
                if jobs > 1:
                    # on a busy machine wall time hides the split; the CPU both runs spent shows
                    # what it costs: on `jobs` idle cores the speed-up is at most jobs * cpu1 / cpuN
                    print(f"{game} depth {depth}: jobs {jobs} is {walls[1] / walls[jobs]:.2f}x jobs 1 (wall); "
                          f"CPU {cpus[jobs]:.2f} s (parent and workers) against {cpus[1]:.2f} s: at most "
                          f"{jobs * cpus[1] / cpus[jobs]:.2f}x on {jobs} idle cores")
        if naive_units:
            nodes, naive, fast = naive_sample(game, depth, naive_units, seed)
            print(f"{game} depth {depth}, {naive_units} sampled units ({nodes} nodes): naive "
                  f"{nodes / naive:,.0f} nodes per CPU s, fives {nodes / fast:,.0f}: {naive / fast:.1f}x on the same "
                  f"units" + (f"; the whole fives run is {rate / (nodes / naive):.1f}x the naive rate" if rate else ""),
                  flush=True)
    return bad


def _simple_subtree(args: tuple[str, int, list, dict]) -> tuple[int, int]:
    import simple_evaluator as simple

    game, depth, start, move = args
    if depth == 1:
        return 1, simple.evaluate(game, start + [move])["raw"]
    return simple.perft(game, depth - 1, start + [move])


def simple_check(depth: int, jobs: int, ids: list[str] | None) -> int:
    """The simple evaluator's perft at `depth` for every table entry (or those in `ids`) with that depth."""
    import simple_evaluator as simple

    table = yaml.safe_load(TABLE_PATH.read_text(encoding="utf-8"))
    bad = 0
    for entry in table["tables"]:
        row = next((r for r in entry["depths"] if r["depth"] == depth), None)
        if row is None or (ids and entry["id"] not in ids):
            continue
        game, start = entry["game"], entry["from"]
        roots = simple.legal_records(start, simple.game_parameters(game))
        t0 = time.perf_counter()
        with multiprocessing.Pool(jobs) as pool:
            parts = pool.map(_simple_subtree, [(game, depth, start, m) for m in roots], chunksize=1)
        got = (sum(n for n, _ in parts), sum(p for _, p in parts))
        dt = time.perf_counter() - t0
        ok = got == (row["nodes"], row["points"])
        bad += not ok
        print(f"simple {entry['id']} depth {depth}: nodes {got[0]} points {got[1]} in {dt:.1f} s "
              f"{'= table' if ok else 'MISMATCH table ' + str((row['nodes'], row['points']))}", flush=True)
    return bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=GAMES, action="append", help="default: both games")
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--naive-units", type=int, default=2, help="work units the naive evaluator counts (0: none)")
    ap.add_argument("--seed", type=int, default=1, help="which work units are sampled")
    ap.add_argument("--table", action="store_true", help="recompute every value in the committed table")
    ap.add_argument("--max-depth", type=int, help="with --table: skip deeper rows")
    ap.add_argument("--simple-depth", type=int, help="run the simple evaluator's perft at this depth")
    ap.add_argument("--id", action="append", help="with --simple-depth: only this table entry (repeatable)")
    args = ap.parse_args()
    if args.table:
        from fives.perft_session import check_table, load_table

        table, _ = load_table(TABLE_PATH)
        bad = 0
        t0 = time.perf_counter()
        for line, ok, _ in check_table(table, max(args.jobs), args.max_depth, update=False):
            print(line, flush=True)
            bad += not ok
        print(f"table recomputed in {time.perf_counter() - t0:.1f} s with {max(args.jobs)} jobs: {bad} mismatch(es)")
        return 1 if bad else 0
    if args.simple_depth is not None:
        return 1 if simple_check(args.simple_depth, max(args.jobs), args.id) else 0
    return 1 if bench(args.game or GAMES, args.depth, args.jobs, args.naive_units, args.seed) else 0


if __name__ == "__main__":
    sys.exit(main())
