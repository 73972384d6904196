"""The suite must catch every classic misreading, and pass the reference through the protocol."""
from __future__ import annotations

import subprocess
import sys

import pytest

from fives.conformance.cases.fixtures import load_cases
from fives.conformance.mutants.registry import all_mutants, run_mutant
from fives.support.paths import CONFORMANCE, FIXTURES, ROOT

CASES = load_cases([FIXTURES])  # hand-written and seed fixtures: each mutant must die here already
#: perft's last ply is read only by perft: that mutant must die in the perft table
PERFT_CASES = [c for c in load_cases([CONFORMANCE / "perft"]) if "slow" not in c.tags]
PERFT_ONLY = {"perft-same-value-positions-once"}
MUTANTS = all_mutants()


def test_at_least_fifteen_distinct_mutants():
    assert len(MUTANTS) >= 15
    assert len({m.name for m in MUTANTS}) == len(MUTANTS)


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_every_mutant_is_killed_by_the_fixtures(mutant):
    result = run_mutant(mutant, PERFT_CASES if mutant.name in PERFT_ONLY else CASES, via_protocol=False, timeout=10)
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


# -- the session: `kill_matrix`, the entry point behind `conformance mutants` -----------------
def test_kill_matrix_in_process_names_the_killers() -> None:
    from fives.conformance.sessions.mutants import MutantsOptions, kill_matrix, matrix_text, summary

    seen: list[str] = []
    matrix = kill_matrix(MutantsOptions(("later-doubles-spin", "partners-merged"), (FIXTURES,), in_process=True),
                         on_progress=lambda r: seen.append(r.mutant.name))
    # registry order, whatever order the names were given in
    assert [r.mutant.name for r in matrix.results] == ["later-doubles-spin", "partners-merged"] == seen
    assert all(r.killed and r.ran == len(CASES) for r in matrix.results)
    assert not matrix.interrupted and matrix.not_run == 0 and matrix.survivors == []
    killers = {r.mutant.name: [k.case.id for k in r.killers] for r in matrix.results}
    assert "SN-SETTLE-EX-01" in killers["partners-merged"]  # the seed's 7 and 12 example
    assert summary(matrix) == "2 mutants, 2 killed, 0 survived"
    text = matrix_text(matrix, show=1).splitlines()
    assert text[0].startswith(f"KILLED by {len(killers['later-doubles-spin']):4d}  later-doubles-spin ")
    assert text[1].startswith(f"      {killers['later-doubles-spin'][0]} ")


def test_kill_matrix_json_is_the_commands() -> None:
    from fives.conformance.sessions.mutants import MutantsOptions, kill_matrix, matrix_json

    p = _fives("conformance", "mutants", "--mutant", "partners-merged", "--in-process", "--json",
               "--fixtures", str(FIXTURES / "seed"))
    matrix = kill_matrix(MutantsOptions(("partners-merged",), (FIXTURES / "seed",), in_process=True))
    assert p.returncode == 1 and matrix.survivors == ["partners-merged"]
    assert p.stdout == matrix_json(matrix) + "\n"
    assert p.stderr.endswith("1 mutant, 0 killed, 1 survived: partners-merged\n")


def test_an_unknown_mutant_is_refused_before_anything_runs() -> None:
    from fives.conformance.sessions.mutants import MutantsOptions, kill_matrix
    from fives.support.errors import UserError

    with pytest.raises(UserError, match="unknown mutant 'no-such'"):
        kill_matrix(MutantsOptions(("no-such",)))


def test_a_mutant_is_an_engine_spec() -> None:
    from fives.conformance.mutants.registry import mutant_spec

    m = next(m for m in MUTANTS if m.name == "partners-merged")
    spec = mutant_spec(m, via_protocol=True, timeout=7)
    assert spec.command == f"{sys.executable} -m fives.cli serve --mutant partners-merged" and spec.timeout == 7
    spec = mutant_spec(m, via_protocol=False, timeout=7)
    assert spec.command is None and spec.label == "partners-merged" and spec.hooks
    engine = spec.open()
    assert engine.handshake.name == "partners-merged" and engine.timeout == 7
