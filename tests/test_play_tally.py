"""The score records the documents describe: the Sniff paper tally and the cribbage board."""
from __future__ import annotations

import pytest

from fives.draw.tally_text import symbol_text
from fives.tally import STROKE_ORDER, CribPosition, SniffTally, crib_position, sniff_tally


@pytest.mark.parametrize("raw, expected", [
    (0, (0, 0)), (5, (0, 1)), (45, (0, 9)), (50, (1, 0)), (135, (2, 7)), (250, (5, 0)), (-15, (0, 3)),
])
def test_sniff_tally(raw: int, expected: tuple[int, int]) -> None:
    """One stroke per 5 raw points; ten strokes make the 50-point symbol (SN-RECORD-1)."""
    assert sniff_tally(raw) == expected
    fifties, strokes = expected
    assert (fifties * 10 + strokes) * 5 == abs(raw)


def test_the_fifty_symbol_is_a_large_x_with_four_small_x() -> None:
    assert len(STROKE_ORDER) == 10 and STROKE_ORDER[:2] == (("centre", "\\"), ("centre", "/"))
    full = symbol_text(list(STROKE_ORDER))
    assert full == ["\\  x  /", " \\   / ", "x  X  x", " /   \\ ", "/  x  \\"]
    # the large X comes first, then a small x in each of the four spaces around it
    assert symbol_text(list(STROKE_ORDER[:2]))[2] == "   X   "
    assert symbol_text(list(STROKE_ORDER[:4]))[0] == "\\  x  /"
    t = SniffTally.of(135)
    assert [len(s) for s in t.parts()] == [10, 10, 7] and not t.negative and t.leftover == 0


@pytest.mark.parametrize("score, hole, street, group, place", [
    (0, 0, None, None, None), (1, 1, 1, 1, 1), (5, 5, 1, 1, 5), (6, 6, 1, 2, 1), (30, 30, 1, 6, 5),
    (31, 31, 2, 1, 1), (37, 37, 2, 2, 2), (60, 60, 2, 6, 5), (61, 61, None, None, None), (64, 61, None, None, None),
])
def test_crib_position(score: int, hole: int, street, group, place) -> None:
    pos = crib_position(score, 61)
    assert pos == CribPosition(score, 61, hole, street, group, place)
    assert pos.game_hole == (score >= 61)


def test_crib_position_has_no_negative_holes() -> None:
    with pytest.raises(ValueError):
        crib_position(-1, 61)


def test_a_tiny_profile_board_has_a_street_and_no_third_one():
    """A profile may set Horse Race's target as low as 10 raw (2 displayed): the tally kind
    answered with a ZeroDivisionError there (found by the mutation survivors' reading)."""
    from fives.conformance.cases.kinds.tally import run
    from fives.profiles import make_profile, rules_under

    rules = rules_under(make_profile("horse-race", {"target.raw": {2: 10, 3: 10, 4: 10}}), "horse-race")
    assert [run(rules, {"score": s, "players": 2}, {})["hole"] for s in (0, 1, 2, 3)] == [0, 1, 2, 2]
    assert crib_position(1, 2).street == 1
    # an even target leaves an odd track: the last hole before the game hole is on street 2
    assert (crib_position(99, 100).street, crib_position(50, 100).street, crib_position(51, 100).street) == (2, 1, 2)
