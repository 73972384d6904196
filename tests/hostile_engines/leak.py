"""Forks a child that keeps the engine's stdout and stderr open and sleeps, then:
  --then exit   (default) the engine exits (code 9) without answering the targeted request
  --then hang   the engine hangs on the targeted request
  --then end    the engine answers everything; the child is forked at end of input, as the
                engine exits (a runner that waits for end of output hangs here)
Each child writes its pid, one line, to --pids FILE so a test can check it was killed."""
import os
import sys

from _base import hang, log, options, park, serve

args = options(lambda ap: (ap.add_argument("--then", default="exit", choices=["exit", "hang", "end"]),
                           ap.add_argument("--pids")))


def leak_child():
    sys.stdout.flush()
    sys.stderr.flush()
    if os.fork() == 0:  # the child: same process group, inherits stdout and stderr
        park(args.pids)


def sabotage(msg, answer, args):
    log(f"leak.py: leaking a child on {msg['id']}")
    leak_child()
    if args.then == "exit":
        os._exit(9)
    hang()


if args.then == "end":
    args.case = "\0"  # nothing is sabotaged: the leak happens at end of input
serve(sabotage, args)
if args.then == "end":
    leak_child()
