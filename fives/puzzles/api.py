"""The puzzles from Python: generate, load, verify and solve puzzle sets; list the themes.

The functions the `fives puzzles` commands call, with typed results:

    from fives.puzzles import api as puzzles

    pset = puzzles.generate("horse-race", count=20, seed=7, theme="branch")
    pset[0].kind, pset[0].target, pset[0].themes
    pset.save("set.yaml")        # the same bytes as `fives puzzles generate ... --out set.yaml`

It is a module of its own, not names on `fives.puzzles`, because `fives.puzzles.generate`,
`.verify` and `.themes` are already the modules that do the work (one name, one meaning).

Proofs need z3, an optional extra (`pip install 'fives[puzzles]'`); it is imported only
when a proof runs, and a missing z3 raises `MissingExtra`. `load`, `themes` and the result
types work without it.
"""
from __future__ import annotations

import dataclasses
import importlib.util
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, overload

from fives.layout import IllegalPlacement, Placement
from fives.puzzles import GENERATOR_VERSION
from fives.puzzles import model as _model
from fives.puzzles.brute import DEFAULT_BUDGET
from fives.puzzles.model import KINDS, Difficulty
from fives.puzzles.themes import THEMES, Theme, reachable
from fives.puzzles.model import Problem
from fives.puzzles.verify import BadPuzzle
from fives.profiles import Profile
from fives.rules import game_ids
from fives.support.errors import UserError
from fives.tiles import Tile

__all__ = ["Answer", "BadPuzzle", "Check", "DEFAULT_BUDGET", "DEFAULT_TIME_LIMIT", "Difficulty", "KINDS",
           "MissingExtra", "Problem", "Profile", "Puzzle", "PuzzleSet", "Solved", "Theme", "generate", "load",
           "solve", "themes", "verify", "verify_each"]

#: Seconds z3 may spend on one puzzle by default (as `--time-limit` of solve and verify).
DEFAULT_TIME_LIMIT = 60.0
Order = Literal["generated", "difficulty"]


class MissingExtra(UserError):
    """An optional dependency is not installed; the message names the extra that brings it."""


def require_z3(needs: str = "puzzle proofs need") -> None:
    """Raise `MissingExtra` unless z3 can be imported (without importing it: it is heavy).

    `needs` starts the message: the commands name themselves ("fives puzzles verify needs")."""
    if importlib.util.find_spec("z3") is None:
        raise MissingExtra(f"{needs} the z3 solver, which is not installed: pip install 'fives[puzzles]'")


def _recorded(profile: Profile | None) -> Profile | None:
    """The profile as a set file records it (name, game, overrides, digest): a profile loaded from
    a file also carries its `source` text, which a set does not keep, so a saved and loaded set
    equals the generated one."""
    return None if profile is None else dataclasses.replace(profile, source="")


@dataclass(frozen=True)
class Puzzle:
    """One puzzle with its unique answer, as a puzzle set file holds it (spec/puzzles.md).

    `tiles` is the hand for `single` and `turn` puzzles and the tiles to place for `build`;
    `target` is points in the game's unit (`unit`): one number, or one per placement for
    `build`. `solution_points` is what each placement of `solution` scores in that unit.
    `profile` is the rule profile the puzzle is posed under (its set's `--rules P` when P
    extends its game), None for the seeds' rules.
    """

    id: str
    game: str
    kind: str
    layout: tuple[Placement, ...]
    tiles: tuple[Tile, ...]
    target: int | tuple[int, ...]
    solution: tuple[Placement, ...]
    solution_points: tuple[int, ...]
    difficulty: Difficulty
    themes: tuple[str, ...]
    seed: int
    generator: str = GENERATOR_VERSION
    profile: Profile | None = None

    @property
    def hand(self) -> tuple[Tile, ...]:
        """The hand of a `single` or `turn` puzzle; empty for `build`."""
        return () if self.kind == "build" else self.tiles

    @property
    def grade(self) -> int:
        """The difficulty grade, 1 (easy) to 5 (fiendish)."""
        return self.difficulty.grade

    @property
    def unit(self) -> str:
        """`raw` (American Sniff) or `displayed` (Horse Race: raw points / 5)."""
        return str(self._record().problem.rules.raw["points"]["unit"])

    @property
    def distinct(self) -> str:
        """What counts as a distinct answer for this kind, as every puzzle states it."""
        return _model.DISTINCT[self.kind]

    def to_dict(self) -> dict[str, Any]:
        """The puzzle's record in a set file."""
        return self._record().to_dict()

    def _record(self) -> _model.Puzzle:
        problem = _model.Problem(self.game, self.kind, self.layout, self.tiles, self.target, self.profile)
        return _model.Puzzle(problem, self.id, self.solution, self.solution_points, self.difficulty, self.themes,
                             self.seed, self.generator)

    @classmethod
    def _of(cls, p: _model.Puzzle) -> Puzzle:
        q = p.problem
        return cls(p.id, q.game, q.kind, q.layout, q.tiles, q.target, p.solution, p.solution_points, p.difficulty,
                   p.themes, p.seed, p.generator, _recorded(q.profile))


