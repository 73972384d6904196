import pytest

from fives.tiles import ALL_TILES, Side, parse_side, parse_tile, tile


def test_double_six_set_has_28_distinct_tiles_low_first():
    assert len(ALL_TILES) == 28 == len(set(ALL_TILES))
    assert all(t.low <= t.high for t in ALL_TILES)
    assert sum(t.is_double for t in ALL_TILES) == 7
    assert sum(t.pips for t in ALL_TILES) == 168


@pytest.mark.parametrize("text", ["[1|4]", "[4|1]", "1-4", "4-1"])
def test_notation_accepts_both_orders_and_writes_low_first(text):
    t = parse_tile(text)
    assert (t.low, t.high) == (1, 4)
    assert str(t) == "[1|4]"


@pytest.mark.parametrize("text", ["[1|7]", "[1/4]", "14", "[1|4", "", "[-1|2]",
                                  # spec/engine.md documents `[a|b]` and `a-b` only (issue 20)
                                  "5|2", "[5-2]", "[05|2]", "05-2", " [1|4]", "[1|4] ", "[ 1 | 4 ]", "1 - 4", "1-4]"])
def test_bad_tiles_are_rejected_with_the_text(text):
    with pytest.raises(ValueError) as e:
        parse_tile(text)
    assert repr(text) in str(e.value)


def test_non_string_tile_rejected():
    with pytest.raises(ValueError):
        parse_tile(14)


def test_sides_and_values():
    assert tile(2, 5).value(Side.LOW) == 2 and tile(2, 5).value(Side.HIGH) == 5
    assert tile(3, 3).sides == (Side.LINE_A, Side.LINE_B, Side.BRANCH_A, Side.BRANCH_B)
    assert parse_side("branch-b") is Side.BRANCH_B
    with pytest.raises(ValueError, match="unknown side 'middle'"):
        parse_side("middle")
