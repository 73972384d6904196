"""Thin causes confirmed by probes before they are named (issue 39, item 2;
fives/conformance/diagnose/thin.py): a rule the search took on fewer than a handful of cases is
asked about in requests its rivals answer differently, and the output says which probe decided."""
from __future__ import annotations

import pytest

from fives.conformance.cases.fixtures import load_cases
from fives.conformance.diagnose import diagnosis as dx
from fives.conformance.diagnose.thin import BASE, HANDFUL, probe_thin
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.runner import run_cases
from fives.profiles import make_profile

HR = "horse-race"
RULE = 'match_end.simultaneous_winners = "highest"'


def _diagnosed() -> tuple[list, dx.Diagnosis]:
    engine = ReferenceEngine(profile=make_profile(HR, {"match_end.simultaneous_winners": "highest"}))
    cases = [c for c in load_cases() if c.game == HR and c.profile is None and "slow" not in c.tags
             and c.kind == "match-end"]
    results = run_cases(engine, cases)
    return results, dx.diagnose(results, [HR], mutants=False)


@pytest.mark.slow  # 3-5 s: an in-process diagnosis of the match-end cases
def test_a_thin_cause_the_engine_plays_is_confirmed_and_the_deciding_probe_named() -> None:
    _, d = _diagnosed()
    (cause,) = d.causes
    assert cause.candidate.name == RULE and len(cause.explained) < HANDFUL
    engine = ReferenceEngine(profile=make_profile(HR, {"match_end.simultaneous_winners": "highest"}))
    assert probe_thin(d, engine, seed=0) == []  # confirmed: nothing for the search to run again on
    line = d.confirmed[RULE]
    assert line.startswith(f"  confirmed by probes: it rests on {len(cause.explained)} case(s)")
    assert f"the engine answered nearest {RULE} in 3; decided by PROBE-HR-match-end-" in line
    assert line in dx.lines(d) and dx.to_json(d)["causes"][0]["probed"] == line.strip()
    assert d.requests["shrink"] == 3


@pytest.mark.slow  # 3-5 s: an in-process diagnosis of the match-end cases
def test_a_thin_cause_the_probes_contradict_is_not_named() -> None:
    # the suite's cases answered as "highest" plays, every other request as the seeds' rules:
    # a coincidence of two cases, not the engine's rule
    results, d = _diagnosed()
    contrary = probe_thin(d, ReferenceEngine(), seed=0)
    assert len(contrary) == 3 and all(r.status == "passed" for r in contrary)  # the base's answers
    assert d.confirmed[RULE].startswith("  not confirmed by probes:")
    assert f"nearest {BASE} in 3" in d.confirmed[RULE]
    again = dx.diagnose(results, [HR], mutants=False, extra=contrary)
    assert again.causes == [] and sum(g.count for g in again.unexplained) == len(d.causes[0].explained)
