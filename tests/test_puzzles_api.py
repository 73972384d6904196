"""`fives.puzzles.api`: generate, load, verify, solve and themes, with typed results, the same
bytes as `fives puzzles generate`, and a clear error naming the extra when z3 is missing."""
from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from fives.cli import main
from fives.layout import Placement
from fives.puzzles import api as puzzles
from fives.support import paths
from fives.support.errors import UserError
from fives.tiles import Tile

SAMPLE = paths.PUZZLES / "horse-race-single.yaml"


def cli_generate(tmp_path: Path, *args: str, name: str = "cli.yaml") -> bytes:
    out = tmp_path / name
    r = CliRunner().invoke(main, ["puzzles", "generate", *args, "--out", str(out)])
    assert r.exit_code == 0, r.output
    return out.read_bytes()


@pytest.mark.parametrize("args,kwargs", [
    (["--game", "horse-race", "--count", "6", "--seed", "7", "--theme", "branch"],
     {"game": "horse-race", "count": 6, "seed": 7, "theme": "branch"}),
    (["--game", "american-sniff", "--game", "horse-race", "--count", "4", "--seed", "3", "--kind", "single",
      "--order", "difficulty"],
     {"game": ["american-sniff", "horse-race"], "count": 4, "seed": 3, "kind": "single", "order": "difficulty"}),
], ids=["themed", "two-games-sorted"])
@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_generate_gives_the_commands_bytes(tmp_path: Path, args: list[str], kwargs: dict) -> None:
    pset = puzzles.generate(**kwargs)
    assert pset.dumps().encode() == cli_generate(tmp_path, *args)
    assert pset.dumps(json=True).encode() == cli_generate(tmp_path, *args, "--json", name="cli.json")
    pset.save(tmp_path / "api.yaml")
    assert (tmp_path / "api.yaml").read_bytes() == (tmp_path / "cli.yaml").read_bytes()
    pset.save(tmp_path / "api.json")
    assert (tmp_path / "api.json").read_bytes() == (tmp_path / "cli.json").read_bytes()


def test_generated_puzzles_are_typed() -> None:
    pset = puzzles.generate(game="horse-race", count=3, seed=7, kind="turn", difficulty=2)
    assert isinstance(pset, puzzles.PuzzleSet) and len(pset) == 3 and pset.games == ("horse-race",)
    assert pset.kinds == ("turn",) and pset.difficulty == 2 and pset.seed == 7
    for p in pset:
        assert isinstance(p, puzzles.Puzzle)
        assert (p.kind, p.game, p.unit) == ("turn", "horse-race", "displayed")
        assert p.hand == p.tiles and all(isinstance(t, Tile) for t in p.hand)
        assert all(isinstance(x, Placement) for x in p.solution) and len(p.solution) >= 2
        assert sum(p.solution_points) == p.target and 1 <= p.grade <= 5
        assert p.id.startswith("HR-T-") and p.to_dict()["id"] == p.id
    with pytest.raises(dataclasses.FrozenInstanceError):
        pset[0].kind = "single"  # type: ignore[misc]
    build = puzzles.generate("american-sniff", 1, 1, kind="build")[0]
    assert build.hand == () and build.tiles and isinstance(build.target, tuple) and build.unit == "raw"
    assert build.target == build.solution_points


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_the_same_seed_gives_the_same_set() -> None:
    a = puzzles.generate("american-sniff", 3, 11)
    assert a == puzzles.generate("american-sniff", 3, 11)
    assert a.dumps() != puzzles.generate("american-sniff", 3, 12).dumps()


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_load_reads_a_set_back_byte_for_byte() -> None:
    pset = puzzles.load(SAMPLE)
    assert len(pset) == 20 and {p.kind for p in pset} == {"single"} and pset.seed == 2024
    assert pset.dumps() == SAMPLE.read_text(encoding="utf-8")


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_verify_a_set_and_a_bad_puzzle(tmp_path: Path) -> None:
    checks = puzzles.verify(SAMPLE)
    assert len(checks) == 20 and all(c.ok and c.reason is None for c in checks)
    assert {c.brute for c in checks} <= {"agrees", "too large"} and checks[0].id == puzzles.load(SAMPLE)[0].id
    good = puzzles.load(SAMPLE)[0]
    wrong = dataclasses.replace(good, solution_points=(good.solution_points[0] + 1,))
    [check] = puzzles.verify(wrong)
    assert not check.ok and check.id == good.id and "solution_points" in (check.reason or "")
    assert [c.ok for c in puzzles.verify([good, wrong])] == [True, False]
    twice = dataclasses.replace(puzzles.load(SAMPLE), puzzles=(good, good))
    with pytest.raises(puzzles.BadPuzzle, match="repeats"):
        puzzles.verify(twice)


