"""`fives play`, `fives replay` and `fives tally` from the command line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fives.cli import main


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_play_writes_a_record_that_replays(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    code, stdout, _ = run("play", "--game", "horse-race", "--players", "4", "--partnerships", "--seed", "7",
                          "--strategy", "greedy", "--strategy", "random", "--out", str(out))
    assert code == 0
    assert stdout.startswith("Horse Race: 4 players in two partnerships, seed 7, 61 points to win\n")
    assert "strategies: seat 0 greedy, seat 1 random, seat 2 greedy, seat 3 random" in stdout
    assert "hand 1: seat" in stdout and "match over after" in stdout
    lines = out.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["format"] == "fives-record/1"
    assert f"({len(lines)} lines)" in stdout
    code, stdout, _ = run("replay", str(out))
    assert code == 0 and stdout.startswith(f"{out}: ok: {len(lines)} lines")


def test_play_is_byte_identical_and_can_write_to_stdout(tmp_path: Path) -> None:
    args = ["play", "--game", "american-sniff", "--players", "3", "--seed", "4", "--strategy", "greedy,random,first"]
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert run(*args, "--out", str(a))[0] == 0 and run(*args, "--out", str(b), "--quiet")[0] == 0
    assert a.read_bytes() == b.read_bytes()
    code, stdout, stderr = run(*args, "--out", "-")
    assert code == 0 and stdout == a.read_text(encoding="utf-8") and "match over" in stderr


@pytest.mark.parametrize("args, words", [
    (["--game", "american-sniff", "--players", "4"], "4 players always form two partnerships"),
    (["--game", "american-sniff", "--players", "5"], "no game for 5 players"),
    (["--game", "horse-race", "--players", "3", "--partnerships"], "no game for 3 players in partnerships"),
    (["--game", "chess", "--players", "2"], "unknown game 'chess'"),
    (["--game", "horse-race", "--players", "2", "--strategy", "clever"], "unknown strategy 'clever'"),
    (["--game", "horse-race", "--players", "3", "--strategy", "random,greedy"], "one per seat (3), not 2"),
])
def test_impossible_play_is_a_clear_error(args: list[str], words: str) -> None:
    code, stdout, stderr = run("play", *args, "--seed", "1")
    assert code == 2 and stdout == ""
    assert stderr.startswith("fives: error: ") and words in stderr and len(stderr.strip().splitlines()) == 1


def test_replay_reports_the_first_bad_line(tmp_path: Path) -> None:
    good = tmp_path / "g.jsonl"
    assert run("play", "--game", "horse-race", "--players", "2", "--seed", "3", "--out", str(good))[0] == 0
    lines = good.read_text(encoding="utf-8").splitlines()
    i = next(i for i, line in enumerate(lines) if json.loads(line).get("event") == "place" and json.loads(line)["raw"])
    ev = json.loads(lines[i])
    ev["raw"] += 5
    lines[i] = json.dumps(ev)
    bad = tmp_path / "b.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, stdout, stderr = run("replay", str(bad))
    assert code == 2 and stdout == ""
    assert stderr.startswith(f"fives: error: {bad}:{i + 1}: points-mismatch: place line says raw ")
    code, _, stderr = run("replay", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "no such file" in stderr


def test_tally_prints_both_score_records() -> None:
    code, stdout, _ = run("tally", "--game", "american-sniff", "135")
    assert code == 0
    assert stdout.splitlines()[0] == "135 raw points = 2 x 50 + 7 x 5"
    assert stdout.splitlines()[3] == "x  X  x  x  X  x     X  x"  # two whole symbols, the third with 7 strokes
    code, stdout, _ = run("tally", "--game", "american-sniff", "--", "-15")
    assert code == 0 and "below zero" in stdout
    code, stdout, _ = run("tally", "--game", "horse-race", "--previous", "33", "37")
    assert code == 0
    assert stdout.splitlines() == [
        "37 points of 61: street 2, group 2, hole 2 of the group",
        "street 1 ( 1-30): ..... ..... ..... ..... ..... .....",
        "street 2 (31-60): ..+.. .o... ..... ..... ..... .....",
        "game hole (61): .",
    ]
    code, _, stderr = run("tally", "--game", "horse-race", "--", "-5")
    assert code == 2 and "no holes below zero" in stderr
    code, _, stderr = run("tally", "--game", "horse-race", "x")
    assert code == 2 and "not a whole number" in stderr
