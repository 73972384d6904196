"""Kinds `legal-placements`, `turn`, `settle` and `match-end`: play questions answered by the
real match engine (fives/match.py, fives/settlement.py). Shapes: spec/play.md and
conformance/schema/kinds/<kind>.schema.json.

`hooks` may replace the engine's classes: "match" (a Match subclass), "settlement" (a
Settlement subclass) and "layout" (a Layout subclass); that is how mutant engines are built.
"""
from __future__ import annotations

from typing import Any

from fives.evaluation import parse_placement
from fives.layout import IllegalPlacement, Layout, Placement
from fives.match import DRAW, PASS, PLACE, Action, IllegalAction, Match
from fives.rules import GameRules
from fives.settlement import ConfigError, HandEnd, MatchConfig, Settlement, configure
from fives.tiles import Tile, parse_tile
from fives.conformance.cases.kinds import Kind, by_length, canonical, compare_error, compare_fields, malformed, same


class BadInput(ValueError):
    """The case's input itself is inconsistent (a fixture bug, not an engine answer)."""


def _config(rules: GameRules, input: dict[str, Any]) -> MatchConfig:
    try:
        return configure(rules, input.get("players", 2), bool(input.get("partnerships", False)))
    except ConfigError as e:
        raise BadInput(str(e)) from None


def _tile(text: object, what: str) -> Tile:
    try:
        return parse_tile(text)
    except ValueError as e:
        raise BadInput(f"{what}: {e}") from None


def _tiles(items: object, what: str) -> list[Tile]:
    if not isinstance(items, list):
        raise BadInput(f"{what} must be a list of tiles")
    return [_tile(t, what) for t in items]


def _placements(records: object) -> list[Placement]:
    if not isinstance(records, list):
        raise BadInput("layout must be a list of placements")
    try:
        return [parse_placement(r, i) for i, r in enumerate(records)]
    except IllegalPlacement as e:
        raise BadInput(f"layout placement {e.index}: {e.code}: {e.message}") from None


def _factories(hooks: dict[str, Any]) -> dict[str, Any]:
    return {"layout_factory": hooks.get("layout", Layout), "settlement_factory": hooks.get("settlement", Settlement)}


def _hand_no(input: dict[str, Any]) -> int:
    """The optional input `hand_number`: the state's hand of the match, from 1 (default 1)."""
    n = input.get("hand_number", 1)
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise BadInput(f"hand_number must be a hand of the match from 1, got {n!r}")
    return n


# -- legal-placements --------------------------------------------------------------------------
def run_legal(rules: GameRules, input: dict[str, Any], hooks: dict[str, Any]) -> dict[str, Any]:
    try:
        config = _config(rules, input)
        match = hooks.get("match", Match)(rules, config, None, **_factories(hooks))
        for p in _placements(input.get("layout", [])):
            try:
                match.layout.push(p)
            except IllegalPlacement as e:
                raise BadInput(f"layout placement {p}: {e.code}: {e.message}") from None
        match.hand_no = _hand_no(input)  # which hand of the match (`opening.scope`)
        hand = _tiles(input["hand"], "hand")
        drawn = _tile(input["drawn"], "drawn") if input.get("drawn") is not None else None
        if drawn is not None and drawn not in hand:
            hand.append(drawn)
        _one_place_each(match.layout, hand, drawn)
    except BadInput as e:
        return malformed(str(e))
    opts = match.options(match.layout, hand, int(input.get("boneyard", 0)), bool(input.get("continuing", False)), drawn,
                         int(input.get("draws", 0)))
    return {"placements": [p.to_dict() for p in opts.placements], "draw": opts.draw, "pass": opts.pass_}


