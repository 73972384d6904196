"""Generated data under `--rules P` (issue 18, part B): golden suites, perft tables, puzzle
sets and game records name the profile they were made under, only when one is given, and
checking them under other rules is refused (one line, exit 2)."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from fives.cli import main
from fives.profiles import load_profile
from fives.support import paths
from test_rules_option import fives, write_profile  # the same CLI runner and profile writer

SERVE = f"{sys.executable} -m fives.cli serve"


def refused(r: Result, *words: str) -> None:
    assert r.exit_code == 2, (r.exit_code, r.output)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fives: error: "), r.stderr
    for w in words:
        assert w in lines[0], lines[0]


@pytest.fixture(scope="module")
def profiles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("profiles")
    return {"hr": write_profile(d, "hr-250", "horse-race", {"target.raw": {2: 250, 3: 250, 4: 250},
                                                             "settlement.award_rounding": "per-opponent"}),
            "sn": write_profile(d, "sn-every-double", "american-sniff", {"spinners.policy": "every-double"}),
            "sn5": write_profile(d, "sn-per-five", "american-sniff",
                                 {"points.display_divisor": 5, "points.unit": "displayed"})}


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_golden_suite_under_a_profile(profiles: dict[str, Path], tmp_path: Path) -> None:
    out, plain = tmp_path / "g", tmp_path / "plain"
    args = ["golden", "generate", "--game", "horse-race", "--game", "american-sniff", "--cases", "60", "--seed", "3"]
    assert fives(*args, "--out", str(out), "--rules", str(profiles["hr"])).exit_code == 0
    assert fives(*args, "--out", str(plain)).exit_code == 0
    manifest = yaml.safe_load((out / "manifest.yaml").read_text())
    digest = load_profile(str(profiles["hr"])).digest
    assert manifest["rules"]["digest"] == digest and manifest["command"].endswith("--rules hr-250 --out DIR")
    assert "rules" not in yaml.safe_load((plain / "manifest.yaml").read_text())
    for f in (out / "horse-race").iterdir():  # the profile's game: every file says so
        assert yaml.safe_load(f.read_text())["rules"]["name"] == "hr-250"
    for f in (out / "american-sniff").iterdir():  # the other game: as without --rules, byte for byte
        assert f.read_bytes() == (plain / "american-sniff" / f.name).read_bytes()
    assert fives("golden", "verify", str(plain)).exit_code == 0
    assert fives("golden", "verify", str(out), "--rules", str(profiles["hr"])).exit_code == 0
    refused(fives("golden", "verify", str(out)), "generated under rules profile hr-250", "--rules hr-250")
    refused(fives("golden", "verify", str(out), "--rules", str(profiles["sn"])), "not under sn-every-double")
    refused(fives("golden", "verify", str(plain), "--rules", str(profiles["hr"])), "the seeds' rules")
    # the suite's cases play its profile: the reference, and an engine told it, pass
    r = fives("conformance", "run", "--fixtures", str(out))
    assert r.exit_code == 0 and r.stdout.strip().endswith("120 passed, 0 failed, 0 errored, 0 skipped"), r.output
    r = fives("conformance", "run", "--fixtures", str(out), "--engine", SERVE)
    assert r.exit_code == 0 and "120 passed" in r.stdout, r.output
    # and a seeds' engine is held to them: horse-race cases whose answer the profile changed fail
    r = fives("conformance", "run", "--fixtures", str(out), "--engine", f"{SERVE} --rules {profiles['sn']}")
    assert "60 skipped" in r.stdout  # the cases under hr-250, which this engine is not told


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_perft_table_under_a_profile(profiles: dict[str, Path], tmp_path: Path) -> None:
    table = tmp_path / "perft.yaml"
    shutil.copy(paths.CONFORMANCE / "perft" / "perft.yaml", table)
    r = fives("perft", "--check", str(table), "--max-depth", "2", "--update", "--rules", str(profiles["sn"]))
    assert r.exit_code == 0, r.output
    head = table.read_text().splitlines()
    digest = load_profile(str(profiles["sn"])).digest
    assert head[6] == (f'rules: {{name: "sn-every-double", extends: "american-sniff", digest: "{digest}", '
                       'overrides: {spinners.policy: "every-double"}}')
    assert fives("perft", "--check", str(table), "--max-depth", "2", "--rules", str(profiles["sn"])).exit_code == 0
    refused(fives("perft", "--check", str(table), "--max-depth", "2"), "check it with --rules sn-every-double")
    refused(fives("perft", "--check", str(table), "--max-depth", "2", "--rules", str(profiles["hr"])),
            "not under hr-250")
    refused(fives("perft", "--check", str(paths.CONFORMANCE / "perft" / "perft.yaml"), "--max-depth", "1",
                  "--rules", str(profiles["sn"])), "the seeds' rules (no rules profile)")
    # as fixtures, the table's sniff rows play its profile (rows deeper than 2 were not rewritten)
    r = fives("conformance", "run", "--fixtures", str(table), "--id", "PERFT-american-sniff-*-D1",
              "--id", "PERFT-american-sniff-*-D2", "--engine", SERVE)
    assert r.exit_code == 0 and " 0 failed, 0 errored, 0 skipped" in r.stdout, r.output


def test_perft_counts_under_a_profile(profiles: dict[str, Path]) -> None:
    """Points per five change what is shown, never the raw points perft counts."""
    plain = fives("perft", "--game", "american-sniff", "--depth", "3", "--json")
    under = fives("perft", "--game", "american-sniff", "--depth", "3", "--json", "--rules", str(profiles["sn5"]))
    assert plain.exit_code == under.exit_code == 0
    assert json.loads(plain.stdout) == json.loads(under.stdout)
    every = fives("perft", "--game", "american-sniff", "--depth", "4", "--rules", str(profiles["sn"]))
    seeds = fives("perft", "--game", "american-sniff", "--depth", "4")
    assert every.exit_code == seeds.exit_code == 0 and every.stdout != seeds.stdout  # more spinners, more sequences


def test_puzzle_set_under_a_profile(profiles: dict[str, Path], tmp_path: Path) -> None:
    pytest.importorskip("z3")
    out = tmp_path / "p.yaml"
    r = fives("puzzles", "generate", "--game", "american-sniff", "--kind", "single", "--count", "2", "--seed", "4",
              "--out", str(out), "--rules", str(profiles["sn5"]))
    assert r.exit_code == 0, r.output
    data = yaml.safe_load(out.read_text())
    assert data["rules"]["name"] == "sn-per-five"
    assert all(p["unit"] == "displayed" for p in data["puzzles"])  # the profile's unit, not the seeds' raw points
    assert fives("puzzles", "verify", str(out), "--rules", str(profiles["sn5"])).exit_code == 0
    refused(fives("puzzles", "verify", str(out)), "verify it with --rules sn-per-five")
    refused(fives("puzzles", "verify", str(out), "--rules", str(profiles["sn"])), "not under sn-every-double")
    refused(fives("book", str(out), "--out", str(tmp_path / "b.html")), "draw it with --rules sn-per-five")
    assert fives("book", str(out), "--out", str(tmp_path / "b.html"), "--rules", str(profiles["sn5"])).exit_code == 0
    plain = tmp_path / "plain.yaml"
    assert fives("puzzles", "generate", "--game", "american-sniff", "--kind", "single", "--count", "2", "--seed", "4",
                 "--out", str(plain)).exit_code == 0
    assert "rules" not in yaml.safe_load(plain.read_text())


def test_play_and_replay_under_a_profile(profiles: dict[str, Path], tmp_path: Path) -> None:
    rec, plain = tmp_path / "r.jsonl", tmp_path / "plain.jsonl"
    args = ["play", "--game", "horse-race", "--players", "2", "--seed", "11", "--quiet"]
    assert fives(*args, "--out", str(rec), "--rules", str(profiles["hr"])).exit_code == 0
    assert fives(*args, "--out", str(plain)).exit_code == 0
    header = json.loads(rec.read_text().splitlines()[0])
    assert header["rules"]["name"] == "hr-250" and header["target"] == 50  # 250 raw, shown per five
    assert "rules" not in json.loads(plain.read_text().splitlines()[0])
    assert fives("replay", str(rec), "--rules", str(profiles["hr"])).exit_code == 0
    assert fives("replay", str(plain)).exit_code == 0
    refused(fives("replay", str(rec)), "rules-mismatch", "hr-250")
    refused(fives("replay", str(plain), "--rules", str(profiles["hr"])), "rules-mismatch", "the seeds' rules")


def test_evaluate_and_render_under_a_profile(tmp_path: Path) -> None:
    profile = write_profile(tmp_path, "no-spin", "horse-race", {"spinners.policy": "none"})
    layout = tmp_path / "l.yaml"
    layout.write_text(yaml.safe_dump([{"tile": "[1|4]"}, {"tile": "[1|1]", "to": "[1|4]", "side": "low"},
                                      {"tile": "[4|4]", "to": "[1|4]", "side": "high"}]), encoding="utf-8")
    plain = json.loads(fives("evaluate", "--game", "horse-race", str(layout)).stdout)
    under = json.loads(fives("evaluate", "--game", "horse-race", str(layout), "--rules", str(profile)).stdout)
    assert plain["spinners"] == ["[1|1]", "[4|4]"] and under["spinners"] == []
    line = json.dumps({"game": "horse-race", "placements": yaml.safe_load(layout.read_text())}) + "\n"
    r = CliRunner().invoke(main, ["evaluate", "--jsonl", "--rules", str(profile)], input=line)
    assert json.loads(r.stdout)["spinners"] == []
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    assert fives("render", "--game", "horse-race", str(layout), "--out", str(a)).exit_code == 0
    assert fives("render", "--game", "horse-race", str(layout), "--out", str(b), "--rules", str(profile)).exit_code == 0
    assert a.read_text().count("#f28c28") > b.read_text().count("#f28c28")  # spinner frames only in the seeds' picture


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_perft_against_an_engine_under_a_profile(tmp_path: Path) -> None:
    """`perft --engine CMD --rules P`: the reference counts under P, an engine that declares
    `rules` is told P, a black box of the seeds' rules differs."""
    no_spin = write_profile(tmp_path, "no-spin", "horse-race", {"spinners.policy": "none"})
    base = ["perft", "--game", "horse-race", "--depth", "4", "--rules", str(no_spin)]
    told = fives(*base, "--engine", SERVE)
    assert told.exit_code == 0, told.output
    assert told.stdout.strip() == "horse-race depth 4: engine nodes 44730 points 62450, reference nodes 44730 points 62450"
    other = write_profile(tmp_path, "other-game", "american-sniff", {"spinners.policy": "every-double"})
    seeds = fives(*base, "--engine", f"{SERVE} --rules {other}")  # plays horse-race as the seeds have it
    assert seeds.exit_code == 1 and "engine nodes 49770 points 71810, reference nodes 44730" in seeds.stdout


def test_a_perft_row_illegal_under_the_profile_is_skipped_and_dropped(tmp_path: Path) -> None:
    # muggins-hoyle has no spinner, so the seed layout's branch placements cannot be built under
    # it: --check skips that row with the reason (exit 0), --update drops it from the table
    table = tmp_path / "perft.yaml"
    shutil.copy(paths.PERFT / "perft.yaml", table)
    r = fives("perft", "--check", str(table), "--max-depth", "2", "--update", "--rules", "muggins-hoyle")
    assert r.exit_code == 0, r.output
    skipped = [line for line in r.output.splitlines() if line.startswith("skip ")]
    assert skipped and all("illegal under muggins-hoyle (branch-of-non-spinner" in line for line in skipped)
    ids = {e["id"] for e in yaml.safe_load(table.read_text(encoding="utf-8"))["tables"]}
    assert "american-sniff-seed-layout" not in ids and "horse-race-seed-layout" in ids
    again = fives("perft", "--check", str(table), "--max-depth", "2", "--rules", "muggins-hoyle")
    assert again.exit_code == 0 and "skip " not in again.output and "FAIL" not in again.output
