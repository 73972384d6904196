"""The layout engine, clause by clause (IDs from spec/rules.md)."""
from __future__ import annotations

import pytest

from fives.evaluation import build_layout, evaluate
from fives.layout import IllegalCode, IllegalPlacement, Layout, Placement
from fives.rules import load_rules
from fives.tiles import Side, parse_tile

SN, HR = "american-sniff", "horse-race"


def P(tile, to=None, side=None):
    return {"tile": tile} if to is None else {"tile": tile, "to": to, "side": side}


def contrib(result):
    return sorted((c["tile"], c.get("side"), c["value"]) for c in result["contributions"])


def positions(result):
    return sorted((p["tile"], p["side"], p["value"]) for p in result["positions"])


class TestSpinners:
    def test_SN_SPIN_1_only_the_first_double_spins(self):
        r = evaluate(SN, [P("[2|2]"), P("[2|5]", "[2|2]", "line-a"), P("[5|5]", "[2|5]", "high")])
        assert r["spinners"] == ["[2|2]"]

    def test_HR_SPIN_1_every_double_spins_including_on_a_branch(self):
        r = evaluate(HR, [P("[2|2]"), P("[2|5]", "[2|2]", "line-a"), P("[2|3]", "[2|2]", "line-b"),
                          P("[2|6]", "[2|2]", "branch-a"), P("[6|6]", "[2|6]", "high")])
        assert r["spinners"] == ["[2|2]", "[6|6]"]

    def test_SN_SPIN_1_opening_non_double_then_first_double_is_sniff(self):
        r = evaluate(SN, [P("[3|6]"), P("[6|6]", "[3|6]", "high"), P("[3|3]", "[3|6]", "low")])
        assert r["spinners"] == ["[6|6]"]

    @pytest.mark.parametrize("game", [SN, HR])
    def test_SPIN_2_branches_only_after_both_lines(self, game):
        layout, _ = build_layout(game, [P("[4|4]"), P("[4|6]", "[4|4]", "line-a")])
        assert all(not p.side.is_branch for p in layout.positions())
        layout.push(Placement(parse_tile("[1|4]"), parse_tile("[4|4]"), Side.LINE_B))
        assert {p.side for p in layout.positions() if p.tile == parse_tile("[4|4]")} == {Side.BRANCH_A, Side.BRANCH_B}


class TestCounting:
    def test_SN_COUNT_2_end_double_counts_both_halves_then_zero_when_internal(self):
        # [5|5] is not the Sniff here: once internal it counts nothing and opens nothing
        r = evaluate(SN, [P("[1|1]"), P("[1|5]", "[1|1]", "line-a"), P("[5|5]", "[1|5]", "high")])
        assert ("[5|5]", None, 10) in contrib(r)
        r = evaluate(SN, [P("[1|1]"), P("[1|5]", "[1|1]", "line-a"), P("[5|5]", "[1|5]", "high"),
                          P("[0|5]", "[5|5]", "line-b")])
        assert [c for c in contrib(r) if c[0] == "[5|5]"] == []
        assert [p for p in positions(r) if p[0] == "[5|5]"] == []

    def test_SN_COUNT_3_open_branch_halves_count_once_lines_are_full(self):
        r = evaluate(SN, [P("[3|3]"), P("[3|4]", "[3|3]", "line-a"), P("[1|3]", "[3|3]", "line-b")])
        assert contrib(r) == [("[1|3]", "low", 1), ("[3|3]", "branch-a", 3), ("[3|3]", "branch-b", 3),
                              ("[3|4]", "high", 4)]
        assert r["sum"] == 11 and r["raw"] == 0

    def test_SN_COUNT_4_both_branches_started_only_four_outer_ends(self):
        r = evaluate(SN, [P("[3|3]"), P("[3|4]", "[3|3]", "line-a"), P("[1|3]", "[3|3]", "line-b"),
                          P("[3|5]", "[3|3]", "branch-a"), P("[3|6]", "[3|3]", "branch-b")])
        assert r["sum"] == 4 + 1 + 5 + 6 and len(r["contributions"]) == 4

    def test_HR_COUNT_2_unused_branches_count_zero(self):
        r = evaluate(HR, [P("[3|3]"), P("[3|4]", "[3|3]", "line-a"), P("[1|3]", "[3|3]", "line-b")])
        assert contrib(r) == [("[1|3]", "low", 1), ("[3|4]", "high", 4)]
        assert r["sum"] == 5 and r["raw"] == 5 and r["display"] == 1

    def test_COUNT_zero_ends_are_counted_and_zero_sum_scores_nothing(self, game):
        r = evaluate(game, [P("[0|0]")])
        assert contrib(r) == [("[0|0]", None, 0)] and r["sum"] == 0 and r["raw"] == 0

    def test_SN_SCORE_1_points_are_raw_HR_POINTS_1_displayed_is_raw_over_5(self):
        placements = [P("[3|6]"), P("[6|6]", "[3|6]", "high")]
        assert (evaluate(SN, placements)["raw"], evaluate(SN, placements)["display"]) == (15, 15)
        assert (evaluate(HR, placements)["raw"], evaluate(HR, placements)["display"]) == (15, 3)

    def test_scores_lists_every_placement(self):
        r = evaluate(HR, [P("[5|5]"), P("[2|5]", "[5|5]", "line-a"), P("[3|5]", "[5|5]", "line-b"),
                          P("[4|5]", "[5|5]", "branch-a")])
        assert r["scores"] == [10, 0, 5, 0]


