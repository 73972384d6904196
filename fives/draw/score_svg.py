"""Score-record pictures: the Sniff paper tally and a cribbage-style pegging board (spec/pictures.md).

Both count in units of the game's scoring multiple of raw points (5): one tally stroke,
one board hole. The tally draws each 50-point symbol the way the Sniff document builds
it, a large X in the middle and then a small x in each of the four spaces around it, so
strokes 1-2 are the X and strokes 3-10 the small x's (top, right, bottom, left); a score
that is not a whole symbol shows the symbol's first strokes. The board gives every side a
track of holes, grouped in fives, up to the game hole at the target; the front peg marks
the score, the back peg the score before the last change, as on a cribbage board.

Scores are in the game's own unit (raw for American Sniff, displayed points for Horse
Race), as `GameRules.display` gives them and game records carry them.
"""
from __future__ import annotations

from typing import Any

import re
from dataclasses import dataclass
from html import escape

from fives.support.errors import UserError
from fives.rules import GameRules
from fives.tally import MAX_DRAWN_SYMBOLS

SIDE_COLOURS = ("#1d3557", "#c1121f", "#2a9d8f", "#7b2cbf")
NEGATIVE = "#c1121f"
INK = "#222222"
FONT = 'font-family="DejaVu Sans, Arial, Helvetica, sans-serif"'
STROKES_PER_SYMBOL = 10  # a large X (2 strokes) and four small x's (2 each)
NOTE_H = 20  # px under a side whose tally is cut at MAX_DRAWN_SYMBOLS


@dataclass(frozen=True)
class SideScores:
    """One side's score history in the game's unit: every total it reached, in order (0 first)."""

    label: str
    totals: tuple[int, ...]

    @property
    def score(self) -> int:
        return self.totals[-1]

    @property
    def previous(self) -> int:
        return self.totals[-2] if len(self.totals) > 1 else 0


# ASCII digits only (spec/engine.md: scores are written in 0-9), at most MAX_DIGITS a term
_TERM = re.compile(r"[+-]?[0-9]+")
MAX_TERMS = 1000


def parse_score(text: str, label: str) -> SideScores:
    """`"135"` (a total) or `"5+10+3"` / `"50+20-15"` (the changes in order) as a history."""
    from fives.support.reading import MAX_DIGITS
    from fives.support.sanitize import quote

    compact = text.replace(" ", "")
    if not compact or not re.fullmatch(r"[+-]?[0-9]+([+-][0-9]+)*", compact):
        raise UserError(f"--score {quote(text)}: write a score as a number in ASCII digits (135) "
                        "or its changes in order (5+10+3, 50-15)")
    terms = _TERM.findall(compact)
    if len(terms) > MAX_TERMS or any(len(t.lstrip("+-")) > MAX_DIGITS for t in terms):
        raise UserError(f"--score {quote(text)}: at most {MAX_TERMS} changes of at most {MAX_DIGITS} digits")
    totals = [0]
    for term in terms:
        totals.append(totals[-1] + int(term))
    return SideScores(label, tuple(totals))


def unit_strokes(rules: GameRules, score: int, label: str) -> int:
    """Strokes (or holes) for a score: one per `scoring_multiple` raw points."""
    raw = score * rules.display_divisor
    if raw % rules.scoring_multiple:
        raise UserError(f"{label}: score {score} is not a whole number of strokes "
                        f"({rules.scoring_multiple} raw points each)")
    return raw // rules.scoring_multiple


def _n(v: float) -> str:
    r = round(v, 2)
    return str(int(r)) if r == int(r) else f"{r:.2f}".rstrip("0")


def _svg_open(kind: str, rules: GameRules, width: float, height: float, title: str) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" class="fives-{kind}" data-game="{escape(rules.id)}" '
            f'width="{_n(width)}" height="{_n(height)}" viewBox="0 0 {_n(width)} {_n(height)}" role="img">',
            f"<title>{escape(title)}</title>",
            f'<rect class="page" x="0" y="0" width="{_n(width)}" height="{_n(height)}" fill="#ffffff"/>']


# -- the tally --------------------------------------------------------------------------
SYMBOL = 56  # px, one 50-point symbol's square
GAP = 14
LABEL_W = 150
ROW_H = SYMBOL + 24


def symbol_strokes(x: float, y: float, size: float = SYMBOL) -> list[tuple[float, float, float, float]]:
    """The ten strokes of a 50-point symbol in drawing order, inside the square at (x, y)."""
    s = size
    out = [(x, y, x + s, y + s), (x, y + s, x + s, y)]  # the large X
    small = s * 0.11
    for cx, cy in ((0.5, 0.2), (0.8, 0.5), (0.5, 0.8), (0.2, 0.5)):  # top, right, bottom, left spaces
        px, py = x + cx * s, y + cy * s
        out.append((px - small, py - small, px + small, py + small))
        out.append((px - small, py + small, px + small, py - small))
    return out


