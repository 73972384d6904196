"""Shrinking: smaller versions of a request, biggest cuts first.

Each kind lists candidate requests that are strictly smaller than the one given (fewer
players, placements, actions, hand or boneyard tiles, lower scores). The greedy loop in
`shrink` takes the first candidate that still disagrees in the same way and starts over,
so it ends on a request none of whose candidates disagree that way: a local minimum.
Candidates the reference cannot read (an inconsistent state) are dropped by the oracle.
"""
from __future__ import annotations

import copy
import itertools
from typing import Any, Callable, Iterator

from fives.conformance.cases.kinds.play import run_turn
from fives.rules import GameRules
from fives.settlement import ConfigError, configure
from fives.tiles import ALL_TILES, parse_tile
from fives.conformance.fuzz.oracle import Oracle, Verdict
from fives.conformance.cases.reachable import complete

Input = dict[str, Any]


def _cuts(items: list[Any], keep_last: bool = False) -> Iterator[list[Any]]:
    """Shorter lists: every prefix (shortest first), then every single removal."""
    n = len(items)
    for k in range(0, n):
        yield items[:k]
        if keep_last and k < n - 1:
            yield items[:k] + items[-1:]
    for i in range(n - 1, -1, -1):
        yield items[:i] + items[i + 1:]


def _with(input: Input, **changes: Any) -> Input:
    out = copy.deepcopy(input)
    out.update(changes)
    return out


def _reseat(input: Input, rules: GameRules, keep: tuple[int, ...], partners: bool, hands_key: str) -> Input | None:
    """The same question with only the seats in `keep` (renumbered in order), each for
    themselves or in partnerships; None if that configuration does not exist or a seat
    that acts or went out would be dropped."""
    players = int(input.get("players", 2))
    was_partners = bool(input.get("partnerships", False))
    if (len(keep), partners) not in rules.configurations():
        return None
    try:
        old = configure(rules, players, was_partners)
    except ConfigError:
        return None
    index = {s: i for i, s in enumerate(keep)}
    out = copy.deepcopy(input)
    out["players"], out["partnerships"] = len(keep), partners
    if isinstance(out.get(hands_key), list) and len(out[hands_key]) == players:
        out[hands_key] = [out[hands_key][s] for s in keep]
    for key in ("scores", "awards"):
        values = out.get(key)
        if not isinstance(values, list) or len(values) != len(old.sides):
            continue
        if partners and was_partners:
            continue  # the same two sides
        # a seat keeps its old side's value; a partnership from seats keeps the first seat's
        seat_values = [values[old.side_of[s]] for s in keep]
        out[key] = seat_values if not partners else seat_values[:2]
    refs = [out] if "seat" in out else []
    refs += [out["end"]] if isinstance(out.get("end"), dict) else []
    refs += [a for a in out.get("actions", []) if isinstance(a, dict)]
    for ref in refs:
        if ref.get("seat") is not None:
            if ref["seat"] not in index:
                return None
            ref["seat"] = index[ref["seat"]]
    return out


def _fewer_players(input: Input, rules: GameRules, hands_key: str) -> Iterator[Input]:
    """Fewest seats first; partnerships dissolved before seats are dropped."""
    players = int(input.get("players", 2))
    partners = bool(input.get("partnerships", False))
    if partners and (players, False) in rules.configurations():
        out = _reseat(input, rules, tuple(range(players)), False, hands_key)
        if out is not None:
            yield out
    for n in range(2, players):
        for keep in itertools.combinations(range(players), n):
            out = _reseat(input, rules, keep, False, hands_key)
            if out is not None:
                yield out


def _smaller_hands(input: Input, key: str) -> Iterator[Input]:
    hands = input.get(key)
    if not isinstance(hands, list):
        return
    for s, hand in enumerate(hands):
        if isinstance(hand, list):
            for cut in _cuts(hand):
                yield _with(input, **{key: hands[:s] + [cut] + hands[s + 1:]})


