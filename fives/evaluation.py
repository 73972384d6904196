"""Evaluate a list of placement records: the `fives evaluate` contract."""
from __future__ import annotations

from typing import Any, Callable

from fives.layout import IllegalCode, IllegalPlacement, Layout, Placement
from fives.moves import PLACEMENT_KEYS, tile_index
from fives.rules import GameRules, load_rules
from fives.tiles import _SIDE_BY_NAME, _SPELLED, SIDE_ORDER

__all__ = ["PLACEMENT_KEYS", "build_layout", "error_object", "evaluate", "parse_placement"]


def parse_placement(record: object, index: int) -> Placement:
    """A placement record (`{tile}` or `{tile, to, side}`) as a Placement, or IllegalPlacement."""
    return Placement.from_dict(record, index)


LayoutFactory = Callable[[GameRules], Layout]

# The canonical spellings straight to indices: most records in a stream use them.
_TILE_AT: dict[str, int] = {text: tile_index(t) for text, t in _SPELLED.items()}
_SIDE_AT: dict[str, int] = {name: SIDE_ORDER[s] for name, s in _SIDE_BY_NAME.items()}


def build_layout(game: str | GameRules, records: object, factory: LayoutFactory = Layout) -> tuple[Layout, list[int]]:
    """Place every record in order; return the layout and each placement's raw points.

    Raises IllegalPlacement with `index` set to the first bad record.
    """
    rules = load_rules(game) if isinstance(game, str) else game
    if not isinstance(records, list):
        raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT, "the placements must be a list", None)
    layout = factory(rules)
    push_move = layout.push_move
    tile_at, side_at = _TILE_AT.get, _SIDE_AT.get
    i = 0
    try:
        scores: list[int] = []
        for i, rec in enumerate(records):
            # a plainly spelled record goes straight to its move code (the hot path of
            # `fives evaluate`); anything else is parsed in full, errors included
            if type(rec) is dict and type(t := rec.get("tile")) is str and (t := tile_at(t)) is not None:
                n = len(rec)
                if n == 1:
                    scores.append(push_move(t << 8))
                    continue
                if n == 3 and type(to := rec.get("to")) is str and type(side := rec.get("side")) is str \
                        and (to := tile_at(to)) is not None and (side := side_at(side)) is not None:
                    scores.append(push_move(t << 8 | (to * 6 + side + 1)))
                    continue
            scores.append(layout.push(parse_placement(rec, i)))
    except IllegalPlacement as e:
        e.index = i
        raise
    return layout, scores


def evaluate(game: str | GameRules, records: object, factory: LayoutFactory = Layout) -> dict[str, Any]:
    """The `fives evaluate` result object for a game id (or rules) and placement records
    (`{"tile": "[1|4]"}`, then `{"tile", "to", "side"}`), or `{"error": {index, code,
    message}}` for the first illegal placement."""
    try:
        layout, scores = build_layout(game, records, factory)
    except IllegalPlacement as e:
        return {"error": error_object(e)}
    result = layout.to_result()
    result["scores"] = scores
    return result


def error_object(e: IllegalPlacement) -> dict[str, Any]:
    """The `error` member of a result for an illegal placement."""
    return {"index": e.index, "code": e.code.value, "message": e.message}
