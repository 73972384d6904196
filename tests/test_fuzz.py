"""`fives conformance fuzz`: finds, shrinks and writes mutants' disagreements; none for the reference."""
from __future__ import annotations

import subprocess
import sys

import pytest
import yaml

from fives.conformance.drivers import ReferenceEngine
from fives.conformance.fixtures import load_cases
from fives.conformance.fuzz import Fuzzer
from fives.conformance.fuzz.oracle import diff_key, signature
from fives.conformance.fuzz.output import write_findings
from fives.conformance.kinds import load_kinds
from fives.conformance.mutants import all_mutants
from fives.support.paths import ROOT
from fives.conformance.runner import run_cases

MUTANTS = {m.name: m for m in all_mutants()}


def fuzz(name: str | None, cases: int, **kw) -> object:
    engine = ReferenceEngine(MUTANTS[name].hooks(), name=name) if name else ReferenceEngine()
    return Fuzzer(engine, seed=kw.pop("seed", 1), **kw).run(cases=cases)


@pytest.mark.parametrize("name,game,cases", [("opening-double-counted-twice", "american-sniff", 100),
                                             ("remainder-2-rounds-up", "american-sniff", 100),
                                             ("drawn-tile-continues", "horse-race", 200)])
def test_a_mutant_is_found_shrunk_and_its_fixture_fails_it_and_passes_the_reference(tmp_path, name, game, cases):
    m = MUTANTS[name]
    report = fuzz(name, cases, games=[game])
    hits = [f for f in report.findings if f.clause == m.clause]
    assert hits, [(f.clause, f.keys) for f in report.findings]
    best = min(hits, key=lambda f: f.size["placements"])
    assert best.size["placements"] <= 4
    assert best.size["placements"] <= best.original_size["placements"]
    paths = write_findings(report.findings, tmp_path, 1)
    assert sorted(p.name for p in paths) == sorted(f"{f.id}.yaml" for f in report.findings)
    cases_ = load_cases([tmp_path])
    case = next(c for c in cases_ if c.id == best.id)
    assert case.clauses[0] == m.clause
    kinds = load_kinds()
    assert run_cases(ReferenceEngine(m.hooks(), name=name), [case], kinds)[0].status == "failed"
    assert run_cases(ReferenceEngine(), [case], kinds)[0].status == "passed"


def test_opening_double_shrinks_to_the_lone_double():
    report = fuzz("opening-double-counted-twice", 100, kinds=["evaluate"], games=["american-sniff"])
    f = next(f for f in report.findings if f.game == "american-sniff")
    assert f.clause == "SN-COUNT-2" and f.keys == ("count",)
    assert len(f.input["placements"]) == 1
    tile = f.input["placements"][0]["tile"]
    assert tile[1] == tile[3]  # a double
    assert f.expected["sum"] * 2 == f.actual["sum"]


def test_the_reference_agrees_with_itself():
    report = fuzz(None, 150)
    assert report.findings == []
    assert report.draws == 150 and report.requests == 150


def test_same_seed_same_findings_and_bytes(tmp_path):
    a = fuzz("remainder-2-rounds-up", 120, seed=3)
    b = fuzz("remainder-2-rounds-up", 120, seed=3)
    assert [f.id for f in a.findings] == [f.id for f in b.findings]
    pa = write_findings(a.findings, tmp_path / "a", 3)
    pb = write_findings(b.findings, tmp_path / "b", 3)
    assert [p.read_bytes() for p in pa] == [p.read_bytes() for p in pb]


def test_kind_filter_draws_only_that_kind():
    report = fuzz("remainder-2-rounds-up", 80, kinds=["settle"])
    assert report.findings and {f.kind for f in report.findings} == {"settle"}
    assert all(f.size["placements"] == 0 for f in report.findings)


def test_signature_drops_indices_and_groups_evaluate_counts():
    assert diff_key("turn", "results[3].continues: expected false, got true") == "results[].continues"
    assert diff_key("evaluate", "sum: expected 5, got 10") == "count"
    assert diff_key("evaluate", "contributions: missing x; unexpected y") == "count"
    assert diff_key("evaluate", "error.code: expected \"a\", got \"b\"") == "error.code"
    assert signature("evaluate", ["unexpected error {}", "engine error: boom"]) == ("engine-error", "error:unexpected")


def test_cli_writes_fixtures_that_run(tmp_path):
    out = tmp_path / "found"
    cmd = [sys.executable, "-m", "fives.cli", "conformance", "fuzz", "--engine",
           f"{sys.executable} -m fives.cli serve --mutant remainder-3-rounds-down", "--kind", "settle",
           "--game", "horse-race", "--cases", "40", "--seed", "2", "--out", str(out)]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert p.returncode == 1, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0].startswith("HR-SETTLE-4 (Rounding to the nearest 5): FUZZ-HR-settle-")
    assert "disagreement" in lines[-1] and "requests drawn" in lines[-1]
    files = sorted(out.glob("*.yaml"))
    assert files and yaml.safe_load(files[0].read_text())["format"] == "fives-fixtures/1"
    run = [sys.executable, "-m", "fives.cli", "conformance", "run", "--fixtures", str(out)]
    ok = subprocess.run(run, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = subprocess.run(run + ["--engine", f"{sys.executable} -m fives.cli serve --mutant remainder-3-rounds-down"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1


@pytest.mark.parametrize("args,message", [
    (["--game", "chess"], "--game chess: unknown game"),
    (["--kind", "perft"], "--kind perft: the fuzzer makes no such requests"),
    (["--cases", "3", "--seconds", "2"], "give --cases or --seconds, not both"),
])
def test_bad_options_are_one_line_exit_2(tmp_path, args, message):
    cmd = [sys.executable, "-m", "fives.cli", "conformance", "fuzz", "--engine", "true", "--out", str(tmp_path), *args]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2
    assert message in p.stderr and len(p.stderr.strip().splitlines()) == 1


class InterruptedEngine(ReferenceEngine):
    """A mutant engine whose user presses Ctrl-C at its `at`-th request."""

    def __init__(self, name: str, at: int) -> None:
        super().__init__(MUTANTS[name].hooks(), name=name)
        self.at, self.calls = at, 0

    def run(self, case):
        self.calls += 1
        if self.calls == self.at:
            raise KeyboardInterrupt
        return super().run(case)


def test_ctrl_c_mid_shrink_keeps_the_smallest_request_so_far():
    # how many requests the run takes to reach the first disagreement, and its full shrink
    full = Fuzzer(InterruptedEngine("remainder-2-rounds-up", 10**9), games=["american-sniff"], kinds=["settle"],
                  seed=1).run(cases=30)
    first = full.findings[0]
    engine = InterruptedEngine("remainder-2-rounds-up", first.draw + 2)  # the second shrink request
    report = Fuzzer(engine, games=["american-sniff"], kinds=["settle"], seed=1).run(cases=30)
    assert report.interrupted and len(report.findings) == 1
    f = report.findings[0]
    assert f.keys == first.keys and f.draw == first.draw
    assert first.size["hand_tiles"] <= f.size["hand_tiles"] <= f.original_size["hand_tiles"]
