"""`--rules PROFILE` through the commands, the runner, the reports and the protocol (issue 18,
part B). Generated data under a profile: tests/test_rules_option_data.py."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from fives.cli import main
from fives.conformance.engines.drivers import ReferenceEngine, profile_from_message, rules_message
from fives.conformance.cases.expected_under import plan_under
from fives.conformance.cases.kinds import load_kinds
from fives.conformance.engines.process import ProcessEngine
from fives.conformance.runner import run_cases
from fives.conformance.cases.selection import CaseFilters, load_selection
from fives.profile_space import random_profile
from fives.profiles import load_profile, rules_under, shipped_profiles
from fives.support import paths

SERVE = f"{sys.executable} -m fives.cli serve"
#: A Horse Race profile that changes layouts, play and settlement at once.
HR_RULES = {"spinners.policy": "none", "target.raw": {2: 250, 3: 250, 4: 250},
            "settlement.award_rounding": "per-opponent"}


def fives(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def write_profile(folder: Path, name: str, extends: str, rules: dict) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"extends": extends, "name": name, "source": "tests", "rules": rules}),
                    encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def hr_profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_profile(tmp_path_factory.mktemp("profiles"), "hr-test", "horse-race", HR_RULES)


@pytest.fixture(scope="module")
def suite() -> list:
    """The cases `conformance run` runs by default (the slow deep perft rows left out)."""
    return load_selection(None, CaseFilters()).cases


def one_line_error(r: Result) -> str:
    assert r.exit_code == 2, (r.exit_code, r.output)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fives: error: "), r.stderr
    return lines[0]


# -- the option on every command --------------------------------------------------------------

COMMANDS = [
    ["conformance", "run"], ["conformance", "list"], ["conformance", "mutants"],
    ["conformance", "fuzz", "--engine", "x", "--out", "o"],
    ["evaluate", "--game", "horse-race", "-"], ["evaluate", "--jsonl"], ["serve"],
    ["play", "--game", "horse-race", "--players", "2", "--seed", "1"], ["replay", "r.jsonl"],
    ["perft", "--game", "horse-race", "--depth", "1"],
    ["golden", "generate", "--game", "horse-race", "--cases", "1", "--seed", "1", "--out", "o"],
    ["golden", "verify", "."],
    ["puzzles", "generate", "--game", "horse-race", "--count", "1", "--seed", "1", "--out", "o.yaml"],
    ["puzzles", "verify", "p.yaml"], ["render", "--game", "horse-race", "-"], ["book", "p.yaml"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c[:2]) for c in COMMANDS])
def test_every_command_refuses_an_unknown_profile_or_a_bad_file(command: list[str], tmp_path: Path) -> None:
    line = one_line_error(fives(*command, "--rules", "no-such-profile"))
    assert "unknown rules profile 'no-such-profile'" in line
    bad = write_profile(tmp_path, "bad", "horse-race", {"no.such.parameter": 1})
    line = one_line_error(fives(*command, "--rules", str(bad)))
    assert "no.such.parameter" in line and "bad.yaml" in line


def test_unchanged_only_needs_rules() -> None:
    assert "--unchanged-only needs --rules" in one_line_error(fives("conformance", "run", "--unchanged-only"))


# -- expectations under a profile ------------------------------------------------------------

@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_the_plan_recomputes_exactly_the_cases_the_profile_changes(suite: list, hr_profile: Path) -> None:
    profile = load_profile(str(hr_profile))
    kinds = load_kinds()
    cases, plan = plan_under(profile, suite)
    assert [c.id for c in cases] == [c.id for c in suite]
    assert plan.changed and plan.illegal  # no spinners: branch placements are illegal, layouts count anew
    rules = rules_under(profile, "horse-race")
    for before, after in zip(suite, cases):
        if before.game != "horse-race" or before.profile is not None:
            assert after is before and after.id not in plan.changed
            continue
        if after.id in plan.illegal:
            with pytest.raises(Exception):
                kinds[after.kind].run(rules, after.input, {})
            continue
        answer = kinds[after.kind].run(rules, after.input, {})
        assert kinds[after.kind].compare(after.expect, answer) == []  # the reference under P passes
        if after.id in plan.changed:
            assert kinds[after.kind].compare(before.expect, answer) != []  # the seeds' expectation does not
            assert after.input == before.input
        else:
            assert after.expect == before.expect


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_seeds_engine_fails_exactly_the_changed_cases_and_skips_the_illegal(suite: list, hr_profile: Path) -> None:
    profile = load_profile(str(hr_profile))
    hr = [c for c in suite if c.game == "horse-race" and c.profile is None]
    cases, plan = plan_under(profile, hr)
    results = run_cases(ReferenceEngine(), cases, plan=plan)  # plays the seeds' rules
    by = {r.case.id: r for r in results}
    assert {i for i, r in by.items() if r.status == "failed"} == set(plan.changed) - set(plan.illegal)
    assert {i for i, r in by.items() if r.status == "skipped"} == set(plan.illegal)
    assert all(by[i].expected_under == "hr-test" for i in plan.changed)
    assert all(by[i].outcome.message.startswith("input illegal under hr-test: ") for i in plan.illegal)
    # the same engine under the profile passes everything it runs
    results = run_cases(ReferenceEngine(profile=profile), cases, plan=plan)
    assert {r.status for r in results} == {"passed", "skipped"}


def test_unchanged_only_skips_every_changed_case(suite: list, hr_profile: Path) -> None:
    profile = load_profile(str(hr_profile))
    cases, plan = plan_under(profile, [c for c in suite if c.game == "horse-race" and c.profile is None][:400],
                             unchanged_only=True)
    results = run_cases(ReferenceEngine(), cases, plan=plan)
    assert {r.case.id for r in results if r.status == "skipped"} == set(plan.changed) | set(plan.illegal)
    assert {r.status for r in results} == {"passed", "skipped"}


# -- reports ---------------------------------------------------------------------------------

@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_every_report_names_the_profile_and_its_digest(hr_profile: Path, tmp_path: Path) -> None:
    profile = load_profile(str(hr_profile))
    out = {f: tmp_path / f"r.{f}" for f in ("json", "junit", "markdown", "html")}
    r = fives("conformance", "run", "--rules", str(hr_profile), "--game", "horse-race", "--kind", "evaluate",
              "--kind", "perft", *(a for f, p in out.items() for a in ("--report", f"{f}:{p}")))
    assert r.exit_code == 0, r.output
    assert f"rules: hr-test (digest {profile.digest}), extends horse-race; source: tests; " in r.stdout
    doc = json.loads(out["json"].read_text())
    assert doc["rules"]["name"] == "hr-test" and doc["rules"]["digest"] == profile.digest
    assert doc["rules"]["expected_under"] == sum(1 for c in doc["cases"] if c.get("expected_under") == "hr-test") > 0
    # skipped: the inputs P makes illegal, and the cases that play their own rules (not P)
    illegal = [c for c in doc["cases"] if c["status"] == "skipped" and "its own rules" not in c.get("message", "")]
    assert doc["rules"]["illegal"] == len(illegal) > 0
    junit = out["junit"].read_text()
    assert f'<property name="fives.rules.digest" value="{profile.digest}"/>' in junit
    assert f"under hr-test ({profile.digest})" in junit
    assert f"Rules: **hr-test** (digest `{profile.digest}`" in out["markdown"].read_text()
    assert f'<p id="rules" data-rules="hr-test" data-digest="{profile.digest}">' in out["html"].read_text()


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_failure_under_a_profile_says_expected_under(hr_profile: Path, tmp_path: Path) -> None:
    """An engine that does not declare `rules` (here the seeds' reference, a black box) is
    held to the profile's expectations: the cases the profile changes fail, marked."""
    other = write_profile(tmp_path, "sniff-only", "american-sniff", {"target.raw": {2: 250, 3: 250, 4: 250}})
    report = tmp_path / "r.json"
    r = fives("conformance", "run", "--rules", str(hr_profile), "--engine", f"{SERVE} --rules {other}",
              "--game", "horse-race", "--kind", "evaluate", "--report", f"json:{report}", "--report", f"markdown:{tmp_path / 'r.md'}")
    assert r.exit_code == 1
    doc = json.loads(report.read_text())
    failed = [c for c in doc["cases"] if c["status"] == "failed"]
    assert failed and all(c["expected_under"] == "hr-test" for c in failed)
    assert "(expected under hr-test)" in r.stdout
    assert "failed (expected under hr-test)" in (tmp_path / "r.md").read_text()


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_default_reports_carry_no_rules(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    r = fives("conformance", "run", "--game", "horse-race", "--kind", "settle", "--report", f"json:{report}")
    assert r.exit_code == 0
    doc = json.loads(report.read_text())
    assert "rules" not in doc and not any("expected_under" in c for c in doc["cases"])
    assert "rules:" not in r.stdout


# -- the protocol ----------------------------------------------------------------------------

def _serve(args: list[str], messages: list[dict]) -> list[dict]:
    proc = subprocess.run([sys.executable, "-m", "fives.cli", "serve", *args], input="".join(
        json.dumps(m) + "\n" for m in messages), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


LAYOUT = [{"tile": "[1|4]"}, {"tile": "[1|1]", "to": "[1|4]", "side": "low"}]


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_serve_declares_rules_and_plays_the_profile_a_request_names(hr_profile: Path) -> None:
    profile = load_profile(str(hr_profile))
    told = rules_message(profile)
    hello = {"id": "hello", "type": "hello", "protocol": 1}
    ask = {"id": "a", "type": "evaluate", "game": "horse-race", "input": {"placements": LAYOUT}}
    replies = _serve([], [hello, ask, {**ask, "id": "b", "rules": told},
                          {**ask, "id": "c", "rules": {**told, "digest": "0" * 16}},
                          {**ask, "id": "d", "rules": {**told, "overrides": {"no.such": 1}}}])
    assert "rules" in replies[0]["capabilities"]
    assert replies[1]["result"]["spinners"] == ["[1|1]"]  # the seeds: [1|1] spins
    assert replies[2]["result"]["spinners"] == []  # told: no spinners
    assert "does not match its overrides" in replies[3]["error"]
    assert "no.such" in replies[4]["error"]
    # --rules P: plays P whatever a request says, and does not declare `rules`
    replies = _serve(["--rules", str(hr_profile)], [hello, ask, {**ask, "id": "b", "rules": None}])
    assert "rules" not in replies[0]["capabilities"]
    assert replies[1]["result"]["spinners"] == replies[2]["result"]["spinners"] == []


def test_the_rules_object_round_trips(hr_profile: Path) -> None:
    profile = load_profile(str(hr_profile))
    message = json.loads(json.dumps(rules_message(profile)))  # through JSON: by-player keys become strings
    back = profile_from_message(message)
    assert back.digest == profile.digest and back.extends == "horse-race"
    assert rules_under(back, "horse-race") == rules_under(profile, "horse-race")


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_an_engine_that_declares_rules_is_told_the_profile_and_messages_validate(hr_profile: Path) -> None:
    r = fives("conformance", "run", "--rules", str(hr_profile), "--engine", SERVE, "--validate", "--game", "horse-race",
              "--kind", "evaluate", "--kind", "settle")
    assert r.exit_code == 0, r.output
    last = r.stdout.strip().splitlines()[-1]
    assert " 0 failed, 0 errored, " in last and not last.startswith("0 passed"), last


# -- the Done-when test: every profile through the protocol passes 100% ----------------------

@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("name", shipped_profiles())
def test_every_shipped_profile_passes_through_the_protocol(name: str) -> None:
    """The whole default suite, `fives conformance run --rules P --engine "fives serve --rules P"`."""
    r = fives("conformance", "run", "--rules", name, "--engine", f"{SERVE} --rules {name}", "--jobs", "2")
    assert r.exit_code == 0, r.output[-2000:]
    last = r.stdout.strip().splitlines()[-1]
    assert " 0 failed, 0 errored, " in last, last


RANDOM_SEED = 1818
UNCHANGED_SAMPLE = 150


def _random_profiles() -> list:
    rng = random.Random(RANDOM_SEED)
    out = []
    for i in range(20):
        game = ("horse-race", "american-sniff")[i % 2]
        out.append(random_profile(rng, game, rng.randint(1, 4)))
    return out


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("profile", _random_profiles(), ids=lambda p: f"{p.extends}-{len(p.overrides)}-{p.digest}")
def test_random_profiles_pass_through_the_protocol(profile, suite: list, tmp_path: Path) -> None:
    """20 seeded random profiles of 1-4 parameters against `fives serve --rules P` through the
    protocol. Cost kept bounded: every case the profile changes or makes illegal, plus a seeded
    sample of 150 of the cases it leaves unchanged (those are the default run's, already covered)."""
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump({"extends": profile.extends, "name": "random", "source": "tests",
                                    "rules": dict(profile.overrides)}), encoding="utf-8")
    cases, plan = plan_under(load_profile(str(path)), suite)
    unchanged = [c for c in cases if c.id not in plan.changed and c.id not in plan.illegal]
    keep = set(plan.changed) | set(plan.illegal) | {c.id for c in random.Random(profile.digest).sample(
        unchanged, min(UNCHANGED_SAMPLE, len(unchanged)))}
    chosen = [c for c in cases if c.id in keep]
    engine = ProcessEngine(f"{SERVE} --rules {path}", timeout=60)
    engine.start()
    try:
        results = run_cases(engine, chosen, plan=plan, jobs=2)
    finally:
        engine.close()
    bad = [(r.case.id, r.status, r.diffs[:1], r.outcome.message if r.outcome else "") for r in results
           if r.status in ("failed", "errored")]
    assert not bad, bad[:5]
    skipped = {r.case.id for r in results if r.status == "skipped"}
    own_rules = {c.id for c in chosen if c.profile is not None}  # variant fixtures under another profile
    assert skipped - own_rules == set(plan.illegal)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_js_engine_runs_only_the_unchanged_cases(tmp_path: Path) -> None:
    """The JS example engine plays the seeds' rules and does not declare `rules`: under a
    profile it is run with --unchanged-only, and passes every evaluate case it runs."""
    import shutil
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    engine = f"node {paths.ROOT / 'conformance' / 'examples' / 'js-engine' / 'engine.js'}"
    profile = write_profile(tmp_path, "sniff-in-line", "american-sniff", {"spinners.policy": "none"})
    report = tmp_path / "r.json"
    r = fives("conformance", "run", "--rules", str(profile), "--unchanged-only", "--engine", engine,
              "--kind", "evaluate", "--report", f"json:{report}")
    assert r.exit_code == 0, r.output[-2000:]
    doc = json.loads(report.read_text())
    assert doc["rules"]["unchanged_only"] is True and doc["rules"]["expected_under"] > 0
    statuses = {c["status"] for c in doc["cases"]}
    assert statuses <= {"passed", "skipped"} and "passed" in statuses
    assert sum(c["status"] == "skipped" and "(--unchanged-only)" in c["message"] for c in doc["cases"]) \
        == doc["rules"]["expected_under"]
