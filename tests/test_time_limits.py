"""Per-case time limits that fit the work (spec/protocol.md, "Time limits"), and the slow cases
the reports name (spec/reports.md, "Slow cases"): the limit function, the reports with and
without slow cases, and a deliberately slow engine passing the default run."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from fives.conformance.cases.fixtures import Case
from fives.conformance.cases.kinds import STEPS_PER_BASE
from fives.conformance.cases.kinds.perft import NODES_PER_BASE
from fives.conformance.cases.selection import CaseFilters, load_selection
from fives.conformance.engines.drivers import Handshake, Outcome, ReferenceEngine
from fives.conformance.engines.limits import NO_LIMIT, scale_of, time_limit
from fives.conformance.engines.process import DEFAULT_TIMEOUT
from fives.conformance.reports.formats import human, to_json
from fives.conformance.reports.slow import HEADING, SLOW_LINES, slow_cases
from fives.conformance.runner import CaseResult

SLOW_ENGINE = Path(__file__).parent / "slow_perft_engine.py"
#: the slow engine's perft speed, nodes a second: the deepest default row (162,640 nodes) takes
#: it about 10.8 s, past a flat 10 s limit
RATE = 15_000
HANDSHAKE = Handshake("test-engine", "1", "python", ["horse-race"], ["perft", "evaluate"])


def perft_case(nodes: object, cid: str = "PERFT-x-D4") -> Case:
    return Case(cid, "perft", "horse-race", ("HR-PLACE-1",), {}, {"depth": 4, "placements": []},
                {"nodes": nodes, "points": 0}, "perft.yaml")


def evaluate_case(placements: int) -> Case:
    return Case("EV-1", "evaluate", "horse-race", ("HR-COUNT-1",), {},
                {"placements": [{"tile": "[0|0]"}] * placements}, {"count": 0}, "ev.yaml")


def test_an_ordinary_case_keeps_the_base_exactly() -> None:
    assert time_limit(perft_case(NODES_PER_BASE), 10.0) == 10.0
    assert time_limit(perft_case(28), 0.25) == 0.25
    assert time_limit(evaluate_case(STEPS_PER_BASE), 10.0) == 10.0
    settle = Case("S-1", "settle", "horse-race", (), {}, {"scores": [0, 0]}, {}, "s.yaml")
    assert time_limit(settle, 7.0) == 7.0


def test_a_perft_row_scales_with_its_expected_nodes() -> None:
    assert scale_of(perft_case(162_640)) == pytest.approx(3.2528)
    assert time_limit(perft_case(162_640), 10.0) == 32.5
    assert time_limit(perft_case(190_528_800), 10.0) == 38105.8  # depth 7, --slow: ~10.6 hours
    # an explicit --timeout is the base the scale multiplies
    assert time_limit(perft_case(162_640), 4.0) == 13.0
    assert time_limit(perft_case(100_000), 1.0) == 2.0


def test_play_and_evaluate_cases_scale_with_their_length() -> None:
    assert time_limit(evaluate_case(250), 10.0) == 25.0
    turn = Case("T-1", "turn", "horse-race", (), {}, {"layout": [{}] * 100, "actions": [{}] * 200}, {}, "t.yaml")
    assert time_limit(turn, 10.0) == 30.0
    match_end = Case("M-1", "match-end", "horse-race", (), {}, {"hands": [{}] * 150}, {}, "m.yaml")
    assert time_limit(match_end, 2.0) == 3.0


def test_no_limit_stays_no_limit_and_odd_cases_are_ordinary() -> None:
    assert time_limit(perft_case(10**9), None) is None
    assert time_limit(perft_case(10**9), 0.0) is None
    assert time_limit(perft_case(10**9), NO_LIMIT) == NO_LIMIT
    assert time_limit(perft_case(10**30), 10.0) == NO_LIMIT  # a huge claim: capped, still finite
    for odd in ("many", -5, True, None, 2.5e6):
        assert time_limit(perft_case(odd), 10.0) == 10.0, odd
    bisect_request = Case("bisect-1", "perft", "horse-race", (), {}, {"depth": 3}, {}, "bisect")
    assert time_limit(bisect_request, 120.0) == 120.0
    weird = Case("EV-2", "evaluate", "horse-race", (), {}, {"placements": "not a list"}, {}, "ev.yaml")
    assert time_limit(weird, 10.0) == 10.0


def test_every_default_case_is_ordinary_but_the_deep_perft_rows() -> None:
    cases = load_selection(None, CaseFilters((), (), (), (), False)).cases
    scaled = {c.id: time_limit(c, DEFAULT_TIMEOUT) for c in cases if time_limit(c, DEFAULT_TIMEOUT) != 10.0}
    assert scaled == {"PERFT-american-sniff-seed-layout-D4": 25.9, "PERFT-american-sniff-filled-spinner-D4": 31.2,
                      "PERFT-horse-race-filled-spinner-D4": 32.5}


def test_the_reference_engine_runs_under_the_scaled_limit() -> None:
    engine = ReferenceEngine(timeout=2.0, slow_timeout=None)
    try:
        cases = {c.id: c for c in load_selection(None, CaseFilters((), (), ("perft",), (), False)).cases}
        deep = engine.run(cases["PERFT-horse-race-filled-spinner-D4"])
        assert deep.status == "ok" and deep.limit == 6.5
        assert engine.run(cases["PERFT-horse-race-empty-D1"]).limit == 2.0
    finally:
        engine.close()


# -- slow cases in the reports ---------------------------------------------------------------

def result(cid: str, seconds: float, limit: float | None, status: str = "passed") -> CaseResult:
    case = perft_case(1000, cid)
    return CaseResult(case, status, outcome=Outcome("ok" if status == "passed" else "error", {"nodes": 1000, "points": 0},
                                                    seconds=seconds, limit=limit))


def test_no_slow_case_leaves_every_report_as_it_was() -> None:
    quick = [result("A", 0.01, 10.0), result("B", 4.9, 10.0), result("C", 300.0, None)]
    plain = [CaseResult(r.case, r.status, outcome=Outcome("ok", r.outcome.answer, seconds=r.outcome.seconds))
             for r in quick]
    assert slow_cases(quick) == []
    assert human(quick, HANDSHAKE, clauses={}, verbosity=0) == human(plain, HANDSHAKE, clauses={}, verbosity=0)
    assert "slow" not in human(quick, HANDSHAKE, clauses={}, verbosity=1)
    assert to_json(quick, HANDSHAKE) == to_json(plain, HANDSHAKE)
    assert "slow_cases" not in json.loads(to_json(quick, HANDSHAKE))


def test_slow_cases_are_named_closest_to_their_limit_first() -> None:
    rs = [result("QUICK", 1.0, 10.0), result("HALF", 5.0, 10.0), result("CLOSE", 29.0, 32.5),
          result("OUT", 10.02, 10.0, "errored")]
    text = human(rs, HANDSHAKE, clauses={}, verbosity=0)
    lines = text.splitlines()
    at = lines.index(HEADING)
    assert lines[at + 1:at + 4] == ["  OUT    10.0s of 10s (100%) (ran out)", "  CLOSE  29.0s of 32.5s (89%)",
                                    "  HALF   5.0s of 10s (50%)"]
    assert lines[at + 4] == lines[-1] == "3 passed, 0 failed, 1 errored, 0 skipped"
    assert "slow" not in human(rs, HANDSHAKE, clauses={}, verbosity=-1)  # -q: the final line alone
    doc = json.loads(to_json(rs, HANDSHAKE))
    assert doc["slow_cases"] == [{"id": "OUT", "seconds": 10.02, "limit": 10.0, "share": 1.002},
                                 {"id": "CLOSE", "seconds": 29.0, "limit": 32.5, "share": 0.892},
                                 {"id": "HALF", "seconds": 5.0, "limit": 10.0, "share": 0.5}]
    assert [c["id"] for c in doc["cases"]] == ["QUICK", "HALF", "CLOSE", "OUT"]  # the cases' own keys unchanged
    assert set(doc["cases"][0]) == set(json.loads(to_json([result("QUICK", 1.0, 10.0)], HANDSHAKE))["cases"][0])


def test_many_slow_cases_are_cut_short_in_the_summary_only() -> None:
    rs = [result(f"S{i:02d}", 6.0 + i / 10, 10.0) for i in range(SLOW_LINES + 3)]
    lines = human(rs, HANDSHAKE, clauses={}, verbosity=0).splitlines()
    at = lines.index(HEADING)
    assert lines[at + 1].startswith("  S12  7.2s of 10s (72%)")
    assert lines[at + SLOW_LINES + 1] == "  ... and 3 more (--report json lists every one)"
    assert len(json.loads(to_json(rs, HANDSHAKE))["slow_cases"]) == SLOW_LINES + 3


# -- a slow engine passes the default run ----------------------------------------------------

@pytest.mark.slow
def test_a_slow_engine_passes_the_default_perft_run(tmp_path: Path) -> None:
    cases = load_selection(None, CaseFilters((), (), ("perft",), (), False)).cases
    deepest = max(c.expect["nodes"] for c in cases)
    assert deepest / RATE > DEFAULT_TIMEOUT  # a flat 10 s limit would error the deepest rows
    command = shlex.join([sys.executable, str(SLOW_ENGINE), "--rate", str(RATE)])
    report = tmp_path / "r.json"
    run = subprocess.run([sys.executable, "-m", "fives", "conformance", "run", "--engine", command, "--kind", "perft",
                          "--jobs", "4", "--report", f"json:{report}"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == f"{len(cases)} passed, 0 failed, 0 errored, 0 skipped"
    doc = json.loads(report.read_text())
    slowest = max(doc["cases"], key=lambda c: c["seconds"])
    assert slowest["id"] == "PERFT-horse-race-filled-spinner-D4" and slowest["seconds"] > DEFAULT_TIMEOUT
    # each case used under half its limit: the run names no slow case
    assert "slow_cases" not in doc and HEADING not in run.stdout


@pytest.mark.slow
def test_a_slow_engine_under_an_explicit_timeout_is_named_slow(tmp_path: Path) -> None:
    command = shlex.join([sys.executable, str(SLOW_ENGINE), "--rate", str(RATE)])
    report = tmp_path / "r.json"
    run = subprocess.run([sys.executable, "-m", "fives", "conformance", "run", "--engine", command, "--timeout", "4",
                          "--id", "PERFT-horse-race-filled-spinner-D4", "--id", "PERFT-horse-race-filled-spinner-D1",
                          "--report", f"json:{report}"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[-3] == HEADING
    assert re.fullmatch(r"  PERFT-horse-race-filled-spinner-D4  1\d\.\ds of 13s \([89]\d%\)", lines[-2]), lines[-2]
    assert lines[-1] == "2 passed, 0 failed, 0 errored, 0 skipped"
    (slow,) = json.loads(report.read_text())["slow_cases"]
    assert slow["id"] == "PERFT-horse-race-filled-spinner-D4" and slow["limit"] == 13.0 and 0.8 < slow["share"] < 1.0
