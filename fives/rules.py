"""Game parameters, read from spec/games/<game>.yaml (the one source of truth)."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fives.support import paths, schema_memo
from fives.support.errors import UserError
from fives.tiles import ALL_TILES, MAX_PIP, Tile, parse_tile

if TYPE_CHECKING:
    from fives.profiles import Profile


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
    spinner_policy: str  # "first-double" | "every-double" | "none" | "opening-double"
    branches_require_both_lines: bool
    open_branch_side: str  # "one-half" | "zero"
    continuation: dict[str, Any]
    settlement: dict[str, Any]
    match_end: dict[str, Any]
    lead: dict[str, str]  # first_hand, after_gone_out, after_blocked (SN-LEAD-*, HR-LEAD-*)
    opening_requires: str  # "any" | "double" | "scoring" | "highest-double" | "double-or-scoring" | "fixed-order" (if held)
    opening_scope: str  # "every-hand" | "first-hand": the hands opening_requires binds
    opening_order: tuple[Tile, ...]  # earliest first: read by opening.requires fixed-order, lead.first_hand opening-order
    boneyard_reserve: dict[int, int]  # by players: boneyard tiles that are never drawn
    blocked_after: str  # "no-placement" (at once) | "round-of-passes"
    draw_while_playable: bool  # a variant: a seat holding a playable tile may still draw (SN-DRAW-1, HR-DRAW-1)
    draw_limit: int  # a variant: the most tiles drawn in one turn (0: no limit; SN-DRAW-2, HR-DRAW-2)
    raw: dict[str, Any] = field(repr=False, compare=False)
    #: the fives.profiles.Profile these rules were built under; None for the plain game
    profile: Profile | None = field(default=None, repr=False, compare=False)

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

    def layout_cap(self, players: int) -> int:
        """The most tiles a layout can hold in a hand of `players`: the hand ends when one seat
        goes out, so every other seat still holds a tile, and the boneyard's reserve is never drawn."""
        return len(ALL_TILES) - (players - 1) - self.boneyard_reserve.get(players, 0) - self.dead_tiles(players)

    def dead_tiles(self, players: int) -> int:
        """`deal.dead`: tiles set aside at the deal, face down (never drawn, in no boneyard and
        nobody's at the hand's end); 0 in the seeds. Read from the document, not a field, so the
        rules' constructor (whose mutants the suite's kill list numbers) is unchanged."""
        dead = self.raw.get("deal", {}).get("dead", {})
        return int(dead.get(players, dead.get(str(players), 0)))

    @property
    def most_tiles_laid(self) -> int:
        """The most tiles any layout reached by play holds (the largest `layout_cap` over the
        configurations the document allows): 27 of the 28 in both games."""
        return max(self.layout_cap(n) for n, _ in self.configurations())



def game_ids() -> list[str]:
    return sorted(_game_files(paths.GAMES))


@lru_cache(maxsize=4)
def _game_files(folder: Path) -> dict[str, Path]:
    """Game id -> its spec file, from a listing of spec/games (never from a joined name)."""
    return {p.stem: p for p in folder.glob("*.yaml") if p.is_file()}


def load_rules(game: object) -> GameRules:
    """Load and validate the spec file of `game`; UserError for anything but a known game id.

    The id is looked up among the files of spec/games, never joined into a path, so a request
    field like "../../x" or a list is an unknown game, not a file read."""
    files = _game_files(paths.GAMES)
    if not isinstance(game, str):
        raise UserError(f"a game id is a string, not {type(game).__name__}: "
                        f"one of {', '.join(sorted(files))}")
    if game not in files:
        from fives.support.sanitize import quote

        from fives.support.suggest import did_you_mean

        raise UserError(f"unknown game {quote(game)}{did_you_mean(game, files)}: one of {', '.join(sorted(files))}")
    return _load_rules(files[game])


def game_data(game: str) -> dict[str, Any]:
    """The parsed spec file of a known game id (a fresh copy: callers may change it)."""
    import copy

    return copy.deepcopy(load_rules(game).raw)


