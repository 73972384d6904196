"""Findings under the clause they break (issue 37): the default fuzz (500 draws, seed 0) of
every shipped mutant files every finding under the mutant's clause (or the same rule of the
other game, or a clause its reading breaks too: `Mutant.clauses_in`), never under the clause
the generator meant to exercise."""
from __future__ import annotations

import pytest

from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.fuzz import Fuzzer
from fives.conformance.fuzz.attribute import broken_clause, tags
from fives.conformance.mutants.layout import COUNTERPART
from fives.conformance.mutants.registry import all_mutants
from fives.rules import load_rules

MUTANTS = all_mutants()


@pytest.mark.slow  # a default fuzz per mutant: seconds each
@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_the_default_fuzz_files_every_finding_under_the_mutants_clause(mutant) -> None:
    report = Fuzzer(ReferenceEngine(mutant.hooks(), name=mutant.name), seed=0).run(cases=500)
    assert report.findings, f"{mutant.name}: not found in the default 500 draws"
    wrong = [(f.game, f.kind, f.clause, f.keys) for f in report.findings if f.clause not in mutant.clauses_in(f.game)]
    assert not wrong, f"{mutant.name} ({mutant.clause}): {wrong}"


def test_counterparts_are_clauses_of_the_other_game_both_ways() -> None:
    from fives.conformance.cases.clauses import load_clauses

    clauses = load_clauses()
    for a, b in COUNTERPART.items():
        assert a in clauses and b in clauses and a[:2] != b[:2] and COUNTERPART[b] == a


def test_a_partners_merged_settlement_is_filed_under_settle_3() -> None:
    """The seed's example (hands of 7 and 12 round to 5 and 10: 15 deducted from the team, not
    20), the engine rounding the merged hands: SN-SETTLE-3."""
    from fives.conformance.mutants.play import PartnersMerged

    rules = load_rules("american-sniff")
    settle = {"players": 4, "partnerships": True, "scores": [0, 0], "end": {"reason": "blocked", "seat": None},
              "remaining": [["[0|3]", "[0|4]"], ["[1|1]"], ["[1|5]", "[2|4]"], ["[2|2]"]]}
    ref = ReferenceEngine().answer("settle", rules.id, settle)
    bad = ReferenceEngine({"settlement": PartnersMerged}).answer("settle", rules.id, settle)
    assert ref["scores"] == [-15, -5] and bad["scores"] == [-20, -5]
    keys = tuple(k for k in ("changes[]", "deductions[].points", "scores[]"))
    clause = broken_clause(rules, "settle", settle, ref, bad, keys, (), tags(rules, "settle", settle, ref, bad))
    assert clause == "SN-SETTLE-3"
