"""Draw a layout as SVG with the documents' three marks (spec/pictures.md).

- a filled number for each counted contribution (one per entry of `Layout.contributions()`),
- a hollow dot for each legal connection position that is not counted there,
- an orange frame for each spinner double (a frame is not itself a counted end).

Every mark carries a class and data attributes so tests and other tools can count them.
The output depends only on the layout: same placements, byte-identical SVG.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

from fives.draw.geometry import DEFAULT_PAGE, Arrangement, Box, SHORT, arrange
from fives.layout import LINES, Layout
from fives.tiles import Side, Tile

PX = 15  # pixels per geometry unit: a square (half a tile) is 30 px
MARGIN = 12
COUNTED_FILL = "#1d3557"
OPEN_STROKE = "#1d3557"
SPINNER_ORANGE = "#f28c28"
TILE_FILL = "#fffdf5"
NEW_FILL = "#fff1b8"  # tiles a puzzle's solution placed
INK = "#222222"
FONT = "font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\""

# Pip positions on a 3x3 grid (-1, 0, 1), for a half whose long axis runs along x.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)),
}


@dataclass(frozen=True, slots=True)
class Mark:
    """One mark: `kind` is "counted" or "open"; `side` None means a double counted whole."""

    kind: str
    tile: Tile
    side: Side | None
    at: Side | None  # the side it is drawn beside (None: on the tile itself)
    value: int


def layout_marks(layout: Layout) -> list[Mark]:
    """Filled numbers for the contributions, then dots for positions no contribution covers.

    A contribution covers the position on its own tile end; a double counted whole (2v)
    covers its free line sides, and is drawn beside line B when that is free.
    """
    out: list[Mark] = []
    covered: set[tuple[Tile, Side]] = set()
    for c in layout.contributions():
        if c.side is None:
            free = [s for s in LINES if s not in layout.placed(c.tile).occupied]
            covered.update((c.tile, s) for s in free)
            out.append(Mark("counted", c.tile, None, free[-1] if free else None, c.value))
        else:
            covered.add((c.tile, c.side))
            out.append(Mark("counted", c.tile, c.side, c.side, c.value))
    for p in layout.positions():
        if (p.tile, p.side) not in covered:
            out.append(Mark("open", p.tile, p.side, p.side, p.value))
    return out


def _n(v: float) -> str:
    """Stable number formatting: integers stay integers, others get at most two decimals."""
    r = round(v, 2)
    return str(int(r)) if r == int(r) else f"{r:.2f}".rstrip("0")


def _attr_tile(t: Tile) -> str:
    return escape(str(t), quote=True)


class _Canvas:
    """Maps geometry units to pixels with the content's top-left corner at the margin."""

    def __init__(self, content: Box) -> None:
        self.ox = content.x0
        self.oy = content.y0

    def x(self, u: float) -> float:
        return MARGIN + (u - self.ox) * PX

    def y(self, u: float) -> float:
        return MARGIN + (u - self.oy) * PX

    def box(self, b: Box, inset: float = 0.0) -> tuple[float, float, float, float]:
        return (self.x(b.x0) + inset, self.y(b.y0) + inset,
                (b.x1 - b.x0) * PX - 2 * inset, (b.y1 - b.y0) * PX - 2 * inset)


def _tile_svg(cv: _Canvas, arr: Arrangement, t: Tile, order: int, new: bool = False) -> list[str]:
    g = arr.tiles[t]
    x, y, w, h = cv.box(g.box, 3)
    flag = ' data-new="true"' if new else ""
    out = [f'<g class="tile" data-tile="{_attr_tile(t)}" data-order="{order}"{flag}>',
           f'<rect class="tile-body" x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="4" '
           f'fill="{NEW_FILL if new else TILE_FILL}" stroke="{INK}" stroke-width="1.5"/>']
    out.extend(_face(cv, g.halves, g.box.width > g.box.height))
    out.append("</g>")
    return out


