# lines: ~440 because the embedding search is one algorithm over one private board; split, its parts would share every invariant.
"""Where each tile of a layout lies on the page: a grid embedding with bends and no overlaps.

Coordinates are integers in *units*, half a square: a tile's short side is 2 units, its
long side 4 (so a face's midpoint is still an integer). y grows downwards, as in SVG.
The opening tile sits at the origin; every later tile hangs on a *socket* of its parent
(the midpoint of the parent's face on that side and the outward direction). A non-double
either goes straight on or turns left/right (its joined half still touching the parent's
face); a double always lies crosswise to the direction it arrives from, so its branch
sockets point perpendicular to its line. The first tile of a spinner branch goes straight
out whenever it can, so branches visibly leave at right angles.

Each placed tile also reserves the square in front of every socket that will be used
(a child) or marked (a counted number or an open-position dot), so marks never sit under
a tile. The page bounds the picture's extent, wherever it grows. Choices are searched
depth-first with conflict-directed backjumping (CBJ): when a tile cannot be placed, the
search jumps straight back to the latest tile that caused one of its conflicts. Only if
no arrangement exists may a tile stand a square or two off its parent (a stretched
joint). The order of candidates is fixed, so the same layout always gives the same picture.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping

from fives.layout import Layout
from fives.tiles import SIDE_ORDER, Side, Tile

Vec = tuple[int, int]
EAST: Vec = (1, 0)
SHORT = 2  # a square's side, in units
LONG = 4  # a tile's long side

#: Default page, in units (32 x 22 squares, about A4 landscape at 30 px a square).
DEFAULT_PAGE: tuple[int, int] = (64, 44)
#: Candidate checks allowed per page size before the page is enlarged.
SEARCH_BUDGET = 3_000
PAGE_GROWTH = 5  # a failed search retries on a page this many tenths larger, at most GROW_STEPS times
GROW_STEPS = 8
#: Joint lengths (units) tried, after every placement touching its parent, when a spot is too tight.
STRETCH = (SHORT, 2 * SHORT)


def left(d: Vec) -> Vec:
    """Turn counter-clockwise as seen on the page (y down): east -> north."""
    return (d[1], -d[0])


def right(d: Vec) -> Vec:
    return (-d[1], d[0])


def neg(d: Vec) -> Vec:
    return (-d[0], -d[1])


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle; boxes that only touch do not overlap."""

    x0: int
    y0: int
    x1: int
    y1: int

    def overlaps(self, o: "Box") -> bool:
        return self.x0 < o.x1 and o.x0 < self.x1 and self.y0 < o.y1 and o.y0 < self.y1

    def inside(self, o: "Box") -> bool:
        return o.x0 <= self.x0 and self.x1 <= o.x1 and o.y0 <= self.y0 and self.y1 <= o.y1

    def union(self, o: "Box") -> "Box":
        return Box(min(self.x0, o.x0), min(self.y0, o.y0), max(self.x1, o.x1), max(self.y1, o.y1))

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0


def rect(p: Vec, d: Vec, along: tuple[int, int], across: tuple[int, int]) -> Box:
    """The box spanning `along` in direction d and `across` towards left(d), from point p."""
    n = left(d)
    xs = [p[0] + a * d[0] + c * n[0] for a in along for c in across]
    ys = [p[1] + a * d[1] + c * n[1] for a in along for c in across]
    return Box(min(xs), min(ys), max(xs), max(ys))


