"""Mutant engines for the kinds no layout, match or settlement hook reaches alone: perft's
last ply and the score record (issue 37: the fuzzer must find a bug of each)."""
from __future__ import annotations

from typing import Any, Callable

from fives.conformance.cases.kinds.tally import record
from fives.conformance.mutants.layout import Mutant
from fives.layout import Layout
from fives.moves import POS_VALUE
from fives.rules import GameRules

_ALL = (1 << 28) - 1


class SameValuePositionsOnce(Layout):
    """perft's last ply counts a tile once per open pip value: a tile that fits two open
    ends of the same value is one placement, not two (spec/perft.md says two), as a move
    generator keyed by (tile, value) counts it. Only `leaf_counts`, perft's last ply, reads it."""

    def leaf_counts(self, hand: int = _ALL) -> tuple[int, int]:
        seen: set[tuple[int, int]] = set()
        nodes = points = 0
        for m in self.moves(hand):
            q = (m & 255) - 1
            key = (m >> 8, POS_VALUE[q] if q >= 0 else -1)
            if key not in seen:
                seen.add(key)
                nodes += 1
                points += self.score_move(m)
        return nodes, points


def _peg_past_game_hole(rules: GameRules, input: dict[str, Any]) -> dict[str, Any]:
    """Horse Race: a score past the target moves the peg past the game hole (the hole is the
    score itself); the game hole holds every score at or past the target."""
    out = record(rules, input)
    if "hole" in out and int(input["score"]) > out["hole"] > 0:
        return {"hole": int(input["score"])}
    return out


def _negative_as_zero(rules: GameRules, input: dict[str, Any]) -> dict[str, Any]:
    """Sniff: a score below zero tallies as no strokes (the tally cannot show a debt)."""
    if "hole" not in (out := record(rules, input)) and int(input["score"]) < 0:
        return {"fifties": 0, "strokes": 0, "negative": False}
    return out


def _hooks(**kw: Any) -> Callable[[], dict[str, Any]]:
    return lambda: dict(kw)


KIND_MUTANTS = [
    Mutant("perft-same-value-positions-once", "perft: a tile fitting two open ends of one value counted once",
           "SN-PLACE-1", _hooks(layout=SameValuePositionsOnce)),
    Mutant("peg-past-game-hole", "Horse Race: a score past the target pegs past the game hole", "HR-RECORD-1",
           _hooks(tally=_peg_past_game_hole)),
    Mutant("negative-tally-as-zero", "Sniff: a score below zero tallies as nothing", "SN-RECORD-1",
           _hooks(tally=_negative_as_zero)),
]
