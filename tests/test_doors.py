"""Through every door (issue 36): the same engines run through the CLI (`fives conformance run`),
the pytest plugin (`pytest --fives-engine`) and `fives.suite` give the same verdict per case.

The engines: the reference, a mutant, one whose hello declares a two-player scope (its 3- and
4-player cases are out of scope, skipped in every door: the plugin used to run and fail them),
and one playing a rule profile, run under that profile. Plus the run-side drifts: an exact ID
with brackets selects through `load_suite` as through `--id`, and `--diagnosis` groups the
failures of a several-engines run by its causes."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import fives.suite
from fives.conformance.cases.profile_pins import plan_run
from fives.conformance.cases.selection import CaseFilters
from fives.conformance.engines.handle import EngineSpec
from fives.conformance.sessions.run import RunOptions, run_suite
from fives.profiles import load_profile

ROOT = Path(__file__).resolve().parents[1]
SERVE = f"{sys.executable} -m fives serve"
KIND = "settle"  # 440 cases of both games, 2 to 4 players: seconds per door
PROFILE = "sniff-digigamers"
ENGINES = {  # name -> (engine command, --rules profile or None)
    "reference": (SERVE, None),
    "mutant": (f"{SERVE} --mutant drawn-tile-continues", None),
    "two-players": (f"{SERVE} --players 2", None),
    "profile": (f"{SERVE} --rules {PROFILE}", PROFILE),
}


def plugin_args() -> list[str]:
    """`-p fives.conformance.pytest_plugin` unless the checkout is installed with its entry point."""
    import importlib.metadata

    plugin = "fives.conformance.pytest_plugin"
    installed = any(ep.value == plugin for ep in importlib.metadata.entry_points(group="pytest11"))
    return ["-p", "no:cacheprovider"] + ([] if installed else ["-p", plugin])


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}


def _verdict(status: str) -> str:
    return "failed" if status == "errored" else status


def cli_verdicts(command: str, rules: str | None, tmp_path: Path) -> dict[str, str]:
    report = tmp_path / "cli.json"
    args = ["conformance", "run", "--engine", command, "--kind", KIND, "-q", "--report", f"json:{report}"]
    r = subprocess.run([sys.executable, "-m", "fives", *args, *(["--rules", rules] if rules else [])],
                       capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=300)
    assert r.returncode in (0, 1), r.stderr
    return {c["id"]: _verdict(c["status"]) for c in json.loads(report.read_text())["cases"]}


def plugin_verdicts(command: str, rules: str | None, tmp_path: Path) -> dict[str, str]:
    junit = tmp_path / "plugin.xml"
    args = [*plugin_args(), "-q", "-p", "no:xdist", "--fives-engine", command, "--fives-kind", KIND, f"--junitxml={junit}", "--rootdir", str(tmp_path)]
    r = subprocess.run([sys.executable, "-m", "pytest", *args, *(["--fives-rules", rules] if rules else [])],
                       capture_output=True, text=True, env=_env(), cwd=tmp_path, timeout=300)
    assert r.returncode in (0, 1), r.stdout[-2000:] + r.stderr[-2000:]
    out = {}
    for case in ET.parse(junit).iter("testcase"):
        tags = {child.tag for child in case}
        out[case.get("name", "")] = "skipped" if "skipped" in tags else \
            "failed" if tags & {"failure", "error"} else "passed"
    return out


def suite_verdicts(command: str, rules: str | None) -> dict[str, str]:
    """fives.suite: load_suite, the answers gathered by the run session, judged by `compare`."""
    cases = fives.suite.load_suite(kinds=[KIND])
    profile = load_profile(rules) if rules else None
    plan = None
    if profile is not None:  # as the CLI: the expectations under P, and the cases pinning its values
        cases, plan = plan_run(profile, cases, CaseFilters(kinds=(KIND,)))
    outcome = run_suite(RunOptions((EngineSpec(command, profile=profile),), tuple(cases), plan=plan))
    out = {}
    for r in outcome.results:
        o = r.outcome
        if r.status == "skipped":
            out[r.case.id] = "skipped"
        else:
            ok = o is not None and o.status != "error" and not fives.suite.compare(r.case, o.answer)
            out[r.case.id] = "passed" if ok else "failed"
    return out


@pytest.mark.slow  # a few seconds per engine and door
@pytest.mark.parametrize("name", list(ENGINES))
def test_every_door_gives_the_same_verdict_per_case(name: str, tmp_path: Path) -> None:
    command, rules = ENGINES[name]
    cli = cli_verdicts(command, rules, tmp_path)
    plugin = plugin_verdicts(command, rules, tmp_path)
    suite = suite_verdicts(command, rules)
    pins = sum(1 for i in cli if i.startswith("PIN-"))  # under a profile, the cases pinning its values
    assert (pins > 0) == (rules is not None)
    assert len(cli) == len(fives.suite.load_suite(kinds=[KIND])) + pins > 400
    assert plugin == cli
    assert suite == cli
    counts = {v: sum(1 for x in cli.values() if x == v) for v in ("passed", "failed", "skipped")}
    if name == "reference":
        assert counts == {"passed": len(cli), "failed": 0, "skipped": 0}
    if name == "two-players":  # its 3- and 4-player cases are out of scope: skipped, never failed
        assert counts["failed"] == 0 and counts["skipped"] > 100 and counts["passed"] > 100


def test_load_suite_takes_an_exact_id_with_brackets_as_id_does() -> None:
    wanted = "PERFT-american-sniff-empty-D3-[0|0]"
    assert [c.id for c in fives.suite.load_suite(ids=[wanted])] == [wanted]
    assert fives.suite.load_suite(ids=["NO-SUCH-CASE-*"]) == []  # no match: [], not an error (the CLI's is exit 2)
    r = subprocess.run([sys.executable, "-m", "fives", "conformance", "list", "--id", wanted],
                       capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=120)
    assert r.returncode == 0 and r.stdout.split()[0] == wanted, r.stderr


@pytest.mark.slow
def test_a_diagnosis_groups_the_failures_of_several_engines_too(tmp_path: Path) -> None:
    ids = [c.id for c in fives.suite.load_suite(games=["horse-race"], kinds=["turn"])]
    diagnosis = tmp_path / "diagnosis.json"
    diagnosis.write_text(json.dumps({"format": "fives-diagnosis/1",
                                     "causes": [{"cause": "planted", "game": "horse-race", "ids": ids}]}))
    report = tmp_path / "r.json"
    args = ["conformance", "run", "--engine", SERVE, "--engine", f"{SERVE} --mutant drawn-tile-continues",
            "--game", "horse-race", "--kind", "turn", "--diagnosis", str(diagnosis), "--report", f"json:{report}"]
    r = subprocess.run([sys.executable, "-m", "fives", *args], capture_output=True, text=True, env=_env(),
                       cwd=ROOT, timeout=300)
    assert r.returncode == 1, r.stderr
    reference, mutant = json.loads(report.read_text())["engines"]
    assert "failures_by_cause" not in reference  # nothing failed: the report stays as it was
    groups = {g["group"]: g["cases"] for g in mutant["failures_by_cause"]}
    failing = sum(1 for c in mutant["cases"] if c["status"] in ("failed", "errored"))
    assert failing > 0 and groups == {"cause planted (horse-race)": failing}
    assert "failures by cause (each failing case counted once):" in r.stdout