def _face(cv: "_Canvas", halves: tuple[tuple[Box, int], tuple[Box, int]], horizontal: bool) -> list[str]:
    """The divider and the pips of a tile whose two squares are `halves`."""
    out: list[str] = []
    (a, va), (b, vb) = halves
    # the divider is the edge the two halves share
    if a.x1 == b.x0 or b.x1 == a.x0:
        xm = cv.x(a.x1 if a.x1 == b.x0 else a.x0)
        y0, y1 = cv.y(max(a.y0, b.y0)), cv.y(min(a.y1, b.y1))
        out.append(f'<line x1="{_n(xm)}" y1="{_n(y0 + 6)}" x2="{_n(xm)}" y2="{_n(y1 - 6)}" stroke="{INK}" stroke-width="1.2"/>')
    else:
        ym = cv.y(a.y1 if a.y1 == b.y0 else a.y0)
        x0, x1 = cv.x(max(a.x0, b.x0)), cv.x(min(a.x1, b.x1))
        out.append(f'<line x1="{_n(x0 + 6)}" y1="{_n(ym)}" x2="{_n(x1 - 6)}" y2="{_n(ym)}" stroke="{INK}" stroke-width="1.2"/>')
    for half, v in halves:
        cx, cy = cv.x((half.x0 + half.x1) / 2), cv.y((half.y0 + half.y1) / 2)
        for i, j in PIPS[v]:
            dx, dy = (i, j) if horizontal else (j, i)
            out.append(f'<circle class="pip" cx="{_n(cx + 7.5 * dx)}" cy="{_n(cy + 7.5 * dy)}" r="2.6" fill="{INK}"/>')
    return out


def _mark_svg(cv: _Canvas, arr: Arrangement, m: Mark) -> str:
    g = arr.tiles[m.tile]
    if m.at is None:  # nowhere beside the tile is free: put it on the tile's middle
        cx, cy = cv.x((g.box.x0 + g.box.x1) / 2), cv.y((g.box.y0 + g.box.y1) / 2)
    else:
        s = g.sockets[m.at]
        half = SHORT / 2
        cx = cv.x(s.point[0] + half * s.direction[0])
        cy = cv.y(s.point[1] + half * s.direction[1])
    side = "whole" if m.side is None else m.side.value
    attrs = f'data-tile="{_attr_tile(m.tile)}" data-side="{side}" data-value="{m.value}"'
    if m.kind == "counted":
        return (f'<g class="mark-counted" {attrs}><circle cx="{_n(cx)}" cy="{_n(cy)}" r="11" fill="{COUNTED_FILL}"/>'
                f'<text x="{_n(cx)}" y="{_n(cy + 4.5)}" text-anchor="middle" font-size="13" font-weight="bold" '
                f'{FONT} fill="#ffffff">{m.value}</text></g>')
    return (f'<circle class="mark-open" {attrs} cx="{_n(cx)}" cy="{_n(cy)}" r="6" fill="#ffffff" '
            f'stroke="{OPEN_STROKE}" stroke-width="2"/>')


def summary(layout: Layout) -> str:
    """One line: the counted sum and what the last placement scores, in the game's units."""
    rules = layout.rules
    if not layout.tiles:
        return "Empty layout"
    pts = f"scores {layout.raw}"
    if rules.display_divisor != 1:
        pts += f" raw = {layout.display} point{'s' if layout.display != 1 else ''}"
    return f"Sum {layout.sum}: {pts}"


LEGEND_H = 4 * 18 + 8
LEGEND_W = 250


def _legend(x: float, y: float, text: str) -> list[str]:
    t = f'font-size="12" {FONT} fill="{INK}"'
    return [
        f'<g class="legend" transform="translate({_n(x)},{_n(y)})">',
        f'<text x="0" y="12" {t} font-weight="bold">{escape(text)}</text>',
        f'<circle class="legend-counted" cx="9" cy="31" r="8" fill="{COUNTED_FILL}"/>'
        f'<text x="9" y="35" text-anchor="middle" font-size="10" font-weight="bold" {FONT} fill="#ffffff">n</text>'
        f'<text x="24" y="35" {t}>counted contribution</text>',
        f'<circle class="legend-open" cx="9" cy="49" r="5" fill="#ffffff" stroke="{OPEN_STROKE}" stroke-width="2"/>'
        f'<text x="24" y="53" {t}>legal position, not counted</text>',
        f'<rect class="legend-spinner" x="2" y="61" width="14" height="14" rx="2" fill="none" '
        f'stroke="{SPINNER_ORANGE}" stroke-width="3"/><text x="24" y="72" {t}>spinner double</text>',
        "</g>",
    ]


def legend_svg(text: str = "Marks in the diagrams") -> str:
    """The legend alone, as its own small SVG (a book shows it once, on its cover)."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="fives-legend" width="{LEGEND_W + 20}" '
            f'height="{LEGEND_H}" viewBox="0 0 {LEGEND_W + 20} {LEGEND_H}" role="img"><title>Legend</title>'
            + "".join(_legend(4, 2, text)) + "</svg>")


def arranged(layout: Layout, page: tuple[int, int] = DEFAULT_PAGE) -> tuple[list[Mark], Arrangement]:
    """The marks of `layout` and where its tiles lie, each mark's square kept free."""
    marks = layout_marks(layout)
    marked: dict[Tile, set[Side]] = {}
    for m in marks:
        if m.at is not None:
            marked.setdefault(m.tile, set()).add(m.at)
    return marks, arrange(layout, marked, page)


