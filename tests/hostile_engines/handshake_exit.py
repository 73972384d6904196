"""Exits while answering the hello: on every start (default) or only on the starts listed in
--fail-starts (numbered with --state), e.g. `--fail-starts 1` or `--fail-starts 2,3`.
Requests matched by --at/--case make it crash (exit 7), to force a restart."""
import os

from _base import log, options, serve

args = options(lambda ap: ap.add_argument("--fail-starts", default="all"))


def on_hello(args, start, hello):
    if args.fail_starts == "all" or str(start) in args.fail_starts.split(","):
        log(f"handshake_exit.py: exiting during handshake (start {start})")
        os._exit(5)


def sabotage(msg, answer, args):
    log(f"handshake_exit.py: crashing on {msg['id']}")
    os._exit(7)


if args.at is None and args.case is None:
    args.case = "\0"  # no request is sabotaged unless asked
serve(sabotage, args, on_hello)
