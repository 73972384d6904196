"""A puzzle set made under a rule profile (`--rules P`) through `fives.puzzles.api`: one model,
so the set keeps P when loaded, saves back byte for byte, and is verified and solved under P;
the CLI and the API give the same verdicts (issue 36, item 3)."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from fives.cli import main
from fives.profiles import load_profile
from fives.puzzles import api as puzzles
from test_rules_option import write_profile  # the profile writer the --rules tests use

pytest.importorskip("z3")

#: Points shown per five in American Sniff: a puzzle's target and points are a fifth of the
#: seeds' raw points, so under the seeds' rules its stated solution no longer scores its target.
PER_FIVE = {"points.display_divisor": 5, "points.unit": "displayed"}
GENERATE = ["puzzles", "generate", "--game", "american-sniff", "--game", "horse-race", "--kind", "single",
            "--count", "4", "--seed", "4"]


@pytest.fixture(scope="module")
def profiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(set file, profile file): four single puzzles, two of each game, made under sn-per-five."""
    d = tmp_path_factory.mktemp("profiled")
    profile = write_profile(d, "sn-per-five", "american-sniff", PER_FIVE)
    out = d / "set.yaml"
    r = CliRunner().invoke(main, [*GENERATE, "--out", str(out), "--rules", str(profile)])
    assert r.exit_code == 0, r.output
    return out, profile


def test_a_profiled_set_round_trips_byte_for_byte(profiled: tuple[Path, Path], tmp_path: Path) -> None:
    path, profile_file = profiled
    pset = puzzles.load(path)
    assert pset.dumps() == path.read_text(encoding="utf-8")
    pset.save(tmp_path / "again.yaml")
    assert (tmp_path / "again.yaml").read_bytes() == path.read_bytes()
    profile = load_profile(str(profile_file))
    assert pset.profile is not None and (pset.profile.name, pset.profile.digest) == ("sn-per-five", profile.digest)
    assert yaml.safe_load(pset.dumps())["rules"]["digest"] == profile.digest
    # each puzzle keeps the profile of its game: the Sniff ones P, the Horse Race ones the seeds' rules
    assert [(p.game, p.profile is not None, p.unit) for p in pset] == [
        ("american-sniff", True, "displayed"), ("horse-race", False, "displayed")] * 2
    # the API makes the same set: equal values, the same bytes as JSON as the command's --json
    made = puzzles.generate(["american-sniff", "horse-race"], 4, 4, kind="single", profile=profile)
    assert made == pset and made.dumps() == pset.dumps()
    r = CliRunner().invoke(main, [*GENERATE, "--out", str(tmp_path / "set.json"), "--rules", str(profile_file)])
    assert r.exit_code == 0, r.output
    assert made.dumps(json=True) == (tmp_path / "set.json").read_text(encoding="utf-8")
    assert json.loads(made.dumps(json=True))["rules"]["name"] == "sn-per-five"


def test_verify_and_solve_a_profiled_set_under_its_profile(profiled: tuple[Path, Path]) -> None:
    path, _ = profiled
    pset = puzzles.load(path)
    assert [(c.id, c.ok, c.reason) for c in puzzles.verify(pset)] == [(p.id, True, None) for p in pset]
    assert [c.ok for c in puzzles.verify(path)] == [True] * 4
    for p in pset:
        solved = puzzles.solve(p)
        assert solved.unique is True and [a.placements for a in solved.answers] == [p.solution]
        assert solved.answers[0].points == p.solution_points
    # the profile is what makes them right: under the seeds' rules a Sniff puzzle scores 5 times its target
    sniff = pset[0]
    [plain] = puzzles.verify(dataclasses.replace(sniff, profile=None))
    assert not plain.ok and plain.reason == (f"the solution scores {[5 * x for x in sniff.solution_points]}, "
                                             f"not the target {sniff.target}")


def test_the_cli_and_the_api_give_the_same_verdicts(profiled: tuple[Path, Path], tmp_path: Path) -> None:
    path, profile = profiled
    r = CliRunner().invoke(main, ["puzzles", "verify", str(path), "--rules", str(profile)])
    assert r.exit_code == 0 and r.stdout.startswith(f"{path}: 4 puzzles verified: "), r.output
    assert all(c.ok for c in puzzles.verify(path))
    # one stated point changed: both name puzzle 2 and give the same reason
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["puzzles"][2]["solution_points"] = [data["puzzles"][2]["solution_points"][0] + 1]
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    checks = puzzles.verify(bad)
    assert [c.ok for c in checks] == [True, True, False, True]
    r = CliRunner().invoke(main, ["puzzles", "verify", str(bad), "--rules", str(profile)])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == f"fives: error: {bad}: puzzle 3 ({checks[2].id}): {checks[2].reason}\n"
    # and solve: every answer the command prints is the API's
    r = CliRunner().invoke(main, ["puzzles", "solve", str(path), "--json"])
    assert r.exit_code == 0, r.output
    printed = json.loads(r.stdout)["results"]
    assert [(x["puzzle"], x["answers"], x["unique"]) for x in printed] == [
        (p.id, len(s.answers), s.unique) for p in puzzles.load(path) for s in [puzzles.solve(p)]]