@dataclass(frozen=True)
class PuzzleSet(Sequence[Puzzle]):
    """A puzzle set: its puzzles in file order, and what it was generated from.

    It is a sequence of `Puzzle`; `dumps()` is the file text and `save(path)` writes it.
    `profile` is the rule profile the set records (`rules`: made with `--rules P`), else None;
    a loaded set keeps it, so `load(path).save(other)` writes the same bytes.
    """

    games: tuple[str, ...]
    seed: int
    kinds: tuple[str, ...]
    difficulty: int | None
    puzzles: tuple[Puzzle, ...]
    #: puzzles that could not reach `difficulty` and took the nearest grade (`generate` only)
    fallback: int = 0
    profile: Profile | None = None
    #: the file's name as messages give it (`load` only; `<stdin>` for `-`)
    file: str | None = field(default=None, compare=False)

    def __len__(self) -> int:
        return len(self.puzzles)

    def __iter__(self) -> Iterator[Puzzle]:
        return iter(self.puzzles)

    @overload
    def __getitem__(self, index: int) -> Puzzle: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Puzzle]: ...

    def __getitem__(self, index: int | slice) -> Puzzle | Sequence[Puzzle]:
        return self.puzzles[index]

    def to_dict(self) -> dict[str, Any]:
        """The set file's content."""
        out = _model.PuzzleSet(self.games, self.seed, [p._record() for p in self.puzzles], self.kinds,
                               self.difficulty, self.profile)
        return out.to_dict()

    def dumps(self, json: bool = False) -> str:
        """The file text: YAML, or indented JSON with `json=True`."""
        return _model.dumps(self.to_dict(), json)

    def save(self, path: str | os.PathLike[str], json: bool | None = None) -> None:
        """Write the set atomically; JSON if `json` is true, or if it is None and `path` ends in `.json`."""
        as_json = str(path).endswith(".json") if json is None else json
        from fives.support.writing import write_output

        write_output(self.dumps(as_json), Path(path))


@dataclass(frozen=True)
class Answer:
    """One answer found by the solver: its placements and the points of each, in the puzzle's unit."""

    placements: tuple[Placement, ...]
    points: tuple[int, ...]


@dataclass(frozen=True)
class Solved:
    """What z3 found for one puzzle (`solve`).

    `unique` is True when there is exactly one answer, False when there are none or several,
    None when z3 did not decide in time (`undecided` then says why). `answers` holds at most
    `limit` answers; `complete` is False when the search stopped at that limit.
    """

    id: str | None
    answers: tuple[Answer, ...]
    unique: bool | None
    complete: bool
    undecided: str | None = None


@dataclass(frozen=True)
class Check:
    """One puzzle's verification (`verify`): `ok`, or the first check it fails (`reason`).

    `brute` is `"agrees"` when the brute-force count confirmed z3, `"too large"` when the
    puzzle is past the brute-force budget (z3 alone proved it), None when a check failed first.
    """

    id: str
    ok: bool
    reason: str | None = None
    brute: str | None = None
    brute_nodes: int | None = None


