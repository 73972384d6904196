"""Puzzle themes (spec/puzzles.md, "Themes"): every committed puzzle is tagged with what its
solution shows, `puzzles generate --theme` reaches every theme the games allow, and refuses,
in one line, a theme it can never reach."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from fives.cli import main
from fives.support.paths import ROOT
from fives.puzzles.model import Problem, load_set
from fives.puzzles.themes import THEMES, reachable, themes
from fives.layout import Placement
from fives.tiles import Side, parse_tile

SETS = sorted((ROOT / "puzzles").glob("*.yaml"))


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.name)
def test_every_committed_puzzle_has_its_computed_themes(path: Path) -> None:
    for _, pz in load_set(path)[1]:
        assert pz.themes, pz.id
        assert pz.themes == themes(pz.problem, pz.solution, pz.difficulty.features), pz.id
        assert set(pz.themes) <= set(THEMES)


def test_spec_lists_every_theme() -> None:
    text = (ROOT / "spec" / "puzzles.md").read_text(encoding="utf-8")
    for name, t in THEMES.items():
        assert f"| `{name}` | {t.meaning} |" in text, name


def _p(placement: str) -> Placement:
    tile, _, rest = placement.partition(">")
    if not rest:
        return Placement(parse_tile(tile), None, None)
    to, _, side = rest.partition(":")
    return Placement(parse_tile(tile), parse_tile(to), Side(side))


def test_end_double_and_zero_sum_trap_on_a_hand_made_single() -> None:
    # Horse Race table [1|4] with the end double [4|4]: ends 1 + 8 = 9. [1|1] on the low end
    # counts 2 + 8 = 10 (the end double [4|4] counted whole); [0|1] there would make 0 + 8.
    layout = (_p("[1|4]"), _p("[4|4]>[1|4]:high"))
    problem = Problem("horse-race", "single", layout, (parse_tile("[1|1]"), parse_tile("[0|1]")), 2)
    got = themes(problem, (_p("[1|1]>[1|4]:low"),), {})
    assert "end-double" in got and "plays-double" in got and "one-move" in got
    assert "zero-sum-trap" not in got  # 8 is not 0
    # Sniff table [0|3]-[3|4]: ends 0 and 4. [0|4] on the high end would leave 0 + 0: a trap.
    table = (_p("[0|3]"), _p("[3|4]>[0|3]:high"))
    zero = Problem("american-sniff", "single", table, (parse_tile("[0|4]"), parse_tile("[0|5]")), 5)
    assert "zero-sum-trap" in themes(zero, (_p("[0|5]>[0|3]:low"),), {})
    no_trap = Problem("american-sniff", "single", table, (parse_tile("[0|5]"),), 5)
    assert "zero-sum-trap" not in themes(no_trap, (_p("[0|5]>[0|3]:low"),), {})


@pytest.mark.parametrize("name", list(THEMES))
def test_generate_reaches_every_theme(name: str, tmp_path: Path) -> None:
    out = tmp_path / "set.yaml"
    args = ["puzzles", "generate", "--count", "1", "--seed", "11", "--theme", name]
    for g in THEMES[name].games:
        args += ["--game", g]
    r = CliRunner().invoke(main, args + ["--out", str(out)])
    assert r.exit_code == 0, r.output
    puzzles = [pz for _, pz in load_set(out)[1]]
    assert len(puzzles) == 1 and all(name in pz.themes for pz in puzzles)
    if name != "branch":
        return
    again = tmp_path / "again.yaml"
    r = CliRunner().invoke(main, args + ["--out", str(again)])
    assert r.exit_code == 0, r.output
    assert again.read_bytes() == out.read_bytes()  # same seed, same bytes


@pytest.mark.parametrize("args,words", [
    (["--game", "horse-race", "--theme", "spinner-half"], "cannot occur in puzzles of horse-race"),
    (["--game", "american-sniff", "--kind", "build", "--theme", "one-move"], "cannot occur in build puzzles"),
    (["--game", "american-sniff", "--theme", "ends-blocked"], "only turn puzzles"),
    (["--game", "horse-race", "--theme", "checkmate"], "unknown theme 'checkmate'"),
])
def test_unreachable_theme_is_one_line_exit_2(args: list[str], words: str, tmp_path: Path) -> None:
    out = tmp_path / "x.yaml"
    r = CliRunner().invoke(main, ["puzzles", "generate", "--count", "1", "--seed", "1", "--out", str(out), *args])
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and words in lines[0]
    assert not out.exists()
    assert reachable("spinner-half", ["horse-race", "american-sniff"], None) is None


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_book_filters_by_theme(tmp_path: Path) -> None:
    sample = ROOT / "puzzles" / "book-sample.yaml"
    want = [pz.id for _, pz in load_set(sample)[1] if "branch" in pz.themes]
    for extra in ([], ["--interactive"]):
        out = tmp_path / "b.html"
        r = CliRunner().invoke(main, ["book", str(sample), "--theme", "branch", "--out", str(out), *extra])
        assert r.exit_code == 0, r.output
        html = out.read_text(encoding="utf-8")
        assert html.count('<article class="card puzzle"') == len(want) > 0
        assert all(f'data-puzzle="{i}"' in html for i in want)
    r = CliRunner().invoke(main, ["book", str(sample), "--theme", "nope", "--out", str(tmp_path / "n.html")])
    assert r.exit_code == 2 and "unknown theme 'nope'" in r.output
