"""The independent solver: plain depth-first search over the reference engine's push/pop.

It shares nothing with the z3 model except the answer definitions in `space`, so the two
solution counts cross-check each other. `nodes` (placements pushed) is the effort measure
the difficulty grade uses; a budget marks puzzles too large for this solver.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterator

from fives.layout import Layout, Placement
from fives.tiles import Tile
from fives.puzzles.model import Problem
from fives.puzzles.space import canonical_placements, grants_continuation, key_of, matches, points, start

Answer = tuple[tuple[Placement, ...], tuple[int, ...]]  # placements and their points

#: Default node budget: a puzzle whose search pushes more placements is "too large" for brute force.
DEFAULT_BUDGET = 400_000


class TooLarge(Exception):
    """The search went over its node budget."""


@dataclass
class Enumeration:
    """Every complete answer of a position, grouped by what a target is compared with."""

    counts: Counter = field(default_factory=Counter)
    first: dict[object, Answer] = field(default_factory=dict)
    nodes: int = 0

    @property
    def answers(self) -> int:
        return sum(self.counts.values())


class _Search:
    def __init__(self, problem: Problem, budget: int | None) -> None:
        self.problem = problem
        self.rules = problem.rules
        self.budget = budget
        self.nodes = 0

    def push(self, layout: Layout, p: Placement) -> int:
        """Place `p`; return its raw points."""
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise TooLarge(f"more than {self.budget} placements searched")
        return layout.push(p)

    def answers(self, target: object | None = None) -> Iterator[Answer]:
        """Complete answers; with `target`, only those that can still match it (pruned)."""
        layout = start(self.problem)
        tiles = frozenset(self.problem.tiles)
        kind = self.problem.kind
        if kind == "single":
            yield from self._single(layout, tiles, target)
        elif kind == "turn":
            yield from self._turn(layout, tiles, (), (), target)
        else:
            yield from self._build(layout, tiles, (), (), target)

    def _single(self, layout: Layout, hand: frozenset[Tile], target: object | None) -> Iterator[Answer]:
        for p in canonical_placements(layout, hand):
            pt = points(self.rules, self.push(layout, p))
            layout.pop()
            if target is None or pt == target:
                yield (p,), (pt,)

    def _turn(self, layout: Layout, hand: frozenset[Tile], seq: tuple[Placement, ...],
              pts: tuple[int, ...], target: object | None) -> Iterator[Answer]:
        moves = canonical_placements(layout, hand)
        if not moves:  # no legal placement (boneyard empty): the turn ends here
            yield seq, pts
            return
        for p in moves:
            raw = self.push(layout, p)
            pt = points(self.rules, raw)
            seq2, pts2, rest = seq + (p,), pts + (pt,), hand - {p.tile}
            if target is not None and sum(pts2) > target:  # points never go down
                pass
            elif rest and grants_continuation(self.rules, p.tile, raw):
                yield from self._turn(layout, rest, seq2, pts2, target)
            else:  # a non-double that did not score, or the hand is empty
                yield seq2, pts2
            layout.pop()

    def _build(self, layout: Layout, left: frozenset[Tile], seq: tuple[Placement, ...],
               pts: tuple[int, ...], target: object | None) -> Iterator[Answer]:
        if not left:
            yield seq, pts
            return
        for p in canonical_placements(layout, left):
            pt = points(self.rules, self.push(layout, p))
            if target is None or pt == target[len(seq)]:  # type: ignore[index]
                yield from self._build(layout, left - {p.tile}, seq + (p,), pts + (pt,), target)
            layout.pop()


def enumerate_answers(problem: Problem, budget: int | None = DEFAULT_BUDGET) -> Enumeration:
    """All complete answers of the position, whatever the target (for generation and grading)."""
    search = _Search(problem, budget)
    out = Enumeration()
    for seq, pts in search.answers():
        k = key_of(problem.kind, pts)
        out.counts[k] += 1
        out.first.setdefault(k, (seq, pts))
    out.nodes = search.nodes
    return out


@dataclass
class Count:
    solutions: list[Answer]
    nodes: int

    @property
    def count(self) -> int:
        return len(self.solutions)


def count_solutions(problem: Problem, budget: int | None = DEFAULT_BUDGET) -> Count:
    """Every answer that meets the target, by a search pruned on the target."""
    search = _Search(problem, budget)
    target = problem.targets_key()
    sols = [(seq, pts) for seq, pts in search.answers(target) if matches(problem, pts)]
    return Count(sols, search.nodes)
