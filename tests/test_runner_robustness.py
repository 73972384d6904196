"""`fives conformance run` against hostile engines (tests/hostile_engines/): every run ends
within its timeouts, the sabotaged case is errored with the right message, raw reply and
stderr tail, and every other case is still run and reported. Also the report formats,
known failures, filters and Ctrl-C."""
from __future__ import annotations

import json
import re
import shlex
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from fives.cli import main
from fives.conformance.cases.fixtures import load_cases
from fives.conformance.cases.kinds import load_kinds
from fives.support.paths import ROOT

HOSTILE = Path(__file__).parent / "hostile_engines"
FIXTURE = ROOT / "conformance" / "fixtures" / "illegal" / "american-sniff.yaml"
IDS = [c.id for c in load_cases([FIXTURE])]
N = len(IDS)
TARGET = IDS[7]  # the sabotaged case: cases run before and after it
WALL = 90.0  # seconds any one run may take here: a hang's bound, generous for a loaded machine
#: --timeout of every run here: a hang is waited out this long, and a restarted engine's hello must
#: come within it (2 s was too short beside a second full test run: a restart took longer, and a
#: second case errored)
TIMEOUT = 8


def engine(script: str, *args: str) -> str:
    return shlex.join([sys.executable, str(HOSTILE / script), *args])


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float
    report: dict[str, Any] | None
    results: list[dict[str, Any]]

    def case(self, case_id: str) -> dict[str, Any]:
        assert self.report is not None
        return next(c for c in self.report["cases"] if c["id"] == case_id)

    @property
    def summary(self) -> str:
        return self.stdout.strip().splitlines()[-1]


def run(tmp_path: Path, command: str | None, *extra: str, fixtures: bool = True) -> Run:
    """`fives conformance run` in a subprocess, with a json report and a results stream."""
    report, results = tmp_path / "report.json", tmp_path / "results.jsonl"
    argv = [sys.executable, "-m", "fives.cli", "conformance", "run", "--timeout", str(TIMEOUT),
            "--report", f"json:{report}", "--results", str(results)]
    argv += ["--engine", command] if command else []
    argv += ["--fixtures", str(FIXTURE)] if fixtures else []
    t0 = time.monotonic()
    p = subprocess.run(argv + list(extra), cwd=ROOT, capture_output=True, text=True, timeout=300)
    seconds = time.monotonic() - t0
    assert "Traceback" not in p.stderr, p.stderr
    lines = results.read_text().splitlines() if results.exists() else []
    return Run(p.returncode, p.stdout, p.stderr, seconds,
               json.loads(report.read_text()) if report.exists() else None, [json.loads(x) for x in lines])


def starts(state: Path) -> int:
    return len(state.read_text().splitlines()) if state.exists() else 0


def assert_one_errored(r: Run, case_id: str, message: str) -> dict[str, Any]:
    """Exit 1, every case reported once in order, only `case_id` errored; returns its record."""
    assert r.code == 1, r.stdout + r.stderr
    assert r.seconds < WALL
    assert r.summary == f"{N - 1} passed, 0 failed, 1 errored, 0 skipped"
    assert [x["id"] for x in r.results] == IDS  # one line per finished case, as they finished
    assert r.report is not None and [c["id"] for c in r.report["cases"]] == IDS
    assert r.report["summary"] == {"passed": N - 1, "failed": 0, "errored": 1, "skipped": 0,
                                   "known": 0, "interrupted": False}
    bad = r.case(case_id)
    assert bad["status"] == "errored" and bad["message"].startswith(message), bad
    assert f"ERRORED {case_id} " in r.stdout
    return bad


def request_id_of(case_id: str) -> str:
    return f"{case_id}#{IDS.index(case_id) + 1}"  # the runner numbers requests in order


