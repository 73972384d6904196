"""Joint candidates (issue 39 item 1, fives/conformance/diagnose/inferred.py and search.py): values
that only show together in the same answers (a `setup` answer's hand size and target) are tried
together, and a target a setup answer states is read before the bound a match's end gives."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from fives.conformance.cases.fixtures import Case
from fives.conformance.diagnose import diagnosis as dx
from fives.conformance.diagnose.inferred import readings
from fives.conformance.engines.drivers import Outcome, ReferenceEngine
from fives.conformance.engines.handle import EngineSpec
from fives.conformance.runner import CaseResult
from fives.conformance.sessions.diagnose import Budget, DiagnoseOptions, diagnose
from fives.profiles import make_profile, parameters

SN = "american-sniff"


def _setup(players: int, engine: ReferenceEngine, cid: str) -> CaseResult:
    case = Case(cid, "setup", SN, ("SN-DEAL-1",), {}, {"players": players, "partnerships": False},
                ReferenceEngine().answer("setup", SN, {"players": players, "partnerships": False}), "t")
    return CaseResult(case, "failed", ["differs"], Outcome("ok", engine.answer("setup", SN, case.input)))


def test_a_target_a_setup_answer_states_comes_before_a_match_ends_bound() -> None:
    engine = ReferenceEngine(profile=make_profile(SN, {"target.raw": {2: 150}}))
    ended = CaseResult(Case("m", "match-end", SN, ("SN-MATCH-1",), {}, {"players": 2, "scores": [240, 0]},
                            {"winners": []}, "t"), "failed", ["differs"],
                       Outcome("ok", {"winners": [0], "scores": [245, 0]}))
    got = readings(SN, [ended, ended, _setup(2, engine, "s")], parameters(SN))
    assert got["target.raw"][0] == {2: 150, 3: 200, 4: 200}  # not 245: that match only bounds it


def test_two_values_shown_only_together_are_named_together() -> None:
    # the only failures are setup answers, each differing in the hand size and the target at
    # once: neither value alone explains one of them
    profile = make_profile(SN, {"deal.hand_size": {2: 9}, "target.raw": {2: 150}})
    engine = ReferenceEngine(profile=profile)
    failing = [_setup(2, engine, "s2")]
    passing = [CaseResult(Case("p3", "setup", SN, (), {}, {"players": 3, "partnerships": False},
                               ReferenceEngine().answer("setup", SN, {"players": 3, "partnerships": False}), "t"),
                          "passed")]
    d = dx.diagnose(failing + passing, [SN], mutants=False)
    assert d.combined[SN]["deal.hand_size"][2] == 9 and d.combined[SN]["target.raw"][2] == 150
    assert d.unexplained == [] and d.combined_explained == 1 and len(d.causes) == 2


@pytest.mark.slow  # the whole Sniff suite and a fuzz through the protocol: about a minute
def test_serve_with_a_hand_size_and_a_target_of_two_players_is_diagnosed_with_both(tmp_path: Path) -> None:
    p = tmp_path / "p.yaml"
    p.write_text(yaml.safe_dump({"name": "joint", "extends": SN, "source": "test",
                                 "rules": {"deal.hand_size": {2: 9}, "target.raw": {2: 150}}}))
    out = diagnose(DiagnoseOptions(EngineSpec(f"{sys.executable} -m fives serve --rules {p}"), games=(SN,),
                                   mutants=False, budget=Budget(120.0)))
    d = out.diagnosis
    assert d.combined[SN]["deal.hand_size"][2] == 9 and d.combined[SN]["target.raw"][2] == 150
    assert d.unexplained == [] and out.conforms and d.inconsistent == []
    assert {c.candidate.path for c in d.causes} == {"deal.hand_size", "target.raw"}




def test_a_by_players_value_is_stated_only_for_the_counts_the_answers_showed() -> None:
    # one value for every count was taken, but only the 2- and 3-player answers showed it
    from fives.conformance.diagnose.search import Candidate, Scorer

    engine = ReferenceEngine(profile=make_profile(SN, {"deal.hand_size": {2: 6, 3: 6, 4: 6}}))
    shown = [_setup(2, engine, "s2"), _setup(3, engine, "s3")]
    cand = Candidate('deal.hand_size = {"2":6,"3":6,"4":6}', SN, ("SN-DEAL-1",),
                     {"deal.hand_size": {2: 6, 3: 6, 4: 6}}, path="deal.hand_size")
    d = dx.Diagnosis([dx.Cause(cand, shown, shown[0])], [], 2, 0, 1, 0.0,
                     combined={SN: {"deal.hand_size": {2: 6, 3: 6, 4: 6}}})
    d.scorers[SN] = Scorer(SN, {}, shown, [])
    # 3 players deal 6 in the seeds' game already; 4 players: no answer said, the base game's 5
    assert yaml.safe_load(dx.profile_yaml(d, SN))["rules"] == {"deal.hand_size": {2: 6}}
    assert dx.to_json(d)["profile"] == {SN: {"deal.hand_size": {2: 6}}}
    said = [line for line in dx.lines(d) if line.startswith("  stated as ")]
    assert said == ['  stated as deal.hand_size = {"2":6}: 4 players left to the base game (no answer showed them)']
    assert make_profile(SN, {"deal.hand_size": {2: 6}}).overrides["deal.hand_size"] == {2: 6, 3: 6, 4: 5}


def test_a_cluster_of_a_kind_without_a_shrinker_gets_its_case_asked_again_as_its_minimal_case() -> None:
    # issue 39 item 5: a setup (or tally) cluster kept the suite's case, unwritten
    from fives.conformance.diagnose.probe import _minimal, pattern_oracle

    engine = ReferenceEngine(profile=make_profile(SN, {"deal.hand_size": {2: 9}}))
    r = _setup(2, engine, "G-SN-setup-x")
    d = dx.Diagnosis([], [], 1, 0, 0, 0.0)
    oracle = pattern_oracle(engine, None, "hand_size: number -> number")  # type: ignore[arg-type]
    got, doc = _minimal(d, engine, oracle, [r], 100, lambda f: True, "cluster k", "about", ("SN-DEAL-1",))  # type: ignore[arg-type]
    assert got is r and doc is not None and doc["input"] == r.case.input and doc["id"].startswith("DX-SN-setup-")
    # a setup for 2 players has no fewer players to be asked for (diagnose/small_kinds.py)
    assert "asked again as it is (none smaller of its kind disagrees the same way)" in doc["source"]["derived"]
    assert d.replies[doc["id"]]["hand_size"] == 9  # the engine's answer, for the recheck


ALL_FIVES = ["[5|5]", "[1|1]", "[2|2]", "[3|3]", "[4|4]", "[6|6]", "[0|0]"]  # an order no book lists


def test_separating_probes_read_an_opening_order_no_book_lists() -> None:
    from fives.conformance.diagnose.orders import probe_orders, read_orders
    from fives.profile_space import OPENING_ORDERS

    hr = "horse-race"
    engine = ReferenceEngine(profile=make_profile(hr, {"opening.requires": "fixed-order",
                                                       "lead.first_hand": "opening-order",
                                                       "opening.order": ALL_FIVES}))
    base = ReferenceEngine()
    hand = {"layout": [], "hand": ["[0|0]", "[4|4]", "[1|4]", "[3|6]", "[0|2]", "[2|5]", "[5|6]"], "boneyard": 14}
    case = Case("L", "legal-placements", hr, ("HR-LEAD-2",), {}, hand, base.answer("legal-placements", hr, hand), "t")
    failing = [CaseResult(case, "failed", ["d"], engine.run(case))]
    known = [parameters(hr)["opening.order"], *OPENING_ORDERS]
    assert ALL_FIVES not in read_orders(failing, [], known)  # the case at hand says [4|4] before [0|0] only
    probes = probe_orders(engine, hr, failing, [], lambda i: base.answer("legal-placements", hr, i))
    assert 0 < len(probes) <= 21 and all(r.case.id.startswith("PROBE-HR-legal-placements-") for r in probes)
    assert read_orders(failing, probes, known) == [ALL_FIVES]  # one order left: the engine's


@pytest.mark.slow
def test_an_engine_with_an_order_no_book_lists_is_named_with_its_exact_order(tmp_path: Path) -> None:
    p = tmp_path / "p.yaml"
    p.write_text(yaml.safe_dump({"name": "all-fives", "extends": "horse-race", "source": "test", "rules": {
        "opening.requires": "fixed-order", "lead.first_hand": "opening-order", "opening.order": ALL_FIVES}}))
    out = diagnose(DiagnoseOptions(EngineSpec(f"{sys.executable} -m fives serve --rules {p}"), games=("horse-race",),
                                   mutants=False, budget=Budget(120.0)))
    assert out.diagnosis.combined["horse-race"]["opening.order"] == ALL_FIVES and out.conforms
    assert any("separating probe(s) asked which of two doubles opens" in n for n in out.notes)


def _ended(players: int, at: int) -> CaseResult:
    # a match the engine ended at `at` where the seeds play on
    scores = [at] + [0] * (players - 1) if players < 4 else [at, 0]
    return CaseResult(Case(f"m{players}-{at}", "match-end", SN, ("SN-MATCH-1",), {}, {"players": players},
                           {"winners": []}, "t"), "failed", ["differs"], Outcome("ok", {"winners": [0], "scores": scores}))


def test_a_match_ended_at_or_above_the_base_target_bounds_no_target() -> None:
    # Sniff's seeds play to 250 with two players, 200 with three or four: a match ended at 215
    # bounds a two-player target (215 < 250) but says nothing of three players' (215 >= 200:
    # the match ended by another rule, a settlement's); benchmark miss 18 read 215 for both
    got = readings(SN, [_ended(2, 215), _ended(3, 215)], parameters(SN))
    assert got["target.raw"][0] == {2: 215, 3: 200, 4: 200}
    assert readings(SN, [_ended(3, 215), _ended(3, 200)], parameters(SN))["target.raw"] == []


@pytest.mark.slow  # the Sniff suite twice in process: a few seconds
@pytest.mark.parametrize("planted", [
    # benchmarks/diagnose_random.py --all, profiles 18 and 19: a hand size and a target of one
    # count beside an award; the target was read off match ends the award explains
    {"deal.hand_size": {2: 8, 3: 6, 4: 5}, "settlement.blocked_winner": "nobody",
     "settlement.kind": "award-to-winner", "target.raw": {2: 205, 3: 200, 4: 200}},
    {"deal.hand_size": {2: 7, 3: 6, 4: 6}, "settlement.kind": "award-to-winner",
     "settlement.subtract_winner_own": True, "target.raw": {2: 250, 3: 200, 4: 395}}])
def test_a_joint_hand_size_and_target_beside_an_award_are_named(planted: dict[str, Any]) -> None:
    from fives.conformance.cases.fixtures import load_cases
    from fives.conformance.runner import run_cases

    suite = [c for c in load_cases() if c.game == SN and c.profile is None and "slow" not in c.tags]
    d = dx.diagnose(run_cases(ReferenceEngine(profile=make_profile(SN, planted)), suite), [SN], mutants=False)
    assert d.unexplained == []
    named = {p: d.combined[SN].get(p) for p in planted}
    assert {p: ({int(k): x for k, x in v.items()} if isinstance(v, dict) else v) for p, v in named.items()} == planted
