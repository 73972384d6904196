"""Answers as the reference engine, with a `scope` in its hello: --scope JSON from the first
start (a scope that leaves no case: '{"games": [], "kinds": ["teleport"]}'), or only from the
--changed-at Nth start on (a restart whose hello differs from the first), crashing at --at.
--wait-twin: the first start answers its first request only once a second start is recorded in
--state (a parallel twin), so under --jobs 2 the twin runs a case however busy the machine."""
import json
import os
import time

from _base import log, options, serve

args = options(lambda ap: (ap.add_argument("--scope", default='{"players": [2], "partnerships": false}'),
                           ap.add_argument("--changed-at", type=int, default=1),
                           ap.add_argument("--wait-twin", action="store_true")))


def on_hello(args, start, hello):
    return {"scope": json.loads(args.scope)} if start >= args.changed_at else None


def sabotage(msg, answer, args):
    log(f"hello_scope.py: crashing on {msg['id']}")
    os._exit(7)


def on_request(args, start, n):
    if not (args.wait_twin and start == 1 and n == 1):
        return
    deadline = time.monotonic() + 120  # a hang's bound: the twin is started within it
    while time.monotonic() < deadline:
        with open(args.state, encoding="utf-8") as f:
            if len(f.read().splitlines()) >= 2:
                return
        time.sleep(0.05)


serve(sabotage, args, on_hello=on_hello, on_request=on_request)
