# lines: ~530 because Layout is one class whose int core and Placement API share private state (python-chess keeps Board whole).
"""The layout: a tree of placed tiles, its legal connection positions and its counted ends.

Placing a tile touches only the tile it joins and the new tile, so positions and the
counted sum are updated incrementally (`push`) and undone exactly (`pop`), as
python-chess does with moves. Variants and mutant engines override the `_hook` methods.

Inside, tiles are indices 0..27, sides 0..5 and placements move codes (`fives.moves`); each
placed tile's state is its occupied sides as a 6-bit mask. For the rules' own hooks a
tile's counted value and open sides depend only on (tile, spinner, occupied sides), so they
are read from tables built once from those hooks (`fives.layout_tables`); a subclass that
overrides a counting hook is asked through its hooks instead, on the same state.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, Iterator

from fives.layout_tables import Tables, tables_for
from fives.placed import Contribution, PlacedTile, Position
from fives.moves import (JOIN, PLACEMENT_OF, POS_SIDE, POS_TILE, POS_VALUE, IllegalCode, IllegalPlacement, Placement,
                    PlacementLike, as_placement, tile_index)
from fives.rules import GameRules
from fives.tiles import (ALL_TILES, IS_DOUBLE, MASK_SIDES, PIP_MASK, PIP_TILES, SIDE_ORDER, SIDES, Side, Tile)

__all__ = ["BRANCHES", "LINES", "Contribution", "IllegalCode", "IllegalPlacement", "Layout", "PlacedTile",
           "Placement", "Position"]

LINES = (Side.LINE_A, Side.LINE_B)
BRANCHES = (Side.BRANCH_A, Side.BRANCH_B)
_LINES_BITS = 1 << SIDE_ORDER[Side.LINE_A] | 1 << SIDE_ORDER[Side.LINE_B]
_BRANCH_BITS = 1 << SIDE_ORDER[Side.BRANCH_A] | 1 << SIDE_ORDER[Side.BRANCH_B]
_ALL = (1 << 28) - 1


@lru_cache(maxsize=None)
def _uses_own_counting(cls: type) -> bool:
    """Whether `cls` counts with Layout's own hooks (so the tables hold for it)."""
    return all(getattr(cls, name) is getattr(Layout, name) for name in
               ("_hook_branches_open", "_hook_double_contributions", "_contributions_of", "_open_sides"))


