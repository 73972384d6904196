"""`fives data` and bundled names: every sample reachable from any folder; names from a listing,
never joined into a path; commands that read a sample take its name; the light install (no z3)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from fives.cli import main
from fives.support import bundled, paths

ROOT = Path(__file__).resolve().parents[1]


def fives(*args: str, cwd: Path | None = None) -> tuple[int, str, str]:
    """Run the CLI in process from `cwd` (the test's own folder): (exit code, stdout, stderr)."""
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture
def here(tmp_path: Path) -> Path:
    d = tmp_path / "user"
    d.mkdir()
    return d


# -- the listing ------------------------------------------------------------------------------

def test_list_names_every_kind_of_sample() -> None:
    code, out, _ = fives("data", "list", "--json")
    assert code == 0
    rows = json.loads(out)
    by_name = {r["name"]: r for r in rows}
    puzzle_sets = sorted(p.stem for p in paths.PUZZLES.glob("*.yaml"))
    assert sorted(n for n, r in by_name.items() if r["kind"] == bundled.PUZZLE_SET) == puzzle_sets
    assert "book-sample" in puzzle_sets
    fixture_dirs = sorted(d.name for d in paths.FIXTURES.iterdir() if d.is_dir())
    assert sorted(n for n, r in by_name.items() if r["kind"] == bundled.FIXTURES) == \
        sorted(["fixtures", *(f"fixtures-{d}" for d in fixture_dirs)])
    assert by_name["golden"]["kind"] == bundled.GOLDEN and Path(by_name["golden"]["path"], "manifest.yaml").is_file()
    assert Path(by_name["perft"]["path"]) == paths.PERFT / "perft.yaml"
    assert Path(by_name["js-engine"]["path"], "engine.js").is_file()
    for r in rows:
        assert Path(r["path"]).exists(), r
    code, text, _ = fives("data", "list")
    assert code == 0 and [line.split()[0] for line in text.splitlines()] == [r["name"] for r in rows]


def test_the_listing_follows_the_data_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "puzzles").mkdir()
    (tmp_path / "puzzles" / "mine.yaml").write_text("format: fives-puzzles/1\n", encoding="utf-8")
    (tmp_path / "puzzles" / "notes.txt").write_text("not a set\n", encoding="utf-8")
    monkeypatch.setenv("FIVES_ROOT", str(tmp_path))
    sets = [s.name for s in bundled.samples() if s.kind == bundled.PUZZLE_SET]
    assert sets == ["mine"]
    assert bundled.find("mine").path == tmp_path / "puzzles" / "mine.yaml"


def test_path_prints_where_the_sample_is() -> None:
    code, out, _ = fives("data", "path", "js-engine")
    assert code == 0 and Path(out.strip(), "engine.js").is_file()
    code, out, _ = fives("data", "path", "bundled:perft")
    assert code == 0 and Path(out.strip()).read_bytes() == (paths.PERFT / "perft.yaml").read_bytes()


@pytest.mark.parametrize("name", ["nope", "../puzzles/book-sample", "puzzles/book-sample.yaml", "book-sample.yaml",
                                  "/etc/passwd", "bundled:x/..", "bundled:", ""])
def test_a_name_is_looked_up_never_joined_into_a_path(name: str) -> None:
    code, out, err = fives("data", "path", name)
    assert code == 2 and out == ""
    assert err.startswith("fives: error: no bundled sample") and err.count("\n") == 1 and "book-sample" in err


def test_a_near_miss_is_suggested() -> None:
    code, _, err = fives("data", "path", "book-sampel")
    assert code == 2 and "did you mean 'book-sample'?" in err


# -- copy -------------------------------------------------------------------------------------

