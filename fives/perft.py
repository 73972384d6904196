"""Perft: count the legal placement sequences of a given length, as chess engines do.

From a layout (empty by default) with every unplaced tile available, count the distinct
sequences of `depth` placements (placements differ when their tile, target tile or side
differ) and the sum, over those sequences, of the raw points their last placement
scored. Engine authors compare these numbers to find move-generation and counting bugs;
`divide` splits the count by first placement to show where two engines disagree.

The walk uses the layout's exact incremental push/pop. The last ply is bulk-counted:
every tile placed on one open position changes its target's contribution by the same
amount (a tile's contribution depends only on which of its sides are occupied), so one
probe push per position gives that change, and each tile adds its own contribution as
the layout's counting hooks compute it. Parallel runs split the tree at its first two
plies over worker processes and merge in canonical order, so output is deterministic.
"""
from __future__ import annotations

import multiprocessing
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from .evaluate import build_layout
from .layout import IllegalPlacement, Layout, PlacedTile, Placement
from .rules import GameRules, load_rules
from .tiles import ALL_TILES, SIDE_ORDER, TILE_INDEX, Side, Tile

#: Tiles holding each pip value, in canonical order: the tiles that can join a position.
BY_PIP: tuple[tuple[Tile, ...], ...] = tuple(tuple(t for t in ALL_TILES if t.has(v)) for v in range(7))

Progress = Callable[[int, int], None]  # (tasks done, tasks in all)


@dataclass(frozen=True, slots=True)
class PerftResult:
    nodes: int
    points: int

    def __add__(self, other: "PerftResult") -> "PerftResult":
        return PerftResult(self.nodes + other.nodes, self.points + other.points)

    def to_dict(self) -> dict[str, int]:
        return {"nodes": self.nodes, "points": self.points}


ZERO = PerftResult(0, 0)


def placement_key(p: Placement) -> tuple[int, int, int]:
    """Canonical order of placements: tile, then target tile, then target side."""
    return (TILE_INDEX[p.tile], -1 if p.to is None else TILE_INDEX[p.to], -1 if p.side is None else SIDE_ORDER[p.side])


def legal_moves(layout: Layout) -> list[Placement]:
    """Every legal next placement with all unplaced tiles available, in canonical order."""
    return sorted(layout.legal_placements(ALL_TILES), key=placement_key)


def _rules(rules_or_game: GameRules | str) -> GameRules:
    return load_rules(rules_or_game) if isinstance(rules_or_game, str) else rules_or_game


def _as_placements(rules: GameRules, from_placements: Iterable[Placement | dict] | None) -> list[Placement]:
    """Placements (or `fives evaluate` records) checked for legality; IllegalPlacement names the index."""
    items = list(from_placements or [])
    if all(isinstance(p, Placement) for p in items):
        layout = Layout(rules)
        for i, p in enumerate(items):
            try:
                layout.push(p)  # type: ignore[arg-type]
            except IllegalPlacement as e:
                e.index = i
                raise
        return layout.history()
    layout, _ = build_layout(rules, [p.to_dict() if isinstance(p, Placement) else p for p in items])
    return layout.history()