def generate(game: str | Sequence[str], count: int, seed: int, *, kind: str | None = None,
             difficulty: int | None = None, theme: str | None = None, order: Order = "generated",
             progress: Callable[[int], None] | None = None, dask: str | None = None,
             profile: Profile | None = None) -> PuzzleSet:
    """`count` puzzles, each proven unique by z3 and counted by brute force.

    As `fives puzzles generate`: `game` is a game id or several (the set mixes them in turn),
    `kind` one of `KINDS` (None: each game's kinds in turn), `difficulty` a target grade 1-5,
    `theme` a theme tag every puzzle must carry (see `themes()`), `order="difficulty"` sorts
    by grade then score. The same arguments give the same puzzles, and `.dumps()` the same
    bytes as the command. `progress(n)` is called as puzzles are made; `dask` is a cluster
    address (`"local:2"`), as `--dask`; `profile` a rule profile (`fives.profiles.load_profile`),
    as `--rules`: the puzzles of its game are posed and solved under it, and the set records it.

    Raises `fives.UserError` for a bad argument (unknown game, kind or theme, a theme the
    games and kind cannot show) and `MissingExtra` without z3.
    """
    games = _generate_games(game, count, seed, kind, difficulty, order)
    if theme is not None and (why := reachable(theme, list(games), kind)):
        raise UserError(why)
    require_z3()
    from fives.puzzles.generate import Stats, generate_set

    stats = Stats()
    made = generate_set(list(games), kind, count, seed, difficulty, progress=progress, stats=stats, theme=theme,
                        dask=dask, profile=profile)
    if order == "difficulty":  # as the command's --order difficulty: stable
        made.puzzles.sort(key=lambda p: (p.difficulty.grade, p.difficulty.score))
    return PuzzleSet(made.games, made.seed, made.kinds, made.difficulty,
                     tuple(Puzzle._of(p) for p in made.puzzles), stats.fallback, _recorded(made.profile))


