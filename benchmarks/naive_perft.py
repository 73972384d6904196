"""A naive perft, written independently from the rules digest as a speed yardstick (issue 41).

    python benchmarks/naive_perft.py --game horse-race --depth 5

The obvious make/unmake walker in plain Python: a layout is a dict of placed tiles with
their occupied sides; every node lists its moves by scanning every placed tile, and every
leaf is made, recounted from scratch over the whole layout and unmade. No tables, no move
codes, no bulk counting, nothing from `fives` (it reads the game's parameters from
spec/games/GAME.yaml). It prints `GAME depth D: nodes N points P`, as `fives perft` does, so a
benchmark can check the two agree before it compares their CPU time (benchmarks/speed.py).

Rules (digest sections 1-3): a non-double joins by the end matching the position and opens
its other end; a double joins by line A and opens line B; a spinner (Sniff: the first double,
Horse Race: every double) opens its branch sides once both line sides are taken; an open end
of a non-double counts its pips, a double with a free line side counts both halves, a
spinner with both lines taken counts half (Sniff) or nothing (Horse Race) per open branch;
a placement scores the sum when positive and a multiple of the scoring multiple.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
TILES = [(a, b) for a in range(7) for b in range(a, 7)]
LINES, BRANCHES = ("line-a", "line-b"), ("branch-a", "branch-b")


class Naive:
    def __init__(self, game: str) -> None:
        data = yaml.safe_load((ROOT / "spec" / "games" / f"{game}.yaml").read_text(encoding="utf-8"))
        self.every = data["spinners"]["policy"] == "every-double"
        self.both_lines = data["spinners"]["branches_require_both_lines"]
        self.half = data["counting"]["open_branch_side"] == "one-half"
        self.multiple = data["scoring"]["multiple"]
        self.placed: dict[tuple[int, int], set[str]] = {}  # tile -> its occupied sides
        self.spinners: list[tuple[int, int]] = []
        self.order: list[tuple[tuple[int, int], tuple[int, int] | None, str | None]] = []

    def open_positions(self) -> list[tuple[tuple[int, int], str, int]]:
        out = []
        for t, taken in self.placed.items():
            if t[0] != t[1]:
                out += [(t, s, v) for s, v in (("low", t[0]), ("high", t[1])) if s not in taken]
                continue
            out += [(t, s, t[0]) for s in LINES if s not in taken]
            if t in self.spinners and (not self.both_lines or all(s in taken for s in LINES)):
                out += [(t, s, t[0]) for s in BRANCHES if s not in taken]
        return out

    def moves(self) -> list[tuple[tuple[int, int], tuple[int, int] | None, str | None]]:
        free = [t for t in TILES if t not in self.placed]
        if not self.placed:
            return [(t, None, None) for t in free]
        return [(t, to, side) for to, side, v in self.open_positions() for t in free if v in t]

    def push(self, tile: tuple[int, int], to: tuple[int, int] | None, side: str | None) -> None:
        double = tile[0] == tile[1]
        if double and (self.every or not self.spinners):
            self.spinners.append(tile)
        if to is None:
            self.placed[tile] = set()
        else:
            self.placed[to].add(side)  # type: ignore[arg-type]
            value = to[1] if side == "high" else to[0]
            self.placed[tile] = {"line-a" if double else "low" if tile[0] == value else "high"}
        self.order.append((tile, to, side))

    def pop(self) -> None:
        tile, to, side = self.order.pop()
        del self.placed[tile]
        if self.spinners and self.spinners[-1] == tile:
            self.spinners.pop()
        if to is not None:
            self.placed[to].discard(side)  # type: ignore[arg-type]

    def points(self) -> int:
        total = 0
        for t, taken in self.placed.items():
            if t[0] != t[1]:
                total += sum(v for s, v in (("low", t[0]), ("high", t[1])) if s not in taken)
            elif not all(s in taken for s in LINES):
                total += 2 * t[0]
            elif t in self.spinners and self.half:
                total += sum(t[0] for s in BRANCHES if s not in taken)
        return total if total > 0 and total % self.multiple == 0 else 0

    def perft(self, depth: int) -> tuple[int, int]:
        nodes = points = 0
        for move in self.moves():
            self.push(*move)
            if depth == 1:
                nodes, points = nodes + 1, points + self.points()
            else:
                n, p = self.perft(depth - 1)
                nodes, points = nodes + n, points + p
            self.pop()
        return nodes, points


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="horse-race", choices=["american-sniff", "horse-race"])
    ap.add_argument("--depth", type=int, default=5)
    args = ap.parse_args()
    nodes, points = Naive(args.game).perft(args.depth)
    print(f"{args.game} depth {args.depth}: nodes {nodes} points {points}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
