"""Difficulty: measurable features of a puzzle and the documented grade formula (spec/puzzles.md).

Every feature is computed from the reference engine and the brute-force search, so it is
the same on every machine and every run (z3's timings and statistics are not).
"""
from __future__ import annotations

import math

from fives.layout import Placement
from fives.puzzles.brute import Enumeration, count_solutions
from fives.puzzles.model import Difficulty, Problem
from fives.puzzles.space import canonical_placements, grants_continuation, points, start

LABELS = {1: "easy", 2: "moderate", 3: "tricky", 4: "hard", 5: "fiendish"}
#: Per kind, grade g is given when the score reaches THRESHOLDS[kind][g - 2] (grade 1 below
#: the first): the quintiles of the scores of generated puzzles of that kind (spec/puzzles.md).
THRESHOLDS = {"single": (1.5, 2.5, 3.5, 4.5), "turn": (2.5, 3.5, 4.75, 6.5), "build": (5.5, 7.25, 8.75, 10.25)}
WEIGHTS = {"placements": 0.5, "candidates": 1.0, "greedy_fails": 1.5, "near_misses": 0.25, "effort": 0.5}
NEAR_MISS_CAP = 8


def near_step(problem: Problem) -> int:
    """5 raw points in the puzzle's unit (5 for Sniff, 1 displayed point for Horse Race)."""
    r = problem.rules
    return max(1, r.scoring_multiple // r.display_divisor)


def near_misses(problem: Problem, enum: Enumeration) -> int:
    """Answers that miss the target by 5 raw points (in one placement, for build)."""
    d = near_step(problem)
    if problem.kind != "build":
        t = problem.target
        return enum.counts.get(t - d, 0) + enum.counts.get(t + d, 0)  # type: ignore[operator]
    target = tuple(problem.target)  # type: ignore[arg-type]
    total = 0
    for i, t in enumerate(target):
        for delta in (-d, d):
            if t + delta >= 0:
                total += enum.counts.get(target[:i] + (t + delta,) + target[i + 1:], 0)
    return total


def greedy(problem: Problem) -> tuple[Placement, ...] | None:
    """The greedy answer: the most points now (single, turn), or the first placement that
    scores the required points (build); None if greedy play cannot finish."""
    rules, layout = problem.rules, start(problem)
    left = set(problem.tiles)
    seq: list[Placement] = []
    while True:
        moves = canonical_placements(layout, left)
        if not moves:
            break
        if problem.kind == "build":
            want = problem.target[len(seq)]  # type: ignore[index]
            best = None
            for p in moves:
                pt = points(rules, layout.push(p))
                layout.pop()
                if pt == want:
                    best = p
                    break
            if best is None:
                return None
        else:
            scored = []
            for p in moves:
                scored.append((points(rules, layout.push(p)), p))
                layout.pop()
            best = max(scored, key=lambda s: s[0])[1]  # max keeps the first of equals
        raw = layout.push(best)
        seq.append(best)
        left.discard(best.tile)
        if problem.kind == "single":
            break
        if problem.kind == "turn" and not (left and grants_continuation(rules, best.tile, raw)):
            break
    if problem.kind == "build" and left:
        return None
    return tuple(seq)


def candidates(problem: Problem, solution: tuple[Placement, ...]) -> int:
    """The most distinct legal placements the solver faces at any step of the solution."""
    layout, left, most = start(problem), set(problem.tiles), 0
    for p in solution:
        most = max(most, len(canonical_placements(layout, left)))
        layout.push(p)
        left.discard(p.tile)
    return most


def features(problem: Problem, solution: tuple[Placement, ...], enum: Enumeration) -> dict[str, int]:
    return {
        "placements": len(solution),
        "candidates": candidates(problem, solution),
        "answers": enum.answers,
        "greedy_fails": int(greedy(problem) != solution),
        "near_misses": near_misses(problem, enum),
        "effort": count_solutions(problem, budget=None).nodes,
    }


def score(f: dict[str, int]) -> float:
    """The documented formula (spec/puzzles.md); every term grows with difficulty."""
    s = (WEIGHTS["placements"] * (f["placements"] - 1)
         + WEIGHTS["candidates"] * math.log2(max(1, f["candidates"]))
         + WEIGHTS["greedy_fails"] * f["greedy_fails"]
         + WEIGHTS["near_misses"] * min(f["near_misses"], NEAR_MISS_CAP)
         + WEIGHTS["effort"] * math.log2(max(1, f["effort"])))
    return round(s, 2)


def grade_of(kind: str, s: float) -> int:
    return 1 + sum(1 for t in THRESHOLDS[kind] if s >= t)


def difficulty(problem: Problem, solution: tuple[Placement, ...], enum: Enumeration) -> Difficulty:
    f = features(problem, solution, enum)
    s = score(f)
    g = grade_of(problem.kind, s)
    return Difficulty(g, LABELS[g], s, f)
