"""fives/conformance/cases/reachable.py: the conditions a state must meet to be reached by play
from a deal (spec/fuzz.md, Reachable states), over hand-made states, every shipped fixture
and golden case, the fuzzer's generators and a short fuzz of every mutant."""
from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.cases.fixtures import load_cases
from fives.conformance.fuzz import Fuzzer
from fives.conformance.fuzz.output import write_findings
from fives.conformance.fuzz.small import small_legal, small_turn
from fives.conformance.mutants.registry import all_mutants
from fives.conformance.cases.reachable import complete, problems, repair
from fives.evaluation import evaluate
from fives.profiles import rules_under
from fives.rules import load_rules
from fives.tiles import ALL_TILES

HR, SN = load_rules("horse-race"), load_rules("american-sniff")

#: Shipped cases whose state no game reaches, by file: none. The hand-made fixtures are whole
#: deals reached by play; the extremal witnesses lay at most 27 tiles (the Horse Race one laid
#: all 28 until issue 26); the golden suites (v2, every state from self-play) hold none.
KNOWN_UNREACHABLE: dict[str, int] = {}

#: The Horse Race layout that counts 75 with all 28 tiles (the extremal witness before issue
#: 26): legal, but no hand lays it.
ALL_28 = [("[6|6]", None, None), ("[4|6]", "[6|6]", "line-b"), ("[4|4]", "[4|6]", "low"),
          ("[3|4]", "[4|4]", "line-b"), ("[1|4]", "[4|4]", "branch-a"), ("[4|5]", "[4|4]", "branch-b"),
          ("[3|3]", "[3|4]", "low"), ("[1|1]", "[1|4]", "low"), ("[2|3]", "[3|3]", "line-b"),
          ("[3|6]", "[3|3]", "branch-a"), ("[1|3]", "[3|3]", "branch-b"), ("[0|1]", "[1|1]", "line-b"),
          ("[1|5]", "[1|1]", "branch-a"), ("[1|6]", "[1|1]", "branch-b"), ("[2|6]", "[2|3]", "low"),
          ("[1|2]", "[1|3]", "low"), ("[0|0]", "[0|1]", "low"), ("[5|5]", "[1|5]", "high"),
          ("[2|2]", "[1|2]", "high"), ("[0|4]", "[0|0]", "line-b"), ("[0|3]", "[0|0]", "branch-a"),
          ("[0|6]", "[0|0]", "branch-b"), ("[2|5]", "[2|2]", "line-b"), ("[2|4]", "[2|2]", "branch-a"),
          ("[0|2]", "[2|2]", "branch-b"), ("[3|5]", "[0|3]", "high"), ("[0|5]", "[0|2]", "low"),
          ("[5|6]", "[3|5]", "high")]


def whole_deal(layout: list, hands: list[list[str]], seat: int = 0, **extra) -> dict:
    """A two-player Horse Race turn state with every other tile at the bottom of the boneyard."""
    state = {"players": 2, "scores": [0, 0], "layout": layout, "hands": hands, "boneyard": [], "seat": seat,
             "actions": [{"action": "draw"}], **extra}
    return complete(HR, state)


SEVEN = ["[0|1]", "[0|2]", "[0|3]", "[0|4]", "[0|5]", "[0|6]", "[1|2]"]
OTHER = ["[2|3]", "[2|4]", "[2|5]", "[2|6]", "[3|4]", "[3|5]", "[3|6]"]


def test_the_start_of_a_hand_is_reachable_and_a_partial_state_is_not():
    start = whole_deal([], [SEVEN, OTHER])
    assert len(start["boneyard"]) == 14 and problems(HR, "turn", start) == []
    partial = {**start, "boneyard": start["boneyard"][:3]}
    assert any("accounts for all 28" in p for p in problems(HR, "turn", partial))


def test_a_seat_with_no_tile_mid_hand_is_unreachable():
    state = whole_deal([{"tile": "[1|2]"}], [SEVEN[:6], []])
    reasons = problems(HR, "turn", state)
    assert "seat 1 holds no tile: the hand would have ended when it went out" in reasons


def test_hands_must_match_the_deal_and_the_placements():
    # one placement, yet seat 0 holds 5 of its 7 tiles: two tiles cannot have left its hand
    state = whole_deal([{"tile": "[1|2]"}], [SEVEN[:5], OTHER])
    assert any("need at least 2 tiles placed, the layout has 1" in p for p in problems(HR, "turn", state))
    # one placement from seat 0's seven: reachable
    assert problems(HR, "turn", whole_deal([{"tile": "[1|2]"}], [SEVEN[:6], OTHER], seat=1)) == []


