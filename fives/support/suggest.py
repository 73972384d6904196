""""Did you mean ...?" for a mistyped name: an option, a command, a game, a kind."""
from __future__ import annotations

import difflib
from typing import Iterable


def close_names(word: str, choices: Iterable[str], n: int = 3) -> list[str]:
    """Up to `n` of `choices` that look like `word`, best first (difflib's ratio >= 0.6)."""
    return difflib.get_close_matches(word, sorted(set(choices)), n=n, cutoff=0.6)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """` (did you mean X?)` / ` (did you mean X or Y?)`, or "" when nothing is close."""
    close = close_names(word, choices)
    if not close:
        return ""
    return f" (did you mean {' or '.join(close)}?)"
