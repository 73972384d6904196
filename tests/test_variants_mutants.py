"""One source of truth: a shipped mutant that is really a rule variant answers every case of the
whole suite (fixtures, the golden suites, the perft table) exactly as the reference under the
profile that sets that variant."""
from __future__ import annotations

import json
from typing import Any

import pytest

from fives.conformance.fixtures import load_cases
from fives.conformance.kinds import load_kinds
from fives.conformance.mutants import all_mutants
from fives.profiles import make_profile, rules_under
from fives.rules import load_rules

HR, SN = "horse-race", "american-sniff"
#: mutant -> (the games where it is a variant, the profile overrides it equals there)
VARIANT_MUTANTS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "drawn-tile-continues": ((HR, SN), {HR: {"continuation.drawn_tile_ends_turn": False}}),
    "match-ends-at-hand-end": ((HR, SN), {g: {"match_end.on_placement": "hand-end"} for g in (HR, SN)}),
    "settle-after-match-end": ((HR, SN), {g: {"match_end.settle_after_match_end": True} for g in (HR, SN)}),
    "tied-winners-split": ((HR, SN), {HR: {"settlement.ties": "split"}}),
    "winner-own-subtracted": ((HR, SN), {HR: {"settlement.subtract_winner_own": True}}),
    "winner-partner-counted": ((HR, SN), {HR: {"settlement.exclude_winner_partner": False}}),
    "partners-merged": ((HR, SN), {SN: {"settlement.merge_partners": True}}),
    "remainder-2-rounds-up": ((HR, SN), {g: {"settlement.rounding.round_up_from_remainder": 2} for g in (HR, SN)}),
    "remainder-3-rounds-down": ((HR, SN), {g: {"settlement.rounding.round_up_from_remainder": 4} for g in (HR, SN)}),
    "only-first-double-spins": ((HR,), {HR: {"spinners.policy": "first-double"}}),
    "later-doubles-spin": ((SN,), {SN: {"spinners.policy": "every-double"}}),
}
KINDS = load_kinds()


@pytest.fixture(scope="module")
def cases() -> list[Any]:
    every = load_cases()
    assert {c.file.split("/")[1] for c in every} >= {"fixtures", "golden", "perft"}
    return [c for c in every if c.rules is None and "slow" not in c.tags]


def answer(kind: str, rules: Any, input: dict[str, Any], hooks: dict[str, Any]) -> str:
    try:
        got: Any = KINDS[kind].run(rules, input, hooks)
    except ValueError as e:
        got = {"refused": str(e)}
    return json.dumps(got, sort_keys=True, default=str)


def test_every_listed_mutant_is_shipped() -> None:
    assert set(VARIANT_MUTANTS) <= {m.name for m in all_mutants()}


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("name", sorted(VARIANT_MUTANTS))
def test_a_variant_mutant_equals_its_profile_case_by_case(name: str, cases: list[Any]) -> None:
    mutant = next(m for m in all_mutants() if m.name == name)
    games, overrides = VARIANT_MUTANTS[name]
    changed = 0
    for game in games:
        profile = make_profile(game, overrides[game]) if game in overrides else None
        under = rules_under(profile, game)
        plain = load_rules(game)
        for c in cases:
            if c.game != game:
                continue
            want = answer(c.kind, under, c.input, {})
            got = answer(c.kind, plain, c.input, mutant.hooks())
            assert got == want, f"{name} and its profile answer {c.id} differently"
            changed += want != answer(c.kind, plain, c.input, {})
    assert changed > 0, f"{name}: no case tells the variant from the seeds"
