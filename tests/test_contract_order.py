"""The contract an independent author had to guess (issue 37), pinned: spec/engine.md's
numbered order of a placement record's checks and its cases, `next-leader` refusing what the
other play kinds refuse, and the reference, the simple evaluator and the fuzzer agreeing."""
from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

import simple_evaluator as simple  # noqa: E402

from fives.conformance.cases.kinds.play import run_turn  # noqa: E402
from fives.conformance.cases.kinds.setup import run_next_leader, run_setup  # noqa: E402
from fives.conformance.fuzz.small import next_leader_question  # noqa: E402
from fives.evaluation import evaluate  # noqa: E402
from fives.layout import IllegalCode  # noqa: E402
from fives.rules import load_rules  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
INPUTS = ROOT / "conformance" / "fixtures" / "inputs"
GAMES = ("american-sniff", "horse-race")


def cases(name: str) -> list[dict]:
    return yaml.safe_load((INPUTS / name).read_text(encoding="utf-8"))["cases"]


def numbered_steps() -> dict[int, set[str]]:
    """spec/engine.md's numbered check list: step -> the codes it names."""
    text = (ROOT / "spec" / "engine.md").read_text(encoding="utf-8")
    block = text[text.index("A record is read before it is checked"):text.index("In a `turn` (spec/play.md)")]
    steps: dict[int, set[str]] = {}
    for m in re.finditer(r"^(\d+)\. (.*?)(?=^\d+\. |\Z)", block, re.S | re.M):
        steps[int(m.group(1))] = set(re.findall(r"`([a-z]+(?:-[a-z]+)+)`", m.group(2))) & {c.value for c in IllegalCode}
    return steps


def test_the_check_order_is_a_numbered_list_of_every_layout_code() -> None:
    steps = numbered_steps()
    assert sorted(steps) == list(range(1, 14))
    assert all(len(codes) == 1 for codes in steps.values()), steps
    named = set().union(*steps.values())
    assert named == {c.value for c in IllegalCode} - {"tile-not-in-hand"}  # play's own code: spec/play.md


def test_every_adjacent_pair_that_one_record_can_break_is_pinned() -> None:
    steps = numbered_steps()
    pinned = {(m.group(1), m.group(2)) for c in cases("check-order.yaml")
              if (m := re.search(r"-ORDER-(\d+)[A-Z]*-(\d+)$", c["id"]))}
    pinned_steps = {(int(a), int(b)) for a, b in pinned}
    # the pairs no record breaks together: a non-list has no record; an unknown side has a `to`
    # (shape), so step 6 cannot fail with it; a side a tile lacks is never occupied, nor a
    # non-spinner's branch; an occupied branch had both lines occupied first
    impossible = {(5, 6), (9, 10), (10, 11), (10, 12)}
    for i in range(1, 13):
        if (i, i + 1) in impossible:
            assert any(a == i and b > i + 1 for a, b in pinned_steps), f"step {i} against a later step"
        elif steps[i] != steps[i + 1] or i == 1:  # step 1 answers index null: observable
            assert (i, i + 1) in pinned_steps, f"steps {i} and {i + 1}"
        else:  # the same code: the order is not observable; each is pinned against a later step
            assert any(a == i and steps[b] != steps[i] for a, b in pinned_steps), f"step {i}"
    for c in cases("check-order.yaml"):  # each case expects its earlier step's code
        a = int(re.search(r"-ORDER-(\d+)", c["id"]).group(1))  # type: ignore[union-attr]
        if c["game"] == "horse-race" and a == 11:  # every double a spinner: the same record breaks 12
            assert c["expect"]["error"]["code"] in steps[12], c["id"]
        else:
            assert c["expect"]["error"]["code"] in steps[a], c["id"]


@pytest.mark.parametrize("case", cases("check-order.yaml"), ids=lambda c: c["id"])
def test_the_reference_and_the_simple_evaluator_keep_the_order(case: dict) -> None:
    records = case["input"]["placements"]
    want = (case["expect"]["error"]["index"], case["expect"]["error"]["code"])
    for got in (evaluate(case["game"], records), simple.evaluate(case["game"], records)):
        assert (got["error"]["index"], got["error"]["code"]) == want


@pytest.mark.parametrize("game", GAMES)
def test_next_leader_refuses_what_setup_calls_invalid(game: str) -> None:
    rules = load_rules(game)
    for players in range(2, 5):
        for partnerships in (False, True):
            inp = {"players": players, "partnerships": partnerships, "previous": None}
            valid = run_setup(rules, inp, {})["valid"]
            answer = run_next_leader(rules, inp, {})
            assert ("error" not in answer) == valid, (players, partnerships, answer)
            if not valid:
                assert answer["error"]["code"] == "malformed-input" and answer["error"]["index"] is None
    for key, ended in (("leader", "blocked"), ("last_tile_seat", "gone-out")):
        previous = {"ended": ended, "last_tile_seat": 0, key: 2}
        assert run_next_leader(rules, {"players": 2, "previous": previous}, {})["error"]["code"] == "malformed-input"
        previous[key] = 1
        assert "leader" in run_next_leader(rules, {"players": 2, "previous": previous}, {})


@pytest.mark.parametrize("game", GAMES)
def test_the_fuzzer_asks_next_leader_only_well_formed_questions(game: str) -> None:
    rules = load_rules(game)
    rng = random.Random(0)
    asked = [next_leader_question(rng, rules)["input"] for _ in range(300)]
    assert {a["players"] for a in asked} == {n for n, _ in rules.configurations()}
    assert all("error" not in run_next_leader(rules, a, {}) for a in asked)


@pytest.mark.parametrize("game", GAMES)
def test_turn_checks_leader_as_it_checks_seat(game: str) -> None:
    rules = load_rules(game)
    for c in cases("drawn-and-leader.yaml"):
        if c["game"] == game and c["id"].endswith("TURN-LEADER-0"):
            base = c["input"]
    for leader in (-1, 2, 3):
        assert run_turn(rules, dict(base, leader=leader), {})["error"]["code"] == "malformed-input"
    answers = [run_turn(rules, dict(base, leader=leader), {}) for leader in (0, 1)]
    assert answers[0] == answers[1]  # under the seeds no answer depends on it
