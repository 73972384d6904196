"""Placements: the `Placement` object of the API, its text and record forms, and its int code.

Hot paths (the layout, perft, walkers) handle a placement as one int, its *move code*:
`tile << 8 | (to * 6 + side + 1)` with tile and target as indices 0..27 into `ALL_TILES`
and the side as its index 0..5 in `Side`; an opening (joining nothing) is `tile << 8`.
Sorting codes sorts placements canonically: by tile, then target tile, then side, opening
first. `PLACEMENT_OF[code]` is a shared, prebuilt `Placement` for every well-formed code, so
turning codes back into objects allocates nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Mapping, Union

from fives.tiles import ALL_TILES, SIDE_BITS, SIDE_ORDER, SIDES, TILE_HIGH, TILE_LOW, Side, Tile, parse_side, parse_tile


class IllegalCode(str, Enum):
    """Machine-readable reasons a placement is rejected (documented in spec/engine.md)."""

    MALFORMED_PLACEMENT = "malformed-placement"
    MALFORMED_TILE = "malformed-tile"
    UNKNOWN_SIDE = "unknown-side"
    TILE_ALREADY_PLACED = "tile-already-placed"
    TARGET_NOT_IN_LAYOUT = "target-not-in-layout"
    NO_SUCH_SIDE = "no-such-side"
    SIDE_OCCUPIED = "side-occupied"
    BRANCH_OF_NON_SPINNER = "branch-of-non-spinner"
    BRANCH_BEFORE_LINES = "branch-before-lines"
    VALUE_MISMATCH = "value-mismatch"
    TILE_NOT_IN_HAND = "tile-not-in-hand"

    def __str__(self) -> str:
        return self.value


class IllegalPlacement(ValueError):
    """A placement the rules (or its spelling) reject: `code` says why, `index` which one."""

    def __init__(self, code: IllegalCode, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.index = index


#: Tile index by `low * 8 + high` (cheaper than hashing a Tile).
_INDEX_BY_PIPS: list[int] = [-1] * 64
for _i, _t in enumerate(ALL_TILES):
    _INDEX_BY_PIPS[_t.low * 8 + _t.high] = _i


def tile_index(t: Tile) -> int:
    """Index 0..27 of a tile in `ALL_TILES`."""
    return _INDEX_BY_PIPS[t.low * 8 + t.high]


def _as_tile(value: object, what: str) -> Tile:
    if type(value) is Tile:
        return value  # type: ignore[return-value,unused-ignore]  # mypy < 1.17 does not narrow type() is
    try:
        return parse_tile(value)
    except ValueError as e:
        raise IllegalPlacement(IllegalCode.MALFORMED_TILE, f"{what}{e}") from None


def _as_side(value: object) -> Side:
    try:
        return parse_side(value)
    except ValueError as e:
        raise IllegalPlacement(IllegalCode.UNKNOWN_SIDE, str(e)) from None


@dataclass(frozen=True, slots=True)
class Placement:
    """A move: `tile` joins side `side` of the placed tile `to` (the opening joins nothing).

    Tiles may be given as text (`"[1|4]"`) and the side by its name (`"low"`); a bad value
    raises IllegalPlacement (`malformed-tile` or `unknown-side`). `str(p)` writes
    `[1|4]` or `[1|1]>[1|4]:low`, and `Placement.parse` reads it back.
    """

    tile: Tile
    to: Tile | None = None
    side: Side | None = None
    #: the move code (see the module docstring); -1 when only one of `to`/`side` is given
    code: int = field(default=-1, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        t, to, side = self.tile, self.to, self.side
        if type(t) is not Tile:
            t = _as_tile(t, "")
            object.__setattr__(self, "tile", t)
        if to is not None and type(to) is not Tile:
            to = _as_tile(to, "target: ")
            object.__setattr__(self, "to", to)
        if side is not None and type(side) is not Side:
            side = _as_side(side)
            object.__setattr__(self, "side", side)
        code = _INDEX_BY_PIPS[t.low * 8 + t.high] << 8
        if to is not None and side is not None:
            code |= _INDEX_BY_PIPS[to.low * 8 + to.high] * 6 + SIDE_ORDER[side] + 1
        elif to is not None or side is not None:
            code = -1
        object.__setattr__(self, "code", code)

    def to_dict(self) -> dict[str, str]:
        """The placement record of `fives evaluate`: `{tile}` or `{tile, to, side}`."""
        if self.to is None or self.side is None:
            return {"tile": str(self.tile)}
        return {"tile": str(self.tile), "to": str(self.to), "side": self.side.value}

    def __str__(self) -> str:
        return str(self.tile) if self.to is None else f"{self.tile}>{self.to}:{self.side}"

    @classmethod
    def parse(cls, text: str) -> "Placement":
        """Read `[1|4]` (an opening) or `[1|1]>[1|4]:low`: the inverse of `str(placement)`."""
        if not isinstance(text, str):
            raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT,
                                   f"a placement is written like \"[1|1]>[1|4]:low\", got {text!r:.60}")
        if ">" not in text:
            return cls(_as_tile(text, ""))
        tile_text, _, rest = text.partition(">")
        to_text, colon, side_text = rest.rpartition(":")
        if not colon:
            raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT,
                                   f"malformed placement {text!r:.60}: write it as \"[1|1]>[1|4]:low\"")
        return cls(_as_tile(tile_text, ""), _as_tile(to_text, "target: "), _as_side(side_text.strip()))

    @classmethod
    def from_dict(cls, record: object, index: int | None = None) -> "Placement":
        """A placement record (`{tile}` or `{tile, to, side}`); IllegalPlacement (with `index`)."""
        try:
            return _from_record(record)
        except IllegalPlacement as e:
            e.index = index
            raise


PLACEMENT_KEYS = frozenset(("tile", "to", "side"))


def _from_record(record: object) -> Placement:
    if not isinstance(record, dict):
        raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT,
                               f"a placement is a mapping like {{tile: \"[1|4]\", to: ..., side: ...}}, got {record!r:.60}")
    extra = set(record) - PLACEMENT_KEYS
    if extra:
        raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT,
                               f"unexpected key(s) {', '.join(sorted(map(str, extra)))[:80]}; a placement has tile, to, side")
    if None in record.values():  # null counts as absent: `"to": null` is an opening (spec/engine.md)
        record = {k: v for k, v in record.items() if v is not None}
    if "tile" not in record:
        raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT, "the placement has no `tile`")
    if ("to" in record) != ("side" in record):
        raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT, "`to` and `side` go together")
    tile = _as_tile(record["tile"], "")
    if "to" not in record:
        return Placement(tile)
    return Placement(tile, _as_tile(record["to"], "target: "), _as_side(record["side"]))


PlacementLike = Union[Placement, str, Mapping[str, Any]]


def as_placement(p: object) -> Placement:
    """A Placement from a Placement, its text (`"[1|1]>[1|4]:low"`) or its record (a mapping)."""
    if type(p) is Placement:
        return p  # type: ignore[return-value,unused-ignore]
    if isinstance(p, str):
        return Placement.parse(p)
    if isinstance(p, Mapping):
        return _from_record(dict(p))
    raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT,
                           f"a placement is a Placement, a text like \"[1|1]>[1|4]:low\" or a mapping, got {p!r:.60}")


# -- move codes -----------------------------------------------------------------------------
#: Per position q = to * 6 + side (0..167): its tile, its side, the pip value it needs.
POS_TILE: tuple[int, ...] = tuple(q // 6 for q in range(28 * 6))
POS_SIDE: tuple[int, ...] = tuple(q % 6 for q in range(28 * 6))
POS_VALUE: tuple[int, ...] = tuple(TILE_HIGH[q // 6] if SIDES[q % 6] is Side.HIGH else TILE_LOW[q // 6]
                                   for q in range(28 * 6))
#: JOIN[tile * 7 + value]: the side index by which a tile joins a position of `value` (the
#: double's line A, or the matching half), or -1 when the tile has no such half.
JOIN: tuple[int, ...] = tuple(
    (SIDE_ORDER[Side.LINE_A] if t.is_double else SIDE_ORDER[Side.LOW] if t.low == v else SIDE_ORDER[Side.HIGH])
    if t.has(v) else -1 for t in ALL_TILES for v in range(7))


def move_code(tile: int, to: int | None = None, side: int | None = None) -> int:
    """The code of tile index `tile` joining side index `side` of tile index `to` (or opening)."""
    return tile << 8 if to is None or side is None else tile << 8 | (to * 6 + side + 1)


def _all_placements() -> list[Placement | None]:
    out: list[Placement | None] = [None] * (28 << 8)
    for i, t in enumerate(ALL_TILES):
        out[i << 8] = Placement(t)
        for q in range(28 * 6):
            to = POS_TILE[q]
            if to != i and SIDE_BITS[to] >> POS_SIDE[q] & 1 and JOIN[i * 7 + POS_VALUE[q]] >= 0:
                out[i << 8 | (q + 1)] = Placement(t, ALL_TILES[to], SIDES[POS_SIDE[q]])
    return out


#: The shared Placement of every code a legal placement can have (None elsewhere).
PLACEMENT_OF: list[Placement | None] = _all_placements()


def placement_of(code: int) -> Placement:
    """The Placement of a move code (shared, never copied)."""
    p = PLACEMENT_OF[code] if 0 <= code < len(PLACEMENT_OF) else None
    if p is None:
        raise ValueError(f"no placement has move code {code}")
    return p