def tally_svg(rules: GameRules, sides: list[SideScores], per_row: int = 8) -> str:
    """One row per side: complete 50-point symbols, then the strokes of the next one."""
    rows: list[tuple[SideScores, int]] = [(s, unit_strokes(rules, s.score, s.label)) for s in sides]
    symbols = [(abs(n) + STROKES_PER_SYMBOL - 1) // STROKES_PER_SYMBOL for _, n in rows]
    # a huge score draws MAX_DRAWN_SYMBOLS symbols and a note: the picture's cost is bounded
    drawn = [min(k, MAX_DRAWN_SYMBOLS) for k in symbols]
    lines_per_side = [max(1, (k + per_row - 1) // per_row) for k in drawn]
    notes = [NOTE_H if k > d else 0 for k, d in zip(symbols, drawn)]
    width = LABEL_W + per_row * (SYMBOL + GAP) + GAP
    height = 16 + sum(n * ROW_H for n in lines_per_side) + sum(notes) + 24
    stroke_points = rules.scoring_multiple * STROKES_PER_SYMBOL // rules.display_divisor
    title = f"{rules.name} tally: " + "; ".join(f"{s.label} {s.score}" for s in sides)
    out = _svg_open("tally", rules, width, height, title)
    y = 16.0
    for i, ((side, n), lines, shown, note) in enumerate(zip(rows, lines_per_side, drawn, notes)):
        colour = NEGATIVE if n < 0 else INK
        out.append(f'<g class="tally-side" data-side="{i}" data-score="{side.score}" data-strokes="{abs(n)}" '
                   f'data-negative="{"true" if n < 0 else "false"}">')
        out.append(f'<text x="10" y="{_n(y + SYMBOL / 2)}" font-size="15" font-weight="bold" {FONT} '
                   f'fill="{INK}">{escape(side.label)}</text>')
        out.append(f'<text x="10" y="{_n(y + SYMBOL / 2 + 18)}" font-size="13" {FONT} fill="{colour}">'
                   f'{"−" if n < 0 else ""}{abs(side.score)}</text>')
        left = min(abs(n), shown * STROKES_PER_SYMBOL)
        k = 0
        while left > 0:
            take = min(left, STROKES_PER_SYMBOL)
            sx = LABEL_W + (k % per_row) * (SYMBOL + GAP)
            sy = y + (k // per_row) * ROW_H
            full = take == STROKES_PER_SYMBOL
            out.append(f'<g class="tally-symbol{" tally-complete" if full else ""}" data-strokes="{take}" '
                       f'data-points="{take * stroke_points // STROKES_PER_SYMBOL}">')
            for j, (x1, y1, x2, y2) in enumerate(symbol_strokes(sx, sy)[:take], 1):
                width_px = 3 if j <= 2 else 2.2
                out.append(f'<line class="tally-stroke" data-n="{j}" x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" '
                           f'y2="{_n(y2)}" stroke="{colour}" stroke-width="{width_px}" stroke-linecap="round"/>')
            out.append("</g>")
            left -= take
            k += 1
        if note:
            more = (abs(n) + STROKES_PER_SYMBOL - 1) // STROKES_PER_SYMBOL - shown
            out.append(f'<text class="tally-more" x="{LABEL_W}" y="{_n(y + lines * ROW_H + 4)}" font-size="13" '
                       f'{FONT} fill="{colour}">and {more} more symbols, not drawn: a tally shows at most '
                       f'{MAX_DRAWN_SYMBOLS}</text>')
        out.append("</g>")
        y += lines * ROW_H + note
    out.append(f'<text class="legend" x="10" y="{_n(height - 10)}" font-size="12" {FONT} fill="{INK}">'
               f'Each stroke is {rules.scoring_multiple} raw points; a full symbol is {stroke_points}'
               f'{" raw" if rules.display_divisor == 1 else ""} points.</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- the pegging board ------------------------------------------------------------------
HOLE_GAP = 13  # px between holes
GROUP_GAP = 9  # extra px between groups of five
PER_ROW = 30
TRACK_H = 20


def _hole_x(h: int) -> float:
    """x of hole h (1-based) within its row."""
    k = (h - 1) % PER_ROW
    return 70 + k * HOLE_GAP + (k // 5) * GROUP_GAP


def board_svg(rules: GameRules, sides: list[SideScores], target: int) -> str:
    """A track of holes per side (one hole per stroke unit), pegs at the score and the score before."""
    holes = unit_strokes(rules, target, "target")
    rows = (holes - 1 + PER_ROW - 1) // PER_ROW  # the game hole follows the last track hole
    track_w = _hole_x(PER_ROW) + 40
    side_h = rows * TRACK_H + 26
    width = track_w + 30
    height = 20 + len(sides) * side_h + 48
    title = f"{rules.name} board to {target}: " + "; ".join(f"{s.label} {s.score}" for s in sides)
    out = _svg_open("board", rules, width, height, title)
    out.append(f'<rect class="board" x="6" y="6" width="{_n(width - 12)}" height="{_n(height - 44)}" rx="10" '
               f'fill="#e9d8b4" stroke="#8d6e3f" stroke-width="2"/>')
    for i, side in enumerate(sides):
        colour = SIDE_COLOURS[i % len(SIDE_COLOURS)]
        top = 20 + i * side_h
        front = unit_strokes(rules, side.score, side.label)
        back = unit_strokes(rules, side.previous, side.label)
        out.append(f'<g class="board-side" data-side="{i}" data-score="{side.score}">')
        out.append(f'<text x="14" y="{_n(top + 8)}" font-size="12" font-weight="bold" {FONT} fill="{colour}">'
                   f'{escape(side.label)}: {side.score}</text>')

        def centre(h: int) -> tuple[float, float]:
            if h <= 0:  # the start holes, left of the first row
                return (22.0 + (0 if h == 0 else 12), top + 20)
            if h >= holes:
                return (track_w - 12, top + 20 + (rows - 1) * TRACK_H / 2)
            return (_hole_x(h), top + 20 + ((h - 1) // PER_ROW) * TRACK_H)

        for h in range(1, holes):
            cx, cy = centre(h)
            out.append(f'<circle class="hole" data-hole="{h}" cx="{_n(cx)}" cy="{_n(cy)}" r="3" fill="#5b4427"/>')
            if h % 5 == 0:
                out.append(f'<text x="{_n(cx)}" y="{_n(cy + 12)}" text-anchor="middle" font-size="7" {FONT} '
                           f'fill="#5b4427">{h * rules.scoring_multiple // rules.display_divisor}</text>')
        gx, gy = centre(holes)
        out.append(f'<circle class="hole game-hole" data-hole="{holes}" cx="{_n(gx)}" cy="{_n(gy)}" r="6" '
                   f'fill="#5b4427"/>')
        for cls, h in (("peg-back", back), ("peg-front", front)):
            shown = max(0, min(h, holes))
            cx, cy = centre(shown) if shown or cls == "peg-front" else centre(-1)
            fill = colour if cls == "peg-front" else "#ffffff"
            out.append(f'<circle class="peg {cls}" data-side="{i}" data-hole="{shown}" cx="{_n(cx)}" cy="{_n(cy)}" '
                       f'r="5.5" fill="{fill}" stroke="{colour}" stroke-width="2.5"/>')
        out.append("</g>")
    unit = rules.scoring_multiple // rules.display_divisor
    out.append(f'<text class="legend" x="10" y="{_n(height - 22)}" font-size="12" {FONT} fill="{INK}">'
               f'One hole is {unit} point{"s" if unit != 1 else ""} ({rules.scoring_multiple} raw); '
               f'the last hole is the target, {target}.</text>')
    out.append(f'<text class="legend" x="10" y="{_n(height - 7)}" font-size="12" {FONT} fill="{INK}">'
               f'Filled peg: the score; hollow peg: the score before the last change.</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- from a game record -----------------------------------------------------------------
def replayed_record(path: str) -> tuple[str, list[str], GameRules, Any]:
    """(display name, lines, rules, match config) of a game record, replayed and checked first
    (a record that does not replay is one `UserError` naming its line)."""
    from fives.record import RecordError, replay
    from fives.rules import load_rules
    from fives.settlement import configure
    from fives.support.reading import parse_json_line, read_text

    text, name = read_text(path)
    lines = text.splitlines()
    try:
        replay(lines)
    except RecordError as e:
        raise UserError(f"{name}:{e.line}: {e.code}: {e.message}") from None
    header = parse_json_line(lines[0], f"{name}:1")
    rules = load_rules(header["game"])
    return name, lines, rules, configure(rules, header["players"], header["partnerships"])


def histories_from_record(path: str) -> tuple[GameRules, int, list[SideScores]]:
    """(rules, target, each side's score history) of a game record, after replaying it.

    A side's history is every total it reached: the placing side's `score` on each
    `place` line and every side's `scores` on each `settle` line.
    """
    from fives.support.reading import parse_json_line

    name, lines, rules, config = replayed_record(path)
    totals: list[list[int]] = [[0] for _ in config.sides]

    def reach(side: int, score: int) -> None:
        if totals[side][-1] != score:
            totals[side].append(score)

    for lineno, line in enumerate(lines[1:], 2):
        ev = parse_json_line(line, f"{name}:{lineno}")
        if ev["event"] == "place":
            reach(config.side_of[ev["seat"]], ev["score"])
        elif ev["event"] == "settle":
            for side, score in enumerate(ev["scores"]):
                reach(side, score)
    sides = [SideScores(config.describe_side(i).capitalize(), tuple(t)) for i, t in enumerate(totals)]
    return rules, config.target, sides
