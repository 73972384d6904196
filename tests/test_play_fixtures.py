"""The play fixtures (conformance/fixtures/play) against the reference engine, and their strength.

Each misreading the issue lists is written here as a one-hook subclass of Match or
Settlement; every one of them must change the answer of at least one fixture.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from fives.kinds import load_kinds
from fives.kinds.play import compare_subset
from fives.match import Match
from fives.rules import load_rules
from fives.settlement import HandEnd, Settlement
from fives.tiles import Tile

ROOT = Path(__file__).resolve().parents[1]
PLAY = ROOT / "conformance" / "fixtures" / "play"
KINDS = load_kinds()
PLAY_KINDS = ("legal-placements", "turn", "settle", "match-end")


def _cases() -> list[dict[str, Any]]:
    out = []
    for path in sorted(PLAY.glob("*.yaml")):
        out.extend(yaml.safe_load(path.read_text(encoding="utf-8"))["cases"])
    return out


CASES = _cases()


def _diffs(case: dict[str, Any], hooks: dict[str, Any]) -> list[str]:
    kind = KINDS[case["kind"]]
    actual = kind.run(load_rules(case["game"]), case["input"], hooks)
    return kind.compare(case["expect"], actual)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_reference_engine_passes(case: dict[str, Any]) -> None:
    assert _diffs(case, {}) == []


def test_every_play_kind_and_game_has_cases() -> None:
    seen = {(c["kind"], c["game"]) for c in CASES}
    for kind in PLAY_KINDS:
        for game in ("american-sniff", "horse-race"):
            assert (kind, game) in seen, f"no {kind} case for {game}"


def test_full_answers_match_the_kind_schemas() -> None:
    """What the engine answers is a valid `expect` object of its kind (the protocol checks this)."""
    for case in CASES:
        schema = json.loads((ROOT / "conformance/schema/kinds" / KINDS[case["kind"]].schema).read_text())
        sub = dict(schema["properties"]["expect"], **{"$defs": schema.get("$defs", {})})
        answer = KINDS[case["kind"]].run(load_rules(case["game"]), case["input"], {})
        jsonschema.validate(answer, sub)


def test_compare_sees_a_changed_value() -> None:
    case = next(c for c in CASES if c["id"] == "HR-SETTLE-EX-03")
    wrong = json.loads(json.dumps(case))
    wrong["expect"]["awards"][0]["points"] = 5
    assert _diffs(wrong, {}) == ["awards[0].points: expected 5, got 4"]
    assert compare_subset({"a": [1, 2]}, {"a": [1]}) != []


def test_turn_compare_checks_the_error_code() -> None:
    case = next(c for c in CASES if c["id"] == "HR-TURN-01")
    wrong = json.loads(json.dumps(case))
    wrong["expect"]["error"]["code"] = "cannot-pass"
    assert any("error.code" in d for d in _diffs(wrong, {}))
    missing = json.loads(json.dumps(case))
    del missing["expect"]["error"]
    assert any("unexpected error" in d for d in _diffs(missing, {}))


# -- the misreadings, one hook each -----------------------------------------------------------
class RemainderTwoRoundsUp(Settlement):
    def round_remaining(self, pips: int) -> int:
        q, r = divmod(pips, 5)
        return (q + (r >= 2)) * 5


class RemainderThreeRoundsDown(Settlement):
    def round_remaining(self, pips: int) -> int:
        q, r = divmod(pips, 5)
        return (q + (r >= 4)) * 5


class PartnersMergedBeforeRounding(Settlement):
    def side_deduction(self, seat_pips: list[int]) -> int:
        return self.round_remaining(sum(seat_pips))


class TiedWinnersSplit(Settlement):
    def award_points(self, rounded: int, tied: int) -> int:
        return super().award_points(rounded, tied) // tied


class WinnersPartnerCounted(Settlement):
    def award_seats(self, side: int, end: HandEnd) -> list[int]:
        if end.seat is None:
            return super().award_seats(side, end)
        return [s for s in range(self.config.players) if s != end.seat]


class DrawnTileContinues(Match):
    def _hook_continuations_earned(self, tile: Tile, from_drawn: bool, raw: int) -> int:
        return super()._hook_continuations_earned(tile, False, raw)


class ScoringDoubleContinuesTwice(Match):
    def _hook_continuations_earned(self, tile: Tile, from_drawn: bool, raw: int) -> int:
        n = super()._hook_continuations_earned(tile, from_drawn, raw)
        return 2 if n and tile.is_double and raw > 0 else n


class MatchEndsOnlyAtHandEnd(Match):
    def _hook_placement_ends_match(self, side: int) -> bool:
        return False


class SettledAfterMatchEnd(Match):
    def _hook_settle_after_match_end(self) -> bool:
        return True


MISREADINGS = {
    "remainder 2 rounded up": {"settlement": RemainderTwoRoundsUp},
    "remainder 3 rounded down": {"settlement": RemainderThreeRoundsDown},
    "partners' hands merged before rounding": {"settlement": PartnersMergedBeforeRounding},
    "a drawn tile earns a continuation": {"match": DrawnTileContinues},
    "a scoring double earns two continuations": {"match": ScoringDoubleContinuesTwice},
    "the match ends only at the end of the hand": {"match": MatchEndsOnlyAtHandEnd},
    "settlement applied after the match ended": {"match": SettledAfterMatchEnd},
    "tied winners split the award": {"settlement": TiedWinnersSplit},
    "the winner's partner's tiles counted in the award": {"settlement": WinnersPartnerCounted},
}


@pytest.mark.parametrize("name", sorted(MISREADINGS))
def test_each_misreading_is_caught(name: str) -> None:
    hooks = MISREADINGS[name]
    killers = [c["id"] for c in CASES if _diffs(c, hooks)]
    assert killers, f"no fixture catches: {name}"


def test_misreadings_are_caught_where_expected() -> None:
    """Spot checks that the seed's own examples are among the killers."""
    def killers(hooks: dict[str, Any]) -> set[str]:
        return {c["id"] for c in CASES if _diffs(c, hooks)}

    assert "SN-SETTLE-EX-01" in killers(MISREADINGS["partners' hands merged before rounding"])
    assert "HR-SETTLE-EX-02" in killers(MISREADINGS["the winner's partner's tiles counted in the award"])
    assert "HR-SETTLE-EX-04" in killers(MISREADINGS["tied winners split the award"])
    assert "HR-SETTLE-EX-03" in killers(MISREADINGS["remainder 3 rounded down"])
    assert "HR-TURN-07" in killers(MISREADINGS["a drawn tile earns a continuation"])
    assert "HR-TURN-11" in killers(MISREADINGS["a scoring double earns two continuations"])
    assert "HR-TURN-18" in killers(MISREADINGS["the match ends only at the end of the hand"])
    assert {"HR-TURN-19", "SN-TURN-13"} <= killers(MISREADINGS["settlement applied after the match ended"])
