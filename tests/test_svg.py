"""Layout pictures: the documents' marks on every seed figure, and sound geometry on random layouts.

The SVG is parsed back (xml.etree) and checked against values computed independently:
the marks against the seed documents' own listings (positions and counted contributions),
the drawing against the placements (pips per half, doubles crosswise, branches at right
angles, each tile touching the tile it joins, no overlaps, everything inside the picture).
"""
from __future__ import annotations

import random
import subprocess
from functools import lru_cache
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from fives.support import paths
from fives.evaluation import build_layout
from fives.conformance.cases.fixtures import load_cases
from fives.draw.geometry import DEFAULT_PAGE, Box, arrange
from fives.layout import Layout
from fives.conformance.cases.seed_examples import extract
from fives.draw.svg import layout_marks, render_layout
from fives.tiles import Side, parse_tile

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import GAMES, random_layout  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"
INSET = 3  # px between a tile's box and its drawn body


# -- reading the SVG back ---------------------------------------------------------------
def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def rect_of(e: ET.Element) -> tuple[float, float, float, float]:
    x, y = float(e.get("x", 0)), float(e.get("y", 0))
    return (x, y, x + float(e.get("width", 0)), y + float(e.get("height", 0)))


def tile_rects(root: ET.Element) -> dict[str, tuple[float, float, float, float]]:
    out = {}
    for g in by_class(root, "tile"):
        body = next(e for e in g if e.get("class") == "tile-body")
        out[g.get("data-tile")] = rect_of(body)
    return out


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def view_box(root: ET.Element) -> tuple[float, float, float, float]:
    x, y, w, h = map(float, root.get("viewBox").split())
    return (x, y, x + w, y + h)


# -- the seed documents' marks ----------------------------------------------------------
def expected_marks(expect: dict[str, Any]) -> tuple[Counter, Counter]:
    """(counted (tile, value), open (tile, side)) from a figure's listing, with no engine code.

    A listed position is counted when a listed contribution of its tile covers it: a
    non-double's contribution of the same value, a double's single contribution of twice
    its value (the whole double covers its line sides), or a double's half-value
    contribution (an open branch side of the Sniff).
    """
    counted = Counter((c["tile"], c["value"]) for c in expect["contributions"])
    left = Counter(counted)
    open_marks: Counter = Counter()
    by_tile: dict[str, list[dict[str, Any]]] = {}
    for p in expect["positions"]:
        by_tile.setdefault(p["tile"], []).append(p)
    for tile, positions in by_tile.items():
        t = parse_tile(tile)
        values = [v for (tt, v), n in counted.items() if tt == tile for _ in range(n)]
        whole = t.is_double and len(values) == 1 and values[0] == 2 * t.low
        for p in positions:
            if whole and p["side"] in ("line-a", "line-b"):
                continue
            if left[(tile, p["value"])] > 0 and not whole:
                left[(tile, p["value"])] -= 1
                continue
            open_marks[(tile, p["side"])] += 1
    return counted, open_marks


def drawn_marks(root: ET.Element) -> tuple[Counter, Counter]:
    counted = Counter((e.get("data-tile"), int(e.get("data-value"))) for e in by_class(root, "mark-counted"))
    opened = Counter((e.get("data-tile"), e.get("data-side")) for e in by_class(root, "mark-open"))
    return counted, opened


SEED_CASES = [c for c in load_cases([paths.FIXTURES / "seed"]) if c.kind == "evaluate"
              and {"positions", "contributions"} <= set(c.expect)]
SEED_FIGURES = [(p.name, f) for p in sorted(paths.SEEDS.glob("*.txt")) for f in extract(p)]
GAME_OF_SEED = {"000": "american-sniff", "001": "horse-race"}


def test_there_are_seed_cases() -> None:
    assert len(SEED_CASES) >= 22 and len(SEED_FIGURES) == 22


@pytest.mark.parametrize("case", SEED_CASES, ids=[c.id for c in SEED_CASES])
def test_seed_fixture_marks(case: Any) -> None:
    layout, _ = build_layout(case.game, case.input["placements"])
    root = parse(render_layout(layout))
    assert drawn_marks(root) == expected_marks(case.expect)
    frames = sorted(e.get("data-tile") for e in by_class(root, "spinner-frame"))
    assert frames == sorted(map(str, layout.spinners))
    if "spinners" in case.expect:
        assert frames == sorted(case.expect["spinners"])
    tiles = sorted(by_class(root, "tile"), key=lambda g: int(g.get("data-order")))
    assert [g.get("data-tile") for g in tiles] == [str(parse_tile(p["tile"])) for p in case.input["placements"]]