def _lighter_tiles(input: Input, key: str) -> Iterator[Input]:
    """One hand tile swapped for an unused tile with fewer pips (lightest first)."""
    hands = input.get(key)
    if not isinstance(hands, list):
        return
    try:
        used = {parse_tile(t) for h in hands for t in h}
    except (TypeError, ValueError):
        return
    spare = sorted((t for t in ALL_TILES if t not in used), key=lambda t: (t.pips, t))
    for s, hand in enumerate(hands):
        for i, text in enumerate(hand):
            old = parse_tile(text)
            for t in spare:
                if t.pips >= old.pips:
                    break
                yield _with(input, **{key: hands[:s] + [hand[:i] + [str(t)] + hand[i + 1:]] + hands[s + 1:]})


def _lower_scores(input: Input, key: str = "scores") -> Iterator[Input]:
    values = input.get(key)
    if isinstance(values, list):
        for i, v in enumerate(values):
            if isinstance(v, int) and v != 0:
                yield _with(input, **{key: values[:i] + [0] + values[i + 1:]})


def evaluate_candidates(input: Input, rules: GameRules) -> Iterator[Input]:
    placements = input.get("placements")
    if isinstance(placements, list):
        for cut in _cuts(placements, keep_last=True):
            if cut:
                yield _with(input, placements=cut)


def _play_first_action(input: Input, rules: GameRules) -> Iterator[Input]:
    """The turn's first placement moved into the layout: the state just after it (the tile
    out of the hand, the side's score updated, `continuing` if it earned a continuation)."""
    actions = input.get("actions")
    if not isinstance(actions, list) or len(actions) < 2 or not isinstance(actions[0], dict) \
            or actions[0].get("action") != "place" or input.get("drawn") is not None:
        return
    answer = run_turn(rules, input, {})
    results = answer.get("results", [])
    if "error" in answer or not results or not results[0].get("continues"):
        return
    seat = input.get("seat")
    try:
        side = configure(rules, int(input.get("players", 2)), bool(input.get("partnerships", False))).side_of[seat]
        hand = [t for t in input["hands"][seat] if parse_tile(t) != parse_tile(actions[0]["tile"])]
    except (ConfigError, KeyError, IndexError, TypeError, ValueError):
        return
    scores = list(input.get("scores", []))
    if side < len(scores):
        scores[side] = results[0]["score"]
    placement = {k: actions[0][k] for k in ("tile", "to", "side") if k in actions[0]}
    hands = [hand if s == seat else h for s, h in enumerate(input["hands"])]
    yield _with(input, layout=list(input.get("layout", [])) + [placement], hands=hands, scores=scores,
                continuing=True, actions=actions[1:])


def _turn_cuts(input: Input, rules: GameRules) -> Iterator[Input]:
    yield from _fewer_players(input, rules, "hands")
    yield from _play_first_action(input, rules)
    actions = input.get("actions")
    if isinstance(actions, list):
        for k in range(1, len(actions)):
            yield _with(input, actions=actions[:k])
    layout = input.get("layout")
    if isinstance(layout, list):
        for cut in _cuts(layout):
            yield _with(input, layout=cut)
    yield from _smaller_hands(input, "hands")
    yield from _lower_scores(input)


def turn_candidates(input: Input, rules: GameRules) -> Iterator[Input]:
    """A turn state stays a whole deal (spec/fuzz.md, Reachable states): a tile cut from the
    layout or a hand, or a dropped seat's hand, goes to the bottom of the boneyard; the
    boneyard itself is then the rest of the set, so it is not cut."""
    for cand in _turn_cuts(input, rules):
        yield complete(rules, cand)


def settle_candidates(input: Input, rules: GameRules) -> Iterator[Input]:
    yield from _fewer_players(input, rules, "remaining")
    yield from _smaller_hands(input, "remaining")
    yield from _lighter_tiles(input, "remaining")
    yield from _lower_scores(input)


def match_end_candidates(input: Input, rules: GameRules) -> Iterator[Input]:
    yield from _fewer_players(input, rules, "remaining")
    yield from _lower_scores(input, "awards")
    yield from _lower_scores(input)


