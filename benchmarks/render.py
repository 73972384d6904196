"""Rendering time of 28-tile layouts: the arrangement (geometry search) and the whole SVG.

Random legal plays from the full set, kept when they place all 28 tiles (seeded, so the
same layouts every run). Prints per game the median, 95th percentile and worst time, and
how many layouts needed a larger page or a stretched joint. Also times a 50-puzzle book
when `puzzles/book-sample.yaml` exists.

    python benchmarks/render.py [--layouts 200] [--seed 1]
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from fives.support import paths
from fives.draw.geometry import DEFAULT_PAGE, arrange
from fives.layout import Layout
from fives.rules import load_rules
from fives.draw.svg import layout_marks, render_layout
from fives.tiles import ALL_TILES


def full_layouts(game: str, n: int, seed: int) -> list[Layout]:
    rng = random.Random(seed)
    rules = load_rules(game)
    out: list[Layout] = []
    while len(out) < n:
        layout = Layout(rules)
        while len(layout) < 28 and (moves := layout.legal_placements(ALL_TILES)):
            layout.push(rng.choice(moves))
        if len(layout) == 28:
            out.append(layout)
    return out


def ms(xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return f"{1000 * statistics.median(xs):8.1f} {1000 * p95:8.1f} {1000 * xs[-1]:8.1f}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--layouts", type=int, default=200, help="28-tile layouts per game")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"{args.layouts} random 28-tile layouts per game; times in ms (median, p95, max)")
    print(f"{'game':16} {'arrange':>26} {'render_layout (SVG)':>26} {'bigger page':>12} {'stretched':>10}")
    for game in ("american-sniff", "horse-race"):
        layouts = full_layouts(game, args.layouts, args.seed)
        geo: list[float] = []
        svg: list[float] = []
        bigger = stretched = 0
        for layout in layouts:
            marked: dict = {}
            for m in layout_marks(layout):
                if m.at is not None:
                    marked.setdefault(m.tile, set()).add(m.at)
            t0 = time.perf_counter()
            arr = arrange(layout, marked)
            geo.append(time.perf_counter() - t0)
            bigger += (arr.page.width, arr.page.height) != DEFAULT_PAGE
            stretched += any(g.joint is not None for g in arr.tiles.values())
            t0 = time.perf_counter()
            render_layout(layout)
            svg.append(time.perf_counter() - t0)
        print(f"{game:16} {ms(geo):>26} {ms(svg):>26} {bigger:>12} {stretched:>10}")
    sample = paths.ROOT / "puzzles" / "book-sample.yaml"
    if sample.is_file():
        from fives.draw.book import from_puzzles, render_book
        from fives.puzzles.model import load_set

        t0 = time.perf_counter()
        _, entries, _ = load_set(sample)
        html = render_book(from_puzzles(pz for _, pz in entries))
        print(f"book: {len(entries)} puzzles, {len(html) // 1024} KiB of HTML in {time.perf_counter() - t0:.2f}s")


if __name__ == "__main__":
    main()
