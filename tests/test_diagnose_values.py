"""`conformance diagnose` in values (issue 27): numeric rule values read off the engine's
answers, not a fixed list; clusters labelled with values and one relation across them, merged
when one relation holds across two patterns (fives/conformance/diagnose/inferred.py,
describe.py, clusters.py)."""
from __future__ import annotations

from typing import Any

from fives.conformance.cases.fixtures import Case, load_cases
from fives.conformance.diagnose import diagnosis as dx
from fives.conformance.diagnose.clusters import merge_by_relation
from fives.conformance.diagnose.describe import relation, value_label
from fives.conformance.diagnose.inferred import readings
from fives.conformance.engines.drivers import Outcome, ReferenceEngine
from fives.conformance.reports.failures import group_failures, load_clause_book
from fives.conformance.runner import CaseResult, run_cases
from fives.profiles import make_profile, parameters


def failed(kind: str, input: dict[str, Any], expect: Any, got: Any, cid: str = "c", game: str = "horse-race",
           diffs: list[str] | None = None) -> CaseResult:
    case = Case(cid, kind, game, ("HR-SETTLE-4",), {}, input, expect, "t")
    return CaseResult(case, "failed", diffs or ["differs"], Outcome("ok", got))


def test_values_are_read_off_the_engines_answers() -> None:
    rules = parameters("horse-race")
    got = readings("horse-race", [
        failed("setup", {"players": 2}, {"hand_size": 7}, {"valid": True, "hand_size": 6, "target_raw": 300,
                                                           "target_display": 60}),
        failed("setup", {"players": 3}, {"hand_size": 6}, {"valid": True, "hand_size": 6, "target_raw": 300,
                                                           "target_display": 60}, "c2"),
        # the engine ends the match at 60 displayed where the rules play on: its target is 60 x 5 raw
        failed("match-end", {"players": 4, "scores": [58, 30]}, {"winners": []}, {"winners": [0], "scores": [60, 30]},
               "c3"),
        # it refuses the third draw with 3 tiles left: a reserve of 3 (well, of what is left then)
        failed("turn", {"players": 2, "boneyard": ["[0|2]", "[3|6]", "[4|6]", "[1|2]", "[1|1]"],
                        "actions": [{"action": "draw"}, {"action": "draw"}, {"action": "draw"}]},
               {"results": []}, {"error": {"index": 2, "code": "boneyard-reserve"}}, "c4"),
    ], rules)
    assert got["deal.hand_size"][0] == {2: 6, 3: 6, 4: 5}  # each count read, the rest kept
    assert {2: 300, 3: 300, 4: 300} in got["target.raw"]  # one value for every count, as a book gives one
    assert got["deal.reserve"][0] == {2: 3, 3: 0, 4: 0}


def test_rounding_is_read_off_a_sniff_settlement() -> None:
    rules = parameters("american-sniff")
    seats = [{"seat": 0, "pips": 7, "rounded": 10}, {"seat": 1, "pips": 11, "rounded": 10},
             {"seat": 2, "pips": 13, "rounded": 20}, {"seat": 3, "pips": 4, "rounded": 10}]
    got = readings("american-sniff", [failed("settle", {"players": 4}, {"seats": []}, {"seats": seats},
                                             game="american-sniff")], rules)
    # pips rounded to 10s, up from a remainder of 3 (13 -> 20), down below it (11 -> 10)
    assert got["settlement.rounding.multiple"] == [10]
    assert got["settlement.rounding.round_up_from_remainder"] == [3]


def group(pairs: list[tuple[int, int]], path: str = "scores[0]") -> Any:
    results = [failed("settle", {"players": 2}, {"scores": [e]}, {"scores": [a]}, f"c{i}",
                      diffs=[f"{path}: expected {e}, got {a}"]) for i, (e, a) in enumerate(pairs)]
    (g,) = group_failures(results, load_clause_book())
    return g


def test_a_cluster_is_labelled_with_values_and_the_relation_that_holds() -> None:
    g = group([(12, 60), (2, 10), (7, 35)])
    assert value_label(g) == "scores[]: expected 2, got 10"
    assert relation(g) == "got = 5 × expected in 3 of 3"
    assert relation(group([(12, 15), (2, 5), (16, 20)])) == "got = expected rounded up to 5 in 3 of 3"
    assert relation(group([(12, 14), (2, 4), (16, 18)])) == "got = expected + 2 in 3 of 3"
    assert relation(group([(12, 14), (2, 9), (16, 3)])) is None  # nothing holds: nothing said


def test_two_patterns_with_one_relation_are_one_cluster() -> None:
    a = [failed("settle", {"players": 2}, {"scores": [e]}, {"scores": [2 * e]}, f"a{e}",
                diffs=[f"scores[0]: expected {e}, got {2 * e}"]) for e in (5, 10, 15)]
    b = [failed("evaluate", {"placements": []}, {"sum": e}, {"sum": 2 * e}, f"b{e}",
                diffs=[f"sum: expected {e}, got {2 * e}"]) for e in (5, 10)]
    c = [failed("evaluate", {"placements": []}, {"raw": 5}, {"raw": 7}, "c", diffs=["raw: expected 5, got 7"])]
    groups = merge_by_relation(group_failures(a + b + c, load_clause_book()))
    assert [(g.count, g.key) for g in groups] == [
        (5, "scores[]: number -> number (and sum): got = 2 × expected"), (1, "raw: number -> number")]