def test_copy_a_file_here_then_refuse_to_replace_it(here: Path) -> None:
    code, out, _ = fives("data", "copy", "book-sample", cwd=here)
    assert code == 0 and out.strip() == "book-sample.yaml"
    original = (paths.PUZZLES / "book-sample.yaml").read_bytes()
    assert (here / "book-sample.yaml").read_bytes() == original
    (here / "book-sample.yaml").write_text("mine\n", encoding="utf-8")
    code, _, err = fives("data", "copy", "book-sample", cwd=here)
    assert code == 2 and "already exists (give --force" in err
    assert (here / "book-sample.yaml").read_text(encoding="utf-8") == "mine\n"
    code, _, _ = fives("data", "copy", "book-sample", "--force", cwd=here)
    assert code == 0 and (here / "book-sample.yaml").read_bytes() == original
    assert sorted(p.name for p in here.iterdir()) == ["book-sample.yaml"]  # no temporary left behind


def test_copy_a_folder_and_into_a_folder(here: Path) -> None:
    code, out, _ = fives("data", "copy", "js-engine", cwd=here)
    assert code == 0 and out.strip() == "js-engine"
    src = paths.CONFORMANCE / "examples" / "js-engine"
    assert sorted(p.name for p in (here / "js-engine").iterdir()) == sorted(p.name for p in src.iterdir())
    assert (here / "js-engine" / "engine.js").read_bytes() == (src / "engine.js").read_bytes()
    code, _, err = fives("data", "copy", "js-engine", cwd=here)
    assert code == 2 and "already exists" in err
    (here / "js-engine" / "extra.txt").write_text("x", encoding="utf-8")
    code, _, _ = fives("data", "copy", "js-engine", "--force", cwd=here)
    assert code == 0 and not (here / "js-engine" / "extra.txt").exists()
    code, out, _ = fives("data", "copy", "perft", "tables/", cwd=here)  # a trailing slash: a folder
    assert code == 0 and (here / "tables" / "perft.yaml").is_file()
    code, out, _ = fives("data", "copy", "horse-race-turn", "tables", cwd=here)  # an existing folder: into it
    assert code == 0 and (here / "tables" / "horse-race-turn.yaml").is_file()
    code, out, _ = fives("data", "copy", "horse-race-turn", "mine.yaml", cwd=here)  # a new name
    assert code == 0 and (here / "mine.yaml").read_bytes() == (paths.PUZZLES / "horse-race-turn.yaml").read_bytes()


def test_copy_will_not_put_a_file_where_a_folder_is(here: Path) -> None:
    (here / "perft.yaml").mkdir()
    code, _, err = fives("data", "copy", "perft", "--force", cwd=here)
    assert code == 2 and "is not a file" in err and (here / "perft.yaml").is_dir()


# -- commands take bundled names ----------------------------------------------------------------

@pytest.mark.slow
def test_book_takes_a_bundled_name_with_the_same_bytes(here: Path) -> None:
    path = str(paths.PUZZLES / "horse-race-single.yaml")
    assert fives("book", path, "--out", "a.html", cwd=here)[0] == 0
    assert fives("book", "horse-race-single", "--out", "b.html", cwd=here)[0] == 0
    assert fives("book", "bundled:horse-race-single", "--out", "c.html", cwd=here)[0] == 0
    a = (here / "a.html").read_bytes()
    assert a == (here / "b.html").read_bytes() == (here / "c.html").read_bytes() and b"<html" in a


@pytest.mark.slow
def test_a_local_file_wins_over_a_bare_name_but_not_over_bundled(here: Path) -> None:
    (here / "horse-race-single").write_text("not: [a, puzzle set]\n", encoding="utf-8")
    code, _, err = fives("book", "horse-race-single", "--out", "b.html", cwd=here)
    assert code == 2 and err.startswith("fives: error: horse-race-single")
    code, _, _ = fives("book", "bundled:horse-race-single", "--out", "b.html", cwd=here)
    assert code == 0


@pytest.mark.slow
def test_render_puzzle_takes_a_bundled_set(here: Path) -> None:
    pid = "HR-S-42a407ed86"
    by_path = fives("render", "--puzzle", f"{paths.PUZZLES / 'book-sample.yaml'}#{pid}", "--solution", cwd=here)
    by_name = fives("render", "--puzzle", f"book-sample#{pid}", "--solution", cwd=here)
    assert by_path[0] == by_name[0] == 0 and by_path[1] == by_name[1] and by_name[1].startswith("<svg")


