"""The fuzzer's second lane (issue 37): the kinds and situations the first lane never or
seldom draws, `perft` and `tally` among them.

A draw takes this lane when its own stream `fuzz:{seed}:{G}:{i}:lane` says so (`LANE_SHARE`
of the draws when both lanes have generators); every other draw is made exactly as before
from `fuzz:{seed}:{G}:{i}`, so the first lane's requests keep their sequence.

- `perft-late`: a perft count from a layout reached by play late in a hand, at the deepest
  depth (1 to 3) that keeps it within `PERFT_NODES` sequences, so a default fuzz stays fast;
- `tally`: the score record of a score play reaches (Sniff: a multiple of 5, below zero now
  and then, up to a placement past the target; Horse Race: 0 to a settlement past the target);
- `turn-steered` (fives/conformance/fuzz/steer.py): a turn showing one of the situations the
  first lane reaches too seldom for a clause to come up in every seed's 500 draws.
"""
from __future__ import annotations

import random
from typing import Any

from fives.conformance.fuzz.small import small_state
from fives.perft import estimate_nodes
from fives.rules import GameRules

#: Draws of the second lane, of every draw, when both lanes have generators.
LANE_SHARE = 0.2
#: A fuzz perft request counts at most about this many sequences (the estimate's reckoning):
#: thousands of them take an engine of 8,000 nodes a second a fraction of a second.
PERFT_NODES = 3_000
#: How far past the target a Horse Race score may stand (a settlement's award, displayed points).
HR_PAST_TARGET = 12


def late_perft(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    """perft from a layout of a hand played on (late, or a few actions in), depth 1 to 3."""
    made = small_state(rng, rules, late=rng.random() < 0.7)
    if made is None:
        return None
    placements = made[1]["layout"]
    depth = 1
    for d in (3, 2):
        if rng.random() < 0.8 and estimate_nodes(rules, d, placements) <= PERFT_NODES:
            depth = d
            break
    return {"kind": "perft", "clauses": [], "description": "perft-late",
            "input": {"placements": placements, "depth": depth}, "expect": {}}


def tally_question(rng: random.Random, rules: GameRules) -> dict[str, Any]:
    """The record of a reachable score, for one of the game's numbers of players."""
    players = rng.choice(sorted({n for n, _ in rules.configurations()}))
    target = rules.target_raw[players]
    if rules.raw["record"]["kind"] == "tally":
        step = rules.scoring_multiple
        score = step * rng.choice([rng.randint(-30, -1), rng.randint(0, target // step - 1),
                                   rng.randint(target // step, target // step + 8), rng.randint(0, 12)])
    else:
        top = target // rules.display_divisor
        score = rng.choice([rng.randint(0, top - 1), rng.randint(top, top + HR_PAST_TARGET), rng.randint(0, 8)])
    return {"kind": "tally", "clauses": [], "description": "tally", "input": {"score": score, "players": players},
            "expect": {}}