class TestIllegal:
    @pytest.mark.parametrize("placements,index,code", [
        ([P("[1|4]"), P("[2|3]", "[1|4]", "high")], 1, IllegalCode.VALUE_MISMATCH),
        ([P("[1|4]"), P("[1|4]", "[1|4]", "low")], 1, IllegalCode.TILE_ALREADY_PLACED),
        ([P("[1|4]"), P("[4|5]", "[4|4]", "line-a")], 1, IllegalCode.TARGET_NOT_IN_LAYOUT),
        ([P("[1|4]"), P("[4|5]", "[1|4]", "branch-a")], 1, IllegalCode.NO_SUCH_SIDE),
        ([P("[1|4]"), P("[4|5]", "[1|4]", "sideways")], 1, IllegalCode.UNKNOWN_SIDE),
        ([P("[1|4]"), {"tile": "[4|5]", "side": "high"}], 1, IllegalCode.MALFORMED_PLACEMENT),
        (["[1|4]"], 0, IllegalCode.MALFORMED_PLACEMENT),
        ([{"tile": "[1|4]", "colour": "red"}], 0, IllegalCode.MALFORMED_PLACEMENT),
        ([P("[9|9]")], 0, IllegalCode.MALFORMED_TILE),
        ([P("[4|4]"), P("[4|5]", "[4|4]", "branch-b")], 1, IllegalCode.BRANCH_BEFORE_LINES),
        ([P("[1|4]", "[4|4]", "line-a")], 0, IllegalCode.TARGET_NOT_IN_LAYOUT),
    ])
    def test_reason_codes(self, game, placements, index, code):
        r = evaluate(game, placements)
        assert r["error"]["index"] == index and r["error"]["code"] == code.value
        assert r["error"]["message"]

    def test_not_a_list(self):
        assert evaluate(SN, {"tile": "[1|4]"})["error"]["code"] == "malformed-placement"

    def test_illegal_push_leaves_layout_unchanged(self, game):
        layout, _ = build_layout(game, [P("[1|4]"), P("[4|4]", "[1|4]", "high")])
        before = (layout.sum, layout.positions(), layout.tiles)
        with pytest.raises(IllegalPlacement):
            layout.push(Placement(parse_tile("[2|3]"), parse_tile("[4|4]"), Side.LINE_B))
        assert (layout.sum, layout.positions(), layout.tiles) == before


def test_pop_restores_exactly(game):
    layout = Layout(load_rules(game))
    seq = [Placement(parse_tile("[4|4]")), Placement(parse_tile("[1|4]"), parse_tile("[4|4]"), Side.LINE_A),
           Placement(parse_tile("[4|6]"), parse_tile("[4|4]"), Side.LINE_B),
           Placement(parse_tile("[2|4]"), parse_tile("[4|4]"), Side.BRANCH_A)]
    states = []
    for p in seq:
        states.append((layout.sum, layout.positions(), layout.spinners))
        layout.push(p)
    for p in reversed(seq):
        assert layout.pop() == p
        assert (layout.sum, layout.positions(), layout.spinners) == states.pop()
    assert len(layout) == 0


def test_legal_placements_respect_hand_and_values():
    layout, _ = build_layout(SN, [P("[1|4]")])
    moves = layout.legal_placements([parse_tile("[4|6]"), parse_tile("[2|3]"), parse_tile("[1|1]")])
    assert [str(m) for m in moves] == ["[1|1]>[1|4]:low", "[4|6]>[1|4]:high"]
