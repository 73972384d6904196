"""Answers the targeted request with one 5 MB line (no newline until the very end)."""
import sys

from _base import serve


def sabotage(msg, answer, args):
    out = sys.stdout
    for _ in range(5 * 16):
        out.write("x" * 65536)  # 5 MiB in pieces, so the runner sees it arrive without a newline
        out.flush()
    out.write("\n")
    out.flush()


serve(sabotage)
