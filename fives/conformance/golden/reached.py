"""Golden play cases v2 (suite_version 2): every state is one a whole seeded self-play match
reached (fives/conformance/golden/selfplay.py), so a strict engine, which refuses states no
game reaches, passes every case (spec/fixtures.md, "Golden suites", changelog).

- turns: the state at the start of a turn of the match and the actions its seat took;
- target mid-hand: the turn whose placement brought a side to the target (the match ends by
  placement; a continuation placement after it, when the seat holds one, is refused);
- settlements: the hand's remaining tiles and the scores before the settlement, as the match
  settled them (Sniff only deducts, so a Sniff settlement never ends the match);
- match ends: the scores before and the changes of one of the match's settlements (Horse
  Race preferring the one that ended it), sometimes with `hands` and `max_hands`.
Expected answers come from the reference kinds, as in v1 (fives/conformance/golden/play.py).
"""
from __future__ import annotations

import random
from typing import Any, Callable

from fives.conformance.cases.kinds.play import run_match_end
from fives.conformance.golden.cases import PREFIX, CaseBuilder, evaluate_case
from fives.conformance.golden.play import _settle_case, _turn_case
from fives.conformance.golden.selfplay import (DRAW, PASS, PLACE, Played, Settled, Turn, action_kinds, blocked,
                                               choose_config, play, tied)
from fives.evaluation import parse_placement
from fives.rules import GameRules

#: Hands played in search of a blocked tie before a plain blocked hand is taken (ties come
#: about once in 700 hands; a hand takes about a millisecond).
TIE_HUNT_HANDS = 500
#: Matches played for a state only some matches reach (a match ended by placement, or by settlement).
TRIES = 4


def _played(rng: random.Random, rules: GameRules, partnerships: bool | None = None) -> Played:
    return play(rng, rules, *choose_config(rng, rules, partnerships))


def ends_blocked(turn: Turn) -> bool:
    """The turn's last action (a draw or a pass) left the hand blocked (SN-END-2, HR-END-1)."""
    end = turn.outcomes[-1].hand_end
    return end is not None and end.reason == "blocked"


