"""fives/conformance/reports/explain.py: a difference per element and key, agreeing with each kind's comparer."""
from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from fives.support import paths
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.reports.explain import Difference, explain
from fives.conformance.cases.fixtures import load_cases
from fives.conformance.cases.kinds import load_kinds


def lines(kind: str, expected: Any, actual: Any) -> list[str]:
    return [str(d) for d in explain(kind, expected, actual)]


def test_nested_key_in_an_ordered_list() -> None:
    want = {"results": [{"action": "draw"}, {"action": "place", "continues": False, "turn_end": True}], "next_seat": 1}
    got = {"results": [{"action": "draw", "seat": 0}, {"action": "place", "continues": True, "turn_end": False}],
           "next_seat": 0}
    assert lines("turn", want, got) == ["results[1].continues: expected false, got true",
                                        "results[1].turn_end: expected true, got false",
                                        "next_seat: expected 1, got 0"]


def test_ordered_list_of_other_length_names_the_missing_and_extra_element() -> None:
    want = {"results": [{"action": "draw"}, {"action": "place", "tile": "[1|6]"}, {"action": "pass"}]}
    got = {"results": [{"action": "draw"}, {"action": "pass"}]}
    diffs = explain("turn", want, got)
    assert [(d.path, d.kind) for d in diffs] == [("results[1]", "missing-element")]
    assert str(diffs[0]) == 'results[1]: missing element {"action":"place","tile":"[1|6]"}'
    got = {"results": [{"action": "draw"}, {"action": "place", "tile": "[1|6]"}, {"action": "draw"}, {"action": "pass"}]}
    assert lines("turn", want, got) == ['results[2]: unexpected element {"action":"draw"}']


def test_strict_list_compares_element_by_element() -> None:
    want = {"scores": [0, 5, 0, 10], "sum": 10}
    got = {"scores": [0, 5, 15, 10], "sum": 10}
    assert lines("evaluate", want, got) == ["scores[2]: expected 0, got 15"]


def test_multiset_pairs_entries_by_tile_and_names_the_key() -> None:
    want = {"contributions": [{"tile": "[1|1]", "value": 2}, {"tile": "[4|6]", "side": "high", "value": 6}]}
    got = {"contributions": [{"tile": "[4|6]", "side": "high", "value": 6},
                             {"tile": "[1|1]", "side": "line-a", "value": 1},
                             {"tile": "[4|4]", "side": "branch-b", "value": 4}]}
    assert lines("evaluate", want, got) == [
        "contributions[tile=[1|1]].value: expected 2, got 1",
        'contributions: unexpected element {"side":"branch-b","tile":"[4|4]","value":4}']


def test_multiset_order_does_not_matter_and_missing_is_named() -> None:
    want = {"positions": [{"tile": "[1|4]", "value": 1}, {"tile": "[2|2]", "value": 4}]}
    assert lines("evaluate", want, {"positions": list(reversed(want["positions"]))}) == []
    got = {"positions": [{"tile": "[2|2]", "value": 4}]}
    assert lines("evaluate", want, got) == ['positions: missing element {"tile":"[1|4]","value":1}']


def test_missing_key_and_unexpected_key_in_a_strict_value() -> None:
    assert lines("perft", {"nodes": 28, "points": 35}, {"nodes": 28}) == ["points: missing (expected 35)"]
    want = {"hand_end": {"reason": "blocked"}}
    got = {"hand_end": {"reason": "blocked", "seat": 2}}
    assert lines("next-leader", want, got) == ["hand_end.seat: not expected (got 2)"]
    assert lines("turn", want, got) == []  # turn compares nested mappings by their stated keys


def test_errors_compare_index_and_code_only() -> None:
    want = {"error": {"index": 2, "code": "no-match", "message": "x"}}
    assert lines("evaluate", want, {"error": {"index": 2, "code": "no-match", "message": "other"}}) == []
    assert lines("evaluate", want, {"error": {"index": 1, "code": "no-match"}}) == ["error.index: expected 2, got 1"]
    assert lines("evaluate", want, {"sum": 5}) == ['error: missing (expected {"code":"no-match","index":2,"message":"x"})']
    assert lines("evaluate", {"sum": 5}, {"error": {"index": 0, "code": "x"}}) == \
        ['error: not expected (got {"code":"x","index":0})']


