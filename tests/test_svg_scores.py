"""Score pictures: the Sniff tally (strokes of 5 raw points, the 50-point symbol) and the pegging board."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from fives.cli import main
from fives.support.errors import UserError
from fives.record import dumps
from fives.rules import load_rules
from fives.draw.score_svg import SideScores, board_svg, histories_from_record, parse_score, tally_svg
from fives.settlement import configure
from fives.strategies import play_match

NS = "{http://www.w3.org/2000/svg}"
SNIFF = load_rules("american-sniff")
HR = load_rules("horse-race")


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def sides(*scores: int) -> list[SideScores]:
    return [SideScores(f"S{i}", (0, s)) for i, s in enumerate(scores)]


@pytest.mark.parametrize("score,strokes,complete", [(0, 0, 0), (5, 1, 0), (50, 10, 0 + 1), (135, 27, 2), (250, 50, 5)])
def test_tally_strokes(score: int, strokes: int, complete: int) -> None:
    """The document: each stroke is 5 raw points; ten strokes make the 50-point symbol."""
    root = ET.fromstring(tally_svg(SNIFF, sides(score)))
    side = by_class(root, "tally-side")[0]
    assert len(by_class(side, "tally-stroke")) == strokes
    assert len(by_class(side, "tally-complete")) == complete
    partial = [g for g in by_class(side, "tally-symbol") if "tally-complete" not in g.get("class")]
    assert [len(by_class(g, "tally-stroke")) for g in partial] == ([strokes % 10] if strokes % 10 else [])


def _length(line: ET.Element) -> float:
    return math.hypot(float(line.get("x2")) - float(line.get("x1")), float(line.get("y2")) - float(line.get("y1")))


def _mid(line: ET.Element) -> tuple[float, float]:
    return ((float(line.get("x1")) + float(line.get("x2"))) / 2, (float(line.get("y1")) + float(line.get("y2"))) / 2)


def test_fifty_symbol_is_a_large_x_with_a_small_x_in_each_space() -> None:
    """A large X in the middle, then a small x in each of the four spaces around it."""
    root = ET.fromstring(tally_svg(SNIFF, sides(50)))
    strokes = by_class(by_class(root, "tally-complete")[0], "tally-stroke")
    assert len(strokes) == 10
    big, small = strokes[:2], strokes[2:]
    # the large X: two crossing diagonals through the same centre
    assert _mid(big[0]) == _mid(big[1]) and _length(big[0]) == _length(big[1])
    cx, cy = _mid(big[0])
    assert all(_length(s) < _length(big[0]) / 3 for s in small)
    # the small x's: pairs crossing at one point, one pair in each of the four spaces
    spaces = []
    for a, b in zip(small[0::2], small[1::2]):
        assert _mid(a) == _mid(b)
        dx, dy = _mid(a)[0] - cx, _mid(a)[1] - cy
        spaces.append(("bottom" if dy > 0 else "top") if abs(dy) > abs(dx) else ("right" if dx > 0 else "left"))
    assert sorted(spaces) == ["bottom", "left", "right", "top"]


def test_tally_horse_race_and_negative() -> None:
    root = ET.fromstring(tally_svg(HR, sides(13, -3)))  # displayed points: 13 = 65 raw = 13 strokes
    a, b = by_class(root, "tally-side")
    assert len(by_class(a, "tally-stroke")) == 13
    assert b.get("data-negative") == "true" and len(by_class(b, "tally-stroke")) == 3


def test_tally_rejects_a_score_off_the_stroke_unit() -> None:
    with pytest.raises(UserError, match="not a whole number of strokes"):
        tally_svg(SNIFF, sides(17))


def test_parse_score() -> None:
    assert parse_score("135", "A").totals == (0, 135)
    assert parse_score("5+10+3", "A").totals == (0, 5, 15, 18)
    assert parse_score("50 - 15", "A").totals == (0, 50, 35)
    assert parse_score("-15", "A").totals == (0, -15)
    for bad in ("", "abc", "5++3", "5+"):
        with pytest.raises(UserError):
            parse_score(bad, "A")


def test_board_holes_and_pegs() -> None:
    """Horse Race to 61: 60 track holes and the game hole; pegs at the score and the one before."""
    history = [parse_score("3+4+10", "A"), parse_score("70", "B"), SideScores("C", (0,))]
    root = ET.fromstring(board_svg(HR, history, 61))
    boards = by_class(root, "board-side")
    assert len(boards) == 3
    for g in boards:
        holes = [int(h.get("data-hole")) for h in by_class(g, "hole")]
        assert holes == list(range(1, 62))
        assert len(by_class(g, "game-hole")) == 1
    pegs = {(p.get("data-side"), "front" if "peg-front" in p.get("class") else "back"): int(p.get("data-hole"))
            for p in by_class(root, "peg")}
    assert pegs == {("0", "front"): 17, ("0", "back"): 7, ("1", "front"): 61, ("1", "back"): 0,
                    ("2", "front"): 0, ("2", "back"): 0}


def test_board_for_sniff_counts_five_raw_points_a_hole() -> None:
    root = ET.fromstring(board_svg(SNIFF, [parse_score("100+35", "A")], 250))
    assert len(by_class(root, "hole")) == 50  # 250 raw / 5
    front = [p for p in by_class(root, "peg") if "peg-front" in p.get("class")][0]
    assert front.get("data-hole") == "27"


@pytest.mark.parametrize("game,players,partnerships", [("american-sniff", 4, True), ("horse-race", 3, False)])
def test_from_a_game_record(tmp_path, game: str, players: int, partnerships: bool) -> None:
    rules = load_rules(game)
    config = configure(rules, players, partnerships)
    events = play_match(rules, config, 11, ["greedy"] * players)
    path = tmp_path / "match.jsonl"
    path.write_text("".join(dumps(e) + "\n" for e in events), encoding="utf-8")
    got_rules, target, histories = histories_from_record(str(path))
    assert got_rules.id == game and target == config.target
    assert [h.score for h in histories] == events[-1]["scores"]
    for h in histories:
        assert h.totals[0] == 0 and all(a != b for a, b in zip(h.totals, h.totals[1:]))
    r = CliRunner().invoke(main, ["score-svg", "--record", str(path), "--style", "tally"])
    assert r.exit_code == 0, r.output
    root = ET.fromstring(r.stdout)
    strokes = [len(by_class(g, "tally-stroke")) for g in by_class(root, "tally-side")]
    assert strokes == [abs(s) * rules.display_divisor // rules.scoring_multiple for s in events[-1]["scores"]]


def test_record_errors_are_one_line(tmp_path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "fives-record/1"}\n', encoding="utf-8")
    r = CliRunner().invoke(main, ["score-svg", "--record", str(bad)])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.startswith(f"fives: error: {bad}:1:")


def test_cli_score_svg(tmp_path) -> None:
    out = tmp_path / "t.svg"
    r = CliRunner().invoke(main, ["score-svg", "--game", "american-sniff", "--score", "135", "--score", "50+20-15",
                                  "--label", "Ann", "--label", "Bob", "--out", str(out)])
    assert r.exit_code == 0, r.output
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert root.get("class") == "fives-tally"  # Sniff is shown in raw points: the tally by default
    assert [len(by_class(g, "tally-stroke")) for g in by_class(root, "tally-side")] == [27, 11]
    r = CliRunner().invoke(main, ["score-svg", "--game", "horse-race", "--score", "12", "--score", "30"])
    assert r.exit_code == 0 and ET.fromstring(r.stdout).get("class") == "fives-board"
    for args, msg in ((["score-svg", "--game", "american-sniff", "--score", "17"], "not a whole number"),
                      (["score-svg", "--game", "american-sniff"], "either --score"),
                      (["score-svg", "--score", "5"], "missing --game"),
                      (["score-svg", "--game", "american-sniff", "--score", "5", "--players", "4", "--score", "5",
                        "--label", "x"], "--label")):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2 and msg in r.output and "Traceback" not in r.output, r.output
