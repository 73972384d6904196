"""A deliberately wrong engine: the reference `fives serve` behind a wrapper that adds 1 to
the node count of every perft reply whose request is --from-depth deep or deeper (an author's
bug that shows only in deep counts, issue 37). Every other reply passes unchanged.

    python tests/deep_miscount_engine.py --from-depth 5
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--from-depth", type=int, required=True, help="miscount perft requests this deep or deeper")
    args = ap.parse_args()
    serve = subprocess.Popen([sys.executable, "-m", "fives", "serve"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, bufsize=1)
    assert serve.stdin is not None and serve.stdout is not None
    while line := sys.stdin.readline():
        serve.stdin.write(line)
        serve.stdin.flush()
        answer = serve.stdout.readline()
        if not answer:
            break
        request, reply = json.loads(line), json.loads(answer)
        result = reply.get("result")
        depth = (request.get("input") or {}).get("depth")
        if request.get("type") == "perft" and isinstance(result, dict) and isinstance(depth, int) \
                and depth >= args.from_depth:
            result["nodes"] += 1
            answer = json.dumps(reply) + "\n"
        sys.stdout.write(answer)
        sys.stdout.flush()
    serve.stdin.close()
    serve.wait()


if __name__ == "__main__":
    main()
