"""Rule profiles: a game's rules with some parameters changed (spec/variants.md).

A profile is a YAML file: `extends` (a game id), `name`, `source` (where the variant comes
from) and `rules`, a mapping of parameter -> value. A parameter is the dotted path of a value
in the game's spec file (`continuation.drawn_tile_ends_turn`, `target.raw`); nested mappings
under `rules` are read the same way. The changed document is checked against the game schema
(spec/schema/game.schema.json), so a profile can say nothing a game file could not.
Shipped profiles live in spec/variants/; they are found from a listing, never a joined name.
"""
from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from fives.rules import GameRules, build_rules, check_deal, game_data, game_ids, load_rules, validate_game_data
from fives.support import paths, schema_memo
from fives.support.errors import UserError
from fives.support.sanitize import quote

#: Top-level sections of a game file that are identity, not rules: a profile cannot change them.
_FIXED = ("id", "name", "seed", "set", "players", "record")


@dataclass(frozen=True)
class Profile:
    name: str
    extends: str  # a game id
    source: str
    overrides: Mapping[str, Any] = field(hash=False)  # parameter (dotted path) -> value
    digest: str  # first 16 hex of SHA-256 of the canonical {"extends", "overrides"}
    #: parameter -> {book, says} and/or {departs}: where each value the profile plays comes from
    sources: Mapping[str, Mapping[str, str]] = field(default_factory=dict, hash=False, compare=False)
    #: the (players, partnerships) setups the book plays; None: every setup of the game. Not in
    #: the digest: it names no rule, only the scope a run under the profile keeps (spec/variants.md)
    players: tuple[tuple[int, bool], ...] | None = field(default=None, hash=False, compare=False)

    def plays(self, players: int, partnerships: bool) -> bool:
        """Whether the profile's book plays this setup."""
        return self.players is None or (players, bool(partnerships)) in self.players

    def setup_text(self) -> str:
        """The setups the profile plays, for a skip reason: `2 players`, `4 in partnerships`."""
        return ", ".join(f"{n} in partnerships" if team else f"{n} players" for n, team in self.players or ())


def _by_players(value: Any) -> bool:
    return isinstance(value, dict) and bool(value) and all(str(k).isdigit() for k in value)


def parameters(game: str) -> dict[str, Any]:
    """Every parameter a profile of `game` may override -> its value in the game's spec file.

    A leaf is a scalar or a mapping by number of players (`deal.hand_size`)."""
    return copy.deepcopy(_parameters(game))


_PARAMETERS: dict[str, tuple[GameRules, dict[str, Any]]] = {}  # a cache: game -> (its rules, parameters)


def _parameters(game: str) -> dict[str, Any]:
    """`parameters`, made once per game's rules (a suite's 215 inline profiles each ask: issue
    41), read-only: `parameters` hands out copies. Kept beside the rules object it was read
    from, so rules read again (another spec folder) are never answered from an older one."""
    rules = load_rules(game)
    got = _PARAMETERS.get(game)
    if got is None or got[0] is not rules:
        got = _PARAMETERS[game] = (rules, _read_parameters(game))
    return got[1]


def _read_parameters(game: str) -> dict[str, Any]:
    out: dict[str, Any] = {}

    def walk(prefix: str, node: Any) -> None:
        if isinstance(node, dict) and not _by_players(node):
            for k, v in node.items():
                walk(f"{prefix}.{k}" if prefix else str(k), v)
        else:
            out[prefix] = _canonical_value(node)

    for key, value in game_data(game).items():
        if key not in _FIXED:
            walk(key, value)
    return out


def _check_player_keys(node: Any, known: dict[int, Any], what: str, game: str) -> None:
    """A by-players override names numbers of players the game is played by, in ASCII digits
    (`3`, not `٣`, `３` or `³`, which Python's int() and str.isdigit() would take): UserError."""
    counts = ", ".join(str(n) for n in sorted(known))
    if not isinstance(node, Mapping) or not node:
        raise UserError(f"{what}: expected a mapping of number of players ({counts}) to value")
    for k in node:
        ok = (isinstance(k, int) and not isinstance(k, bool)) or (isinstance(k, str) and k.isascii() and k.isdigit())
        if not ok or int(k) not in known:
            raise UserError(f"{what}: {quote(str(k))} is not a number of players of {game} (one of {counts})")


def _canonical_value(value: Any) -> Any:
    if _by_players(value):
        return {int(k): v for k, v in sorted(value.items(), key=lambda kv: int(kv[0]))}
    return value


