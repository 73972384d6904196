"""Colour for a terminal: on when the stream is a terminal, off when it is piped or
redirected; NO_COLOR (any non-empty value) turns it off and FORCE_COLOR turns it on, in that
order (https://no-color.org, https://force-color.org)."""
from __future__ import annotations

import os
from typing import IO, Mapping

CODES = {"green": "32", "red": "31", "yellow": "33", "bold": "1"}


def wants_colour(stream: IO[str], env: Mapping[str, str] | None = None) -> bool:
    env = os.environ if env is None else env
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def paint(text: str, colour: str, on: bool = True) -> str:
    """`text` in `colour` (a key of CODES) when `on`, else unchanged."""
    return f"\033[{CODES[colour]}m{text}\033[0m" if on and text else text
