"""`fives conformance diagnose` (fives/conformance/diagnose/diagnosis.py, spec/diagnose.md): planted
rule variants and mutants are named, nothing else; the rest is clustered."""
from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time

import pytest
import yaml

from fives.conformance.diagnose import diagnosis as dx
from fives.conformance.engines.drivers import ReferenceEngine
from fives.conformance.cases.fixtures import load_cases
from fives.conformance.mutants.registry import all_mutants
from fives.conformance.runner import run_cases
from fives.conformance.cases.reachable import problems
from fives.profile_space import random_profile
from fives.profiles import make_profile
from fives.rules import load_rules
from fives.support.paths import ROOT

MUTANTS = {m.name: m for m in all_mutants()}


def suite(game: str) -> list:
    return [c for c in load_cases() if c.game == game and c.profile is None and "slow" not in c.tags]


def diagnosis(engine: ReferenceEngine, game: str) -> dx.Diagnosis:
    return dx.diagnose(run_cases(engine, suite(game)), [game])


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
@pytest.mark.parametrize("seed", [4, 7])
def test_a_random_profile_is_named_exactly(seed):
    prof = random_profile(random.Random(seed), "horse-race", 2)
    d = diagnosis(ReferenceEngine(profile=prof), "horse-race")
    found = {k: v for c in d.causes for k, v in c.candidate.overrides.items()}
    assert found == dict(prof.overrides), [c.candidate.name for c in d.causes]
    assert all(c.candidate.mutant is None for c in d.causes)
    assert d.combined == {"horse-race": dict(prof.overrides)} and d.combined_broken == 0


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_mutant_that_is_a_variant_and_one_that_is_not():
    d = diagnosis(ReferenceEngine(MUTANTS["drawn-tile-continues"].hooks()), "horse-race")
    assert [c.candidate.name for c in d.causes] == ["continuation.drawn_tile_ends_turn = false"]
    assert d.unexplained == [] and d.explained == d.failing > 0
    assert d.causes[0].candidate.clauses == ("HR-CONT-5",)
    text = "\n".join(dx.lines(d))
    assert "departs from HR-CONT-5 (A drawn tile always ends the turn)" in text and "«" in text


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_the_reference_has_nothing_to_explain():
    d = diagnosis(ReferenceEngine(), "american-sniff")
    assert d.causes == [] and d.unexplained == [] and d.failing == 0


def _profile_file(tmp_path, game: str, rules: dict, name: str = "p"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"extends": game, "name": name, "source": "test", "rules": rules}))
    return path


