"""The layout: a tree of placed tiles, its legal connection positions and its counted ends.

Placing a tile touches only the tile it joins and the new tile, so positions and the
counted sum are updated incrementally (`push`) and undone exactly (`pop`), as
python-chess does with moves. Variants and mutant engines override the `_hook` methods.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Iterable, Iterator

from .rules import GameRules
from .tiles import SIDE_ORDER, Side, Tile

LINES = (Side.LINE_A, Side.LINE_B)
BRANCHES = (Side.BRANCH_A, Side.BRANCH_B)


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
    def __init__(self, code: IllegalCode, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.index = index


@dataclass(frozen=True, slots=True)
class Placement:
    """A move: `tile` joins side `side` of the placed tile `to` (the opening joins nothing)."""

    tile: Tile
    to: Tile | None = None
    side: Side | None = None

    def to_dict(self) -> dict[str, str]:
        if self.to is None or self.side is None:
            return {"tile": str(self.tile)}
        return {"tile": str(self.tile), "to": str(self.to), "side": self.side.value}

    def __str__(self) -> str:
        return str(self.tile) if self.to is None else f"{self.tile}>{self.to}:{self.side}"


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
    tile: Tile
    order: int
    spinner: bool
    joined_side: Side | None  # this tile's side that touches its parent
    parent: Tile | None
    parent_side: Side | None
    occupied: dict[Side, Tile] = field(default_factory=dict)

    def lines_occupied(self) -> bool:
        return Side.LINE_A in self.occupied and Side.LINE_B in self.occupied


def _sort_key(tile: Tile, side: Side | None) -> tuple[int, int, int]:
    return (tile.low, tile.high, -1 if side is None else SIDE_ORDER[side])


class Layout:
    """The tiles on the table for one game's rules."""

    def __init__(self, rules: GameRules) -> None:
        self.rules = rules
        self._placed: dict[Tile, PlacedTile] = {}
        self._order: list[Tile] = []
        self._open: dict[tuple[Tile, Side], int] = {}
        self._counted: dict[Tile, int] = {}
        self._spinners: list[Tile] = []
        self.sum = 0

    # -- hooks: the rules' choices, overridable by variants and mutants ------------------
    def _hook_is_spinner(self, tile: Tile) -> bool:
        if not tile.is_double:
            return False
        if self.rules.spinner_policy == "every-double":
            return True
        return not self._spinners  # first-double: the Sniff is the first double placed

    def _hook_branches_open(self, pt: PlacedTile) -> bool:
        return pt.spinner and (pt.lines_occupied() or not self.rules.branches_require_both_lines)

    def _hook_double_contributions(self, pt: PlacedTile) -> list[Contribution]:
        v = pt.tile.low
        if Side.LINE_A not in pt.occupied or Side.LINE_B not in pt.occupied:
            return [Contribution(pt.tile, 2 * v)]  # an end double counts both halves once
        if pt.spinner and self.rules.open_branch_side == "one-half":
            return [Contribution(pt.tile, v, b) for b in BRANCHES if b not in pt.occupied]
        return []  # internal double; unused branches count 0

    # -- derived per-tile state ---------------------------------------------------------
    def _contributions_of(self, pt: PlacedTile) -> list[Contribution]:
        t = pt.tile
        if t.is_double:
            return self._hook_double_contributions(pt)
        return [Contribution(t, t.value(s), s) for s in (Side.LOW, Side.HIGH) if s not in pt.occupied]

    def _open_sides(self, pt: PlacedTile) -> Iterator[Side]:
        if not pt.tile.is_double:
            yield from (s for s in (Side.LOW, Side.HIGH) if s not in pt.occupied)
            return
        yield from (s for s in LINES if s not in pt.occupied)
        if self._hook_branches_open(pt):
            yield from (s for s in BRANCHES if s not in pt.occupied)

    def _refresh(self, pt: PlacedTile) -> None:
        """Recompute one tile's counted value and open positions (O(1): at most four sides)."""
        t = pt.tile
        for s in t.sides:
            self._open.pop((t, s), None)
        for s in self._open_sides(pt):
            self._open[(t, s)] = t.value(s)
        new = sum(c.value for c in self._contributions_of(pt))
        self.sum += new - self._counted.get(t, 0)
        self._counted[t] = new

    # -- queries ------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, tile: object) -> bool:
        return tile in self._placed

    @property
    def tiles(self) -> list[Tile]:
        """Tiles in play order."""
        return list(self._order)

    @property
    def spinners(self) -> list[Tile]:
        return list(self._spinners)

    def placed(self, tile: Tile) -> PlacedTile:
        return self._placed[tile]

    @property
    def raw(self) -> int:
        """Raw points the last placement scored (the counted sum if it scores)."""
        return self.rules.score(self.sum) if self._order else 0

    @property
    def display(self) -> int:
        return self.rules.display(self.raw)

    def positions(self) -> list[Position]:
        """Legal connection positions in canonical order (tile, then side)."""
        keys = sorted(self._open, key=lambda k: _sort_key(*k))
        return [Position(t, s, self._open[(t, s)]) for t, s in keys]

    def contributions(self) -> list[Contribution]:
        out = [c for t in self._order for c in self._contributions_of(self._placed[t])]
        out.sort(key=lambda c: _sort_key(c.tile, c.side))
        return out

    def connections(self) -> list[dict[str, str]]:
        out = []
        for t in self._order[1:]:
            pt = self._placed[t]
            assert pt.parent is not None and pt.parent_side is not None and pt.joined_side is not None
            out.append({"to": str(pt.parent), "side": pt.parent_side.value,
                        "tile": str(t), "tile_side": pt.joined_side.value})
        return out

    def placements_for(self, tile: Tile) -> list[Placement]:
        """Every legal placement of `tile` (none if it is already on the table)."""
        if tile in self._placed:
            return []
        if not self._order:
            return [Placement(tile)]
        return [Placement(tile, t, s) for (t, s), v in self._sorted_open() if tile.has(v)]

    def legal_placements(self, hand: Iterable[Tile]) -> list[Placement]:
        hand = sorted(set(hand))
        if not self._order:
            return [Placement(t) for t in hand]
        opens = self._sorted_open()
        return [Placement(h, t, s) for h in hand if h not in self._placed
                for (t, s), v in opens if h.has(v)]

    def _sorted_open(self) -> list[tuple[tuple[Tile, Side], int]]:
        return sorted(self._open.items(), key=lambda kv: _sort_key(*kv[0]))

    def open_values(self) -> set[int]:
        return set(self._open.values())

    def can_place(self, tile: Tile) -> bool:
        return tile not in self._placed and (not self._order or tile.low in self._open.values()
                                            or tile.high in self._open.values())

    # -- placing ------------------------------------------------------------------------
    def check(self, p: Placement) -> None:
        """Raise IllegalPlacement with the first broken rule; return if `p` is legal."""
        t = p.tile
        if self._order and (p.to is None or p.side is None):
            raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT,
                                   f"only the opening placement may omit `to` and `side`; {t} needs both")
        if t in self._placed:
            raise IllegalPlacement(IllegalCode.TILE_ALREADY_PLACED, f"{t} is already in the layout")
        if not self._order:
            if p.to is not None:
                raise IllegalPlacement(IllegalCode.TARGET_NOT_IN_LAYOUT,
                                       f"the layout is empty, so {t} cannot join {p.to}: the opening joins nothing")
            return
        assert p.to is not None and p.side is not None
        target = self._placed.get(p.to)
        if target is None:
            raise IllegalPlacement(IllegalCode.TARGET_NOT_IN_LAYOUT, f"{p.to} is not in the layout")
        if p.side not in p.to.sides:
            kind = "a double" if p.to.is_double else "a non-double"
            raise IllegalPlacement(IllegalCode.NO_SUCH_SIDE, f"{p.to} is {kind} and has no {p.side} side")
        if p.side in target.occupied:
            raise IllegalPlacement(IllegalCode.SIDE_OCCUPIED,
                                   f"{p.to} {p.side} is already occupied by {target.occupied[p.side]}")
        if p.side.is_branch:
            if not target.spinner:
                raise IllegalPlacement(IllegalCode.BRANCH_OF_NON_SPINNER,
                                       f"{p.to} is not a spinner, so it has no open {p.side}")
            if not self._hook_branches_open(target):
                raise IllegalPlacement(IllegalCode.BRANCH_BEFORE_LINES,
                                       f"{p.to} {p.side} opens only once both its line sides are occupied")
        need = p.to.value(p.side)
        if not t.has(need):
            raise IllegalPlacement(IllegalCode.VALUE_MISMATCH, f"{t} has no {need} to match {p.to} {p.side}")

    def push(self, p: Placement) -> int:
        """Place `p` (checked) and return the raw points it scores."""
        self.check(p)
        t = p.tile
        spinner = self._hook_is_spinner(t)
        if p.to is None:
            pt = PlacedTile(t, 0, spinner, None, None, None)
        else:
            assert p.side is not None
            joined = Side.LINE_A if t.is_double else (Side.LOW if t.low == p.to.value(p.side) else Side.HIGH)
            pt = PlacedTile(t, len(self._order), spinner, joined, p.to, p.side, {joined: p.to})
            parent = self._placed[p.to]
            parent.occupied[p.side] = t
        self._placed[t] = pt
        self._order.append(t)
        if spinner:
            self._spinners.append(t)
        if p.to is not None:
            self._refresh(self._placed[p.to])
        self._refresh(pt)
        return self.raw

    def pop(self) -> Placement:
        """Undo the last placement exactly."""
        t = self._order.pop()
        pt = self._placed.pop(t)
        for s in t.sides:
            self._open.pop((t, s), None)
        self.sum -= self._counted.pop(t)
        if pt.spinner:
            self._spinners.pop()
        if pt.parent is None:
            return Placement(t)
        assert pt.parent_side is not None
        parent = self._placed[pt.parent]
        del parent.occupied[pt.parent_side]
        self._refresh(parent)
        return Placement(t, pt.parent, pt.parent_side)

    def recount(self) -> tuple[int, dict[tuple[Tile, Side], int]]:
        """The sum and open positions recomputed over every tile (the check on `push`/`pop`)."""
        total = 0
        opens: dict[tuple[Tile, Side], int] = {}
        for t in self._order:
            pt = self._placed[t]
            total += sum(c.value for c in self._contributions_of(pt))
            opens.update({(t, s): t.value(s) for s in self._open_sides(pt)})
        return total, opens

    def copy(self) -> "Layout":
        other = type(self)(self.rules)
        for p in self.history():
            other.push(p)
        return other

    def history(self) -> list[Placement]:
        out = []
        for t in self._order:
            pt = self._placed[t]
            out.append(Placement(t, pt.parent, pt.parent_side))
        return out

    def to_result(self) -> dict[str, object]:
        """The `fives evaluate` output object for this layout."""
        return {
            "game": self.rules.id,
            "tiles": [str(t) for t in self._order],
            "spinners": [str(t) for t in self._spinners],
            "connections": self.connections(),
            "positions": [p.to_dict() for p in self.positions()],
            "contributions": [c.to_dict() for c in self.contributions()],
            "sum": self.sum,
            "raw": self.raw,
            "display": self.display,
        }
