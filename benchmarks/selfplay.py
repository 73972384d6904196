"""Self-play matches per second for every configuration, and every record replayed clean.

    python benchmarks/selfplay.py [--matches 1000] [--strategy random] [--jobs 1] [--game GAME]

For each configuration the documents allow, plays MATCHES seeded matches (seeds 0..N-1),
writes each record to memory as JSON Lines, then replays every record (schema validation,
re-derivation of every deal, placement and settlement). Prints matches per second for play
and for replay, average hands and record lines per match, and exits 1 if any match failed
to finish or any record failed to replay.
"""
from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from typing import Any

from fives.support.progress import Progress
from fives.record import RecordError, _validators, dumps, replay
from fives.rules import game_ids, load_rules
from fives.settlement import configure
from fives.strategies import play_match

CHUNK = 50


def run_chunk(args: tuple[str, int, bool, list[str], int, int]) -> dict[str, Any]:
    """Play then replay seeds [start, stop) of one configuration; CPU seconds of each phase."""
    game, players, partnerships, names, start, stop = args
    rules = load_rules(game)
    config = configure(rules, players, partnerships)
    failures: list[str] = []
    records = []
    hands = lines = 0
    t0 = time.process_time()
    for seed in range(start, stop):
        try:
            events = play_match(rules, config, seed, names)
        except Exception as e:  # a match that cannot finish is a bug to report, not to hide
            failures.append(f"seed {seed}: play: {e}")
            continue
        records.append((seed, [dumps(e) for e in events]))
        hands += events[-1]["hands"]
    t1 = time.process_time()
    for seed, rec in records:
        lines += len(rec)
        try:
            replay(rec)
        except RecordError as e:
            failures.append(f"seed {seed}: replay line {e.line}: {e.code}: {e.message}")
    t2 = time.process_time()
    return {"n": stop - start, "play": t1 - t0, "replay": t2 - t1, "hands": hands, "lines": lines,
            "failures": failures}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=1000, help="matches per configuration (default 1000)")
    ap.add_argument("--strategy", default="random", help="strategy names, comma-separated (default random)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    args = ap.parse_args()
    names = [n for n in args.strategy.split(",") if n]
    fast = _validators()["place"][1] is not None
    print(f"{args.matches} matches per configuration, strategy {args.strategy}, {args.jobs} job(s); "
          f"record validation: {'fastjsonschema' if fast else 'jsonschema'}")
    print(f"{'configuration':32} {'play/s':>8} {'replay/s':>9} {'wall/s':>8} {'hands':>6} {'lines':>6}  failures")
    bad = 0
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    try:
        for game in args.game or game_ids():
            rules = load_rules(game)
            for players, partnerships in rules.configurations():
                label = f"{game} {players}p" + (" partnerships" if partnerships else "")
                chunks = [(game, players, partnerships, names, s, min(s + CHUNK, args.matches))
                          for s in range(0, args.matches, CHUNK)]
                t0 = time.perf_counter()
                results = []
                with Progress(args.matches, label) as bar:
                    it = pool.imap_unordered(run_chunk, chunks) if pool else map(run_chunk, chunks)
                    for r in it:
                        results.append(r)
                        bar.advance(r["n"])
                wall = time.perf_counter() - t0
                n = sum(r["n"] for r in results)
                play_cpu = sum(r["play"] for r in results)
                replay_cpu = sum(r["replay"] for r in results)
                failures = [f for r in results for f in r["failures"]]
                bad += len(failures)
                print(f"{label:32} {n / play_cpu:8.1f} {n / replay_cpu:9.1f} {n / wall:8.1f} "
                      f"{sum(r['hands'] for r in results) / n:6.1f} {sum(r['lines'] for r in results) / n:6.0f}  "
                      f"{len(failures)}")
                for f in failures[:5]:
                    print(f"    {f}")
    finally:
        if pool:
            pool.close()
    print("play/s and replay/s: matches per CPU second of one process; wall/s: matches played and "
          "replayed per wall second")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