@pytest.mark.slow
def test_fixture_options_take_bundled_folders(here: Path) -> None:
    by_path = fives("conformance", "list", "--fixtures", str(paths.FIXTURES / "seed"), "--json", cwd=here)
    by_name = fives("conformance", "list", "--fixtures", "fixtures-seed", "--json", cwd=here)
    assert by_path[0] == by_name[0] == 0 and by_path[1] == by_name[1]
    assert {c["id"][:6] for c in json.loads(by_name[1])} >= {"HR-FIG", "SN-FIG"}
    code, out, _ = fives("conformance", "run", "--fixtures", "bundled:fixtures-seed", cwd=here)
    assert code == 0 and out.rstrip().splitlines()[-1].endswith(" 0 failed, 0 errored, 0 skipped")
    code, out, _ = fives("conformance", "lint", "fixtures-puzzles", cwd=here)
    assert code == 0, out
    code, _, err = fives("conformance", "run", "--fixtures", "bundled:perft", cwd=here)
    assert code == 2 and "bundled:perft is a perft table, not a fixture folder or golden suite" in err


def test_golden_verify_and_perft_check_take_bundled_names(here: Path) -> None:
    code, out, _ = fives("golden", "verify", "golden", cwd=here)
    assert code == 0 and out.startswith("ok: ") and out.strip().endswith(str(paths.GOLDEN))
    code, _, err = fives("perft", "--check", "bundled:golden", cwd=here)
    assert code == 2 and "is a golden suite, not a perft table" in err


@pytest.mark.slow
def test_puzzle_commands_take_bundled_sets(here: Path) -> None:
    code, out, _ = fives("puzzles", "to-golden", "horse-race-single", "--out", "f.yaml", cwd=here)
    by_path = fives("puzzles", "to-golden", str(paths.PUZZLES / "horse-race-single.yaml"), "--out", "g.yaml", cwd=here)
    assert code == by_path[0] == 0
    assert (here / "f.yaml").read_bytes() == (here / "g.yaml").read_bytes()


# -- the light install: no z3 ---------------------------------------------------------------------

NO_Z3 = "import sys; sys.modules['z3'] = None\nfrom fives.cli import main\nmain(prog_name='fives')\n"


def without_z3(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", NO_Z3, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env={k: v for k, v in os.environ.items() if k != "FIVES_ROOT"})


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ["puzzles", "generate", "--game", "horse-race", "--count", "2", "--seed", "7", "--out", "set.yaml"],
    ["puzzles", "verify", "horse-race-single"],
    ["puzzles", "solve", "horse-race-single"],
])
def test_without_z3_a_puzzle_proof_is_one_line_naming_the_extra(args: list[str], here: Path) -> None:
    r = without_z3(args, here)
    assert r.returncode == 2 and r.stdout == ""
    command = " ".join(["fives", *args[:2]])
    assert r.stderr == (f"fives: error: {command} needs the z3 solver, which is not installed: "
                        "pip install 'fives[puzzles]'\n")
    assert list(here.iterdir()) == []  # nothing written


@pytest.mark.slow
def test_without_z3_the_main_job_still_works(here: Path) -> None:
    r = without_z3(["conformance", "run", "--id", "SN-FIG-4-4"], here)
    assert r.returncode == 0 and r.stdout.rstrip().endswith("1 passed, 0 failed, 0 errored, 0 skipped"), r.stderr
    r = without_z3(["book", "horse-race-single", "--out", "b.html"], here)
    assert r.returncode == 0 and (here / "b.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>"), r.stderr
    r = without_z3(["puzzles", "to-golden", "horse-race-single", "--out", "f.yaml"], here)
    assert r.returncode == 0 and (here / "f.yaml").is_file(), r.stderr


def test_z3_is_an_extra_not_a_dependency() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert not [d for d in project["dependencies"] if d.startswith("z3")]
    extras = project["optional-dependencies"]
    assert [d for d in extras["puzzles"] if d.startswith("z3-solver")]
    assert [d for d in extras["test"] if d.startswith("z3-solver")]