def _diagnose_cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fives.cli", "conformance", "diagnose", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def _without_timing(doc: dict) -> dict:
    doc = {k: v for k, v in doc.items() if k != "seconds"}
    doc["fuzz"] = {k: v for k, v in (doc["fuzz"] or {}).items() if k != "seconds"}
    return doc


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_cli_through_the_protocol(tmp_path):
    path = _profile_file(tmp_path, "horse-race", {"continuation.drawn_tile_ends_turn": False})
    out = tmp_path / "dx"
    serve = f"{sys.executable} -m fives.cli serve --rules {path}"
    p = _diagnose_cli("--engine", serve, "--game", "horse-race", "--out", str(out))
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.startswith("cause: continuation.drawn_tile_ends_turn = false (horse-race): explains ")
    assert yaml.safe_load((out / "profile.yaml").read_text())["rules"] == {"continuation.drawn_tile_ends_turn": False}
    assert (out / "profile-horse-race.yaml").read_text() == (out / "profile.yaml").read_text()
    doc = json.loads((out / "diagnosis.json").read_text())
    assert doc["format"] == "fives-diagnosis/1" and doc["unexplained"] == [] and doc["base"] is None
    assert doc["requests"]["suite"] == len(suite("horse-race")) and doc["requests"]["fuzz"] >= 300
    (example,) = (out / "fixtures").glob("*.yaml")
    (case,) = load_cases([example])
    assert case.id == doc["causes"][0]["example"] and case.id.startswith("DX-HR-")  # shrunk, not the suite's
    assert not problems(load_rules("horse-race"), case.kind, case.input)  # a state play reaches
    # the example fails against the engine under the seeds' rules, passes under the inferred profile
    run = [sys.executable, "-m", "fives.cli", "conformance", "run", "--engine", serve, "--fixtures", str(out / "fixtures")]
    assert subprocess.run(run, cwd=ROOT, capture_output=True).returncode == 1
    assert subprocess.run(run + ["--rules", str(out / "profile.yaml")], cwd=ROOT, capture_output=True).returncode == 0
    # the same seed, the same diagnosis
    again = _diagnose_cli("--engine", serve, "--game", "horse-race", "--json")
    assert _without_timing(json.loads(again.stdout)) == _without_timing(doc)


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_against_a_base_profile_only_the_departures_from_it_are_named(tmp_path):
    # the engine plays racehorse-rice's rules, but flips whether a drawn tile ends the turn:
    # against --rules racehorse-rice that is the one cause
    from fives.profiles import load_profile
    base = load_profile("racehorse-rice")
    rules = {**base.overrides, "continuation.drawn_tile_ends_turn": not base.overrides.get(
        "continuation.drawn_tile_ends_turn", True)}
    path = _profile_file(tmp_path, "horse-race", rules)
    out = tmp_path / "dx"
    p = _diagnose_cli("--engine", f"{sys.executable} -m fives.cli serve --rules {path}", "--rules", "racehorse-rice",
                      "--game", "horse-race", "--json", "--no-mutants", "--out", str(out))
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["base"]["name"] == "racehorse-rice" and d["failing"] > 0 and d["unexplained"] == []
    assert [c["overrides"] for c in d["causes"]] == [{"continuation.drawn_tile_ends_turn": rules[
        "continuation.drawn_tile_ends_turn"]}]
    inferred = yaml.safe_load((out / "profile.yaml").read_text())
    assert make_profile("horse-race", inferred["rules"]).digest == make_profile("horse-race", rules).digest
    for f in (out / "fixtures").glob("*.yaml"):  # the examples expect the base's answers, and say so
        (case,) = load_cases([f])
        assert case.profile is not None and case.profile.digest == base.digest


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_filters_choose_the_suite_cases(tmp_path):
    path = _profile_file(tmp_path, "horse-race", {"continuation.drawn_tile_ends_turn": False})
    p = _diagnose_cli("--engine", f"{sys.executable} -m fives.cli serve --rules {path}", "--game", "horse-race",
                      "--kind", "settle", "--fuzz", "0", "--json")
    d = json.loads(p.stdout)
    assert p.returncode == 0 and d["failing"] == 0 and d["fuzz"] is None  # settlements do not show it
    assert d["requests"]["suite"] == sum(1 for c in suite("horse-race") if c.kind == "settle")
    p = _diagnose_cli("--engine", f"{sys.executable} -m fives.cli serve", "--id", "NO-SUCH-*")
    assert p.returncode == 2 and p.stderr == "fives: error: --id NO-SUCH-*: matches no case of the suite\n"


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_ctrl_c_stops_with_what_was_found(tmp_path):
    # the engine hangs on its 400th request: Ctrl-C there ends the suite, and the diagnosis of
    # the 399 cases answered is printed and written before exit 130
    # leak.py writes a pid when it reaches its 400th request and hangs there: the event the
    # interrupt waits for (a fixed sleep guessed when that would be)
    pids = tmp_path / "pids"
    hang = (f"{sys.executable} {ROOT / 'tests' / 'hostile_engines' / 'leak.py'} --then hang --at 400 "
            f"--pids {pids}")
    out = tmp_path / "dx"
    p = subprocess.Popen([sys.executable, "-m", "fives.cli", "conformance", "diagnose", "--engine", hang,
                          "--game", "horse-race", "--timeout", "120", "--out", str(out)], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while not (pids.exists() and pids.read_text().strip()):
        assert p.poll() is None and time.monotonic() < deadline, "the engine never reached its 400th request"
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=90)  # under the engine's 120 s timeout: Ctrl-C, not the timeout, ended it
    assert p.returncode == 130, stderr
    assert stdout.splitlines()[-1].startswith("0 failing, 0 explained by 0 cause(s)")
    assert "interrupted: the diagnosis above is what was found so far" in stderr
    doc = json.loads((out / "diagnosis.json").read_text())
    assert doc["requests"]["suite"] == 399 and doc["fuzz"] is None


