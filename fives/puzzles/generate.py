"""Generating puzzle sets: random positions, targets with exactly one answer, z3 proofs.

A position is dealt by random legal play from a seeded `random.Random`; the brute-force
search lists every answer, a target met by exactly one of them is chosen, and z3 must
prove the same answer unique before the puzzle is kept. Same seed, same bytes.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

from fives.support.errors import UserError
from fives.layout import Layout
from fives.rules import GameRules, load_rules
from fives.tiles import ALL_TILES
from fives.puzzles import GENERATOR_VERSION
from fives.puzzles.brute import DEFAULT_BUDGET, Enumeration, TooLarge, enumerate_answers
from fives.puzzles.grade import LABELS, difficulty
from fives.puzzles.model import Problem, Puzzle, PuzzleSet
from fives.puzzles.space import canonical_placements
from fives.puzzles.themes import reachable, themes
from fives.puzzles.verify import replay

if TYPE_CHECKING:
    from fives.profiles import Profile

#: Size ranges per kind: (table tiles, hand tiles) for single and turn, tiles to place for build.
#: Row d is used for target difficulty d; row 0 when no difficulty is asked for.
SIZES: dict[str, dict[int, tuple[tuple[int, int], tuple[int, int]]]] = {
    "single": {0: ((2, 12), (2, 7)), 1: ((2, 5), (2, 3)), 2: ((3, 8), (2, 5)), 3: ((4, 12), (3, 7)),
               4: ((6, 14), (5, 7)), 5: ((8, 16), (6, 7))},
    "turn": {0: ((1, 10), (3, 7)), 1: ((1, 5), (2, 4)), 2: ((2, 8), (3, 5)), 3: ((3, 10), (4, 7)),
             4: ((4, 12), (5, 7)), 5: ((5, 12), (6, 7))},
    "build": {0: ((0, 0), (3, 7)), 1: ((0, 0), (3, 4)), 2: ((0, 0), (4, 5)), 3: ((0, 0), (5, 6)),
              4: ((0, 0), (6, 7)), 5: ((0, 0), (7, 8))},
}
MAX_ATTEMPTS = 400
KEYS_PER_POSITION = 6  # targets tried on one position before dealing another


def kinds_for(rules: GameRules) -> tuple[str, ...]:
    """`turn` needs a continuation rule (Horse Race has one, Sniff does not)."""
    return ("single", "turn", "build") if rules.has_continuation else ("single", "build")


def puzzle_seed(seed: int, game: str, kind: str, target_difficulty: int | None, index: int) -> int:
    text = f"{GENERATOR_VERSION}:{seed}:{game}:{kind}:{target_difficulty or 0}:{index}"
    return int(hashlib.sha256(text.encode()).hexdigest()[:12], 16)


def random_layout(rules: GameRules, rng: random.Random, n: int) -> Layout:
    """A table of up to `n` tiles dealt by random legal play (one distinct placement each step)."""
    layout = Layout(rules)
    left = set(ALL_TILES)
    for _ in range(n):
        moves = canonical_placements(layout, left)
        if not moves:
            break
        p = rng.choice(moves)
        layout.push(p)
        left.discard(p.tile)
    return layout


def _position(rules: GameRules, kind: str, rng: random.Random, sizes: tuple[tuple[int, int], tuple[int, int]]
              ) -> Problem | None:
    (lo_l, hi_l), (lo_h, hi_h) = sizes
    if kind == "build":
        table = random_layout(rules, rng, rng.randint(lo_h, hi_h))
        tiles = tuple(sorted(table.tiles))
        return Problem(rules.id, kind, (), tiles, (0,) * len(tiles), rules.profile)
    table = random_layout(rules, rng, rng.randint(lo_l, hi_l))
    rest = sorted(set(ALL_TILES) - set(table.tiles))
    hand_max = min(max(rules.hand_size.values()), hi_h, len(rest))
    hand = tuple(sorted(rng.sample(rest, rng.randint(min(lo_h, hand_max), hand_max))))
    if not canonical_placements(table, hand):
        return None
    return Problem(rules.id, kind, tuple(table.history()), hand, 0, rules.profile)


def _usable(kind: str, key: object, enum: Enumeration) -> bool:
    if enum.counts[key] != 1:
        return False
    if kind == "build":
        return any(key)  # type: ignore[arg-type]
    if kind == "turn":
        return key > 0 and len(enum.first[key][0]) >= 2  # type: ignore[operator]  # uses a continuation
    return key > 0  # type: ignore[operator]


def _with_target(p: Problem, key: object) -> Problem:
    return Problem(p.game, p.kind, p.layout, p.tiles, key, p.profile)  # type: ignore[arg-type]


@dataclass
class Stats:
    attempts: int = 0
    too_large: int = 0
    fallback: int = 0


def generate_one(rules: GameRules, kind: str, seed: int, target_difficulty: int | None,
                 stats: Stats | None = None, budget: int = DEFAULT_BUDGET, exclude: frozenset[str] = frozenset(),
                 theme: str | None = None) -> Puzzle:
    """One puzzle, its uniqueness proven by z3 and counted by brute force; with `theme`, only
    a puzzle carrying that theme tag is kept (a theme is never traded for a nearer grade)."""
    from fives.puzzles.z3model import PuzzleModel

    stats = stats or Stats()
    rng = random.Random(seed)
    sizes = SIZES[kind][target_difficulty or 0]
    nearest: tuple[float, Puzzle] | None = None
    for _ in range(MAX_ATTEMPTS):
        stats.attempts += 1
        base = _position(rules, kind, rng, sizes)
        if base is None:
            continue
        try:
            enum = enumerate_answers(base, budget)
        except TooLarge:
            stats.too_large += 1
            continue
        keys = sorted((k for k in enum.counts if _usable(kind, k, enum)), key=repr)
        rng.shuffle(keys)
        for key in keys[:KEYS_PER_POSITION]:
            problem = _with_target(base, key)
            if problem.puzzle_id() in exclude:
                continue
            solution, pts = enum.first[key]
            d = difficulty(problem, solution, enum)
            puzzle = Puzzle(problem, problem.puzzle_id(), solution, pts, d, themes(problem, solution, d.features), seed)
            if theme is not None and theme not in puzzle.themes:
                continue
            if target_difficulty is None or d.grade == target_difficulty:
                return _proven(puzzle, PuzzleModel)
            gap = abs(d.grade - target_difficulty)
            if nearest is None or gap < nearest[0]:
                nearest = (gap, puzzle)
    if nearest is None:
        tagged = f" with theme {theme!r}" if theme else ""
        raise UserError(f"could not generate a {kind} puzzle{tagged} for {rules.id} from seed {seed} "
                        f"in {MAX_ATTEMPTS} positions")
    stats.fallback += 1
    return _proven(nearest[1], PuzzleModel)


def _proven(puzzle: Puzzle, model: Callable) -> Puzzle:
    """Keep a puzzle only if the engine replays it and z3 proves the same answer unique."""
    if replay(puzzle.problem, puzzle.solution) != puzzle.solution_points:
        raise RuntimeError(f"{puzzle.id}: replay disagrees with the search")  # a bug, not bad input
    found = model(puzzle.problem).solve(limit=2)
    if [a for a, _ in found] != [puzzle.solution]:
        raise RuntimeError(f"{puzzle.id}: z3 finds {len(found)} answers where brute force finds one")
    return puzzle


def _rules(game: str, profile: Profile | None = None) -> GameRules:
    """`game`'s rules, under the profile of the set (--rules P) when it extends that game."""
    if profile is None:
        return load_rules(game)
    from fives.profiles import rules_under
    return rules_under(profile, game)


