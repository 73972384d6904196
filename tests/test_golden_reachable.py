"""fives/conformance/cases/reachable.py: what one settlement cannot produce (issue 26). Each
check here is one the golden suites v1 broke; each test fails without its check."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from fives.conformance.cases.reachable import problems
from fives.conformance.golden.reached import REACHED_BUILDERS
from fives.profiles import make_profile, rules_under
from fives.rules import load_rules

HR, SN = load_rules("horse-race"), load_rules("american-sniff")


def test_tied_winners_of_one_settlement_get_the_same_award():
    # HR-MATCH-EX-02's state: awards 2 and 4 from one settlement cannot be (tied sides count
    # the same pips); equal awards, or one winner, can
    reasons = problems(HR, "match-end", {"players": 2, "scores": [59, 60], "awards": [2, 4]})
    assert reasons == ["awards [2, 4]: the sides one settlement awards are tied winners, "
                       "and tied winners get the same award"]
    assert problems(HR, "match-end", {"players": 3, "scores": [50, 58, 57], "awards": [0, 4, 4]}) == []
    assert problems(HR, "match-end", {"players": 2, "scores": [59, 60], "awards": [2, 0]}) == []
    # four players in partnerships: the two teams tie, each counts the other team's seats
    assert problems(HR, "match-end", {"players": 4, "partnerships": True, "scores": [50, 55],
                                      "awards": [3, 4]}) != []


def test_a_variant_that_counts_a_partner_may_award_tied_teams_differently():
    # exclude_winner_partner: false counts the winner's partner: tied teams' awards may differ
    profile = make_profile("horse-race", {"settlement.exclude_winner_partner": False}, name="partner-counts")
    rules = rules_under(profile, "horse-race")
    inp = {"players": 4, "partnerships": True, "scores": [50, 55], "awards": [3, 4]}
    assert problems(rules, "match-end", inp) == []
    assert problems(rules, "match-end", {**inp, "partnerships": False, "awards": [3, 4, 0, 0],
                                         "scores": [0, 0, 0, 0]}) != []


def test_one_settlement_moves_a_side_by_at_most_the_set_s_pips():
    # Horse Race: 168 pips and a rounding up per seat, / 5: at most 35 for two seats
    assert problems(HR, "match-end", {"players": 2, "scores": [0, 0], "awards": [35, 0]}) == []
    assert problems(HR, "match-end", {"players": 2, "scores": [0, 0], "awards": [36, 0]}) == [
        "awards[0] = 36: one settlement moves a side by at most 35"]
    # Sniff deducts raw points: at most 168 + 5 a seat
    assert problems(SN, "match-end", {"players": 2, "scores": [0, 0], "awards": [-175, 0]}) == []
    assert any("at most 178" in p for p in problems(SN, "match-end", {"players": 2, "scores": [0, 0],
                                                                      "awards": [-180, 0]}))


def test_a_remaining_tile_is_held_once():
    inp = {"players": 2, "scores": [0, 0], "end": {"reason": "gone-out", "seat": 0},
           "remaining": [[], ["[1|2]", "[1|2]", "[3|3]"]]}
    assert problems(HR, "settle", inp) == ["a tile remains in two places: every tile of the set is dealt once"]
    assert problems(HR, "settle", {**inp, "remaining": [[], ["[1|2]", "[3|3]"]]}) == []


def test_repair_gives_tied_winners_the_first_award():
    from fives.conformance.cases.reachable import repair
    fixed = repair(HR, "match-end", {"players": 3, "scores": [50, 58, 57], "awards": [0, 4, 5]})
    assert fixed["awards"] == [0, 4, 4] and problems(HR, "match-end", fixed) == []


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("game", ["horse-race", "american-sniff"])
def test_every_v2_play_builder_makes_reachable_states_with_the_seeds_semantics(game):
    """Golden v2 (fives/conformance/golden/reached.py): states from self-play are reachable;
    a Sniff settlement or match end only deducts and never ends the match; a turn that
    reaches the target starts below it."""
    rules = load_rules(game)
    made = Counter()
    for name, (_, build) in sorted(REACHED_BUILDERS.items()):
        for i in range(3):
            case = build(random.Random(f"t:{name}:{i}"), rules)
            if case is None:
                continue
            made[name] += 1
            assert problems(rules, case["kind"], case["input"]) == [], (name, case["input"])
            if game == "american-sniff" and case["kind"] == "match-end":
                assert all(a <= 0 for a in case["input"]["awards"]) and case["expect"]["winners"] == []
            if game == "american-sniff" and case["kind"] == "settle":
                assert case["expect"]["winners"] == [] and all(c <= 0 for c in case["expect"]["changes"])
            if name == "turn-target-mid-hand":
                assert max(case["input"]["scores"]) < rules.target_raw[case["input"]["players"]] // rules.display_divisor
                assert case["expect"]["match_end"]["by"] == "placement"
    assert made["turn-random"] == 3 and made["settle-blocked-tie"] == 3 and made["match-end"] == 3
