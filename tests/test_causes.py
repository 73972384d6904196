"""Failures grouped by cause when the causes are known (fives/conformance/reports/causes.py,
spec/reports.md): from a diagnosis (`conformance run --diagnosis FILE`) or from a rules profile
(`--rules P`: the parameter of P that changes each failing case)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from fives.cli import main
from fives.conformance.diagnose import diagnosis as dx
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.cases.fixtures import load_cases
from fives.conformance.runner import run_cases
from fives.profiles import make_profile

HR = "horse-race"
PLANTED = {"continuation.drawn_tile_ends_turn": False, "target.raw": {2: 250, 3: 250, 4: 250}}


def _black_box(tmp_path: Path, rules: dict) -> str:
    """`fives serve --rules P`: plays P, does not declare `rules` (a house-rules engine)."""
    path = tmp_path / "house.yaml"
    path.write_text(yaml.safe_dump({"extends": HR, "name": "house", "source": "test", "rules": rules}))
    return f"{sys.executable} -m fives serve --rules {path}"


def _run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, ["conformance", "run", *args])
    return r.exit_code, r.stdout, r.stderr


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_diagnosis_groups_the_run_by_its_causes(tmp_path: Path) -> None:
    cases = [c for c in load_cases() if c.game == HR and c.profile is None and "slow" not in c.tags]
    d = dx.diagnose(run_cases(ReferenceEngine(profile=make_profile(HR, PLANTED)), cases), [HR])
    diagnosis = tmp_path / "diagnosis.json"
    diagnosis.write_text(json.dumps(dx.to_json(d)))
    report, page = tmp_path / "r.json", tmp_path / "r.html"
    code, out, _ = _run("--engine", _black_box(tmp_path, PLANTED), "--game", HR, "--diagnosis", str(diagnosis),
                        "--report", f"json:{report}", "--report", f"html:{page}")
    assert code == 1
    lines = out.splitlines()
    head = lines.index("failures by cause (each failing case counted once):")
    named = {c.candidate.name: len(c.explained) for c in d.causes}
    assert set(named) == {"continuation.drawn_tile_ends_turn = false", 'target.raw = {"2":250,"3":250,"4":250}'}
    for name, n in named.items():  # each cause is a group of exactly the cases it explains
        assert any(line.startswith(f"  {n} case") and f"cause {name} (horse-race)" in line
                   for line in lines[head + 1:head + 4]), (name, lines[head:head + 4])
    doc = json.loads(report.read_text())
    by_cause = {g["group"]: g["cases"] for g in doc["failures_by_cause"]}
    assert by_cause == {f"cause {k} (horse-race)": v for k, v in named.items()}
    assert "failures_by_pattern" in doc  # the pattern grouping stays beside it
    html = page.read_text()
    assert "by cause" in html and "cause continuation.drawn_tile_ends_turn = false (horse-race)" in html


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_profile_groups_the_cases_it_changes_by_the_parameter_not_played(tmp_path: Path) -> None:
    # the engine plays only one of the profile's two parameters: the failures are the cases
    # the other one changes, grouped under it
    profile = tmp_path / "p.yaml"
    profile.write_text(yaml.safe_dump({"extends": HR, "name": "two", "source": "test", "rules": PLANTED}))
    report = tmp_path / "r.json"
    code, out, _ = _run("--engine", _black_box(tmp_path, {"continuation.drawn_tile_ends_turn": False}),
                        "--game", HR, "--rules", str(profile), "--report", f"json:{report}")
    assert code == 1
    doc = json.loads(report.read_text())
    failing = [c["id"] for c in doc["cases"] if c["status"] in ("failed", "errored")]
    groups = {g["group"]: g["ids"] for g in doc["failures_by_cause"]}
    target = 'two: target.raw = {"2":250,"3":250,"4":250}'
    # a case each parameter changes alone is named by both (golden v2: a turn with a drawn tile
    # by a side already past the profile's target of 50)
    joint = 'two: continuation.drawn_tile_ends_turn = false and ' + target.removeprefix("two: ")
    assert set(groups) <= {target, joint} and len(groups[target]) > len(groups.get(joint, []))
    assert sorted(i for ids in groups.values() for i in ids) == sorted(failing)
    assert 'failures by cause (each failing case counted once):\n  ' in out


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_without_causes_the_json_report_has_no_cause_groups(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    code, _, _ = _run("--engine", f"{sys.executable} -m fives serve --mutant zero-sum-scores", "--game", HR,
                      "--kind", "turn", "--report", f"json:{report}")
    doc = json.loads(report.read_text())
    assert code == 1 and "failures_by_pattern" in doc and "failures_by_cause" not in doc


@pytest.mark.parametrize("text, why", [
    ("{", "malformed JSON"),
    ('{"format": "fives-conformance/1"}', "not a diagnosis"),
    ('{"format": "fives-diagnosis/1", "causes": [{"ids": 3}]}', "malformed entry"),
])
def test_a_bad_diagnosis_file_is_one_line(tmp_path: Path, text: str, why: str) -> None:
    bad = tmp_path / "d.json"
    bad.write_text(text)
    code, out, err = _run("--diagnosis", str(bad), "--id", "SN-EX-*")
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and why in err and str(bad) in err
