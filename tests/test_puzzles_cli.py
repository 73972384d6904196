"""`fives puzzles`: generation is deterministic and every generated puzzle verifies."""
import json

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from fives.support import paths
from fives.cli import main
from fives.puzzles.brute import count_solutions
from fives.puzzles.model import load_set
from fives.puzzles.z3model import PuzzleModel


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def hr_set(tmp_path_factory):
    out = tmp_path_factory.mktemp("pz") / "hr.yaml"
    r = run("puzzles", "generate", "--game", "horse-race", "--count", "6", "--seed", "11", "--out", str(out))
    assert r.exit_code == 0, r.output
    return out


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_same_seed_same_bytes(hr_set, tmp_path):
    again = tmp_path / "again.yaml"
    run("puzzles", "generate", "--game", "horse-race", "--count", "6", "--seed", "11", "--out", str(again))
    assert again.read_bytes() == hr_set.read_bytes()
    other = tmp_path / "other.yaml"
    run("puzzles", "generate", "--game", "horse-race", "--count", "6", "--seed", "12", "--out", str(other))
    assert other.read_bytes() != hr_set.read_bytes()


def test_mix_of_kinds_and_schema(hr_set):
    data = yaml.safe_load(hr_set.read_text())
    schema = json.loads((paths.SPEC_SCHEMAS / "puzzles.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(data)
    assert [p["kind"] for p in data["puzzles"]] == ["single", "turn", "build"] * 2
    assert all(p["unit"] == "displayed" for p in data["puzzles"])
    assert data["puzzles"][1]["boneyard"] == []


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_every_puzzle_unique_by_both_solvers(hr_set, tmp_path):
    sniff = tmp_path / "sn.json"
    assert run("puzzles", "generate", "--game", "american-sniff", "--count", "4", "--seed", "3",
               "--out", str(sniff)).exit_code == 0
    for f in (hr_set, sniff):
        _, puzzles, _ = load_set(f)
        for _, pz in puzzles:
            found = PuzzleModel(pz.problem).solve(limit=3)
            assert [a for a, _ in found] == [pz.solution]
            assert count_solutions(pz.problem, budget=None).count == 1


def test_verify_passes_then_names_the_tampered_puzzle(hr_set, tmp_path):
    r = run("puzzles", "verify", str(hr_set))
    assert r.exit_code == 0 and "6 puzzles verified" in r.output and "agrees on 6" in r.output
    data = yaml.safe_load(hr_set.read_text())
    data["puzzles"][2]["solution_points"][0] += 1
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data))
    r = CliRunner().invoke(main, ["puzzles", "verify", str(bad)])
    assert r.exit_code == 2
    assert f"puzzle 3 ({data['puzzles'][2]['id']})" in r.output and "solution_points" in r.output


def test_solve_reports_a_second_answer(tmp_path):
    # A bare puzzle whose target 3 has two answers (worked out in test_puzzles_solvers)
    rec = {"game": "horse-race", "kind": "turn", "target": 3,
           "layout": [{"tile": "[1|4]"}], "hand": ["[1|1]", "[3|4]", "[4|4]"]}
    f = tmp_path / "two.yaml"
    f.write_text(yaml.safe_dump([rec]))
    r = CliRunner().invoke(main, ["puzzles", "solve", str(f)])
    assert r.exit_code == 1 and "answers: 2" in r.output


@pytest.mark.parametrize("args,message", [
    (["--game", "american-sniff", "--kind", "turn"], "american-sniff has no turn puzzles"),
    (["--game", "chess"], "unknown game 'chess'"),
])
def test_generate_bad_input(tmp_path, args, message):
    r = CliRunner().invoke(main, ["puzzles", "generate", *args, "--count", "1", "--seed", "1",
                                  "--out", str(tmp_path / "x.yaml")])
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output


def test_bad_file_is_one_line(tmp_path):
    f = tmp_path / "broken.yaml"
    f.write_text("format: fives-puzzles/1\npuzzles: [{game: horse-race}]\n")
    r = CliRunner().invoke(main, ["puzzles", "verify", str(f)])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "schema violation" in r.output


def test_difficulty_target(tmp_path):
    out = tmp_path / "d.yaml"
    r = run("puzzles", "generate", "--game", "american-sniff", "--kind", "single", "--count", "3", "--seed", "5",
            "--difficulty", "4", "--out", str(out))
    assert r.exit_code == 0
    assert [p["difficulty"]["grade"] for p in yaml.safe_load(out.read_text())["puzzles"]] == [4, 4, 4]


def _fixture_validator():
    base = json.loads((paths.CONFORMANCE_SCHEMAS / "fixtures.schema.json").read_text())
    kind = json.loads((paths.CONFORMANCE_SCHEMAS / "kinds" / "evaluate.schema.json").read_text())
    return jsonschema.Draft202012Validator(base), jsonschema.Draft202012Validator(kind)


def test_to_golden(hr_set, tmp_path):
    from fives.evaluation import evaluate
    out = tmp_path / "golden.yaml"
    assert run("puzzles", "to-golden", str(hr_set), "--out", str(out)).exit_code == 0
    doc = yaml.safe_load(out.read_text())
    base, kind = _fixture_validator()
    base.validate(doc)
    assert len(doc["cases"]) == 6
    for case in doc["cases"]:
        kind.validate(case)
        result = evaluate(case["game"], case["input"]["placements"])
        assert {k: result[k] for k in case["expect"]} == case["expect"]
        assert case["id"].startswith("PZ-")


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_committed_files_are_valid():
    base, kind = _fixture_validator()
    doc = yaml.safe_load((paths.FIXTURES / "extremal" / "extremal.yaml").read_text())
    base.validate(doc)
    sums = {(c["game"], c["expect"]["sum"]) for c in doc["cases"]}
    assert sums == {("american-sniff", 36), ("american-sniff", 35), ("horse-race", 75)}
    schema = json.loads((paths.SPEC_SCHEMAS / "puzzles.schema.json").read_text())
    for f in sorted((paths.ROOT / "puzzles").glob("*.yaml")):
        jsonschema.Draft202012Validator(schema).validate(yaml.safe_load(f.read_text()))
