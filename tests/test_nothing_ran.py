"""Nothing run is not a pass (issue 40): a conformance run in which no case ran exits 5, as
pytest does when no test ran, and says why in one line; the pytest plugin likewise; and an
engine restarted with a hello that differs from its first one is the engine's error, never a
silently different scope (tests/hostile_engines/hello_scope.py, all_skipped.py)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fives.conformance.cases.fixtures import Case, load_cases
from fives.conformance.engines.drivers import Outcome
from fives.conformance.runner import CaseResult
from fives.conformance.sessions.run import RunOutcome, nothing_ran
from fives.conformance.reports.failures import EngineRun
from fives.support.errors import EXIT_NO_CASES
from fives.support.paths import FIXTURES, ROOT

from test_runner_robustness import engine  # the hostile engines, by script name

FIGURES = FIXTURES / "seed" / "american-sniff-figures.yaml"  # 11 cases, 2 players or none
IDS = [c.id for c in load_cases([FIGURES])]
EMPTY_SCOPE = json.dumps({"games": [], "kinds": ["teleport"]})


def run(tmp_path: Path, command: str, *args: str) -> tuple[subprocess.CompletedProcess[str], list[dict]]:
    results = tmp_path / "results.jsonl"
    argv = [sys.executable, "-m", "fives.cli", "conformance", "run", "--fixtures", str(FIGURES), "--engine", command,
            "--timeout", "20", "--results", str(results), *args]
    p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in p.stdout + p.stderr, p.stderr
    lines = results.read_text(encoding="utf-8").splitlines() if results.exists() else []
    return p, [json.loads(x) for x in lines]


def test_the_exit_code_is_five_as_pytests() -> None:
    assert EXIT_NO_CASES == 5 == int(pytest.ExitCode.NO_TESTS_COLLECTED)


def test_an_empty_scope_runs_nothing_and_exits_5(tmp_path: Path) -> None:
    p, results = run(tmp_path, engine("hello_scope.py", "--scope", EMPTY_SCOPE), "-q")
    assert p.returncode == 5, p.stdout + p.stderr
    assert p.stdout == f"0 passed, 0 failed, 0 errored, {len(IDS)} skipped\n"
    assert p.stderr == "fives: no case ran: the engine's scope leaves no case\n"
    assert [r["id"] for r in results] == IDS and all(r["status"] == "skipped" and r["out_of_scope"] for r in results)


def test_an_engine_that_skips_every_case_exits_5(tmp_path: Path) -> None:
    p, results = run(tmp_path, engine("all_skipped.py"))
    assert p.returncode == 5, p.stdout + p.stderr
    assert p.stdout.splitlines()[-1] == f"0 passed, 0 failed, 0 errored, {len(IDS)} skipped"
    assert p.stderr.splitlines()[-1] == "fives: no case ran: every case skipped by the engine"
    assert {r["status"] for r in results} == {"skipped"} and len(results) == len(IDS)


def test_one_case_run_is_a_run(tmp_path: Path) -> None:
    # the engine skips every case but SN-FIG-4-4: a run, and green
    p, _ = run(tmp_path, engine("all_skipped.py", "--case", "SN-FIG-[!4]*"), "-q")
    assert p.returncode == 0, p.stdout + p.stderr
    assert (p.stdout, p.stderr) == (f"1 passed, 0 failed, 0 errored, {len(IDS) - 1} skipped\n", "")


def test_a_restart_with_a_changed_hello_is_the_engines_error(tmp_path: Path) -> None:
    state = tmp_path / "starts"
    # the first start declares no scope; it crashes at its 3rd request; the restarts declare players [2]
    p, results = run(tmp_path, engine("hello_scope.py", "--state", str(state), "--changed-at", "2", "--at", "3"))
    assert p.returncode == 1, p.stdout + p.stderr
    statuses = [r["status"] for r in results]
    assert [r["id"] for r in results] == IDS
    assert statuses[:2] == ["passed", "passed"] and statuses[2] == "errored"
    after = results[3:]
    assert after and all(r["status"] == "errored" for r in after)
    assert "its hello differs from its first hello: scope was absent, now " in after[0]["message"]
    assert all("its hello differs from its first hello" in r["message"] for r in after)
    assert not any(r.get("out_of_scope") for r in results)  # the changed scope never chose what ran


def test_a_parallel_twin_with_another_hello_is_refused_too(tmp_path: Path) -> None:
    state = tmp_path / "starts"
    # --jobs 2: the second process started (the twin) declares players [2]; it never crashes.
    # --wait-twin: the first holds its first case until the twin has started (an event, not a
    # race: on a loaded machine the first once ran all 11 cases before the twin took one)
    p, results = run(tmp_path, engine("hello_scope.py", "--state", str(state), "--changed-at", "2", "--at", "999",
                                      "--wait-twin"), "--jobs", "2")
    assert p.returncode == 1, p.stdout + p.stderr
    assert [r["id"] for r in results] == IDS
    refused = [r for r in results if r["status"] == "errored"]
    assert refused and all("its hello differs from its first hello" in r["message"] for r in refused)
    assert {r["status"] for r in results} <= {"passed", "errored"}


def _skipped(case: Case, scope: str | None, message: str = "engine skipped: not yet") -> CaseResult:
    return CaseResult(case, "skipped", outcome=Outcome("skipped", message=message), out_of_scope=scope)


def test_the_reasons_and_the_exit_codes_of_the_session() -> None:
    cases = load_cases([FIGURES])
    assert nothing_ran([]) == "no case was selected"
    assert nothing_ran([_skipped(c, "outside") for c in cases]) == "the engine's scope leaves no case"
    assert nothing_ran([_skipped(c, None) for c in cases]) == "every case skipped by the engine"
    # a hello that declares no capability (the new-engine skeleton as written) is its scope too
    undeclared = [_skipped(c, None, "engine does not declare capability evaluate") for c in cases]
    assert nothing_ran(undeclared) == "the engine's scope leaves no case"
    mixed = [_skipped(cases[0], "outside"), _skipped(cases[1], None)]
    assert nothing_ran(mixed) == "every case skipped (1 outside the engine's scope, 1 skipped by the engine)"
    illegal = _skipped(cases[2], None, "input illegal under sniff-digigamers: ...")  # --rules P
    assert nothing_ran([*mixed, illegal]) == ("every case skipped (1 outside the engine's scope, "
                                              "1 skipped by the engine, 1 left out by the run)")
    ran = [*mixed, CaseResult(cases[2], "passed")]
    assert nothing_ran(ran) is None
    one = RunOutcome([EngineRun("e", mixed, None)], False)
    assert one.exit_code == 5
    assert RunOutcome([EngineRun("e", mixed, None)], False, interrupted=True).exit_code == 130  # stopped: not 5
    assert RunOutcome([EngineRun("e", ran, None)], False).exit_code == 0
    several = RunOutcome([EngineRun("a", ran, None), EngineRun("b", mixed, None)], True)
    assert several.exit_code == 5 and several.nothing_ran == "engine 'b': " + nothing_ran(mixed)


pytest_plugins = ["pytester"]


@pytest.mark.slow  # an inner pytest session: over 0.45 s
def test_the_pytest_plugin_exits_5_when_every_case_is_skipped(pytester: pytest.Pytester) -> None:
    from test_pytest_plugin import plugin_args

    r = pytester.runpytest(*plugin_args(), "-q", "--fives-engine", engine("all_skipped.py"),
                           "--fives-fixtures", str(FIGURES))
    r.assert_outcomes(skipped=len(IDS))
    assert r.ret == 5
    r.stdout.fnmatch_lines(["fives: no case ran: every case skipped by the engine"])
    ok = pytester.runpytest(*plugin_args(), "-q", "--fives-engine", engine("all_skipped.py", "--case", "SN-FIG-[!4]*"),
                            "--fives-fixtures", str(FIGURES))
    assert ok.ret == 0
