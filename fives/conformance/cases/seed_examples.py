"""Lift the worked layout examples out of the seed documents' own text.

Each figure in a seed is followed by a line that lists, in Arabic, the tiles in play order,
the spinner doubles, the connections, the legal connection positions, the counted
contributions, the sum and the points. Parsing that text (as the CommonMark spec tests
are lifted from the spec) lets a test prove that every seed fixture says what the seed says.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fives.tiles import parse_tile

SIDE_WORDS = {
    "طرف القيمة الصغرى": "low",
    "طرف القيمة الكبرى": "high",
    "الخط A": "line-a",
    "الخط B": "line-b",
    "الفرع A": "branch-a",
    "الفرع B": "branch-b",
}
NONE_WORD = "لا شيء"
TILE = r"\[\d\|\d\]"
FIGURE = re.compile(
    r"^المساهمات المحتسبة: (?P<terms>[\d +]+)= (?P<sum>\d+)\. (?P<points>.*?)\. "
    r"القطع: (?P<tiles>.*?)\. القطع المزدوجة المتفرعة: (?P<spinners>.*?)\. "
    r"التوصيلات: (?P<connections>.*?)\. مواضع التوصيل القانونية: (?P<positions>.*?)\. "
    r"المساهمات المحتسبة: (?P<contributions>.*?)\.$"
)
SNIFF_POINTS = re.compile(r"^إضافة الوضع بالنقاط الخام: (\d+)$")
HR_POINTS = re.compile(r"^نقاط الوضع الخام: (\d+)؛ النقاط المعروضة: (\d+)$")
CONNECTION = re.compile(rf"^({TILE}) \((.+?)\) – ({TILE}) \((.+?)\)$")
POSITION = re.compile(rf"^({TILE}) \((.+?), (\d+)\)$")
CONTRIBUTION = re.compile(rf"^({TILE}): (\d+)$")


@dataclass(frozen=True)
class SeedFigure:
    seed: str  # file name
    heading: str
    quote: str  # the figure's own summary sentence, verbatim
    placed: str  # the tile the figure's caption names
    placements: list[dict[str, str]]
    expect: dict[str, Any]


def is_heading(line: str) -> bool:
    """A heading is a short line with no sentence punctuation (captions carry brackets)."""
    return 0 < len(line) <= 60 and not any(ch in line for ch in ".:[]،؛")


def _items(text: str) -> list[str]:
    return [] if text.strip() == NONE_WORD else [s.strip() for s in text.split(";")]


def _side(word: str) -> str:
    if word not in SIDE_WORDS:
        raise ValueError(f"unknown side wording {word!r}")
    return SIDE_WORDS[word]


def parse_figure_line(line: str) -> dict[str, Any] | None:
    m = FIGURE.match(line)
    if not m:
        return None
    tiles = [str(parse_tile(t.strip())) for t in m["tiles"].split(",")]
    spinners = [str(parse_tile(t.strip())) for t in m["spinners"].split(",")] if m["spinners"] != NONE_WORD else []
    connections = []
    for item in _items(m["connections"]):
        c = CONNECTION.match(item)
        if not c:
            raise ValueError(f"unreadable connection {item!r}")
        connections.append({"to": c[1], "side": _side(c[2]), "tile": c[3], "tile_side": _side(c[4])})
    positions = []
    for item in _items(m["positions"]):
        p = POSITION.match(item)
        if not p:
            raise ValueError(f"unreadable position {item!r}")
        positions.append({"tile": p[1], "side": _side(p[2]), "value": int(p[3])})
    contributions = []
    for item in _items(m["contributions"]):
        c = CONTRIBUTION.match(item)
        if not c:
            raise ValueError(f"unreadable contribution {item!r}")
        contributions.append({"tile": c[1], "value": int(c[2])})
    total = int(m["sum"])
    if sum(int(t) for t in m["terms"].split("+")) != total:
        raise ValueError(f"the figure's own terms do not add up: {m['terms']}= {total}")
    if sp := SNIFF_POINTS.match(m["points"]):
        raw = display = int(sp[1])
    elif hp := HR_POINTS.match(m["points"]):
        raw, display = int(hp[1]), int(hp[2])
    else:
        raise ValueError(f"unreadable points {m['points']!r}")
    return {"tiles": tiles, "spinners": spinners, "connections": connections, "positions": positions,
            "contributions": contributions, "sum": total, "raw": raw, "display": display}


def placements_from(expect: dict[str, Any]) -> list[dict[str, str]]:
    """Rebuild the placement records: tiles in play order, each joined as its connection says."""
    tiles = expect["tiles"]
    placements = [{"tile": tiles[0]}]
    by_child = {c["tile"]: c for c in expect["connections"]}
    for t in tiles[1:]:
        c = by_child[t]
        placements.append({"tile": t, "to": c["to"], "side": c["side"]})
    return placements


def extract(path: Path) -> list[SeedFigure]:
    figures: list[SeedFigure] = []
    heading = "(intro)"
    caption = ""
    for raw_line in path.read_text(encoding="utf-8").splitlines():
        line = raw_line.strip()
        if is_heading(line):
            heading = line
        if line.startswith("القطعة الموضوعة "):
            caption = line.removeprefix("القطعة الموضوعة ").strip()
        expect = parse_figure_line(line)
        if expect is None:
            continue
        summary = line.split(". القطع: ")[0] + "."
        figures.append(SeedFigure(path.name, heading, summary, caption, placements_from(expect), expect))
    return figures


def sections(path: Path) -> list[tuple[str, str]]:
    """(heading, text under it) for each section of a seed; text before the first is «(intro)»."""
    out: list[tuple[str, list[str]]] = [("(intro)", [])]
    for raw_line in path.read_text(encoding="utf-8").splitlines():
        line = raw_line.strip()
        if is_heading(line):
            out.append((line, []))
        else:
            out[-1][1].append(line)
    return [(h, "\n".join(lines)) for h, lines in out]


def check_citation(path: Path, heading: str, quote: str) -> str | None:
    """None if `quote` is verbatim in `path` under `heading`; else the reason it is not."""
    secs = sections(path)
    if heading not in {h for h, _ in secs}:
        return f"heading «{heading}» is not a heading line of {path.name}"
    if not any(h == heading and quote in text for h, text in secs):
        if quote in path.read_text(encoding="utf-8"):
            return f"quote «{quote[:40]}…» is in {path.name} but not under heading «{heading}»"
        return f"quote «{quote[:40]}…» is not verbatim in {path.name}"
    return None
