"""The fuzzer's rare turns (fives/conformance/fuzz/rare.py): each situation comes up, every
request is reached by play, and the default fuzz finds the bugs that hide in them."""
from __future__ import annotations

import random

import pytest

from fives.conformance.cases.reachable import problems
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.fuzz import EXTRA_BUILDERS, Fuzzer
from fives.conformance.fuzz.rare import rare_turn, refused_turn, situations
from fives.conformance.mutants.registry import all_mutants
from fives.rules import load_rules

MUTANTS = {m.name: m for m in all_mutants()}
#: Which game's rules can show which situation (Sniff has no continuation).
SHOWN = {"american-sniff": {"blocked-draw", "target-mid-turn", "partnership-tie"},
         "horse-race": {"blocked-draw", "continuation-out", "target-mid-turn"}}


@pytest.mark.parametrize("game", sorted(SHOWN))
def test_rare_turns_show_every_situation_and_are_reached(game: str) -> None:
    rules = load_rules(game)
    seen: set[str] = set()
    for i in range(120):
        case = rare_turn(random.Random(i), rules)
        if case is None:
            continue
        shown = situations(case)
        assert shown, case["description"]  # a rare turn shows at least one situation
        assert not problems(rules, "turn", case["input"]), case["description"]
        seen |= shown
    assert SHOWN[game] <= seen


def _turn(actions: list[str], answer: dict, partnerships: bool = False) -> dict:
    return {"kind": "turn", "input": {"partnerships": partnerships, "actions": [{"action": a} for a in actions]},
            "expect": answer}


def test_situations_read_the_answer() -> None:
    blocked = {"hand_end": {"reason": "blocked", "seat": None}, "match_end": None,
               "settlement": {"seats": [{"seat": s, "pips": p} for s, p in enumerate([3, 5, 4, 2])]}}
    assert situations(_turn(["place", "draw"], blocked)) == {"blocked-draw"}
    assert situations(_turn(["draw"], blocked, partnerships=True)) == {"blocked-draw", "partnership-tie"}
    assert situations(_turn(["place"], blocked, partnerships=True)) == {"partnership-tie"}
    gone = {"hand_end": {"reason": "gone-out", "seat": 1}, "match_end": {"winners": [1], "by": "placement"}}
    assert situations(_turn(["place", "place"], gone)) == {"continuation-out", "target-mid-turn"}
    assert situations(_turn(["place"], gone)) == set()
    assert situations(_turn(["draw"], {**blocked, "error": {"index": 0}})) == set()
    assert situations({"kind": "settle", "input": {}, "expect": {}}) == set()


@pytest.mark.parametrize("game", sorted(SHOWN))
def test_refused_turns_are_refused_by_the_reference(game: str) -> None:
    rules = load_rules(game)
    made = [c for i in range(60) if (c := refused_turn(random.Random(i), rules)) is not None]
    assert len(made) >= 20
    before_opening = 0
    for case in made:
        assert case["expect"]["error"]["index"] == 0, case["description"]
        assert not problems(rules, "turn", case["input"])
        before_opening += not case["input"]["layout"]
    assert before_opening >= 5  # a draw or pass before the opening is asked


def test_the_fuzzer_draws_rare_and_refused_turns() -> None:
    assert EXTRA_BUILDERS["turn-rare"][1] is rare_turn and EXTRA_BUILDERS["turn-refused"][1] is refused_turn


@pytest.mark.parametrize("name", ["blocked-draw-keeps-turn", "draws-before-opening"])
def test_the_default_fuzz_finds_the_hidden_turn_bugs(name: str) -> None:
    """Issue 26: an engine whose blocked draw does not end the turn passed 300 default draws;
    so did one that lets the leader draw before opening."""
    report = Fuzzer(ReferenceEngine(MUTANTS[name].hooks(), name=name), seed=0).run(cases=300)
    assert any(f.kind == "turn" for f in report.findings), [(f.clause, f.keys) for f in report.findings]
    assert not any(f.kind != "turn" for f in report.findings)


def test_the_default_fuzz_reaches_every_clause_for_seed_0() -> None:
    """Issue 37: every clause of spec/rules.md is exercised by some of the default 500 draws
    (benchmarks/fuzz_rare.py measures the rate for seeds 0 to 4)."""
    from fives.conformance.cases.clauses import load_clauses
    from fives.conformance.fuzz.situations import exercised, situation_of

    fuzzer = Fuzzer(ReferenceEngine(), seed=0)
    reference = fuzzer.oracle.reference
    seen: set[str] = set()
    for i in range(500):
        game, _, case = fuzzer.draw(i)
        answer = reference.answer(case["kind"], game, case["input"])
        seen |= exercised(reference.rules_for(game), case["kind"], case["input"], answer)
    missing = [c for c in load_clauses() if c not in seen]
    assert not missing, missing
    assert all(situation_of(c) != "?" for c in load_clauses())


def test_situations_read_request_and_answer() -> None:
    from fives.conformance.fuzz.situations import exercised

    hr, sn = load_rules("horse-race"), load_rules("american-sniff")
    tie = {"players": 2, "partnerships": False, "scores": [0, 0], "end": {"reason": "blocked", "seat": None},
           "remaining": [["[1|2]"], ["[0|3]"]]}
    answer = ReferenceEngine().answer("settle", hr.id, tie)
    assert {"HR-SETTLE-6", "HR-SETTLE-2", "HR-END-1"} <= exercised(hr, "settle", tie, answer)
    assert "HR-SETTLE-7" not in exercised(hr, "settle", tie, answer)
    assert exercised(sn, "tally", {"score": -15}, {"fifties": 0, "strokes": 3, "negative": True}) == {
        "SN-RECORD-1", "SN-SETTLE-4"}
    assert exercised(hr, "next-leader", {"players": 2, "previous": None}, {"leader": "lot"}) == {
        "HR-LEAD-1", "HR-DEAL-2"}
