"""Where a command's document (SVG, HTML) goes: never poured onto a terminal by default.

Without --out the document goes to standard output when that is a pipe or a file; on a
terminal the command refuses (before any work) with one line saying how to choose:
`--out FILE`, or `--out -` to write it to the terminal anyway."""
from __future__ import annotations

import sys

from fives.support.errors import UserError


def stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):  # closed or replaced by an object without isatty
        return False


def document_out(out: str | None, what: str, file: str = "--out FILE", force: str = "--out -") -> str:
    """`out`, or "-" (standard output) when it is None and standard output is not a terminal."""
    if out is not None:
        return out
    if stdout_is_terminal():
        raise UserError(f"not writing {what} to the terminal: give {file}, or {force} to write it here anyway")
    return "-"