class Layout:
    """The tiles on the table for one game's rules.

    `Layout("horse-race")` (a game id, or a `GameRules`) starts empty. `push(p)` places `p`
    (a `Placement`, its text `"[1|1]>[1|4]:low"`, or its record `{"tile", "to", "side"}`)
    after checking it, and returns the raw points it scored; `pop()` undoes the last one.

    Properties: `sum` is the counted sum of the open ends, `raw` the raw points the last
    placement scored (the sum if it scores, else 0), `display` those points as the game shows
    them (Horse Race: raw / 5). `positions()`, `contributions()`, `legal_placements(hand)`
    and `to_result()` (the `fives evaluate` object) describe the layout.

    The int interface used by perft and other walkers: `moves()`, `push_move(code)`,
    `pop_move()`, `score_move(code)` (the raw points a placement would score, without placing
    it) and `leaf_counts()` (every next placement's count and points at once).
    """

    def __init__(self, rules: GameRules | str) -> None:
        if not isinstance(rules, GameRules):
            from fives.support.errors import UserError
            from fives.rules import game_ids, load_rules
            if not isinstance(rules, str):
                raise UserError(f"unknown game {rules!r:.60}: one of {', '.join(game_ids())}")
            rules = load_rules(rules)
        self.rules = rules
        cls = type(self)
        t: Tables = tables_for(rules, Layout)
        self._t = t
        self._ct = t.count if _uses_own_counting(cls) else None  # type: ignore[arg-type]  # None: ask the hooks (a class hashes by identity)
        self._ot = t.opens
        self._sc = t.score
        self._every = rules.spinner_policy == "every-double"
        # the fast paths know the two spinner policies with spinners; `none` and `opening-double` ask the hook
        self._own_spin = cls._hook_is_spinner is Layout._hook_is_spinner and rules.spinner_policy in ("first-double",
                                                                                                    "every-double")
        self._mask = 0  # bit i: tile i is placed
        self._order: list[int] = []  # tile indices in play order
        self._spinners: list[int] = []
        self._occ = [0] * 28  # occupied sides (the joined side included)
        self._opn = [0] * 28  # open sides
        self._base = [0] * 28  # (tile * 2 + spinner) * 64: the tables' row of a placed tile
        self._val = [0] * 28  # counted value
        self._pq = [-1] * 28  # the position (parent * 6 + side) a tile joined, -1 for the opening
        self._at = [-1] * 168  # the tile on each position, while that side is occupied
        self._ord = [0] * 28
        self._sum = 0

    # -- hooks: the rules' choices, overridable by variants and mutants ------------------
    def _hook_is_spinner(self, tile: Tile) -> bool:
        if not tile.is_double or self.rules.spinner_policy == "none":  # none: every double in line
            return False
        if self.rules.spinner_policy == "every-double":
            return True
        if self.rules.spinner_policy == "opening-double":  # a variant: only a double that opens spins
            return not self._order
        return not self._spinners  # first-double: the Sniff is the first double placed

    def _hook_branches_open(self, pt: PlacedTile) -> bool:
        return pt.spinner and (pt.lines_occupied() or not self.rules.branches_require_both_lines)

    def _hook_double_contributions(self, pt: PlacedTile) -> list[Contribution]:
        v = pt.tile.low
        if Side.LINE_A not in pt.occupied or Side.LINE_B not in pt.occupied:
            return [Contribution(pt.tile, 2 * v)]  # an end double counts both halves once
        if pt.spinner and self.rules.open_branch_side == "one-half":
            return [Contribution(pt.tile, v, b) for b in BRANCHES if b not in pt.occupied]
        return []  # internal double; unused branches count 0

    # -- derived per-tile state (the hooks' view) -----------------------------------------
    def _contributions_of(self, pt: PlacedTile) -> list[Contribution]:
        t = pt.tile
        if t.is_double:
            return self._hook_double_contributions(pt)
        return [Contribution(t, t.value(s), s) for s in (Side.LOW, Side.HIGH) if s not in pt.occupied]

    def _open_sides(self, pt: PlacedTile) -> Iterator[Side]:
        if not pt.tile.is_double:
            yield from (s for s in (Side.LOW, Side.HIGH) if s not in pt.occupied)
            return
        yield from (s for s in LINES if s not in pt.occupied)
        if self._hook_branches_open(pt):
            yield from (s for s in BRANCHES if s not in pt.occupied)

    def _derive(self, i: int) -> None:
        """Recompute tile i's counted value and open sides through the hooks (subclasses)."""
        pt = self._placed_tile(i)
        value = sum(c.value for c in self._contributions_of(pt))
        self._sum += value - self._val[i]
        self._val[i] = value
        self._opn[i] = sum(1 << SIDE_ORDER[s] for s in self._open_sides(pt))

    def _spins(self, i: int) -> bool:
        if self._own_spin:
            return IS_DOUBLE[i] and (self._every or not self._spinners)
        return bool(self._hook_is_spinner(ALL_TILES[i]))

    def _placed_tile(self, i: int) -> PlacedTile:
        q = self._pq[i]
        occupied: dict[Side, Tile] = {}
        parent = parent_side = joined = None
        if q >= 0:
            parent, parent_side = ALL_TILES[POS_TILE[q]], SIDES[POS_SIDE[q]]
            joined = SIDES[JOIN[i * 7 + POS_VALUE[q]]]
            occupied[joined] = parent
        kids = [(self._ord[self._at[i * 6 + s]], s) for s in MASK_SIDES[self._occ[i]] if SIDES[s] is not joined]
        for _, s in sorted(kids):
            occupied[SIDES[s]] = ALL_TILES[self._at[i * 6 + s]]
        return PlacedTile(ALL_TILES[i], self._ord[i], bool(self._base[i] & 64), joined, parent, parent_side, occupied)

    # -- the int interface: placing and scoring by move code -------------------------------
    def push_move(self, code: int) -> int:
        """Place the move `code` (checked) and return the raw points it scores."""
        t = code >> 8
        q = (code & 255) - 1
        mask = self._mask
        if not 0 <= t < 28 or mask >> t & 1 or q >= 168:
            return self.push(self._placement_of_code(code))  # raises the precise illegality
        order = self._order
        if q < 0:
            if order:
                return self.push(self._placement_of_code(code))
            to = -1
        else:
            to = POS_TILE[q]
            j = JOIN[t * 7 + POS_VALUE[q]]
            if not self._opn[to] >> POS_SIDE[q] & 1 or j < 0 or (q % 6 > 3 and not self._base[to] & 64):
                return self.push(self._placement_of_code(code))
        spin = self._spins(t)
        self._mask = mask | 1 << t
        self._ord[t] = len(order)
        order.append(t)
        if spin:
            self._spinners.append(t)
        b = (t * 2 + spin) * 64
        self._base[t] = b
        self._pq[t] = q
        ct = self._ct
        if q < 0:
            self._occ[t] = 0
            if ct is None:
                self._val[t] = 0
                self._derive(t)
            else:
                self._val[t] = c = ct[b]
                self._sum += c
                self._opn[t] = self._ot[b]
            return self._sc[self._sum]
        occ = self._occ
        o = occ[to] | 1 << POS_SIDE[q]
        occ[to] = o
        occ[t] = jo = 1 << j
        self._at[q] = t
        self._at[t * 6 + j] = to
        if ct is None:
            self._val[t] = 0
            self._derive(to)
            self._derive(t)
            return self._sc[self._sum]
        val = self._val
        k = self._base[to] | o
        c = ct[k]
        total = self._sum + c - val[to]
        val[to] = c
        self._opn[to] = self._ot[k]
        c = ct[b | jo]
        val[t] = c
        self._opn[t] = self._ot[b | jo]
        self._sum = total = total + c
        return self._sc[total]

    def pop_move(self) -> int:
        """Undo the last placement exactly; return its move code."""
        t = self._order.pop()
        self._mask ^= 1 << t
        if self._base[t] & 64:
            self._spinners.pop()
        self._sum -= self._val[t]
        self._val[t] = self._opn[t] = self._occ[t] = 0
        q = self._pq[t]
        if q < 0:
            return t << 8
        to = POS_TILE[q]
        o = self._occ[to] & ~(1 << POS_SIDE[q])
        self._occ[to] = o
        ct = self._ct
        if ct is None:
            self._derive(to)
        else:
            k = self._base[to] | o
            c = ct[k]
            self._sum += c - self._val[to]
            self._val[to] = c
            self._opn[to] = self._ot[k]
        return t << 8 | (q + 1)

    def score_move(self, code: int) -> int:
        """The raw points the legal move `code` would score, without placing it."""
        ct = self._ct
        if ct is None or not self._own_spin:
            raw = self.push_move(code)  # a subclass's hooks may look anywhere: place and undo
            self.pop_move()
            return raw
        t = code >> 8
        q = (code & 255) - 1
        b = (t * 2 + (IS_DOUBLE[t] and (self._every or not self._spinners))) * 64
        if q < 0:
            return self._sc[ct[b]]
        to = POS_TILE[q]
        c = ct[self._base[to] | self._occ[to] | 1 << POS_SIDE[q]]
        return self._sc[self._sum + c - self._val[to] + ct[b | 1 << JOIN[t * 7 + POS_VALUE[q]]]]

    def moves(self, hand: int = _ALL) -> list[int]:
        """Codes of every legal next placement of a tile in `hand` (a mask of tile indices;
        default every tile), in canonical order."""
        free = hand & ~self._mask
        if not self._order:
            return [t << 8 for t in range(28) if free >> t & 1]
        out: list[int] = []
        opn = self._opn
        for to in self._order:
            m = opn[to]
            if m:
                for s in MASK_SIDES[m]:
                    q = to * 6 + s
                    f = PIP_MASK[POS_VALUE[q]] & free
                    if f:
                        out.extend(t << 8 | (q + 1) for t in PIP_TILES[POS_VALUE[q]] if f >> t & 1)
        out.sort()
        return out

    def leaf_counts(self, hand: int = _ALL) -> tuple[int, int]:
        """(number, total raw points) of every legal next placement of a tile in `hand`,
        scored without placing them: the last ply of perft."""
        free = hand & ~self._mask
        ct = self._ct
        if ct is None or not self._own_spin or not self._order:
            moves = self.moves(hand)
            return len(moves), sum(self.score_move(m) for m in moves)
        # Every tile joining one position changes its target's value alike; the newcomer's own
        # value depends only on the tile and the position's pip value: memoised per rules.
        memo = self._t.leaf_memo
        spin = self._every or not self._spinners
        nodes = points = 0
        opn, val, occ, base = self._opn, self._val, self._occ, self._base
        rest = self._sum
        for to in self._order:
            m = opn[to]
            if m:
                row = base[to] | occ[to]
                before = rest - val[to]
                for s in MASK_SIDES[m]:
                    q = to * 6 + s
                    v = POS_VALUE[q]
                    f = PIP_MASK[v] & free
                    if f:
                        key = ((before + ct[row | 1 << s]) * 7 + v) * 2 + spin << 28 | f
                        got = memo.get(key)
                        if got is None:
                            got = memo[key] = self._t.join_counts(before + ct[row | 1 << s], v, f, spin)
                        nodes += got[0]
                        points += got[1]
        return nodes, points

    def _placement_of_code(self, code: int) -> Placement:
        t, q = code >> 8, (code & 255) - 1
        if not 0 <= t < 28:
            raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT, f"no placement has move code {code}")
        if q < 0:
            return Placement(ALL_TILES[t])
        return Placement(ALL_TILES[t], ALL_TILES[POS_TILE[q]], SIDES[POS_SIDE[q]])

    # -- queries ------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, tile: object) -> bool:
        return type(tile) is Tile and bool(self._mask >> tile_index(tile) & 1)  # type: ignore[arg-type,unused-ignore]

    def __repr__(self) -> str:
        moves = ", ".join(str(PLACEMENT_OF[c]) for c in self._codes())
        return f"Layout({self.rules.id!r}, [{moves}])"

    def _repr_svg_(self) -> str | None:
        """The layout drawn as `fives render` draws it (Jupyter shows this); None (Jupyter
        then shows the repr) for an empty layout or one too large to draw."""
        from fives.draw.geometry import LayoutTooLarge
        from fives.draw.svg import render_layout
        if not self._order:
            return None
        try:
            return render_layout(self)
        except LayoutTooLarge:
            return None

    @property
    def sum(self) -> int:
        """The counted sum: the pips of every counted open end (spec/engine.md)."""
        return self._sum

    @property
    def tiles(self) -> list[Tile]:
        """Tiles in play order."""
        return [ALL_TILES[i] for i in self._order]

    @property
    def spinners(self) -> list[Tile]:
        """Spinner doubles in play order."""
        return [ALL_TILES[i] for i in self._spinners]

    def placed(self, tile: Tile) -> PlacedTile:
        """A snapshot of a placed tile: its parent, joined side, occupied sides, spinner flag."""
        i = tile_index(tile)
        if not self._mask >> i & 1:
            raise KeyError(tile)
        return self._placed_tile(i)

    @property
    def raw(self) -> int:
        """Raw points the last placement scored (the counted sum if it scores, else 0)."""
        return self._sc[self._sum] if self._order else 0

    @property
    def display(self) -> int:
        """The last placement's points as the game shows them (raw divided by its divisor)."""
        return self.rules.display(self.raw)

    def _open_positions(self) -> Iterator[int]:
        """Open positions (to * 6 + side) in canonical order."""
        opn = self._opn
        for to in sorted(self._order):
            for s in MASK_SIDES[opn[to]]:
                yield to * 6 + s

    def positions(self) -> list[Position]:
        """Legal connection positions in canonical order (tile, then side)."""
        return [Position(ALL_TILES[POS_TILE[q]], SIDES[POS_SIDE[q]], POS_VALUE[q]) for q in self._open_positions()]

    def _contribution_rows(self) -> Iterator[tuple[int, int, int]]:
        """(tile, side index or -1, value) of every counted end, in canonical order."""
        if self._ct is None:
            for i in sorted(self._order):
                cs = sorted(self._contributions_of(self._placed_tile(i)),
                            key=lambda c: -1 if c.side is None else SIDE_ORDER[c.side])
                yield from ((i, -1 if c.side is None else SIDE_ORDER[c.side], c.value) for c in cs)
            return
        parts = self._t.parts
        for i in sorted(self._order):
            for s, v in parts[self._base[i] | self._occ[i]]:
                yield i, s, v

    def contributions(self) -> list[Contribution]:
        """Every counted end in canonical order (tile, then side; a whole double first)."""
        return [Contribution(ALL_TILES[i], v, None if s < 0 else SIDES[s]) for i, s, v in self._contribution_rows()]

    def connections(self) -> list[dict[str, str]]:
        """Each non-opening placement as `{to, side, tile, tile_side}`, in play order."""
        names, sides, pq = _TILE_NAMES, _SIDE_NAMES, self._pq
        return [{"to": names[POS_TILE[q]], "side": sides[POS_SIDE[q]], "tile": names[t],
                 "tile_side": sides[JOIN[t * 7 + POS_VALUE[q]]]} for t in self._order[1:] for q in (pq[t],)]

    def placements_for(self, tile: Tile) -> list[Placement]:
        """Every legal placement of `tile` (none if it is already on the table)."""
        return [PLACEMENT_OF[c] for c in self.moves(1 << tile_index(tile))]  # type: ignore[misc]

    def legal_placements(self, hand: Iterable[Tile | str]) -> list[Placement]:
        """Every legal placement of a tile of `hand` (tiles or their text), in canonical order."""
        mask = 0
        for t in hand:
            mask |= 1 << tile_index(t if type(t) is Tile else as_placement(t).tile)  # type: ignore[arg-type,unused-ignore]
        return [PLACEMENT_OF[c] for c in self.moves(mask)]  # type: ignore[misc]

    def open_values(self) -> set[int]:
        """The pip values some open position needs."""
        return {POS_VALUE[q] for q in self._open_positions()}

    def can_place(self, tile: Tile) -> bool:
        """Whether `tile` (unplaced) has a legal placement."""
        i = tile_index(tile)
        if self._mask >> i & 1:
            return False
        if not self._order:
            return True
        vals = self.open_values()
        return tile.low in vals or tile.high in vals

    # -- placing ------------------------------------------------------------------------
    def check(self, p: PlacementLike) -> None:
        """Raise IllegalPlacement with the first broken rule; return if `p` is legal."""
        p = as_placement(p)
        t = p.tile
        if self._order and (p.to is None or p.side is None):
            raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT,
                                   f"only the opening placement may omit `to` and `side`; {t} needs both")
        if t in self:
            raise IllegalPlacement(IllegalCode.TILE_ALREADY_PLACED, f"{t} is already in the layout")
        if not self._order:
            if p.to is not None:
                raise IllegalPlacement(IllegalCode.TARGET_NOT_IN_LAYOUT,
                                       f"the layout is empty, so {t} cannot join {p.to}: the opening joins nothing")
            return
        assert p.to is not None and p.side is not None
        if p.to not in self:
            raise IllegalPlacement(IllegalCode.TARGET_NOT_IN_LAYOUT, f"{p.to} is not in the layout")
        to = tile_index(p.to)
        if p.side not in p.to.sides:
            kind = "a double" if p.to.is_double else "a non-double"
            raise IllegalPlacement(IllegalCode.NO_SUCH_SIDE, f"{p.to} is {kind} and has no {p.side} side")
        s = SIDE_ORDER[p.side]
        if self._occ[to] >> s & 1:
            raise IllegalPlacement(IllegalCode.SIDE_OCCUPIED,
                                   f"{p.to} {p.side} is already occupied by {ALL_TILES[self._at[to * 6 + s]]}")
        if p.side.is_branch:
            target = self._placed_tile(to)
            if not target.spinner:
                raise IllegalPlacement(IllegalCode.BRANCH_OF_NON_SPINNER,
                                       f"{p.to} is not a spinner, so it has no open {p.side}")
            if not self._hook_branches_open(target):
                raise IllegalPlacement(IllegalCode.BRANCH_BEFORE_LINES,
                                       f"{p.to} {p.side} opens only once both its line sides are occupied")
        need = p.to.value(p.side)
        if not t.has(need):
            raise IllegalPlacement(IllegalCode.VALUE_MISMATCH, f"{t} has no {need} to match {p.to} {p.side}")

    def push(self, p: PlacementLike) -> int:
        """Place `p` (a Placement, its text or its record), checked, and return the raw points
        it scores. IllegalPlacement says why an illegal one is refused."""
        if type(p) is not Placement:
            p = as_placement(p)
        code = p.code  # type: ignore[union-attr,unused-ignore]
        if code >= 0:
            t = code >> 8
            q = (code & 255) - 1
            if not self._mask >> t & 1 and (
                    (q < 0 and not self._order)
                    or (q >= 0 and self._opn[POS_TILE[q]] >> POS_SIDE[q] & 1
                        and (q % 6 < 4 or self._base[POS_TILE[q]] & 64) and JOIN[t * 7 + POS_VALUE[q]] >= 0)):
                return self.push_move(code)
        self.check(p)
        # legal by the hooks but not open in this layout's state: cannot happen for a
        # consistent subclass; refuse rather than corrupt the state
        raise IllegalPlacement(IllegalCode.MALFORMED_PLACEMENT, f"{p} is not an open position here")

    def pop(self) -> Placement:
        """Undo the last placement exactly and return it."""
        return PLACEMENT_OF[self.pop_move()]  # type: ignore[return-value]

    def recount(self) -> tuple[int, dict[tuple[Tile, Side], int]]:
        """The sum and open positions recomputed over every tile through the hooks (the check
        on `push`/`pop`)."""
        total = 0
        opens: dict[tuple[Tile, Side], int] = {}
        for i in self._order:
            pt = self._placed_tile(i)
            total += sum(c.value for c in self._contributions_of(pt))
            opens.update({(pt.tile, s): pt.tile.value(s) for s in self._open_sides(pt)})
        return total, opens

    def copy(self) -> "Layout":
        """An independent layout of the same class with the same placements."""
        other = type(self)(self.rules)
        for c in self._codes():
            other.push_move(c)
        return other

    def _codes(self) -> list[int]:
        return [t << 8 | (self._pq[t] + 1) for t in self._order]

    def history(self) -> list[Placement]:
        """The placements in play order."""
        return [PLACEMENT_OF[c] for c in self._codes()]  # type: ignore[misc]

    def to_result(self) -> dict[str, Any]:
        """The `fives evaluate` output object for this layout."""
        names = _TILE_NAMES
        side_names = _SIDE_NAMES
        raw = self.raw
        return {
            "game": self.rules.id,
            "tiles": [names[i] for i in self._order],
            "spinners": [names[i] for i in self._spinners],
            "connections": self.connections(),
            "positions": [{"tile": names[POS_TILE[q]], "side": side_names[POS_SIDE[q]], "value": POS_VALUE[q]}
                          for q in self._open_positions()],
            "contributions": [{"tile": names[i], "value": v} if s < 0 else
                              {"tile": names[i], "value": v, "side": side_names[s]}
                              for i, s, v in self._contribution_rows()],
            "sum": self._sum,
            "raw": raw,
            "display": self.rules.display(raw),
        }


_TILE_NAMES: tuple[str, ...] = tuple(str(t) for t in ALL_TILES)
_SIDE_NAMES: tuple[str, ...] = tuple(s.value for s in SIDES)
