"""The fixtures that close the holes issue 26 found by mutation testing: each new case passes
the reference and fails an engine that has the hole (the reference with that behaviour
patched in), so the suite now tells such an engine apart."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import fives.evaluation
from fives.conformance.cases.fixtures import load_cases
from fives.conformance.cases.kinds import load_kinds
from fives.conformance.cases.reachable import problems
from fives.match import Match
from fives.profiles import make_profile, rules_under
from fives.rules import load_rules
from fives.settlement import HandEnd, Settlement

FIXTURES = Path(__file__).resolve().parent.parent / "conformance" / "fixtures"
KINDS = load_kinds()


def cases(*names: str) -> list[Any]:
    return load_cases([FIXTURES / n for n in names], cache=False)


def failures(found: list[Any], hooks: dict[str, Any]) -> list[str]:
    """The ids of the cases an engine with `hooks` fails (each under its own rules)."""
    out = []
    for c in found:
        rules = rules_under(c.profile, c.game) if c.profile is not None else load_rules(c.game)
        kind = KINDS[c.kind]
        if kind.compare(c.expect, kind.run(rules, c.input, hooks)):
            out.append(c.id)
    return out


def test_the_new_cases_pass_the_reference_and_are_reachable():
    found = cases("play/before-the-opening.yaml", "play/draw-blocks-the-hand.yaml",
                  "illegal/opening-side-without-to.yaml", "parameters")
    assert len(found) == 4 + 2 + 4 + 9
    assert failures(found, {}) == []
    for c in found:
        rules = rules_under(c.profile, c.game) if c.profile is not None else load_rules(c.game)
        assert problems(rules, c.kind, c.input) == [], c.id


class DrawsBeforeTheOpening(Match):
    """The hole: an empty layout is taken to offer no placement, so the leader may draw (and
    is told to draw rather than pass)."""

    def _can_place_any(self, hand: Any) -> bool:
        return bool(len(self.layout)) and super()._can_place_any(hand)


def test_drawing_or_passing_before_the_opening():
    found = cases("play/before-the-opening.yaml")
    assert sorted(failures(found, {"match": DrawsBeforeTheOpening})) == sorted(c.id for c in found)


class BlockingDrawKeepsTheTurn(Match):
    """The hole a new user's engine had: a draw that blocks the hand leaves `turn_end` false."""

    def _draw(self, seat: int) -> Any:
        out = super()._draw(seat)
        if out.hand_end is not None:
            out.turn_end = False
        return out


def test_a_draw_that_blocks_the_hand_ends_the_turn_in_both_games():
    found = cases("play/draw-blocks-the-hand.yaml")
    assert {c.game for c in found} == {"american-sniff", "horse-race"} and not any(c.profile for c in found)
    assert sorted(failures(found, {"match": BlockingDrawKeepsTheTurn})) == sorted(c.id for c in found)


def test_an_opening_record_with_a_side_but_no_target(monkeypatch):
    found = cases("illegal/opening-side-without-to.yaml")
    parse = fives.evaluation.parse_placement

    def lenient(record: object, index: int) -> Any:
        # the hole: an opening's lone `side` is dropped instead of refused
        if index == 0 and isinstance(record, dict) and record.get("to") is None:
            record = {"tile": record.get("tile")}
        return parse(record, index)

    monkeypatch.setattr(fives.evaluation, "parse_placement", lenient)
    assert sorted(failures(found, {})) == sorted(c.id for c in found)


@pytest.mark.parametrize("case", cases("parameters"), ids=lambda c: c.id)
def test_each_parameter_case_fails_when_its_value_is_ignored(case):
    """Under the same profile less the value (the seeds' value for it), the answer differs."""
    path = next(k for k in case.profile.overrides if case.id.startswith(
        f"{case.id[:2]}-VAR-{k.replace('.', '-').replace('_', '-')}-"))
    rest = {k: v for k, v in case.profile.overrides.items() if k != path}
    base = rules_under(make_profile(case.game, rest), case.game)
    kind = KINDS[case.kind]
    assert kind.compare(case.expect, kind.run(base, case.input, {})) != []


class OwnSeatIsTheTeamsFirst(Settlement):
    """The hole: with `exclude_winner_partner: false` the winner's own seat is taken to be its
    team's first seat (seat 0 or 1), right only when that seat went out."""

    def award_seats(self, side: int, end: HandEnd) -> list[int]:
        if self.params.get("exclude_winner_partner", True):
            return super().award_seats(side, end)
        own = self.config.sides[side][0]
        return [s for s in range(self.config.players) if s != own]


def test_exclude_winner_partner_false_with_the_winner_not_at_seat_0():
    found = [c for c in cases("parameters") if "exclude-winner-partner" in c.id]
    assert found and all(c.input["partnerships"] for c in found)
    assert sorted(failures(found, {"settlement": OwnSeatIsTheTeamsFirst})) == sorted(c.id for c in found)


class ContinuationPasses(Match):
    """`continuation.no_legal_placement` ignored: a continuation without a placement passes
    instead of drawing (the seeds' value is draw-or-pass, its only one)."""

    def _hook_continuation_may_draw(self) -> bool:
        return False


def test_a_continuation_without_a_placement_draws():
    found = cases("play/horse-race-turn.yaml")
    assert {"HR-TURN-12"} <= set(failures(found, {"match": ContinuationPasses}))
