"""`fives score-svg --record F --chart`: each side's score after every hand, the target line;
and the note on Horse Race book cards (counted ends in pips, the target in points)."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from fives.cli import main
from fives.draw.score_chart import HandScores, chart_svg, hand_scores_from_record
from fives.rules import load_rules

SVG = "{http://www.w3.org/2000/svg}"


def record(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "match.jsonl"
    r = CliRunner().invoke(main, ["play", *args, "--out", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    return out


def scores_by_reading(path: Path) -> list[list[int]]:
    """Every side's score after each hand, read straight off the record: the `scores` of the
    `hand` line that starts the next hand, and of `match-end` for the last one."""
    events = [json.loads(line) for line in path.read_text().splitlines()]
    starts = [e["scores"] for e in events if e.get("event") == "hand"]
    final = events[-1]["scores"]
    return [list(side) for side in zip(*starts, final)]


@pytest.mark.parametrize("args", [
    ("--game", "american-sniff", "--players", "3", "--seed", "5"),          # ended by a placement, below 0 too
    ("--game", "horse-race", "--players", "4", "--partnerships", "--seed", "2"),
    ("--game", "horse-race", "--players", "2", "--seed", "7", "--strategy", "greedy,random"),
])
def test_the_chart_holds_every_sides_score_after_every_hand(tmp_path: Path, args: tuple[str, ...]) -> None:
    path = record(tmp_path, *args)
    r = CliRunner().invoke(main, ["score-svg", "--record", str(path), "--chart"])
    assert r.exit_code == 0, r.output
    root = ET.fromstring(r.stdout)
    assert root.get("class") == "fives-score-chart"
    sides = root.findall(f".//{SVG}g[@class='side']")
    got = [[int(v) for v in g.get("data-scores", "").split()] for g in sides]
    assert got == scores_by_reading(path)
    header = json.loads(path.read_text().splitlines()[0])
    target = root.find(f".//{SVG}line[@class='target']")
    assert target is not None and int(target.get("data-target", "")) == header["target"]
    for g, scores in zip(sides, got):
        line = g.find(f"{SVG}polyline")
        assert line is not None
        points = [tuple(map(float, p.split(","))) for p in line.get("points", "").split()]
        assert len(points) == len(scores) == len(g.findall(f"{SVG}circle"))
        xs = [x for x, _ in points]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)  # one point per hand, left to right
        # a higher score is drawn higher, and the target line is where the target score would be
        for (_, ya), (_, yb), a, b in zip(points, points[1:], scores, scores[1:]):
            assert (ya > yb) == (b > a) and (ya == yb) == (a == b)
    ty = float(target.get("y1", ""))
    above = [(y, s) for g, sc in zip(sides, got) for (_, y), s in
             zip([tuple(map(float, p.split(","))) for p in g.find(f"{SVG}polyline").get("points").split()], sc)]
    assert all((y < ty) == (s > header["target"]) for y, s in above if s != header["target"])


def test_the_chart_is_self_contained_and_deterministic(tmp_path: Path) -> None:
    path = record(tmp_path, "--game", "american-sniff", "--players", "2", "--seed", "11")
    runs = [CliRunner().invoke(main, ["score-svg", "--record", str(path), "--chart"]).stdout for _ in range(2)]
    assert runs[0] == runs[1]
    assert not re.search(r"href|url\(|<script|<image|https?://(?!www\.w3\.org/2000/svg)", runs[0])
    rules, target, sides = hand_scores_from_record(str(path))
    assert runs[0] == chart_svg(rules, sides, target)
    assert "American Sniff: the score after each hand, target 250" in runs[0]


def test_a_side_below_zero_and_a_one_hand_match_still_draw() -> None:
    rules = load_rules("american-sniff")
    svg = chart_svg(rules, [HandScores("Seat 0", (0, -35, 20)), HandScores("Seat 1", (0, 45, 260))], 250)
    root = ET.fromstring(svg)
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert "-50" in labels and "250" in labels and "Seat 1: 260" in labels and "Seat 0: 20" in labels
    one = ET.fromstring(chart_svg(rules, [HandScores("A", (0, 5)), HandScores("B", (0, 0))], 250))
    assert len(one.findall(f".//{SVG}circle")) == 4


def test_chart_options_are_checked(tmp_path: Path) -> None:
    path = record(tmp_path, "--game", "horse-race", "--players", "2", "--seed", "3")
    r = CliRunner().invoke(main, ["score-svg", "--game", "horse-race", "--score", "5", "--chart"])
    assert r.exit_code == 2 and "--chart draws a match hand by hand: give --record FILE" in r.output
    r = CliRunner().invoke(main, ["score-svg", "--record", str(path), "--chart", "--style", "tally"])
    assert r.exit_code == 2 and "leave out --style" in r.output
    r = CliRunner().invoke(main, ["score-svg", "--record", str(path), "--chart", "--game", "american-sniff"])
    assert r.exit_code == 2 and "is a horse-race record, not american-sniff" in r.output
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1] + [lines[-1].replace('"scores":[', '"scores":[1')]) + "\n")
    r = CliRunner().invoke(main, ["score-svg", "--record", str(path), "--chart"])
    assert r.exit_code == 2 and f"{path}:{len(lines)}:" in r.output  # replayed first: the bad line named


# -- the note on Horse Race book cards --------------------------------------------------------------
def test_horse_race_cards_say_the_diagram_is_in_pips_and_sniff_cards_are_unchanged(tmp_path: Path) -> None:
    out = tmp_path / "book.html"
    r = CliRunner().invoke(main, ["book", "book-sample", "--out", str(out)])
    assert r.exit_code == 0, r.output
    html = out.read_text()
    cards = re.findall(r'<article class="card puzzle".*?</article>', html, re.S)
    horse = [c for c in cards if "Horse Race" in c]
    sniff = [c for c in cards if "American Sniff" in c]
    assert horse and sniff
    note = ("The numbers on the diagram are the counted ends in pips; the target is in points: a placement whose "
            "ends add up to a multiple of 5 scores the sum divided by 5 (ends adding up to 15 pips score 3 points).")
    assert all(c.count(note) == 1 for c in horse)
    assert not any('class="note"' in c for c in sniff)
    assert html.count('class="note"') == len(horse)  # nowhere else: the rest of the book is as before
