"""Tiles of the double-six set and their notation."""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

MAX_PIP = 6  # the double-six set; spec/games/*.yaml `set.max_pip` is checked against this


class Side(str, Enum):
    """The documents' names for the sides of a placed tile."""

    LOW = "low"  # a non-double's smaller half
    HIGH = "high"  # a non-double's larger half
    LINE_A = "line-a"  # a double's straight extensions
    LINE_B = "line-b"
    BRANCH_A = "branch-a"  # a spinner double's side branches
    BRANCH_B = "branch-b"

    def __str__(self) -> str:
        return self.value

    @property
    def is_branch(self) -> bool:
        return self in (Side.BRANCH_A, Side.BRANCH_B)


SIDE_ORDER = {side: i for i, side in enumerate(Side)}
DOUBLE_SIDES = (Side.LINE_A, Side.LINE_B, Side.BRANCH_A, Side.BRANCH_B)
END_SIDES = (Side.LOW, Side.HIGH)


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """A domino `[low|high]`; always stored and written low value first."""

    low: int
    high: int

    def __hash__(self) -> int:
        # cheaper than the generated tuple hash; tiles are hashed on every move
        return self.low * 8 + self.high

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    @property
    def pips(self) -> int:
        return self.low + self.high

    @property
    def sides(self) -> tuple[Side, ...]:
        return DOUBLE_SIDES if self.is_double else END_SIDES

    def value(self, side: Side) -> int:
        """The pip value a connection on `side` must match."""
        return self.high if side is Side.HIGH else self.low

    def has(self, pip: int) -> bool:
        return pip == self.low or pip == self.high

    def __str__(self) -> str:
        return f"[{self.low}|{self.high}]"

    def __repr__(self) -> str:
        return f"Tile({self})"

    @property
    def index(self) -> int:
        """Position 0..27 in the canonical order [0|0], [0|1], ..., [6|6]."""
        return TILE_INDEX[self]


ALL_TILES: tuple[Tile, ...] = tuple(Tile(a, b) for a in range(MAX_PIP + 1) for b in range(a, MAX_PIP + 1))
TILE_INDEX: dict[Tile, int] = {t: i for i, t in enumerate(ALL_TILES)}
_BY_PAIR: dict[tuple[int, int], Tile] = {(t.low, t.high): t for t in ALL_TILES}
_NOTATION = re.compile(r"^\s*\[?\s*(\d+)\s*[|\-]\s*(\d+)\s*\]?\s*$")


def tile(a: int, b: int) -> Tile:
    """The tile with halves `a` and `b` in either order."""
    return _BY_PAIR[(a, b) if a <= b else (b, a)]


def parse_tile(text: object) -> Tile:
    """Parse `"[1|4]"`, `"[4|1]"`, `"1-4"` or `"4-1"`; raises ValueError with the reason."""
    if not isinstance(text, str):
        raise ValueError(f"a tile is written as a string like \"[1|4]\", got {text!r}")
    m = _NOTATION.match(text)
    if not m or (text.strip().startswith("[") != text.strip().endswith("]")):
        raise ValueError(f"malformed tile {text!r}: write it as \"[a|b]\" or \"a-b\"")
    a, b = int(m.group(1)), int(m.group(2))
    if a > MAX_PIP or b > MAX_PIP:
        raise ValueError(f"unknown tile {text!r}: pips run from 0 to {MAX_PIP} in the double-six set")
    return tile(a, b)


def parse_side(text: object) -> Side:
    try:
        return Side(text)
    except ValueError:
        raise ValueError(f"unknown side {text!r}: one of {', '.join(s.value for s in Side)}") from None