def test_ctrl_c_in_the_search_keeps_the_causes_taken():
    from fives.conformance.diagnose.search import Candidate, select

    class Scorer:  # explains one failure per candidate taken, then Ctrl-C on the third set
        game, failing = "horse-race", ["a", "b"]
        calls = 0
        ties: dict = {}  # noqa: RUF012 - what the search records of a tie, and the probes' ranking
        probed: dict = {}  # noqa: RUF012

        def explained(self, chosen, skip=frozenset()):
            self.calls += 1
            if len(chosen) >= 2:
                raise KeyboardInterrupt
            return frozenset(c.name for c in chosen) - skip

        def breaks(self, chosen):
            return 0

    pool = [Candidate("x = 1", "horse-race", (), {"x": 1}, path="x"), Candidate("y = 1", "horse-race", (), {"y": 1},
                                                                               path="y")]
    chosen, why = select(Scorer(), pool, lambda s: None)
    assert why == "interrupted" and [c.name for c in chosen] == ["x = 1"]


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_three_dimensions_that_only_show_together_are_named():
    # per-five points with `hand-end` and a lot after a gone-out hand: per-five alone breaks
    # passing cases (a score of 50 displayed ends the match at once), so it is found as a pair
    rules = {"lead.after_gone_out": "lot", "match_end.on_placement": "hand-end", "points.display_divisor": 5,
             "points.unit": "displayed"}
    d = diagnosis(ReferenceEngine(profile=make_profile("american-sniff", rules)), "american-sniff")
    assert {k: v for c in d.causes for k, v in c.candidate.overrides.items()} == rules
    assert d.unexplained == [] and d.combined_broken == 0 and d.explained == d.failing


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_variant_mutant_is_named_by_its_parameter_even_outside_the_dimensions():
    m = MUTANTS["remainder-2-rounds-up"]
    d = diagnosis(ReferenceEngine(m.hooks()), "american-sniff")
    assert [(c.candidate.name, c.candidate.mutant) for c in d.causes] == [
        ("settlement.rounding.round_up_from_remainder = 2", None)]
    assert d.causes[0].candidate.clauses == ("SN-SETTLE-2",) and d.unexplained == []


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_without_mutants_a_misreading_no_variant_expresses_is_a_cluster():
    engine = ReferenceEngine(MUTANTS["scoring-double-twice"].hooks())
    d = dx.diagnose(run_cases(engine, suite("horse-race")), ["horse-race"], mutants=False)
    assert d.causes == [] and d.failing > 0
    assert sum(g.count for g in d.unexplained) == d.failing
    assert "the engine's likely bugs" in "\n".join(dx.lines(d))


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_inputs_a_cause_makes_illegal_are_explained_by_it(tmp_path):
    # an engine with no spinner refuses the perft rows built on a spinner's branches: those
    # refusals are explained by the same cause (under it the input is illegal), not left as bugs
    profile = tmp_path / "no-spinner.yaml"
    profile.write_text("extends: american-sniff\nname: no-spinner\nsource: test\nrules:\n"
                       "  spinners.policy: none\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "fives", "conformance", "diagnose", "--game", "american-sniff",
                        "--engine", f"{sys.executable} -m fives serve --rules {profile}", "--no-mutants", "--json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert [c["overrides"] for c in d["causes"]] == [{"spinners.policy": "none"}]
    assert d["unexplained"] == [] and d["explained"] == d["failing"] > 0
    assert any(i.startswith("PERFT-american-sniff-filled-spinner-D2-") for i in d["causes"][0]["ids"])


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_the_js_example_engine_has_nothing_to_explain():
    import shutil
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    p = _diagnose_cli("--engine", f"{node} {ROOT / 'conformance' / 'examples' / 'js-engine' / 'engine.js'}", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["causes"] == [] and d["unexplained"] == [] and d["failing"] == 0 and d["requests"]["suite"] > 1000


def test_an_out_folder_that_cannot_be_made_is_one_line_before_any_work(tmp_path):
    (tmp_path / "afile").write_text("")
    from click.testing import CliRunner

    from fives.cli import main
    r = CliRunner().invoke(main, ["conformance", "diagnose", "--engine", "no-such-engine-anywhere",
                                  "--out", str(tmp_path / "afile" / "dx")])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == f"fives: error: --out {tmp_path / 'afile' / 'dx'}: cannot create the folder (Not a directory)\n"
