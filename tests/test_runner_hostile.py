"""`fives conformance run` against engines that try to crash, hang or fool the runner
(tests/hostile_engines/): replies nested 100,000 deep, integers over Python's 4,300-digit
limit, NaN and Infinity, bytes that are not UTF-8, a closed stdout, a forked child that keeps
the pipes open, control characters. Each run: no traceback, bounded time, every case reported
(results lines = cases, strict JSON), the documented exit code. Also SIGTERM, early checks of
output paths, the in-process --timeout and --jobs."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from fives.conformance.engines.deadline import DeadlineRunner
from fives.conformance.cases.fixtures import load_cases
from fives.support.paths import ROOT

from test_runner_robustness import Run, engine  # noqa: E402 - the same engines and run record

FIXTURE = ROOT / "conformance" / "fixtures" / "illegal" / "american-sniff.yaml"
IDS = [c.id for c in load_cases([FIXTURE])]
N = len(IDS)
TARGET = IDS[4]
RID = f"{TARGET}#{IDS.index(TARGET) + 1}"  # request ids number the cases in run order
WALL = 90.0  # seconds any one run may take here: a hang's bound, generous for a loaded machine
#: --timeout of every run here: a hang is waited out this long, and a restarted engine's hello must
#: come within it (2 s was too short beside a second full test run: a restart took longer, and a
#: second case errored)
TIMEOUT = 8


def strict_json(text: str) -> Any:
    """json.loads that refuses NaN and Infinity, as strict parsers do."""
    def refuse(name: str) -> Any:
        raise ValueError(f"non-standard JSON constant {name}")
    return json.loads(text, parse_constant=refuse)


def run(tmp_path: Path, *args: str, fixture: Path | None = FIXTURE) -> Run:
    report, results = tmp_path / "report.json", tmp_path / "results.jsonl"
    argv = [sys.executable, "-m", "fives.cli", "conformance", "run", "--timeout", str(TIMEOUT),
            "--report", f"json:{report}", "--results", str(results), *args]
    argv += ["--fixtures", str(fixture)] if fixture else []
    t0 = time.monotonic()
    p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
    seconds = time.monotonic() - t0
    assert "Traceback" not in p.stderr + p.stdout, p.stderr
    lines = results.read_text(encoding="utf-8").splitlines() if results.exists() else []
    return Run(p.returncode, p.stdout, p.stderr, seconds,
               strict_json(report.read_text(encoding="utf-8")) if report.exists() else None,
               [strict_json(x) for x in lines])


def assert_only_target_errored(r: Run, message: str) -> dict[str, Any]:
    assert r.code == 1, r.stdout + r.stderr
    assert r.seconds < WALL
    assert [x["id"] for x in r.results] == IDS  # results lines = cases, in order
    assert r.report is not None and [c["id"] for c in r.report["cases"]] == IDS
    assert r.stdout.strip().splitlines()[-1] == f"{N - 1} passed, 0 failed, 1 errored, 0 skipped"
    bad = r.case(TARGET)
    assert bad["status"] == "errored" and bad["message"] == message, bad
    return bad


def dead(pid: int) -> bool:
    """True once `pid` is gone (or a zombie waiting for init to reap it)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def wait_dead(pids: list[int], seconds: float = 60.0) -> bool:  # generous: a loaded machine reaps slowly
    deadline = time.monotonic() + seconds
    while not all(dead(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return all(dead(p) for p in pids)


# (engine script and options, the whole message of the sabotaged case, its raw reply starts with)
SCENARIOS = {
    "deep": (["deep.py"], "invalid reply: nested deeper than 64 levels", f'{{"id": "{RID}", "result": [[[['),
    "huge-int": (["huge_int.py"], "invalid reply: number '1000000000000000000000000000000000000000…' has more "
                 "than 18 digits", f'{{"id": "{RID}", "result": {{"sum": 10000'),
    "nan": (["nan.py"], "invalid reply: NaN is not a number this format accepts",
            f'{{"id": "{RID}", "result": {{"sum": NaN}}}}\n'),
    "infinity": (["nan.py", "--value", "minus-inf"], "invalid reply: -Infinity is not a number this format accepts",
                 f'{{"id": "{RID}", "result": {{"sum": -Infinity}}}}\n'),
    "overflow": (["nan.py", "--value", "1e999"], "invalid reply: number '1e999' is out of range",
                 f'{{"id": "{RID}", "result": {{"sum": 1e999}}}}\n'),
    "not-utf8": (["bad_utf8.py"], "invalid reply: not UTF-8 (invalid start byte at byte 43)",
                 f'{{"id": "{RID}", "result": "\ufffd\ufffd"}}\n'),
    "closed-stdout": (["closed_stdout.py"], "engine closed its output but is still running (engine killed and "
                      "restarted)", None),
    "leak-then-exit": (["leak.py", "--then", "exit"], "engine exited (code 9) before replying; a process it "
                       "started still held its output", None),
    "leak-then-hang": (["leak.py", "--then", "hang"], f"no reply within {TIMEOUT}s (engine killed and restarted)", None),
}


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_a_hostile_reply_errors_only_its_case(tmp_path, name):
    (script, *opts), message, raw = SCENARIOS[name]
    pids = tmp_path / "pids"
    extra = ["--pids", str(pids)] if script == "leak.py" else []
    r = run(tmp_path, "--engine", engine(script, *opts, *extra, "--case", TARGET))
    bad = assert_only_target_errored(r, message)
    if raw is None:
        assert "raw" not in bad
    else:
        assert bad["raw"].startswith(raw) and len(bad["raw"]) <= 400
    if script == "leak.py":  # the forked child went with the engine's process group
        children = [int(x) for x in pids.read_text().split()]
        assert len(children) == 1 and wait_dead(children)
        assert bad["stderr"] == f"leak.py: leaking a child on {RID}\n"


def test_a_child_left_holding_the_pipes_at_exit_does_not_hang_the_end(tmp_path):
    pids = tmp_path / "pids"
    r = run(tmp_path, "--engine", engine("leak.py", "--then", "end", "--pids", str(pids)))
    assert r.code == 0 and r.seconds < WALL
    assert [x["status"] for x in r.results] == ["passed"] * N
    children = [int(x) for x in pids.read_text().split()]
    assert len(children) == 1 and wait_dead(children)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_an_unpaired_surrogate_is_an_invalid_reply_written_as_strict_json(tmp_path):
    """Issue 21: every reader refuses a lone surrogate, so such a reply is not an answer."""
    r = run(tmp_path, "--engine", engine("bad_utf8.py", "--surrogate", "--case", TARGET))
    bad = assert_only_target_errored(r, "invalid reply: string '\\ud800' holds a lone surrogate "
                                        "(half of a UTF-16 pair), which is not a Unicode character")
    assert bad["actual"] is None and '"code": "\\ud800"' in bad["raw"]  # the raw reply is kept, as JSON escapes


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_control_characters_reach_the_reports_escaped_and_valid(tmp_path):
    junit = tmp_path / "out.xml"
    r = run(tmp_path, "--engine", engine("controls.py", "--case", TARGET), "--report", f"junit:{junit}")
    nasty = "\x1b[31mred\x1b[0m nul:\x00 cr:\r bell:\x07 bidi:\u202e"
    bad = assert_only_target_errored(r, r"engine reported error: broken \x1b[31mred\x1b[0m nul:\x00 cr:\r "
                                        r"bell:\x07 bidi:\u202e end")
    assert f"controls.py: {nasty} {RID}\n" in bad["stderr"]  # JSON keeps the engine's text exactly
    assert "\x1b" not in r.stdout and "\x00" not in r.stdout
    root = ET.parse(junit).getroot()  # well-formed XML despite NUL and ESC
    assert root.get("errors") == "1" and root.get("tests") == str(N)


def assert_not_started(r: Run, ids: list[str]) -> None:
    """A failed handshake still writes the reports and the results: every case errored (issue 21)."""
    assert [x["id"] for x in r.results] == ids
    assert all(x["status"] == "errored" and x["message"].startswith("engine did not start: handshake failed: ")
               for x in r.results)
    assert r.report is not None and r.report["summary"]["errored"] == len(ids) and r.report["summary"]["passed"] == 0


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("script", ["deep.py", "huge_int.py"])
def test_a_hostile_handshake_is_one_line_and_exit_3(tmp_path, script):
    r = run(tmp_path, "--engine", engine(script, "--hello"))
    assert r.code == 3 and r.seconds < WALL
    assert_not_started(r, IDS)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"fives: error: engine {engine(script, '--hello')!r}: "
                                                   "handshake failed: invalid reply: ")


# -- SIGTERM ----------------------------------------------------------------------------------

@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigterm_mid_run_writes_valid_reports_and_exits_143(tmp_path, jobs):
    report, junit, results = tmp_path / "r.json", tmp_path / "r.xml", tmp_path / "f.jsonl"
    state = tmp_path / "starts"
    argv = [sys.executable, "-m", "fives.cli", "conformance", "run", "--fixtures", str(FIXTURE), "--jobs", jobs,
            "--engine", engine("slow.py", "--delay", "0.25", "--state", str(state)), "--results", str(results),
            "--report", f"json:{report}", "--report", f"junit:{junit}"]
    t0 = time.monotonic()
    p = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while (not results.exists() or len(results.read_text().splitlines()) < 3) and time.monotonic() - t0 < 120:
        time.sleep(0.05)
    assert len(results.read_text().splitlines()) >= 3, "the run never finished 3 cases"
    t0 = time.monotonic()  # the stop's promptness, from the signal on
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=WALL)
    assert p.returncode == 143, err
    assert "Traceback" not in err and time.monotonic() - t0 < WALL
    doc = strict_json(report.read_text())
    finished = [strict_json(x)["id"] for x in results.read_text().splitlines()]
    reported = [c["id"] for c in doc["cases"]]
    assert 3 <= len(finished) < N and reported[:len(finished)] == finished and reported == IDS[:len(reported)]
    assert doc["summary"]["interrupted"] is True and all(c["status"] == "passed" for c in doc["cases"])
    root = ET.parse(junit).getroot()
    assert root.get("tests") == str(len(reported))
    assert out.strip().splitlines()[-1] == f"{len(reported)} passed, 0 failed, 0 errored, 0 skipped"


