"""Check the answer before claiming it (issue 39 item 7, fives/conformance/diagnose/verify.py): the
engine is fuzzed under the inferred profile before the profile is reported; a disagreement is a
result judged against the base, for the search to run again with."""
from __future__ import annotations

from fives.conformance.cases.fixtures import Case
from fives.conformance.diagnose import diagnosis as dx
from fives.conformance.diagnose.search import Candidate
from fives.conformance.diagnose.checked import lines
from fives.conformance.diagnose.verify import check
from fives.conformance.engines.drivers import Outcome, ReferenceEngine
from fives.conformance.runner import CaseResult
from fives.profiles import make_profile

SN = "american-sniff"


def _diagnosis(target: dict[int, int]) -> dx.Diagnosis:
    cand = Candidate(f"target.raw = {target}", SN, ("SN-TARGET-1",), {"target.raw": target}, path="target.raw")
    ex = CaseResult(Case("x", "setup", SN, (), {}, {"players": 2}, {}, "t"), "failed", ["d"], Outcome("ok", {}))
    return dx.Diagnosis([dx.Cause(cand, [ex], ex)], [], 1, 0, 1, 0.0, combined={SN: {"target.raw": target}})


def test_a_profile_the_engine_does_not_play_is_found_wrong_by_the_check() -> None:
    engine = ReferenceEngine(profile=make_profile(SN, {"target.raw": {2: 150}}))
    d = _diagnosis({2: 200, 3: 200, 4: 200})  # what some match ends would say: at most 200
    found = check(d, engine, [SN], 0, 150, 60.0, ["match-end", "setup"])
    assert found and d.verified[SN]["disagreements"] == len(found) and d.verified[SN]["rounds"] == 1
    # judged against the base (the seeds): a failure there, or a passing case the profile broke
    assert {r.status for r in found} <= {"failed", "passed"} and all(r.case.id.startswith("CHECK-SN-") for r in found)
    assert lines(d)[0].endswith("disagreed with it in the last check: it does not explain the engine")


def test_the_profile_the_engine_plays_is_confirmed() -> None:
    engine = ReferenceEngine(profile=make_profile(SN, {"target.raw": {2: 150}}))
    d = _diagnosis({2: 150, 3: 200, 4: 200})
    assert check(d, engine, [SN], 0, 150, 60.0, ["match-end", "setup"]) == []
    assert d.verified[SN]["disagreements"] == 0 and d.verified[SN]["draws"] == 150
    assert lines(d) == [f"checked: the inferred {SN} profile against 150 request(s) drawn under it "
                        f"({d.verified[SN]['requests']} sent, 1 check(s)): none disagreed"]
