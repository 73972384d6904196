"""A printable puzzle book: one self-contained HTML file with inline SVG (spec/pictures.md).

One card per puzzle (diagram of the table, the hand or tiles, the target, the difficulty),
then the solutions at the back, each with the table after the answer. Cards never split
across printed pages; the solutions start on a new page. No scripts, no external files,
no dates: the same puzzle set gives the same bytes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Callable, Iterable

from fives.support.errors import UserError
from fives.evaluation import build_layout
from fives.layout import IllegalPlacement, Layout, Placement
from fives.rules import GameRules, load_rules
from fives.draw.svg import legend_svg, render_hand, render_layout
from fives.tiles import Tile

SIDE_WORDS = {"low": "low end", "high": "high end", "line-a": "line A", "line-b": "line B",
              "branch-a": "branch A", "branch-b": "branch B"}

CSS = """
@page { size: A4; margin: 14mm 14mm 16mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; color: #222; margin: 0 auto; max-width: 182mm;
       padding: 8mm 0; font-size: 10.5pt; line-height: 1.35; }
h1 { font-size: 20pt; margin: 0 0 4mm; }
h2 { font-size: 15pt; margin: 0 0 4mm; }
.cover { break-after: page; page-break-after: always; }
.cover .legend svg { width: 78mm; height: auto; }
.card { border: 0.3mm solid #9aa5b1; border-radius: 2mm; padding: 3mm 4mm; margin: 0 0 5mm;
        break-inside: avoid; page-break-inside: avoid; }
