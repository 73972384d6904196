"""Issue 39's settlement parameters: seat tie-breaks (`settlement.tie_break`, `match_end.tie_break`)
and a blocked hand's own award (`settlement.blocked_award`), each against the seeds' answer.
Expected values are worked by hand here (pips rounded to 5, remainder 3 and up rounds up; a
Horse Race award is the rounded pips / 5)."""
from __future__ import annotations

from typing import Any

import pytest

from fives.conformance.cases.fixtures import load_cases
from fives.conformance.cases.kinds import load_kinds
from fives.conformance.diagnose import diagnosis as dx
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.runner import run_cases
from fives.profile_space import alternative_overrides, alternatives
from fives.profiles import make_profile, rules_under
from fives.settlement import BLOCKED, GONE_OUT, HandEnd, Settlement, configure

HR, SN = "horse-race", "american-sniff"
NEW = ("settlement.tie_break", "settlement.blocked_award", "match_end.tie_break")


def settlement(game: str, overrides: dict[str, Any], players: int, partnerships: bool = False) -> Settlement:
    rules = rules_under(make_profile(game, overrides) if overrides else None, game)
    return Settlement(rules, configure(rules, players, partnerships))


def settle(game: str, overrides: dict[str, Any], players: int, pips: list[int], end: HandEnd,
           partnerships: bool = False) -> dict[str, Any]:
    s = settlement(game, overrides, players, partnerships)
    return s.settle([0] * len(s.config.sides), end, pips).to_dict()


def test_a_blocked_tie_for_lowest_goes_to_the_lowest_seat_alone() -> None:
    # two players, 32 pips each: the seeds give each a full award (HR-SETTLE-6): 32 -> 30 -> 6
    seeds = settle(HR, {}, 2, [32, 32], HandEnd(BLOCKED))
    assert seeds["hand_winners"] == [0, 1] and seeds["changes"] == [6, 6]
    lowest = {"settlement.tie_break": "lowest-seat"}
    got = settle(HR, lowest, 2, [32, 32], HandEnd(BLOCKED))
    assert got["hand_winners"] == [0] and got["changes"] == [6, 0]
    # three players, seats 1 and 2 tied below seat 0: seat 1 alone, from seats 0 and 2: 28 -> 30 -> 6
    got = settle(HR, lowest, 3, [20, 8, 8], HandEnd(BLOCKED))
    assert got["hand_winners"] == [1] and got["awards"][0]["from_seats"] == [0, 2] and got["changes"] == [0, 6, 0]
    # partnerships, teams 0+2 and 1+3 tied at 10: the team of seat 0 alone, from seats 1 and 3: 10 -> 2
    got = settle(HR, lowest, 4, [5, 6, 5, 4], HandEnd(BLOCKED), partnerships=True)
    assert got["hand_winners"] == [0] and got["changes"] == [2, 0]
    # read after `ties`: nobody stays nobody; a split award is whole once one side is left
    assert settle(HR, {**lowest, "settlement.ties": "nobody"}, 2, [32, 32], HandEnd(BLOCKED))["changes"] == [0, 0]
    assert settle(HR, {**lowest, "settlement.ties": "split"}, 2, [32, 32], HandEnd(BLOCKED))["changes"] == [6, 0]
    # no tie: nothing to break
    assert settle(HR, lowest, 2, [12, 32], HandEnd(BLOCKED))["changes"] == [6, 0]


def test_a_blocked_award_may_subtract_the_winners_own_pips_in_a_blocked_hand_only() -> None:
    minus = {"settlement.blocked_award": "others-minus-own"}
    # blocked, 10 against 32: the seeds award 32 -> 30 -> 6; minus own: 22 -> 20 -> 4
    assert settle(HR, {}, 2, [10, 32], HandEnd(BLOCKED))["changes"] == [6, 0]
    got = settle(HR, minus, 2, [10, 32], HandEnd(BLOCKED))
    assert got["changes"] == [4, 0] and got["awards"][0]["pips"] == 22
    # going out is not a blocked hand: a partner's 7 pips are not subtracted (23 -> 25 -> 5) ...
    out = HandEnd(GONE_OUT, 0)
    assert settle(HR, minus, 4, [0, 10, 7, 13], out, partnerships=True)["changes"] == [5, 0]
    # ... as `subtract_winner_own` subtracts them (23 - 7 = 16 -> 15 -> 3)
    assert settle(HR, {"settlement.subtract_winner_own": True}, 4, [0, 10, 7, 13], out, partnerships=True)[
        "changes"] == [3, 0]
    # a blocked partnership hand: team 0+2 holds 7, team 1+3 23: 23 - 7 = 16 -> 15 -> 3
    assert settle(HR, minus, 4, [4, 10, 3, 13], HandEnd(BLOCKED), partnerships=True)["changes"] == [3, 0]
    # never below 0; per-opponent rounding subtracts the rounded own: 35 - 10 = 25 -> 5
    assert settle(HR, minus, 2, [30, 30], HandEnd(BLOCKED))["changes"] == [0, 0]
    assert settle(HR, {**minus, "settlement.award_rounding": "per-opponent"}, 2, [12, 33], HandEnd(BLOCKED))[
        "changes"] == [5, 0]
    # with `subtract_winner_own` already on, it changes nothing
    both = settle(HR, {**minus, "settlement.subtract_winner_own": True}, 2, [10, 32], HandEnd(BLOCKED))
    assert both == settle(HR, {"settlement.subtract_winner_own": True}, 2, [10, 32], HandEnd(BLOCKED))
    # Sniff deducts: the parameter is read only under an award; with one, raw points: 22 -> 20
    assert settle(SN, minus, 2, [10, 32], HandEnd(BLOCKED)) == settle(SN, {}, 2, [10, 32], HandEnd(BLOCKED))
    award = {"settlement.kind": "award-to-winner"}
    assert settle(SN, {**award, **minus}, 2, [10, 32], HandEnd(BLOCKED))["changes"] == [20, 0]
    assert settle(SN, award, 2, [10, 32], HandEnd(BLOCKED))["changes"] == [30, 0]