def test_solve_a_puzzle_and_a_bare_record() -> None:
    good = puzzles.load(SAMPLE)[0]
    solved = puzzles.solve(good)
    assert solved.unique is True and solved.complete and solved.id == good.id
    assert [a.placements for a in solved.answers] == [good.solution]
    assert solved.answers[0].points == good.solution_points
    # a hand-written record needs no answer; a target with several answers is not unique
    record = {k: v for k, v in good.to_dict().items() if k not in ("solution", "solution_points", "id")}
    assert puzzles.solve(record).answers == solved.answers
    none = puzzles.solve({**record, "target": 1})
    assert none.unique is False and none.answers == () and none.complete and none.id is None
    # puzzle 6 of the sample has two placements scoring 3 (it asks for another target)
    other = {k: v for k, v in puzzles.load(SAMPLE)[6].to_dict().items() if k != "solution"}
    several = puzzles.solve({**other, "target": 3}, limit=2)
    assert several.unique is False and len(several.answers) == 2 and not several.complete
    assert all(a.points == (3,) for a in several.answers)
    with pytest.raises(UserError, match="schema violation"):
        puzzles.solve({"game": "horse-race"})


def test_themes_are_listed_and_filtered() -> None:
    names = [t.name for t in puzzles.themes()]
    assert names[:3] == ["branch", "closes-double", "plays-double"] and len(names) == len(set(names))
    horse = {t.name for t in puzzles.themes("horse-race")}
    assert "spinner-half" in names and "spinner-half" not in horse
    assert "opening-double" not in {t.name for t in puzzles.themes(kind="single")}
    assert all(t.meaning for t in puzzles.themes())
    with pytest.raises(UserError, match="unknown game"):
        puzzles.themes("chess")


@pytest.mark.parametrize("kwargs,message", [
    ({"kind": "riddle"}, "unknown kind 'riddle'"),
    ({"count": -1}, "count must be a whole number"),
    ({"difficulty": 9}, "difficulty must be 1 to 5"),
    ({"theme": "spinner-half"}, "cannot occur"),
    ({"theme": "nope"}, "unknown theme"),
    ({"game": ["horse-race", "horse-race"]}, "given twice"),
    ({"game": "chess"}, "unknown game"),
])
def test_generate_refuses_bad_arguments(kwargs: dict, message: str) -> None:
    args = {"game": "horse-race", "count": 1, "seed": 1, **kwargs}
    with pytest.raises(UserError, match=message):
        puzzles.generate(**args)


def test_without_z3_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "z3", None)  # what find_spec sees when z3 cannot be imported
    for call in (lambda: puzzles.generate("horse-race", 1, 1), lambda: puzzles.verify(SAMPLE),
                 lambda: puzzles.solve(puzzles.load(SAMPLE)[0])):
        with pytest.raises(puzzles.MissingExtra, match=r"pip install 'fives\[puzzles\]'"):
            call()


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_the_module_loads_without_z3() -> None:
    code = ("import sys; sys.modules['z3'] = None\n"
            "from fives.puzzles import api\n"
            f"assert len(api.load({str(SAMPLE)!r})) == 20 and api.themes()\n"
            "try:\n    api.generate('horse-race', 1, 1)\nexcept api.MissingExtra as e:\n    print(e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "puzzle proofs need the z3 solver, which is not installed: pip install 'fives[puzzles]'"
