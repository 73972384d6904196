"""The Layout object API (issue 10) and its int interface (issue 12), against the object path."""
from __future__ import annotations

import random
import subprocess
import sys

import pytest

import fives
from fives.support.errors import UserError
from fives.layout import IllegalCode, IllegalPlacement, Layout, Placement
from fives.moves import PLACEMENT_OF, move_code
from fives.conformance.mutants.registry import LAYOUT_MUTANTS
from fives.rules import load_rules
from fives.tiles import ALL_TILES, Side, parse_tile, tile

GAMES = ["american-sniff", "horse-race"]


def test_the_issue_example_prints_10_2() -> None:
    code = ('import fives; L = fives.Layout("horse-race"); L.push("[1|4]"); L.push("[1|1]>[1|4]:low"); '
            'L.push("[4|4]>[1|4]:high"); print(L.sum, L.display)')
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.stdout == "10 2\n", r.stderr


def test_layout_takes_a_game_id_or_rules() -> None:
    assert Layout("horse-race").rules is load_rules("horse-race")
    assert Layout(load_rules("american-sniff")).rules.id == "american-sniff"
    with pytest.raises(UserError, match="unknown game 'poker'"):
        Layout("poker")
    with pytest.raises(UserError):
        Layout(42)  # type: ignore[arg-type]


def test_push_takes_text_records_and_placements_alike() -> None:
    a, b, c = Layout("horse-race"), Layout("horse-race"), Layout("horse-race")
    assert a.push("[1|4]") == b.push({"tile": "[1|4]"}) == c.push(Placement(tile(1, 4))) == 5
    assert a.push("[1|1]>[1|4]:low") == b.push({"tile": "[1|1]", "to": "[1|4]", "side": "low"}) \
        == c.push(Placement(tile(1, 1), tile(1, 4), Side.LOW)) == 0
    assert a.push("[4|4]>[1|4]:high") == 10
    assert (a.sum, a.raw, a.display) == (10, 10, 2)
    assert a.history() == [Placement.parse(t) for t in ("[1|4]", "[1|1]>[1|4]:low", "[4|4]>[1|4]:high")]
    assert repr(a) == "Layout('horse-race', [[1|4], [1|1]>[1|4]:low, [4|4]>[1|4]:high])"


def test_placement_parse_is_the_inverse_of_str() -> None:
    every = [p for p in PLACEMENT_OF if p is not None]
    assert len(every) == 28 + 420
    for p in every:
        assert Placement.parse(str(p)) == p and Placement.parse(str(p)).code == p.code
    assert Placement(tile(1, 1), "[1|4]", "low") == Placement.parse("[1|1]>[4|1]:low")  # sides by name


@pytest.mark.parametrize("bad,code", [
    (5, IllegalCode.MALFORMED_PLACEMENT),
    (None, IllegalCode.MALFORMED_PLACEMENT),
    ("[9|9]", IllegalCode.MALFORMED_TILE),
    ("[٣|٥]", IllegalCode.MALFORMED_TILE),  # ASCII digits only
    ("[1|1]>[1|4]", IllegalCode.MALFORMED_PLACEMENT),
    ("[1|1]>[1|4]:lo", IllegalCode.UNKNOWN_SIDE),
    ("[1|1]>[x|4]:low", IllegalCode.MALFORMED_TILE),
    ({"tile": "[1|1]", "to": "[1|4]", "side": 3}, IllegalCode.UNKNOWN_SIDE),
    ({"tile": "[1|1]", "to": "[1|4]"}, IllegalCode.MALFORMED_PLACEMENT),
    ("[2|3]>[1|4]:high", IllegalCode.VALUE_MISMATCH),
    ("[1|4]", IllegalCode.MALFORMED_PLACEMENT),  # a second opening
])
def test_a_bad_argument_is_an_illegal_placement_with_its_code(bad: object, code: IllegalCode) -> None:
    layout = Layout("american-sniff")
    layout.push("[1|4]")
    with pytest.raises(IllegalPlacement) as e:
        layout.push(bad)  # type: ignore[arg-type]
    assert e.value.code is code
    assert len(layout) == 1 and layout.sum == 5  # nothing changed


def test_placement_constructor_checks_its_fields() -> None:
    with pytest.raises(IllegalPlacement) as e:
        Placement("[1|4]", "[4|4]", "sideways")  # type: ignore[arg-type]
    assert e.value.code is IllegalCode.UNKNOWN_SIDE
    with pytest.raises(IllegalPlacement) as e:
        Placement(14)  # type: ignore[arg-type]
    assert e.value.code is IllegalCode.MALFORMED_TILE


def test_legal_placements_takes_tiles_or_text_and_repr_svg_draws() -> None:
    layout = Layout("horse-race")
    layout.push("[1|4]")
    got = layout.legal_placements(["[1|1]", tile(4, 4), "6-4"])
    assert [str(p) for p in got] == ["[1|1]>[1|4]:low", "[4|4]>[1|4]:high", "[4|6]>[1|4]:high"]
    svg = layout._repr_svg_()
    assert svg.startswith("<svg") and "[1|4]" in svg


def test_ascii_digits_only_in_tiles() -> None:
    assert parse_tile("[3|5]") == tile(3, 5)
    for text in ("[٣|٥]", "[３|５]", "٣-٥"):
        with pytest.raises(ValueError, match="malformed tile"):
            parse_tile(text)
    r = fives.evaluate("horse-race", [{"tile": "[٣|٥]"}])
    assert r["error"]["code"] == "malformed-tile" and r["error"]["index"] == 0


def _random_layout(rng: random.Random, cls: type[Layout], game: str) -> Layout:
    layout = cls(load_rules(game))
    for _ in range(rng.randint(0, 14)):
        moves = layout.moves()
        if not moves:
            break
        layout.push_move(rng.choice(moves))
    return layout


@pytest.mark.parametrize("cls", [Layout] + [m.hooks()["layout"] for m in LAYOUT_MUTANTS],
                         ids=["reference"] + [m.name for m in LAYOUT_MUTANTS])
@pytest.mark.parametrize("game", GAMES)
def test_score_move_and_leaf_counts_agree_with_push(cls: type[Layout], game: str) -> None:
    rng = random.Random(3)
    for _ in range(25):
        layout = _random_layout(rng, cls, game)
        before = (layout.sum, layout.history(), layout.to_result())
        nodes = points = 0
        for m in layout.moves():
            predicted = layout.score_move(m)
            assert layout.push_move(m) == predicted
            layout.pop_move()
            nodes, points = nodes + 1, points + predicted
        assert layout.leaf_counts() == (nodes, points)
        assert (layout.sum, layout.history(), layout.to_result()) == before
        assert [p.code for p in layout.legal_placements(ALL_TILES)] == layout.moves()


def test_move_codes_sort_canonically() -> None:
    assert move_code(3) == 3 << 8
    a = move_code(9, 3, Side.HIGH.index)  # [1|3] on the high side (3) of [0|3]
    assert PLACEMENT_OF[a] == Placement(tile(1, 3), tile(0, 3), Side.HIGH) == Placement.parse("[1|3]>[0|3]:high")
    codes = [p.code for p in PLACEMENT_OF if p is not None]
    keys = [(p.tile.index, -1 if p.to is None else p.to.index, -1 if p.side is None else p.side.index)
            for p in PLACEMENT_OF if p is not None]
    assert sorted(codes) == codes and sorted(keys) == keys
