"""What the layout reports and what its counting hooks see: positions, counted ends, placed tiles.

Plain values at the API edge (`Layout.positions()`, `Layout.contributions()`, `Layout.placed()`),
kept apart from `fives.layout` so that the tables (`fives.layout_tables`) can build their rows
from the same snapshots without importing the layout.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from fives.tiles import Side, Tile

__all__ = ["Contribution", "PlacedTile", "Position"]


@dataclass(frozen=True, slots=True)
class Position:
    """A legal connection position: an open side of a placed tile and the value it needs."""

    tile: Tile
    side: Side
    value: int

    def to_dict(self) -> dict[str, object]:
        return {"tile": str(self.tile), "side": self.side.value, "value": self.value}


@dataclass(frozen=True, slots=True)
class Contribution:
    """One counted end: a tile's open end, a whole end double (2v) or a spinner branch half."""

    tile: Tile
    value: int
    side: Side | None = None

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"tile": str(self.tile), "value": self.value}
        if self.side is not None:
            d["side"] = self.side.value
        return d


@dataclass(slots=True)
class PlacedTile:
    """A snapshot of one placed tile, as the counting hooks see it."""

    tile: Tile
    order: int
    spinner: bool
    joined_side: Side | None  # this tile's side that touches its parent
    parent: Tile | None
    parent_side: Side | None
    occupied: dict[Side, Tile] = field(default_factory=dict)

    def lines_occupied(self) -> bool:
        return Side.LINE_A in self.occupied and Side.LINE_B in self.occupied
