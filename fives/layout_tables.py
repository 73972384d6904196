"""Precomputed tables of the layout core, built once per rules from `Layout`'s own hooks.

A placed tile's counted value and open sides depend only on (tile, spinner flag, occupied
sides) under the rules' own counting hooks, so they are tabulated by row
`(tile * 2 + spinner) * 64 + occupied-sides mask`. The tables are *derived from* the hooks
(not a second statement of the rules): `Layout` asks its hooks once per row here and reads
the answers on every push. Subclasses that override a counting hook (mutants) do not use
`count` (see `Layout._derive`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fives.moves import JOIN
from fives.placed import PlacedTile
from fives.tiles import ALL_TILES, IS_DOUBLE, PIP_TILES, SIDE_BITS, SIDE_ORDER, SIDES

if TYPE_CHECKING:
    from fives.rules import GameRules

ROWS = 28 * 2 * 64
#: Sums above this cannot happen (28 tiles, at most 2 x 12 counted each, mutants included).
MAX_SUM = 28 * 24


@dataclass(eq=False)
class Tables:
    count: list[int]  # row -> counted value
    opens: list[int]  # row -> open sides mask
    parts: list[tuple[tuple[int, int], ...]]  # row -> ((side index or -1, value), ...) in side order
    score: list[int]  # counted sum -> raw points
    #: memo of `join_counts` for `Layout.leaf_counts`: a cache (values depend only on the tables)
    leaf_memo: dict[int, tuple[int, int]] = field(default_factory=dict)

    def join_counts(self, start: int, value: int, free: int, spin: bool) -> tuple[int, int]:
        """(nodes, points) of every tile of mask `free` joining a position of `value`, when
        the rest of the layout counts `start` once that position is occupied."""
        nodes = points = 0
        count, score = self.count, self.score
        for t in PIP_TILES[value]:
            if free >> t & 1:
                own = count[(t * 2 + (IS_DOUBLE[t] and spin)) * 64 | 1 << JOIN[t * 7 + value]]
                nodes += 1
                points += score[start + own]
        return nodes, points


_CACHE: dict[tuple[object, ...], Tables] = {}  # a cache: every entry is a pure function of its key


def tables_for(rules: "GameRules", hooks: type) -> Tables:
    """The tables for these rules, asked of the counting hooks of `hooks` (the `Layout` class,
    passed in so that this module need not import it). Shared by every layout with the same
    counting parameters: the only ones `Layout`'s counting hooks and `GameRules.score` read."""
    key = (rules.open_branch_side, rules.branches_require_both_lines, rules.spinner_policy,
           rules.scoring_multiple, rules.zero_scores)
    got = _CACHE.get(key)
    if got is None:
        got = _CACHE[key] = _build(rules, hooks)
    return got


def _build(rules: "GameRules", Layout: type) -> Tables:
    probe = Layout.__new__(Layout)  # only `rules` is read by the counting hooks
    probe.rules = rules
    count = [0] * ROWS
    opens = [0] * ROWS
    parts: list[tuple[tuple[int, int], ...]] = [()] * ROWS
    for i, t in enumerate(ALL_TILES):
        for spin in ((False, True) if IS_DOUBLE[i] else (False,)):
            for occ in range(64):
                if occ & ~SIDE_BITS[i]:
                    continue
                pt = PlacedTile(t, 0, spin, None, None, None, {SIDES[s]: t for s in range(6) if occ >> s & 1})
                row = (i * 2 + spin) * 64 + occ
                cs = sorted(Layout._contributions_of(probe, pt),
                            key=lambda c: -1 if c.side is None else SIDE_ORDER[c.side])
                parts[row] = tuple((-1 if c.side is None else SIDE_ORDER[c.side], c.value) for c in cs)
                count[row] = sum(c.value for c in cs)
                opens[row] = sum(1 << SIDE_ORDER[s] for s in Layout._open_sides(probe, pt))
    score = [rules.score(total) for total in range(MAX_SUM + 1)]
    return Tables(count, opens, parts, score)
