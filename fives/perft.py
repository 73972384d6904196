"""Perft: count the legal placement sequences of a given length, as chess engines do.

From a layout (empty by default) with every unplaced tile available, count the distinct
sequences of `depth` placements (placements differ when their tile, target tile or side
differ) and the sum, over those sequences, of the raw points their last placement
scored. Engine authors compare these numbers to find move-generation and counting bugs;
`divide` splits the count by first placement to show where two engines disagree.

The walk uses the layout's exact incremental push/pop. The last ply is bulk-counted
without pushing: a placed tile's contribution depends only on its spinner flag and which
of its sides are occupied, so every tile joining one open position changes its target's
contribution by the same amount, and each newcomer adds a contribution that depends only
on the tile. Both are computed by the layout's own counting hooks and cached for the
walk. Parallel runs split the tree at its first two plies over worker processes and
merge in canonical order, so the output never depends on the number of jobs.
"""
from __future__ import annotations

import multiprocessing
from dataclasses import dataclass, field
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
def _joined_side(tile: Tile, value: int) -> Side:
    """The side of `tile` that touches a position of `value` (as Layout.push decides it)."""
    return Side.LINE_A if tile.is_double else (Side.LOW if tile.low == value else Side.HIGH)


#: Per pip value: (tile, its bit in a placed-tiles mask, its joining side) for the tiles holding it.
_PIP_TILES: tuple[tuple[tuple[Tile, int, Side], ...], ...] = tuple(
    tuple((t, 1 << TILE_INDEX[t], _joined_side(t, v)) for t in BY_PIP[v]) for v in range(7))
_PIP_MASK: tuple[int, ...] = tuple(sum(bit for _, bit, _ in group) for group in _PIP_TILES)
_DOUBLE: tuple[Tile, ...] = tuple(Tile(v, v) for v in range(7))


@dataclass
class _Memo:
    """What the last ply reuses. Values depend only on the rules (and Layout class), never on
    the layout, so one memo serves every walk of one perft run."""

    # contribution of a placed tile once `side` is occupied too, by its state
    after: dict[tuple[Tile, Side, bool, frozenset[Side]], int] = field(default_factory=dict)
    # (start sum, pip value, free tiles with that pip, its double is a spinner) -> (nodes, points)
    bulk: dict[tuple[int, int, int, bool], tuple[int, int]] = field(default_factory=dict)


class _Walker:
    """Depth-first counter over one Layout.

    Placed tiles are mirrored in an int bit mask so the inner loops hash ints, not Tiles.
    """

    def __init__(self, layout: Layout, memo: _Memo) -> None:
        self.layout = layout
        self.score = layout.rules.score
        self.mask = sum(1 << TILE_INDEX[t] for t in layout.tiles)
        self._after = memo.after
        self._bulk = memo.bulk

    def _contribution_after(self, pt: PlacedTile, side: Side) -> int:
        key = (pt.tile, side, pt.spinner, frozenset(pt.occupied))
        got = self._after.get(key)
        if got is None:
            # a tile's contributions depend only on its spinner flag and occupied sides
            probe = PlacedTile(pt.tile, pt.order, pt.spinner, pt.joined_side, pt.parent, pt.parent_side,
                               {**pt.occupied, side: pt.tile})
            got = self._after[key] = sum(c.value for c in self.layout._contributions_of(probe))
        return got

    def _bulk_count(self, start: int, value: int, free: int, to: Tile, side: Side) -> tuple[int, int]:
        """(nodes, points) of every free tile joining one position of `value`, given the sum
        of the rest of the layout (`start`) once that position is occupied."""
        layout = self.layout
        double = _DOUBLE[value]
        spins = bool(free & (1 << TILE_INDEX[double])) and layout._hook_is_spinner(double)
        key = (start, value, free, spins)
        got = self._bulk.get(key)
        if got is None:
            nodes = points = 0
            for t, bit, joined in _PIP_TILES[value]:
                if free & bit:
                    fresh = PlacedTile(t, len(layout), layout._hook_is_spinner(t), joined, to, side, {joined: to})
                    own = sum(c.value for c in layout._contributions_of(fresh))
                    nodes += 1
                    points += self.score(start + own)
            got = self._bulk[key] = (nodes, points)
        return got

    def leaves(self) -> tuple[int, int]:
        """(nodes, points) one ply ahead, without pushing each placement."""
        layout = self.layout
        if not layout._order:
            points = 0
            for t in ALL_TILES:
                points += layout.push(Placement(t))
                layout.pop()
            return len(ALL_TILES), points
        placed = layout._placed
        counted = layout._counted
        base = layout.sum
        taken = self.mask
        nodes = points = 0
        for (to, side), value in layout._open.items():
            free = _PIP_MASK[value] & ~taken
            if not free:
                continue
            start = base - counted[to] + self._contribution_after(placed[to], side)
            n, p = self._bulk_count(start, value, free, to, side)
            nodes += n
            points += p
        return nodes, points

    def walk(self, depth: int) -> tuple[int, int]:
        if depth == 1:
            return self.leaves()
        layout = self.layout
        nodes = points = 0
        if not layout._order:
            moves = [(Placement(t), 1 << TILE_INDEX[t]) for t in ALL_TILES]
        else:
            taken = self.mask
            moves = [(Placement(t, to, side), bit) for (to, side), value in list(layout._open.items())
                     for t, bit, _ in _PIP_TILES[value] if not taken & bit]
        for move, bit in moves:
            layout.push(move)
            self.mask |= bit
            n, p = self.walk(depth - 1)
            self.mask &= ~bit
            layout.pop()
            nodes += n
            points += p
        return nodes, points


def _count_after(rules: GameRules, base: Sequence[Placement], prefix: Sequence[Placement], depth: int,
                 memo: _Memo) -> PerftResult:
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
    return PerftResult(*_Walker(layout, memo).walk(rest))


#: A worker process's memo, made by the pool initializer: one pool serves one perft run.
_worker_memo = _Memo()


def _init_worker() -> None:
    global _worker_memo
    _worker_memo = _Memo()


def _task(args: tuple[GameRules, list[Placement], list[Placement], int]) -> PerftResult:
    return _count_after(*args, _worker_memo)


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
        memo = _Memo()
        for i, move in enumerate(roots):
            result = _count_after(rules, base, [move], depth, memo)
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
    with multiprocessing.get_context().Pool(jobs, initializer=_init_worker) as pool:
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
