"""Issue 29: outputs never eat inputs; output folders are written as one set; limits are finite;
and the smaller probes (a full standard output for --help, `data copy` mistakes, malformed
requests and a perft of depth 28 to `fives serve`, a diagnosis whose fuzz met only crashes)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from fives.cli import main
from fives.support.errors import UserError
from fives.support.paths import ROOT

from test_rules_option import one_line_error  # noqa: E402 - one line, exit 2
from test_runner_robustness import engine  # noqa: E402 - the hostile engines

FIGURES = ROOT / "conformance" / "fixtures" / "seed" / "american-sniff-figures.yaml"
SERVE = f"{sys.executable} -m fives.cli serve"


def fives(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input)


def one_line(r: Result, *says: str) -> str:
    line = one_line_error(r)
    for s in says:
        assert s in line, line
    return line


@pytest.fixture
def puzzle_set(tmp_path: Path) -> Path:
    out = tmp_path / "s.yaml"
    assert fives("data", "copy", "horse-race-single", str(out)).exit_code == 0
    return out


# -- outputs never eat inputs ------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["puzzles", "to-golden", "{s}", "--out", "{s}"],
    ["book", "{s}", "--out", "{s}"],
    ["book", "{s}", "--interactive", "--out", "{s}"],
    ["render", "--puzzle", "{s}#1", "--out", "{s}"],
], ids=lambda a: " ".join(a[:2]))
def test_an_output_that_is_the_input_is_refused_and_the_input_kept(args: list[str], puzzle_set: Path) -> None:
    before = puzzle_set.read_bytes()
    one_line(fives(*[a.replace("{s}", str(puzzle_set)) for a in args]), "is an input of this command")
    assert puzzle_set.read_bytes() == before


def test_score_svg_never_writes_over_its_record(tmp_path: Path) -> None:
    record = tmp_path / "r.jsonl"
    assert fives("play", "--game", "horse-race", "--players", "2", "--seed", "2", "--out", str(record)).exit_code == 0
    before = record.read_bytes()
    one_line(fives("score-svg", "--record", str(record), "--out", str(record)), "is an input of this command")
    one_line(fives("score-svg", "--record", str(record), "--chart", "--out", str(record)), "is an input")
    assert record.read_bytes() == before


def test_a_new_results_file_inside_the_fixture_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "fx"
    folder.mkdir()
    (folder / "f.yaml").write_bytes(FIGURES.read_bytes())
    for option in (["--results", str(folder / "new.jsonl")], ["--report", f"json:{folder / 'r.json'}"]):
        one_line(fives("conformance", "run", "--fixtures", str(folder), *option), "which this run reads whole")
    assert sorted(p.name for p in folder.iterdir()) == ["f.yaml"]


# -- output folders: new or empty, unless --force; one set, renamed into place ---------------------

def _diagnose(out: Path, *extra: str) -> Result:
    return fives("conformance", "diagnose", "--engine", SERVE, "--game", "american-sniff", "--kind", "evaluate",
                 "--fuzz", "0", "--seconds", "5", "--out", str(out), *extra)


@pytest.mark.slow
def test_diagnose_out_must_be_new_or_empty_and_force_replaces_only_a_diagnosis(tmp_path: Path) -> None:
    out = tmp_path / "dx"
    assert _diagnose(out).exit_code == 0 and (out / "diagnosis.json").is_file()
    stale = out / "fixtures" / "DX-SN-evaluate-000000000000.yaml"
    stale.write_text("format: fives-fixtures/1\ncases: []\n")
    one_line(_diagnose(out), "not empty; add --force")
    assert _diagnose(out, "--force").exit_code == 0
    assert not stale.exists()  # an earlier engine's fixtures are not left for the printed command to run
    (out / "mine.txt").write_text("keep me")
    one_line(_diagnose(out, "--force"), "mine.txt, which diagnose does not write")
    assert (out / "mine.txt").read_text() == "keep me"


@pytest.mark.slow
@pytest.mark.parametrize("command", ["diagnose", "fuzz"])
def test_a_failed_write_leaves_no_partial_set(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import fives.support.writing as writing

    real, calls = writing.write_output, []

    fail_at = 2 if command == "diagnose" else 1  # diagnose: after its profile; fuzz: its one finding

    def full_disk(text: str, out: object) -> None:  # a write fails, as on a full disk
        calls.append(out)
        if len(calls) == fail_at:
            raise UserError(f"{out}: cannot write (No space left on device)")
        real(text, out)

    monkeypatch.setattr(writing, "write_output", full_disk)
    monkeypatch.setattr("fives.conformance.fuzz.output.write_output", full_disk)
    out = tmp_path / "out"
    if command == "diagnose":
        r = fives("conformance", "diagnose", "--engine", f"{SERVE} --mutant drawn-tile-continues", "--game",
                  "horse-race", "--kind", "turn", "--fuzz", "0", "--seconds", "20", "--out", str(out))
    else:
        r = fives("conformance", "fuzz", "--engine", f"{SERVE} --mutant drawn-tile-continues", "--game", "horse-race",
                  "--kind", "turn", "--cases", "200", "--out", str(out))
    assert len(calls) >= fail_at, r.output
    assert r.exit_code == 2 and "No space left on device" in r.stderr, r.output
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == []  # no set, no staging folder


# -- limits are finite ---------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["conformance", "run", "--timeout", "{v}"],
    ["conformance", "diagnose", "--engine", "x", "--timeout", "{v}"],
    ["conformance", "diagnose", "--engine", "x", "--seconds", "{v}"],
    ["conformance", "fuzz", "--engine", "x", "--out", "o", "--timeout", "{v}"],
    ["conformance", "fuzz", "--engine", "x", "--out", "o", "--seconds", "{v}"],
    ["conformance", "mutants", "--timeout", "{v}"],
    ["perft", "--game", "horse-race", "--depth", "1", "--engine", "x", "--timeout", "{v}"],
], ids=lambda a: " ".join(a[:2]) + " " + a[-2])
@pytest.mark.parametrize("value", ["nan", "-1", "inf", "-inf"])
def test_a_time_limit_is_a_finite_number(args: list[str], value: str) -> None:
    line = one_line(fives(*[a.replace("{v}", value) for a in args]))
    assert "is not a finite number of seconds" in line or "is not in the range" in line, line


def test_the_plugins_timeout_is_a_finite_number(tmp_path: Path) -> None:
    for value in ("nan", "-1", "inf"):
        p = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--fives-engine", "x",
                            "--fives-timeout", value], cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert p.returncode == 4 and "is not a finite number of seconds" in p.stderr, p.stderr


def _serve(lines: list[dict]) -> list[dict]:
    hello = {"id": "h", "type": "hello", "protocol": 1}
    p = subprocess.run([sys.executable, "-m", "fives", "serve"], input="\n".join(json.dumps(m) for m in [hello, *lines]),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return [json.loads(x) for x in p.stdout.splitlines()[1:]]


def test_serve_bounds_perft_depth_and_answers_the_lines_after() -> None:
    got = _serve([{"id": "deep", "type": "perft", "game": "horse-race", "input": {"placements": [], "depth": 28}},
                  {"id": "next", "type": "perft", "game": "horse-race", "input": {"placements": [], "depth": 1}}])
    assert got[0] == {"id": "deep", "error": "perft depth 28 is over this engine's limit of 7 "
                                             "(fives serve --max-perft-depth)"}
    assert got[1]["id"] == "next" and got[1]["result"]["nodes"] == 28


@pytest.mark.parametrize("kind,input,says", [
    ("settle", {}, "input: 'players' is a required property"),
    ("match-end", {"players": 2}, "input: 'scores' is a required property"),
    ("next-leader", {"x": 1}, "('x' was unexpected)"),
])
def test_serve_says_what_is_wrong_with_a_malformed_request(kind: str, input: dict, says: str) -> None:
    (got,) = _serve([{"id": "r", "type": kind, "game": "horse-race", "input": input}])
    assert got["error"].startswith("malformed input: ") and says in got["error"] and "KeyError" not in got["error"]


# -- the smaller ones ----------------------------------------------------------------------------

@pytest.mark.parametrize("args", [["--help"], ["--version"], ["conformance", "--help"], ["evaluate", "--help"]])
def test_help_and_version_to_a_full_disk_are_one_line(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "fives", *args], stdout=full, stderr=subprocess.PIPE, text=True,
                           timeout=60)
    assert p.returncode == 2 and p.stderr == "fives: error: cannot write standard output (No space left on device)\n"


def test_data_copy_refuses_an_empty_name_and_the_sample_itself(tmp_path: Path) -> None:
    one_line(fives("data", "copy", "horse-race-single", ""), "DEST is empty")
    # `spec` copied into the folder that holds it: --force would once have replaced the sample with itself
    one_line(fives("data", "copy", "spec", str(ROOT), "--force"), "is the bundled sample spec itself")
    assert (ROOT / "spec" / "games" / "horse-race.yaml").is_file()


@pytest.mark.slow
def test_diagnose_fails_when_the_engine_crashed_on_every_fuzz_request(tmp_path: Path) -> None:
    crash = engine("crash.py", "--case", "fuzz-*")  # the suite's cases answered, every fuzz request a crash
    r = fives("conformance", "diagnose", "--engine", crash, "--game", "horse-race", "--kind", "evaluate",
              "--fuzz", "5", "--seconds", "30")
    assert r.exit_code == 1, r.output
    assert "engine error" in r.output + r.stderr
