"""Answers as the reference engine, with a `scope` in its hello: --scope JSON from the first
start (a scope that leaves no case: '{"games": [], "kinds": ["teleport"]}'), or only from the
--changed-at Nth start on (a restart whose hello differs from the first), crashing at --at."""
import json
import os

from _base import log, options, serve

args = options(lambda ap: (ap.add_argument("--scope", default='{"players": [2], "partnerships": false}'),
                           ap.add_argument("--changed-at", type=int, default=1)))


def on_hello(args, start, hello):
    return {"scope": json.loads(args.scope)} if start >= args.changed_at else None


def sabotage(msg, answer, args):
    log(f"hello_scope.py: crashing on {msg['id']}")
    os._exit(7)


serve(sabotage, args, on_hello=on_hello)