# -- output paths are checked before the suite loads ------------------------------------------

@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("option", ["--results", "--report", "--write-known-failures"])
def test_an_unwritable_output_is_refused_before_loading(tmp_path, option):
    missing = tmp_path / "no-such-folder" / "out"
    value = f"junit:{missing}" if option == "--report" else str(missing)
    # the fixtures do not exist either: the output is checked first, so that is not the error
    r = run(tmp_path, option, value, fixture=tmp_path / "no-such-fixtures")
    assert r.code == 2 and r.results == []
    assert r.stderr.strip().splitlines() == [f"fives: error: {missing}: cannot write: its folder does not exist"]
    r = run(tmp_path, option, value.replace(str(missing), str(tmp_path)), fixture=tmp_path / "nothing")
    assert r.code == 2 and r.stderr.strip().splitlines() == [f"fives: error: {tmp_path}: is a directory"]


def _plain_run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fives.cli", "conformance", "run", "-q", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("option", ["--results", "--report", "--write-known-failures"])
def test_an_output_that_is_an_input_of_the_run_is_refused(tmp_path, option):
    suite = tmp_path / "suite"
    suite.mkdir()
    fixture = suite / FIXTURE.name
    fixture.write_bytes(FIXTURE.read_bytes())
    for given in (fixture, suite):  # the fixture file itself, or the folder it is found in
        value = f"json:{fixture}" if option == "--report" else str(fixture)
        p = _plain_run("--fixtures", str(given), option, value)
        assert p.returncode == 2 and p.stderr.splitlines() == [
            f"fives: error: {fixture}: is an input of this run ({given}): an output never replaces what is being run"]
        assert fixture.read_bytes() == FIXTURE.read_bytes()
    new = suite / ("new.json" if option == "--report" else "new.yaml")
    p = _plain_run("--fixtures", str(suite), option, f"json:{new}" if option == "--report" else str(new))
    # a new file inside the folder read would be read as a fixture next time (issue 29): refused
    assert p.returncode == 2 and p.stderr.splitlines() == [
        f"fives: error: {new}: is inside {suite}, which this run reads whole: write outputs elsewhere"]
    assert not new.exists()
    out = tmp_path / ("out.json" if option == "--report" else "out.yaml")
    p = _plain_run("--fixtures", str(suite), option, f"json:{out}" if option == "--report" else str(out))
    assert p.returncode == 0, p.stderr


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_known_failures_may_be_rewritten_only_by_write_known_failures(tmp_path):
    known = tmp_path / "known.yaml"
    known.write_text("known_failures: {}\n")
    p = _plain_run("--fixtures", str(FIXTURE), "--known-failures", str(known), "--results", str(known))
    assert p.returncode == 2 and "is an input of this run" in p.stderr and known.read_text() == "known_failures: {}\n"
    p = _plain_run("--fixtures", str(FIXTURE), "--known-failures", str(known), "--write-known-failures", str(known))
    assert p.returncode == 0, p.stderr
    assert known.read_text().startswith("# Known failures")


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_two_outputs_naming_one_file_are_refused(tmp_path):
    out = tmp_path / "out.json"
    p = _plain_run("--fixtures", str(FIXTURE), "--results", str(out), "--report", f"json:{out}")
    assert p.returncode == 2 and p.stderr.splitlines() == [
        f"fives: error: {out}: named for two outputs ({out} and {out}): each needs its own file"]
    assert not out.exists()


