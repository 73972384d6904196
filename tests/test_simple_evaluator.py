"""The independent simple evaluator agrees with the reference engine.

`simple_evaluator.py` recomputes every layout from its placement records, written from
the digest and seeds alone. Here it must (1) reproduce the seeds' worked sums, (2) give
the same `fives evaluate` answer as the engine on seeded random layouts and on every
evaluate case of the fixtures and the golden suite, and (3) generate the same legal
placements.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

import simple_evaluator as simple  # noqa: E402

from fives.evaluation import evaluate  # noqa: E402
from fives.support.reading import SAFE_LOADER  # noqa: E402
from fives.layout import Layout  # noqa: E402
from fives.rules import load_rules  # noqa: E402
from fives.tiles import ALL_TILES, SIDE_ORDER, TILE_INDEX, Side, parse_tile  # noqa: E402

GAMES = ["american-sniff", "horse-race"]
CONFORMANCE = Path(__file__).resolve().parents[1] / "conformance"
# hand-written fixtures and the generated golden suite (when committed)
CASE_DIRS = [CONFORMANCE / "fixtures", CONFORMANCE / "golden"]

# The seeds' running example (both seeds' figures), in play order.
SEED_WALK = [
    {"tile": "[1|4]"},
    {"tile": "[1|1]", "to": "[1|4]", "side": "low"},
    {"tile": "[4|4]", "to": "[1|4]", "side": "high"},
    {"tile": "[3|4]", "to": "[4|4]", "side": "line-b"},
    {"tile": "[1|2]", "to": "[1|1]", "side": "line-b"},
    {"tile": "[1|5]", "to": "[1|1]", "side": "branch-a"},
    {"tile": "[5|5]", "to": "[1|5]", "side": "high"},
    {"tile": "[0|5]", "to": "[5|5]", "side": "line-b"},
    {"tile": "[1|3]", "to": "[1|1]", "side": "branch-b"},
]
# Counted sums after each placement, from the seeds' figures ("المساهمات المحتسبة: ... = S");
# None where no figure shows that layout.
SEED_WALK_SUMS = {
    "american-sniff": [5, 6, 10, 5, 7, 11, None, 6, 8],
    "horse-race": [5, 6, 10, 5, 5, 10, None, 5, 8],
}


@pytest.mark.parametrize("game", GAMES)
def test_seed_walk_sums(game: str) -> None:
    for n, want in enumerate(SEED_WALK_SUMS[game], 1):
        if want is not None:
            assert simple.evaluate(game, SEED_WALK[:n])["sum"] == want, SEED_WALK[n - 1]


def test_seed_prose_examples() -> None:
    # Seed 000: Sniff [6|6], line ends 3 and 5 -> 3 + 5 + 6 + 6 = 20; a branch ending in 4 -> 18.
    sniff = [{"tile": "[6|6]"}, {"tile": "[3|6]", "to": "[6|6]", "side": "line-a"},
             {"tile": "[5|6]", "to": "[6|6]", "side": "line-b"}]
    r = simple.evaluate("american-sniff", sniff)
    assert (r["sum"], r["raw"]) == (20, 20)
    r = simple.evaluate("american-sniff", sniff + [{"tile": "[4|6]", "to": "[6|6]", "side": "branch-a"}])
    assert (r["sum"], r["raw"]) == (18, 0)
    # Seed 001: [5|5] = 10; [5|2] on a line = 12; [5|3] on the other = 5; [5|4] on a branch = 9.
    walk = [{"tile": "[5|5]"}, {"tile": "[2|5]", "to": "[5|5]", "side": "line-a"},
            {"tile": "[3|5]", "to": "[5|5]", "side": "line-b"}, {"tile": "[4|5]", "to": "[5|5]", "side": "branch-b"}]
    assert [simple.evaluate("horse-race", walk[:n])["sum"] for n in range(1, 5)] == [10, 12, 5, 9]
    assert simple.evaluate("horse-race", walk[:3])["display"] == 1
    # Seed 000: later doubles never open branches.
    later = SEED_WALK[:7] + [{"tile": "[0|5]", "to": "[5|5]", "side": "line-b"},
                             {"tile": "[5|6]", "to": "[5|5]", "side": "branch-a"}]
    assert simple.evaluate("american-sniff", later)["error"]["code"] == "branch-of-non-spinner"
    assert "error" not in simple.evaluate("horse-race", later)


def _engine_moves(layout: Layout) -> list[dict[str, str]]:
    return [p.to_dict() for p in layout.legal_placements(ALL_TILES)]


def _move_key(record: dict[str, str]) -> tuple[int, int, int]:
    t = TILE_INDEX[parse_tile(record["tile"])]
    if "to" not in record:
        return (t, -1, -1)
    return (t, TILE_INDEX[parse_tile(record["to"])], SIDE_ORDER[Side(record["side"])])


def _random_layouts(game: str, count: int, seed: int):
    """Seeded random legal layouts of 1..28 tiles, grown with the engine's move generator
    (whose completeness is checked against the simple evaluator along the way)."""
    rng = random.Random(seed)
    rules = load_rules(game)
    for i in range(count):
        length = rng.randint(1, 28)
        layout = Layout(rules)
        records: list[dict[str, str]] = []
        for _ in range(length):
            moves = layout.legal_placements(ALL_TILES)
            if not moves:
                break
            move = rng.choice(moves)
            layout.push(move)
            records.append(move.to_dict())
        yield i, layout, records


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("game", GAMES)
def test_random_layouts_agree(game: str) -> None:
    params = simple.game_parameters(game)
    checked = 0
    for i, layout, records in _random_layouts(game, 1500, seed=20240 + GAMES.index(game)):
        want = evaluate(game, records)
        got = simple.evaluate(params, records)
        assert got == want, f"layout {i}: {records}"
        if i % 10 == 0:  # the full move list costs more: every tenth layout
            simple_moves = sorted(simple.legal_records(records, params), key=_move_key)
            assert simple_moves == sorted(_engine_moves(layout), key=_move_key), f"layout {i}: {records}"
        checked += 1
    assert checked == 1500


@pytest.mark.parametrize("game", GAMES)
def test_random_illegal_placements_agree(game: str) -> None:
    """A random (mostly illegal) placement after a random legal layout: same error index and code."""
    params = simple.game_parameters(game)
    rng = random.Random(777 + GAMES.index(game))
    sides = [s.value for s in Side]
    errors = 0
    for i, _, records in _random_layouts(game, 600, seed=4242 + GAMES.index(game)):
        placed = [r["tile"] for r in records]
        bad = {"tile": str(rng.choice(ALL_TILES)), "to": rng.choice(placed + [str(rng.choice(ALL_TILES))]),
               "side": rng.choice(sides)}
        case = records + [bad]
        want, got = evaluate(game, case), simple.evaluate(params, case)
        if "error" in want or "error" in got:
            errors += 1
            assert "error" in got and "error" in want, f"case {i}: {case}"
            assert (got["error"]["index"], got["error"]["code"]) == (want["error"]["index"], want["error"]["code"]), case
        else:
            assert got == want
    assert errors > 300  # the random placements really exercise the illegal paths


def _evaluate_cases():
    for folder in CASE_DIRS:
        for path in sorted(folder.rglob("*.yaml")):
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER)  # the C safe loader
            for case in (data or {}).get("cases", []) if isinstance(data, dict) else []:
                if case.get("kind") == "evaluate":
                    yield pytest.param(case, id=f"{path.relative_to(CONFORMANCE)}:{case['id']}")


EVALUATE_CASES = list(_evaluate_cases())


def test_there_are_evaluate_fixtures() -> None:
    assert len(EVALUATE_CASES) >= 10


@pytest.mark.parametrize("case", EVALUATE_CASES)
def test_fixture_agrees(case: dict) -> None:
    from fives.conformance.cases.kinds.evaluate import compare

    records = case["input"]["placements"]
    want, got = evaluate(case["game"], records), simple.evaluate(case["game"], records)
    if "error" in want:
        assert "error" in got, got
        assert (got["error"]["index"], got["error"]["code"]) == (want["error"]["index"], want["error"]["code"])
    else:
        assert got == want
    assert compare(case["expect"], got) == []  # and the simple evaluator meets the fixture