.card h3 { font-size: 11.5pt; margin: 0 0 1.5mm; display: flex; justify-content: space-between; gap: 4mm; }
.card .id { font-family: "DejaVu Sans Mono", monospace; font-weight: normal; color: #52606d; font-size: 9pt; }
.task { margin: 0 0 2mm; }
.diagram { text-align: center; margin: 2mm 0; }
.diagram svg { max-width: 100%; max-height: 120mm; width: auto; height: auto; }
.row { display: flex; align-items: center; gap: 4mm; flex-wrap: wrap; }
.hand svg { height: 17mm; width: auto; }
.target { font-weight: bold; }
.empty { color: #52606d; font-style: italic; }
.stars { letter-spacing: 0.5mm; color: #b7791f; }
.solutions { break-before: page; page-break-before: always; }
.solution ol { margin: 1mm 0 2mm 5mm; padding-left: 4mm; }
@media screen { body { padding: 8mm 4mm; } }
"""


@dataclass(frozen=True)
class BookPuzzle:
    """What the book shows of one puzzle (plain values: a puzzle set record or a Puzzle)."""

    id: str
    game: str
    kind: str
    layout: tuple[Placement, ...]
    tiles: tuple[Tile, ...]  # the hand, or the tiles of a build puzzle
    target: int | tuple[int, ...]
    solution: tuple[Placement, ...]
    solution_points: tuple[int, ...]
    grade: int
    label: str
    themes: tuple[str, ...] = ()
    #: the rules of a puzzle posed under a rule profile (a set made with --rules P); None: the game's
    rules: GameRules | None = field(default=None, compare=False)

    def game_rules(self) -> GameRules:
        return self.rules if self.rules is not None else load_rules(self.game)


def from_puzzles(puzzles: Iterable[object], name: str = "puzzle set") -> list[BookPuzzle]:
    """`fives.puzzles.model.Puzzle` objects as book entries. The points the book prints are
    recomputed by replaying each solution through the engine: a puzzle whose solution does
    not replay, or whose stated `solution_points` differ, is a UserError naming it."""
    from fives.puzzles.verify import BadPuzzle, replay

    out = []
    for n, pz in enumerate(puzzles, 1):  # numbered from 1, as every puzzle message says it
        p = pz.problem  # type: ignore[attr-defined]
        try:
            points = replay(p, tuple(pz.solution))  # type: ignore[attr-defined]
        except BadPuzzle as e:
            raise UserError(f"{name}: puzzle {n} ({pz.id}): {e}") from None  # type: ignore[attr-defined]
        if points != tuple(pz.solution_points):  # type: ignore[attr-defined]
            raise UserError(f"{name}: puzzle {n} ({pz.id}): solution_points "  # type: ignore[attr-defined]
                            f"{list(pz.solution_points)} but the engine scores {list(points)}")  # type: ignore[attr-defined]
        out.append(BookPuzzle(pz.id, p.game, p.kind, tuple(p.layout), tuple(p.tiles), p.target,  # type: ignore[attr-defined]
                              tuple(pz.solution), points,  # type: ignore[attr-defined]
                              pz.difficulty.grade, pz.difficulty.label, tuple(pz.themes),  # type: ignore[attr-defined]
                              p.rules if getattr(p, "profile", None) is not None else None))
    return out


def _unit(rules: GameRules, n: int) -> str:
    if rules.display_divisor == 1:
        return f"{n} raw point{'s' if n != 1 else ''}"
    return f"{n} point{'s' if n != 1 else ''}"


def task_text(p: BookPuzzle, rules: GameRules) -> str:
    if p.kind == "single":
        return f"Place one tile from the hand so that the placement scores exactly {_unit(rules, int(p.target))}."
    if p.kind == "turn":
        return ("Play one whole turn from the hand (a double, or a tile that scores, lets you place again) "
                f"so that the turn scores exactly {_unit(rules, int(p.target))} in all.")
    seq = ", ".join(map(str, p.target)) if isinstance(p.target, tuple) else str(p.target)
    return (f"From an empty table, place all these tiles so that the placements score, in order: {seq} "
            f"({'raw points' if rules.display_divisor == 1 else 'points'}).")


def target_text(p: BookPuzzle) -> str:
    if isinstance(p.target, tuple):
        return "Target: " + " \u2192 ".join(map(str, p.target))
    return f"Target: {p.target}"


def units_note(rules: GameRules) -> str:
    """For a game shown in displayed points: the diagram counts ends in pips, the target does not."""
    d, m = rules.display_divisor, rules.scoring_multiple
    return (f"The numbers on the diagram are the counted ends in pips; the target is in points: a placement "
            f"whose ends add up to a multiple of {m} scores the sum divided by {d} "
            f"(ends adding up to {3 * d} pips score 3 points).")


def describe(pl: Placement) -> str:
    if pl.to is None or pl.side is None:
        return f"open with {pl.tile}"
    return f"{pl.tile} on {pl.to} {SIDE_WORDS[pl.side.value]}"


def _layout(rules: GameRules, placements: Iterable[Placement], where: str) -> Layout:
    try:
        layout, _ = build_layout(rules, [p.to_dict() for p in placements])
    except IllegalPlacement as e:
        raise UserError(f"{where}: placement {e.index}: {e.code}: {e.message}") from None
    return layout


def _stars(grade: int) -> str:
    return "\u25cf" * grade + "\u25cb" * (5 - grade)


def _card(n: int, p: BookPuzzle) -> list[str]:
    rules = p.game_rules()
    where = f"puzzle {n} ({p.id})"
    table = _layout(rules, p.layout, f"{where}: layout")
    diagram = (render_layout(table, legend=False) if len(table)
               else '<p class="empty">The table is empty.</p>')
    hand_word = "Tiles" if p.kind == "build" else "Hand"
    label = p.label
    return [
        f'<article class="card puzzle" id="puzzle-{escape(p.id)}" data-puzzle="{escape(p.id)}">',
        f'<h3><span>{n}. {escape(rules.name)}, {escape(p.kind)}</span>'
        f'<span class="difficulty" data-grade="{p.grade}"><span class="stars">{_stars(p.grade)}</span> '
        f'{escape(label)}</span></h3>',
        f'<p class="task">{escape(task_text(p, rules))}</p>',
        f'<div class="diagram">{diagram}</div>',
        f'<div class="row"><span>{hand_word}:</span><div class="hand">'
        f'{render_hand(list(p.tiles), hand_word.lower())}</div>'
        f'<span>{escape(", ".join(map(str, p.tiles)))}</span></div>',
        f'<p class="target">{escape(target_text(p))}</p>',
        *([f'<p class="note" style="font-size: 9pt; color: #52606d;">{escape(units_note(rules))}</p>'] if rules.display_divisor != 1 else []),
        f'<p class="id">{escape(p.id)}</p>',
        "</article>",
    ]


def _solution(n: int, p: BookPuzzle) -> list[str]:
    rules = p.game_rules()
    final = _layout(rules, p.layout + p.solution, f"puzzle {n} ({p.id}): solution")
    steps = "".join(f"<li>{escape(describe(pl))}: {pts}</li>" for pl, pts in zip(p.solution, p.solution_points))
    return [
        f'<article class="card solution" id="solution-{escape(p.id)}" data-puzzle="{escape(p.id)}">',
        f'<h3><span>{n}. Solution</span><span class="id">{escape(p.id)}</span></h3>',
        f"<ol>{steps}</ol>",
        f'<div class="diagram">{render_layout(final, legend=False, new=frozenset(pl.tile for pl in p.solution))}</div>',
        "</article>",
    ]


LEGEND_NOTE = ("Highlighted tiles in a solution are the ones the answer places. Sides: a non-double has a low and a "
               "high end; a double lies crosswise with line A (towards the tile it joins), line B, and on a spinner "
               "branch A and branch B at right angles.")


def render_book(puzzles: list[BookPuzzle], title: str = "Fives puzzle book",
                progress: Callable[[int], None] | None = None, source: str = "") -> str:
    """The whole book as one HTML document."""
    games = sorted({p.game for p in puzzles})
    head = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>", f"<style>{CSS}</style>", "</head>", "<body>",
        '<section class="cover">', f"<h1>{escape(title)}</h1>",
        f"<p>{len(puzzles)} puzzle{'s' if len(puzzles) != 1 else ''}"
        f" ({escape(', '.join(load_rules(g).name for g in games))}), each with exactly one answer. "
        "Solutions are at the back.</p>",
    ]
    if source:
        head.append(f'<p class="source">From {escape(source)}.</p>')
    head += [f'<div class="legend">{legend_svg()}</div>', f"<p>{escape(LEGEND_NOTE)}</p>", "</section>"]
    body = ['<section class="puzzles">', "<h2>Puzzles</h2>"]
    for n, p in enumerate(puzzles, 1):
        body.extend(_card(n, p))
        if progress:
            progress(1)
    body += ["</section>", '<section class="solutions">', "<h2>Solutions</h2>"]
    for n, p in enumerate(puzzles, 1):
        body.extend(_solution(n, p))
        if progress:
            progress(1)
    body += ["</section>", "</body>", "</html>"]
    return "\n".join(head + body) + "\n"