# -- the in-process engine honours --timeout ---------------------------------------------------

@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_the_in_process_engine_stops_a_case_over_its_timeout(tmp_path):
    deep, quick = "PERFT-horse-race-empty-D8", "PERFT-horse-race-empty-D1"
    # --timeout is the base of each case's limit (spec/protocol.md, "Time limits"): the deep row's
    # 3,843,859,320 nodes make 0.00001 s into 0.8 s, far below the 17 s the compiled count takes
    # (fives/perft.py splits it into calls short enough for the deadline to land between them)
    r = run(tmp_path, "--slow", "--timeout", "0.00001", "--id", deep, "--id", quick, fixture=None)
    assert r.code == 1 and r.seconds < WALL
    assert [(x["id"], x["status"]) for x in r.results] == [(quick, "passed"), (deep, "errored")] or \
        [(x["id"], x["status"]) for x in r.results] == [(deep, "errored"), (quick, "passed")]
    assert r.case(deep)["message"] == "no answer within 0.8s (timeout; the case was stopped; --timeout 0: no limit)"


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_deadline_stops_a_python_loop_and_nothing_leaks_after():
    runner = DeadlineRunner()

    def forever() -> None:
        while True:
            try:
                sum(range(1000))
            except Exception:  # the code under test cannot swallow the timeout
                pass

    assert runner.call(forever, 0.2).status == "timeout"
    assert runner.call(lambda: 6 * 7, 5.0).value == 42
    assert runner.call(lambda: 1 // 0, 5.0).status == "error"
    assert [runner.call(lambda i=i: i, 5.0).value for i in range(200)] == list(range(200))
    time.sleep(0.2)  # a stray timeout would be raised here
    runner.close()


# -- --jobs -----------------------------------------------------------------------------------

def comparable(r: Run) -> tuple[Any, ...]:
    """What must not depend on --jobs: results, report and output, run times left out."""
    assert r.report is not None
    drop = lambda d: {k: v for k, v in d.items() if k != "seconds"}  # noqa: E731
    return ([drop(x) for x in r.results], [drop(c) for c in r.report["cases"]], r.report["summary"], r.stdout, r.code)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("mode", [[], ["--oneshot"]], ids=["persistent", "oneshot"])
def test_jobs_do_not_change_the_output(tmp_path, mode):
    # a crash (persistent: the engine is restarted) or an error reply (one-shot) in one case,
    # with the request id in its stderr: --jobs must not change that id, or anything else
    first = IDS[:4] if mode else IDS
    hostile = engine("error_reply.py" if mode else "crash.py", "--case", first[2])
    ids = [a for i in first for a in ("--id", i)]
    for jobs in ("1", "3"):
        (tmp_path / jobs).mkdir()
    one, three = (run(tmp_path / jobs, "--engine", hostile, *mode, "--jobs", jobs, *ids) for jobs in ("1", "3"))
    assert one.code == 1 and [x["status"] for x in one.results] == ["passed"] * 2 + ["errored"] + ["passed"] * (len(first) - 3)
    assert f"{first[2]}#3" in one.results[2]["stderr"]
    assert comparable(one) == comparable(three)