@dataclass(frozen=True, slots=True)
class Socket:
    point: Vec  # midpoint of the face
    direction: Vec  # outwards, where a child goes

    def front(self) -> Box:
        """The square just outside the face: a child's joined half, or a mark."""
        return rect(self.point, self.direction, (0, SHORT), (-SHORT // 2, SHORT // 2))


@dataclass(frozen=True, slots=True)
class TileGeometry:
    tile: Tile
    box: Box
    halves: tuple[tuple[Box, int], tuple[Box, int]]  # each square and its pip value
    sockets: Mapping[Side, Socket]
    turn: str  # "opening", "straight", "left" or "right"
    main: Vec  # the direction of the arm this tile belongs to (for bending back and forth)
    joint: Box | None = None  # a stretched joint: the free strip between the parent's face and this tile
    joint_line: tuple[Vec, Vec] | None = None  # the joint's centre line, parent face to tile face

    @property
    def vertical(self) -> bool:
        return self.box.height > self.box.width


def place(tile: Tile, joined: Side | None, socket: Socket, turn: str, main: Vec, gap: int = 0) -> TileGeometry:
    """The tile hung on `socket` by its `joined` side, `gap` units out (a stretched joint)."""
    if gap:
        p0, d = socket.point, socket.direction
        moved = Socket((p0[0] + gap * d[0], p0[1] + gap * d[1]), d)
        g = place(tile, joined, moved, turn, main)
        return replace(g, joint=rect(p0, d, (0, gap), (-1, 1)), joint_line=(p0, moved.point))
    p, d = socket.point, socket.direction
    if tile.is_double:  # crosswise: its long side across d
        n, r = left(d), right(d)
        box = rect(p, d, (0, SHORT), (-SHORT, SHORT))
        halves = ((rect(p, d, (0, SHORT), (0, SHORT)), tile.low), (rect(p, d, (0, SHORT), (-SHORT, 0)), tile.low))
        b = (p[0] + d[0], p[1] + d[1])  # middle of the double along d
        sockets = {
            Side.LINE_A: Socket(p, neg(d)),
            Side.LINE_B: Socket((p[0] + SHORT * d[0], p[1] + SHORT * d[1]), d),
            Side.BRANCH_A: Socket((b[0] + SHORT * n[0], b[1] + SHORT * n[1]), n),
            Side.BRANCH_B: Socket((b[0] + SHORT * r[0], b[1] + SHORT * r[1]), r),
        }
        return TileGeometry(tile, box, halves, sockets, turn, main)
    near = joined or Side.LOW
    far = Side.HIGH if near is Side.LOW else Side.LOW
    if turn in ("straight", "opening"):
        box = rect(p, d, (0, LONG), (-1, 1))
        halves = ((rect(p, d, (0, SHORT), (-1, 1)), tile.value(near)),
                  (rect(p, d, (SHORT, LONG), (-1, 1)), tile.value(far)))
        out = Socket((p[0] + LONG * d[0], p[1] + LONG * d[1]), d)
    else:
        e = left(d) if turn == "left" else right(d)
        near_box = rect(p, d, (0, SHORT), (-1, 1))
        far_box = rect((p[0] + e[0] * SHORT, p[1] + e[1] * SHORT), d, (0, SHORT), (-1, 1))
        box = near_box.union(far_box)
        halves = ((near_box, tile.value(near)), (far_box, tile.value(far)))
        out = Socket((p[0] + d[0] + 3 * e[0], p[1] + d[1] + 3 * e[1]), e)
    return TileGeometry(tile, box, halves, {near: Socket(p, neg(d)), far: out}, turn, main)


def opening(tile: Tile) -> TileGeometry:
    """The opening tile, centred on the origin; a double stands upright (crosswise to an east-west line)."""
    start = (-1, 0) if tile.is_double else (-2, 0)
    joined = Side.LINE_A if tile.is_double else Side.LOW
    return place(tile, joined, Socket(start, EAST), "opening", EAST)


@dataclass
class Arrangement:
    """The result: a geometry per tile, the marks' squares, and the page used (its top-left
    corner on the picture's; larger than asked only if the layout could not fit)."""

    tiles: dict[Tile, TileGeometry]
    page: Box
    reserved: dict[tuple[Tile, Side], Box] = field(default_factory=dict)

    def content(self) -> Box:
        boxes = [g.box for g in self.tiles.values()] + list(self.reserved.values())
        out = boxes[0]
        for b in boxes[1:]:
            out = out.union(b)
        return out


class LayoutTooLarge(Exception):
    """No arrangement found even on the largest page tried (never seen for legal layouts)."""


@dataclass(slots=True)
class _Node:
    tile: Tile
    parent: Tile
    parent_side: Side
    joined: Side
    options: list[TileGeometry] | None = None
    next: int = 0
    conflicts: set[int] = field(default_factory=set)


def page_box(size: tuple[int, int]) -> Box:
    """A page of this size centred on the origin."""
    w, h = size
    return Box(-(w // 2), -(h // 2), w - w // 2, h - h // 2)


def arrange(layout: Layout, marked: Mapping[Tile, Iterable[Side]] | None = None,
            page: tuple[int, int] = DEFAULT_PAGE) -> Arrangement:
    """Lay every tile of `layout` on a page of `page` units (enlarged only if it cannot fit)."""
    if not layout.tiles:
        return Arrangement({}, page_box(page))
    marked = {t: set(s) for t, s in (marked or {}).items()}
    w, h = page
    # Every tile touching its parent on the page asked for, then on a larger one; only then
    # stretched joints, on ever larger pages.
    attempts = [(0, False), (1, False)] + [(step, True) for step in range(GROW_STEPS + 1)]
    for step, stretch in attempts:
        scale = 10 + PAGE_GROWTH * step
        size = (2 * round(w * scale / 20), 2 * round(h * scale / 20))
        result = _search(layout, marked, size, SEARCH_BUDGET, stretch)
        if result is not None:
            return result
    raise LayoutTooLarge(f"no arrangement of {len(layout)} tiles without overlaps")


def _needed_sides(layout: Layout, t: Tile, marked: Mapping[Tile, set[Side]]) -> list[Side]:
    """Sides whose front square this tile reserves: a child hangs there or a mark is drawn there."""
    pt = layout.placed(t)
    sides = (set(pt.occupied) - {pt.joined_side}) | marked.get(t, set())
    return sorted(sides, key=SIDE_ORDER.__getitem__)


def _tree_order(layout: Layout) -> list[Tile]:
    """Depth-first from the opening, children by side order: each arm is placed together."""
    root = layout.tiles[0]
    out: list[Tile] = []
    stack = [root]
    while stack:
        t = stack.pop()
        out.append(t)
        pt = layout.placed(t)
        kids = [(s, c) for s, c in pt.occupied.items() if s is not pt.joined_side]
        kids.sort(key=lambda sc: SIDE_ORDER[sc[0]], reverse=True)
        stack.extend(c for _, c in kids)
    return out


class _Board:
    """Occupied unit cells, each with the index of the tile that put it there (-1: the opening),
    and the bounding box of everything so far, which must fit the page size.

    Boxes lie on the integer grid, so two boxes overlap exactly when they share a cell.
    The page is not pinned to the opening: the picture may grow any way while it fits.
    """

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.cells: dict[Vec, tuple[int, tuple[Tile, Side] | None]] = {}
        self.undo: list[tuple[list[tuple[Vec, tuple[int, tuple[Tile, Side] | None] | None]], int]] = []
        self.boxes: list[tuple[Box, int]] = []
        self.extents: list[Box | None] = [None]

    def _fits(self, u: Box) -> bool:
        return u.width <= self.size[0] and u.height <= self.size[1]

    def _at_edge(self, edge: str, value: int) -> int:
        """The latest tile whose box lies on this edge of the extent: moving it is one way out."""
        return max(owner for b, owner in self.boxes if getattr(b, edge) == value)

    def _page_culprits(self, boxes: list[Box]) -> set[int]:
        e = self.extents[-1]
        c = boxes[0]
        for b in boxes[1:]:
            c = c.union(b)
        if e is None:
            return set() if self._fits(c) else {-2}
        out: set[int] = set()
        w, h = self.size
        if c.width > w or c.height > h:
            out.add(-2)  # too big by itself
        if c.x1 - e.x0 > w:
            out.add(self._at_edge("x0", e.x0))
        if e.x1 - c.x0 > w:
            out.add(self._at_edge("x1", e.x1))
        if c.y1 - e.y0 > h:
            out.add(self._at_edge("y0", e.y0))
        if e.y1 - c.y0 > h:
            out.add(self._at_edge("y1", e.y1))
        return out

    def conflicts(self, boxes: list[Box], skip: tuple[Tile, Side] | None) -> set[int] | None:
        """Indices of the tiles in the way (-1: the opening; -2: the page is too small); None if free."""
        found = self._page_culprits(boxes)
        cells = self.cells
        for b in boxes:
            for x in range(b.x0, b.x1):
                for y in range(b.y0, b.y1):
                    hit = cells.get((x, y))
                    if hit is not None and (hit[1] is None or hit[1] != skip):
                        found.add(hit[0])  # (skip: the parent's reservation for this very child)
        return found or None

    def run(self, socket: Socket, cap: int) -> int:
        """How far (up to cap units) a straight line of squares can go from `socket`."""
        p, d = socket.point, socket.direction
        e = self.extents[-1]
        for k in range(0, cap, SHORT):
            b = rect((p[0] + k * d[0], p[1] + k * d[1]), d, (0, SHORT), (-1, 1))
            if not self._fits(b if e is None else e.union(b)) or any(
                    (x, y) in self.cells for x in range(b.x0, b.x1) for y in range(b.y0, b.y1)):
                return k
        return cap

    def touches(self, b: Box, parent: int) -> bool:
        """Whether a box would touch (share an edge with) what another tile than `parent` put down."""
        cells = self.cells
        ring = [(x, y) for x in range(b.x0, b.x1) for y in (b.y0 - 1, b.y1)]
        ring += [(x, y) for y in range(b.y0, b.y1) for x in (b.x0 - 1, b.x1)]
        return any(c in cells and cells[c][0] != parent for c in ring)

    def push(self, boxes: list[tuple[Box, tuple[Tile, Side] | None]], owner: int) -> None:
        saved: list[tuple[Vec, tuple[int, tuple[Tile, Side] | None] | None]] = []
        e = self.extents[-1]
        for b, key in boxes:
            e = b if e is None else e.union(b)
            self.boxes.append((b, owner))
            for x in range(b.x0, b.x1):
                for y in range(b.y0, b.y1):
                    saved.append(((x, y), self.cells.get((x, y))))
                    self.cells[(x, y)] = (owner, key)
        self.undo.append((saved, len(boxes)))
        self.extents.append(e)

    def pop(self) -> None:
        saved, n = self.undo.pop()
        for cell, old in reversed(saved):
            if old is None:
                del self.cells[cell]
            else:
                self.cells[cell] = old
        del self.boxes[len(self.boxes) - n:]
        self.extents.pop()


def _footprint(g: TileGeometry, sides: list[Side]) -> list[tuple[Box, tuple[Tile, Side] | None]]:
    joint = [(g.joint, None)] if g.joint is not None else []
    return [(g.box, None)] + joint + [(g.sockets[s].front(), (g.tile, s)) for s in sides]


def _candidates(layout: Layout, node: _Node, parent: TileGeometry, board: _Board,
                stretch: bool, parent_owner: int = -1) -> list[TileGeometry]:
    """The tile's possible places, best first; stretched joints come last, only for tight spots."""
    socket = parent.sockets[node.parent_side]
    d = socket.direction
    main = d if (parent.tile.is_double or parent.turn == "opening") else parent.main
    # doubles lie crosswise; a non-double goes on or bends
    turns = ["straight"] if node.tile.is_double else ["straight", "left", "right"]
    # A branch leaves its spinner at a right angle: its first tile bends only if it must
    # (its joined half still touches the branch side either way).
    branch_first = parent.tile.is_double and node.parent_side.is_branch
    along_main = d in (main, neg(main))
    # look ahead only if the arm goes on: a last tile needs no more than its mark's square
    need = LONG if len(layout.placed(node.tile).occupied) > 1 else 0

    def rank(g: TileGeometry) -> tuple[int, ...]:
        out = [s for s in g.sockets.values() if s.direction != neg(d)]  # a double: line B first
        e = out[0].direction
        if along_main:
            pref = 0 if g.turn == "straight" else 1
        else:  # crossing over: bend back against the arm's direction first, a boustrophedon
            pref = 0 if e == neg(main) else (1 if g.turn == "straight" else 2)
        room = board.run(out[0], 2 * LONG)
        forced = 1 if branch_first and g.turn != "straight" else 0
        # readability: rather not touch tiles it is not joined to
        crowded = 1 if board.touches(g.box, parent_owner) else 0
        return (forced, 0 if room >= need else 1, crowded, pref, -room, turns.index(g.turn))

    options = []
    for gap in (0,) + (STRETCH if stretch else ()):
        options.extend(sorted((place(node.tile, node.joined, socket, t, main, gap) for t in turns), key=rank))
    return options


def _search(layout: Layout, marked: Mapping[Tile, set[Side]], size: tuple[int, int], budget: int,
            stretch: bool = False) -> Arrangement | None:
    order = _tree_order(layout)
    root = order[0]
    geos: dict[Tile, TileGeometry] = {root: opening(root)}
    board = _Board(size)
    root_sides = _needed_sides(layout, root, marked)
    fp = _footprint(geos[root], root_sides)
    if board.conflicts([b for b, _ in fp], None) is not None:
        return None
    board.push(fp, -1)
    nodes: list[_Node] = []
    index: dict[Tile, int] = {}
    for t in order[1:]:
        pt = layout.placed(t)
        assert pt.parent is not None and pt.parent_side is not None and pt.joined_side is not None
        index[t] = len(nodes)
        nodes.append(_Node(t, pt.parent, pt.parent_side, pt.joined_side))
    sides = {t: _needed_sides(layout, t, marked) for t in order}
    i = 0
    while i < len(nodes):
        node = nodes[i]
        if node.options is None:
            node.options = _candidates(layout, node, geos[node.parent], board, stretch, index.get(node.parent, -1))
            node.next, node.conflicts = 0, set()
        placed = False
        while node.next < len(node.options):
            g = node.options[node.next]
            node.next += 1
            budget -= 1
            fp = _footprint(g, sides[node.tile])
            culprits = board.conflicts([b for b, _ in fp], (node.parent, node.parent_side))
            if culprits is None:
                geos[node.tile] = g
                board.push(fp, i)
                placed = True
                break
            node.conflicts |= culprits
        if placed:
            i += 1
            continue
        if budget <= 0:
            return None
        parent_index = index.get(node.parent, -1)
        culprits = {c for c in node.conflicts | {parent_index} if 0 <= c < i}
        if not culprits:
            return None  # only the opening or the page edge is in the way: a larger page is needed
        h = max(culprits)
        nodes[h].conflicts |= culprits - {h}
        for j in range(i, h - 1, -1):  # undo h..i-1; h keeps its remaining options
            if j < i:
                board.pop()
                geos.pop(nodes[j].tile, None)
            if j > h:
                nodes[j].options = None
        i = h
    reserved = {}
    for t in order:
        for s in sides[t]:
            if s in marked.get(t, set()):
                reserved[(t, s)] = geos[t].sockets[s].front()
    arr = Arrangement(geos, page_box(size), reserved)
    c = arr.content()
    arr.page = Box(c.x0, c.y0, c.x0 + size[0], c.y0 + size[1])  # the page, its top-left corner on the picture's
    return arr
