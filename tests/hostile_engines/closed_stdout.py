"""At the targeted request, closes its stdout and stays alive (sleeps) without answering."""
import os
import sys

from _base import hang, log, serve


def sabotage(msg, answer, args):
    log(f"closed_stdout.py: closing stdout on {msg['id']}")
    sys.stdout.flush()
    os.close(1)
    hang()


serve(sabotage)
