"""Issue 29: profiles the schema accepts never crash a command. Player-count keys are ASCII
integers among the game's player counts; every numeric parameter has bounds the whole program
lives with; every `--rules` command, run with a profile at each extreme value, ends in its
documented way (no traceback); `play` and `replay` agree under every accepted profile."""
from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result

from fives.cli import main
from fives.profiles import make_profile, parameters
from fives.support.errors import UserError

from test_rules_option import COMMANDS, one_line_error, write_profile  # noqa: E402 - the same commands

SERVE = f"{sys.executable} -m fives.cli serve"


def fives(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("key", ["²", "٣", "３", 5, 0, "5", "two", "-2", True])
def test_a_player_count_key_must_be_one_of_the_games_in_ascii(key: Any, tmp_path: Path) -> None:
    bad = write_profile(tmp_path, "bad", "horse-race", {"target.raw": {key: 300}})
    line = one_line_error(fives("play", "--game", "horse-race", "--players", "2", "--seed", "1", "--rules", str(bad)))
    assert "is not a number of players of horse-race (one of 2, 3, 4)" in line
    assert "bad.yaml" in line


def test_a_good_player_count_key_is_read() -> None:
    p = make_profile("horse-race", {"target.raw": {"3": 250, 2: 250}})
    assert p.overrides["target.raw"] == {2: 250, 3: 250, 4: 305}


def _extremes(game: str) -> list[tuple[str, Any]]:
    """(parameter, value) at each end of what the schema and the bounds accept, one at a time."""
    out: list[tuple[str, Any]] = []
    for path, value in parameters(game).items():
        if isinstance(value, bool) or not isinstance(value, (int, dict)):
            continue
        if isinstance(value, dict):
            if path == "target.raw":
                ends = [5, 250_000]
            elif path == "deal.hand_size":
                ends = [1, 14 // 2]  # the most every player count can hold at once: 4 x 7 = 28
            else:  # deal.reserve
                ends = [0, 8]
            out += [(path, {n: e for n in value}) for e in ends]
        elif path == "counting.internal_double":
            continue  # a constant (0): the schema allows no other value
        else:
            hi = 28 if path == "continuation.max_per_placement" else 100
            out += [(path, 1), (path, hi)]
    return out


EXTREMES = [(g, p, v) for g in ("horse-race", "american-sniff") for p, v in _extremes(g)]


def _accepted(game: str, path: str, value: Any) -> bool:
    try:
        make_profile(game, {path: value})
    except UserError:
        return False
    return True


@pytest.mark.parametrize("game,path,value", EXTREMES, ids=[f"{g}:{p}={v}" for g, p, v in EXTREMES])
def test_an_extreme_profile_is_refused_in_one_line_or_plays_and_replays(game: str, path: str, value: Any,
                                                                       tmp_path: Path) -> None:
    prof = write_profile(tmp_path, "x", game, {path: value})
    record = tmp_path / "r.jsonl"
    r = fives("play", "--game", game, "--players", "2", "--seed", "4", "--rules", str(prof), "--out", str(record))
    if not _accepted(game, path, value):
        one_line_error(r)
        return
    assert r.exit_code == 0 and r.exception is None or isinstance(r.exception, SystemExit), r.output
    again = fives("replay", "--rules", str(prof), str(record))
    assert again.exit_code == 0, again.output  # what play wrote, replay accepts
    for command in (["golden", "generate", "--game", game, "--cases", "12", "--seed", "2", "--out", str(tmp_path / "g")],
                    ["perft", "--game", game, "--depth", "2"],
                    ["evaluate", "--game", game, "-"],
                    ["conformance", "run", "--game", game, "--kind", "evaluate", "-q"],
                    ["conformance", "list", "--game", game]):
        got = CliRunner().invoke(main, [*command, "--rules", str(prof)], input="[]")
        assert got.exit_code in (0, 1, 2), (command, got.output)
        assert got.exception is None or isinstance(got.exception, SystemExit), (command, got.exception)


@pytest.mark.slow
def test_every_rules_command_lives_with_random_extremes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command of tests/test_rules_option.py's COMMANDS (all 16 that take --rules), with a
    profile of three extreme values drawn at random (seeded), per game: no traceback."""
    monkeypatch.chdir(tmp_path)  # the commands' relative outputs (`--out o`) land here
    rng = random.Random(29)
    for game in ("horse-race", "american-sniff"):
        pool = [(p, v) for g, p, v in EXTREMES if g == game and _accepted(g, p, v)]
        picked = dict(rng.sample(pool, 3))
        if "deal.hand_size" in picked and "deal.reserve" in picked:
            picked.pop("deal.reserve")
        prof = write_profile(tmp_path, f"r-{game}", game, picked)
        for command in COMMANDS:
            args = [a.replace("horse-race", game) for a in command]
            if args[:2] == ["conformance", "fuzz"]:
                args = ["conformance", "fuzz", "--engine", f"{SERVE} --rules {prof}", "--cases", "10",
                        "--out", str(tmp_path / f"fz-{game}")]
            if args[:2] == ["conformance", "mutants"]:
                args = [*args, "--in-process", "--mutant", "drawn-tile-continues", "--fixtures",
                        "fixtures-seed"]
            got = CliRunner().invoke(main, [*args, "--rules", str(prof)], input="[]")
            assert got.exception is None or isinstance(got.exception, SystemExit), (args, got.exception, got.output)
            assert "Traceback" not in got.output, (args, got.output)
        dx = CliRunner().invoke(main, ["conformance", "diagnose", "--engine", f"{SERVE} --rules {prof}", "--game", game,
                                       "--kind", "settle", "--seconds", "10", "--fuzz", "20", "--rules", str(prof)])
        assert dx.exception is None or isinstance(dx.exception, SystemExit), (dx.exception, dx.output)


@pytest.mark.parametrize("game,rules,says", [
    ("horse-race", {"target.raw": {2: 1, 3: 1, 4: 1}}, "target/raw/2: 1 is out of bounds"),
    ("american-sniff", {"target.raw": {2: 4}}, "target/raw/2: 4 is out of bounds"),
    ("horse-race", {"target.raw": {2: 250_001}}, "target/raw/2: 250001 is out of bounds"),
    ("american-sniff", {"points.display_divisor": 100, "target.raw": {2: 60, 3: 200, 4: 200}},
     "at least the display divisor (100)"),
    ("american-sniff", {"points.display_divisor": 101}, "101 is greater than the maximum of 100"),
    ("horse-race", {"continuation.max_per_placement": 29}, "29 is greater than the maximum of 28"),
])
def test_values_past_the_bounds_are_one_line(game: str, rules: dict, says: str, tmp_path: Path) -> None:
    # a target of 1 once crashed golden generate, fuzz and diagnose (an empty randrange: the
    # displayed target was 0), and play wrote a record its own replay refused
    bad = write_profile(tmp_path, "bad", game, rules)
    for command in (["play", "--game", game, "--players", "2", "--seed", "1"],
                    ["golden", "generate", "--game", game, "--cases", "5", "--seed", "1", "--out", str(tmp_path / "g")]):
        assert says in one_line_error(fives(*command, "--rules", str(bad)))