def test_setup_reason_is_free_text_and_a_non_object_answer_is_one_difference() -> None:
    assert lines("setup", {"valid": False, "reason": "a"}, {"valid": False, "reason": "b"}) == []
    assert lines("evaluate", {"sum": 5}, [1, 2]) == ['answer: expected {"sum":5}, got [1,2]']


def test_fallback_is_used_only_when_nothing_is_found_and_long_lists_are_cut() -> None:
    assert [d.text for d in explain("evaluate", {"sum": 5}, {"sum": 5}, ["odd: comparer line"])] == ["odd: comparer line"]
    many = explain("evaluate", {"scores": list(range(100))}, {"scores": [x + 1 for x in range(100)]})
    assert len(many) == 41 and str(many[-1]) == "... and 60 more differences"


def test_to_dict_carries_path_kind_and_values() -> None:
    d = Difference("results[1].continues", "differs", False, True)
    assert d.to_dict() == {"path": "results[1].continues", "kind": "differs", "expected": False, "actual": True,
                           "text": "results[1].continues: expected false, got true"}
    assert Difference("x", "missing-element", expected=3).to_dict() == {
        "path": "x", "kind": "missing-element", "expected": 3, "text": "x: missing element 3"}


def test_deep_or_huge_answers_do_not_raise() -> None:
    deep: Any = 1
    for _ in range(5000):
        deep = [deep]
    assert explain("evaluate", {"sum": 5}, {"sum": deep}, ["sum: differs"])  # some explanation, no RecursionError
    big = {"contributions": [{"tile": f"[{i % 7}|{i % 7}]", "value": i} for i in range(600)]}
    assert len(explain("evaluate", {"contributions": [{"tile": "[9|9]"}]}, big)) <= 41


# -- agreement with every kind's comparer, on perturbed reference answers ----------------------
def _perturb(value: Any, rng: random.Random) -> Any:
    """One random change somewhere inside `value` (a flipped bool, a changed number, a list
    entry dropped, duplicated or moved, a key removed)."""
    if isinstance(value, dict) and value:
        v = dict(value)
        k = rng.choice(sorted(v))
        if rng.random() < 0.2:
            del v[k]
        else:
            v[k] = _perturb(v[k], rng)
        return v
    if isinstance(value, list) and value:
        v = list(value)
        r = rng.random()
        i = rng.randrange(len(v))
        if r < 0.25:
            del v[i]
        elif r < 0.4:
            v.insert(rng.randrange(len(v) + 1), copy.deepcopy(v[i]))
        elif r < 0.55 and len(v) > 1:
            v.append(v.pop(i))
        else:
            v[i] = _perturb(v[i], rng)
        return v
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice((1, 5, -1))
    if isinstance(value, str):
        return value + "x"
    return 0 if value is None else None


@pytest.fixture(scope="module")
def answered() -> list[tuple[Any, Any]]:
    engine = ReferenceEngine()
    cases = load_cases([paths.FIXTURES / d for d in ("seed", "illegal", "play", "setup", "record")
                        if (paths.FIXTURES / d).is_dir()])
    return [(c, engine.run(c).answer) for c in cases]


def test_explanation_agrees_with_the_comparer(answered: list[tuple[Any, Any]]) -> None:
    kinds = load_kinds()
    rng = random.Random(13)
    seen: set[str] = set()
    checked = 0
    for case, answer in answered:
        for _ in range(8):
            for target in ("answer", "expect"):
                actual = _perturb(answer, rng) if target == "answer" else answer
                expect = case.expect if target == "answer" else _perturb(case.expect, rng)
                fails = bool(kinds[case.kind].compare(expect, actual))
                explained = explain(case.kind, expect, actual)
                assert bool(explained) == fails, (case.id, target, expect, actual, [str(d) for d in explained])
                checked += 1
        seen.add(case.kind)
    assert {"evaluate", "legal-placements", "turn", "settle", "match-end", "setup"} <= seen
    assert checked > 1000