def test_a_target_no_list_holds_is_named_from_the_match_end_answers() -> None:
    # 300 raw (60 displayed) for every count: in no fixed list of the dimensions
    prof = make_profile("horse-race", {"target.raw": {2: 300, 3: 300, 4: 300}})
    cases = [c for c in load_cases() if c.game == "horse-race" and c.profile is None and c.kind in ("match-end", "setup")]
    d = dx.diagnose(run_cases(ReferenceEngine(profile=prof), cases), ["horse-race"], mutants=False)
    assert [c.candidate.overrides for c in d.causes] == [{"target.raw": {2: 300, 3: 300, 4: 300}}]
    assert d.unexplained == [] and d.explained == d.failing > 0


def test_a_search_stopped_on_time_is_extended_with_every_answer_it_has() -> None:
    import time

    prof = make_profile("horse-race", {"target.raw": {2: 300, 3: 300, 4: 300}})
    cases = [c for c in load_cases() if c.game == "horse-race" and c.profile is None and c.kind in ("match-end", "setup")]
    results = run_cases(ReferenceEngine(profile=prof), cases)
    first = dx.diagnose(results, ["horse-race"], mutants=False, deadline=time.monotonic() - 1)
    assert first.stopped == "time" and first.causes == []
    assert sum(g.count for g in first.unexplained) == first.failing > 0  # cut short before any set was played
    more = dx.diagnose(results, ["horse-race"], mutants=False, scorers=first.scorers)
    assert more.stopped is None and more.unexplained == []
    assert [c.candidate.overrides for c in more.causes] == [{"target.raw": {2: 300, 3: 300, 4: 300}}]


def test_a_layout_parts_from_the_rules_where_perft_bisect_would_say() -> None:
    from fives.conformance.diagnose.clusters import first_parting
    from fives.conformance.mutants.registry import all_mutants

    bug = {m.name: m for m in all_mutants()}["covered-branch-still-counts"]
    engine = ReferenceEngine(bug.hooks())
    line = [{"tile": "[4|4]"}, {"tile": "[0|4]", "to": "[4|4]", "side": "line-a"},
            {"tile": "[4|6]", "to": "[4|4]", "side": "line-b"}]
    branch = {"tile": "[4|5]", "to": "[4|4]", "side": "branch-a"}
    got = first_parting(engine, None, "american-sniff", "evaluate",
                        {"placements": [*line, branch, {"tile": "[5|5]", "to": "[4|5]", "side": "high"}]})
    assert got is not None and got["placement"] == 4 and got["tile"] == "[4|5]>[4|4]:branch-a"
    assert got["root"] == "contributions: unexpected-element" and got["layout"] == [*line, branch]
    # a turn's layout with the tile its action places parts at the same placement, the same way:
    # one bug seen through two kinds, one cluster
    turn = first_parting(engine, None, "american-sniff", "turn", {"layout": line, "actions": [{"action": "place",
                                                                                              **branch}]})
    assert turn is not None and (turn["placement"], turn["root"]) == (4, got["root"])
    assert first_parting(ReferenceEngine(), None, "american-sniff", "evaluate",
                         {"placements": line})["placement"] is None  # type: ignore[index]


def test_what_the_budget_left_undone_is_said_never_none_smaller_was_found() -> None:
    import time

    from fives.conformance.diagnose.probe import NOT_SHRUNK, shrink_examples
    from fives.conformance.mutants.registry import all_mutants

    bug = {m.name: m for m in all_mutants()}["opening-double-counted-twice"]
    engine = ReferenceEngine(bug.hooks())
    cases = [c for c in load_cases() if c.game == "american-sniff" and c.profile is None and c.kind == "evaluate"]
    d = dx.diagnose(run_cases(engine, cases), ["american-sniff"], mutants=False)
    assert len(d.unexplained) == 1 and d.unexplained[0].count == 55  # scores[] and contributions[]: one relation
    shrink_examples(d, engine, deadline=time.monotonic() - 1)
    key = d.unexplained[0].key
    assert d.shrink_notes == {f"cluster {key}": NOT_SHRUNK["time"]} and d.clusters == {}
    text = "\n".join(dx.lines(d))
    assert "not shrunk: the time budget was spent before its turn" in text and "none smaller" not in text
    assert "values: scores[]: expected 10, got 20; got = 2 × expected in 55 of 55" in text
    shrink_examples(d, engine)  # with time: shrunk, to the layout up to where it parts
    (case,) = d.clusters.values()
    assert case["kind"] == "evaluate" and len(case["input"]["placements"]) == 1
    assert d.shrink_notes == {}  # shrunk wholly: nothing left unsaid


def test_values_no_profile_holds_together_answer_nothing() -> None:
    from fives.conformance.diagnose.search import Candidate, Scorer

    case = next(c for c in load_cases() if c.game == "horse-race" and c.kind == "setup" and c.profile is None)
    r = CaseResult(case, "failed", ["x"], Outcome("ok", {"valid": True}))
    scorer = Scorer("horse-race", {}, [r], [])
    big = Candidate("deal.hand_size = 7", "horse-race", (), {"deal.hand_size": {2: 7, 3: 7, 4: 7}},
                    path="deal.hand_size")
    kept = Candidate("deal.reserve = 10", "horse-race", (), {"deal.reserve": {2: 10, 3: 10, 4: 0}}, path="deal.reserve")
    # each alone is a profile; together 3 x 7 + 10 tiles are more than 28: the set cannot answer
    assert scorer.agrees((big, kept), r) is None and scorer.explained((big, kept)) == frozenset()
    assert scorer.agrees((big,), r) is not None