# -- the hot path ---------------------------------------------------------------------------
class _Walker:
    """Depth-first counter over one Layout, reusing caches across the whole walk."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.score = layout.rules.score
        self._own: dict[tuple[Tile, Side, bool], int] = {}

    def own(self, tile: Tile, to: Tile, side: Side, value: int) -> int:
        """The counted value of `tile` freshly joined at a position of `value` (its other sides open)."""
        layout = self.layout
        spinner = layout._hook_is_spinner(tile)
        joined = Side.LINE_A if tile.is_double else (Side.LOW if tile.low == value else Side.HIGH)
        key = (tile, joined, spinner)
        got = self._own.get(key)
        if got is None:
            # a tile's contributions depend only on which of its sides are occupied
            pt = PlacedTile(tile, len(layout), spinner, joined, to, side, {joined: to})
            got = sum(c.value for c in layout._contributions_of(pt))
            self._own[key] = got
        return got

    def leaves(self) -> tuple[int, int]:
        """(nodes, points) one ply ahead, without pushing every placement."""
        layout = self.layout
        placed = layout._placed
        if not layout._order:
            points = 0
            for t in ALL_TILES:
                points += layout.push(Placement(t))
                layout.pop()
            return len(ALL_TILES), points
        score = self.score
        base = layout.sum
        nodes = points = 0
        for (to, side), value in list(layout._open.items()):
            tiles = [t for t in BY_PIP[value] if t not in placed]
            if not tiles:
                continue
            probe = tiles[0]
            layout.push(Placement(probe, to, side))
            # the target's change in contribution, the same whichever tile joins it
            delta = layout.sum - base - layout._counted[probe]
            layout.pop()
            start = base + delta
            nodes += len(tiles)
            for t in tiles:
                points += score(start + self.own(t, to, side, value))
        return nodes, points

    def walk(self, depth: int) -> tuple[int, int]:
        if depth == 1:
            return self.leaves()
        layout = self.layout
        nodes = points = 0
        if not layout._order:
            moves = [Placement(t) for t in ALL_TILES]
        else:
            placed = layout._placed
            moves = [Placement(t, to, side) for (to, side), value in list(layout._open.items())
                     for t in BY_PIP[value] if t not in placed]
        for move in moves:
            layout.push(move)
            n, p = self.walk(depth - 1)
            layout.pop()
            nodes += n
            points += p
        return nodes, points


def _count_after(rules: GameRules, base: Sequence[Placement], prefix: Sequence[Placement], depth: int) -> PerftResult:
    """Perft of depth `depth` counted from the layout `base` + `prefix`, where `prefix` is part
    of each counted sequence (so depth >= len(prefix))."""
    layout = Layout(rules)
    for p in base:
        layout.push(p)
    last = 0
    for p in prefix:
        last = layout.push(p)
    rest = depth - len(prefix)
    if rest == 0:
        return PerftResult(1, last if prefix else 0)
    return PerftResult(*_Walker(layout).walk(rest))


def _task(args: tuple[GameRules, list[Placement], list[Placement], int]) -> PerftResult:
    return _count_after(*args)


# -- public API -----------------------------------------------------------------------------
def iter_divide(rules_or_game: GameRules | str, depth: int,
                from_placements: Iterable[Placement | dict] | None = None, jobs: int = 1,
                progress: Progress | None = None) -> Iterator[tuple[Placement, PerftResult]]:
    """Yield (first placement, perft of its subtree) in canonical order, as each completes.

    The subtree counts include the first placement: their sum is `perft(depth)`.
    Raises IllegalPlacement (with `index`) if `from_placements` is not a legal layout.
    """
    if depth < 1:
        raise ValueError("divide needs depth >= 1")
    rules = _rules(rules_or_game)
    base = _as_placements(rules, from_placements)
    layout = Layout(rules)
    for p in base:
        layout.push(p)
    roots = legal_moves(layout)
    if jobs <= 1 or depth < 3 or not roots:
        for i, move in enumerate(roots):
            result = _count_after(rules, base, [move], depth)
            if progress:
                progress(i + 1, len(roots))
            yield move, result
        return
    # Split at the second ply for a balanced load; imap keeps the task order.
    groups: list[tuple[Placement, int]] = []
    tasks: list[tuple[GameRules, list[Placement], list[Placement], int]] = []
    for move in roots:
        layout.push(move)
        seconds = legal_moves(layout)
        layout.pop()
        groups.append((move, len(seconds)))
        tasks.extend((rules, base, [move, m2], depth) for m2 in seconds)
    done = 0
    with multiprocessing.get_context().Pool(jobs) as pool:
        results = pool.imap(_task, tasks, chunksize=1)
        for move, count in groups:
            total = ZERO
            for _ in range(count):
                total += next(results)
                done += 1
                if progress:
                    progress(done, len(tasks))
            yield move, total


def divide(rules_or_game: GameRules | str, depth: int,
           from_placements: Iterable[Placement | dict] | None = None, jobs: int = 1) -> list[tuple[Placement, PerftResult]]:
    """Perft split by first placement, in canonical order (see `iter_divide`)."""
    return list(iter_divide(rules_or_game, depth, from_placements, jobs))


def perft(rules_or_game: GameRules | str, depth: int,
          from_placements: Iterable[Placement | dict] | None = None, jobs: int = 1,
          progress: Progress | None = None) -> PerftResult:
    """Count the placement sequences of length `depth` and the raw points of their last placements.

    Depth 0 is the empty sequence: 1 node, 0 points.
    """
    if depth < 0:
        raise ValueError("depth must be >= 0")
    rules = _rules(rules_or_game)
    if depth == 0:
        _as_placements(rules, from_placements)  # still reject an illegal layout
        return PerftResult(1, 0)
    total = ZERO
    for _, result in iter_divide(rules, depth, from_placements, jobs, progress):
        total += result
    return total
