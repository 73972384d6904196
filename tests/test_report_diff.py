"""`fives conformance diff OLD.json NEW.json` and `conformance run` with several engines."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from fives.cli import main
from fives.support.errors import UserError
from fives.conformance.reports.diff import compare_reports

ROOT = Path(__file__).resolve().parents[1]


def doc(*cases: tuple[str, str, list[str]], known: str | None = None) -> dict[str, Any]:
    out = []
    for cid, status, diff in cases:
        c: dict[str, Any] = {"id": cid, "status": status, "diff": diff}
        if known == cid:
            c["known_failure"] = "listed"
        out.append(c)
    return {"engine": None, "summary": {}, "cases": out}


def test_classification() -> None:
    old = doc(("A", "passed", []), ("B", "failed", ["x: expected 1, got 2"]), ("C", "failed", ["y"]),
              ("D", "failed", ["z"]), ("E", "skipped", []), ("F", "passed", []), ("G", "failed", ["g"]))
    new = doc(("A", "failed", ["a: expected 1, got 0"]), ("B", "passed", []), ("C", "failed", ["y2"]),
              ("D", "errored", []), ("E", "failed", ["e"]), ("F", "passed", []), ("G", "failed", ["g"]),
              ("H", "errored", []))
    r = compare_reports(old, new, "old", "new")
    assert [(c.id, c.old, c.new) for c in r.newly_failing] == [
        ("A", "passed", "failed"), ("E", "skipped", "failed"), ("H", "absent", "errored")]
    assert [c.id for c in r.newly_passing] == ["B"]
    assert [(c.id, c.old, c.new) for c in r.changed] == [("C", "failed", "failed"), ("D", "failed", "errored")]
    assert r.unchanged == 2
    assert r.text().splitlines()[1] == "  A: passed -> failed: a: expected 1, got 0"
    assert r.text().splitlines()[-1] == "3 newly failing, 1 newly passing, 2 changed, 2 unchanged"


def test_known_failures_are_not_new_failures() -> None:
    r = compare_reports(doc(("A", "passed", [])), doc(("A", "failed", ["d"]), known="A"), "o", "n")
    assert not r.newly_failing and [(c.old, c.new) for c in r.changed] == [("passed", "failed (known)")]


def test_several_engines_compare_engine_by_engine() -> None:
    def multi(status: str) -> dict[str, Any]:
        return {"format": "fives-conformance-engines/1",
                "engines": [{"command": "a", **doc(("X", "passed", []))}, {"command": "b", **doc(("X", status, []))}]}
    r = compare_reports(multi("passed"), multi("errored"), "o", "n")
    assert [(c.engine, c.id) for c in r.newly_failing] == [("b", "X")] and r.unchanged == 1
    assert r.newly_failing[0].line() == "  [b] X: passed -> errored"
    with pytest.raises(UserError, match="engines 'a', 'b' do not match o's \\(a one-engine report\\)"):
        compare_reports(doc(("X", "passed", [])), multi("passed"), "o", "n")


@pytest.mark.parametrize("content, message", [
    ("{", "not valid"), ("[1, 2]", "no list `cases`"), ('{"cases": [{"id": 3}]}', "cases[0] lacks a string id and status")])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, content: str, message: str) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(doc(("A", "passed", []))))
    bad.write_text(content)
    r = CliRunner().invoke(main, ["conformance", "diff", str(good), str(bad)])
    assert r.exit_code == 2
    assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("fives: error: ")
    if message != "not valid":
        assert message in r.stderr


def test_cli_exit_codes(tmp_path: Path) -> None:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(doc(("A", "passed", []), ("B", "failed", ["b"]))))
    new.write_text(json.dumps(doc(("A", "passed", []), ("B", "passed", []))))
    r = CliRunner().invoke(main, ["conformance", "diff", str(old), str(new)])
    assert r.exit_code == 0 and r.stdout.splitlines() == [
        "newly passing (1):", "  B: failed -> passed", "0 newly failing, 1 newly passing, 0 changed, 1 unchanged"]
    r = CliRunner().invoke(main, ["conformance", "diff", str(new), str(old)])
    assert r.exit_code == 1 and "  B: passed -> failed: b" in r.stdout


# -- several engines through the CLI ---------------------------------------------------------------
SERVE = f"{sys.executable} -m fives.cli serve"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fives.cli", "conformance", "run", "--id", "HR-TURN-0*", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_several_engines_json_and_exit_code(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    p = run("--engine", SERVE, "--engine", f"{SERVE} --mutant drawn-tile-continues", "--report", f"json:{out}",
            "--results", str(tmp_path / "r.jsonl"))
    assert p.returncode == 1, p.stderr
    d = json.loads(out.read_text())
    assert [e["summary"]["failed"] for e in d["engines"]] == [0, 2]
    failing = [c for c in d["engines"][1]["cases"] if c["status"] == "failed"]
    assert failing[0]["explanation"]["differences"][0]["text"] == "results[1].continues: expected false, got true"
    lines = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert {x["engine"] for x in lines} == {SERVE, f"{SERVE} --mutant drawn-tile-continues"}
    assert len(lines) == 2 * len(d["engines"][0]["cases"])
    last = p.stdout.splitlines()
    n = len(d["engines"][0]["cases"])
    assert last[-1] == f"{2 * n - 2} passed, 2 failed, 0 errored, 0 skipped"
    assert any(ln.startswith("  HR-CONT-5 (A drawn tile always ends the turn): 2 cases fail (of ") for ln in last)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_an_engine_that_cannot_start_is_reported_and_the_others_run(tmp_path: Path) -> None:
    out = tmp_path / "r.md"
    p = run("--engine", SERVE, "--engine", "/nonexistent/engine", "--report", f"markdown:{out}")
    assert p.returncode == 3
    assert "| `/nonexistent/engine` | could not start |" in out.read_text()
    assert "  /nonexistent/engine: could not start" in p.stdout
    p = run("--engine", SERVE, "--engine", SERVE, "--write-known-failures", str(tmp_path / "k.yaml"))
    assert p.returncode == 2 and p.stderr.startswith("fives: error: --write-known-failures takes a single --engine")


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_sigterm_during_the_second_engine_leaves_valid_reports(tmp_path: Path) -> None:
    import signal
    import time
    import xml.etree.ElementTree as ET
    slow = f"{sys.executable} {ROOT / 'tests' / 'hostile_engines' / 'slow.py'} --delay 0.25"
    out, junit, results = tmp_path / "r.json", tmp_path / "r.xml", tmp_path / "r.jsonl"
    argv = [sys.executable, "-m", "fives.cli", "conformance", "run", "--id", "HR-TURN-*", "--engine", SERVE,
            "--engine", slow, "--report", f"json:{out}", "--report", f"junit:{junit}", "--results", str(results)]
    p = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0 = time.monotonic()
    # wait for the first engine to finish and the slow one to answer a few cases
    while time.monotonic() - t0 < 120:
        lines = results.read_text().splitlines() if results.exists() else []
        if sum(slow in ln for ln in lines) >= 3:
            break
        time.sleep(0.05)
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 143, err
    d = json.loads(out.read_text())
    first, second = d["engines"]
    assert first["summary"]["interrupted"] is False and first["summary"]["passed"] == len(first["cases"])
    assert second["summary"]["interrupted"] is True and 3 <= len(second["cases"]) < len(first["cases"])
    ET.parse(junit)
