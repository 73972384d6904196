"""Writes the first half of the reply line without its newline, then exits or hangs (--then)."""
import json
import os

from _base import hang, serve, write, options

args = options(lambda ap: ap.add_argument("--then", choices=["exit", "hang"], default="exit"))


def sabotage(msg, answer, args):
    text = json.dumps(answer)
    write(text[: len(text) // 2])
    if args.then == "hang":
        hang()
    os._exit(0)


serve(sabotage, args)
