# lines: ~430 because every kind's reachability conditions share the deal and score helpers; one module per question.
"""Is a case's state one that play from some deal can reach? (spec/fuzz.md, "Reachable states")

A case asks a question about a state: a layout, hands, a boneyard, scores. A strict engine
may rightly refuse a state no game can reach (a seat with no tiles in the middle of a hand,
more tiles in hands than were dealt and drawn), so every fixture the fuzzer writes must be
reachable. `problems(rules, kind, input)` lists the conditions a state breaks, each a short
reason; an empty list means reachable as far as these necessary conditions go. Every bound
is read from the game's rules (deal sizes, targets, scoring multiple, continuation, boneyard
reserve), never from a game id.

`complete(rules, input)` puts the tiles a `turn` state leaves out at the bottom of the
boneyard, in tile order: how the fuzzer's shrinker keeps a cut state a whole deal.
"""
from __future__ import annotations

import copy
import math
from typing import Any

from fives.evaluation import build_layout, parse_placement
from fives.layout import IllegalPlacement, Layout
from fives.match import Match
from fives.rules import GameRules
from fives.settlement import ConfigError, MatchConfig, configure
from fives.tiles import ALL_TILES, Tile, parse_tile

TILES = len(ALL_TILES)


def _opening_any(rules: GameRules) -> bool:
    return getattr(rules, "opening_requires", "any") == "any"


def _blocked_at_once(rules: GameRules) -> bool:
    return getattr(rules, "blocked_after", "no-placement") == "no-placement"


def _unit(rules: GameRules) -> int:
    """Raw points per point of the game's score unit (5 in Horse Race, 1 in Sniff)."""
    return rules.display_divisor if rules.raw.get("points", {}).get("unit") == "displayed" else 1