def digest_of(extends: str, overrides: Mapping[str, Any]) -> str:
    text = json.dumps({"extends": extends, "overrides": {k: overrides[k] for k in sorted(overrides)}},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def make_profile(extends: str, overrides: Mapping[str, Any], name: str = "", source: str = "",
                 where: str = "profile") -> Profile:
    """A checked Profile from parts (a fixture's inline `rules`, a random profile)."""
    if extends not in game_ids():
        raise UserError(f"{where}: extends: unknown game {quote(str(extends))}: one of {', '.join(game_ids())}")
    known = _parameters(extends)  # read only here
    flat: dict[str, Any] = {}

    def walk(prefix: str, node: Any) -> None:
        if prefix in known:
            if isinstance(known[prefix], dict):  # by number of players: only the game's own counts
                _check_player_keys(node, known[prefix], f"{where}: {prefix}", extends)
            flat[prefix] = _canonical_value(node)
        elif isinstance(node, dict) and node and not _by_players(node):
            for k, v in node.items():
                walk(f"{prefix}.{k}" if prefix else str(k), v)
        else:
            raise UserError(f"{where}: unknown parameter {quote(prefix)} for {extends} "
                            f"(see spec/variants.md)")

    if not isinstance(overrides, Mapping):
        raise UserError(f"{where}: rules: expected a mapping of parameter to value")
    for k, v in overrides.items():
        walk(str(k), v)
    # a by-players override may name only some player counts: the rest keep the game's values
    for k, v in flat.items():
        if isinstance(v, dict):
            flat[k] = _canonical_value({**known[k], **v})
    flat = {k: v for k, v in sorted(flat.items()) if v != known[k]}  # restating a default changes nothing
    profile = Profile(name or f"{extends}+{digest_of(extends, flat)}", extends, source, flat,
                      digest_of(extends, flat))
    _rules_of(profile, where)  # validate now: a bad value is reported where it was written
    return profile


def _apply(data: dict[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(data)
    for path, value in overrides.items():
        *parents, last = path.split(".")
        node = data
        for p in parents:
            node = node[p]
        node[last] = copy.deepcopy(value)
    return data


_UNDER: dict[str, GameRules] = {}  # a cache: digest -> rules (a pure function of the digest's input)


def _rules_of(profile: Profile, where: str) -> GameRules:
    got = _UNDER.get(profile.digest)
    if got is None:
        data = _apply(game_data(profile.extends), profile.overrides)
        validate_game_data(data, where)
        check_deal(data, where)
        got = build_rules(data, where, profile)
        if len(_UNDER) >= 256:  # `fives serve` may be told ever new profiles: keep memory bounded
            _UNDER.clear()
        _UNDER[profile.digest] = got
    return got if got.profile is profile else _with_profile(got, profile)


def _with_profile(rules: GameRules, profile: Profile) -> GameRules:
    import dataclasses

    return dataclasses.replace(rules, profile=profile)


def rules_under(profile: Profile | None, game: str) -> GameRules:
    """`game`'s rules with `profile`'s overrides when the profile extends `game`; else the
    plain rules (whose `.profile` is None)."""
    if profile is None or profile.extends != game or not profile.overrides:
        plain = load_rules(game)
        if profile is None or profile.extends != game:
            return plain
        return _with_profile(plain, profile)
    return _rules_of(profile, profile.name)


def _variants_dir() -> Path:
    return paths.SPEC / "variants"


@lru_cache(maxsize=4)
def _shipped(folder: Path) -> dict[str, Path]:
    return {p.stem: p for p in sorted(folder.glob("*.yaml")) if p.is_file()}


def shipped_profiles() -> list[str]:
    """Names of the profiles under spec/variants/."""
    return sorted(_shipped(_variants_dir()))



def load_profile(ref: str) -> Profile:
    """A shipped profile by name, or a profile file by path. UserError (exit 2), one line, for
    an unknown name, a bad file, an unknown parameter or a bad value."""
    from fives.support.reading import load_data, schema_error

    if not isinstance(ref, str) or not ref:
        raise UserError("a rules profile is a shipped name or a file path")
    shipped = _shipped(_variants_dir())
    if ref in shipped:
        target: Path | str = shipped[ref]
    elif "/" in ref or ref.endswith((".yaml", ".yml", ".json")) or Path(ref).is_file():
        target = ref
    else:
        raise UserError(f"unknown rules profile {quote(ref)}: one of {', '.join(shipped) or '(none)'}, "
                        f"or a profile file")
    data, name = load_data(target)
    error = schema_memo.check(paths.SPEC_SCHEMAS / "profile.schema.json", data)
    if error is not None:
        raise schema_error(name, error) from None
    profile = make_profile(data["extends"], data.get("rules", {}), str(data["name"]), str(data["source"]), name)
    return _with_book(profile, data.get("sources") or {}, data.get("players"), name)


def _with_book(profile: Profile, sources: Mapping[str, Any], players: Any, where: str) -> Profile:
    """The profile with its `sources` (parameters of its game only) and its player setups (a
    subset of the game's); UserError naming the file otherwise."""
    import dataclasses

    known = parameters(profile.extends)
    for path in sources:
        if path not in known:
            raise UserError(f"{where}: sources: unknown parameter {quote(path)} for {profile.extends}")
    setups = None
    if players is not None:
        game = load_rules(profile.extends).configurations()
        setups = tuple(sorted({(int(n), team) for team, key in ((False, "solo"), (True, "partnerships"))
                               for n in players.get(key, [])}))
        for n, team in setups:
            if (n, team) not in game:
                raise UserError(f"{where}: players: {profile.extends} has no game for {n} players"
                                f"{' in partnerships' if team else ' each for themselves'}")
    return dataclasses.replace(profile, sources={k: dict(v) for k, v in sources.items()}, players=setups)


def recorded_profile(recorded: Any, name: str) -> Profile | None:
    """The profile that generated data records as `rules: {name, extends, digest, overrides}`
    (a perft table, a puzzle set), or None; UserError when its digest does not match."""
    if recorded is None:
        return None
    profile = make_profile(recorded["extends"], recorded["overrides"], recorded["name"], where=f"{name}: rules")
    if profile.digest != recorded["digest"]:
        raise UserError(f"{name}: rules: digest {recorded['digest']} does not match its overrides ({profile.digest})")
    return profile

