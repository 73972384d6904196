"""Every kind fuzzed (issue 37): `tally` and `perft` requests among the default draws, from
reachable states, cheap perft counts, the first lane's draws left as they were, and
`--kind tally` / `--kind perft` from the command line."""
from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from fives.conformance.cases.kinds import load_kinds
from fives.conformance.cases.reachable import problems
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.fuzz import Fuzzer, fuzz_kinds
from fives.conformance.fuzz.lane import PERFT_NODES
from fives.perft import estimate_nodes
from fives.rules import load_rules

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def default_draws() -> list[tuple[int, str, str, dict]]:
    fuzzer = Fuzzer(ReferenceEngine(), seed=0)
    return [(i, *fuzzer.draw(i)) for i in range(500)]


def test_the_fuzzer_makes_every_request_kind() -> None:
    assert fuzz_kinds() == sorted(load_kinds())


def test_the_default_draws_hold_every_kind_in_both_games(default_draws) -> None:
    seen = Counter((game, case["kind"]) for _, game, _, case in default_draws)
    for game in ("american-sniff", "horse-race"):
        for kind in load_kinds():
            assert seen[game, kind] >= 2, (game, kind, seen)


def test_perft_and_tally_draws_are_reachable_and_cheap(default_draws) -> None:
    perft = 0
    for _, game, _, case in default_draws:
        rules = load_rules(game)
        if case["kind"] == "perft":
            perft += 1
            inp = case["input"]
            assert problems(rules, "perft", inp) == []
            assert 1 <= inp["depth"] <= 3 and estimate_nodes(rules, inp["depth"], inp["placements"]) <= max(
                PERFT_NODES, estimate_nodes(rules, 1, inp["placements"]))
            assert ReferenceEngine().answer("perft", game, inp)["nodes"] <= 20_000
        if case["kind"] == "tally":
            score, unit = case["input"]["score"], rules.scoring_multiple if game == "american-sniff" else 1
            assert score % unit == 0 and (score >= 0 or game == "american-sniff")
    assert perft >= 10


def test_the_first_lanes_draws_are_made_as_before(default_draws) -> None:
    """A draw the second lane does not take is the one a fuzzer without it makes."""
    without = Fuzzer(ReferenceEngine(), seed=0)
    without.lane = {}
    lane_names = set(Fuzzer(ReferenceEngine()).lane)
    kept = [(i, g, n, c) for i, g, n, c in default_draws if n not in lane_names]
    assert 350 <= len(kept) < 500
    for i, game, name, case in kept[:120]:
        assert without.draw(i) == (game, name, case), i


@pytest.mark.parametrize("kind,mutant", [("tally", "peg-past-game-hole"), ("tally", "negative-tally-as-zero"),
                                         ("perft", "perft-same-value-positions-once")])
def test_kind_alone_finds_its_mutant_from_the_command_line(tmp_path: Path, kind: str, mutant: str) -> None:
    serve = f"{sys.executable} -m fives.cli serve"
    run = [sys.executable, "-m", "fives.cli", "conformance", "fuzz", "--kind", kind, "--cases", "60"]
    ok = subprocess.run([*run, "--engine", serve, "--out", str(tmp_path / "ok")], cwd=ROOT, capture_output=True,
                        text=True, timeout=300)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "60 requests drawn" in ok.stdout
    bad = subprocess.run([*run, "--engine", f"{serve} --mutant {mutant}", "--out", str(tmp_path / "bad")], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    files = list((tmp_path / "bad").glob(f"FUZZ-*-{kind}-*.yaml"))
    assert files and all(f.name.split("-")[2] == kind for f in files)
