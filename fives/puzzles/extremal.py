"""Extremal sums: the largest counted sum and the largest scoring sum any layout can reach.

The z3 model is a whole layout as a tree (spec/puzzles.md, "Extremal results"): each placed
tile but the opening picks exactly one parent slot whose value it matches; a slot holds at
most one tile and a non-double's joined half holds none; a play order `order` makes parents
come first, branch tiles come after both line tiles, and (first-double policy) the spinner
come before every other double. Any such tree is a legal placement sequence (sort by order)
and every legal sequence is such a tree, so "no model with sum >= B + 1" proves B optimal.
The witness is replayed through the reference engine.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import z3

from ..evaluate import evaluate
from ..layout import Placement
from ..rules import GameRules, load_rules
from ..tiles import ALL_TILES, Side, Tile
from .z3model import joining_side

LINES = (Side.LINE_A, Side.LINE_B)
BRANCHES = (Side.BRANCH_A, Side.BRANCH_B)


@dataclass
class Extremum:
    game: str
    what: str  # "counted" or "scoring"
    value: int
    witness: list[Placement]
    proof: str  # how optimality was shown


class LayoutModel:
    """Every layout reachable from the empty table, as z3 constraints over the 28 tiles."""

    def __init__(self, rules: GameRules, tiles: tuple[Tile, ...] = ALL_TILES) -> None:
        self.rules = rules
        self.tiles = tiles
        self.first_double = rules.spinner_policy == "first-double"
        self.s = z3.Solver()
        s = self.s
        n = len(tiles)
        self.placed = {t: z3.Bool(f"p_{t}") for t in tiles}
        self.root = {t: z3.Bool(f"r_{t}") for t in tiles}
        self.order = {t: z3.Int(f"o_{t}") for t in tiles}
        self.spin = {t: (z3.Bool(f"spin_{t}") if self.first_double else self.placed[t]) for t in tiles if t.is_double}
        self.slots = [(u, side) for u in tiles for side in u.sides]
        # edge[(t, slot)]: t is placed on slot, joining with side joining_side(t, value)
        self.edge: dict[tuple[Tile, tuple[Tile, Side]], z3.BoolRef] = {}
        for t in tiles:
            for u, side in self.slots:
                if u != t and t.has(u.value(side)):
                    self.edge[(t, (u, side))] = z3.Bool(f"e_{t}_{u}_{side}")
        into: dict[Tile, list] = {t: [] for t in tiles}
        hosted: dict[tuple[Tile, Side], list] = {sl: [] for sl in self.slots}  # edges onto a side
        child_of: dict[tuple[Tile, Side], list[Tile]] = {sl: [] for sl in self.slots}
        own: dict[tuple[Tile, Side], list] = {sl: [] for sl in self.slots}  # a tile's joined side
        for (t, (u, side)), e in self.edge.items():
            into[t].append(e)
            hosted[(u, side)].append(e)
            child_of[(u, side)].append(t)
            own[(t, joining_side(t, u.value(side)))].append(e)
        s.add(z3.Or(list(self.placed.values())))
        s.add(z3.PbEq([(r, 1) for r in self.root.values()], 1))
        for t in tiles:
            s.add(self.order[t] >= 0, self.order[t] < n)
            # placed <-> exactly one of: opening, one parent slot
            s.add(z3.PbEq([(self.root[t], 1)] + [(e, 1) for e in into[t]] + [(z3.Not(self.placed[t]), 1)], 1))
        for (t, (u, side)), e in self.edge.items():
            s.add(z3.Implies(e, z3.And(self.placed[u], self.order[u] < self.order[t])))
        self.occ: dict[tuple[Tile, Side], Any] = {}
        for sl in self.slots:
            s.add(z3.PbLe([(e, 1) for e in hosted[sl] + own[sl]], 1))  # one tile per side
            self.occ[sl] = z3.Or(hosted[sl] + own[sl])
        for u in tiles:
            if not u.is_double:
                continue
            for b in BRANCHES:
                for e, child in zip(hosted[(u, b)], child_of[(u, b)]):
                    s.add(z3.Implies(e, self.spin[u]))
                    if rules.branches_require_both_lines:
                        s.add(z3.Implies(e, z3.And(self.occ[(u, Side.LINE_A)], self.occ[(u, Side.LINE_B)])))
                        # the branch tile comes after the line tiles in play order
                        for line in LINES:
                            for e2, c2 in zip(hosted[(u, line)], child_of[(u, line)]):
                                s.add(z3.Implies(z3.And(e, e2), self.order[c2] < self.order[child]))
        if self.first_double:
            doubles = [t for t in tiles if t.is_double]
            s.add(z3.PbEq([(self.spin[d], 1) for d in doubles] + [(z3.Not(z3.Or([self.placed[d] for d in doubles])), 1)], 1))
            for d in doubles:
                s.add(z3.Implies(self.spin[d], self.placed[d]))
                for d2 in doubles:
                    if d2 != d:
                        s.add(z3.Implies(z3.And(self.spin[d], self.placed[d2]), self.order[d] < self.order[d2]))
        self.total = z3.Sum([z3.If(self.placed[t], self._contribution(t), 0) for t in tiles])

    def _contribution(self, t: Tile) -> Any:
        occ = self.occ
        if not t.is_double:
            return z3.Sum([z3.If(occ[(t, side)], 0, t.value(side)) for side in t.sides])
        v = t.low
        inner: Any = 0
        if self.rules.open_branch_side == "one-half":
            inner = z3.If(self.spin[t], z3.Sum([z3.If(occ[(t, b)], 0, v) for b in BRANCHES]), 0)
        return z3.If(z3.And(occ[(t, Side.LINE_A)], occ[(t, Side.LINE_B)]), inner, 2 * v)

    def witness(self, m: z3.ModelRef) -> list[Placement]:
        """The model's layout as placements in play order."""
        placed = [t for t in self.tiles if z3.is_true(m.eval(self.placed[t], model_completion=True))]
        placed.sort(key=lambda t: m.eval(self.order[t], model_completion=True).as_long())
        out = []
        for t in placed:
            parent = [sl for (c, sl), e in self.edge.items() if c == t and z3.is_true(m.eval(e, model_completion=True))]
            out.append(Placement(t) if not parent else Placement(t, parent[0][0], parent[0][1]))
        return out

    def check(self, *constraints: Any) -> z3.ModelRef | None:
        r = self.s.check(*constraints)
        if r == z3.unknown:
            raise RuntimeError(f"z3 gave up: {self.s.reason_unknown()}")
        return self.s.model() if r == z3.sat else None


def maximise(game: str, scoring: bool, upper: int | None = None) -> Extremum:
    """The largest counted (or scoring) sum, by raising the bound until z3 says unsat."""
    rules = load_rules(game)
    model = LayoutModel(rules)
    step = rules.scoring_multiple if scoring else 1
    extra = [model.total % rules.scoring_multiple == 0, model.total > 0] if scoring else []
    best, best_model = 0, None
    bound = step
    while True:
        m = model.check(model.total >= bound, *extra)
        if m is None:
            break
        best = m.eval(model.total).as_long()
        best_model = m
        bound = best + step
        if scoring:
            bound = (best // step + 1) * step
    assert best_model is not None
    witness = model.witness(best_model)
    result = evaluate(rules, [p.to_dict() for p in witness])
    if result["sum"] != best:
        raise RuntimeError(f"the engine counts {result['sum']} for z3's witness of {best}")
    what = "scoring" if scoring else "counted"
    return Extremum(game, what, best, witness,
                    f"z3 (LayoutModel) finds a layout with sum {best} and proves no layout has sum >= {bound}"
                    + (" that is a multiple of 5" if scoring else ""))
