"""Kind `perft`: how many legal placement sequences of a depth a layout has, and the raw
points of their last placements (spec/perft.md). Cases come from conformance/perft/perft.yaml."""
from __future__ import annotations

from typing import Any

from ..evaluate import build_layout
from ..layout import Layout
from ..perft import perft
from ..rules import GameRules
from ..tiles import ALL_TILES
from . import Kind, compare_fields


def _walk(layout: Layout, depth: int) -> tuple[int, int]:
    """Plain push/pop recursion: used when a mutant swaps the layout class."""
    if depth == 0:
        return 1, 0
    free = [t for t in ALL_TILES if t not in layout]
    nodes = points = 0
    for p in layout.legal_placements(free):
        raw = layout.push(p)
        if depth == 1:
            nodes, points = nodes + 1, points + raw
        else:
            n, s = _walk(layout, depth - 1)
            nodes, points = nodes + n, points + s
        layout.pop()
    return nodes, points


def run(rules: GameRules, input: dict[str, Any], hooks: dict[str, Any]) -> dict[str, Any]:
    factory = hooks.get("layout", Layout)
    if factory is Layout:
        result = perft(rules, int(input["depth"]), input.get("placements", []))
        return {"nodes": result.nodes, "points": result.points}
    layout, _ = build_layout(rules, input.get("placements", []), factory)
    nodes, points = _walk(layout, int(input["depth"]))
    return {"nodes": nodes, "points": points}


KINDS = [Kind("perft", "perft", run, lambda e, a: compare_fields(e, a), "perft-case.schema.json", "perft")]
