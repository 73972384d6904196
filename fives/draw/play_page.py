"""The interactive puzzle page: `fives book SET --interactive` (spec/pictures.md).

One self-contained HTML file: no network, no external files, works from `file://`, prints
like the book. Each card starts with the table exactly as `fives render` draws it; the
embedded JavaScript engine (conformance/examples/js-engine/layout.js, the file the
conformance suite tests through the protocol, included unchanged) lists the legal
placements of a clicked hand tile, scores each placement and says when the turn goes on.
On load the page replays every puzzle's stated answer with that engine and sets
`data-verified="K"` on <body>, K being the puzzles that check out; any other puzzle shows
a visible warning. Geometry of the table comes from fives/draw/geometry.py, so the picture the
solver starts from is the printed one; new tiles are hung by a small port of its `place`.
"""
from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any, Callable

from fives.support import paths
from fives.draw.book import CSS as BOOK_CSS, SIDE_WORDS, BookPuzzle, _layout, _solution, _stars, target_text, task_text
from fives.draw.geometry import DEFAULT_PAGE, Box, TileGeometry
from fives.rules import GameRules, load_rules
from fives.draw.svg import (COUNTED_FILL, INK, NEW_FILL, SPINNER_ORANGE, TILE_FILL, arranged, legend_svg, render_hand,
                  render_layout)

#: Milliseconds between the steps of "show solution".
STEP_MS = 450

PLAY_CSS = """
.toolbar { display: flex; gap: 3mm; align-items: center; flex-wrap: wrap; margin: 0 0 4mm; }
.themes { margin: 0 0 2mm; font-size: 9pt; color: #52606d; }
.theme { display: inline-block; border: 1px solid #9aa5b1; border-radius: 3mm; padding: 0 2mm; margin: 0 1mm 1mm 0; }
.warning { background: #fde2e1; border: 1px solid #c53030; color: #9b2c2c; padding: 2mm; border-radius: 1mm; }
.hand-buttons { display: flex; gap: 2mm; flex-wrap: wrap; }
.hand-buttons button { padding: 1mm; border: 2px solid transparent; border-radius: 2mm; background: #f5f7fa; cursor: pointer;
                       min-width: 44px; min-height: 44px; }
.hand-buttons button[aria-pressed="true"] { border-color: #2b6cb0; background: #ebf4ff; }
.hand-buttons button.placed { opacity: 0.3; }
.hand-buttons svg { height: 15mm; width: auto; display: block; }
.choices { display: flex; gap: 2mm; flex-wrap: wrap; margin: 2mm 0; }
button { font: inherit; min-height: 36px; }
.choice { border: 2px solid #2b6cb0; background: #ebf4ff; border-radius: 2mm; padding: 1mm 3mm; cursor: pointer; }
.controls { display: flex; gap: 2mm; flex-wrap: wrap; }
.controls button { border: 1px solid #52606d; background: #fff; border-radius: 2mm; padding: 1mm 3mm; cursor: pointer; }
.status { min-height: 1.4em; font-weight: bold; }
.status.solved { color: #276749; }
.status.wrong { color: #9b2c2c; }
.counted { color: #52606d; font-size: 9.5pt; min-height: 1.2em; }
.target { cursor: pointer; }
.target:focus { outline: none; stroke-width: 5; }
button:focus-visible, .target:focus-visible { outline: 3px solid #f6ad55; outline-offset: 2px; }
.solutions { display: none; }
@media (max-width: 600px) { body { padding: 3mm; font-size: 11pt; } .card { padding: 2mm; } }
@media print {
  .toolbar, .choices, .controls, .status, .counted, .warning { display: none !important; }
  .solutions { display: block; }
  .hand-buttons button { border: none; background: none; }
}
"""


def js_rules(rules: GameRules) -> dict[str, Any]:
    """What the embedded engine needs of a game, read from spec/games/ (the one source)."""
    c = rules.continuation
    return {
        "name": rules.name,
        "unit": "raw points" if rules.display_divisor == 1 else "points",
        "spinnerPolicy": rules.spinner_policy,
        "openBranchCounts": rules.open_branch_side,
        "displayDivisor": rules.display_divisor,
        "continuation": ({"fromHandDouble": bool(c.get("from_hand_double")),
                          "fromHandScoring": bool(c.get("from_hand_scoring"))} if c.get("enabled") else None),
    }


def _box(b: Box) -> list[int]:
    return [b.x0, b.y0, b.x1, b.y1]


def _geometry(g: TileGeometry) -> dict[str, Any]:
    out: dict[str, Any] = {
        "box": _box(g.box),
        "halves": [[_box(h), v] for h, v in g.halves],
        "sockets": {side.value: {"point": list(s.point), "direction": list(s.direction)} for side, s in g.sockets.items()},
    }
    if g.joint_line is not None:
        out["jointLine"] = [list(g.joint_line[0]), list(g.joint_line[1])]
    return out


def puzzle_data(p: BookPuzzle, where: str) -> dict[str, Any]:
    """One puzzle as the page's script reads it: records, tiles, answer, and the table's geometry."""
    table = _layout(p.game_rules(), p.layout, f"{where}: layout")
    _, arr = arranged(table, DEFAULT_PAGE)
    return {
        "id": p.id, "game": p.game, "kind": p.kind,
        "layout": [pl.to_dict() for pl in p.layout],
        "tiles": [str(t) for t in p.tiles],
        "target": list(p.target) if isinstance(p.target, tuple) else p.target,
        "solution": [pl.to_dict() for pl in p.solution],
        "solution_points": list(p.solution_points),
        "themes": list(p.themes),
        "geometry": {str(t): _geometry(arr.tiles[t]) for t in table.tiles},
        "content": _box(arr.content()) if table.tiles else None,
    }


