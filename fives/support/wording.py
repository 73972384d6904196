"""Counted nouns: "1 case", "2 cases", "1 match", "0 passes"."""
from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """`n word`, the noun in the plural unless n is 1 (`many`, else word + "s", or + "es"
    after s, x, z, ch, sh)."""
    if n == 1:
        return f"{n} {word}"
    if many is None:
        many = word + ("es" if word.endswith(("s", "x", "z", "ch", "sh")) else "s")
    return f"{n} {many}"
