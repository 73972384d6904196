"""Every bug cluster shrunk (issue 39, item 5): a cluster of a kind the fuzzer's shrinker leaves
as it is (a tally, a setup) gets a minimal case diagnose made smaller by its own numbers
(fives/conformance/diagnose/small_kinds.py), not the suite's own case."""
from __future__ import annotations

from fives.conformance.cases.fixtures import load_cases
from fives.conformance.diagnose import diagnosis as dx
from fives.conformance.diagnose.small_kinds import candidates
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.mutants.registry import all_mutants
from fives.conformance.runner import run_cases


def test_smaller_tallies_come_smallest_first_on_the_games_step() -> None:
    sn = ReferenceEngine().rules_for("american-sniff")
    assert [c["score"] for c in candidates("tally", {"score": -15}, sn)] == [0, -5, 5, -10, 10]
    hr = ReferenceEngine().rules_for("horse-race")
    got = list(candidates("tally", {"score": 3, "players": 4}, hr))
    # fewer players first (each with every smaller score, then its own), then the score alone
    assert got[:4] == [{"score": 0, "players": 2}, {"score": 1, "players": 2}, {"score": -1, "players": 2},
                       {"score": 2, "players": 2}]
    assert got[-1] == {"score": -2, "players": 4} and {"score": 3, "players": 4} not in got
    assert list(candidates("setup", {"players": 4, "partnerships": True}, hr)) == [
        {"players": 2, "partnerships": True}, {"players": 3, "partnerships": True},
        {"players": 4, "partnerships": False}]
    assert list(candidates("next-leader", {"players": 4, "previous": None}, hr)) == []


def test_a_tally_cluster_gets_a_smaller_case_than_the_suites() -> None:
    from fives.conformance.diagnose.probe import shrink_examples

    bug = {m.name: m for m in all_mutants()}["negative-tally-as-zero"]
    engine = ReferenceEngine(bug.hooks())
    cases = [c for c in load_cases() if c.game == "american-sniff" and c.profile is None and c.kind == "tally"]
    results = run_cases(engine, cases)
    smallest = min((r for r in results if r.status == "failed"), key=lambda r: abs(r.case.input["score"]))
    assert smallest.case.input["score"] < -5  # the suite has no tally as small as the minimal case
    d = dx.diagnose(results, ["american-sniff"], mutants=False)
    (g,) = d.unexplained
    shrink_examples(d, engine)
    case = d.clusters[g.key]
    assert case["id"].startswith("DX-SN-tally-") and case["input"] == {"score": -5}
    assert case["expect"] == {"fifties": 0, "strokes": 1, "negative": True}
    assert "made smaller from" in case["source"]["derived"] and d.shrink_notes == {}
