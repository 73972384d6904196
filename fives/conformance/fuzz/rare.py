"""The fuzzer's generator of rare turns: the situations random play seldom shows at the
moment a request is drawn, yet where engines go wrong (issue 26).

- `blocked-draw`: a draw that leaves the hand blocked (the turn and the hand end with it);
- `continuation-out`: a continuation placement that goes out (Horse Race);
- `target-mid-turn`: a placement that reaches the target after the turn's first action;
- `partnership-tie`: a partnership hand that ends with sides tied for lowest;
- and (`refused_turn`) a draw or a pass the seeds refuse, before the opening in particular.

Each is found by playing hands from a deal (a shuffle, the leader by lot, random or greedy
strategies, scores now and then a few steps short of the target) and keeping a turn that
shows the situation, so every request is reached by play (fives/conformance/cases/reachable.py
checks it again). A game whose rules never show a situation gets another one.
"""
from __future__ import annotations

import random
from typing import Any

from fives.conformance.fuzz.small import _scores, small_state
from fives.conformance.golden.play import _config, _turn_case, turn_state
from fives.moves import Placement
from fives.match import DRAW, PASS, PLACE, Action, IllegalAction, Match, Outcome
from fives.rules import GameRules
from fives.settlement import BLOCKED, GONE_OUT, configure
from fives.strategies import make_strategies
from fives.tiles import ALL_TILES

SITUATIONS = ("blocked-draw", "continuation-out", "target-mid-turn", "partnership-tie")
#: Hands played per request before giving up (the fuzzer then draws again): blocked hands and
#: partnership ties come up once in tens of hands, the others in most.
HANDS_PER_TRY = {"blocked-draw": 40, "continuation-out": 6, "target-mid-turn": 6, "partnership-tie": 150}
#: Actions in one turn at most (a Horse Race turn of continuations and draws is longer than most).
MAX_TURN_ACTIONS = 40


def situations(case: dict[str, Any]) -> set[str]:
    """Which rare situations a `turn` case shows, read off its request and the seeds' answer
    (also how benchmarks/fuzz_rare.py counts them among all the fuzzer's draws)."""
    if case.get("kind") != "turn":
        return set()
    actions = [a["action"] for a in case["input"]["actions"]]
    answer = case["expect"]
    end, match_end = answer.get("hand_end"), answer.get("match_end")
    found: set[str] = set()
    if not actions or "error" in answer:
        return found
    if end is not None and end["reason"] == BLOCKED and actions[-1] == DRAW:
        found.add("blocked-draw")
    if end is not None and end["reason"] == GONE_OUT and actions.count(PLACE) > 1:
        found.add("continuation-out")
    if match_end is not None and match_end["by"] == "placement" and len(actions) > 1:
        found.add("target-mid-turn")
    settlement = answer.get("settlement")
    if case["input"].get("partnerships") and end is not None and end["reason"] == BLOCKED and settlement:
        pips = [seat["pips"] for seat in settlement["seats"]]
        if len(pips) == 4 and pips[0] + pips[2] == pips[1] + pips[3]:
            found.add("partnership-tie")
    return found


def rare_turn(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    """A turn case showing one rare situation, chosen at random; None if none came up."""
    wanted = rng.choice(SITUATIONS)
    partners_wanted = True if wanted == "partnership-tie" else None
    players, partners = _config(rng, rules, partners_wanted)
    config = configure(rules, players, partners)
    fallback: dict[str, Any] | None = None
    for _ in range(HANDS_PER_TRY[wanted]):
        tiles = list(ALL_TILES)
        rng.shuffle(tiles)
        h = config.hand_size
        hands = [sorted(tiles[s * h:(s + 1) * h]) for s in range(players)]
        try:
            match = Match.from_state(rules, config, scores=_scores(rng, rules, config), layout=[], hands=hands,
                                     boneyard=tiles[players * h + rules.dead_tiles(players):],
                                     seat=rng.randrange(players))
        except (IllegalAction, ValueError):
            continue
        strategies = make_strategies([rng.choice(["random", "greedy"])], config, rng.randrange(1 << 30))
        # blocked hands (and their ties) come up 3 to 5 times as often when every seat closes ends
        closing = wanted in ("blocked-draw", "partnership-tie") and rng.random() < 0.75
        while match.in_hand and match.match_end is None:
            state = turn_state(match, players, partners)
            played = _play_turn(match, strategies, rng if closing else None)
            if played is None:
                break
            last, actions = played
            if last.hand_end is None and last.match_end is None:
                continue  # every rare situation ends the hand or the match
            case = _turn_case(rules, state, actions, f"rare-{wanted}")
            shown = situations(case)
            if wanted in shown:
                return case
            if shown and fallback is None:
                fallback = _turn_case(rules, state, actions, "rare-turn")
    return fallback  # a rarity, if not the one drawn, is better than none


def _closing(match: Match, moves: list[Placement], rng: random.Random) -> Placement:
    """The placement that leaves the fewest unplaced tiles matching an open end (a strategy
    that steers toward a blocked hand); ties broken at random."""
    layout = match.layout
    best: list[Placement] = []
    fewest = len(ALL_TILES) + 1
    for p in moves:
        layout.push(p)
        ends, placed = layout.open_values(), set(layout.tiles)
        n = sum(1 for t in ALL_TILES if t not in placed and (t.high in ends or t.low in ends))
        layout.pop()
        if n < fewest:
            fewest, best = n, [p]
        elif n == fewest:
            best.append(p)
    return rng.choice(best)


def _play_turn(match: Match, strategies: Any,
               closing: random.Random | None = None) -> tuple[Outcome, list[dict[str, Any]]] | None:
    """Play one turn to its end (by `_closing` when given its rng); its last outcome and its
    actions as a `turn` request lists them."""
    actions: list[dict[str, Any]] = []
    try:
        while len(actions) < MAX_TURN_ACTIONS:
            opts = match.legal_options()
            seat = match.to_act
            if opts.placements:
                p = (_closing(match, opts.placements, closing) if closing is not None
                     else strategies[seat].choose(match, seat, opts.placements))
                out = match.apply(Action(PLACE, p, seat))
                actions.append({"action": PLACE, **p.to_dict()})
            else:
                kind = DRAW if opts.draw else PASS
                out = match.apply(Action(kind, None, seat))
                actions.append({"action": kind})
            if out.turn_end or not match.in_hand or match.match_end is not None:
                return out, actions
    except IllegalAction:
        return None
    return None


def refused_turn(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    """A reached state (half the time before the opening) whose seat draws or passes when the
    seeds refuse it: before the opening, holding a playable tile, or passing with a boneyard to
    draw from. The seeds' answer is the refusal (the `error` of a `turn` reply)."""
    made = small_state(rng, rules, late=False, opening=rng.random() < 0.5)
    if made is None:
        return None
    match, state, _ = made
    opts = match.legal_options()
    refused = [a for a, allowed in ((DRAW, opts.draw), (PASS, opts.pass_)) if not allowed]
    if not refused:
        return None
    return _turn_case(rules, state, [{"action": rng.choice(refused)}], "refused-action")
