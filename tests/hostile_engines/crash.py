"""Exits with --code (default 7) instead of answering the targeted request."""
import os

from _base import log, options, serve

args = options(lambda ap: ap.add_argument("--code", type=int, default=7))


def sabotage(msg, answer, args):
    log(f"crash.py: crashing on {msg['id']}")
    os._exit(args.code)


serve(sabotage, args)
