"""Small play states for the fuzzer: the golden turn generators take turns from whole
self-play matches, whose layouts are long; a turn rule (a drawn tile ends the turn, a
continuation may draw, the target ends the match at once) shows just as well on a layout of
a few tiles with a few tiles in hand, and such a request shrinks to a few placements."""
from __future__ import annotations

import random
from typing import Any

from fives.conformance.golden.play import _config, _turn_case
from fives.layout import Layout
from fives.match import DRAW, PASS, PLACE, Action, IllegalAction, Match
from fives.rules import GameRules
from fives.settlement import configure
from fives.strategies import make_strategies
from fives.tiles import ALL_TILES


def small_turn(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    """A turn from a state of at most 3 layout tiles and 0-3 tiles per hand and boneyard,
    played by a random or greedy strategy to its end; None if the state is not playable."""
    players, partners = _config(rng, rules)
    config = configure(rules, players, partners)
    # a third of the states use only low tiles (blank ends, zero sums, small settlements),
    # half of those laid out toward the smallest sum
    low = rng.random() < 0.34
    pool = tuple(t for t in ALL_TILES if t.high <= 2) if low else ALL_TILES
    toward_zero = low and rng.random() < 0.5
    layout = Layout(rules)
    for _ in range(rng.randint(0, 3)):
        moves = layout.legal_placements([t for t in pool if t not in layout])
        if not moves:
            break
        if toward_zero:
            sums = []
            for m in moves:
                layout.push(m)
                sums.append(layout.sum)
                layout.pop()
            moves = [m for m, v in zip(moves, sums) if v == min(sums)]
        layout.push(rng.choice(moves))
    free = [t for t in (pool if low and rng.random() < 0.7 else ALL_TILES) if t not in layout]
    seat = rng.randrange(players)
    hands = []
    for s in range(players):
        n = rng.randint(1 if s == seat or not len(layout) else 0, 3)
        hands.append(sorted(free[:n]))
        free = free[n:]
    boneyard = free[:rng.randint(0, 3)]
    scores = [rng.choice([0, 0, config.target - rng.choice([1, 2, 5, 10])]) for _ in config.sides]
    try:
        match = Match.from_state(rules, config, scores=scores, layout=layout.history(), hands=hands,
                                 boneyard=list(boneyard), seat=seat)
    except ValueError:
        return None
    state = {"players": players, "partnerships": partners, "scores": scores,
             "layout": [p.to_dict() for p in layout.history()], "hands": [[str(t) for t in h] for h in hands],
             "boneyard": [str(t) for t in boneyard], "seat": seat}
    strategy = make_strategies([rng.choice(["random", "greedy"])], config, rng.randrange(1 << 30))[seat]
    actions: list[dict[str, Any]] = []
    try:
        while match.in_hand and match.match_end is None and len(actions) < 12:
            opts = match.legal_options()
            if opts.placements:
                p = strategy.choose(match, match.to_act, opts.placements)
                out = match.apply(Action(PLACE, p, match.to_act))
                actions.append({"action": PLACE, **p.to_dict()})
            else:
                kind = DRAW if opts.draw else PASS
                out = match.apply(Action(kind, None, match.to_act))
                actions.append({"action": kind})
            if out.turn_end:
                break
    except IllegalAction:
        return None
    if not actions:
        return None
    return _turn_case(rules, state, actions, "small-turn")
