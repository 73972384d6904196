"""A value a cause brings into play (diagnose/unlocked.py): `opening.scope` changes nothing under
the seeds' `opening.requires: any`, so no suite case tells its values apart; once a requirement
is named, probes of a later hand's opening decide it (issue 39, benchmark --all --misreading
miss 8: `first-hand` was left out and the profile written passed every check)."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
import yaml

from fives.conformance.diagnose.diagnosis import Diagnosis
from fives.conformance.diagnose.search import candidates
from fives.conformance.diagnose.unlocked import unlocked
from fives.conformance.engines.handle import EngineSpec
from fives.conformance.fuzz.small import small_state
from fives.conformance.sessions.diagnose import Budget, DiagnoseOptions, diagnose
from fives.profiles import make_profile, rules_under
from fives.rules import load_rules

SN = "american-sniff"


def _diagnosis_choosing(*names: str) -> Diagnosis:
    d = Diagnosis([], [], 0, 0, 0, 0.0)
    pool = {c.name: c for c in candidates(SN, {}, mutants=False)}
    d.chosen[SN] = tuple(pool[n] for n in names)
    return d


def test_a_named_requirement_brings_the_scope_into_play() -> None:
    assert unlocked(_diagnosis_choosing('opening.requires = "highest-double"'), SN) == ["opening.scope"]
    assert unlocked(_diagnosis_choosing('drawing.limit = 3'), SN) == []
    # a cause that sets the scope itself (with its companion requirement) leaves nothing to probe
    assert "opening.scope" not in unlocked(_diagnosis_choosing('opening.scope = "first-hand"'), SN)


def test_under_a_requirement_the_fuzzer_opens_later_hands_too_and_never_under_the_seeds() -> None:
    def hands(rules) -> set[int]:
        rng, seen = random.Random(4), set()
        for _ in range(80):
            made = small_state(rng, rules, opening=True)
            if made is not None:
                seen.add(made[0].hand_no)
                assert ("hand_number" in made[1]) == (made[0].hand_no > 1)
        return seen
    assert hands(load_rules(SN)) == {1}
    assert hands(rules_under(make_profile(SN, {"opening.requires": "highest-double"}), SN)) == {1, 2}


@pytest.mark.slow  # the Sniff suite and a fuzz through the protocol: seconds
def test_a_first_hand_scope_is_named_beside_its_requirement(tmp_path: Path) -> None:
    planted = {"drawing.limit": 3, "opening.requires": "highest-double", "opening.scope": "first-hand"}
    p = tmp_path / "p.yaml"
    p.write_text(yaml.safe_dump({"name": "scope", "extends": SN, "source": "test", "rules": planted}))
    out = diagnose(DiagnoseOptions(EngineSpec(f"{sys.executable} -m fives serve --rules {p}"), games=(SN,),
                                   mutants=False, budget=Budget(120.0)))
    d = out.diagnosis
    assert {k: d.combined[SN].get(k) for k in planted} == planted, [c.candidate.name for c in d.causes]
    assert d.unexplained == [] and out.conforms
