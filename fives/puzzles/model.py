"""Puzzle values and the puzzle-set file (YAML or JSON, validated by spec/schema/puzzles.schema.json)."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema
import yaml

from fives.support import paths
from fives.support.errors import UserError
from fives.evaluation import parse_placement
from fives.layout import IllegalPlacement, Placement
from fives.rules import GameRules, load_rules
from fives.tiles import Tile, parse_tile
from fives.puzzles import GENERATOR_VERSION

if TYPE_CHECKING:
    from fives.profiles import Profile

FORMAT = "fives-puzzles/1"
KINDS = ("single", "turn", "build")

#: What counts as a distinct answer, stated in every puzzle (spec/puzzles.md, "Distinct answers").
DISTINCT = {
    "single": ("a placement is its tile, the tile it joins and the side; placing on branch B while "
               "branch A of the same spinner is open, or on line B of an opening double while its "
               "line A is open, is the mirror image of the A side and the same answer"),
    "turn": ("an answer is the whole ordered sequence of placements of one turn, each a tile, the "
             "tile it joins and the side (mirror sides as for single); the turn continues after a "
             "double or a scoring tile from hand and ends after a tile that is neither, when the "
             "hand is empty or when no placement is legal (the boneyard is empty); the player's "
             "score is far from the target"),
    "build": ("an answer is the whole ordered sequence of placements of all the tiles from an "
              "empty table, the first being the opening (mirror sides as for single)"),
}


@dataclass(frozen=True)
class Problem:
    """What a solver needs: the position and the question, no answer."""

    game: str
    kind: str
    layout: tuple[Placement, ...]  # the table before the puzzle (empty for build)
    tiles: tuple[Tile, ...]  # the hand (single, turn) or the tiles to place (build), sorted
    target: int | tuple[int, ...]  # points in the game's unit; a sequence for build
    #: the rule profile (fives.profiles.Profile) the puzzle is posed under; None: the seeds' rules
    profile: Profile | None = field(default=None, compare=False)

    @property
    def rules(self) -> GameRules:
        if self.profile is None:
            return load_rules(self.game)
        from fives.profiles import rules_under
        return rules_under(self.profile, self.game)

    def targets_key(self) -> object:
        return tuple(self.target) if isinstance(self.target, tuple) else self.target

    def content(self) -> dict[str, Any]:
        """The canonical content the puzzle id is derived from."""
        d: dict[str, Any] = {"game": self.game, "kind": self.kind,
                             "layout": [p.to_dict() for p in self.layout]}
        d["tiles" if self.kind == "build" else "hand"] = [str(t) for t in self.tiles]
        d["target"] = list(self.target) if isinstance(self.target, tuple) else self.target
        return d

    def puzzle_id(self) -> str:
        text = json.dumps(self.content(), sort_keys=True, separators=(",", ":"))
        initials = "".join(w[0] for w in self.game.split("-")).upper()
        return f"{initials}-{self.kind[0].upper()}-{hashlib.sha256(text.encode()).hexdigest()[:10]}"


@dataclass(frozen=True)
class Difficulty:
    grade: int  # 1..5
    label: str
    score: float
    features: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {"grade": self.grade, "label": self.label, "score": self.score,
                "features": dict(self.features)}


@dataclass(frozen=True)
class Puzzle:
    problem: Problem
    id: str
    solution: tuple[Placement, ...]
    solution_points: tuple[int, ...]
    difficulty: Difficulty
    themes: tuple[str, ...]
    seed: int
    generator: str = GENERATOR_VERSION

    def to_dict(self) -> dict[str, Any]:
        p = self.problem
        d: dict[str, Any] = {"id": self.id, "game": p.game, "kind": p.kind,
                             "unit": p.rules.raw["points"]["unit"], "distinct": DISTINCT[p.kind],
                             "layout": [_flow(x.to_dict()) for x in p.layout]}
        if p.kind == "build":
            d["tiles"] = _flow([str(t) for t in p.tiles])
        else:
            d["hand"] = _flow([str(t) for t in p.tiles])
        if p.kind == "turn":
            d["boneyard"] = _flow([])
        d["target"] = _flow(list(p.target)) if isinstance(p.target, tuple) else p.target
        d["solution"] = [_flow(x.to_dict()) for x in self.solution]
        d["solution_points"] = _flow(list(self.solution_points))
        diff = self.difficulty.to_dict()
        diff["features"] = _flow(diff["features"])
        d["difficulty"] = diff
        d["themes"] = _flow(list(self.themes))
        d["generator"] = self.generator
        d["seed"] = self.seed
        return d


@dataclass
class PuzzleSet:
    games: tuple[str, ...]
    seed: int
    puzzles: list[Puzzle] = field(default_factory=list)
    kinds: tuple[str, ...] = ()
    difficulty: int | None = None
    profile: Profile | None = None  # --rules P: recorded only when given

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"format": FORMAT, "generator": GENERATOR_VERSION, "games": _flow(list(self.games)),
                             "seed": self.seed, "kinds": _flow(list(self.kinds))}
        if self.difficulty is not None:
            d["difficulty"] = self.difficulty
        if self.profile is not None:
            p = self.profile
            d["rules"] = {"name": p.name, "extends": p.extends, "digest": p.digest,
                          "overrides": _flow({k: p.overrides[k] for k in sorted(p.overrides)})}
        d["count"] = len(self.puzzles)
        d["puzzles"] = [p.to_dict() for p in self.puzzles]
        return d


# -- writing ---------------------------------------------------------------------------
class _Flow(dict):
    pass


class _FlowList(list):
    pass


def _flow(x: Any) -> Any:
    return _FlowList(x) if isinstance(x, list) else _Flow(x)


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Flow, lambda d, v: d.represent_mapping("tag:yaml.org,2002:map", v.items(), flow_style=True))
_Dumper.add_representer(_FlowList, lambda d, v: d.represent_sequence("tag:yaml.org,2002:seq", v, flow_style=True))


def dumps(data: dict[str, Any], as_json: bool = False) -> str:
    """The file text: YAML (block style, placements in flow style) or indented JSON."""
    if as_json:
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110)


# -- reading ---------------------------------------------------------------------------
@lru_cache(maxsize=None)
def schema() -> dict[str, Any]:
    return json.loads((paths.SPEC_SCHEMAS / "puzzles.schema.json").read_text(encoding="utf-8"))


def _validate(data: Any, name: str, ref: str) -> None:
    s = schema()
    sub = {"$schema": s["$schema"], "$defs": s["$defs"], "$ref": ref} if ref != "#" else s
    validator = jsonschema.Draft202012Validator(sub)
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        e = jsonschema.exceptions.best_match(errors)
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        raise UserError(f"{name}: schema violation at {where}: {e.message}")


def _tile(text: str, where: str) -> Tile:
    try:
        return parse_tile(text)
    except ValueError as e:
        raise UserError(f"{where}: {e}") from None


def _placements(records: list[Any], where: str) -> tuple[Placement, ...]:
    out = []
    for i, rec in enumerate(records):
        try:
            out.append(parse_placement(rec, i))
        except IllegalPlacement as e:
            raise UserError(f"{where} {i}: {e.message}") from None
    return tuple(out)


def set_profile(data: Any, name: str) -> Profile | None:
    """The rule profile a puzzle set records (`rules`), or None; UserError for a bad entry."""
    recorded = data.get("rules") if isinstance(data, dict) else None
    from fives.profiles import recorded_profile

    return recorded_profile(recorded, name)


def problem_from_dict(d: dict[str, Any], where: str, profile: Profile | None = None) -> Problem:
    game, kind = d["game"], d["kind"]
    profile = profile if profile is not None and profile.extends == game and profile.overrides else None
    try:
        rules = Problem(game, kind, (), (), 0, profile).rules
    except UserError as e:  # an unknown game (a typo): named by the file and the puzzle
        raise UserError(f"{where}: {e}") from None
    if kind == "turn" and not rules.has_continuation:
        raise UserError(f"{where}: {game} has no continuation rule, so it has no turn puzzles")
    layout = _placements(d.get("layout", []), f"{where}: layout placement")
    tiles = tuple(sorted(_tile(t, f"{where}: tile") for t in d["tiles" if kind == "build" else "hand"]))
    if len(set(tiles)) != len(tiles):
        raise UserError(f"{where}: a tile is listed twice")
    placed = {p.tile for p in layout}
    twice = sorted(set(tiles) & placed)
    if twice:
        raise UserError(f"{where}: {twice[0]} is both on the table and to be placed")
    if kind == "build" and layout:
        raise UserError(f"{where}: a build puzzle starts from an empty table")
    target = tuple(d["target"]) if kind == "build" else d["target"]
    if kind == "build" and len(target) != len(tiles):
        raise UserError(f"{where}: the target has {len(target)} points but there are {len(tiles)} tiles")
    return Problem(game, kind, layout, tiles, target, profile)


def puzzle_from_dict(d: dict[str, Any], where: str, profile: Profile | None = None) -> Puzzle:
    problem = problem_from_dict(d, where, profile)
    diff = d["difficulty"]
    return Puzzle(problem=problem, id=d["id"],
                  solution=_placements(d["solution"], f"{where}: solution placement"),
                  solution_points=tuple(d["solution_points"]),
                  difficulty=Difficulty(diff["grade"], diff["label"], diff["score"], dict(diff["features"])),
                  themes=tuple(d["themes"]), seed=d["seed"], generator=d["generator"])


def load_problems(path: str | Path) -> tuple[list[tuple[str, Problem, dict[str, Any]]], str]:
    """Puzzles of a file as problems (answers optional): [(label, problem, record)], file name.

    Accepts a puzzle set or a bare list of puzzle records (for `solve` on hand-written puzzles).
    """
    from fives.support.reading import load_data

    data, name = load_data(path)
    records = data.get("puzzles") if isinstance(data, dict) else data
    if isinstance(data, dict) and data.get("format") not in (None, FORMAT):
        raise UserError(f"{name}: format {data.get('format')!r} is not {FORMAT}")
    if not isinstance(records, list):
        raise UserError(f"{name}: expected a puzzle set ({{format: {FORMAT}, puzzles: [...]}}) or a list of puzzles")
    out = []
    profile = set_profile(data, name)
    for i, rec in enumerate(records):
        label = f"puzzle {i + 1}" + (f" ({rec['id']})" if isinstance(rec, dict) and isinstance(rec.get("id"), str) else "")
        _validate(rec, f"{name}: {label}", "#/$defs/problem")
        out.append((label, problem_from_dict(rec, f"{name}: {label}", profile), rec))
    return out, name


def load_set(path: str | Path) -> tuple[dict[str, Any], list[tuple[str, Puzzle]], str]:
    """A whole puzzle set, schema-validated: (set record, [(label, puzzle)], file name)."""
    from fives.support.reading import load_data

    data, name = load_data(path)
    _validate(data, name, "#")
    out = []
    profile = set_profile(data, name)
    for i, rec in enumerate(data["puzzles"]):
        label = f"puzzle {i + 1} ({rec['id']})"  # numbered from 1 in every message, as a reader counts
        out.append((label, puzzle_from_dict(rec, f"{name}: {label}", profile)))
    return data, out, name