# (script and options, start of the message, what the raw reply is, restarts after the case)
SCENARIOS = {
    "hang": (["hang.py"], f"no reply within {TIMEOUT}s (engine killed and restarted)", None, 1),
    "garbage": (["garbage.py"], "garbage reply (not JSON: ", "this is not JSON {\n", 1),
    "partial-then-exit": (["partial.py", "--then", "exit"], "partial reply line (no newline", "HALF", 1),
    "partial-then-hang": (["partial.py", "--then", "hang"], f"no reply within {TIMEOUT}s (engine killed and restarted) after a partial line", "HALF", 1),
    "huge-line": (["huge.py"], "reply line longer than 1 MiB", "x" * 400, 1),
    "wrong-id": (["wrong_id.py"], f"reply id 'not-{request_id_of(TARGET)}' does not match request id "
                 f"'{request_id_of(TARGET)}'", "WRONG-ID", 1),
    "error-reply": (["error_reply.py"], "engine reported error: deliberate failure for the test",
                    "ERROR-REPLY", 0),
    "no-verdict": (["no_verdict.py"], "a reply has exactly one of result, skipped, error", "NO-VERDICT", 1),
    "two-verdicts": (["no_verdict.py", "--both"], "a reply has exactly one of result, skipped, error",
                     "TWO-VERDICTS", 1),
}


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_one_sabotaged_case_errors_and_every_other_case_passes(tmp_path, name):
    (script, *opts), message, raw, restarts = SCENARIOS[name]
    state = tmp_path / "starts"
    r = run(tmp_path, engine(script, *opts, "--case", TARGET, "--state", str(state)))
    bad = assert_one_errored(r, TARGET, message)
    assert starts(state) == 1 + restarts  # restarted after a broken stream, not after an error reply
    rid = request_id_of(TARGET)
    if raw is None:
        assert "raw" not in bad
    elif raw == "HALF":  # the first half of the reference reply, cut before its newline
        assert bad["raw"].startswith(f'{{"id": "{rid}", "result": {{"error": ') and "\n" not in bad["raw"]
    elif raw == "WRONG-ID":
        assert json.loads(bad["raw"])["id"] == f"not-{rid}"
    elif raw == "ERROR-REPLY":
        assert json.loads(bad["raw"]) == {"id": rid, "error": "deliberate failure for the test"}
        assert bad["stderr"] == f"error_reply.py: refusing {rid}\n"
    elif raw in ("NO-VERDICT", "TWO-VERDICTS"):
        keys = set(json.loads(bad["raw"]))
        assert keys == ({"id", "result", "error"} if raw == "TWO-VERDICTS" else {"id", "answer"})
    else:
        assert bad["raw"] == raw
    if name == "hang":
        assert bad["stderr"] == f"hang.py: hanging on {rid}\n"
        assert f"    stderr: hang.py: hanging on {rid}" in r.stdout


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_crash_at_every_third_request(tmp_path):
    """A crash on the 3rd request of each process: the runner restarts it each time."""
    state = tmp_path / "starts"
    r = run(tmp_path, engine("crash.py", "--at", "3", "--code", "7", "--state", str(state)))
    crashed = [IDS[i] for i in range(2, N, 3)]
    assert r.code == 1 and r.seconds < WALL
    assert r.summary == f"{N - len(crashed)} passed, 0 failed, {len(crashed)} errored, 0 skipped"
    assert [x["id"] for x in r.results if x["status"] == "errored"] == crashed
    for case_id in crashed:
        c = r.case(case_id)
        assert c["message"] == "engine exited (code 7) before replying"
        assert c["stderr"] == f"crash.py: crashing on {request_id_of(case_id)}\n"
    assert starts(state) == 1 + sum(1 for i in range(2, N - 1, 3))  # no restart after the last case


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_silence_with_a_stderr_flood(tmp_path):
    """10 MB on stderr and nothing on stdout: a timeout, with only the last 4000 characters kept."""
    r = run(tmp_path, engine("stderr_flood.py", "--case", TARGET))
    bad = assert_one_errored(r, TARGET, f"no reply within {TIMEOUT}s (engine killed and restarted)")
    tail = bad["stderr"]
    assert len(tail) == 4000
    assert tail.endswith(f"\nstderr_flood.py: end of flood for {request_id_of(TARGET)}\n")
    assert "flooding stderr flooding stderr" in tail


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_missing_verdict_under_validate_names_the_schema(tmp_path):
    r = run(tmp_path, engine("no_verdict.py", "--case", TARGET), "--validate")
    bad = assert_one_errored(r, TARGET, "reply violates the protocol schema: ")
    assert json.loads(bad["raw"])["answer"]["error"]["code"] == "no-such-side"


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_oneshot_mode_survives_a_hang(tmp_path):
    state = tmp_path / "starts"
    first = IDS[:3]
    r = run(tmp_path, engine("hang.py", "--case", first[1], "--state", str(state)), "--oneshot",
            *[a for i in first for a in ("--id", i)])
    assert r.code == 1 and r.seconds < WALL
    assert r.summary == "2 passed, 0 failed, 1 errored, 0 skipped"
    assert [x["id"] for x in r.results] == first
    assert r.case(first[1])["message"].startswith(f"no reply within {TIMEOUT}s")
    assert r.case(first[1])["stderr"] == f"hang.py: hanging on {first[1]}#2\n"
    assert starts(state) == 1 + len(first)  # the handshake in its own process, then one per case