def _card(n: int, p: BookPuzzle) -> list[str]:
    rules = p.game_rules()
    table = _layout(rules, p.layout, f"puzzle {n} ({p.id}): layout")
    diagram = render_layout(table, legend=False) if len(table) else '<p class="empty">The table is empty.</p>'
    word = "Tiles" if p.kind == "build" else "Hand"
    spoken = "tile" if p.kind == "build" else "hand tile"  # each button's name, as a screen reader says it
    buttons = "".join(
        f'<button type="button" data-tile="{escape(str(t))}" aria-pressed="false" aria-label="{spoken} '
        f'{escape(str(t))}">{render_hand([t], str(t))}</button>' for t in p.tiles)
    themes = "".join(f'<span class="theme">{escape(t)}</span>' for t in p.themes)
    return [
        f'<article class="card puzzle" id="puzzle-{escape(p.id)}" data-puzzle="{escape(p.id)}" data-kind="{p.kind}" '
        f'data-game="{escape(p.game)}" data-themes="{escape(" ".join(p.themes))}">',
        f'<h3><span>{n}. {escape(rules.name)}, {escape(p.kind)}</span>'
        f'<span class="difficulty" data-grade="{p.grade}"><span class="stars">{_stars(p.grade)}</span> '
        f'{escape(p.label)}</span></h3>',
        f'<p class="task">{escape(task_text(p, rules))}</p>',
        f'<p class="themes">Themes: {themes}</p>' if themes else "",
        '<div class="warning" role="alert" hidden></div>',
        f'<div class="diagram">{diagram}</div>',
        '<p class="counted" aria-live="polite"></p>',
        f'<div class="row"><span>{word}:</span><div class="hand-buttons" role="group" aria-label="{word.lower()}">'
        f"{buttons}</div></div>",
        f'<p class="target">{escape(target_text(p))}</p>',
        '<div class="choices" role="group" aria-label="legal positions"></div>',
        '<p class="status" aria-live="polite"></p>',
        '<div class="controls"><button type="button" class="undo">Undo</button>'
        '<button type="button" class="reset">Reset</button>'
        '<button type="button" class="show-solution">Show solution</button></div>',
        f'<p class="id">{escape(p.id)}</p>',
        "</article>",
    ]


def _script_json(data: Any) -> str:
    # JSON inside <script>: "</" must not close the element early
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def engine_source() -> str:
    """The JavaScript example engine's layout module, as the conformance suite runs it."""
    return (paths.CONFORMANCE / "examples" / "js-engine" / "layout.js").read_text(encoding="utf-8")


def player_source() -> str:
    return (Path(__file__).resolve().parent / "play_page.js").read_text(encoding="utf-8")


def render_play_page(puzzles: list[BookPuzzle], title: str = "Fives puzzles",
                     progress: Callable[[int], None] | None = None, source: str = "") -> str:
    """The whole interactive page as one HTML document."""
    games = sorted({p.game for p in puzzles})
    data: dict[str, Any] = {
        # a set made under a rule profile: the page scores under it (the rules of a puzzle of that game)
        "rules": {g: js_rules(next((p.game_rules() for p in puzzles if p.game == g), load_rules(g))) for g in games},
        "sideWords": SIDE_WORDS,
        "stepMs": STEP_MS,
        "colours": {"tile": TILE_FILL, "new": NEW_FILL, "ink": INK, "counted": COUNTED_FILL,
                    "spinner": SPINNER_ORANGE, "target": "#f6ad55", "targetStroke": "#c05621"},
        "puzzles": [],
    }
    cards: list[str] = []
    for n, p in enumerate(puzzles, 1):
        data["puzzles"].append(puzzle_data(p, f"puzzle {n} ({p.id})"))
        cards.extend(_card(n, p))
        if progress:
            progress(1)
    solutions: list[str] = []
    for n, p in enumerate(puzzles, 1):
        solutions.extend(_solution(n, p))
        if progress:
            progress(1)
    themes = sorted({t for p in puzzles for t in p.themes})
    options = "".join(f'<option value="{escape(t)}">{escape(t)}</option>' for t in themes)
    names = ", ".join(load_rules(g).name for g in games)
    out = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        # no network: everything is inline, and the policy forbids fetching anything
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">",
        f"<title>{escape(title)}</title>", f"<style>{BOOK_CSS}{PLAY_CSS}</style>", "</head>",
        '<body data-verified="0">',
        "<header>", f"<h1>{escape(title)}</h1>",
        f"<p>{len(puzzles)} puzzle{'s' if len(puzzles) != 1 else ''} ({escape(names)}), each with exactly one "
        "answer. Click a tile of the hand (or press Enter on it), then one of the highlighted positions.</p>",
        f'<p class="source">From {escape(source)}.</p>' if source else "",
        f'<div class="legend">{legend_svg()}</div>',
        '<div class="toolbar"><label for="theme-filter">Theme:</label>'
        f'<select id="theme-filter"><option value="">all</option>{options}</select>'
        f'<span id="theme-count">{len(puzzles)} shown</span></div>',
        "</header>",
        '<section class="puzzles">', *cards, "</section>",
        '<section class="solutions"><h2>Solutions</h2>', *solutions, "</section>",
        f'<script type="application/json" id="fives-data">{_script_json(data)}</script>',
        # the engine file is a CommonJS module: give it a `module` to export into
        "<script>const FivesEngine = (function () { const module = { exports: {} };\n"
        f"{engine_source()}\nreturn module.exports; }}());</script>",
        f"<script>{player_source()}</script>",
        "</body>", "</html>",
    ]
    return "\n".join(x for x in out if x) + "\n"
