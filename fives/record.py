"""Game records: JSON Lines, one event per line (spec/record.md, spec/schema/record.schema.json).

The writer turns the engine's `HandStart` and `Outcome` objects into event lines; `replay`
re-derives the whole match from the header's seed and the recorded actions, and compares
every recorded line with what the rules give, stopping at the first difference.
"""
from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable

import jsonschema

from fives.support import paths
from fives.support.errors import UserError
from fives.layout import Layout, Placement
from fives.match import BY_ABANDONED, DRAW, PASS, PLACE, Action, HandStart, IllegalAction, Match, MatchEnd, Outcome
from fives.rules import GameRules, load_rules
from fives.settlement import ConfigError, MatchConfig, Settlement, configure
from fives.tiles import Side, Tile, parse_tile

if TYPE_CHECKING:
    from fives.profiles import Profile

FORMAT = "fives-record/1"
ACTIONS = (PLACE, DRAW, PASS)


def dumps(event: dict[str, Any]) -> str:
    """One record line: compact JSON, keys in the documented order (byte-stable)."""
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def _tiles(tiles: Iterable[Tile]) -> list[str]:
    return [str(t) for t in tiles]


# -- writing ---------------------------------------------------------------------------------
def header(rules: GameRules, config: MatchConfig, seed: int, strategies: list[str] | None = None) -> dict[str, Any]:
    h: dict[str, Any] = {"format": FORMAT, "game": rules.id, "players": config.players,
                         "partnerships": config.partnerships, "seed": seed, "target": config.target}
    if strategies is not None:
        h["strategies"] = list(strategies)
    p = rules.profile
    if p is not None and p.overrides:  # only a match under --rules P says so: the seeds' records are unchanged
        h["rules"] = {"name": p.name, "extends": p.extends, "digest": p.digest,
                      "overrides": {k: p.overrides[k] for k in sorted(p.overrides)}}
    return h


def hand_event(hs: HandStart) -> dict[str, Any]:
    lot = None if hs.lot is None else [{"seats": list(c), "draws": list(d)} for c, d in hs.lot]
    return {"event": "hand", "hand": hs.hand, "scores": hs.scores, "deal": [_tiles(h) for h in hs.deal],
            "boneyard": _tiles(hs.boneyard), "leader": hs.leader, "lot": lot}


def action_event(out: Outcome) -> dict[str, Any]:
    if out.action == PLACE:
        assert out.placement is not None
        ev: dict[str, Any] = {"event": PLACE, "seat": out.seat, **out.placement.to_dict()}
        ev.update(drawn=out.from_drawn, sum=out.sum, raw=out.raw, display=out.display, score=out.score,
                  continues=out.continues)
        return ev
    if out.action == DRAW:
        return {"event": DRAW, "seat": out.seat, "tile": str(out.tile), "playable": out.playable}
    return {"event": PASS, "seat": out.seat}


def follow_up_events(out: Outcome, hand_no: int) -> list[dict[str, Any]]:
    """The hand-end, settle and match-end lines an action's outcome adds, in order."""
    events: list[dict[str, Any]] = []
    if out.hand_end is not None:
        assert out.remaining is not None
        events.append({"event": "hand-end", "hand": hand_no, "reason": out.hand_end.reason,
                       "seat": out.hand_end.seat, "next_leader": out.next_leader,
                       "remaining": [_tiles(h) for h in out.remaining]})
    if out.settlement is not None:
        s = out.settlement.to_dict()
        del s["end"]  # already on the hand-end line
        events.append({"event": "settle", "hand": hand_no, **s})
    if out.match_end is not None:
        events.append(match_end_event(out.match_end, hand_no))
    return events


def match_end_event(end: MatchEnd, hands: int) -> dict[str, Any]:
    return {"event": "match-end", "by": end.by, "winners": end.winners, "scores": end.scores, "hands": hands}


def abandon_event(match: Match) -> dict[str, Any]:
    """Abandon `match` between hands (Match.abandon) and give its match-end line."""
    return match_end_event(match.abandon(), match.hand_no)


def outcome_events(out: Outcome, match: Match) -> list[dict[str, Any]]:
    return [action_event(out)] + follow_up_events(out, match.hand_no)


def match_from_hooks(hooks: dict[str, Any], rules: GameRules, config: MatchConfig, seed: int | None) -> Match:
    """A Match built from the classes in `hooks` ("match", "layout", "settlement"), if any."""
    factory = hooks.get("match", Match)
    match: Match = factory(rules, config, seed, layout_factory=hooks.get("layout", Layout),
                           settlement_factory=hooks.get("settlement", Settlement))
    return match


# -- reading ---------------------------------------------------------------------------------
class RecordError(Exception):
    """The first illegal or malformed line of a record."""

    def __init__(self, line: int, code: str, message: str) -> None:
        super().__init__(f"{line}: {code}: {message}")
        self.line, self.code, self.message = line, code, message


