"""The fuzzing session from Python (fives/conformance/sessions/fuzz.py), and the engine of
`conformance fuzz` built as every other command builds one (engines/handle.py EngineSpec)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fives.conformance.engines.handle import EngineSpec
from fives.conformance.sessions.fuzz import FuzzOptions, fuzz, write_findings

ROOT = Path(__file__).resolve().parents[1]


def test_fuzz_from_python_finds_the_mutant_and_writes_its_fixture(tmp_path: Path) -> None:
    from fives.conformance.mutants.registry import all_mutants

    bug = {m.name: m for m in all_mutants()}["blocked-draw-keeps-turn"]
    options = FuzzOptions(EngineSpec(None, hooks=bug.hooks(), name=bug.name), ("horse-race",), ("turn",), cases=60,
                          seed=1)
    report = fuzz(options)
    assert report.draws == 60 and not report.interrupted and report.engine_errors == []
    # the draw that blocks the hand ends it and the turn (it was filed under HR-CONT-3, issue 37)
    assert {f.clause for f in report.findings} == {"HR-END-1"}
    paths = write_findings(report, tmp_path / "out", options)
    assert sorted(paths) == sorted(f.id for f in report.findings)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(f"{f.id}.yaml" for f in report.findings)


@pytest.mark.parametrize("command,why", [("", "empty engine command"),
                                         ("'abc", "cannot parse the engine command: No closing quotation")])
def test_an_engine_command_that_cannot_be_parsed_is_one_line_exit_3(tmp_path: Path, command: str, why: str) -> None:
    # it was a traceback (exit 1): the driver was built outside the start's error handling
    r = subprocess.run([sys.executable, "-m", "fives", "conformance", "fuzz", "--engine", command, "--cases", "1",
                        "--out", str(tmp_path / "out")], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout, r.stderr) == (3, "", f"fives: error: engine {command!r}: {why}\n")
