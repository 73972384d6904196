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

from fives.conformance.mutants.play import PLAY_MUTANTS
import yaml

from fives.conformance.cases.kinds import load_kinds
from fives.conformance.cases.kinds.play import compare_subset
from fives.rules import load_rules

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


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
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


# -- the misreadings, one hook each: the shipped mutant engines (fives/conformance/mutants/play.py) ------------
_BY_NAME = {m.name: m for m in PLAY_MUTANTS}
MISREADINGS = {
    "remainder 2 rounded up": _BY_NAME["remainder-2-rounds-up"].hooks(),
    "remainder 3 rounded down": _BY_NAME["remainder-3-rounds-down"].hooks(),
    "partners' hands merged before rounding": _BY_NAME["partners-merged"].hooks(),
    "a drawn tile earns a continuation": _BY_NAME["drawn-tile-continues"].hooks(),
    "a scoring double earns two continuations": _BY_NAME["scoring-double-twice"].hooks(),
    "the match ends only at the end of the hand": _BY_NAME["match-ends-at-hand-end"].hooks(),
    "settlement applied after the match ended": _BY_NAME["settle-after-match-end"].hooks(),
    "tied winners split the award": _BY_NAME["tied-winners-split"].hooks(),
    "the winner's partner's tiles counted in the award": _BY_NAME["winner-partner-counted"].hooks(),
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
