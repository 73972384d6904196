"""The puzzle commands' habits (issue 40): `puzzles generate` says what it wrote; every message
numbers puzzles from 1 and names the file and the puzzle; the first problem reported is the
real one (an edited tile is an illegal solution, not first a hash mismatch); a game-name typo
names the file."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "puzzles" / "horse-race-single.yaml"

pytest.importorskip("z3")


def fives(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("FIVES_ROOT", None)
    return subprocess.run([sys.executable, "-m", "fives", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600, stdin=subprocess.DEVNULL)


def edited(tmp: Path, index: int, **changes: object) -> tuple[Path, str]:
    """A copy of the shipped set with puzzle `index` (from 0) changed; (file, that puzzle's id)."""
    data = yaml.safe_load(SET.read_text(encoding="utf-8"))
    data["puzzles"][index].update(changes)
    out = tmp / "edited.yaml"
    out.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return out, data["puzzles"][index]["id"]


def test_generate_says_what_it_wrote(tmp_path: Path) -> None:
    r = fives("puzzles", "generate", "--game", "horse-race", "--kind", "single", "--count", "2", "--seed", "3",
              "--out", "set.yaml", cwd=tmp_path)
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout == "fives: wrote 2 puzzles to set.yaml\n"
    assert len(yaml.safe_load((tmp_path / "set.yaml").read_text())["puzzles"]) == 2
    # with --out - the set is standard output, and nothing is added to it
    r = fives("puzzles", "generate", "--game", "horse-race", "--kind", "single", "--count", "2", "--seed", "3",
              "--out", "-", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == (tmp_path / "set.yaml").read_text()


def test_a_game_typo_names_the_file_and_the_puzzle_numbered_from_1(tmp_path: Path) -> None:
    bad, pid = edited(tmp_path, 0, game="horse-rase")
    for command in (["verify"], ["solve"], ["to-golden", "--out", "g.yaml"]):
        r = fives("puzzles", *command, str(bad), cwd=tmp_path)
        assert r.returncode == 2 and r.stdout == "", (command, r.stderr)
        assert r.stderr.startswith(f"fives: error: {bad}: puzzle 1 ({pid}): unknown game 'horse-rase'"), r.stderr
        assert len(r.stderr.splitlines()) == 1


def test_the_real_problem_comes_before_the_id_mismatch(tmp_path: Path) -> None:
    data = yaml.safe_load(SET.read_text(encoding="utf-8"))
    third = data["puzzles"][2]
    placed = {p["tile"] for p in third["layout"]} | set(third["hand"])
    other = next(f"[{a}|{b}]" for a in range(7) for b in range(a, 7) if f"[{a}|{b}]" not in placed)
    hand = [t for t in third["hand"] if t != third["solution"][0]["tile"]] + [other]  # the answer's tile gone
    bad, pid = edited(tmp_path, 2, hand=hand)
    r = fives("puzzles", "verify", str(bad), cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith(f"fives: error: {bad}: puzzle 3 ({pid}): solution placement 0: "), r.stderr
    assert "is not among the puzzle's tiles" in r.stderr and "does not match the content" not in r.stderr
    # an id edited alone is reported as the id
    bad, _ = edited(tmp_path, 2, id="HR-S-0000000000")
    r = fives("puzzles", "verify", str(bad), cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.startswith(f"fives: error: {bad}: puzzle 3 (HR-S-0000000000): id HR-S-0000000000 does not "
                               "match the content"), r.stderr


def test_solve_names_the_file_and_numbers_from_1(tmp_path: Path) -> None:
    data = yaml.safe_load(SET.read_text(encoding="utf-8"))
    record = {k: data["puzzles"][0][k] for k in ("game", "kind", "layout", "hand", "target")}
    record["layout"] = record["layout"][:1] + [{"tile": "[6|6]", "to": record["layout"][0]["tile"],
                                                 "side": "line-a"}] + record["layout"][1:]
    (tmp_path / "mine.yaml").write_text(yaml.safe_dump([record], sort_keys=False))
    r = fives("puzzles", "solve", "mine.yaml", cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("fives: error: mine.yaml: puzzle 1: layout placement 1: "), r.stderr


def test_book_numbers_from_1_and_names_the_file(tmp_path: Path) -> None:
    data = yaml.safe_load(SET.read_text(encoding="utf-8"))
    data["puzzles"][1]["layout"][1]["tile"] = "[6|6]"  # no longer joins its neighbour
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    pid = data["puzzles"][1]["id"]
    for extra in ([], ["--interactive"]):
        r = fives("book", str(bad), *extra, "--out", "b.html", cwd=tmp_path)
        assert r.returncode == 2 and not (tmp_path / "b.html").exists()
        assert r.stderr.startswith(f"fives: error: {bad}: puzzle 2 ({pid}): layout placement 1: value-mismatch"), r.stderr
