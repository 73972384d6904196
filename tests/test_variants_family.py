"""The Fives family's rules that issue 27 made parameters: each non-default value on a state checked
by hand (spec/variants.md): which doubles spin, the opening, the settlement kind and its rounding,
no continuation (Five Up), and the shipped profiles that use them."""
from __future__ import annotations

from typing import Any

import pytest

from fives.conformance.cases.kinds import load_kinds
from fives.layout import IllegalPlacement, Layout
from fives.profiles import load_profile, make_profile, rules_under
from fives.rules import GameRules, load_rules

KINDS = load_kinds()
HR, SN = "horse-race", "american-sniff"


def under(game: str, **overrides: Any) -> GameRules:
    return rules_under(make_profile(game, {k.replace("__", "."): v for k, v in overrides.items()}), game)


def run(kind: str, rules: GameRules, input: dict[str, Any]) -> Any:
    return KINDS[kind].run(rules, input, {})


def test_only_an_opening_double_spins() -> None:
    opened = Layout(under(SN, spinners__policy="opening-double"))
    for p in ("[3|3]", "[3|6]>[3|3]:line-a", "[6|6]>[3|6]:high"):
        opened.push(p)
    assert [str(t) for t in opened.spinners] == ["[3|3]"]
    later = Layout(under(SN, spinners__policy="opening-double"))
    for p in ("[3|6]", "[6|6]>[3|6]:high", "[6|1]>[6|6]:line-b"):
        later.push(p)
    assert later.spinners == [] and later.sum == 3 + 1  # the double is internal: it counts nothing
    with pytest.raises(IllegalPlacement) as e:
        later.push("[6|2]>[6|6]:branch-a")
    assert e.value.code.value == "branch-of-non-spinner"
    seeds = Layout(SN)  # the seeds: the first double spins wherever it is placed
    for p in ("[3|6]", "[6|6]>[3|6]:high"):
        seeds.push(p)
    assert [str(t) for t in seeds.spinners] == ["[6|6]"]


def test_open_branch_sides_count_nothing_in_sniff_and_one_half_in_horse_race() -> None:
    placements = ["[3|3]", "[3|4]>[3|3]:line-a", "[3|5]>[3|3]:line-b"]
    sums = {}
    for name, rules in (("sn", load_rules(SN)), ("sn0", under(SN, counting__open_branch_side="zero")),
                        ("hr", load_rules(HR)), ("hr1", under(HR, counting__open_branch_side="one-half"))):
        layout = Layout(rules)
        for p in placements:
            layout.push(p)
        sums[name] = layout.sum
    assert sums == {"sn": 4 + 5 + 3 + 3, "sn0": 4 + 5, "hr": 4 + 5, "hr1": 4 + 5 + 3 + 3}


def test_the_opening_must_be_the_highest_double_or_a_double_or_a_scoring_tile() -> None:
    hand = ["[1|2]", "[2|3]", "[3|3]", "[5|5]", "[1|1]"]
    legal = {"players": 2, "layout": [], "hand": hand, "boneyard": 14}
    tiles = lambda r, h=hand: [p["tile"] for p in run("legal-placements", r, {**legal, "hand": h})["placements"]]  # noqa: E731
    assert tiles(under(SN, opening__requires="highest-double")) == ["[5|5]"]
    assert tiles(under(SN, opening__requires="double-or-scoring")) == ["[1|1]", "[2|3]", "[3|3]", "[5|5]"]
    assert tiles(under(SN, opening__requires="highest-double"), ["[1|2]", "[0|4]"]) == ["[0|4]", "[1|2]"]
    assert tiles(under(SN, opening__requires="double-or-scoring"), ["[1|2]", "[0|4]"]) == ["[0|4]", "[1|2]"]


def test_sniff_settled_by_an_award_to_the_winner() -> None:
    award = under(SN, settlement__kind="award-to-winner")
    gone = {"players": 3, "end": {"reason": "gone-out", "seat": 0}, "pips": [0, 7, 12]}
    assert run("settle", load_rules(SN), gone)["changes"] == [0, -5, -10]
    got = run("settle", award, gone)
    assert got["changes"] == [20, 0, 0] and got["awards"][0]["pips"] == 19  # raw points, rounded once
    blocked = {"players": 2, "end": {"reason": "blocked"}, "pips": [4, 13]}
    assert run("settle", award, blocked)["changes"] == [15, 0]
    diff = under(SN, settlement__kind="award-to-winner", settlement__subtract_winner_own=True,
                 settlement__rounding__multiple=1)
    assert run("settle", diff, blocked)["changes"] == [9, 0]  # All Fives at gambit.com: the difference


@pytest.mark.parametrize("up_from, want", [(3, [0, -10, -10]), (1, [0, -10, -15]), (5, [0, -5, -10])])
def test_the_rounding_remainder(up_from: int, want: list[int]) -> None:
    rules = under(SN, settlement__rounding__round_up_from_remainder=up_from)
    got = run("settle", rules, {"players": 3, "end": {"reason": "gone-out", "seat": 0}, "pips": [0, 8, 11]})
    assert got["changes"] == want


def test_horse_race_deducting_and_unrounded() -> None:
    deduct = under(HR, settlement__kind="deduct-per-seat")
    got = run("settle", deduct, {"players": 2, "scores": [20, 20], "end": {"reason": "gone-out", "seat": 0},
                                 "pips": [0, 13]})
    assert got["changes"] == [0, -3]  # 13 rounds to 15 raw: 3 displayed points
    raw = under(HR, settlement__rounding__multiple=1)
    assert run("settle", raw, {"players": 2, "end": {"reason": "gone-out", "seat": 0}, "pips": [0, 14]})["changes"] == [2, 0]


def test_five_up_plays_one_tile_per_turn() -> None:
    input = {"players": 2, "layout": [{"tile": "[1|4]"}], "hands": [["[4|4]", "[1|2]"], ["[6|6]"]],
             "boneyard": [], "seat": 0, "actions": [{"action": "place", "tile": "[4|4]", "to": "[1|4]", "side": "high"}]}
    seeds = run("turn", load_rules(HR), input)
    assert seeds["results"][0]["continues"] is True and seeds["next_seat"] == 0  # a double continues in Horse Race
    five_up = run("turn", rules_under(load_profile("five-up-pagat"), HR), input)
    assert five_up["results"][0]["continues"] is False and five_up["next_seat"] == 1


def test_the_fixed_profiles_follow_their_sources() -> None:
    hoyle, indoor, digi = (load_profile(p) for p in ("muggins-hoyle", "sniff-indoor-outdoor", "sniff-digigamers"))
    assert hoyle.overrides["opening.requires"] == indoor.overrides["opening.requires"] == "highest-double"
    assert indoor.overrides["target.raw"][2] == 200
    assert hoyle.overrides["settlement.kind"] == digi.overrides["settlement.kind"] == "award-to-winner"
    hand = ["[2|2]", "[6|6]", "[1|3]"]
    legal = {"players": 2, "layout": [], "hand": hand, "boneyard": 14}
    for p in (hoyle, indoor):
        assert [x["tile"] for x in run("legal-placements", rules_under(p, SN), legal)["placements"]] == ["[6|6]"]
