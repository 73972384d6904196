"""The `next-leader` kind with the first hand's deal (issue 26: the first leader from dealt hands
was a behaviour no kind could ask about)."""
from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from fives.conformance.cases.fixtures import load_cases
from fives.conformance.cases.kinds.setup import next_leader
from fives.conformance.cases.reachable import problems
from fives.conformance.engines.drivers import ReferenceEngine
from fives.profiles import make_profile, rules_under
from fives.rules import load_rules
from fives.tiles import ALL_TILES

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "conformance" / "tools" / "make_first_leader_fixtures.py"


def _tool():
    spec = importlib.util.spec_from_file_location("make_first_leader_fixtures", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cases():
    return [c for c in load_cases() if c.kind == "next-leader" and "deal" in c.input]


def test_the_shipped_file_is_what_the_tool_writes() -> None:
    assert _tool().main(["--check"]) == 0


def test_every_rule_of_the_first_leader_has_cases_in_both_games() -> None:
    cases = _cases()
    got = {(c.game, "lot" if c.profile is None else c.profile.overrides["lead.first_hand"], c.expect["leader"] == "lot")
           for c in cases}
    for game in ("american-sniff", "horse-race"):
        assert (game, "lot", True) in got  # the seeds: a lot whatever is dealt
        for how in ("highest-double", "opening-order"):
            assert (game, how, False) in got and (game, how, True) in got  # a holder, and nobody
        assert (game, "seat-0", False) in got


def _holder_of_first(deal: list[list[str]], order: list[str]) -> int | str:
    """Computed here from the deal alone: the seat holding the earliest tile of `order`."""
    for tile in order:
        for seat, hand in enumerate(deal):
            if tile in hand:
                return seat
    return "lot"


def test_each_answer_follows_from_the_deal_alone() -> None:
    doubles = [f"[{v}|{v}]" for v in range(6, -1, -1)]
    for c in _cases():
        deal = c.input["deal"]
        how = "lot" if c.profile is None else c.profile.overrides["lead.first_hand"]
        want = {"lot": "lot", "seat-0": 0, "highest-double": _holder_of_first(deal, doubles),
                "opening-order": _holder_of_first(deal, c.profile.overrides.get("opening.order", []) if c.profile else [])}[how]
        assert c.expect == {"leader": want}, c.id
        rules = load_rules(c.game) if c.profile is None else rules_under(c.profile, c.game)
        assert problems(rules, "next-leader", c.input) == [], c.id
        # a dealt game: every hand of the game's size, no tile twice
        assert {len(h) for h in deal} == {rules.hand_size[c.input["players"]]}
        assert len({t for h in deal for t in h}) == sum(map(len, deal))


def test_the_reference_and_the_strict_engine_answer_every_case() -> None:
    for strict in (False, True):
        engine = ReferenceEngine(strict=strict)
        for c in _cases():
            rules = load_rules(c.game) if c.profile is None else rules_under(c.profile, c.game)
            assert engine.answer_under(rules, c.kind, c.input) == c.expect, (strict, c.id)


@pytest.mark.parametrize("deal, why", [
    ([["[0|0]"] * 7, ["[1|1]"] * 7], "a tile is dealt twice"),
    ([["[0|0]"], ["[1|1]"]], "2 hands of 7 tiles"),
    ([[str(t) for t in ALL_TILES[:7]]], "2 hands of 7 tiles"),
])
def test_a_deal_that_is_no_deal_is_malformed_input_and_unreachable(deal, why) -> None:
    rules = rules_under(make_profile("horse-race", {"lead.first_hand": "highest-double"}), "horse-race")
    answer = next_leader(rules, None, 2, deal)
    assert answer["error"]["code"] == "malformed-input" and why in answer["error"]["message"]
    assert any(why in p for p in problems(rules, "next-leader", {"players": 2, "previous": None, "deal": deal}))


def test_a_deal_is_read_for_the_first_hand_only() -> None:
    rules = rules_under(make_profile("american-sniff", {"lead.first_hand": "highest-double"}), "american-sniff")
    tiles = list(ALL_TILES)
    random.Random(5).shuffle(tiles)
    deal = [[str(t) for t in tiles[:7]], [str(t) for t in tiles[7:14]]]
    later = next_leader(rules, {"ended": "gone-out", "last_tile_seat": 1}, 2, deal)
    assert later == {"leader": 1}
    assert next_leader(rules, None, 2) == {"leader": "highest-double"}
    assert next_leader(rules, None, 2, deal)["leader"] in (0, 1, "lot")
