"""Golden suite generation: deterministic, parallel-safe, valid, and right."""
from __future__ import annotations

import hashlib

import yaml
from click.testing import CliRunner

from fives.cli import main
from fives.fixtures import lint, load_cases
from fives.golden.generate import generate
from fives.kinds import load_kinds
from fives.paths import CONFORMANCE
from fives.rules import load_rules


def tree(path):
    return {p.relative_to(path).as_posix(): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def test_same_seed_byte_identical_and_jobs_do_not_matter(tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    args = ["golden", "generate", "--game", "american-sniff", "--game", "horse-race", "--cases", "60", "--seed", "11"]
    assert CliRunner().invoke(main, args + ["--out", str(a)]).exit_code == 0
    assert CliRunner().invoke(main, args + ["--out", str(b)]).exit_code == 0
    assert CliRunner().invoke(main, args + ["--out", str(c), "--jobs", "2"]).exit_code == 0
    assert tree(a) == tree(b) == tree(c)
    d = tmp_path / "d"
    CliRunner().invoke(main, ["golden", "generate", "--game", "american-sniff", "--cases", "60", "--seed", "12", "--out", str(d)])
    assert tree(d)["american-sniff/random-play.yaml"] != tree(a)["american-sniff/random-play.yaml"]


def test_manifest_hashes_and_counts(tmp_path):
    entry = generate("horse-race", 80, 3, tmp_path)
    assert sum(f["cases"] for f in entry["files"].values()) == 80
    for rel, info in entry["files"].items():
        assert hashlib.sha256((tmp_path / rel).read_bytes()).hexdigest() == info["sha256"]
        doc = yaml.safe_load((tmp_path / rel).read_text())
        assert len(doc["cases"]) == info["cases"]


def test_generated_cases_lint_and_pass_and_ids_are_content_hashes(tmp_path):
    generate("american-sniff", 120, 5, tmp_path)
    count, problems = lint([tmp_path])
    assert problems == [] and count == 120
    kinds = load_kinds()
    cases = load_cases([tmp_path])
    assert len({c.id for c in cases}) == 120
    for c in cases:
        assert c.id.startswith(f"G-SN-{c.kind}-")
        kind = kinds[c.kind]
        assert kind.compare(c.expect, kind.run(load_rules(c.game), c.input, {})) == []


def test_committed_golden_suite_matches_its_manifest():
    folder = CONFORMANCE / "golden"
    r = CliRunner().invoke(main, ["golden", "verify", str(folder)])
    assert r.exit_code == 0, r.output
