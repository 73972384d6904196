"""Budgets and strictness: huge scores, z3 time limits, puzzle-set checks, book points."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from fives.cli import main
from fives.rules import load_rules
from fives.draw.score_svg import SideScores, tally_svg
from fives.draw.tally_text import sniff_text
from fives.tally import MAX_DRAWN_SYMBOLS, SniffTally

ROOT = Path(__file__).resolve().parents[1]
SNIFF = load_rules("american-sniff")


def run(args: list[str]):
    return CliRunner().invoke(main, args)


def test_a_huge_tally_draws_at_most_the_limit() -> None:
    t = SniffTally.of(999_999_999_995)
    assert (t.fifties, t.strokes, t.undrawn) == (19_999_999_999, 9, 19_999_999_900)
    assert len(t.parts()) == MAX_DRAWN_SYMBOLS == 100
    text = sniff_text(999_999_999_995)
    assert text.splitlines()[0] == "999999999995 raw points = 19999999999 x 50 + 9 x 5"
    assert text.splitlines()[-1] == "(and 19999999900 more symbols, not drawn: a tally shows at most 100)"
    assert len(text) < 10_000
    # at the limit nothing is cut: 100 complete symbols, no note
    assert "not drawn" not in sniff_text(5000) and len(SniffTally.of(5000).parts()) == 100
    assert SniffTally.of(5005).undrawn == 1


def test_a_huge_score_picture_is_bounded() -> None:
    svg = tally_svg(SNIFF, [SideScores("A", (0, 999_999_999_995)), SideScores("B", (0, 135))])
    assert svg.count('class="tally-stroke"') == MAX_DRAWN_SYMBOLS * 10 + 27
    assert svg.count('class="tally-more"') == 1 and "and 19999999900 more symbols" in svg
    assert 'data-strokes="199999999999"' in svg
    small = tally_svg(SNIFF, [SideScores("B", (0, 5000))])
    assert 'tally-more' not in small and small.count('class="tally-stroke"') == 1000


@pytest.mark.parametrize("args", [
    ["tally", "--game", "american-sniff", "\u0663\u0665"],
    ["tally", "--game", "american-sniff", "1_000"],
    ["score-svg", "--game", "american-sniff", "--score", "\u0663\u0665"],
    ["score-svg", "--game", "american-sniff", "--score", "5+" + "1" * 19],
])
def test_scores_are_ascii_digits_of_bounded_length(args: list[str]) -> None:
    r = run(args)
    assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1, r.output


def test_tally_accepts_plain_numbers() -> None:
    r = run(["tally", "--game", "american-sniff", "-15", "135"])
    assert r.exit_code == 0 and r.stdout.startswith("-15 raw points = 0 x 50 + 3 x 5 (below zero)")


def _sample(tmp_path: Path, change, name: str = "set.yaml") -> Path:
    data = yaml.safe_load((ROOT / "puzzles" / "american-sniff-single.yaml").read_text(encoding="utf-8"))
    change(data)
    out = tmp_path / name
    out.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return out


@pytest.mark.parametrize("change,words", [
    (lambda d: d.update(count=d["count"] + 1), "count says 21 but the set holds 20 puzzles"),
    (lambda d: d.update(puzzles=d["puzzles"] + d["puzzles"][:1], count=21),
     "puzzle 21 (AS-S-67fe014003) repeats puzzle 1 (AS-S-67fe014003)"),
    (lambda d: d.update(kinds=["build"]), "kind single is not among the set's kinds"),
])
def test_verify_checks_the_set(tmp_path: Path, change, words: str) -> None:
    r = run(["puzzles", "verify", str(_sample(tmp_path, change)), "--no-grade"])
    assert r.exit_code == 2 and words in r.stderr, r.stderr


def test_to_golden_on_an_illegal_layout_is_one_line(tmp_path: Path) -> None:
    def illegal(d):
        d["puzzles"][0]["layout"] = [{"tile": "[4|5]"}, {"tile": "[6|6]", "to": "[4|5]", "side": "low"}]
    out = tmp_path / "fixtures.yaml"
    r = run(["puzzles", "to-golden", str(_sample(tmp_path, illegal)), "--out", str(out)])
    assert r.exit_code == 2 and isinstance(r.exception, SystemExit)
    assert "puzzle 1 (AS-S-67fe014003): layout placement 1: value-mismatch" in r.stderr
    assert not out.exists()


def test_book_refuses_wrong_stated_points(tmp_path: Path) -> None:
    def wrong(d):
        d["puzzles"][0]["solution_points"] = [d["puzzles"][0]["solution_points"][0] + 5]
    out = tmp_path / "book.html"
    r = run(["book", str(_sample(tmp_path, wrong)), "--out", str(out)])
    assert r.exit_code == 2 and "solution_points" in r.stderr and "but the engine scores" in r.stderr
    assert not out.exists()


BARE_BUILD = """\
- game: american-sniff
  kind: build
  tiles: ['[0|0]', '[0|1]', '[0|2]', '[0|3]', '[0|4]', '[0|5]', '[0|6]',
          '[1|1]', '[1|2]', '[1|3]', '[1|4]', '[1|5]', '[1|6]', '[2|2]']
  target: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
"""


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_solve_has_a_time_budget(tmp_path: Path) -> None:
    f = tmp_path / "bare.yaml"
    f.write_text(BARE_BUILD)
    r = run(["puzzles", "solve", str(f), "--time-limit", "0.5"])
    assert r.exit_code == 1
    assert "answers: undecided" in r.stdout and "time budget of 0.5 s" in r.stdout
    assert r.stderr.strip() == ("fives: 1 of 1 puzzle does not have exactly one answer "
                                "(1 undecided within the time limit)")


def test_verify_has_a_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from fives.puzzles import z3model
    from fives.puzzles.model import load_set
    from fives.puzzles.verify import BadPuzzle, check

    _, puzzles, _ = load_set(ROOT / "puzzles" / "horse-race-build.yaml")
    monkeypatch.setattr(z3model.z3.Solver, "check", lambda self, *a: z3model.z3.unknown)
    monkeypatch.setattr(z3model.z3.Solver, "reason_unknown", lambda self: "timeout")
    with pytest.raises(BadPuzzle, match="did not decide within the time budget of 5 s"):
        check(puzzles[0][1], time_limit=5)
