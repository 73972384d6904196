"""Evaluate a list of placement records: the `fives evaluate` contract."""
from __future__ import annotations

from typing import Any, Callable

from .layout import IllegalCode, IllegalPlacement, Layout, Placement
from .rules import GameRules, load_rules
from .tiles import parse_side, parse_tile

PLACEMENT_KEYS = {"tile", "to", "side"}


def parse_placement(record: object, index: int) -> Placement:
    """A placement record (`{tile}` or `{tile, to, side}`) as a Placement, or IllegalPlacement."""
    if not isinstance(record, dict):
        raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT,
                               f"a placement is a mapping like {{tile: \"[1|4]\", to: ..., side: ...}}, got {record!r}",
                               index)
    extra = set(record) - PLACEMENT_KEYS
    if extra:
        raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT,
                               f"unexpected key(s) {', '.join(sorted(map(str, extra)))}; a placement has tile, to, side",
                               index)
    if "tile" not in record:
        raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT, "the placement has no `tile`", index)
    if ("to" in record) != ("side" in record):
        raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT, "`to` and `side` go together", index)
    try:
        tile = parse_tile(record["tile"])
    except ValueError as e:
        raise IllegalPlacement(IllegalCode.MALFORMED_TILE, str(e), index) from None
    if "to" not in record:
        return Placement(tile)
    try:
        to = parse_tile(record["to"])
    except ValueError as e:
        raise IllegalPlacement(IllegalCode.MALFORMED_TILE, f"target: {e}", index) from None
    try:
        side = parse_side(record["side"])
    except ValueError as e:
        raise IllegalPlacement(IllegalCode.UNKNOWN_SIDE, str(e), index) from None
    return Placement(tile, to, side)


LayoutFactory = Callable[[GameRules], Layout]


def build_layout(game: str | GameRules, records: object, factory: LayoutFactory = Layout) -> tuple[Layout, list[int]]:
    """Place every record in order; return the layout and each placement's raw points.

    Raises IllegalPlacement with `index` set to the first bad record.
    """
    rules = load_rules(game) if isinstance(game, str) else game
    if not isinstance(records, list):
        raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT, "the placements must be a list", None)
    layout = factory(rules)
    scores: list[int] = []
    for i, rec in enumerate(records):
        p = parse_placement(rec, i)
        try:
            scores.append(layout.push(p))
        except IllegalPlacement as e:
            e.index = i
            raise
    return layout, scores


def evaluate(game: str | GameRules, records: object, factory: LayoutFactory = Layout) -> dict[str, Any]:
    """The result object, or `{"error": {...}}` for an illegal placement."""
    try:
        layout, scores = build_layout(game, records, factory)
    except IllegalPlacement as e:
        return {"error": error_object(e)}
    result = layout.to_result()
    result["scores"] = scores
    return result


def error_object(e: IllegalPlacement) -> dict[str, Any]:
    return {"index": e.index, "code": e.code.value, "message": e.message}
