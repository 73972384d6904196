"""Layout generators biased toward the structures engines get wrong.

Each generator takes a seeded `random.Random` and the game's rules and returns a list of
placements (or None when the game has no such structure). The expected answers are the
reference engine's; the independent evaluator in tests/ re-checks every one.
"""
from __future__ import annotations

import random
from typing import Callable

from fives.layout import Layout, Placement
from fives.rules import GameRules
from fives.tiles import ALL_TILES

Generator = Callable[[random.Random, GameRules], list[Placement] | None]


def _play(rng: random.Random, rules: GameRules, length: int,
          weigh: Callable[[Layout, Placement], float] | None = None) -> Layout:
    layout = Layout(rules)
    while len(layout) < length:
        moves = layout.legal_placements(ALL_TILES)
        if not moves:
            break
        if weigh is None:
            layout.push(rng.choice(moves))
        else:
            weights = [weigh(layout, m) for m in moves]
            layout.push(rng.choices(moves, weights)[0])
    return layout


def random_play(rng: random.Random, rules: GameRules) -> list[Placement]:
    return _play(rng, rules, rng.randint(1, 28)).history()


def four_arms(rng: random.Random, rules: GameRules) -> list[Placement] | None:
    """A spinner with both lines and both branches started (all four Sniff arms)."""
    def weigh(layout: Layout, m: Placement) -> float:
        if not layout.spinners:
            return 20.0 if m.tile.is_double else 1.0
        return 15.0 if m.to in layout.spinners else 1.0
    for _ in range(20):
        layout = _play(rng, rules, rng.randint(5, 16), weigh)
        for s in layout.spinners:
            if len(layout.placed(s).occupied) == 4:
                return layout.history()
    return None


def double_at_arm_end(rng: random.Random, rules: GameRules) -> list[Placement] | None:
    """The last placement is a double at the end of an arm (counted 2v)."""
    for _ in range(20):
        layout = _play(rng, rules, rng.randint(1, 20))
        doubles = [m for m in layout.legal_placements(ALL_TILES) if m.tile.is_double]
        if doubles:
            layout.push(rng.choice(doubles))
            return layout.history()
    return None


def _climb(rng: random.Random, rules: GameRules, sign: int, length: int) -> Layout:
    """Greedy on the counted sum (sign +1: largest, -1: smallest), random among ties."""
    layout = Layout(rules)
    while len(layout) < length:
        moves = layout.legal_placements(ALL_TILES)
        if not moves:
            break
        scored = []
        for m in moves:
            layout.push(m)
            scored.append((sign * layout.sum, m))
            layout.pop()
        best = max(s for s, _ in scored)
        layout.push(rng.choice([m for s, m in scored if s == best or rng.random() < 0.05]))
    return layout


def largest_sums(rng: random.Random, rules: GameRules) -> list[Placement] | None:
    """Layouts with the largest counted sums (35 and 36 in Sniff)."""
    best: Layout | None = None
    for _ in range(6):
        layout = _climb(rng, rules, +1, rng.randint(4, 14))
        if best is None or layout.sum > best.sum:
            best = layout
    return best.history() if best else None


def zero_sums(rng: random.Random, rules: GameRules) -> list[Placement] | None:
    """Zero sums and zero-valued ends: a sum of 0 never scores."""
    for _ in range(10):
        layout = _climb(rng, rules, -1, rng.randint(1, 10))
        if layout.sum == 0 or any(p.value == 0 for p in layout.positions()):
            return layout.history()
    return None


def spinner_chains(rng: random.Random, rules: GameRules) -> list[Placement] | None:
    """Horse Race: doubles on branches, spinners joined to spinners."""
    if rules.spinner_policy != "every-double":
        return None

    def weigh(layout: Layout, m: Placement) -> float:
        w = 1.0
        if m.tile.is_double:
            w *= 6.0
            if m.side is not None and m.side.is_branch:
                w *= 4.0
        if m.to is not None and m.to.is_double:
            w *= 3.0
        return w
    return _play(rng, rules, rng.randint(6, 22), weigh).history()


LAYOUT_GENERATORS: dict[str, Generator] = {
    "random-play": random_play,
    "four-arms": four_arms,
    "double-at-arm-end": double_at_arm_end,
    "largest-sums": largest_sums,
    "zero-sums": zero_sums,
    "spinner-chains": spinner_chains,
}
