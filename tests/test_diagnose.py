"""`fives conformance diagnose` (fives/conformance/diagnose.py, spec/diagnose.md): planted
rule variants and mutants are named, nothing else; the rest is clustered."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
import yaml

from fives.conformance import diagnose as dx
from fives.conformance.drivers import ReferenceEngine
from fives.conformance.fixtures import load_cases
from fives.conformance.kinds import load_kinds
from fives.conformance.mutants import all_mutants
from fives.conformance.runner import run_cases
from fives.profiles import make_profile, random_profile
from fives.support.paths import ROOT

KINDS = load_kinds()
MUTANTS = {m.name: m for m in all_mutants()}


def suite(game: str) -> list:
    return [c for c in load_cases() if c.game == game and c.rules is None and "slow" not in c.tags]


def diagnosis(engine: ReferenceEngine, game: str) -> dx.Diagnosis:
    return dx.diagnose(run_cases(engine, suite(game), KINDS), KINDS, [game])


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("seed", [4, 7])
def test_a_random_profile_is_named_exactly(seed):
    prof = random_profile(random.Random(seed), "horse-race", 2)
    d = diagnosis(ReferenceEngine(profile=prof), "horse-race")
    found = {k: v for c in d.causes for k, v in c.candidate.overrides.items()}
    assert found == dict(prof.overrides), [c.candidate.name for c in d.causes]
    assert all(c.candidate.mutant is None for c in d.causes)
    assert d.combined == {"horse-race": dict(prof.overrides)} and d.combined_broken == 0


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_mutant_that_is_a_variant_and_one_that_is_not():
    d = diagnosis(ReferenceEngine(MUTANTS["drawn-tile-continues"].hooks()), "horse-race")
    assert [c.candidate.name for c in d.causes] == ["continuation.drawn_tile_ends_turn = false"]
    assert d.unexplained == [] and d.explained == d.failing > 0
    assert d.causes[0].candidate.clauses == ("HR-CONT-5",)
    text = "\n".join(dx.lines(d))
    assert "departs from HR-CONT-5 (A drawn tile always ends the turn)" in text and "«" in text


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_the_reference_has_nothing_to_explain():
    d = diagnosis(ReferenceEngine(), "american-sniff")
    assert d.causes == [] and d.unexplained == [] and d.failing == 0


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_cli_through_the_protocol(tmp_path):
    prof = make_profile("horse-race", {"continuation.drawn_tile_ends_turn": False})
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump({"extends": "horse-race", "name": "p", "source": "test",
                                    "rules": dict(prof.overrides)}))
    out = tmp_path / "dx"
    cmd = [sys.executable, "-m", "fives.cli", "conformance", "diagnose", "--engine",
           f"{sys.executable} -m fives.cli serve --rules {path}", "--game", "horse-race", "--out", str(out)]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.startswith("cause: continuation.drawn_tile_ends_turn = false (horse-race): explains ")
    assert yaml.safe_load((out / "profile-horse-race.yaml").read_text())["rules"] == {
        "continuation.drawn_tile_ends_turn": False}
    doc = json.loads((out / "diagnosis.json").read_text())
    assert doc["format"] == "fives-diagnosis/1" and doc["unexplained"] == []
    (example,) = [f for f in out.glob("*.yaml") if not f.name.startswith("profile-")]
    assert load_cases([example])[0].id == doc["causes"][0]["example"]


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_without_mutants_a_misreading_no_variant_expresses_is_a_cluster():
    engine = ReferenceEngine(MUTANTS["scoring-double-twice"].hooks())
    d = dx.diagnose(run_cases(engine, suite("horse-race"), KINDS), KINDS, ["horse-race"], mutants=False)
    assert d.causes == [] and d.failing > 0
    assert sum(g.count for g in d.unexplained) == d.failing
    assert "the engine's likely bugs" in "\n".join(dx.lines(d))


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_inputs_a_cause_makes_illegal_are_explained_by_it(tmp_path):
    # an engine with no spinner refuses the perft rows built on a spinner's branches: those
    # refusals are explained by the same cause (under it the input is illegal), not left as bugs
    profile = tmp_path / "no-spinner.yaml"
    profile.write_text("extends: american-sniff\nname: no-spinner\nsource: test\nrules:\n"
                       "  spinners.policy: none\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "fives", "conformance", "diagnose", "--game", "american-sniff",
                        "--engine", f"{sys.executable} -m fives serve --rules {profile}", "--no-mutants", "--json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert [c["overrides"] for c in d["causes"]] == [{"spinners.policy": "none"}]
    assert d["unexplained"] == [] and d["explained"] == d["failing"] > 0
    assert any(i.startswith("PERFT-american-sniff-filled-spinner-D2-") for i in d["causes"][0]["ids"])
