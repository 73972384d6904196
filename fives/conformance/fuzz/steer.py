"""The second lane's steered turns (fives/conformance/fuzz/lane.py): situations uniform play
reaches too seldom for every clause to come up in each seed's 500 default draws (issue 37).

- `winning-out`: the seat to act goes out with a scoring tile that also reaches the target
  (the match ends at once and the hand is not settled: SN-MATCH-1, HR-MATCH-1, HR-CONT-4);
- `zero-sum`: a placement that leaves every counted end blank, a sum of 0 (SN-SCORE-2,
  HR-SCORE-2: no score, so no continuation in Horse Race);
- `last-tile-drawn`: the boneyard's last tile drawn and not playable (the hand blocked or
  play going on without a boneyard: SN-DRAW-2, HR-DRAW-2, SN-END-2, HR-END-1).

Every state is reached by play (`small_state`: a deal, the leader by lot, legal actions);
a steered turn only picks, among the legal actions, the ones that show the situation, and
the scores before the hand, which any score short of the target may be (fives/conformance/
cases/reachable.py checks the request again).
"""
from __future__ import annotations

import random
from typing import Any

from fives.conformance.fuzz.small import play_one, small_state
from fives.conformance.golden.play import _turn_case, turn_state
from fives.match import DRAW, PASS, PLACE, Action, IllegalAction, Match
from fives.rules import GameRules

STEERED = ("winning-out", "zero-sum", "last-tile-drawn")
#: Hands dealt per request, and actions played in each, before giving up (the fuzzer then
#: draws again).
HANDS = 4
STEPS = 120


def steered_turn(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    """A hand dealt and played (random legal actions, toward the smallest sum half the time)
    until a turn shows the situation drawn; that turn."""
    wanted = rng.choice(STEERED)
    show = {"winning-out": _winning_out, "zero-sum": _zero_sum, "last-tile-drawn": _last_drawn}[wanted]
    for _ in range(HANDS):
        made = small_state(rng, rules, opening=True)
        if made is None:
            continue
        match, _, toward_zero = made
        players, partners = match.config.players, match.config.partnerships
        try:
            for _ in range(STEPS):
                if not match.in_hand or match.match_end is not None:
                    break
                if match.drawn is None and not match.continuing:
                    case = show(rng, rules, match, turn_state(match, players, partners))
                    if case is not None:
                        return case
                    if not match.in_hand or match.match_end is not None:
                        break
                play_one(rng, match, toward_zero)
        except (IllegalAction, ValueError):
            continue
    return None


def _gain(match: Match, p: Any) -> int:
    """The score (in score units) placement `p` earns where the match stands."""
    match.layout.push(p)
    raw = match.rules.score(match.layout.sum)
    match.layout.pop()
    return match.rules.display(raw)


def _winning_out(rng: random.Random, rules: GameRules, match: Match, state: dict[str, Any]) -> dict[str, Any] | None:
    seat = match.to_act
    if len(match.hands[seat]) != 1 or match.drawn is not None:
        return None
    scoring = [p for p in match.legal_options().placements if _gain(match, p) > 0]
    if not scoring:
        return None
    p = rng.choice(scoring)
    side = match.config.side_of[seat]
    scores = list(state["scores"])
    scores[side] = match.config.target - _gain(match, p)
    if scores[side] < 0 or any(s >= match.config.target for s in scores):
        return None
    return _turn_case(rules, {**state, "scores": scores}, [{"action": PLACE, **p.to_dict()}], "steered-winning-out")


def _zero_sum(rng: random.Random, rules: GameRules, match: Match, state: dict[str, Any]) -> dict[str, Any] | None:
    zero = []
    for p in match.legal_options().placements:
        match.layout.push(p)
        if match.layout.sum == 0 and not p.tile.is_double:
            zero.append(p)
        match.layout.pop()
    if not zero:
        return None
    return _play_from(rules, match, state, rng.choice(zero), "steered-zero-sum")


def _last_drawn(rng: random.Random, rules: GameRules, match: Match, state: dict[str, Any]) -> dict[str, Any] | None:
    """Draws while the seat has nothing to place, until the boneyard's last tile comes and
    does not fit (or the seat can place, then the turn is not the one wanted)."""
    actions: list[dict[str, Any]] = []
    try:
        while match.in_hand and match.match_end is None and len(actions) < 30:
            opts = match.legal_options()
            if opts.placements or not opts.draw:
                return None
            out = match.apply(Action(DRAW, None, match.to_act))
            actions.append({"action": DRAW})
            if not match.boneyard:
                if match.in_hand and match.legal_options().placements:
                    return None  # the last tile fits: no block to show
                if match.in_hand and not out.turn_end:
                    actions.append({"action": PASS})
                return _turn_case(rules, state, actions, "steered-last-tile-drawn")
            if out.turn_end:
                return None
    except IllegalAction:
        return None
    return None


def _play_from(rules: GameRules, match: Match, state: dict[str, Any], first: Any, category: str) -> dict[str, Any] | None:
    """The turn that starts with placement `first`, played on (the first legal action each
    time) to its end."""
    actions: list[dict[str, Any]] = []
    try:
        p = first
        while len(actions) < 12:
            out = match.apply(Action(PLACE, p, match.to_act))
            actions.append({"action": PLACE, **p.to_dict()})
            while not out.turn_end and match.in_hand and match.match_end is None and len(actions) < 12:
                opts = match.legal_options()
                if opts.placements:
                    break
                kind = DRAW if opts.draw else PASS
                out = match.apply(Action(kind, None, match.to_act))
                actions.append({"action": kind})
            if out.turn_end or not match.in_hand or match.match_end is not None:
                break
            p = match.legal_options().placements[0]
    except IllegalAction:
        return None
    return _turn_case(rules, state, actions, category)