EVENT_TYPES = ("hand", PLACE, DRAW, PASS, "hand-end", "settle", "match-end")


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """The schema with every local `$ref` replaced by its target (validation skips the lookups)."""
    if isinstance(node, dict):
        if "$ref" in node:
            target = _inline(defs[node["$ref"].rsplit("/", 1)[1]], defs)
            rest = {k: _inline(v, defs) for k, v in node.items() if k != "$ref"}
            return {"allOf": [target, rest]} if rest else target
        return {k: _inline(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


@lru_cache(maxsize=1)
def _validators() -> dict[str, tuple[Any, Any]]:
    """Per line type: (jsonschema validator, fast checker or None).

    Dispatching on `event` to the matching `$defs` entry gives the same verdict as the
    schema's root and is much faster. If the optional `fastjsonschema` package is installed
    it decides validity (the schema uses only keywords it shares with draft 2020-12);
    jsonschema always writes the error message, so messages never depend on it.
    """
    schema = json.loads((paths.SPEC_SCHEMAS / "record.schema.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    try:
        import fastjsonschema  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        fastjsonschema = None  # type: ignore[assignment,unused-ignore]
    out = {}
    for name in ("header",) + EVENT_TYPES:
        sub = _inline(schema["$defs"][name], schema["$defs"])
        fast = fastjsonschema.compile(sub) if fastjsonschema is not None else None
        out[name] = (cls(sub), fast)
    return out


def _valid(pair: tuple[Any, Any], obj: Any) -> bool:
    validator, fast = pair
    if fast is None:
        return bool(validator.is_valid(obj))
    try:
        fast(obj)
        return True
    except Exception:  # fastjsonschema.JsonSchemaException
        return False


def _json_line(text: str) -> Any:
    """The hardened reader (fives.support.reading), keeping the record's own wording for plain bad JSON."""
    from fives.support.reading import json_loads_bounded

    return json_loads_bounded(text, "line")


def _short(text: str, limit: int = 120) -> str:
    """At most `limit` characters of a value for a message (a record line may be megabytes)."""
    from fives.support.sanitize import quote

    return quote(text, limit)[1:-1]


def parse_line(text: str, lineno: int, first: bool) -> dict[str, Any]:
    try:
        obj = _json_line(text)
    except json.JSONDecodeError as e:
        raise RecordError(lineno, "malformed-line", f"not JSON: {e.msg} at column {e.colno}") from None
    except UserError as e:  # over a limit of the hardened reader: size, depth, long number, NaN
        raise RecordError(lineno, "malformed-line", str(e).removeprefix("line: ")) from None
    v = _validators()
    if first:
        pair = v["header"]
    elif isinstance(obj, dict) and obj.get("event") in EVENT_TYPES:
        pair = v[obj["event"]]
    else:
        raise RecordError(lineno, "schema-violation",
                          f"each line after the header is an object whose \"event\" is one of {', '.join(EVENT_TYPES)}")
    if not _valid(pair, obj):
        err = min(pair[0].iter_errors(obj), key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
        where = "/".join(str(p) for p in err.absolute_path) or "(line)"
        raise RecordError(lineno, "schema-violation", f"{_short(where)}: {_short(err.message, 200)}")
    line: dict[str, Any] = obj  # a schema-valid line is an object
    return line


def _action(ev: dict[str, Any]) -> Action:
    if ev["event"] != PLACE:
        return Action(ev["event"], None, ev["seat"])
    to = parse_tile(ev["to"]) if "to" in ev else None
    side = Side(ev["side"]) if "side" in ev else None
    return Action(PLACE, Placement(parse_tile(ev["tile"]), to, side), ev["seat"])


# The reason code a differing field gives, by event and field.
MISMATCH = {"deal": "deal-mismatch", "boneyard": "deal-mismatch", "leader": "leader-mismatch",
            "lot": "leader-mismatch", "tile": "draw-mismatch", "playable": "draw-mismatch",
            "drawn": "drawn-mismatch", "continues": "continuation-mismatch", "reason": "hand-end-mismatch",
            "next_leader": "leader-mismatch", "remaining": "hand-end-mismatch", "winners": "result-mismatch",
            "by": "result-mismatch", "hands": "result-mismatch"}
POINTS = {"sum", "raw", "display", "score", "scores", "changes"}


def _compare(lineno: int, got: dict[str, Any], want: dict[str, Any]) -> None:
    for key in list(want) + [k for k in got if k not in want]:
        if got.get(key, None) != want.get(key, None) or (key in got) != (key in want):
            if want["event"] == "settle":
                code = "settlement-mismatch"
            elif key in POINTS:
                code = "points-mismatch"
            else:
                code = MISMATCH.get(key, f"{want['event']}-mismatch")
            shown = _short(json.dumps(got.get(key), ensure_ascii=False)) if key in got else "nothing"
            expected = _short(json.dumps(want.get(key), ensure_ascii=False)) if key in want else "nothing"
            raise RecordError(lineno, code, f"{want['event']} line says {key} {shown}, the rules give {expected}")


@dataclass
class ReplaySummary:
    lines: int
    hands: int
    game: str
    config: MatchConfig
    winners: list[int]
    scores: list[int]


def replay(lines: Iterable[str], hooks: dict[str, Any] | None = None, profile: Profile | None = None) -> ReplaySummary:
    """Re-derive the record's match and check every line; RecordError on the first bad one.
    `profile` (--rules P): the rules the record must have been played under (its header says)."""
    hooks = hooks or {}
    match: Match | None = None
    pending: deque[tuple[int, dict[str, Any]]] = deque()  # (line of the causing action, event)
    lineno = 0
    for lineno, text in enumerate(lines, 1):
        if not text.strip():
            raise RecordError(lineno, "malformed-line", "empty line")
        ev = parse_line(text, lineno, match is None)
        if match is None:
            match = _start(ev, lineno, hooks, profile)
            continue
        kind = ev["event"]
        if pending:
            cause, want = pending.popleft()
            if kind != want["event"]:
                raise _missing(lineno, cause, kind, want)
            _compare(lineno, ev, want)
            continue
        try:
            if kind == "hand":
                _compare(lineno, ev, hand_event(match.start_hand()))
            elif kind in ACTIONS:
                out = match.apply(_action(ev))
                derived = outcome_events(out, match)
                _compare(lineno, ev, derived[0])
                pending.extend((lineno, d) for d in derived[1:])
            elif kind == "match-end" and ev["by"] == BY_ABANDONED:
                _compare(lineno, ev, abandon_event(match))  # only between hands (play.md)
            elif kind == "hand-end":
                raise RecordError(lineno, "hand-not-ended", "the hand has not ended: "
                                  + ("nothing was dealt" if not match.in_hand and match.hand_end is None
                                     else "a player can still place or draw" if match.in_hand
                                     else "its hand-end line came already"))
            else:
                raise RecordError(lineno, "unexpected-event", f"a {kind} line comes only right after the "
                                  "action that ends a hand or the match")
        except IllegalAction as e:
            raise RecordError(lineno, e.code, e.message) from None
    if match is None:
        raise RecordError(max(lineno, 1), "incomplete-record", "the record has no header line")
    if pending:
        raise RecordError(lineno, "incomplete-record", f"the record ends before the {pending[0][1]['event']} line "
                          f"that line {pending[0][0]} requires")
    if match.match_end is None:
        raise RecordError(lineno, "incomplete-record", "the record ends before the match does")
    return ReplaySummary(lineno, match.hand_no, match.rules.id, match.config, match.match_end.winners,
                         match.match_end.scores)


def _missing(lineno: int, cause: int, kind: str, want: dict[str, Any]) -> RecordError:
    expected = want["event"]
    play = kind in ACTIONS + ("hand",)
    if play and expected in ("hand-end", "settle"):
        return RecordError(lineno, "after-hand-end",
                           f"the hand ended with line {cause}; a {expected} line must come first")
    if play and expected == "match-end":
        return RecordError(lineno, "after-match-end",
                           f"the match ended with line {cause}; a match-end line must come first")
    return RecordError(lineno, "unexpected-event",
                       f"expected the {expected} line that line {cause} requires, found {kind}")


def _start(h: dict[str, Any], lineno: int, hooks: dict[str, Any], profile: Profile | None = None) -> Match:
    try:
        rules = load_rules(h["game"])
    except UserError as e:
        raise RecordError(lineno, "unknown-game", str(e)) from None
    if profile is not None and profile.extends == rules.id and profile.overrides:
        from fives.profiles import rules_under
        rules = rules_under(profile, rules.id)
    else:
        profile = None  # another game's profile, or one that changes nothing: the seeds' rules
    recorded = h.get("rules")
    if (recorded or {}).get("digest") != (profile.digest if profile else None):
        made = f"rules profile {recorded['name']} (digest {recorded['digest']})" if recorded else "the seeds' rules"
        asked = f"{profile.name} (digest {profile.digest})" if profile else "the seeds' rules (add --rules)"
        raise RecordError(lineno, "rules-mismatch", f"the record was played under {made}, not under {asked}")
    try:
        config = configure(rules, h["players"], h["partnerships"])
    except ConfigError as e:
        raise RecordError(lineno, "bad-config", str(e)) from None
    if h["target"] != config.target:
        raise RecordError(lineno, "points-mismatch",
                          f"header says target {h['target']}, the rules give {config.target}")
    return match_from_hooks(hooks, rules, config, h["seed"])


def replay_file(path: str, profile: Profile | None = None) -> ReplaySummary:
    """Replay a record file; UserError `PATH:LINE: code: message` (exit 2) on the first bad line."""
    from fives.support.reading import read_text

    text, name = read_text(path)
    try:
        return replay(text.splitlines(), profile=profile)
    except RecordError as e:
        raise UserError(f"{name}:{e.line}: {e.code}: {e.message}") from None
