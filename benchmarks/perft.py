"""Perft speed (nodes per second with 1 and 2 jobs), and full recomputation of the table.

    python benchmarks/perft.py                      # both games, depth 6, jobs 1 and 2
    python benchmarks/perft.py --depth 5 --jobs 1 2 4
    python benchmarks/perft.py --table              # recompute all of conformance/perft/perft.yaml
    python benchmarks/perft.py --simple-depth 5 --id american-sniff-empty --id horse-race-empty
                                                    # the simple evaluator against the table, deeper
                                                    # than the test suite goes (slow on purpose)

Every count is compared with the committed table where it has that value; a mismatch
exits 1. Timings go to stdout, one line each.
"""
from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the simple evaluator lives with the tests

import yaml  # noqa: E402

from fives.perft import perft  # noqa: E402

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


def bench(games: list[str], depth: int, jobs_list: list[int]) -> int:
    bad = 0
    for game in games:
        want = table_value(game, depth)
        for jobs in jobs_list:
            t0 = time.perf_counter()
            got = perft(game, depth, jobs=jobs)
            dt = time.perf_counter() - t0
            check = "" if want is None else ("  (= table)" if (got.nodes, got.points) == want else f"  MISMATCH table {want}")
            bad += "MISMATCH" in check
            print(f"{game} depth {depth} jobs {jobs}: {got.nodes} nodes, {got.points} points in {dt:.2f} s"
                  f" = {got.nodes / dt:,.0f} nodes/s{check}", flush=True)
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
    ap.add_argument("--table", action="store_true", help="recompute every value in the committed table")
    ap.add_argument("--max-depth", type=int, help="with --table: skip deeper rows")
    ap.add_argument("--simple-depth", type=int, help="run the simple evaluator's perft at this depth")
    ap.add_argument("--id", action="append", help="with --simple-depth: only this table entry (repeatable)")
    args = ap.parse_args()
    if args.table:
        from fives.cli.perft import check_table, load_table

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
    return 1 if bench(args.game or GAMES, args.depth, args.jobs) else 0


if __name__ == "__main__":
    sys.exit(main())