def _one_place_each(layout: Layout, hand: list[Tile], drawn: Tile | None) -> None:
    """A tile in two places (the layout and the hand, or the hand twice), or a drawn tile that
    fits nowhere (it would not be pending), is no state: BadInput, as `turn` answers it."""
    for i, t in enumerate(hand):
        if t in layout or t in hand[:i]:
            raise BadInput(f"{t} is in the hand and {'in the layout' if t in layout else 'in it twice'}")
    if drawn is not None and len(layout) and not layout.can_place(drawn):
        raise BadInput(f"the drawn tile {drawn} cannot be placed, so it would not be pending")


def compare_legal(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    err = compare_error(expected, actual)
    return err if err is not None else compare_fields(expected, actual, frozenset({"placements"}))


# -- turn ----------------------------------------------------------------------------------------
def _action(record: object, index: int) -> Action:
    if not isinstance(record, dict) or record.get("action") not in (PLACE, DRAW, PASS):
        raise BadInput(f"action {index}: an action is {{action: place|draw|pass, ...}}, got {record!r}")
    seat = record.get("seat")
    if record["action"] != PLACE:
        return Action(record["action"], None, seat)
    fields = {k: v for k, v in record.items() if k in ("tile", "to", "side")}
    try:
        return Action(PLACE, parse_placement(fields, index), seat)
    except IllegalPlacement as e:
        raise BadInput(f"action {index}: {e.code}: {e.message}") from None


def turn_result(out: Any) -> dict[str, Any]:
    from fives.record import action_event  # record imports jsonschema (~40 ms): only turns need it

    ev = action_event(out)
    ev.pop("event")
    return {"action": out.action, **ev, "turn_end": out.turn_end}


def run_turn(rules: GameRules, input: dict[str, Any], hooks: dict[str, Any]) -> dict[str, Any]:
    try:
        config = _config(rules, input)
        hands = [_tiles(h, f"hand of seat {s}") for s, h in enumerate(input["hands"])]
        drawn = _tile(input["drawn"], "drawn") if input.get("drawn") is not None else None
        try:
            match = hooks.get("match", Match).from_state(
                rules, config, scores=list(input.get("scores", [0] * len(config.sides))),
                layout=_placements(input.get("layout", [])), hands=hands,
                boneyard=_tiles(input.get("boneyard", []), "boneyard"), seat=input["seat"],
                continuing=bool(input.get("continuing", False)), drawn=drawn,
                leader=input.get("leader"), passes=int(input.get("passes", 0)), draws=int(input.get("draws", 0)),
                hand=_hand_no(input), **_factories(hooks))
        except ValueError as e:
            raise BadInput(str(e)) from None
        actions = [_action(a, i) for i, a in enumerate(input["actions"])]
    except BadInput as e:
        return malformed(str(e))
    results: list[dict[str, Any]] = []
    error = None
    settlement = None
    for i, action in enumerate(actions):
        try:
            out = match.apply(action)
        except IllegalAction as e:
            error = {"index": i, "code": e.code, "message": e.message}
            break
        results.append(turn_result(out))
        if out.settlement is not None:
            settlement = out.settlement.to_dict()
    answer: dict[str, Any] = {
        "results": results,
        "scores": list(match.scores),
        "next_seat": match.to_act if match.in_hand else None,
        "hand_end": None if match.hand_end is None else {**match.hand_end.to_dict(), "next_leader": match.next_leader},
        "settlement": settlement,
        "match_end": None if match.match_end is None else {"winners": match.match_end.winners,
                                                           "by": match.match_end.by},
    }
    if error is not None:
        answer["error"] = error
    return answer


def fits(want: Any, got: Any) -> bool:
    """compare_subset(want, got) == [], without building a path for every key on the way."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return False
        for k, v in want.items():
            if k not in got or not fits(v, got[k]):
                return False
        return True
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        return all(map(fits, want, got))
    return same(want, got)


def compare_subset(want: Any, got: Any, path: str = "") -> list[str]:
    """Every key the expectation states must agree; lists keep their documented order.
    Only the parts that do not fit are walked again to name their paths."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return [f"{path or 'answer'}: expected {canonical(want)}, got {canonical(got)}"]
        diffs = []
        for k, v in want.items():
            if k not in got:
                diffs.append(f"{f'{path}.{k}' if path else k}: missing (expected {canonical(v)})")
            elif not fits(v, got[k]):
                diffs.extend(compare_subset(v, got[k], f"{path}.{k}" if path else k))
        return diffs
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        return [d for i, (w, g) in enumerate(zip(want, got)) if not fits(w, g)
                for d in compare_subset(w, g, f"{path}[{i}]")]
    if not same(want, got):
        return [f"{path}: expected {canonical(want)}, got {canonical(got)}"]
    return []


def compare_turn(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """The error by index and code (if one is expected), then every other stated key."""
    if not isinstance(actual, dict):
        return [f"answer is not an object: {canonical(actual)}"]
    diffs = compare_error(expected, actual) or []
    rest = {k: v for k, v in expected.items() if k != "error"}
    return diffs + compare_subset(rest, {k: v for k, v in actual.items() if k != "error"})


# -- settle ----------------------------------------------------------------------------------------
def _end(record: object, players: int) -> HandEnd:
    if not isinstance(record, dict) or record.get("reason") not in ("gone-out", "blocked"):
        raise BadInput(f"end is {{reason: gone-out, seat: S}} or {{reason: blocked}}, got {record!r}")
    return HandEnd(record["reason"], record.get("seat"))


def run_settle(rules: GameRules, input: dict[str, Any], hooks: dict[str, Any]) -> dict[str, Any]:
    try:
        config = _config(rules, input)
        if "remaining" in input:
            pips = [sum(t.pips for t in _tiles(h, f"remaining of seat {s}")) for s, h in enumerate(input["remaining"])]
        else:
            pips = list(input["pips"])
        end = _end(input["end"], config.players)
        settlement = hooks.get("settlement", Settlement)(rules, config)
        try:
            result = settlement.settle(list(input.get("scores", [0] * len(config.sides))), end, pips)
        except ValueError as e:
            raise BadInput(str(e)) from None
    except BadInput as e:
        return malformed(str(e))
    return result.to_dict()


def compare_settle(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    err = compare_error(expected, actual)
    return err if err is not None else compare_subset(expected, actual)


# -- match-end ---------------------------------------------------------------------------------------
def run_match_end(rules: GameRules, input: dict[str, Any], hooks: dict[str, Any]) -> dict[str, Any]:
    try:
        config = _config(rules, input)
        scores, awards = list(input["scores"]), list(input["awards"])
        if len(scores) != len(config.sides) or len(awards) != len(config.sides):
            raise BadInput(f"need {len(config.sides)} scores and {len(config.sides)} awards, one per side")
        if ("hands" in input) != ("max_hands" in input):
            raise BadInput("give hands and max_hands together, or neither")
    except BadInput as e:
        return malformed(str(e))
    after, winners = hooks.get("settlement", Settlement)(rules, config).apply_changes(scores, awards)
    result: dict[str, Any] = {"scores": after, "winners": winners}
    if "max_hands" in input:  # spec/play.md, "Abandoned matches": no winner after the last allowed hand
        result["abandoned"] = not winners and int(input["hands"]) >= int(input["max_hands"])
    return result


def compare_match_end(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    err = compare_error(expected, actual)
    return err if err is not None else compare_fields(expected, actual, frozenset({"winners"}))


KINDS = [
    Kind("legal-placements", "legal-placements", run_legal, compare_legal, "legal-placements.schema.json", "turn",
         by_length("layout")),
    Kind("turn", "turn", run_turn, compare_turn, "turn.schema.json", "turn", by_length("layout", "actions")),
    Kind("settle", "settle", run_settle, compare_settle, "settle.schema.json", "settlement"),
    Kind("match-end", "match-end", run_match_end, compare_match_end, "match-end.schema.json", "match", by_length("hands")),
]
