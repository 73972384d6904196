"""A second, deliberately simple evaluator of Fives layouts, for cross-checking the engine.

Written from the rules digest and the seeds, not from fives/layout.py, and sharing
none of its code (it does not even import `fives`). A layout is nothing but its list
of placement records; every question (which sides are taken, which doubles are
spinners, what is open, what counts) is answered by re-reading that whole list from
the start, with the most obvious code. It is slow on purpose: clarity is its only job.

Rules used (digest sections 1-3, seeds 000 and 001):
- a non-double joins by its end that matches the position; its other end opens;
- a double joins by line A; its line B opens; an opening tile joins nothing;
- a spinner's branch sides are positions only once both of its line sides are taken;
- Sniff (`first-double`): only the first double played is a spinner;
  Horse Race (`every-double`): every double is;
- counting: an open end of a non-double counts its pips; a double with a free line
  side counts 2v (once); a double with both lines taken counts 0, except that in Sniff
  (`open_branch_side: one-half`) each still-open branch side of the spinner counts v;
- a placement scores the sum when it is positive and a multiple of 5.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

GAMES_DIR = Path(__file__).resolve().parents[1] / "spec" / "games"
SIDES = ["low", "high", "line-a", "line-b", "branch-a", "branch-b"]
MAX_PIP = 6
EVERY_TILE = [(a, b) for a in range(MAX_PIP + 1) for b in range(a, MAX_PIP + 1)]


class Illegal(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def game_parameters(game: str) -> dict[str, Any]:
    """The few rule parameters a layout needs, read straight from spec/games/<game>.yaml."""
    data = yaml.safe_load((GAMES_DIR / f"{game}.yaml").read_text(encoding="utf-8"))
    return {
        "game": data["id"],
        "spinner_policy": data["spinners"]["policy"],
        "open_branch_side": data["counting"]["open_branch_side"],
        "multiple": data["scoring"]["multiple"],
        "zero_scores": data["scoring"]["zero_scores"],
        "display_divisor": data["points"]["display_divisor"],
    }


def read_tile(text: Any) -> tuple[int, int]:
    """"[4|1]", "[1|4]", "1-4" -> (1, 4)."""
    if not isinstance(text, str):
        raise Illegal("malformed-tile", f"not a tile: {text!r}")
    s = text.strip()
    if s.startswith("[") and s.endswith("]"):
        s = s[1:-1]
    for sep in "|-":
        if sep in s:
            parts = s.split(sep)
            break
    else:
        raise Illegal("malformed-tile", f"not a tile: {text!r}")
    if len(parts) != 2 or not all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        raise Illegal("malformed-tile", f"not a tile: {text!r}")
    a, b = int(parts[0]), int(parts[1])
    if a > MAX_PIP or b > MAX_PIP:
        raise Illegal("malformed-tile", f"no such tile: {text!r}")
    return (min(a, b), max(a, b))


def show(t: tuple[int, int]) -> str:
    return f"[{t[0]}|{t[1]}]"


def is_double(t: tuple[int, int]) -> bool:
    return t[0] == t[1]


def side_value(t: tuple[int, int], side: str) -> int:
    return t[1] if side == "high" else t[0]


# --- questions about a layout, each answered from the full record list --------------
# A layout here is a list of (tile, to, side, tile_side) tuples in play order; `to`,
# `side` and `tile_side` are None for the opening.

def placed_tiles(layout: list) -> list[tuple[int, int]]:
    return [rec[0] for rec in layout]


def taken_sides(layout: list, t: tuple[int, int]) -> list[str]:
    """Sides of tile t that are joined to another tile (its own joining side included)."""
    taken = []
    for tile, to, side, tile_side in layout:
        if tile == t and tile_side is not None:
            taken.append(tile_side)
        if to == t:
            taken.append(side)
    return taken


def spinners(layout: list, params: dict) -> list[tuple[int, int]]:
    doubles = [t for t in placed_tiles(layout) if is_double(t)]
    if params["spinner_policy"] == "first-double":
        return doubles[:1]
    if params["spinner_policy"] == "every-double":
        return doubles
    raise ValueError(f"unknown spinner policy {params['spinner_policy']}")


def both_lines_taken(layout: list, t: tuple[int, int]) -> bool:
    taken = taken_sides(layout, t)
    return "line-a" in taken and "line-b" in taken


def open_positions(layout: list, params: dict) -> list[tuple[tuple[int, int], str, int]]:
    """(tile, side, value) for every legal connection position."""
    result = []
    spin = spinners(layout, params)
    for t in placed_tiles(layout):
        taken = taken_sides(layout, t)
        if is_double(t):
            candidates = ["line-a", "line-b"]
            if t in spin and both_lines_taken(layout, t):
                candidates += ["branch-a", "branch-b"]
        else:
            candidates = ["low", "high"]
        for side in candidates:
            if side not in taken:
                result.append((t, side, side_value(t, side)))
    result.sort(key=lambda p: (EVERY_TILE.index(p[0]), SIDES.index(p[1])))
    return result


def counted(layout: list, params: dict) -> list[tuple[tuple[int, int], str | None, int]]:
    """(tile, side or None for a whole end double, value) for every counted contribution."""
    result = []
    spin = spinners(layout, params)
    for t in placed_tiles(layout):
        taken = taken_sides(layout, t)
        if not is_double(t):
            for side in ["low", "high"]:
                if side not in taken:
                    result.append((t, side, side_value(t, side)))
        elif "line-a" not in taken or "line-b" not in taken:
            result.append((t, None, 2 * t[0]))  # an end double: both halves, once
        elif t in spin and params["open_branch_side"] == "one-half":
            for side in ["branch-a", "branch-b"]:
                if side not in taken:
                    result.append((t, side, t[0]))
        # otherwise an internal double (and its unused branches) counts nothing
    result.sort(key=lambda c: (EVERY_TILE.index(c[0]), -1 if c[1] is None else SIDES.index(c[1])))
    return result


def points(total: int, params: dict) -> int:
    if total % params["multiple"] == 0 and (total > 0 or (total == 0 and params["zero_scores"])):
        return total
    return 0


def add_placement(layout: list, params: dict, record: Any) -> list:
    """The layout with one more placement record, or Illegal."""
    # spec/engine.md "Input forms": a key other than tile, to, side is refused whatever its value;
    # a null value is the key left out
    if isinstance(record, dict) and set(record) <= {"tile", "to", "side"}:
        record = {k: v for k, v in record.items() if v is not None}
    if not isinstance(record, dict) or not set(record) <= {"tile", "to", "side"} or "tile" not in record:
        raise Illegal("malformed-placement", f"not a placement record: {record!r}")
    if ("to" in record) != ("side" in record):
        raise Illegal("malformed-placement", "`to` and `side` go together")
    t = read_tile(record["tile"])
    if "to" in record:
        to = read_tile(record["to"])
        side = record["side"]
        if side not in SIDES:
            raise Illegal("unknown-side", f"unknown side {side!r}")
    else:
        to, side = None, None
    # spec/engine.md "Illegal placements": a later record without `to` (step 6) before the
    # layout's own checks, a tile already placed included
    if layout and to is None:
        raise Illegal("malformed-placement", "only the opening has no `to`")
    if t in placed_tiles(layout):
        raise Illegal("tile-already-placed", f"{show(t)} is already in the layout")
    if not layout:
        if to is not None:
            raise Illegal("target-not-in-layout", "the opening joins nothing")
        return layout + [(t, None, None, None)]
    if to not in placed_tiles(layout):
        raise Illegal("target-not-in-layout", f"{show(to)} is not in the layout")
    if side not in (["line-a", "line-b", "branch-a", "branch-b"] if is_double(to) else ["low", "high"]):
        raise Illegal("no-such-side", f"{show(to)} has no side {side}")
    if side in taken_sides(layout, to):
        raise Illegal("side-occupied", f"{show(to)} {side} is taken")
    if side.startswith("branch"):
        if to not in spinners(layout, params):
            raise Illegal("branch-of-non-spinner", f"{show(to)} is not a spinner")
        if not both_lines_taken(layout, to):
            raise Illegal("branch-before-lines", f"{show(to)} has a free line side")
    value = side_value(to, side)
    if value not in t:
        raise Illegal("value-mismatch", f"{show(t)} does not match {value}")
    if is_double(t):
        tile_side = "line-a"
    else:
        tile_side = "low" if t[0] == value else "high"
    return layout + [(t, to, side, tile_side)]


def evaluate(game: str | dict, records: list) -> dict[str, Any]:
    """The `fives evaluate` result for these placement records, recomputed from scratch."""
    params = game_parameters(game) if isinstance(game, str) else game
    if not isinstance(records, list):  # spec/engine.md "Input forms": a mapping or a string
        return {"error": {"index": None, "code": "malformed-placement", "message": "placements must be a list"}}
    layout: list = []
    scores = []
    for i, record in enumerate(records):
        try:
            layout = add_placement(layout, params, record)
        except Illegal as e:
            return {"error": {"index": i, "code": e.code, "message": str(e)}}
        scores.append(points(sum(c[2] for c in counted(layout, params)), params))
    total = sum(c[2] for c in counted(layout, params))
    raw = points(total, params)
    contributions = []
    for t, side, value in counted(layout, params):
        c: dict[str, Any] = {"tile": show(t), "value": value}
        if side is not None:
            c["side"] = side
        contributions.append(c)
    return {
        "game": params["game"],
        "tiles": [show(t) for t in placed_tiles(layout)],
        "spinners": [show(t) for t in spinners(layout, params)],
        "connections": [{"to": show(to), "side": side, "tile": show(t), "tile_side": ts}
                        for t, to, side, ts in layout if to is not None],
        "positions": [{"tile": show(t), "side": s, "value": v} for t, s, v in open_positions(layout, params)],
        "contributions": contributions,
        "sum": total,
        "raw": raw,
        "display": raw // params["display_divisor"],
        "scores": scores,
    }


def legal_records(records: list, params: dict) -> list[dict[str, str]]:
    """Every legal next placement record after `records`, with all unplaced tiles available."""
    layout: list = []
    for record in records:
        layout = add_placement(layout, params, record)
    used = placed_tiles(layout)
    if not layout:
        return [{"tile": show(t)} for t in EVERY_TILE]
    moves = []
    for to, side, value in open_positions(layout, params):
        for t in EVERY_TILE:
            if t not in used and value in t:
                moves.append({"tile": show(t), "to": show(to), "side": side})
    return moves


def perft(game: str, depth: int, records: list | None = None) -> tuple[int, int]:
    """(nodes, points): placement sequences of length `depth` after `records`, and the sum
    of the raw points of each sequence's last placement. Every layout is rebuilt from scratch."""
    return _perft(game_parameters(game), depth, list(records or []))


def _perft(params: dict, depth: int, records: list) -> tuple[int, int]:
    if depth == 0:
        return 1, 0
    nodes = total_points = 0
    for move in legal_records(records, params):
        if depth == 1:
            nodes += 1
            total_points += evaluate(params, records + [move])["raw"]
        else:
            n, p = _perft(params, depth - 1, records + [move])
            nodes += n
            total_points += p
    return nodes, total_points