# -- the handshake ---------------------------------------------------------------------------

@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("fail_starts", ["all", "1"])
def test_no_handshake_at_the_first_start_stops_the_run_with_exit_3(tmp_path, fail_starts):
    state = tmp_path / "starts"
    r = run(tmp_path, engine("handshake_exit.py", "--fail-starts", fail_starts, "--state", str(state)))
    assert r.code == 3 and r.seconds < WALL
    assert r.stderr.strip().splitlines() == [
        f"fives: error: engine {engine('handshake_exit.py', '--fail-starts', fail_starts, '--state', str(state))!r}: "
        "handshake failed: engine exited (code 5) before replying "
        "(stderr: handshake_exit.py: exiting during handshake (start 1))"]
    assert starts(state) == 1  # the first start is not retried
    # the reports and results are still written: every case errored, not a green run of nothing
    assert r.results and all(x["status"] == "errored" and x["message"].startswith("engine did not start: ")
                             for x in r.results)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_failed_restart_errors_one_case_and_the_next_start_is_tried(tmp_path):
    state = tmp_path / "starts"
    r = run(tmp_path, engine("handshake_exit.py", "--case", TARGET, "--fail-starts", "2", "--state", str(state)))
    nxt = IDS[IDS.index(TARGET) + 1]
    assert r.code == 1 and r.seconds < WALL
    assert r.summary == f"{N - 2} passed, 0 failed, 2 errored, 0 skipped"
    assert r.case(TARGET)["message"] == "engine exited (code 7) before replying"
    assert r.case(nxt)["message"] == ("engine restart failed: handshake failed: engine exited (code 5) before "
                                      "replying (stderr: handshake_exit.py: exiting during handshake (start 2))")
    assert starts(state) == 3


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_three_failed_restarts_error_the_rest_without_more_tries(tmp_path):
    state = tmp_path / "starts"
    r = run(tmp_path, engine("handshake_exit.py", "--case", IDS[1], "--fail-starts",
                             ",".join(str(i) for i in range(2, 40)), "--state", str(state)))
    assert r.code == 1 and r.seconds < WALL
    assert r.summary == f"1 passed, 0 failed, {N - 1} errored, 0 skipped"
    messages = [r.case(i)["message"] for i in IDS[1:]]
    assert messages[0] == "engine exited (code 7) before replying"
    assert all(m.startswith("engine restart failed: handshake failed") for m in messages[1:4])
    assert all(m.startswith("engine failed to start 3 times in a row; last: handshake failed") for m in messages[4:])
    assert starts(state) == 4


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("mode", [[], ["--oneshot"]], ids=["persistent", "oneshot"])
def test_validate_rejects_a_hello_that_violates_the_schema(tmp_path, mode):
    hostile = engine("bad_hello.py")
    r = run(tmp_path, hostile, "--validate", "--id", IDS[0], *mode)
    assert r.code == 3 and [(x["id"], x["status"]) for x in r.results] == [(IDS[0], "errored")]
    capabilities = {k.capability for k in load_kinds().values()}  # the reference declares each once
    assert len(r.stderr.strip().splitlines()) == 1
    assert r.stderr.startswith(f"fives: error: engine {hostile!r}: hello reply violates the protocol schema: "
                               f"at capabilities/{len(capabilities)}: 'teleport' is not one of ['evaluate', ")
    r = run(tmp_path, hostile, "--id", IDS[0], *mode)  # without --validate the extra name is ignored
    assert r.code == 0 and r.summary == "1 passed, 0 failed, 0 errored, 0 skipped"


