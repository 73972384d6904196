"""Words for counts and choices: counted nouns ("1 case", "2 cases"), alternatives ("2, 3 or 4"),
and a side of the table by its seats ("seat 1", "team 0+2").

Only messages and pictures read these: no answer of a request kind does, so the mutation
measure of the rules core leaves them out.
"""
from __future__ import annotations

from typing import Sequence


def plural(n: int, word: str, many: str | None = None) -> str:
    """`n word`, the noun in the plural unless n is 1 (`many`, else word + "s", or + "es"
    after s, x, z, ch, sh)."""
    if n == 1:
        return f"{n} {word}"
    if many is None:
        many = word + ("es" if word.endswith(("s", "x", "z", "ch", "sh")) else "s")
    return f"{n} {many}"


def one_of(items: Sequence[object]) -> str:
    """The items joined as alternatives: "2", "2 or 3", "2, 3 or 4"."""
    words = [str(i) for i in items]
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]


def side_name(seats: Sequence[int]) -> str:
    """A side named by its seats: "seat 1" alone, "team 0+2" in a partnership."""
    return f"seat {seats[0]}" if len(seats) == 1 else "team " + "+".join(map(str, seats))
