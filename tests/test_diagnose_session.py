"""The diagnosis session from Python (fives/conformance/sessions/diagnose.py): its phases, its
budget, its stop reason, and that the CLI gives the same diagnosis through it."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fives.conformance.engines.handle import EngineSpec
from fives.conformance.sessions.diagnose import (FUZZ_SHARE, SEARCH_SHARE, Budget, DiagnoseOptions, DiagnoseOutcome,
                                                 diagnose)

#: a private fixture cache: the CLI's and the API's notes are compared, and a cache shared with
#: other tests' processes once gave the CLI a "did not check" note of its own (a loaded run)
pytestmark = pytest.mark.usefixtures("module_fixture_cache")  # tests/conftest.py

ROOT = Path(__file__).resolve().parents[1]
MUTANT = f"{sys.executable} -m fives serve --mutant drawn-tile-continues"
#: a narrow selection: the turn cases of one game, and a few fuzzed turns (seconds, not minutes)
NARROW = {"games": ("horse-race",), "kinds": ("turn",), "fuzz_draws": 40, "budget": Budget(60.0)}


def untimed(doc: dict[str, Any]) -> dict[str, Any]:
    """A diagnosis JSON without what the clock decides."""
    doc = {k: v for k, v in doc.items() if k != "seconds"}
    if doc.get("fuzz"):
        doc["fuzz"] = {k: v for k, v in doc["fuzz"].items() if k != "seconds"}
    return doc


@pytest.fixture(scope="module")
def mutant_outcome() -> DiagnoseOutcome:
    return diagnose(DiagnoseOptions(EngineSpec(MUTANT), **NARROW))  # type: ignore[arg-type]


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_diagnose_from_python_names_the_cause_and_the_phases_run(mutant_outcome: DiagnoseOutcome) -> None:
    out = mutant_outcome
    d = out.diagnosis
    assert [c.candidate.name for c in d.causes] == ["continuation.drawn_tile_ends_turn = false"]
    assert d.causes[0].candidate.game == "horse-race" and d.unexplained == [] and d.misreadings == []
    assert out.phases == ("suite", "fuzz", "search", "shrink", "verify", "recheck") and out.stopped == "finished"
    assert out.games == ("horse-race",) and out.conforms and out.notes == ()
    assert d.inconsistent == [] and d.requests["recheck"] == 3  # the example: twice, then of a fresh start
    assert d.fuzz["draws"] == 40 and d.requests["suite"] > 0 and d.combined == {
        "horse-race": {"continuation.drawn_tile_ends_turn": False}}
    assert out.to_json()["causes"][0]["shrunk"] == "shrunk"


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_the_cli_and_the_python_entry_point_give_the_same_diagnosis(mutant_outcome: DiagnoseOutcome,
                                                                     tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "fives", "conformance", "diagnose", "--engine", MUTANT, "--json",
                        "--game", "horse-race", "--kind", "turn", "--fuzz", "40", "--seconds", "60",
                        "--out", str(tmp_path / "cli")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert untimed(json.loads(r.stdout)) == untimed(mutant_outcome.to_json())
    notes: list[str] = []
    mutant_outcome.write(tmp_path / "py", note=notes.append)
    # the files but diagnosis.json (its timings) are the same bytes; the lines name the folder
    names = sorted(p.relative_to(tmp_path / "cli").as_posix() for p in (tmp_path / "cli").rglob("*.yaml"))
    assert names == sorted(p.relative_to(tmp_path / "py").as_posix() for p in (tmp_path / "py").rglob("*.yaml"))
    assert "profile.yaml" in names and any(n.startswith("fixtures/DX-") for n in names)
    for n in names:
        assert (tmp_path / "cli" / n).read_bytes() == (tmp_path / "py" / n).read_bytes(), n
    assert [s.replace(str(tmp_path / "py"), "OUT") for s in notes] == \
        [s.replace(str(tmp_path / "cli"), "OUT") for s in r.stderr.splitlines()]
    assert notes[0] == f"the examples: fives conformance run --engine {MUTANT!r} --fixtures {tmp_path / 'py/fixtures'}"


def test_the_budget_gives_each_phase_its_share() -> None:
    b = Budget(100.0)
    assert b.fuzz_seconds == pytest.approx(100.0 * FUZZ_SHARE)
    end = b.end(1000.0)
    assert end == 1100.0
    # the search: its share of what the fuzzer left; the shrinking has the rest, to `end`
    assert b.search_until(end, 1030.0) == pytest.approx(1030.0 + 70.0 * SEARCH_SHARE)
    assert b.search_until(end, 1200.0) == 1200.0  # nothing left: no time for the search
    assert b.worth_extending(end, 1098.0) and not b.worth_extending(end, 1099.5)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_fuzzer_cut_by_the_budget_is_a_note_and_the_stop_reason() -> None:
    from fives.conformance.mutants.registry import all_mutants

    bug = {m.name: m for m in all_mutants()}["drawn-tile-continues"]
    engine = EngineSpec(None, hooks=bug.hooks(), name=bug.name)  # in process: no child to start
    notes: list[str] = []
    out = diagnose(DiagnoseOptions(engine, ("horse-race",), ids=("HR-TURN-*",), fuzz_draws=100_000,
                                   budget=Budget(0.5)), note=notes.append)
    drawn = out.diagnosis.fuzz["draws"]
    assert 0 < drawn < 100_000 and out.stopped == "time" and out.phases[:3] == ("suite", "fuzz", "search")
    assert notes == [f"fives: the fuzzer stopped at the time budget after {drawn} of 100000 draws: give more "
                     "--seconds for the same output every time"] and out.notes == tuple(notes)
