"""Kind `tally`: the score record the documents describe, for one score.

American Sniff: the paper tally (SN-RECORD-1): complete 50-point symbols and the strokes of
the unfinished one. Horse Race: the peg's hole on a cribbage board to the target
(HR-RECORD-1): one hole per displayed point, the game hole at the target.
"""
from __future__ import annotations

from typing import Any

from fives.rules import GameRules
from fives.tally import SniffTally, crib_position
from fives.conformance.cases.kinds import Kind, compare_fields


def run(rules: GameRules, input: dict[str, Any], hooks: dict[str, Any]) -> dict[str, Any]:
    return hooks.get("tally", record)(rules, input)  # a mutant engine's misreading (mutants/kinds.py)


def record(rules: GameRules, input: dict[str, Any]) -> dict[str, Any]:
    """The record of `input["score"]` under `rules`."""
    score = int(input["score"])
    if rules.raw["record"]["kind"] == "tally":
        t = SniffTally.of(score)
        return {"fifties": t.fifties, "strokes": t.strokes, "negative": t.negative}
    target = rules.target_raw[int(input.get("players", 2))] // rules.display_divisor
    return {"hole": crib_position(max(0, score), target).hole}


KINDS = [Kind("tally", "tally", run, lambda e, a: compare_fields(e, a), "tally.schema.json", "record")]
