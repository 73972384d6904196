"""Perft: count the legal placement sequences of a given length, as chess engines do.

From a layout (empty by default) with every unplaced tile available, count the distinct
sequences of `depth` placements (placements differ when their tile, target tile or side
differ) and the sum, over those sequences, of the raw points their last placement
scored. Engine authors compare these numbers to find move-generation and counting bugs;
`divide` splits the count by first placement to show where two engines disagree.

One walker serves every layout class: it places moves with the layout's public int
interface (`moves`, `push_move`, `pop_move`) and counts the last ply with `leaf_counts`,
which scores every candidate without placing it (table-driven and memoised for the
reference rules; placed and undone for a subclass with its own hooks, such as a mutant).
When the C extension is built, `walk` hands every layout it covers (Layout's own hooks, any
rule profile) to the compiled walker (fives/_perft.c through `fives.accel.perft_counter`),
which counts the same way on the same tables, about 60 times faster; `walk_python` is the
pure walker, the fallback and the reference the compiled one is tested against.
Parallel runs split the tree at its first two plies into work units run by
`fives.support.distribute.map_ordered` (a process pool or a Dask cluster) and merged in canonical
order, so the output never depends on `jobs` or `dask`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from fives.accel import perft_counter
from fives.evaluation import build_layout
from fives.layout import Layout, Placement
from fives.moves import PLACEMENT_OF
from fives.rules import GameRules, load_rules

Progress = Callable[[int, int], None]  # (units done, units in all)
#: Shallower counts take milliseconds: they run in process whatever `jobs` says.
PARALLEL_DEPTH = 5
LayoutClass = Callable[[GameRules], Layout]


@dataclass(frozen=True, slots=True)
class PerftResult:
    nodes: int
    points: int

    def __add__(self, other: "PerftResult") -> "PerftResult":
        return PerftResult(self.nodes + other.nodes, self.points + other.points)

    def to_dict(self) -> dict[str, int]:
        return {"nodes": self.nodes, "points": self.points}


ZERO = PerftResult(0, 0)


def placement_key(p: Placement) -> int:
    """Canonical order of placements: tile, then target tile, then target side (the move code)."""
    return p.code


def legal_moves(layout: Layout) -> list[Placement]:
    """Every legal next placement with all unplaced tiles available, in canonical order."""
    return [PLACEMENT_OF[c] for c in layout.moves()]  # type: ignore[misc]


#: The deepest count handed to the compiled walker in one call. Python cannot stop a C call
#: (a case's deadline, Ctrl-C): deeper counts are split in Python at their first plies into
#: calls of this depth, each a few hundredths of a second, so a stop lands between two calls.
COMPILED_CHUNK_DEPTH = 6


def walk(layout: Layout, depth: int) -> tuple[int, int]:
    """(nodes, points) of the placement sequences of length `depth` >= 1 from `layout` (left
    as it was found): the compiled walker when it covers the layout (fives.accel
    `perft_counter`), else the Python one; the two count alike (tests/test_perft_accel.py)."""
    if depth >= 2:  # one ply is a leaf count already: not worth the hand-over
        fast = perft_counter(layout)
        if fast is not None:
            return fast(depth) if depth <= COMPILED_CHUNK_DEPTH else _walk_split(layout, depth)
    return walk_python(layout, depth)


def _walk_split(layout: Layout, depth: int) -> tuple[int, int]:
    """`walk` one ply at a time down to COMPILED_CHUNK_DEPTH (the same sum, in stoppable calls)."""
    nodes = points = 0
    push, pop = layout.push_move, layout.pop_move
    for move in layout.moves():
        push(move)
        n, p = walk(layout, depth - 1)
        pop()
        nodes += n
        points += p
    return nodes, points


def walk_python(layout: Layout, depth: int) -> tuple[int, int]:
    """`walk` in pure Python, through the layout's own int interface (the reference and the
    fallback): make every move down to the last ply and count that ply in bulk."""
    if depth == 1:
        return layout.leaf_counts()
    nodes = points = 0
    push, pop = layout.push_move, layout.pop_move
    for move in layout.moves():
        push(move)
        n, p = walk_python(layout, depth - 1)
        pop()
        nodes += n
        points += p
    return nodes, points


def _rules(rules_or_game: GameRules | str) -> GameRules:
    return load_rules(rules_or_game) if isinstance(rules_or_game, str) else rules_or_game


def start_layout(rules: GameRules, from_placements: Iterable[Placement | dict[str, Any]] | None,
                 layout_class: LayoutClass = Layout) -> Layout:
    """The layout of `from_placements` (Placements or `fives evaluate` records), checked:
    IllegalPlacement names the index of the first illegal one."""
    records = [p.to_dict() if isinstance(p, Placement) else p for p in (from_placements or [])]
    return build_layout(rules, records, layout_class)[0]


#: A work unit: (rules, layout class, the start layout's moves, the counted prefix, depth).
Unit = tuple[GameRules, LayoutClass, tuple[int, ...], tuple[int, ...], int]


def count_unit(unit: Unit) -> tuple[int, int]:
    """Perft of depth `depth` of the sequences starting with `prefix` from the start layout
    (a module-level function, so worker processes and Dask can run it)."""
    rules, layout_class, start, prefix, depth = unit
    layout = layout_class(rules)
    for m in start:
        layout.push_move(m)
    last = 0
    for m in prefix:
        last = layout.push_move(m)
    rest = depth - len(prefix)
    if rest == 0:
        return 1, last
    return walk(layout, rest)


# -- public API -----------------------------------------------------------------------------
def iter_divide(rules_or_game: GameRules | str, depth: int,
                from_placements: Iterable[Placement | dict[str, Any]] | None = None, jobs: int = 1,
                progress: Progress | None = None, *, dask: str | None = None,
                layout_class: LayoutClass = Layout) -> Iterator[tuple[Placement, PerftResult]]:
    """Yield (first placement, perft of its subtree) in canonical order, as each completes.

    The subtree counts include the first placement: their sum is `perft(depth)`. With
    `jobs` > 1 and depth >= PARALLEL_DEPTH, or with `dask` (`"local:N"` or a scheduler address)
    and depth >= 2, the subtrees are split at the second ply into work units run by
    `fives.support.distribute.map_ordered`; the results are the same.
    Raises IllegalPlacement (with `index`) if `from_placements` is not a legal layout.
    """
    if depth < 1:
        raise ValueError("divide needs depth >= 1")
    rules = _rules(rules_or_game)
    layout = start_layout(rules, from_placements, layout_class)
    start = tuple(p.code for p in layout.history())
    roots = layout.moves()
    # a pool pays only for deep counts; an explicit cluster is always used (from depth 2)
    parallel = (jobs > 1 and depth >= PARALLEL_DEPTH) or (dask is not None and depth >= 2)
    groups: list[tuple[int, int]] = []  # (first move, number of units it was split into)
    units: list[Unit] = []
    for move in roots:
        if parallel:
            layout.push_move(move)
            seconds = layout.moves()
            layout.pop_move()
            groups.append((move, len(seconds)))
            units.extend((rules, layout_class, start, (move, m2), depth) for m2 in seconds)
        else:
            groups.append((move, 1))
            units.append((rules, layout_class, start, (move,), depth))
    if parallel:
        from fives.support.distribute import map_ordered
        results: Iterator[tuple[int, int]] = map_ordered(count_unit, units, jobs=max(jobs, 1), dask=dask)
    else:
        results = map(count_unit, units)
    done = 0
    for move, count in groups:
        nodes = points = 0
        for _ in range(count):
            n, p = next(results)
            nodes += n
            points += p
            done += 1
            if progress:
                progress(done, len(units))
        yield PLACEMENT_OF[move], PerftResult(nodes, points)  # type: ignore[misc]


def divide(rules_or_game: GameRules | str, depth: int,
           from_placements: Iterable[Placement | dict[str, Any]] | None = None, jobs: int = 1, *,
           dask: str | None = None, layout_class: LayoutClass = Layout) -> list[tuple[Placement, PerftResult]]:
    """Perft split by first placement, in canonical order (see `iter_divide`)."""
    return list(iter_divide(rules_or_game, depth, from_placements, jobs, dask=dask, layout_class=layout_class))


def perft(rules_or_game: GameRules | str, depth: int,
          from_placements: Iterable[Placement | dict[str, Any]] | None = None, jobs: int = 1,
          progress: Progress | None = None, *, dask: str | None = None,
          layout_class: LayoutClass = Layout) -> PerftResult:
    """Count the placement sequences of length `depth` and the raw points of their last placements.

    Depth 0 is the empty sequence: 1 node, 0 points. `layout_class` counts with another
    Layout class (a variant or a mutant engine) through the same walker.
    """
    if depth < 0:
        raise ValueError("depth must be >= 0")
    rules = _rules(rules_or_game)
    if depth == 0:
        start_layout(rules, from_placements, layout_class)  # still reject an illegal layout
        return PerftResult(1, 0)
    if jobs <= 1 and dask is None and progress is None:
        return PerftResult(*walk(start_layout(rules, from_placements, layout_class), depth))
    total = ZERO
    for _, result in iter_divide(rules, depth, from_placements, jobs, progress, dask=dask, layout_class=layout_class):
        total += result
    return total


def estimate_nodes(rules_or_game: GameRules | str, depth: int,
                   from_placements: Iterable[Placement | dict[str, Any]] | None = None) -> int:
    """A cheap estimate of `perft(...).nodes`, exact up to depth 2: the first two plies are
    counted and their branching factor extrapolated (for budgets, never for answers)."""
    rules = _rules(rules_or_game)
    layout = start_layout(rules, from_placements)
    if depth <= 0:
        return 1
    n1 = len(layout.moves())
    if depth == 1 or n1 == 0:
        return n1
    n2 = walk(layout, 2)[0]
    if depth == 2 or n2 == 0:
        return n2
    return int(n2 * max(n2 / n1, 1.0) ** (depth - 2))
