"""A leader rule that reads the previous hand's leader (`lead.after_blocked` /
`after_gone_out`: next-seat, same-leader) is told apart from its rival by a request that names
that leader: the fuzzer's next-leader questions carry one under such rules (issue 39, the
benchmark's miss "same-leader named next-seat"), and never under the seeds."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
import yaml

from fives.conformance.engines.handle import EngineSpec
from fives.conformance.fuzz.small import next_leader_question
from fives.conformance.sessions.diagnose import Budget, DiagnoseOptions, diagnose
from fives.profiles import make_profile, rules_under
from fives.rules import load_rules

HR = "horse-race"


def _questions(rules, n: int = 200) -> list[dict]:
    rng = random.Random(3)
    return [next_leader_question(rng, rules)["input"] for _ in range(n)]


def test_next_leader_questions_name_the_previous_leader_only_where_a_rule_reads_it() -> None:
    seeds = _questions(load_rules(HR))
    assert not any("leader" in (q["previous"] or {}) for q in seeds)
    for value in ("next-seat", "same-leader"):
        rules = rules_under(make_profile(HR, {"lead.after_blocked": value}), HR)
        asked = _questions(rules)
        with_leader = [q for q in asked if q["previous"] is not None]
        assert with_leader and all(0 <= q["previous"]["leader"] < q["players"] for q in with_leader)
        # the draws that have no previous hand are the seeds' (the same stream up to the leader)
        assert [q["players"] for q in asked][:1] == [q["players"] for q in seeds][:1]


@pytest.mark.slow  # the Horse Race suite and a fuzz through the protocol: a few seconds
def test_same_leader_after_a_blocked_hand_is_named_by_a_probe_not_guessed(tmp_path: Path) -> None:
    p = tmp_path / "p.yaml"
    # benchmarks/diagnose_random.py --all, profile 2: the suite's few cases of it read next-seat as well
    planted = {"hand_end.blocked": "round-of-passes", "lead.after_blocked": "same-leader",
               "settlement.blocked_winner": "nobody"}
    p.write_text(yaml.safe_dump({"name": "same", "extends": HR, "source": "test", "rules": planted}))
    out = diagnose(DiagnoseOptions(EngineSpec(f"{sys.executable} -m fives serve --rules {p}"), games=(HR,),
                                   mutants=False, budget=Budget(120.0)))
    d = out.diagnosis
    assert {k: d.combined[HR].get(k) for k in planted} == planted, [c.candidate.name for c in d.causes]
    assert d.unexplained == [] and out.conforms
    # every failing case is counted once: a request refused twice by the engine is one case
    assert d.failing == len({r.case.id for c in d.causes for r in c.explained})
