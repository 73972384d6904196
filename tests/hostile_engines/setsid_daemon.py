"""Starts a daemon the classic way (fork, `setsid`, fork again: a new session and process
group, parented by init) on the targeted request, then answers it like the reference engine.
The daemon writes its pid, one line, to --pids FILE and sleeps, holding no pipe of the engine:
only a runner that kills the engine's session or descendants, not just its group, ends it."""
import os
import sys

from _base import options, park, reply, serve

args = options(lambda ap: ap.add_argument("--pids"))


def daemonize():
    sys.stdout.flush()
    sys.stderr.flush()
    if os.fork() != 0:
        os.wait()  # the first child exits at once
        return
    os.setsid()
    if os.fork() != 0:
        os._exit(0)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    park(args.pids)


def sabotage(msg, answer, args):
    daemonize()
    reply(answer)


serve(sabotage, args)