def _generate_games(game: str | Sequence[str], count: int, seed: int, kind: str | None, difficulty: int | None,
                    order: str) -> tuple[str, ...]:
    """The games of a `generate` call, its arguments checked (UserError naming the bad one)."""
    games = (game,) if isinstance(game, str) else tuple(game)
    if not games:
        raise UserError("generate: no game given; one of " + ", ".join(game_ids()))
    if len(set(games)) != len(games):
        raise UserError("generate: a game is given twice")
    for name, value in (("count", count), ("seed", seed)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise UserError(f"generate: {name} must be a whole number >= 0, got {value!r}")
    if kind is not None and kind not in KINDS:
        raise UserError(f"generate: unknown kind {kind!r}: one of {', '.join(KINDS)}")
    if difficulty is not None and difficulty not in range(1, 6):
        raise UserError(f"generate: difficulty must be 1 to 5, got {difficulty!r}")
    if order not in ("generated", "difficulty"):
        raise UserError(f"generate: order must be 'generated' or 'difficulty', got {order!r}")
    return games


def load(path: str | os.PathLike[str]) -> PuzzleSet:
    """A puzzle set file (YAML or JSON), validated against spec/schema/puzzles.schema.json.

    Raises `fives.UserError` naming the file and the puzzle for a malformed file. The
    answers are not re-proven: that is `verify`. The set keeps the rule profile it records,
    and `file` is its name as messages give it (`<stdin>` for `-`).
    """
    return _loaded(*_model.load_set(str(path)))


def _loaded(data: dict[str, Any], puzzles: list[tuple[str, _model.Puzzle]], name: str) -> PuzzleSet:
    return PuzzleSet(tuple(data["games"]), int(data["seed"]), tuple(data["kinds"]), data.get("difficulty"),
                     tuple(Puzzle._of(p) for _, p in puzzles), 0, _recorded(_model.set_profile(data, name)), name)


def verify(puzzles: PuzzleSet | Puzzle | Iterable[Puzzle] | str | os.PathLike[str], *,
           budget: int = DEFAULT_BUDGET, grade: bool = True,
           time_limit: float = DEFAULT_TIME_LIMIT) -> list[Check]:
    """Re-prove puzzles as `fives puzzles verify` does: the id matches the content, the
    solution replays through the engine with the stated points, z3 proves it the unique
    answer, brute force counts one (within `budget` nodes) and, with `grade`, the difficulty
    and themes are what they measure. Each puzzle is checked under its rule profile.

    `puzzles` is a set, a path to a set file, one puzzle or any iterable of puzzles. A set's
    own checks (its count, no puzzle twice, games and kinds covering its puzzles) raise
    `BadPuzzle`; each puzzle's result is a `Check`, in order. `MissingExtra` without z3.
    """
    return list(verify_each(puzzles, budget=budget, grade=grade, time_limit=time_limit))


def verify_each(puzzles: PuzzleSet | Puzzle | Iterable[Puzzle] | str | os.PathLike[str], *,
                budget: int = DEFAULT_BUDGET, grade: bool = True,
                time_limit: float = DEFAULT_TIME_LIMIT,
                loaded: Callable[[PuzzleSet], None] | None = None) -> Iterator[Check]:
    """`verify`, one `Check` at a time as each puzzle is proven (so a caller can stop at the
    first failure). z3's presence and the set's own checks come before the first; for a file,
    `loaded(set)` is called once it is read, before those checks (`fives puzzles verify`
    refuses a set made under other rules there)."""
    require_z3()
    from fives.puzzles.verify import check_set

    if isinstance(puzzles, (str, os.PathLike)):
        data, labelled, name = _model.load_set(str(puzzles))
        if loaded is not None:
            loaded(_loaded(data, labelled, name))
        try:
            check_set(data, labelled)
        except BadPuzzle as e:
            raise BadPuzzle(f"{name}: {e}") from None
        records = [p for _, p in labelled]
    else:
        items = (puzzles,) if isinstance(puzzles, Puzzle) else tuple(puzzles)
        records = [p._record() for p in items]
        if isinstance(puzzles, PuzzleSet):
            check_set({"count": len(records), "games": list(puzzles.games), "kinds": list(puzzles.kinds)},
                      [(f"puzzle {i} ({p.id})", p) for i, p in enumerate(records, 1)])
    return _checks(records, budget, grade, time_limit)


def _checks(records: list[_model.Puzzle], budget: int, grade: bool, time_limit: float) -> Iterator[Check]:
    from fives.puzzles.verify import check

    for record in records:
        try:
            report = check(record, budget, grade=grade, time_limit=time_limit)
        except BadPuzzle as e:
            yield Check(record.id, False, str(e))
        else:
            yield Check(record.id, True, None, report.brute, report.brute_nodes)


def solve(puzzle: Puzzle | Problem | Mapping[str, Any], *, limit: int = 10, time_limit: float = DEFAULT_TIME_LIMIT,
          name: str | None = None) -> Solved:
    """Every answer z3 finds to one puzzle, up to `limit` (a stated solution is ignored).

    `puzzle` is a `Puzzle`, a `Problem` (the position and question only, as
    `fives.puzzles.model.load_problems` reads a file) or a puzzle record as a set file holds
    it, where only the problem is needed (game, kind, layout, hand or tiles, target), as
    `fives puzzles solve` reads hand-written puzzles. Raises `fives.UserError` for a malformed
    record or an illegal layout, named `name` (default: the puzzle's id), `MissingExtra`
    without z3.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise UserError(f"solve: limit must be a whole number >= 1, got {limit!r}")
    require_z3()
    from fives.puzzles.z3model import OverBudget, PuzzleModel

    pid, problem = _problem_of(puzzle)
    try:
        found = PuzzleModel(problem).solve(limit, time_limit)
    except OverBudget as e:
        return Solved(pid, (), None, False, str(e))
    except IllegalPlacement as e:
        raise UserError(f"{name or pid or 'puzzle'}: layout placement {e.index}: {e.code}: {e.message}") from None
    answers = tuple(Answer(placements, points) for placements, points in found)
    return Solved(pid, answers, len(answers) == 1, len(answers) < limit)


def _problem_of(puzzle: Puzzle | Problem | Mapping[str, Any]) -> tuple[str | None, Problem]:
    """(id or None, problem) of what `solve` is given."""
    if isinstance(puzzle, Puzzle):
        return puzzle.id, puzzle._record().problem
    if isinstance(puzzle, Problem):
        return None, puzzle
    pid = puzzle.get("id") if isinstance(puzzle.get("id"), str) else None
    label = "puzzle" + (f" {pid}" if pid else "")
    record = dict(puzzle)
    _model._validate(record, label, "#/$defs/problem")
    return pid, _model.problem_from_dict(record, label)


def themes(game: str | None = None, kind: str | None = None) -> list[Theme]:
    """The theme tags (spec/puzzles.md, "Themes") in the documented order; with `game` or
    `kind`, only those that can occur in such puzzles. Each `Theme` has `name`, `meaning`,
    the `games` and `kinds` it can occur in, and `why_not` (why it cannot elsewhere)."""
    if kind is not None and kind not in KINDS:
        raise UserError(f"themes: unknown kind {kind!r}: one of {', '.join(KINDS)}")
    games = [game] if game is not None else list(game_ids())
    if game is not None and game not in game_ids():
        raise UserError(f"themes: unknown game {game!r}: one of {', '.join(game_ids())}")
    return [t for t in THEMES.values() if reachable(t.name, games, kind) is None]