@pytest.mark.parametrize("seed,figure", SEED_FIGURES, ids=[f"{s[:3]}-{f.placed}-{len(f.placements)}" for s, f in SEED_FIGURES])
def test_seed_document_figure_marks(seed: str, figure: Any) -> None:
    """Straight from the documents' text: each figure's marks as its own listing states them."""
    layout, _ = build_layout(GAME_OF_SEED[seed[:3]], figure.placements)
    root = parse(render_layout(layout))
    assert drawn_marks(root) == expected_marks(figure.expect)
    assert len(by_class(root, "spinner-frame")) == len(figure.expect["spinners"])


def test_documents_example_counts() -> None:
    """Spot values read off the seeds: Horse Race after [3|4], Sniff after [1|2]."""
    hr = [f for s, f in SEED_FIGURES if s.startswith("001") and f.placed == "[3|4]"][0]
    root = parse(render_layout(build_layout("horse-race", hr.placements)[0]))
    counted, opened = drawn_marks(root)
    assert counted == Counter({("[1|1]", 2): 1, ("[3|4]", 3): 1})
    assert opened == Counter({("[4|4]", "branch-a"): 1, ("[4|4]", "branch-b"): 1})
    sn = [f for s, f in SEED_FIGURES if s.startswith("000") and f.placed == "[1|2]"][0]
    root = parse(render_layout(build_layout("american-sniff", sn.placements)[0]))
    counted, opened = drawn_marks(root)
    assert counted == Counter({("[1|1]", 1): 2, ("[1|2]", 2): 1, ("[3|4]", 3): 1})
    assert opened == Counter()


# -- geometry on random layouts ---------------------------------------------------------
def check_picture(layout: Layout, svg: str) -> None:
    root = parse(svg)
    page = view_box(root)
    rects = tile_rects(root)
    assert sorted(rects) == sorted(map(str, layout.tiles))
    names = sorted(rects)
    for i, a in enumerate(names):
        assert rects[a][0] >= page[0] and rects[a][1] >= page[1] and rects[a][2] <= page[2] and rects[a][3] <= page[3]
        for b in names[:i]:
            assert not overlap(rects[a], rects[b]), f"{a} overlaps {b}"
    # marks: one filled number per contribution, one dot per position nobody counts
    contributions = layout.contributions()
    counted = by_class(root, "mark-counted")
    assert Counter((e.get("data-tile"), int(e.get("data-value"))) for e in counted) == \
        Counter((str(c.tile), c.value) for c in contributions)
    opened = {(e.get("data-tile"), e.get("data-side")) for e in by_class(root, "mark-open")}
    counted_at = {(e.get("data-tile"), e.get("data-side")) for e in counted}
    for p in layout.positions():
        key = (str(p.tile), p.side.value)
        whole = (str(p.tile), "whole") in counted_at and p.side in (Side.LINE_A, Side.LINE_B)
        assert (key in counted_at or whole) != (key in opened), f"{key}: exactly one mark"
    assert len(opened) == len(by_class(root, "mark-open"))
    # marks never sit on a tile
    for e in by_class(root, "mark-open") + [next(iter(g)) for g in counted]:
        cx, cy, r = float(e.get("cx")), float(e.get("cy")), float(e.get("r"))
        for t, rc in rects.items():
            assert not overlap((cx - r, cy - r, cx + r, cy + r), rc), f"a mark covers {t}"
    assert sorted(e.get("data-tile") for e in by_class(root, "spinner-frame")) == sorted(map(str, layout.spinners))
    # the drawing follows the placements
    for g in by_class(root, "tile"):
        t = parse_tile(g.get("data-tile"))
        assert len(by_class(g, "pip")) == t.pips, f"{t}: pips"
        rc = rects[str(t)]
        pt = layout.placed(t)
        tall = rc[3] - rc[1] > rc[2] - rc[0]
        if pt.parent is None:
            continue
        par = rects[str(pt.parent)]
        gap = 2 * INSET
        touch_x = abs(rc[0] - par[2]) == gap or abs(par[0] - rc[2]) == gap
        touch_y = abs(rc[1] - par[3]) == gap or abs(par[1] - rc[3]) == gap
        joint = [j for j in by_class(root, "joint") if j.get("data-tile") == str(t)]
        if joint:  # a stretched joint bridges at most two squares between the faces
            (x1, y1, x2, y2) = (float(joint[0].get(k)) for k in ("x1", "y1", "x2", "y2"))
            assert 0 < abs(x2 - x1) + abs(y2 - y1) <= 60 and (x1 == x2 or y1 == y2)
            touch_x = touch_x or (y1 == y2 and rc[1] < y1 < rc[3])
            touch_y = touch_y or (x1 == x2 and rc[0] < x1 < rc[2])
        assert touch_x or touch_y, f"{t} does not touch {pt.parent}"
        if t.is_double:  # crosswise: the parent lies across its long side
            assert (touch_x and tall) or (touch_y and not tall), f"{t} is not crosswise"
        if pt.parent.is_double and pt.parent_side.is_branch:  # a branch leaves at a right angle
            ptall = par[3] - par[1] > par[2] - par[0]
            assert (touch_y if ptall else touch_x), f"{t} does not leave {pt.parent} at a right angle"


