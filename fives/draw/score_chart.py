"""A match's score chart (`fives score-svg --record F --chart`): each side's score after
every hand as a line, hand 0 (the start, every side at 0) to the last hand, with the
target as a dashed line. One self-contained SVG, the same bytes for the same record.

Scores are in the game's own unit, as the record carries them (raw points for American
Sniff, displayed points for Horse Race); a side's score after a hand is the `scores` of
that hand's `settle` line, or of the `match-end` line when a placement ended the match.
American Sniff scores have no floor, so the chart reaches below 0 when a side does.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

from fives.draw.score_svg import FONT, INK, SIDE_COLOURS, _n, _svg_open, replayed_record
from fives.rules import GameRules

WIDTH = 760
HEIGHT = 440
LEFT, RIGHT, TOP, BOTTOM = 64, 190, 46, 56  # margins around the plot, px; the legend sits on the right
STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000)
MAX_TICKS = 10


@dataclass(frozen=True)
class HandScores:
    """One side's score after every hand: index 0 is the start (0), index h the score after hand h."""

    label: str
    after: tuple[int, ...]


def hand_scores_from_record(path: str) -> tuple[GameRules, int, list[HandScores]]:
    """(rules, target, each side's score after every hand) of a game record, after replaying it."""
    from fives.support.reading import parse_json_line

    name, lines, rules, config = replayed_record(path)
    after: list[list[int]] = [[0] for _ in config.sides]
    for lineno, line in enumerate(lines[1:], 2):
        ev = parse_json_line(line, f"{name}:{lineno}")
        if ev["event"] == "settle" or (ev["event"] == "match-end" and len(after[0]) <= ev["hands"]):
            for side, score in enumerate(ev["scores"]):
                after[side].append(score)
    sides = [HandScores(config.describe_side(i).capitalize(), tuple(a)) for i, a in enumerate(after)]
    return rules, config.target, sides


def _step(span: int) -> int:
    return next((s for s in STEPS if span / s <= MAX_TICKS), STEPS[-1] * (span // (STEPS[-1] * MAX_TICKS) + 1))


def chart_svg(rules: GameRules, sides: list[HandScores], target: int) -> str:
    """The chart: a line per side (its colour as on the tally and the board), a dot per hand,
    the dashed target line, gridlines with the score every `step` points, a legend with each
    side's final score."""
    hands = max(len(s.after) for s in sides) - 1
    scores = [v for s in sides for v in s.after]
    ystep = _step(max(max(scores), target) - min(0, min(scores)) or 1)
    lo = (min(0, min(scores)) // ystep) * ystep
    hi = -(-max(max(scores), target) // ystep) * ystep
    if hi == lo:
        hi = lo + ystep
    pw, ph = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(h: int) -> float:
        return LEFT + pw * h / max(hands, 1)

    def y(v: int) -> float:
        return TOP + ph * (hi - v) / (hi - lo)

    unit = "raw points" if rules.display_divisor == 1 else "points"
    title = f"{rules.name}: the score after each hand, target {target}"
    out = _svg_open("score-chart", rules, WIDTH, HEIGHT, title)
    out.append(f'<text x="{LEFT}" y="26" {FONT} font-size="16" font-weight="bold" fill="{INK}">{escape(title)}</text>')
    out.append('<g class="grid">')
    for v in range(lo, hi + 1, ystep):
        out.append(f'<line x1="{LEFT}" y1="{_n(y(v))}" x2="{LEFT + pw}" y2="{_n(y(v))}" stroke="#dddddd" stroke-width="1"/>')
        out.append(f'<text x="{LEFT - 8}" y="{_n(y(v) + 4)}" {FONT} font-size="11" fill="{INK}" '
                   f'text-anchor="end">{v}</text>')
    xstep = _step(hands) if hands else 1
    for h in range(0, hands + 1, xstep):
        out.append(f'<text x="{_n(x(h))}" y="{TOP + ph + 18}" {FONT} font-size="11" fill="{INK}" '
                   f'text-anchor="middle">{h}</text>')
    out.append("</g>")
    out.append(f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + ph}" stroke="{INK}" stroke-width="1.5"/>')
    out.append(f'<line class="axis" x1="{LEFT}" y1="{_n(y(0))}" x2="{LEFT + pw}" y2="{_n(y(0))}" stroke="{INK}" '
               'stroke-width="1.5"/>')
    out.append(f'<text x="{LEFT + pw / 2:.0f}" y="{HEIGHT - 12}" {FONT} font-size="12" fill="{INK}" '
               'text-anchor="middle">hand</text>')
    out.append(f'<text x="16" y="{TOP + ph / 2:.0f}" {FONT} font-size="12" fill="{INK}" text-anchor="middle" '
               f'transform="rotate(-90 16 {TOP + ph / 2:.0f})">{unit}</text>')
    out.append(f'<line class="target" data-target="{target}" x1="{LEFT}" y1="{_n(y(target))}" x2="{LEFT + pw}" '
               f'y2="{_n(y(target))}" stroke="{INK}" stroke-width="1.5" stroke-dasharray="6 4"/>')
    out.append(f'<text x="{LEFT + 6}" y="{_n(y(target) - 6)}" {FONT} font-size="11" fill="{INK}">target {target}</text>')
    for i, side in enumerate(sides):
        colour = SIDE_COLOURS[i % len(SIDE_COLOURS)]
        points = " ".join(f"{_n(x(h))},{_n(y(v))}" for h, v in enumerate(side.after))
        out.append(f'<g class="side" data-side="{i}" data-scores="{" ".join(map(str, side.after))}">')
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5" '
                   'stroke-linejoin="round"/>')
        out += [f'<circle cx="{_n(x(h))}" cy="{_n(y(v))}" r="3" fill="{colour}"/>' for h, v in enumerate(side.after)]
        out.append("</g>")
        ly = TOP + 10 + 24 * i
        out.append(f'<rect x="{WIDTH - RIGHT + 20}" y="{ly - 9}" width="16" height="4" fill="{colour}"/>')
        out.append(f'<text x="{WIDTH - RIGHT + 42}" y="{ly - 2}" {FONT} font-size="12" fill="{INK}">'
                   f'{escape(side.label)}: {side.after[-1]}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
