"""A deliberately slow engine: the reference `fives serve` behind a wrapper that, before it
passes on a perft reply, sleeps its node count divided by --rate seconds (an engine in a slow
language, counting --rate nodes a second). Every other reply passes at once.

    python tests/slow_perft_engine.py --rate 15000
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rate", type=float, required=True, help="perft nodes counted a second")
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
        request = json.loads(line)
        result = json.loads(answer).get("result")
        if request.get("type") == "perft" and isinstance(result, dict):
            time.sleep(result.get("nodes", 0) / args.rate)
        sys.stdout.write(answer)
        sys.stdout.flush()
    serve.stdin.close()
    serve.wait()


if __name__ == "__main__":
    main()