def plan(games: Iterable[str], kind: str | None, count: int, profile: Profile | None = None) -> list[tuple[str, str]]:
    """(game, kind) for each index: games in turn, each game's kinds in turn."""
    games = list(games)
    rules = {g: _rules(g, profile) for g in games}
    if kind is not None:
        for g in games:
            if kind not in kinds_for(rules[g]):
                raise UserError(f"{g} has no {kind} puzzles (continuation.enabled is false in spec/games/{g}.yaml); "
                                f"kinds for {g}: {', '.join(kinds_for(rules[g]))}")
    out = []
    for i in range(count):
        g = games[i % len(games)]
        ks = (kind,) if kind else kinds_for(rules[g])
        out.append((g, ks[(i // len(games)) % len(ks)]))
    return out


def themed_plan(games: list[str], kind: str | None, count: int, theme: str, profile: Profile | None = None) -> list[tuple[str, str]]:
    """Like `plan`, over only the (game, kind) pairs where `theme` can occur."""
    plan(games, kind, 0, profile)  # the same checks of --kind against the games
    pairs = [(g, k) for g in games for k in ((kind,) if kind else kinds_for(_rules(g, profile)))
             if reachable(theme, [g], k) is None]
    return [pairs[i % len(pairs)] for i in range(count)] if pairs else []


def _speculate(target_difficulty: int | None, theme: str | None, unit: tuple[str, str, int],
               profile: Profile | None = None) -> tuple[Puzzle, Stats]:
    """One puzzle made with no `exclude` set: a work unit for a worker (see generate_set)."""
    game, kind, seed = unit
    stats = Stats()
    return generate_one(_rules(game, profile), kind, seed, target_difficulty, stats, theme=theme), stats


def _add_stats(total: Stats, part: Stats) -> None:
    for f in dataclasses.fields(Stats):
        setattr(total, f.name, getattr(total, f.name) + getattr(part, f.name))


def generate_set(games: list[str], kind: str | None, count: int, seed: int, target_difficulty: int | None,
                 progress: Callable[[int], None] | None = None, stats: Stats | None = None,
                 theme: str | None = None, dask: str | None = None, profile: Profile | None = None) -> PuzzleSet:
    if target_difficulty is not None and target_difficulty not in LABELS:
        raise UserError(f"--difficulty must be one of {', '.join(map(str, LABELS))}, got {target_difficulty}")
    if theme is not None and (why := reachable(theme, games, kind)):
        raise UserError(why)
    stats = stats or Stats()
    if profile is not None and (profile.extends not in games or not profile.overrides):
        profile = None  # a profile of another game changes no puzzle of the set: the seeds' set
    jobs = plan(games, kind, count, profile) if theme is None else themed_plan(games, kind, count, theme, profile)
    kinds = tuple(sorted({k for _, k in jobs}, key=("single", "turn", "build").index))
    out = PuzzleSet(games=tuple(games), seed=seed, kinds=kinds, difficulty=target_difficulty, profile=profile)
    seen: set[str] = set()
    if dask is not None:
        # Each puzzle is made on the cluster as if nothing were excluded, then merged in order. A
        # puzzle whose ID is not already in the set is exactly what the sequential loop gives
        # (`exclude` only skips candidates, and the result was not one of them); the rare
        # repeat is made again here with the real exclusions. Same bytes as without --dask.
        from fives.support.distribute import map_ordered
        units = [(g, k, puzzle_seed(seed, g, k, target_difficulty, i)) for i, (g, k) in enumerate(jobs)]
        speculate = (functools.partial(_speculate, target_difficulty, theme) if profile is None
                     else functools.partial(_speculate, target_difficulty, theme, profile=profile))
        made = map_ordered(speculate, units, dask=dask)
        for (g, k, s), (pz, part) in zip(units, made):
            if pz.id in seen:
                pz = generate_one(_rules(g, profile), k, s, target_difficulty, stats, exclude=frozenset(seen), theme=theme)
            else:
                _add_stats(stats, part)
            seen.add(pz.id)
            out.puzzles.append(pz)
            if progress:
                progress(1)
        return out
    for i, (g, k) in enumerate(jobs):
        s = puzzle_seed(seed, g, k, target_difficulty, i)
        pz = generate_one(_rules(g, profile), k, s, target_difficulty, stats, exclude=frozenset(seen), theme=theme)
        seen.add(pz.id)
        out.puzzles.append(pz)
        if progress:
            progress(1)
    return out