@lru_cache(maxsize=None)
def _load_rules(path: Path) -> GameRules:
    from fives.support.reading import parse_yaml

    text = path.read_text(encoding="utf-8")
    data = parse_yaml(text, str(path))
    # jsonschema costs ~40 ms to import: validate a given file's bytes once, then remember it
    schema_bytes = (paths.SPEC_SCHEMAS / "game.schema.json").read_bytes()
    if not schema_memo.known_valid(schema_bytes, text.encode("utf-8")):
        _check_game_data(data, str(path))
        schema_memo.remember_valid(schema_bytes, text.encode("utf-8"))
    check_deal(data, str(path))
    return build_rules(data, str(path))


def validate_game_data(data: dict[str, Any], name: str) -> None:
    """UserError (one line naming `name`) unless `data` is a valid game parameter document
    (a run builds the rules of a hundred profiles: schema_memo.check remembers each document
    that passed, and validates the others through one validator per process)."""
    _check_game_data(data, name, schema_memo.check)


def _check_game_data(data: dict[str, Any], name: str, check: Any = schema_memo.first_error) -> None:
    e = check(paths.SPEC_SCHEMAS / "game.schema.json", data)
    if e is not None:
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        raise UserError(f"{name}: {where}: {e.message}") from None


def check_deal(data: dict[str, Any], name: str) -> None:
    """UserError when hands, the never-drawn reserve and the tiles set aside (`deal.dead`)
    need more tiles than the set holds."""
    def by_n(d: dict[Any, Any]) -> dict[int, int]:
        return {int(k): int(v) for k, v in d.items()}
    reserve, dead = by_n(data["deal"].get("reserve", {})), by_n(data["deal"].get("dead", {}))
    for n, h in by_n(data["deal"]["hand_size"]).items():
        if dead.get(n, 0) and n * h + reserve.get(n, 0) + dead[n] > data["set"]["tiles"]:
            raise UserError(f"{name}: deal/dead: {n} players of {h} tiles, a reserve of {reserve.get(n, 0)} and "
                            f"{dead[n]} tiles set aside need more than {data['set']['tiles']} tiles")


#: the highest target a profile may set, in raw points (the rule books' highest is 250 for two
#: players; a thousand times that still ends in a few thousand hands)
MAX_TARGET_RAW = 250_000


def build_rules(data: dict[str, Any], name: str, profile: Profile | None = None) -> GameRules:
    """GameRules from a validated parameter document (a spec file, or one a profile changed)."""
    if data["set"]["max_pip"] != MAX_PIP:
        raise UserError(f"{name}: only the double-six set (max_pip {MAX_PIP}) is supported")
    def by_n(d: dict[Any, Any]) -> dict[int, int]:  # YAML keys may be int or str
        return {int(k): int(v) for k, v in d.items()}
    reserve = by_n(data["deal"].get("reserve", {}))
    for n, h in by_n(data["deal"]["hand_size"]).items():
        if n * h + reserve.get(n, 0) > data["set"]["tiles"]:
            raise UserError(f"{name}: deal/hand_size: {n} players of {h} tiles and a reserve of {reserve.get(n, 0)} "
                            f"need more than {data['set']['tiles']} tiles")
    # bounds the whole program lives with (issue 29): a target is at least one scoring placement
    # (5 raw points) and at least one displayed point, and at most MAX_TARGET_RAW, so every
    # match ends, every displayed target is a positive number and every generator has room
    divisor = int(data["points"]["display_divisor"])
    for n, raw in by_n(data["target"]["raw"]).items():
        if not max(5, divisor) <= raw <= MAX_TARGET_RAW:
            raise UserError(f"{name}: target/raw/{n}: {raw} is out of bounds: a target is at least 5 raw points and "
                            f"at least the display divisor ({divisor}), and at most {MAX_TARGET_RAW}")
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
        lead={k: data["lead"][k] for k in ("first_hand", "after_gone_out", "after_blocked")},
        opening_requires=data.get("opening", {}).get("requires", "any"),
        opening_scope=data.get("opening", {}).get("scope", "every-hand"),
        opening_order=tuple(parse_tile(t) for t in data.get("opening", {}).get("order", [])),
        boneyard_reserve={n: reserve.get(n, 0) for n in by_n(data["deal"]["hand_size"])},
        blocked_after=data.get("hand_end", {}).get("blocked", "no-placement"),
        draw_while_playable=bool(data.get("drawing", {}).get("while_playable", False)),
        draw_limit=int(data.get("drawing", {}).get("limit", 0)),
        raw=data,
        profile=profile,
    )
