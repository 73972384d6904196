"""Minimal cases of the kinds the fuzzer's shrinker leaves as they are (issue 39, item 5): a
`tally` or a `setup` request has no layout or hand to cut, so `fuzz/shrink.py` has no
candidates for it and a cluster of tally bugs kept the suite's own case as its example.

Here such a request is made smaller by its own numbers: fewer players, then a score nearer 0
(on the game's step: Sniff scores are multiples of 5, Horse Race's displayed points are
whole numbers), tried smallest first, so the first that still disagrees the same way is the
smallest of those tried. The oracle refuses what play cannot reach (a tally for a player
count the game has not, a score off the step), so every case kept is reachable. The fuzzer's
own output is not changed: this is diagnose's, not `conformance fuzz`'s.
"""
from __future__ import annotations

from typing import Any, Iterator

from fives.conformance.fuzz.oracle import Oracle, Verdict
from fives.rules import GameRules

#: the kinds made smaller here
KINDS = ("tally", "setup")
#: scores tried below a tally's own, at most (the smallest first, then spread up to it)
SCORES = 40


def _players(input: dict[str, Any], rules: GameRules) -> Iterator[dict[str, Any]]:
    """The same request for each smaller player count the game has (the smallest first)."""
    n = input.get("players")
    if not isinstance(n, int):
        return
    for m in sorted({k for k, _ in rules.configurations()}):
        if m < n:
            yield {**input, "players": m}


def _scores(input: dict[str, Any], rules: GameRules) -> Iterator[dict[str, Any]]:
    """The same tally with a score of smaller size, on the game's step, the smallest first."""
    score = input.get("score")
    if not isinstance(score, int) or score == 0:
        return
    step = rules.scoring_multiple if rules.raw["record"]["kind"] == "tally" else 1
    steps = abs(score) // step
    picks = list(range(steps)) if steps <= SCORES else \
        sorted({*range(SCORES // 2), *(k * steps // (SCORES // 2) for k in range(SCORES // 2))})
    for k in picks:
        for sign in ((1,) if k == 0 else (1, -1) if score > 0 else (-1, 1)):
            if k < steps:
                yield {**input, "score": sign * k * step}


def candidates(kind: str, input: dict[str, Any], rules: GameRules) -> Iterator[dict[str, Any]]:
    """Smaller requests of a kind without a shrinker, the smallest first; none for other kinds."""
    if kind == "tally":
        for fewer in [*_players(input, rules), input]:
            yield from _scores(fewer, rules)
            if fewer is not input:
                yield fewer
    elif kind == "setup":
        yield from _players(input, rules)
        if input.get("partnerships"):
            yield {**input, "partnerships": False}


def shrink_small(oracle: Oracle, game: str, kind: str, input: dict[str, Any], verdict: Verdict,
                 budget: int) -> tuple[dict[str, Any], Verdict, bool]:
    """(the smallest candidate that still disagrees with the same keys, its verdict, whether one
    was found): one pass, smallest first, at most `budget` engine requests."""
    rules = oracle.reference.rules_for(game)
    start = oracle.requests
    for cand in candidates(kind, input, rules):
        if oracle.requests - start >= budget:
            break
        v = oracle.ask(game, kind, cand)
        if v.status == "differ" and v.keys == verdict.keys:
            return cand, v, True
    return input, verdict, False
