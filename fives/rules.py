"""Game parameters, read from spec/games/<game>.yaml (the one source of truth)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from . import paths
from .errors import UserError
from .tiles import MAX_PIP


@dataclass(frozen=True)
class GameRules:
    """Every rule parameter of one game, as written in its spec file."""

    id: str
    name: str
    seed: str
    solo_players: tuple[int, ...]
    partnership_players: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]
    hand_size: dict[int, int]
    display_divisor: int
    target_raw: dict[int, int]
    scoring_multiple: int
    zero_scores: bool
    spinner_policy: str  # "first-double" | "every-double"
    branches_require_both_lines: bool
    open_branch_side: str  # "one-half" | "zero"
    continuation: dict[str, Any]
    settlement: dict[str, Any]
    match_end: dict[str, Any]
    raw: dict[str, Any] = field(repr=False, compare=False)

    @property
    def has_continuation(self) -> bool:
        return bool(self.continuation.get("enabled"))

    def score(self, total: int) -> int:
        """Raw points for a counted sum: the sum itself if positive and a multiple of 5."""
        if total % self.scoring_multiple == 0 and (total > 0 or (self.zero_scores and total == 0)):
            return total
        return 0

    def display(self, raw_points: int) -> int:
        return raw_points // self.display_divisor

    def configurations(self) -> list[tuple[int, bool]]:
        """Every (players, partnerships) the document allows."""
        return [(n, False) for n in self.solo_players] + [(n, True) for n in self.partnership_players]


def _schema() -> dict[str, Any]:
    return json.loads((paths.SPEC_SCHEMAS / "game.schema.json").read_text(encoding="utf-8"))


def game_ids() -> list[str]:
    return sorted(p.stem for p in paths.GAMES.glob("*.yaml"))


@lru_cache(maxsize=None)
def load_rules(game: str) -> GameRules:
    """Load and validate `spec/games/<game>.yaml`; UserError for an unknown game."""
    path: Path = paths.GAMES / f"{game}.yaml"
    if not isinstance(game, str) or not path.is_file():
        raise UserError(f"unknown game {game!r}: one of {', '.join(game_ids())}")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    try:
        jsonschema.validate(data, _schema())
    except jsonschema.ValidationError as e:
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        raise UserError(f"{path}: {where}: {e.message}") from None
    if data["set"]["max_pip"] != MAX_PIP:
        raise UserError(f"{path}: only the double-six set (max_pip {MAX_PIP}) is supported")
    by_n = lambda d: {int(k): int(v) for k, v in d.items()}  # noqa: E731 - YAML keys may be int or str
    return GameRules(
        id=data["id"],
        name=data["name"],
        seed=data["seed"],
        solo_players=tuple(data["players"]["solo"]),
        partnership_players=tuple(data["players"]["partnerships"]["players"]),
        teams=tuple(tuple(t) for t in data["players"]["partnerships"]["teams"]),
        hand_size=by_n(data["deal"]["hand_size"]),
        display_divisor=data["points"]["display_divisor"],
        target_raw=by_n(data["target"]["raw"]),
        scoring_multiple=data["scoring"]["multiple"],
        zero_scores=data["scoring"]["zero_scores"],
        spinner_policy=data["spinners"]["policy"],
        branches_require_both_lines=data["spinners"]["branches_require_both_lines"],
        open_branch_side=data["counting"]["open_branch_side"],
        continuation=data["continuation"],
        settlement=data["settlement"],
        match_end=data["match_end"],
        raw=data,
    )
