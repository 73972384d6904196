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
  first lane reaches too seldom for a clause to come up in every seed's 500 draws;
- `settle-tie`: a blocked hand's settlement with the lowest totals tied (HR-SETTLE-6, -7);
- `high-sum`: a layout counting 35 or more (SN-SCORE-3);
- `leader`, `setup-lane`: the first lane's next-leader and setup questions, more often (the
  first hand's lot, later hands, a deal's hand size and boneyard).
"""
from __future__ import annotations

import random
from typing import Any

from fives.conformance.fuzz.small import _scores, small_state
from fives.conformance.golden.builders import builders
from fives.conformance.golden.play import _config
from fives.perft import estimate_nodes
from fives.rules import GameRules
from fives.settlement import configure
from fives.tiles import ALL_TILES

#: Draws of the second lane, of every draw, when both lanes have generators.
LANE_SHARE = 0.2
#: A fuzz perft request counts at most about this many sequences (the estimate's reckoning):
#: thousands of them take an engine of 8,000 nodes a second a fraction of a second.
PERFT_NODES = 3_000
#: How far past the target a Horse Race score may stand (a settlement's award, displayed points).
HR_PAST_TARGET = 12
#: Deals of a tied settlement, and largest-sums layouts, tried per request.
TIE_TRIES = 60
HIGH_SUM_TRIES = 40


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


def tie_settlement(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    """A blocked hand's settlement with the lowest totals tied (seats alone, or teams in
    partnerships): the remaining tiles miss one pip value (every tile of it is in the
    layout, whose ends all show it), and every seat still holds a tile."""
    players, partners = _config(rng, rules, rng.random() < 0.5 or None)
    config = configure(rules, players, partners)
    missing = rng.randrange(rules.raw["set"]["max_pip"] + 1)
    pool = [t for t in ALL_TILES if missing not in (t.low, t.high)]
    for _ in range(TIE_TRIES):
        rng.shuffle(pool)
        sizes = [rng.randint(1, 3) for _ in range(players)]
        if sum(sizes) > len(pool):
            continue
        hands, at = [], 0
        for n in sizes:
            hands.append(sorted(pool[at:at + n]))
            at += n
        totals = [sum(sum(t.pips for t in hands[s]) for s in side) for side in config.sides]
        low = min(totals)
        if totals.count(low) < 2:
            continue
        inp = {"players": players, "partnerships": partners, "scores": _scores(rng, rules, config),
               "end": {"reason": "blocked", "seat": None}, "remaining": [[str(t) for t in h] for h in hands]}
        return {"kind": "settle", "clauses": [], "description": "settle-tie", "input": inp, "expect": {}}
    return None


def high_sum(rng: random.Random, rules: GameRules) -> dict[str, Any] | None:
    """A layout whose counted sum is 35 or more (near Sniff's single-spinner limit, SN-SCORE-3),
    from the golden largest-sums generator, drawn until one comes."""
    build = builders()["largest-sums"][1]
    case = None
    for _ in range(HIGH_SUM_TRIES):
        case = build(rng, rules)
        if case is not None and case["expect"]["sum"] >= 35:
            return case
    return case