def perft_candidates(input: Input, rules: GameRules) -> Iterator[Input]:
    """Shallower first (a depth-1 difference names the placements themselves), then a
    shorter layout, as evaluate's."""
    depth = input.get("depth")
    if isinstance(depth, int):
        for d in range(1, depth):
            yield _with(input, depth=d)
    placements = input.get("placements")
    if isinstance(placements, list):
        for cut in _cuts(placements, keep_last=True):
            yield _with(input, placements=cut)


CANDIDATES: dict[str, Callable[[Input, GameRules], Iterator[Input]]] = {
    "evaluate": evaluate_candidates, "turn": turn_candidates, "settle": settle_candidates,
    "match-end": match_end_candidates, "perft": perft_candidates,
}
#: Kinds whose request is a layout (`placements`) and no seats.
_LAYOUT_KINDS = ("evaluate", "perft")


def size(kind: str, input: Input) -> dict[str, int]:
    """What the shrinker minimizes, for the report: placements (layout and placing actions),
    hand tiles, boneyard tiles, players."""
    placements = input.get("placements") if kind in _LAYOUT_KINDS else input.get("layout")
    n = len(placements) if isinstance(placements, list) else 0
    n += sum(1 for a in input.get("actions", []) if isinstance(a, dict) and a.get("action") == "place")
    hands = input.get("hands", input.get("remaining", []))
    tiles = sum(len(h) for h in hands if isinstance(h, list)) if isinstance(hands, list) else 0
    bone = input.get("boneyard", [])
    return {"placements": n, "hand_tiles": tiles, "boneyard": len(bone) if isinstance(bone, list) else 0,
            "players": int(input.get("players", 2)) if kind not in (*_LAYOUT_KINDS, "tally") else 0}


def measure(kind: str, input: Input) -> tuple[int, ...]:
    """What every candidate must lower (in this order): players, placements, hand tiles,
    actions, boneyard tiles, then the sizes of scores and awards and the pips in hand."""
    s = size(kind, input)
    actions = input.get("actions")
    numbers = [v for key in ("scores", "awards") if isinstance(input.get(key), list)
               for v in input[key] if isinstance(v, int)]
    pips = 0
    for hand in input.get("hands", input.get("remaining", [])) if isinstance(input.get("hands", input.get("remaining")), list) else []:
        for t in hand if isinstance(hand, list) else []:
            try:
                pips += parse_tile(t).pips
            except (TypeError, ValueError):
                pass
    steps = len(actions) if isinstance(actions, list) else 0
    if kind == "perft" and isinstance(input.get("depth"), int):
        steps = input["depth"]  # a perft's plies are its actions
    return (s["players"], s["placements"], s["hand_tiles"], steps,
            s["boneyard"], sum(abs(v) for v in numbers), pips)


def shrink(oracle: Oracle, game: str, kind: str, input: Input, keys: tuple[str, ...], verdict: Verdict,
           budget: int = 3000) -> tuple[Input, Verdict, int, bool]:
    """(smallest input, its verdict, requests spent, interrupted) still disagreeing with
    signature `keys`. `budget` caps the engine requests; Ctrl-C ends early with the smallest
    input found so far (interrupted is then True)."""
    rules = oracle.reference.rules_for(game)  # the rules of the run (--rules P), as the oracle's
    gen = CANDIDATES.get(kind)
    start = oracle.requests
    if gen is None:
        return input, verdict, 0, False
    try:
        improved = True
        while improved and oracle.requests - start < budget:
            improved = False
            for cand in gen(input, rules):
                if oracle.requests - start >= budget:
                    break
                if measure(kind, cand) >= measure(kind, input):
                    continue  # only strictly smaller requests: the loop must end
                v = oracle.ask(game, kind, cand)
                if v.status == "differ" and v.keys == keys:
                    input, verdict, improved = cand, v, True
                    break
    except KeyboardInterrupt:
        return input, verdict, oracle.requests - start, True
    return input, verdict, oracle.requests - start, False