def test_sides_that_win_the_match_together_may_be_split_by_seat() -> None:
    lowest = {"match_end.tie_break": "lowest-seat"}
    # Horse Race to 61: 58 + 6 and 59 + 6 both pass it after one settlement (HR-MATCH-2)
    assert settlement(HR, {}, 2).apply_changes([58, 59], [6, 6]) == ([64, 65], [0, 1])
    assert settlement(HR, lowest, 2).apply_changes([58, 59], [6, 6]) == ([64, 65], [0])
    # read after `simultaneous_winners`: the highest alone is already one side
    both = {**lowest, "match_end.simultaneous_winners": "highest"}
    assert settlement(HR, both, 2).apply_changes([58, 59], [6, 6]) == ([64, 65], [1])
    assert settlement(HR, both, 3).apply_changes([10, 60, 60], [0, 5, 5]) == ([10, 65, 65], [1])
    # partnerships: the team of seat 0
    assert settlement(HR, lowest, 4, True).apply_changes([60, 60], [2, 3]) == ([62, 63], [0])
    # one side over: nothing to break
    assert settlement(HR, lowest, 2).apply_changes([58, 20], [6, 6]) == ([64, 26], [0])


def test_the_new_values_are_dimensions_the_fuzzer_and_diagnose_draw() -> None:
    for game, paths in ((HR, NEW), (SN, NEW[1:])):
        alts = alternatives(game)
        for path in paths:
            assert alts[path] == [{"settlement.tie_break": "lowest-seat", "settlement.blocked_award": "others-minus-own",
                                   "match_end.tie_break": "lowest-seat"}[path]], (game, path)
    # a Sniff profile of the award parameter awards (the parameter is read only there)
    assert alternative_overrides(SN, "settlement.blocked_award", "others-minus-own") == {
        "settlement.blocked_award": "others-minus-own", "settlement.kind": "award-to-winner"}


def test_each_new_value_has_variant_cases_that_fail_an_engine_ignoring_it() -> None:
    cases = [c for c in load_cases() if c.profile is not None
             and set(c.profile.overrides) & set(NEW) and c.file.endswith(("variants/horse-race.yaml",
                                                                            "variants/american-sniff.yaml"))]
    assert {(c.game, p) for c in cases for p in set(c.profile.overrides) & set(NEW)} == {
        (HR, NEW[0]), (HR, NEW[1]), (HR, NEW[2]), (SN, NEW[1]), (SN, NEW[2])}
    results = run_cases(ReferenceEngine(), cases)  # each under its own rules: every one passes
    assert [r.status for r in results] == ["passed"] * len(cases) == ["passed"] * 10
    kinds = load_kinds()
    for c in cases:  # the same input under its rules without the new value answers otherwise
        rest = {k: v for k, v in c.profile.overrides.items() if k not in NEW}
        blind = rules_under(make_profile(c.game, rest) if rest else None, c.game)
        kind = kinds[c.kind]
        assert kind.compare(c.expect, kind.run(blind, c.input, {})), c.id
        assert not kind.compare(c.expect, kind.run(rules_under(c.profile, c.game), c.input, {})), c.id


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("game, path, value", [(HR, "settlement.tie_break", "lowest-seat"),
                                               (HR, "settlement.blocked_award", "others-minus-own"),
                                               (HR, "match_end.tie_break", "lowest-seat")])
def test_diagnose_names_an_engine_that_plays_a_new_value(game: str, path: str, value: str) -> None:
    overrides = {path: value}
    if path == "match_end.tie_break":
        overrides["match_end.on_placement"] = "hand-end"  # else it shows only in rare settlements
    prof = make_profile(game, overrides)
    suite = [c for c in load_cases() if c.game == game and c.profile is None and "slow" not in c.tags]
    d = dx.diagnose(run_cases(ReferenceEngine(profile=prof), suite), [game])
    found = {k: v for c in d.causes for k, v in c.candidate.overrides.items()}
    assert found.get(path) == value, [c.candidate.name for c in d.causes]