def test_scores_continuation_and_blocks():
    ok = whole_deal([{"tile": "[1|2]"}], [SEVEN[:6], OTHER], seat=1)
    assert any("reached the target 61" in p for p in problems(HR, "turn", {**ok, "scores": [61, 0]}))
    assert any("below 0" in p for p in problems(HR, "turn", {**ok, "scores": [-1, 0]}))
    # Sniff scores move in steps of 5 and may be negative
    sn = complete(SN, {**ok, "boneyard": []})
    assert any("not a multiple of 5" in p for p in problems(SN, "turn", {**sn, "scores": [197, 0]}))
    assert problems(SN, "turn", {**sn, "scores": [-40, 195]}) == []
    assert any("has no continuation" in p for p in problems(SN, "turn", {**sn, "continuing": True}))
    # [1|2] opened for 3 points: no continuation earned; [5|5] (10 points, a double) earns one
    assert any("earned no continuation" in p for p in problems(HR, "turn", {**ok, "seat": 0, "continuing": True}))
    hands = [["[0|1]", "[0|2]", "[0|3]", "[0|4]", "[0|5]", "[0|6]"], OTHER]
    double = whole_deal([{"tile": "[5|5]"}], hands, seat=0, continuing=True, scores=[2, 0])
    assert problems(HR, "turn", double) == []
    # the opening scored 2 points: the scores cannot add up to less
    assert any("scored 2 points" in p for p in problems(HR, "turn", {**double, "scores": [1, 0]}))


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_settlements_and_match_ends():
    blocked = {"players": 2, "scores": [0, 0], "end": {"reason": "blocked"},
               "remaining": [["[0|1]", "[2|3]"], ["[4|5]", "[6|6]"]]}
    assert any("every pip value" in p for p in problems(HR, "settle", blocked))
    fixed = repair(HR, "settle", blocked)
    assert problems(HR, "settle", fixed) == []
    assert [sum(int(c) for t in h for c in t if c.isdigit()) for h in fixed["remaining"]] == [6, 21]  # totals kept
    gone = {"players": 2, "scores": [0, 0], "end": {"reason": "gone-out", "seat": 0},
            "remaining": [[], [str(t) for t in ALL_TILES[:22]]]}
    assert any("placed at least 7" in p for p in problems(HR, "settle", gone))
    assert any("only deducts" in p for p in problems(SN, "match-end", {"players": 3, "scores": [195, 0, 0],
                                                                        "awards": [5, 0, 0]}))
    assert problems(SN, "match-end", {"players": 2, "scores": [195, 0], "awards": [-5, 0]}) == []
    full = [{"tile": t} if to is None else {"tile": t, "to": to, "side": s} for t, to, s in ALL_28]
    assert evaluate(HR, full)["sum"] == 75 and len(full) == 28
    assert problems(HR, "evaluate", {"placements": full}) == [
        "a layout of 28 tiles: at most 27 can be laid before a seat goes out"]
    assert problems(HR, "evaluate", {"placements": full[:27]}) == []
    # the cap is the rules' own figure, the one the extremal search uses
    assert HR.most_tiles_laid == SN.most_tiles_laid == 27
    assert [HR.layout_cap(n) for n in (2, 3, 4)] == [27, 26, 25]
    reserved = dataclasses.replace(HR, boneyard_reserve={2: 2, 3: 0, 4: 0})
    assert reserved.layout_cap(2) == 25 and reserved.most_tiles_laid == 26
    assert problems(reserved, "evaluate", {"placements": full[:27]}) == [
        "a layout of 27 tiles: at most 26 can be laid before a seat goes out"]


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_shipped_fixtures_and_golden_cases():
    """Every shipped case is checked, under the rules it states (a variant case's profile),
    and every one is reachable (KNOWN_UNREACHABLE is empty since issue 26): a shipped case no
    game reaches fails here, named with its reasons."""
    found: Counter[str] = Counter()
    named: list[str] = []
    for c in load_cases():
        e = c.expect
        if isinstance(e, dict) and isinstance(e.get("error"), dict) and e["error"].get("code") == "malformed-input":
            continue  # the inconsistent inputs the format itself tests
        rules = rules_under(c.profile, c.game) if getattr(c, "profile", None) is not None else load_rules(c.game)
        why = problems(rules, c.kind, c.input)
        if why:
            found[c.file.removeprefix("conformance/")] += 1
            named.append(f"{c.id}: {why[0]}")
    assert dict(found) == KNOWN_UNREACHABLE == {}, named[:5]
    extremal = [c for c in load_cases() if c.file.endswith("fixtures/extremal/extremal.yaml")]
    assert len(extremal) == 3 and all(len(c.input["placements"]) <= 27 for c in extremal)


@pytest.mark.parametrize("game", ["horse-race", "american-sniff"])
def test_the_fuzzer_generators_make_reachable_states(game):
    rules = load_rules(game)
    made = 0
    for i in range(150):
        for build, kind in ((small_turn, "turn"), (small_legal, "legal-placements")):
            case = build(random.Random(f"r:{i}"), rules)
            if case is not None:
                made += 1
                assert problems(rules, kind, case["input"]) == [], case["input"]
    assert made > 200


@pytest.mark.parametrize("mutant", [m.name for m in all_mutants()])
def test_a_short_fuzz_of_every_mutant_writes_no_unreachable_fixture(tmp_path, mutant):
    m = next(x for x in all_mutants() if x.name == mutant)
    report = Fuzzer(ReferenceEngine(m.hooks(), name=mutant), seed=5, shrink_budget=400).run(cases=60)
    for path in write_findings(report.findings, tmp_path, 5):
        (case,) = load_cases([path])
        assert problems(load_rules(case.game), case.kind, case.input) == [], (path.name, case.input)