def _score_step(rules: GameRules) -> int:
    """The step every score moves in: placements score multiples of the scoring multiple, and a
    settlement moves scores by multiples of its rounding (a profile counting pips unrounded, 1)."""
    rounding = rules.settlement.get("rounding", {}).get("multiple", rules.scoring_multiple)
    return max(1, math.gcd(rules.scoring_multiple, int(rounding)) // _unit(rules))


def _score_problems(rules: GameRules, config: MatchConfig, scores: Any, what: str = "scores") -> list[str]:
    """Scores before a placement or settlement: below the target (else the match had ended),
    in steps of the scoring multiple, never below 0 where scores never fall."""
    if not isinstance(scores, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
        return []  # the schema and the reference answer for a malformed list
    out = []
    step = _score_step(rules)
    falls = rules.settlement.get("kind") == "deduct-per-seat"
    # a target reached by a placement ends the match at once where the rules say so; where
    # the match ends only at the hand's end, scores may pass the target during the hand
    at_once = rules.match_end.get("on_placement", "immediate") == "immediate"
    for side, s in enumerate(scores):
        if s >= config.target and at_once:
            out.append(f"{what}[{side}] = {s} has reached the target {config.target}: the match would be over")
        if s % step:
            out.append(f"{what}[{side}] = {s} is not a multiple of {step}: every score moves in steps of {step}")
        if s < 0 and not falls:
            out.append(f"{what}[{side}] = {s} is below 0, and scores never fall in {rules.name}")
    return out


def _config(rules: GameRules, input: dict[str, Any]) -> MatchConfig | None:
    try:
        return configure(rules, int(input.get("players", 2)), bool(input.get("partnerships", False)))
    except (ConfigError, TypeError, ValueError):
        return None


def _tiles(items: Any) -> list[Tile] | None:
    if not isinstance(items, list):
        return None
    try:
        return [parse_tile(t) for t in items]
    except (TypeError, ValueError):
        return None


def _layout(rules: GameRules, records: Any) -> tuple[Layout, list[int]] | None:
    try:
        return build_layout(rules, records)
    except IllegalPlacement:
        return None


def _earned(rules: GameRules, config: MatchConfig, records: list[Any]) -> bool:
    """Did the layout's last placement earn its placer a continuation (as from hand)?"""
    built = _layout(rules, records[:-1])
    if built is None:
        return False
    m = Match(rules, config, None)
    m.layout = built[0]
    try:
        raw = m.layout.push(parse_placement(records[-1], len(records) - 1))
    except IllegalPlacement:
        return False
    return m._hook_continuations_earned(m.layout.tiles[-1], False, raw) > 0


def evaluate_problems(rules: GameRules, input: dict[str, Any]) -> list[str]:
    records = input.get("placements")
    if not isinstance(records, list):
        return []
    legal = 0
    for i in range(len(records)):
        if _layout(rules, records[:i + 1]) is None:
            break
        legal = i + 1
    cap = rules.most_tiles_laid  # a hand ends when a seat goes out (GameRules.layout_cap)
    if legal > cap:
        return [f"a layout of {legal} tiles: at most {cap} can be laid before a seat goes out"]
    return []


def legal_problems(rules: GameRules, input: dict[str, Any]) -> list[str]:
    config = _config(rules, input)
    hand = _tiles(input.get("hand"))
    records = input.get("layout", [])
    built = _layout(rules, records) if isinstance(records, list) else None
    if config is None or hand is None or built is None:
        return []
    layout = built[0]
    out = []
    h, p = config.hand_size, config.players
    in_play = TILES - rules.dead_tiles(p)  # deal.dead: the tiles set aside are in no boneyard
    undealt = in_play - p * h
    bone = input.get("boneyard", 0)
    bone = bone if isinstance(bone, int) and not isinstance(bone, bool) else 0
    if not hand:
        out.append("the seat to act holds no tile: its hand would have ended")
    if bone > undealt:
        out.append(f"a boneyard of {bone}: only {undealt} tiles are left after the deal")
    if len(layout) + len(hand) + (p - 1) > in_play - bone:
        out.append(f"{len(layout)} layout tiles, {len(hand)} in hand, {bone} in the boneyard and a tile for each "
                   f"of the {p - 1} other seat(s) are more than the {in_play} tiles in play")
    out += _continuation_problems(rules, config, input, records, bone < undealt)
    if not len(layout) and _opening_any(rules) and (len(hand) != h or bone != undealt):
        out.append(f"an empty layout is the start of a hand: the leader holds {h} tiles and the boneyard {undealt}")
    return out


def _continuation_problems(rules: GameRules, config: MatchConfig, input: dict[str, Any], records: list[Any],
                           drew: bool) -> list[str]:
    out = []
    if input.get("continuing"):
        if not rules.continuation.get("enabled"):
            out.append(f"continuing: {rules.name} has no continuation")
        elif records and not _earned(rules, config, records):
            out.append("continuing, but the layout's last placement earned no continuation")
    if input.get("drawn") is not None and not drew:
        out.append("a drawn tile, but nobody has drawn: the boneyard is as dealt")
    return out


def complete(rules: GameRules, input: dict[str, Any]) -> dict[str, Any]:
    """A `turn` state with every tile the state leaves out added at the bottom of the
    boneyard, in tile order, but the last `deal.dead` of them: those stay set aside (the input
    is not changed)."""
    out = copy.deepcopy(input)
    listed: set[Tile] = set()
    built = _layout(rules, input.get("layout", []))
    if built is None:
        return out
    listed.update(built[0].tiles)
    for group in list(input.get("hands", [])) + [input.get("boneyard", [])]:
        tiles = _tiles(group)
        if tiles is None:
            return out
        listed.update(tiles)
    left = [str(t) for t in ALL_TILES if t not in listed]
    players = input.get("players")
    dead = rules.dead_tiles(players) if isinstance(players, int) and not isinstance(players, bool) else 0
    out["boneyard"] = list(out.get("boneyard", [])) + left[:max(0, len(left) - dead)]
    return out


def turn_problems(rules: GameRules, input: dict[str, Any]) -> list[str]:
    config = _config(rules, input)
    hands_raw = input.get("hands")
    hands = [_tiles(h) for h in hands_raw] if isinstance(hands_raw, list) else None
    bone = _tiles(input.get("boneyard", []))
    records = input.get("layout", [])
    built = _layout(rules, records) if isinstance(records, list) else None
    seat = input.get("seat")
    if config is None or hands is None or any(h is None for h in hands) or bone is None or built is None \
            or len(hands) != config.players or not isinstance(seat, int) or not 0 <= seat < config.players:
        return []  # the reference answers malformed-input: not a state at all
    layout, raws = built
    out = []
    h, p = config.hand_size, config.players
    reserve = rules.boneyard_reserve.get(p, 0)  # boneyard tiles never drawn
    sizes = [len(x) for x in hands if x is not None]
    listed = len(layout) + sum(sizes) + len(bone)
    in_play = TILES - rules.dead_tiles(p)  # deal.dead: the tiles set aside are listed nowhere
    if listed != in_play:
        out.append(f"{listed} tiles in the layout, hands and boneyard: a deal accounts for all {TILES}"
                   + (f" but the {TILES - in_play} set aside" if in_play != TILES else ""))
    for s, n in enumerate(sizes):
        if n == 0:
            out.append(f"seat {s} holds no tile: the hand would have ended when it went out")
    drawn_total = len(layout) + sum(sizes) - p * h  # tiles that left the boneyard
    if len(bone) < reserve:
        out.append(f"a boneyard of {len(bone)}: {reserve} tiles are never drawn")
    if drawn_total < 0:
        out.append(f"the layout and hands hold {len(layout) + sum(sizes)} tiles, fewer than the {p * h} dealt")
    placed_min = [max(0, h - n) for n in sizes]
    if input.get("continuing"):
        placed_min[seat] = max(1, placed_min[seat])
    if sum(placed_min) > len(layout):
        out.append(f"the hands ({', '.join(map(str, sizes))} tiles, dealt {h} each) need at least "
                   f"{sum(placed_min)} tiles placed, the layout has {len(layout)}")
    if not len(layout) and _opening_any(rules) and drawn_total > 0:
        out.append("an empty layout is the start of a hand, but tiles have been drawn")
    out += _continuation_problems(rules, config, input, records, drawn_total > 0)
    out += _score_problems(rules, config, input.get("scores", [0] * len(config.sides)))
    if rules.settlement.get("kind") != "deduct-per-seat" and isinstance(input.get("scores"), list):
        scored = sum(r // _unit(rules) for r in raws)
        have = sum(s for s in input["scores"] if isinstance(s, int))
        if have < scored:
            out.append(f"the layout's placements scored {scored} points this hand, the scores add up to {have}")
    if len(layout) and len(bone) <= reserve and _blocked_at_once(rules) \
            and not any(layout.can_place(t) for hand in hands if hand for t in hand):
        out.append("no seat can place and the boneyard is spent: the hand would have ended blocked")
    return out


def settle_problems(rules: GameRules, input: dict[str, Any]) -> list[str]:
    config = _config(rules, input)
    end = input.get("end")
    if config is None or not isinstance(end, dict):
        return []
    out = _score_problems(rules, config, input.get("scores", [0] * len(config.sides)))
    gone = end.get("seat") if end.get("reason") == "gone-out" else None
    remaining = input.get("remaining")
    if isinstance(remaining, list):
        hands = [_tiles(x) for x in remaining]
        if any(x is None for x in hands) or len(hands) != config.players:
            return out
        every = [t for x in hands if x is not None for t in x]
        if len(set(every)) < len(every):
            out.append("a tile remains in two places: every tile of the set is dealt once")
        placed = TILES - rules.boneyard_reserve.get(config.players, 0) - rules.dead_tiles(config.players) - len(every)
        for s, x in enumerate(hands):
            if s != gone and not x:
                out.append(f"seat {s} holds no tile, yet "
                           + ("another seat went out" if gone is not None else "the hand was blocked"))
        if gone is not None and placed < config.hand_size:
            out.append(f"{len(every)} tiles remain: the seat that went out placed at least {config.hand_size}")
        if gone is None and every:
            values = {v for t in every for v in (t.low, t.high)}
            if len(values) > rules.raw["set"]["max_pip"]:
                out.append("the remaining tiles show every pip value, so no end of a blocked layout can be open")
    return out


def match_end_problems(rules: GameRules, input: dict[str, Any]) -> list[str]:
    config = _config(rules, input)
    if config is None:
        return []
    out = _score_problems(rules, config, input.get("scores", [0] * len(config.sides)))
    awards = input.get("awards")
    if isinstance(awards, list):
        falls = rules.settlement.get("kind") == "deduct-per-seat"
        step = _score_step(rules)
        for side, a in enumerate(awards):
            if not isinstance(a, int) or isinstance(a, bool):
                continue
            if (a > 0 and falls) or (a < 0 and not falls):
                out.append(f"awards[{side}] = {a}: a settlement in {rules.name} only "
                           + ("deducts" if falls else "awards"))
            if a % step:
                out.append(f"awards[{side}] = {a} is not a multiple of {step}")
            if abs(a) > _most_from_one_settlement(rules, config):
                out.append(f"awards[{side}] = {a}: one settlement moves a side by at most "
                           f"{_most_from_one_settlement(rules, config)}")
        out += _tied_award_problems(rules, config, awards)
    return out


def _most_from_one_settlement(rules: GameRules, config: MatchConfig) -> int:
    """The most one settlement can move a side, in score units: every pip of the set, each
    seat's rounding up at most once (Sniff rounds seat by seat)."""
    multiple = int(rules.settlement.get("rounding", {}).get("multiple", 5))
    raw = sum(t.pips for t in ALL_TILES) + config.players * multiple
    falls = rules.settlement.get("kind") == "deduct-per-seat"
    divisor = _unit(rules) if falls else int(rules.settlement.get("award_divisor", _unit(rules)))
    return raw // max(1, divisor)


def _tied_award_problems(rules: GameRules, config: MatchConfig, awards: list[Any]) -> list[str]:
    """One award-to-winner settlement gives several sides an award only when they tie for the
    lowest total, and then each counts the same pips (every seat not on its side, the other
    tied winners' equal totals included), so every award it gives is the same. A variant that
    counts a partner's pips, or rounds seat by seat, can tell tied partnerships apart."""
    s = rules.settlement
    if s.get("kind") == "deduct-per-seat":
        return []
    if config.partnerships and (not s.get("exclude_winner_partner", True)
                                or s.get("award_rounding", "total") != "total"):
        return []
    given = sorted({a for a in awards if isinstance(a, int) and not isinstance(a, bool) and a > 0})
    if len(given) > 1:
        return [f"awards {awards}: the sides one settlement awards are tied winners, and tied winners "
                f"get the same award"]
    return []


def dealt_hands(rules: GameRules, deal: Any, players: int) -> list[list[Tile]] | str:
    """The hands of `deal`, or why it is no deal of the game for `players`: a hand per seat of
    `deal.hand_size` tiles, no tile twice."""
    read = [_tiles(h) for h in deal] if isinstance(deal, list) else [None]
    size = rules.hand_size.get(players)
    hands = [h for h in read if h is not None and len(h) == size]
    if len(read) != players or len(hands) != players:
        return f"deal: {players} hands of {size} tiles are dealt, one per seat"
    tiles = [t for h in hands for t in h]
    return "deal: a tile is dealt twice" if len(set(tiles)) != len(tiles) else hands


def deal_problems(rules: GameRules, deal: Any, players: int) -> list[str]:
    """Why `deal` is no deal of the game for `players` (empty: it is one); see dealt_hands."""
    hands = dealt_hands(rules, deal, players)
    return [hands] if isinstance(hands, str) else []


def next_leader_problems(rules: GameRules, input: dict[str, Any]) -> list[str]:
    """A first hand's `deal` is a deal of the game (the question itself needs no play)."""
    deal, config = input.get("deal"), _config(rules, input)
    return [] if deal is None or config is None else deal_problems(rules, deal, config.players)


CHECKS = {"evaluate": evaluate_problems, "perft": evaluate_problems, "legal-placements": legal_problems,
          "turn": turn_problems, "settle": settle_problems, "match-end": match_end_problems,
          "next-leader": next_leader_problems}


def problems(rules: GameRules, kind: str, input: Any) -> list[str]:
    """Why the state of a `kind` request cannot be reached by play from a deal (empty: it can,
    as far as the conditions of spec/fuzz.md go). Questions without a state (setup, tally,
    next-leader without a deal) are always reachable."""
    check = CHECKS.get(kind)
    if check is None or not isinstance(input, dict):
        return []
    return check(rules, input)


def reachable(rules: GameRules, kind: str, input: Any) -> bool:
    return not problems(rules, kind, input)


def repair(rules: GameRules, kind: str, input: dict[str, Any]) -> dict[str, Any]:
    """The nearest state the conditions allow, for generated requests (the fuzzer): scores
    rounded down to the scoring step, kept below the target (and at 0 or above where scores
    never fall), awards given the sign a settlement gives them (tied winners the same award),
    a `turn` state completed
    (`complete`). The result may still be unreachable: check it with `problems`."""
    config = _config(rules, input)
    if config is None:
        return input
    out = complete(rules, input) if kind == "turn" else copy.deepcopy(input)
    step = _score_step(rules)
    falls = rules.settlement.get("kind") == "deduct-per-seat"

    def fix(s: Any) -> Any:
        if not isinstance(s, int) or isinstance(s, bool):
            return s
        s = min(s - s % step, config.target - step)
        return s if falls else max(0, s)

    if isinstance(out.get("scores"), list):
        out["scores"] = [fix(s) for s in out["scores"]]
    if kind == "settle":
        out = _unblock(rules, out)
    if kind == "match-end" and isinstance(out.get("awards"), list):
        def sign(a: Any) -> Any:
            if not isinstance(a, int) or isinstance(a, bool):
                return a
            m = abs(a) - abs(a) % step
            return -m if falls else m

        out["awards"] = [sign(a) for a in out["awards"]]
        if _tied_award_problems(rules, config, out["awards"]):  # tied winners: the first one's award
            first = next(a for a in out["awards"] if isinstance(a, int) and not isinstance(a, bool) and a > 0)
            out["awards"] = [first if isinstance(a, int) and not isinstance(a, bool) and a > 0 else a
                             for a in out["awards"]]
    return out


def _unblock(rules: GameRules, input: dict[str, Any]) -> dict[str, Any]:
    """A blocked settlement whose remaining tiles show every pip value cannot be: no end of
    the layout could be open. For the rarest value that allows it, swap each remaining tile
    showing it for an unused tile of the same pips without it (totals, and so ties, stay)."""
    end, remaining = input.get("end"), input.get("remaining")
    if not isinstance(end, dict) or end.get("reason") != "blocked" or not isinstance(remaining, list):
        return input
    hands = [_tiles(h) for h in remaining]
    if any(h is None for h in hands):
        return input
    every = [t for h in hands if h is not None for t in h]
    top = rules.raw["set"]["max_pip"]
    if len({v for t in every for v in (t.low, t.high)}) <= top:
        return input
    for v in sorted(range(top + 1), key=lambda v: (sum(v in (t.low, t.high) for t in every), v)):
        used = set(every)
        swapped: list[list[str]] = []
        for hand in hands:
            new = []
            for t in hand or []:
                if v in (t.low, t.high):
                    spare = next((u for u in ALL_TILES
                                  if u not in used and v not in (u.low, u.high) and u.pips == t.pips), None)
                    if spare is None:
                        break
                    used.add(spare)
                    t = spare
                new.append(str(t))
            else:
                swapped.append(new)
                continue
            break
        else:
            out = copy.deepcopy(input)
            out["remaining"] = swapped
            return out
    return input
