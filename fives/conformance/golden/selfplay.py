"""Seeded self-play for the golden suites (v2): every state a play case asks about is one a
whole match reached from a deal, from 0-0 to its end, under the rules given (spec/fixtures.md,
"Golden suites"). Seats play different strategies (random, greedy, first), drawn per match, so
rare states come up: blocked hands, continuations into the target, ties, partnerships.

`play(rng, rules, players, partners)` returns a `Played` match: each turn (its starting state
and actions) and each settlement (its input and answer), in order.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from fives.conformance.golden.play import play_one, turn_state
from fives.match import DRAW, PASS, PLACE, Match, Outcome  # re-exported for reached.py
from fives.rules import GameRules
from fives.settlement import BLOCKED, MatchConfig, configure
from fives.strategies import STRATEGIES, make_strategies

#: Hands before a self-play match is given up (a Sniff match may go on for ever; spec/play.md,
#: "Abandoned matches"): the states it reached stay usable.
MAX_HANDS = 60


@dataclass
class Turn:
    state: dict[str, Any]  # the turn's starting state: players, partnerships, scores, layout, hands, boneyard, seat
    actions: list[dict[str, Any]]
    outcomes: list[Outcome]
    hand: int  # the hand's number in the match (1 first)

    @property
    def ends_match(self) -> bool:
        return self.outcomes[-1].match_end is not None and self.outcomes[-1].match_end.by == "placement"


@dataclass
class Settled:
    input: dict[str, Any]  # a `settle` input: players, partnerships, scores before, end, remaining tiles
    changes: list[int]  # per side: what the settlement added (Sniff: deductions, <= 0)
    winners: list[int]
    hand_winners: list[int]
    totals: list[int]
    hand: int


@dataclass
class Played:
    config: MatchConfig
    turns: list[Turn] = field(default_factory=list)
    settlements: list[Settled] = field(default_factory=list)
    match: Match | None = None


def choose_config(rng: random.Random, rules: GameRules, partnerships: bool | None = None) -> tuple[int, bool]:
    options = rules.configurations()
    if partnerships is not None:
        options = [o for o in options if o[1] == partnerships] or options
    return rng.choice(options)


def play(rng: random.Random, rules: GameRules, players: int, partners: bool, max_hands: int = MAX_HANDS) -> Played:
    """One whole seeded self-play match (at most `max_hands` hands)."""
    config = configure(rules, players, partners)
    seed = rng.randrange(1 << 30)
    names = sorted(STRATEGIES)
    strategies = make_strategies([rng.choice(names) for _ in range(players)], config, seed)
    match = Match(rules, config, seed)
    out = Played(config, match=match)
    while match.match_end is None and match.hand_no < max_hands:
        match.start_hand()
        state: dict[str, Any] | None = None
        actions: list[dict[str, Any]] = []
        outcomes: list[Outcome] = []
        while match.in_hand:
            if state is None:
                state = turn_state(match, players, partners)
            o = play_one(match, strategies, actions)
            outcomes.append(o)
            if o.settlement is not None:
                s = o.settlement
                before = list(s.scores_before)
                end = {"reason": BLOCKED} if s.end.reason == BLOCKED else {"reason": s.end.reason, "seat": s.end.seat}
                inp = {"players": players, "partnerships": partners, "scores": before, "end": end,
                       "remaining": [[str(t) for t in sorted(h)] for h in (o.remaining or [])]}
                out.settlements.append(Settled(inp, list(s.changes), list(s.winners), list(s.hand_winners),
                                               list(s.totals), match.hand_no))
            if o.turn_end or not match.in_hand:
                out.turns.append(Turn(state, actions, outcomes, match.hand_no))
                state, actions, outcomes = None, [], []
    return out


def blocked(s: Settled) -> bool:
    return bool(s.input["end"]["reason"] == BLOCKED)


def tied(s: Settled) -> bool:
    """A blocked hand whose lowest side total is shared (Horse Race: tied hand winners)."""
    low = min(s.totals)
    return blocked(s) and sum(t == low for t in s.totals) > 1


def action_kinds(turn: Turn) -> list[str]:
    return [a["action"] for a in turn.actions]


__all__ = ["DRAW", "PASS", "PLACE", "Played", "Settled", "Turn", "action_kinds", "blocked", "choose_config",
           "play", "tied"]
