"""The score records as text: Sniff's paper tally drawn in characters (SN-RECORD-1) and Horse
Race's cribbage board as a row of holes per street (HR-RECORD-1), for `fives tally` and the
play log. The records' values (fifties, strokes, the hole) are rules and live in fives.tally;
how they are drawn here is ours, not the seeds'.
"""
from __future__ import annotations

from fives.rules import GameRules
from fives.tally import GROUP, MAX_DRAWN_SYMBOLS, STREETS, SniffTally, crib_position, street_holes


def symbol_text(strokes: list[tuple[str, str]]) -> list[str]:
    """A symbol as 5 lines of 7 characters; a half-drawn small x shows as its one stroke."""
    grid = [[" "] * 7 for _ in range(5)]
    drawn = set(strokes)
    if ("centre", "\\") in drawn:
        for r, c in ((0, 0), (1, 1), (3, 5), (4, 6)):
            grid[r][c] = "\\"
        grid[2][3] = "\\"
    if ("centre", "/") in drawn:
        for r, c in ((0, 6), (1, 5), (3, 1), (4, 0)):
            grid[r][c] = "/"
        grid[2][3] = "X" if ("centre", "\\") in drawn else "/"
    for part, (r, c) in {"top": (0, 3), "right": (2, 6), "bottom": (4, 3), "left": (2, 0)}.items():
        if (part, "/") in drawn:
            grid[r][c] = "x"
        elif (part, "\\") in drawn:
            grid[r][c] = "\\"
    return ["".join(row) for row in grid]


def sniff_text(raw: int) -> str:
    t = SniffTally.of(raw)
    head = f"{raw} raw points = {t.fifties} x 50 + {t.strokes} x 5" + (" (below zero)" if t.negative else "")
    if t.leftover:
        head += f" + {t.leftover} not shown (less than a stroke)"
    symbols = [symbol_text(s) for s in t.parts()]
    if not symbols:
        return head + "\n(no strokes)"
    rows = ["  ".join(sym[r] for sym in symbols).rstrip() for r in range(5)]
    if t.undrawn:
        rows.append(f"(and {t.undrawn} more symbols, not drawn: a tally shows at most {MAX_DRAWN_SYMBOLS})")
    return "\n".join([head, *rows])


def crib_text(score: int, target: int, previous: int | None = None) -> str:
    """The board as text: `o` the front peg (score), `+` the back peg (previous score)."""
    pos = crib_position(score, target)
    back = crib_position(previous, target) if previous is not None else None
    if pos.game_hole:
        where = "in the game hole"
    elif pos.hole == 0:
        where = "at the start, off the track"
    else:
        where = f"street {pos.street}, group {pos.group}, hole {pos.place} of the group"
    lines = [f"{score} points of {target}: {where}"]
    per_street = street_holes(target)

    def mark(hole: int) -> str:
        if hole == pos.hole:
            return "o"
        if back is not None and hole == back.hole and back.hole:
            return "+"
        return "."

    for st in range(STREETS):
        first = st * per_street + 1
        last = min(first + per_street, target) - 1  # the game hole is no street's
        groups = ["".join(mark(h) for h in range(g, min(g + GROUP, last + 1))) for g in range(first, last + 1, GROUP)]
        lines.append(f"street {st + 1} ({first:>2}-{last:>2}): " + " ".join(groups))
    lines.append(f"game hole ({target}): " + ("o" if pos.game_hole else "."))
    return "\n".join(lines)


def tally_text(rules: GameRules, score: int, target: int, previous: int | None = None) -> str:
    """The game's own score record for `score` (in the game's score unit): the paper tally
    counts raw points (Sniff), the cribbage board displayed points (Horse Race)."""
    if rules.raw["record"]["kind"] == "tally":  # a stroke per 5 raw points, whatever unit a profile shows
        return sniff_text(score * rules.display_divisor)
    return crib_text(score, target, previous)
