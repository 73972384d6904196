"""`conformance diagnose` and what is not a rule cause (issue 27): cases outside the engine's
declared scope are its scope (never failures, causes or clusters); a shipped misreading named
is still a bug (exit 1), and the `check:` line promises nothing about it."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PY = sys.executable


def diagnose(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "fives", "conformance", "diagnose", *args], capture_output=True, text=True,
                          timeout=300)


def test_a_two_player_engine_gets_its_scope_reported_not_causes() -> None:
    r = diagnose("--engine", f"{PY} -m fives serve --players 2", "--game", "horse-race", "--kind", "setup",
                 "--fuzz", "0", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["causes"] == [] and d["unexplained"] == [] and d["failing"] == 0
    assert d["scope"]["declared"] == {"players": [2], "partnerships": False}
    reasons = d["scope"]["reasons"]
    assert reasons["outside the engine's scope: 3 players (it declares players 2)"] >= 1
    assert reasons["outside the engine's scope: partnerships (it declares partnerships false)"] >= 1
    assert d["scope"]["skipped"] == sum(reasons.values()) > 0
    text = diagnose("--engine", f"{PY} -m fives serve --players 2", "--game", "horse-race", "--kind", "setup",
                    "--fuzz", "0")
    assert text.returncode == 0
    line = next(x for x in text.stdout.splitlines() if x.startswith("scope:"))
    assert line.startswith("scope: the engine declares players 2, partnerships false; "
                           f"{d['scope']['skipped']} case(s) outside it skipped")
    assert "unexplained" not in text.stdout and "cause:" not in text.stdout


def test_an_engine_without_a_scope_has_none_in_the_diagnosis() -> None:
    r = diagnose("--engine", f"{PY} -m fives serve", "--game", "horse-race", "--kind", "setup", "--fuzz", "0",
                 "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["scope"] is None


def test_a_misreading_named_exits_1_and_the_check_line_makes_no_promise(tmp_path: Path) -> None:
    out = tmp_path / "out"
    r = diagnose("--engine", f"{PY} -m fives serve --mutant opening-double-counted-twice", "--game",
                 "american-sniff", "--kind", "evaluate", "--fuzz", "0", "--out", str(out))
    assert r.returncode == 1, r.stdout + r.stderr  # named, but a bug: the engine does not conform
    assert "cause: mutant opening-double-counted-twice (american-sniff): explains 55 failing case(s)" in r.stdout
    assert "a known misreading of the rules, not a way to play: the engine's bug" in r.stdout
    assert "check:" not in r.stderr  # no rule cause: no profile to check
    d = json.loads((out / "diagnosis.json").read_text())
    assert [c["misreading"] for c in d["causes"]] == [True]


def test_with_rules_and_a_misreading_the_check_line_says_its_cases_still_fail(tmp_path: Path) -> None:
    # a variant served with a misreading on top: the profile holds the rule, the line says the bug stays
    prof = tmp_path / "p.yaml"
    prof.write_text("extends: american-sniff\nname: p\nsource: test\nrules:\n  spinners.policy: every-double\n")
    r = diagnose("--engine", f"{PY} -m fives serve --rules {prof} --mutant opening-double-counted-twice", "--game",
                 "american-sniff", "--kind", "evaluate", "--fuzz", "0", "--out", str(tmp_path / "out"))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "cause: spinners.policy = \"every-double\" (american-sniff)" in r.stdout
    assert "cause: mutant opening-double-counted-twice" in r.stdout
    check = next(x for x in r.stderr.splitlines() if x.startswith("check:"))
    assert check.endswith("; the profile holds the rules only: the cases of mutant opening-double-counted-twice "
                          "still fail under it")


def test_without_mutants_the_misreading_is_one_cluster_in_values_shrunk_and_bisected(tmp_path: Path) -> None:
    r = diagnose("--engine", f"{PY} -m fives serve --mutant opening-double-counted-twice", "--game",
                 "american-sniff", "--kind", "evaluate", "--fuzz", "0", "--no-mutants", "--json")
    assert r.returncode == 1, r.stderr
    (g,) = json.loads(r.stdout)["unexplained"]
    assert g["cases"] == 55 and g["group"] == "scores[]: number -> number (and contributions[].value, sum): got = 2 × expected"
    assert (g["label"], g["relation"]) == ("scores[]: expected 10, got 20", "got = 2 × expected in 55 of 55")
    assert g["parting"]["placement"] == 1 and g["parting"]["tile"] == "[5|5]"
    assert g["example"].startswith("DX-SN-evaluate-") and g["shrunk"] == "shrunk"
