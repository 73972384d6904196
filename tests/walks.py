"""The obvious perft walk, for tests: every legal sequence placed and undone through
`Layout.push`/`pop`, with no leaf memo and no `leaf_counts`: what the fast walkers must equal."""
from __future__ import annotations

from fives.layout import Layout
from fives.tiles import ALL_TILES


def plain_walk(layout: Layout, depth: int) -> tuple[int, int]:
    """(sequences, summed points) of length `depth` from `layout`."""
    if depth == 0:
        return 1, 0
    nodes = points = 0
    for p in layout.legal_placements([t for t in ALL_TILES if t not in layout]):
        raw = layout.push(p)
        n, s = (1, raw) if depth == 1 else plain_walk(layout, depth - 1)
        nodes, points = nodes + n, points + s
        layout.pop()
    return nodes, points
