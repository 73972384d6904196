"""Score records the documents describe, as plain data.

American Sniff's paper tally (SN-RECORD-1): one stroke per 5 raw points; ten strokes build
a 50-point symbol, a large X in the middle (two strokes) and then a small x (two strokes
each) in each of the four spaces around it. Horse Race's cribbage board (HR-RECORD-1): a
track of 60 holes (out along street 1, back along street 2, each street six groups of
five) and the game hole for 61, as plain data: the text pictures are in fives/draw/tally_text.py,
the SVG ones in fives/draw/score_svg.py.
"""
from __future__ import annotations

from dataclasses import dataclass


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


def street_holes(target: int) -> int:
    """Holes per street of a board to `target`: the track's target - 1 holes in two streets,
    the second one shorter when they do not split evenly (and one hole for the tiniest board,
    a profile's target of 2)."""
    return max(1, -(-(target - 1) // STREETS))


def crib_position(score: int, target: int) -> CribPosition:
    """The peg position for a Horse Race score in displayed points (scores never fall)."""
    if score < 0:
        raise ValueError("a cribbage board has no holes below zero")
    if score == 0 or score >= target:
        return CribPosition(score, target, 0 if score == 0 else target, None, None, None)
    per_street = street_holes(target)
    street, along = divmod(score - 1, per_street)
    return CribPosition(score, target, score, street + 1, along // GROUP + 1, along % GROUP + 1)

