"""The answer space of a puzzle, defined over the reference engine (spec/puzzles.md).

Both solvers use these definitions: which placements are distinct (mirror sides merged),
when a Horse Race turn continues (read from `GameRules.continuation`), and what a
placement is worth in the puzzle's unit.
"""
from __future__ import annotations

from typing import Iterable

from fives.evaluation import build_layout
from fives.layout import Layout, Placement
from fives.rules import GameRules
from fives.tiles import Side, Tile
from fives.puzzles.model import Problem

#: A side that mirrors an earlier side of the same tile while both are open.
MIRROR_OF = {Side.BRANCH_B: Side.BRANCH_A, Side.LINE_B: Side.LINE_A}


def is_mirror(layout: Layout, p: Placement) -> bool:
    """True if `p` is the mirror image of placing the same tile on the A side of `p.to`.

    Branch B mirrors branch A of a spinner while both are open; line B mirrors line A only
    on the opening double (any other double's line A holds its parent).
    """
    if p.to is None or p.side not in MIRROR_OF:
        return False
    if p.side is Side.LINE_B and layout.tiles[0] != p.to:
        return False
    return MIRROR_OF[p.side] not in layout.placed(p.to).occupied


def canonical_placements(layout: Layout, tiles: Iterable[Tile]) -> list[Placement]:
    """Legal placements of `tiles`, one per distinct answer, in the engine's canonical order."""
    return [p for p in layout.legal_placements(tiles) if not is_mirror(layout, p)]


def points(rules: GameRules, raw: int) -> int:
    """A placement's points in the puzzle unit (raw for Sniff, displayed for Horse Race)."""
    return rules.display(raw)


def grants_continuation(rules: GameRules, tile: Tile, raw: int) -> bool:
    """A tile played from hand lets the player place again (HR-CONT-1/2); never in Sniff."""
    c = rules.continuation
    if not c.get("enabled"):
        return False
    return bool((c.get("from_hand_double") and tile.is_double) or (c.get("from_hand_scoring") and raw > 0))


def start(problem: Problem) -> Layout:
    """The puzzle's table as an engine layout."""
    layout, _ = build_layout(problem.rules, [p.to_dict() for p in problem.layout])
    return layout


def matches(problem: Problem, pts: tuple[int, ...]) -> bool:
    if problem.kind == "build":
        return pts == tuple(problem.target)
    if problem.kind == "turn":
        return sum(pts) == problem.target
    return len(pts) == 1 and pts[0] == problem.target


def key_of(kind: str, pts: tuple[int, ...]) -> object:
    """What the target is compared with: the points, the turn total or the whole sequence."""
    if kind == "build":
        return pts
    if kind == "turn":
        return sum(pts)
    return pts[0]
