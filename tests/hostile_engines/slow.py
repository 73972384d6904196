"""Answers every request correctly after --delay seconds (for the Ctrl-C test)."""
import time

from _base import options, reply, serve

args = options(lambda ap: ap.add_argument("--delay", type=float, default=0.3))


def sabotage(msg, answer, args):
    time.sleep(args.delay)
    reply(answer)


serve(sabotage, args)
