"""The loop every hostile engine shares: the reference engine's answers over the protocol,
except for the requests a script chooses to sabotage.

Options every script takes:
  --at N        sabotage the Nth request this process receives (1-based; hello not counted)
  --case GLOB   sabotage requests whose case ID (the request id before '#') matches GLOB
  --state FILE  append one line per start to FILE (tests count restarts with it)
Without --at or --case every request is sabotaged.
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import time
from typing import Any, Callable

from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.engines.serve import handle

# (request, the reference reply, options) -> None; may write anything, hang or exit
Sabotage = Callable[[dict[str, Any], dict[str, Any], argparse.Namespace], None]


def options(extra: Callable[[argparse.ArgumentParser], None] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    ap.add_argument("--at", type=int)
    ap.add_argument("--case")
    ap.add_argument("--state")
    if extra:
        extra(ap)
    return ap.parse_args()


def write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def reply(msg: dict[str, Any]) -> None:
    write(json.dumps(msg) + "\n")


def log(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def hang() -> None:
    while True:
        time.sleep(3600)


def park(pids: str | None) -> None:
    """Write this process's pid, one line, to `pids` (a test checks it was killed), then sleep."""
    import os

    if pids:
        with open(pids, "a", encoding="utf-8") as f:
            f.write(f"{os.getpid()}\n")
    while True:
        time.sleep(3600)


def starts(args: argparse.Namespace) -> int:
    """Record this start in --state and return its number (1 for the first start)."""
    if not args.state:
        return 1
    with open(args.state, "a+", encoding="utf-8") as f:
        f.write("start\n")
        f.seek(0)
        return len(f.read().splitlines())


def targeted(args: argparse.Namespace, n: int, msg: dict[str, Any]) -> bool:
    if args.at is None and args.case is None:
        return True
    case_id = str(msg.get("id", "")).split("#")[0]
    return n == args.at or (args.case is not None and fnmatch.fnmatchcase(case_id, args.case))


def serve(sabotage: Sabotage, args: argparse.Namespace | None = None,
          on_hello: Callable[[argparse.Namespace, int, dict[str, Any]], dict[str, Any] | None] | None = None,
          on_request: Callable[[argparse.Namespace, int, int], None] | None = None) -> None:
    args = args or options()
    start = starts(args)
    engine = ReferenceEngine()
    n = 0
    while line := sys.stdin.readline():
        msg = json.loads(line)
        if msg.get("type") == "hello":
            hello = handle(engine, msg)
            if on_hello:  # may exit, or return keys to change in the hello reply
                hello |= on_hello(args, start, hello) or {}
            reply(hello)
            continue
        n += 1
        if on_request:  # may wait for an event before answering (start number, request number)
            on_request(args, start, n)
        answer = handle(engine, msg)
        if targeted(args, n, msg):
            sabotage(msg, answer, args)
        else:
            reply(answer)
