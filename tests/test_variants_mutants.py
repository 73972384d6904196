"""One source of truth: a shipped mutant that is really a rule variant answers every case of the
whole suite (fixtures, the golden suites, the perft table) exactly as the reference under the
profile that sets that variant."""
from __future__ import annotations

import json
from typing import Any

import pytest

from fives.conformance.cases.fixtures import load_cases
from fives.conformance.cases.kinds import load_kinds
from fives.conformance.mutants.registry import all_mutants
from fives.profiles import make_profile, rules_under
from fives.rules import load_rules

#: the shipped mutants that are rule variants: each states, per game, the overrides it plays
#: (`Mutant.variant`, read by `conformance diagnose`); a mutant dropped from the list fails here
VARIANT_NAMES = {"drawn-tile-continues", "match-ends-at-hand-end", "settle-after-match-end", "tied-winners-split",
                 "winner-own-subtracted", "winner-partner-counted", "partners-merged", "remainder-2-rounds-up",
                 "remainder-3-rounds-down", "only-first-double-spins", "later-doubles-spin",
                 "sniff-branch-halves-not-counted", "unused-branches-counted"}
#: mutant -> (the games where it is a variant, the profile overrides it equals there)
VARIANT_MUTANTS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    m.name: (tuple(m.variant), {g: o for g, o in m.variant.items() if o}) for m in all_mutants() if m.variant}
KINDS = load_kinds()


@pytest.fixture(scope="module")
def cases() -> list[Any]:
    every = load_cases()
    assert {c.file.split("/")[1] for c in every} >= {"fixtures", "golden", "perft"}
    return [c for c in every if c.profile is None and "slow" not in c.tags]


def answer(kind: str, rules: Any, input: dict[str, Any], hooks: dict[str, Any]) -> str:
    try:
        got: Any = KINDS[kind].run(rules, input, hooks)
    except ValueError as e:
        got = {"refused": str(e)}
    return json.dumps(got, sort_keys=True, default=str)


def test_the_variant_mutants_are_those_listed() -> None:
    assert set(VARIANT_MUTANTS) == VARIANT_NAMES


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
