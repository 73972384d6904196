"""Built-in players for self-play, and the self-play driver that writes a record.

A strategy only chooses among the legal placements the engine offers: drawing and passing
are never a choice (SN-DRAW-1..4, HR-DRAW-1..4), so the engine performs them itself.
Each seat's strategy has its own random stream, seeded from the match seed, so the
deal and the lot (the match's stream) never depend on who plays.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from fives.layout import Placement
from fives.match import DEFAULT_MAX_HANDS, DRAW, PASS, PLACE, Action, Match
from fives.record import abandon_event, hand_event, header, match_from_hooks, outcome_events
from fives.rules import GameRules
from fives.settlement import MatchConfig


class Strategy(Protocol):
    name: str

    def choose(self, match: Match, seat: int, placements: list[Placement]) -> Placement: ...


@dataclass
class RandomStrategy:
    """Uniformly random among the legal placements."""

    rng: random.Random
    name: str = "random"

    def choose(self, match: Match, seat: int, placements: list[Placement]) -> Placement:
        return placements[self.rng.randrange(len(placements))]


@dataclass
class GreedyStrategy:
    """The placement that scores most now; ties go to the heavier tile (fewer pips left to
    lose or give away), then to a random pick."""

    rng: random.Random
    name: str = "greedy"

    def choose(self, match: Match, seat: int, placements: list[Placement]) -> Placement:
        layout = match.layout
        best: list[Placement] = []
        best_key = (-1, -1)
        for p in placements:
            raw = layout.push(p)  # push/pop: no copy of the layout per candidate
            layout.pop()
            key = (raw, p.tile.pips)
            if key > best_key:
                best, best_key = [p], key
            elif key == best_key:
                best.append(p)
        return best[self.rng.randrange(len(best))] if len(best) > 1 else best[0]


@dataclass
class FirstStrategy:
    """The first legal placement in canonical order: fully deterministic, for debugging."""

    rng: random.Random
    name: str = "first"

    def choose(self, match: Match, seat: int, placements: list[Placement]) -> Placement:
        return placements[0]


STRATEGIES: dict[str, Callable[[random.Random], Strategy]] = {
    "random": RandomStrategy,
    "greedy": GreedyStrategy,
    "first": FirstStrategy,
}


def make_strategies(names: list[str], config: MatchConfig, seed: int) -> list[Strategy]:
    """One strategy per seat, from one name for every seat, one per side or one per seat."""
    names = names or ["random"]
    players, sides = config.players, len(config.sides)
    if len(names) == 1:
        names = names * players
    elif len(names) == sides and sides != players:
        names = [names[config.side_of[s]] for s in range(players)]
    if len(names) != players:
        per_side = f", one per side ({sides})" if sides != players else ""
        raise ValueError(f"give one strategy for every seat{per_side} or one per seat ({players}), not {len(names)}")
    out = []
    for seat, name in enumerate(names):
        if name not in STRATEGIES:
            raise ValueError(f"unknown strategy {name!r}: one of {', '.join(STRATEGIES)}")
        out.append(STRATEGIES[name](random.Random(f"{seed}/{seat}/{name}")))
    return out


def play_match(rules: GameRules, config: MatchConfig, seed: int, names: list[str],
               hooks: dict[str, Any] | None = None, max_hands: int = DEFAULT_MAX_HANDS) -> list[dict[str, Any]]:
    """Play one match and return its record, header first, one dict per line. A match with
    no winner after `max_hands` hands ends abandoned (spec/play.md, "Abandoned matches")."""
    if max_hands < 1:
        raise ValueError(f"max_hands must be at least 1, not {max_hands}")
    strategies = make_strategies(names, config, seed)
    match = match_from_hooks(hooks or {}, rules, config, seed)
    events: list[dict[str, Any]] = [header(rules, config, seed, [s.name for s in strategies])]
    while match.match_end is None:
        if match.hand_no >= max_hands:
            events.append(abandon_event(match))
            break
        events.append(hand_event(match.start_hand()))
        while match.in_hand:
            opts = match.legal_options()
            seat = match.to_act
            if opts.placements:
                p = opts.placements[0] if len(opts.placements) == 1 else \
                    strategies[seat].choose(match, seat, opts.placements)
                action = Action(PLACE, p, seat)
            else:
                action = Action(DRAW if opts.draw else PASS, None, seat)
            events.extend(outcome_events(match.apply(action), match))
    return events
