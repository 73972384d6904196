"""Score records the documents describe, as plain data and as text.

American Sniff's paper tally (SN-RECORD-1): one stroke per 5 raw points; ten strokes build
a 50-point symbol, a large X in the middle (two strokes) and then a small x (two strokes
each) in each of the four spaces around it. Horse Race's cribbage board (HR-RECORD-1): a
track of 60 holes (out along street 1, back along street 2, each street six groups of
five) and the game hole for 61. A picture renderer draws from `SniffTally`/`CribPosition`.
"""
from __future__ import annotations

from dataclasses import dataclass

from fives.rules import GameRules

STROKE_POINTS = 5  # SN-RECORD-1: each stroke is 5 raw points
SYMBOL_STROKES = 10  # the 50-point symbol: large X (2 strokes) + four small x (2 each)
#: Where the strokes of a symbol go, in drawing order: the large X first, then the small x
#: in the four spaces around it. The seed gives no order for the four spaces; we go
#: clockwise from the top. Each entry: (part, stroke) with stroke "\\" then "/".
STROKE_ORDER: tuple[tuple[str, str], ...] = tuple(
    (part, stroke) for part in ("centre", "top", "right", "bottom", "left") for stroke in ("\\", "/"))
#: A tally draws at most this many 50-point symbols (5,000 raw points); past it the header
#: still gives the exact count and a note says how many symbols are not drawn, so a huge
#: score costs no more than this (docs/errors-and-limits.md, "Limits").
MAX_DRAWN_SYMBOLS = 100
GROUP = 5  # holes per group on a cribbage board street
STREETS = 2


def sniff_tally(raw: int) -> tuple[int, int]:
    """(complete 50-point symbols, strokes of the symbol being built) for |raw| points."""
    return divmod(abs(raw) // STROKE_POINTS, SYMBOL_STROKES)


@dataclass(frozen=True)
class SniffTally:
    raw: int
    fifties: int  # complete symbols
    strokes: int  # strokes of the unfinished symbol, in STROKE_ORDER
    negative: bool  # scores may go below zero (SN-SETTLE-4); the tally then counts the debt
    leftover: int  # raw points below one stroke (never under the rules: every change is a multiple of 5)

    @classmethod
    def of(cls, raw: int) -> "SniffTally":
        fifties, strokes = sniff_tally(raw)
        return cls(raw, fifties, strokes, raw < 0, abs(raw) % STROKE_POINTS)

    @property
    def undrawn(self) -> int:
        """Symbols past MAX_DRAWN_SYMBOLS, counted but not drawn."""
        return max(0, self.fifties + (1 if self.strokes else 0) - MAX_DRAWN_SYMBOLS)

    def parts(self) -> list[list[tuple[str, str]]]:
        """Every drawn symbol as its strokes: complete ones, then the unfinished one; at most
        MAX_DRAWN_SYMBOLS of them (see `undrawn`)."""
        out = [list(STROKE_ORDER) for _ in range(min(self.fifties, MAX_DRAWN_SYMBOLS))]
        if self.strokes and len(out) < MAX_DRAWN_SYMBOLS:
            out.append(list(STROKE_ORDER[:self.strokes]))
        return out


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


@dataclass(frozen=True)
class CribPosition:
    """Where a peg stands for `score` on a board to `target`."""

    score: int
    target: int
    hole: int  # 0: not yet on the board; 1..target-1: track holes; target: the game hole
    street: int | None  # 1 (out) or 2 (back); None off the track
    group: int | None  # 1..6 along the street
    place: int | None  # 1..5 within the group

    @property
    def game_hole(self) -> bool:
        return self.hole == self.target


def crib_position(score: int, target: int) -> CribPosition:
    """The peg position for a Horse Race score in displayed points (scores never fall)."""
    if score < 0:
        raise ValueError("a cribbage board has no holes below zero")
    track = target - 1
    if score == 0 or score >= target:
        return CribPosition(score, target, 0 if score == 0 else target, None, None, None)
    per_street = track // STREETS
    street, along = divmod(score - 1, per_street)
    return CribPosition(score, target, score, street + 1, along // GROUP + 1, along % GROUP + 1)


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
    per_street = (target - 1) // STREETS

    def mark(hole: int) -> str:
        if hole == pos.hole:
            return "o"
        if back is not None and hole == back.hole and back.hole:
            return "+"
        return "."

    for st in range(STREETS):
        first = st * per_street + 1
        groups = ["".join(mark(h) for h in range(g, g + GROUP)) for g in range(first, first + per_street, GROUP)]
        lines.append(f"street {st + 1} ({first:>2}-{first + per_street - 1:>2}): " + " ".join(groups))
    lines.append(f"game hole ({target}): " + ("o" if pos.game_hole else "."))
    return "\n".join(lines)


def tally_text(rules: GameRules, score: int, target: int, previous: int | None = None) -> str:
    """The game's own score record for `score` (in the game's score unit): the paper tally
    counts raw points (Sniff), the cribbage board displayed points (Horse Race)."""
    if rules.raw["record"]["kind"] == "tally":  # a stroke per 5 raw points, whatever unit a profile shows
        return sniff_text(score * rules.display_divisor)
    return crib_text(score, target, previous)