# -- reports, known failures, filters ---------------------------------------------------------

@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_report_formats(tmp_path):
    junit, markdown = tmp_path / "out.xml", tmp_path / "out.md"
    argv = [sys.executable, "-m", "fives.cli", "conformance", "run", "--fixtures", str(FIXTURE),
            "--engine", engine("error_reply.py", "--case", TARGET),
            "--report", "json", "--report", f"junit:{junit}", "--report", f"markdown:{markdown}"]
    p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 1
    doc = json.loads(p.stdout)  # the json report alone on stdout; the human summary on stderr
    assert doc["engine"]["engine"]["name"] == "fives-reference"
    assert doc["summary"]["errored"] == 1 and len(doc["cases"]) == N
    assert p.stderr.strip().splitlines()[-1] == f"{N - 1} passed, 0 failed, 1 errored, 0 skipped"

    root = ET.parse(junit).getroot()
    assert (root.tag, root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == \
        ("testsuites", str(N), "0", "1", "0")
    cases = root.findall("./testsuite/testcase")
    assert [c.get("name") for c in cases] == IDS
    bad = next(c for c in cases if c.get("name") == TARGET)
    assert bad.find("error").get("message") == "engine reported error: deliberate failure for the test"
    assert bad.find("system-err").text == f"error_reply.py: refusing {request_id_of(TARGET)}\n"
    assert all(c.find("error") is None for c in cases if c is not bad)

    md = markdown.read_text()
    assert md.startswith("## ❌ fives conformance: fives-reference")
    assert f"**{N - 1} passed, 0 failed, 1 errored, 0 skipped**" in md
    assert (f"| `{TARGET}` | errored | `SN-PLACE-1` | `conformance/fixtures/illegal/american-sniff.yaml` | "
            "engine reported error: deliberate failure for the test |") in md  # the row names its clause


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_known_failures_round_trip(tmp_path):
    known = tmp_path / "known.yaml"
    hostile = engine("error_reply.py", "--case", TARGET)
    r = run(tmp_path, hostile, "--write-known-failures", str(known))
    assert r.code == 1 and f"wrote 1 known failure to {known}" in r.stderr
    assert yaml.safe_load(known.read_text()) == {
        "known_failures": {TARGET: "errored: engine reported error: deliberate failure for the test"}}

    r = run(tmp_path, hostile, "--known-failures", str(known), "--report", f"junit:{tmp_path / 'j.xml'}")
    assert r.code == 0, r.stdout  # a listed case does not fail the run
    assert r.summary == f"{N - 1} passed, 0 failed, 0 errored, 0 skipped, 1 known failure"
    assert "known failures: 1 still failing, 0 now passing" in r.stdout
    assert r.case(TARGET)["known_failure"].startswith("errored: ") and r.report["summary"]["known"] == 1
    root = ET.parse(tmp_path / "j.xml").getroot()
    assert (root.get("errors"), root.get("skipped")) == ("0", "1")
    assert len(root.findall(".//skipped")) == 1

    r = run(tmp_path, None, "--known-failures", str(known))  # the reference engine passes it again
    assert r.code == 0 and r.summary == f"{N} passed, 0 failed, 0 errored, 0 skipped"
    assert f"known failures: 0 still failing, 1 now passing: {TARGET}" in r.stdout


def test_a_bad_known_failures_file_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("known_failures: [SN-ILL-MALFORMED-TILE]\n")
    r = CliRunner().invoke(main, ["conformance", "run", "--fixtures", str(FIXTURE), "--known-failures", str(bad)])
    assert r.exit_code == 2
    assert r.stderr.strip() == f"fives: error: {bad}: expected a mapping `known_failures: {{CASE-ID: reason, ...}}`"


# settled fixture folders of two kinds (the default roots also hold work in progress)
ROOTS = [ROOT / "conformance" / "fixtures" / d for d in ("illegal", "seed", "setup")]


def cli_json(*args: str) -> list[str]:
    """The case IDs a run with these options reports (reference engine, in process)."""
    roots = [a for r in ROOTS for a in ("--fixtures", str(r))]
    r = CliRunner().invoke(main, ["conformance", "run", "--report", "json", *roots, *args])
    return [c["id"] for c in json.loads(r.stdout)["cases"]]


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_filters_select_exactly_the_matching_cases():
    every = load_cases(ROOTS)
    assert {c.kind for c in every} >= {"evaluate", "setup"} and {c.game for c in every} == {"american-sniff", "horse-race"}
    want = [c.id for c in every if re.fullmatch(r".*-ILL-VALUE-.*|SN-EX-.*", c.id)]
    assert len(want) >= 4 and cli_json("--id", "*-ILL-VALUE-*", "--id", "SN-EX-*") == want
    assert cli_json("--game", "horse-race") == [c.id for c in every if c.game == "horse-race"]
    assert cli_json("--kind", "setup") == [c.id for c in every if c.kind == "setup"]
    assert cli_json("--kind", "evaluate", "--game", "american-sniff", "--id", "SN-ILL-*") == IDS
    r = CliRunner().invoke(main, ["conformance", "run", "--id", "NO-SUCH-CASE-*"])  # filters cannot lie
    assert r.exit_code == 2 and r.stderr == "fives: error: --id NO-SUCH-CASE-*: matches no case of the suite\n"
    r = CliRunner().invoke(main, ["conformance", "run", "--kind", "dominoes"])
    assert r.exit_code == 2 and r.stderr.startswith("fives: error: --kind dominoes: unknown kind (the suite has: ")


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_ctrl_c_keeps_every_finished_case(tmp_path):
    report, results = tmp_path / "r.json", tmp_path / "f.jsonl"
    argv = [sys.executable, "-m", "fives.cli", "conformance", "run", "--fixtures", str(FIXTURE),
            "--engine", engine("slow.py", "--delay", "0.25"), "--results", str(results), "--report", f"json:{report}"]
    t0 = time.monotonic()
    p = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while (not results.exists() or len(results.read_text().splitlines()) < 3) and time.monotonic() - t0 < 120:
        time.sleep(0.05)
    assert len(results.read_text().splitlines()) >= 3, "the run never finished 3 cases"
    t0 = time.monotonic()  # the stop's promptness, from the signal on
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=WALL)
    assert p.returncode == 130, err
    assert time.monotonic() - t0 < WALL
    doc = json.loads(report.read_text())
    finished = [json.loads(x)["id"] for x in results.read_text().splitlines()]
    reported = [c["id"] for c in doc["cases"]]
    assert 3 <= len(finished) < N and reported[:len(finished)] == finished and len(reported) - len(finished) <= 1
    assert reported == IDS[:len(reported)] and all(c["status"] == "passed" for c in doc["cases"])
    assert doc["summary"]["interrupted"] is True and doc["summary"]["passed"] == len(reported)
    assert "interrupted: the results above cover the cases that finished" in out
    assert out.strip().splitlines()[-1] == f"{len(reported)} passed, 0 failed, 0 errored, 0 skipped"
