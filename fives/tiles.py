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

    @property
    def index(self) -> int:  # type: ignore[override]  # str.index: a Side is never searched as text
        """Position 0..5 in the order above (the canonical side order)."""
        return SIDE_ORDER[self]


SIDE_ORDER = {side: i for i, side in enumerate(Side)}
SIDES: tuple[Side, ...] = tuple(Side)  # by index
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
# ASCII digits only (spec/engine.md): `\d` would also take Arabic-Indic and other digits
# Exactly the two written forms of spec/engine.md, `[a|b]` and `a-b`: no blanks, no other
# brackets or separators; digits are checked after the match (`[05|2]`, `[7|2]`).
_NOTATION = re.compile(r"\[([0-9]+)\|([0-9]+)\]|([0-9]+)-([0-9]+)", re.ASCII)
# The common spellings, looked up before the regular expression (parsing is on the hot path
# of `fives evaluate`); a fixed table, so hostile input cannot grow it.
_SPELLED: dict[str, Tile] = {form: t for a in range(MAX_PIP + 1) for b in range(MAX_PIP + 1)
                             for t in [_BY_PAIR[(min(a, b), max(a, b))]]
                             for form in (f"[{a}|{b}]", f"{a}-{b}")}
_SIDE_BY_NAME: dict[str, Side] = {s.value: s for s in Side}


# -- the same as small ints, for hot paths: tile i is ALL_TILES[i], side s is SIDES[s] -----------
TILE_LOW: tuple[int, ...] = tuple(t.low for t in ALL_TILES)
TILE_HIGH: tuple[int, ...] = tuple(t.high for t in ALL_TILES)
IS_DOUBLE: tuple[bool, ...] = tuple(t.is_double for t in ALL_TILES)
#: Bit mask of the sides a tile has (bit s = side index s).
SIDE_BITS: tuple[int, ...] = tuple(sum(1 << SIDE_ORDER[s] for s in t.sides) for t in ALL_TILES)
#: Tile indices holding each pip value, in canonical order, and the same as a bit mask.
PIP_TILES: tuple[tuple[int, ...], ...] = tuple(tuple(i for i, t in enumerate(ALL_TILES) if t.has(v))
                                               for v in range(MAX_PIP + 1))
PIP_MASK: tuple[int, ...] = tuple(sum(1 << i for i in group) for group in PIP_TILES)
#: Side indices of each 6-bit side mask, in side order.
MASK_SIDES: tuple[tuple[int, ...], ...] = tuple(tuple(s for s in range(6) if m >> s & 1) for m in range(64))


def tile(a: int, b: int) -> Tile:
    """The tile with halves `a` and `b` in either order."""
    return _BY_PAIR[(a, b) if a <= b else (b, a)]


def parse_tile(text: object) -> Tile:
    """Parse `"[1|4]"`, `"[4|1]"`, `"1-4"` or `"4-1"`, the forms spec/engine.md documents, and
    nothing else (`5|2`, `[5-2]`, `[05|2]`, `" [1|4]"` are malformed); ValueError with the reason."""
    got = _SPELLED.get(text) if type(text) is str else None
    if got is not None:
        return got
    if not isinstance(text, str):
        raise ValueError(f"a tile is written as a string like \"[1|4]\", got {text!r}")
    m = _NOTATION.fullmatch(text)
    pips = [g for g in m.groups() if g is not None] if m else []
    if not pips or any(len(g) > 1 and g.startswith("0") for g in pips):
        raise ValueError(f"malformed tile {text!r}: write it as \"[a|b]\" or \"a-b\"")
    # every valid spelling was found in _SPELLED above: these digits are out of the set
    raise ValueError(f"unknown tile {text!r}: pips run from 0 to {MAX_PIP} in the double-six set")


def parse_side(text: object) -> Side:
    """A side from its name (`"low"`, ..., `"branch-b"`) or a Side; ValueError otherwise."""
    if isinstance(text, Side):
        return text
    got = _SIDE_BY_NAME.get(text) if type(text) is str else None
    if got is not None:
        return got
    try:
        return Side(text)
    except (ValueError, TypeError):
        raise ValueError(f"unknown side {text!r}: one of {', '.join(s.value for s in Side)}") from None
