"""Checking a puzzle: replay through the engine, z3 uniqueness proof, brute-force count, grade."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fives.layout import IllegalPlacement, Placement
from fives.puzzles.brute import DEFAULT_BUDGET, TooLarge, count_solutions, enumerate_answers
from fives.puzzles.grade import difficulty
from fives.puzzles.model import Problem, Puzzle
from fives.puzzles.space import canonical_placements, grants_continuation, is_mirror, matches, points, start
from fives.puzzles.themes import themes  # noqa: F401 - re-exported: the generator and verify share one definition


class BadPuzzle(Exception):
    """A puzzle fails a check; the message says which and why."""


def replay(problem: Problem, solution: tuple[Placement, ...]) -> tuple[int, ...]:
    """Place the answer on the puzzle's table with the reference engine; its points per placement.

    Raises BadPuzzle if the answer is illegal, not in canonical (mirror) form, breaks the
    turn rules, leaves tiles over in a build, or misses the target.
    """
    rules = problem.rules
    try:
        layout = start(problem)
    except IllegalPlacement as e:
        raise BadPuzzle(f"layout placement {e.index}: {e.code}: {e.message}") from None
    left = set(problem.tiles)
    pts: list[int] = []
    raws: list[int] = []
    for i, p in enumerate(solution):
        if p.tile not in left:
            raise BadPuzzle(f"solution placement {i}: {p.tile} is not among the puzzle's tiles (or is placed twice)")
        if problem.kind == "turn" and i and not grants_continuation(rules, solution[i - 1].tile, raws[-1]):
            raise BadPuzzle(f"solution placement {i}: the turn ended after {solution[i - 1].tile}")
        if is_mirror(layout, p):
            raise BadPuzzle(f"solution placement {i}: {p.side} of {p.to} mirrors the open A side; write the A side")
        try:
            raw = layout.push(p)
        except IllegalPlacement as e:
            raise BadPuzzle(f"solution placement {i}: {e.code}: {e.message}") from None
        raws.append(raw)
        pts.append(points(rules, raw))
        left.discard(p.tile)
    if not solution:
        raise BadPuzzle("the solution is empty")
    if problem.kind == "single" and len(solution) != 1:
        raise BadPuzzle(f"a single puzzle's solution is one placement, not {len(solution)}")
    if problem.kind == "build" and left:
        raise BadPuzzle(f"the solution leaves {', '.join(map(str, sorted(left)))} unplaced")
    if (problem.kind == "turn" and left and grants_continuation(rules, solution[-1].tile, raws[-1])
            and canonical_placements(layout, left)):
        raise BadPuzzle("the turn is not over: the last placement gives a continuation and a placement is legal")
    if not matches(problem, tuple(pts)):
        raise BadPuzzle(f"the solution scores {list(pts)}, not the target {problem.target}")
    return tuple(pts)


@dataclass
class Report:
    brute: str  # "agrees" or "too large"
    brute_nodes: int | None


def check_set(data: dict[str, Any], puzzles: list[tuple[str, Puzzle]]) -> None:
    """The set-level checks: `count` is the number of puzzles, no puzzle is listed twice (an id
    is derived from the content, so a repeated id is a repeated puzzle), and the set's
    `games`/`kinds` cover its puzzles. BadPuzzle naming the first failure."""
    if data.get("count") != len(puzzles):
        raise BadPuzzle(f"count says {data.get('count')} but the set holds {len(puzzles)} puzzle{'' if len(puzzles) == 1 else 's'}")
    first: dict[str, str] = {}
    for label, pz in puzzles:
        if pz.id in first:
            raise BadPuzzle(f"{label} repeats {first[pz.id]}: a set lists each puzzle once")
        first[pz.id] = label
    for label, pz in puzzles:
        if pz.problem.game not in data.get("games", []):
            raise BadPuzzle(f"{label}: game {pz.problem.game} is not among the set's games")
        if pz.problem.kind not in data.get("kinds", []):
            raise BadPuzzle(f"{label}: kind {pz.problem.kind} is not among the set's kinds")


def check(puzzle: Puzzle, budget: int | None = DEFAULT_BUDGET, grade: bool = True,
          time_limit: float | None = None) -> Report:
    """Every check `fives puzzles verify` makes on one puzzle; BadPuzzle on the first failure.

    `budget`: brute-force nodes (past it the puzzle is "too large" for brute force and z3
    alone proves it); `time_limit`: seconds for z3 (past it, BadPuzzle: undecided)."""
    from fives.puzzles.z3model import OverBudget, PuzzleModel

    problem = puzzle.problem
    # the content's own problems first: an edited tile shows as an illegal solution, not only as
    # the id (a hash of the content) no longer matching
    pts = replay(problem, puzzle.solution)
    if pts != puzzle.solution_points:
        raise BadPuzzle(f"solution_points {list(puzzle.solution_points)} but the engine scores {list(pts)}")
    if puzzle.id != problem.puzzle_id():
        raise BadPuzzle(f"id {puzzle.id} does not match the content (expected {problem.puzzle_id()})")
    try:
        found = PuzzleModel(problem).solve(limit=2, time_limit=time_limit)
    except OverBudget as e:
        raise BadPuzzle(f"{e} (--time-limit): uniqueness is not proven") from None
    if len(found) != 1:
        raise BadPuzzle(f"z3 finds {len(found)} answers" + (", not exactly one" if found else ""))
    if found[0][0] != puzzle.solution:
        raise BadPuzzle(f"z3's unique answer {[str(p) for p in found[0][0]]} is not the stated solution")
    try:
        counted = count_solutions(problem, budget)
    except TooLarge:
        return Report("too large", None)
    if counted.count != 1:
        raise BadPuzzle(f"brute force counts {counted.count} answers; z3 proved exactly one")
    if grade:
        try:
            enum = enumerate_answers(problem, budget)
        except TooLarge:
            return Report("agrees", counted.nodes)
        d = difficulty(problem, puzzle.solution, enum)
        if d != puzzle.difficulty:
            raise BadPuzzle(f"difficulty is stated as {puzzle.difficulty.to_dict()} but measures {d.to_dict()}")
        t = themes(problem, puzzle.solution, d.features)
        if t != puzzle.themes:
            raise BadPuzzle(f"themes are stated as {list(puzzle.themes)} but the solution shows {list(t)}")
    return Report("agrees", counted.nodes)