def turn_builder(category: str, wants: Callable[[Turn], bool], hr_only: bool = False,
                 prefer: Callable[[Turn], bool] | None = None) -> CaseBuilder:
    """A turn of the match that `wants`; half the time one that also meets `prefer`, when the
    match has one (rare states: a draw or a pass that blocks the hand)."""
    def build(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
        if hr_only and not rules.has_continuation:
            return None
        found = [t for t in _played(rng, rules).turns if wants(t)]
        if not found:
            return None
        rare = [t for t in found if prefer(t)] if prefer is not None and rng.random() < 0.5 else []
        turn = rng.choice(rare or found)
        return _turn_case(rules, turn.state, turn.actions, category)
    return build


def target_mid_hand(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    """The turn whose placement ended the match; in Horse Race now and then with one more
    placement the seat could have made (HR-CONT-4: refused, the match is over)."""
    for _ in range(TRIES):
        played = _played(rng, rules)
        turn = next((t for t in played.turns if t.ends_match), None)
        if turn is not None:
            break
    if turn is None or played.match is None:
        return None
    actions = list(turn.actions)
    m = played.match
    seat = turn.outcomes[-1].seat
    more = m.layout.legal_placements(m.hands[seat]) if m.hands[seat] else []
    if more and rules.has_continuation and rng.random() < 0.5:  # the continuation HR-CONT-4 refuses
        actions.append({"action": PLACE, **rng.choice(more).to_dict()})
    return _turn_case(rules, turn.state, actions, "target-mid-hand")


def _blocked_tie(rng: random.Random, rules: GameRules) -> Settled | None:
    """A blocked hand with tied lowest totals, or (none within TIE_HUNT_HANDS hands) the
    first blocked hand met."""
    fallback: Settled | None = None
    hands = 0
    while hands < TIE_HUNT_HANDS:
        played = _played(rng, rules)
        hands += max(1, len(played.settlements))
        ties = [s for s in played.settlements if tied(s)]
        if ties:
            return rng.choice(ties)
        if fallback is None:
            fallback = next((s for s in played.settlements if blocked(s)), None)
    return fallback


def _settle(rules: GameRules, settled: Settled | None, category: str) -> dict[str, Any] | None:
    if settled is None:
        return None
    case = _settle_case(rules, settled.input, category)
    return None if "error" in case["expect"] else case


def blocked_tie(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    return _settle(rules, _blocked_tie(rng, rules), "settle-blocked-tie")


def partnership(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    if not rules.partnership_players:
        return None
    played = _played(rng, rules, partnerships=True)
    pool = [s for s in played.settlements if blocked(s)] if rng.random() < 0.3 else []
    pool = pool or played.settlements
    return _settle(rules, rng.choice(pool) if pool else None, "settle-partnership")


def _nearest_target(played: Played) -> list[Settled]:
    """The settlements that ended the match (Horse Race); else (Sniff, whose settlements only
    deduct) the one whose best score stood nearest the target."""
    won = [s for s in played.settlements if s.winners]
    if won or not played.settlements:
        return won
    best = max(max(s.input["scores"]) for s in played.settlements)
    return [s for s in played.settlements if max(s.input["scores"]) == best][:1]


def settle_target(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    for _ in range(TRIES):
        near = _nearest_target(_played(rng, rules))
        if near and (rules.settlement.get("kind") == "deduct-per-seat" or near[0].winners):
            return _settle(rules, near[0], "settle-target")
    return None


def match_end(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    """The scores before and the changes of one settlement of the match (Horse Race: the one
    that ended it, when one did, more often than not)."""
    played = _played(rng, rules)
    if not played.settlements:
        return None
    won = [s for s in played.settlements if s.winners]
    settled = rng.choice(won if won and rng.random() < 0.6 else played.settlements)
    inp: dict[str, Any] = {"players": settled.input["players"], "partnerships": settled.input["partnerships"],
                           "scores": list(settled.input["scores"]), "awards": list(settled.changes)}
    if rng.random() < 1 / 3:  # spec/play.md, "Abandoned matches": the hand was allowed to be played
        inp["hands"] = settled.hand
        inp["max_hands"] = settled.hand + rng.choice([0, 0, 1, 5])
    p = PREFIX[rules.id]
    clauses = ["HR-MATCH-2", "HR-POINTS-1"] if p == "HR" else ["SN-MATCH-1", "SN-SETTLE-4", "SN-TARGET-1"]
    expect = run_match_end(rules, inp, {})
    return {"kind": "match-end", "clauses": clauses,
            "description": f"match end: scores {inp['scores']} + {inp['awards']}"
                           + (f", hand {inp['hands']} of at most {inp['max_hands']}" if "hands" in inp else ""),
            "input": inp, "expect": expect}


def random_play(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    """A layout a match reached: a turn's starting layout and the placements of that turn."""
    turns = [t for t in _played(rng, rules).turns if t.state["layout"] or PLACE in action_kinds(t)]
    if not turns:
        return None
    turn = rng.choice(turns)
    records = list(turn.state["layout"]) + [{k: v for k, v in a.items() if k != "action"}
                                            for a in turn.actions if a["action"] == PLACE]
    return evaluate_case(rules, [parse_placement(r, i) for i, r in enumerate(records)], "random-play")


REACHED_BUILDERS: dict[str, tuple[int, CaseBuilder]] = {
    "random-play": (4, random_play),
    "turn-continuation-chain": (2, turn_builder("continuation-chain",
                                                lambda t: action_kinds(t).count(PLACE) >= 3, hr_only=True)),
    "turn-draw": (2, turn_builder("draw", lambda t: DRAW in action_kinds(t), prefer=ends_blocked)),
    "turn-pass": (1, turn_builder("pass", lambda t: PASS in action_kinds(t), prefer=ends_blocked)),
    "turn-random": (1, turn_builder("random", lambda t: True)),
    "turn-target-mid-hand": (1, target_mid_hand),
    "settle-blocked-tie": (1, blocked_tie),
    "settle-partnership": (1, partnership),
    "settle-target": (1, settle_target),
    "match-end": (1, match_end),
}
