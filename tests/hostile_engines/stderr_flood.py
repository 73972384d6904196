"""Says nothing on stdout for the targeted request: floods stderr with 10 MB, then hangs."""
import sys

from _base import hang, log, serve


def sabotage(msg, answer, args):
    chunk = "flooding stderr " * 4096  # 64 KiB
    for _ in range(160):
        sys.stderr.write(chunk)
    log(f"\nstderr_flood.py: end of flood for {msg['id']}")
    hang()


serve(sabotage)
