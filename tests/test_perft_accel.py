"""The compiled perft walker (fives/_perft.c) against the pure-Python one (`walk_python`).

Both count every row of the committed perft tables (the cheap rows by default, every row
under `slow`), every divide, and random layouts under random rule profiles; the compiled one
is refused (the capability check) for layout classes with their own hooks. Skipped when the
extension is not built or FIVES_PURE_PYTHON is set; the pure path is then the one tested by
tests/test_perft.py.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from fives import accel
from fives.conformance.mutants.registry import LAYOUT_MUTANTS
from fives.layout import Layout
from fives.perft import PerftResult, divide, perft, start_layout, walk, walk_python
from fives.profile_space import random_profile
from fives.profiles import make_profile, rules_under
from fives.rules import GameRules, load_rules

pytestmark = pytest.mark.skipif(not accel.available(), reason="fives._accel is not built, or FIVES_PURE_PYTHON")

ROOT = Path(__file__).resolve().parents[1]
TABLES = [ROOT / "conformance" / "perft" / name for name in ("perft.yaml", "leaf-memo.yaml")]
GAMES = ["american-sniff", "horse-race"]
#: rows up to this many sequences run by default (both walkers: well under a second)
CHEAP_NODES = 60_000
#: the Python walker's reach under `slow` (depth 7, 2 x 10^8 sequences, takes it a minute: those
#: rows and deeper ones are checked by the compiled walker against the table alone)
PYTHON_NODES = 20_000_000


def _rows(cheap: bool) -> Iterator[Any]:
    for path in TABLES:
        for entry in yaml.safe_load(path.read_text(encoding="utf-8"))["tables"]:
            for row in entry["depths"]:
                if (row["nodes"] <= CHEAP_NODES) == cheap:
                    yield pytest.param(entry, row, id=f"{path.stem}-{entry['id']}-d{row['depth']}")


def _both(rules: GameRules, start: list[Any], depth: int, python: bool = True) -> tuple[int, int]:
    layout = start_layout(rules, start)
    fast = accel.perft_counter(layout)
    assert fast is not None, "the compiled walker covers the plain rules"
    got = fast(depth)
    if python:
        assert walk_python(layout, depth) == got
    assert [p.code for p in layout.history()] == [p.code for p in start_layout(rules, start).history()]
    return got


@pytest.mark.parametrize("entry,row", list(_rows(cheap=True)))
def test_cheap_table_rows_agree(entry: dict[str, Any], row: dict[str, Any]) -> None:
    got = _both(load_rules(entry["game"]), entry["from"], row["depth"])
    assert got == (row["nodes"], row["points"])


@pytest.mark.slow
@pytest.mark.parametrize("entry,row", list(_rows(cheap=False)))
def test_every_table_row_agrees(entry: dict[str, Any], row: dict[str, Any]) -> None:
    got = _both(load_rules(entry["game"]), entry["from"], row["depth"], python=row["nodes"] <= PYTHON_NODES)
    assert got == (row["nodes"], row["points"])


@pytest.mark.parametrize("game", GAMES)
def test_divide_agrees(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for start, depth in (([], 3), ([{"tile": "[6|6]"}, {"tile": "[3|6]", "to": "[6|6]", "side": "line-a"}], 3)):
        fast = divide(game, depth, start)
        with monkeypatch.context() as m:
            m.setenv("FIVES_PURE_PYTHON", "1")
            assert accel.perft_counter(start_layout(load_rules(game), start)) is None
            pure = divide(game, depth, start)
        assert fast == pure
        assert sum(r.nodes for _, r in fast) == perft(game, depth, start).nodes


def _random_layout(rng: random.Random, rules: GameRules) -> Layout:
    layout = Layout(rules)
    for _ in range(rng.randint(0, 12)):
        moves = layout.moves()
        if not moves:
            break
        layout.push_move(rng.choice(moves))
    return layout


@pytest.mark.parametrize("game", GAMES)
def test_random_layouts_under_random_profiles(game: str) -> None:
    rng = random.Random(41)
    compiled = 0
    for i in range(60):
        profile = random_profile(rng, game, rng.randint(1, 4))
        rules = rules_under(profile, game)
        layout = _random_layout(rng, rules)
        depth = rng.randint(2, 3)
        fast = accel.perft_counter(layout)
        want = walk_python(layout, depth)
        if fast is not None:
            compiled += 1
            assert fast(depth) == want, (profile.overrides, layout)
        assert walk(layout, depth) == want
    assert compiled == 60  # every profile the dimensions draw is one the compiled walker covers


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("overrides", [{"spinners.policy": "none"}, {"spinners.policy": "every-double"},
                                       {"spinners.policy": "opening-double"},
                                       {"counting.open_branch_side": "zero"},
                                       {"spinners.branches_require_both_lines": False}], ids=str)
def test_each_counting_parameter(game: str, overrides: dict[str, Any]) -> None:
    rules = rules_under(make_profile(game, overrides), game)
    rng = random.Random(7)
    for start in ([], [{"tile": "[5|5]"}], [{"tile": "[2|3]"}, {"tile": "[3|3]", "to": "[2|3]", "side": "high"}]):
        layout = start_layout(rules, start)
        for _ in range(3):
            fast = accel.perft_counter(layout)
            assert fast is not None
            for depth in (2, 3):
                assert fast(depth) == walk_python(layout, depth), (overrides, layout, depth)
            moves = layout.moves()
            layout.push_move(rng.choice(moves))


@pytest.mark.parametrize("mutant", LAYOUT_MUTANTS, ids=lambda m: m.name)
def test_layout_classes_with_their_own_hooks_stay_in_python(mutant: Any) -> None:
    cls = mutant.hooks()["layout"]
    layout = start_layout(load_rules("horse-race"), [{"tile": "[4|4]"}], cls)
    assert accel.perft_counter(layout) is None
    assert perft("horse-race", 3, [{"tile": "[4|4]"}], layout_class=cls) == PerftResult(*walk_python(layout, 3))


def test_an_illegal_code_is_refused_not_counted() -> None:
    module, cap = accel._module(), accel.perft_tables(load_rules("horse-race"))
    assert PerftResult(*module.perft(cap, 0, [4 << 8], 2)) == perft("horse-race", 2, [{"tile": "[0|4]"}])
    with pytest.raises(ValueError, match="not legal"):
        module.perft(cap, 0, [4 << 8, 4 << 8], 2)  # the same tile twice
    with pytest.raises(ValueError, match="not legal"):
        module.perft(cap, 0, [27 << 8 | 1], 2)  # a connection with nothing on the table
    with pytest.raises(ValueError):
        module.perft(cap, 0, [], 0)
