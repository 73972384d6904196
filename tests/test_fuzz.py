"""`fives conformance fuzz`: finds, shrinks and writes mutants' disagreements; none for the reference."""
from __future__ import annotations

import subprocess
import sys

import pytest
import yaml

from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.cases.fixtures import load_cases
from fives.conformance.fuzz import Fuzzer
from fives.conformance.fuzz.oracle import diff_key, signature
from fives.conformance.fuzz.output import write_findings
from fives.conformance.mutants.registry import all_mutants
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
    assert run_cases(ReferenceEngine(m.hooks(), name=name), [case])[0].status == "failed"
    assert run_cases(ReferenceEngine(), [case])[0].status == "passed"


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


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
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
    (["--kind", "castle"], "--kind castle: the fuzzer makes no such requests"),
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


class CrashingEngine(ReferenceEngine):
    """The reference, except that it crashes on every `turn` request and times out on every
    `evaluate` of more than 3 placements."""

    def run(self, case):
        from fives.conformance.engines.drivers import Outcome
        if case.kind == "turn":
            return Outcome("error", message="engine closed its input (exit code -11)")
        if case.kind == "evaluate" and isinstance(case.input.get("placements"), list) \
                and len(case.input["placements"]) > 3:
            return Outcome("error", message="no reply within 10s (engine killed and restarted)")
        return super().run(case)


def test_engine_errors_are_engine_errors_not_rule_findings():
    report = Fuzzer(CrashingEngine(), seed=1).run(cases=120)
    assert report.findings == []  # the rules are the reference's: no rule finding at all
    classes = {(e.kind, e.what) for e in report.engine_errors}
    assert classes == {("turn", "crash"), ("evaluate", "timeout")}
    assert all(e.requests_to_find >= 1 and e.seconds_to_find >= 0 for e in report.engine_errors)
    from fives.conformance.fuzz.output import engine_error_lines, summary
    lines = engine_error_lines(report)
    assert any(ln.startswith("engine error (crash): ") and "turn request" in ln for ln in lines)
    assert "engine error" in summary(report) and "0 disagreements" in summary(report)


class OpeningRefuser(ReferenceEngine):
    """An engine with a house rule: only a double may open (every other opening is refused)."""

    def run(self, case):
        from fives.conformance.engines.drivers import Outcome
        out = super().run(case)
        placements = case.input.get("placements") if case.kind == "evaluate" else None
        if isinstance(placements, list) and placements and isinstance(placements[0], dict):
            tile = str(placements[0].get("tile", ""))
            if len(tile) == 5 and tile[1] != tile[3] and out.status == "ok" and "error" not in out.answer:
                return Outcome("ok", answer={"error": {"index": 0, "code": "value-mismatch", "message": "no"}})
        return out


def test_a_refused_legal_opening_breaks_the_opening_clause():
    report = Fuzzer(OpeningRefuser(), seed=1, kinds=["evaluate"]).run(cases=60)
    clauses = {f.clause for f in report.findings}
    assert clauses == {"SN-LEAD-2", "HR-LEAD-2"}, [(f.clause, f.keys) for f in report.findings]
    # one finding per cause: the refusal shows in many signatures, each game files it once
    assert len(report.findings) == 2
    assert all(len(f.input["placements"]) == 1 for f in report.findings)


def test_a_refused_opening_in_a_turn_is_not_a_continuation_finding():
    from fives.conformance.fuzz.attribute import broken_clause
    from fives.rules import load_rules
    rules = load_rules("horse-race")
    inp = {"players": 2, "layout": [], "hands": [["[1|2]"], ["[3|4]"]], "seat": 0, "actions": [
        {"action": "place", "tile": "[1|2]"}]}
    expected = {"results": [{"action": "place", "seat": 0, "tile": "[1|2]", "sum": 3, "raw": 0}], "next_seat": 1}
    actual = {"results": [], "error": {"index": 0, "code": "value-mismatch"}, "next_seat": 0}
    keys = ("error:unexpected", "next_seat", "results")
    assert broken_clause(rules, "turn", inp, expected, actual, keys, (), ["HR-DRAW-1"]) == "HR-LEAD-2"
    actual = {"results": [], "error": {"index": 0, "code": "must-place"}}
    draw = {**inp, "layout": [{"tile": "[5|6]"}], "actions": [{"action": "draw"}]}
    assert broken_clause(rules, "turn", draw, {"results": [{"action": "draw"}]}, actual, keys, (), ["HR-DRAW-1"]) \
        == "HR-DRAW-2"


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_the_fuzzer_covers_setup_next_leader_legal_placements_and_input_forms():
    f = Fuzzer(ReferenceEngine(), seed=1)
    drawn = [f.draw(i) for i in range(400)]
    kinds = {case["kind"] for _, _, case in drawn}
    assert {"setup", "next-leader", "legal-placements", "evaluate", "turn", "settle", "match-end"} <= kinds
    forms = [case for _, name, case in drawn if name == "input-forms"]
    assert forms and any(isinstance(p.get("tile"), str) and "-" in p["tile"]
                         for c in forms for p in c["input"]["placements"] if isinstance(p, dict))
    report = f.run(cases=400)
    assert report.findings == [] and report.engine_errors == []


def test_findings_record_requests_and_seconds_to_find():
    report = fuzz("drawn-tile-continues", 200, games=["horse-race"])
    assert report.findings
    for f in report.findings:
        assert 1 <= f.requests_to_find <= report.requests
        assert 0 <= f.seconds_to_find <= report.seconds
        assert f"found after {f.requests_to_find} engine requests" in f.case(1)["source"]["derived"]
    causes = [f.cause for f in report.findings]
    assert len(causes) == len(set(causes))


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("script,what", [("crash.py", "crash"), ("garbage.py", "garbage")])
def test_cli_reports_a_crashing_engine_as_engine_errors(tmp_path, script, what):
    engine = f"{sys.executable} {ROOT / 'tests' / 'hostile_engines' / script} --at 7"
    cmd = [sys.executable, "-m", "fives.cli", "conformance", "fuzz", "--engine", engine, "--cases", "30",
           "--seed", "1", "--out", str(tmp_path / "out")]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert p.returncode == 1, p.stderr
    assert "differs in engine-error" not in p.stdout and "Traceback" not in p.stderr
    errors = [ln for ln in p.stdout.splitlines() if ln.startswith("engine error (")]
    assert errors and all(ln.startswith(f"engine error ({what}): ") for ln in errors), p.stdout
    assert "0 disagreements in 0 clauses" in p.stdout.splitlines()[-1] and "engine error" in p.stdout.splitlines()[-1]
    assert not list((tmp_path / "out").glob("*.yaml"))  # nothing filed as a rule finding