def render_layout(layout: Layout, *, legend: bool = True, title: str | None = None,
                  page: tuple[int, int] = DEFAULT_PAGE, new: frozenset[Tile] = frozenset()) -> str:
    """The SVG document for `layout` (an empty layout gives an empty picture with its legend)."""
    marks, arr = arranged(layout, page)
    content = arr.content() if arr.tiles else Box(0, 0, 0, 0)
    cv = _Canvas(content)
    width = content.width * PX + 2 * MARGIN
    height = content.height * PX + 2 * MARGIN
    legend_y = height
    if legend:
        width = max(width, LEGEND_W + 2 * MARGIN)
        height += LEGEND_H
    rules = layout.rules
    label = title or f"{rules.name} layout: {', '.join(map(str, layout.tiles)) or 'empty'}. {summary(layout)}."
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="fives-layout" data-game="{escape(rules.id)}" '
           f'data-tiles="{len(layout)}" width="{_n(width)}" height="{_n(height)}" '
           f'viewBox="0 0 {_n(width)} {_n(height)}" role="img">',
           f"<title>{escape(label)}</title>",
           f'<rect class="page" x="0" y="0" width="{_n(width)}" height="{_n(height)}" fill="#ffffff"/>']
    tiles_part: list[str] = []
    for order, t in enumerate(layout.tiles):
        tiles_part.extend(_tile_svg(cv, arr, t, order, t in new))
    joints = [(t, j) for t in layout.tiles if (j := arr.tiles[t].joint_line) is not None]
    if joints:  # a stretched joint: the tile could not touch its parent without overlapping another
        out.append('<g class="joints">')
        for t, ((x1, y1), (x2, y2)) in joints:
            out.append(f'<line class="joint" data-tile="{_attr_tile(t)}" x1="{_n(cv.x(x1))}" y1="{_n(cv.y(y1))}" '
                       f'x2="{_n(cv.x(x2))}" y2="{_n(cv.y(y2))}" stroke="{INK}" stroke-width="3" stroke-dasharray="3 2"/>')
        out.append("</g>")
    out.append('<g class="tiles">')
    out.extend(tiles_part)
    out.append("</g>")
    out.append('<g class="spinners">')
    for t in layout.spinners:
        x, y, w, h = cv.box(arr.tiles[t].box, 1.25)
        out.append(f'<rect class="spinner-frame" data-tile="{_attr_tile(t)}" x="{_n(x)}" y="{_n(y)}" '
                   f'width="{_n(w)}" height="{_n(h)}" rx="5" fill="none" stroke="{SPINNER_ORANGE}" stroke-width="2.5"/>')
    out.append("</g>")
    out.append('<g class="marks">')
    out.extend(_mark_svg(cv, arr, m) for m in marks)
    out.append("</g>")
    if legend:
        out.extend(_legend(MARGIN, legend_y, summary(layout)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def render_hand(tiles: list[Tile], label: str = "hand") -> str:
    """Tiles standing side by side, low half on top (a hand, or the tiles of a build puzzle)."""
    step = SHORT + 1  # a tile's width plus a gap, in units
    content = Box(0, 0, max(1, len(tiles)) * step - 1, 2 * SHORT)
    cv = _Canvas(content)
    width, height = content.width * PX + 2 * MARGIN, content.height * PX + 2 * MARGIN
    names = ", ".join(map(str, tiles)) or "no tiles"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="fives-hand" width="{_n(width)}" height="{_n(height)}" '
           f'viewBox="0 0 {_n(width)} {_n(height)}" role="img">', f"<title>{escape(label)}: {escape(names)}</title>"]
    for i, t in enumerate(tiles):
        top = Box(i * step, 0, i * step + SHORT, SHORT)
        bottom = Box(i * step, SHORT, i * step + SHORT, 2 * SHORT)
        x, y, w, h = cv.box(top.union(bottom), 3)
        out.append(f'<g class="hand-tile" data-tile="{_attr_tile(t)}">'
                   f'<rect class="tile-body" x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="4" '
                   f'fill="{TILE_FILL}" stroke="{INK}" stroke-width="1.5"/>')
        out.extend(_face(cv, ((top, t.low), (bottom, t.high)), False))
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
