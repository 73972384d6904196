"""The suite must catch every classic misreading, and pass the reference through the protocol."""
from __future__ import annotations

import subprocess
import sys

import pytest

from fives.conformance.cases.fixtures import load_cases
from fives.conformance.mutants.registry import all_mutants, run_mutant
from fives.support.paths import FIXTURES, ROOT

CASES = load_cases([FIXTURES])  # hand-written and seed fixtures: each mutant must die here already
MUTANTS = all_mutants()


def test_at_least_fifteen_distinct_mutants():
    assert len(MUTANTS) >= 15
    assert len({m.name for m in MUTANTS}) == len(MUTANTS)


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_every_mutant_is_killed_by_the_fixtures(mutant):
    result = run_mutant(mutant, CASES, via_protocol=False, timeout=10)
    assert result.killed, f"{mutant.name} survived {result.ran} cases"
    # a mutant must answer wrongly, not crash: killers are failures, not errors
    assert any(k.status == "failed" for k in result.killers)


def _fives(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fives.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_reference_passes_everything_through_the_protocol():
    p = _fives("conformance", "run", "--engine", f"{sys.executable} -m fives.cli serve", "--validate",
               "--fixtures", str(FIXTURES))
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    last = p.stdout.strip().splitlines()[-1]
    assert last == f"{len(CASES)} passed, 0 failed, 0 errored, 0 skipped"


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_mutants_command_through_the_protocol_exits_0_when_all_killed():
    p = _fives("conformance", "mutants", "--mutant", "partners-merged", "--mutant", "later-doubles-spin",
               "--fixtures", str(FIXTURES))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "2 mutants, 2 killed, 0 survived" in p.stdout + p.stderr
    assert "SN-SETTLE-EX-01" in p.stdout  # the seed's 7 and 12 example kills the merged-partners reading


def test_a_surviving_mutant_fails_the_command(tmp_path):
    # against the layout fixtures only, a settlement misreading cannot be caught
    p = _fives("conformance", "mutants", "--mutant", "partners-merged", "--in-process",
               "--fixtures", str(FIXTURES / "seed"))
    assert p.returncode == 1
    assert "SURVIVED" in p.stdout and "1 survived: partners-merged" in p.stdout + p.stderr