RANDOM = [(g, s) for g in GAMES for s in range(40)]


@pytest.mark.parametrize("game,seed", RANDOM)
def test_random_layout_pictures(game: str, seed: int) -> None:
    rng = random.Random(seed)
    layout = random_layout(game, rng, 28 if seed % 2 else rng.randint(1, 28))
    check_picture(layout, render_layout(layout))


@lru_cache(maxsize=None)
def full_layout(game: str, seed: int) -> Layout:
    """A random legal layout of all 28 tiles: the first of seed*1000, seed*1000+1, ... that gets there."""
    for k in range(1000):
        layout = random_layout(game, random.Random(seed * 1000 + k), 28)
        if len(layout) == 28:
            return layout
    raise AssertionError("no random play reached 28 tiles")


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("game", GAMES)
def test_many_28_tile_layouts_fit_the_default_page(game: str) -> None:
    """Geometry only (fast): 100 random 28-tile layouts per game, no overlap, all on the default page."""
    for seed in range(100):
        layout = full_layout(game, seed)
        marked: dict = {}
        for m in layout_marks(layout):
            if m.at is not None:
                marked.setdefault(m.tile, set()).add(m.at)
        arr = arrange(layout, marked)
        assert len(arr.tiles) == 28 and (arr.page.width, arr.page.height) == DEFAULT_PAGE
        boxes: list[Box] = [g.box for g in arr.tiles.values()] + list(arr.reserved.values())
        for i, b in enumerate(boxes):
            assert b.inside(arr.page)
            assert not any(b.overlaps(o) for o in boxes[:i])


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("game", GAMES)
def test_full_layout_pictures(game: str) -> None:
    for seed in (67,) + tuple(range(500, 510)):  # 67: Horse Race needs stretched joints there
        layout = full_layout(game, seed)
        check_picture(layout, render_layout(layout))


def test_small_page_bends_arms() -> None:
    """Twenty tiles on an 8x8-square page: arms must bend, and everything stays on that page."""
    layout = random_layout("american-sniff", random.Random(5), 20)
    arr = arrange(layout, {}, (16, 16))
    turns = Counter(g.turn for g in arr.tiles.values())
    assert turns["left"] + turns["right"] >= 4
    assert (arr.page.width, arr.page.height) == (16, 16)
    assert all(g.box.inside(arr.page) for g in arr.tiles.values())


def test_same_layout_same_bytes() -> None:
    layout = random_layout("horse-race", random.Random(77), 28)
    records = [p.to_dict() for p in layout.history()]
    svg = render_layout(layout)
    assert render_layout(build_layout("horse-race", records)[0]) == svg
    code = ("import sys, json; from fives.evaluation import build_layout; from fives.draw.svg import render_layout; "
            "sys.stdout.write(render_layout(build_layout('horse-race', json.loads(sys.argv[1]))[0]))")
    import json
    for hashseed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code, json.dumps(records)], capture_output=True, text=True,
                             env={"PYTHONHASHSEED": hashseed, "PATH": "/usr/bin:/bin"}, check=True)
        assert out.stdout == svg


def test_empty_and_single_tile() -> None:
    from fives.rules import load_rules

    empty = Layout(load_rules("american-sniff"))
    root = parse(render_layout(empty))
    assert by_class(root, "tile") == [] and by_class(root, "mark-counted") == []
    one, _ = build_layout("american-sniff", [{"tile": "[2|2]"}])
    root = parse(render_layout(one))
    counted, opened = drawn_marks(root)
    assert counted == Counter({("[2|2]", 4): 1}) and opened == Counter()
    assert [e.get("data-side") for e in by_class(root, "mark-counted")] == ["whole"]
