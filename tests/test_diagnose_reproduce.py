"""Findings that reproduce (issue 39 item 8, issue 40 item 3; fives/conformance/fuzz/recheck.py,
fives/conformance/diagnose/reproduce.py): every fuzz finding and every diagnose example is asked
again, of the engine and of one started afresh, before it is written; an engine that answers the
same request two ways is reported as inconsistent, never as a finding, a cause or a bug; and
`--expect-seeds` (issue 39 item 6) makes every cause a departure."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fives.conformance.cases.fixtures import Case
from fives.conformance.engines.drivers import Outcome, ReferenceEngine
from fives.conformance.engines.handle import EngineSpec
from fives.conformance.fuzz.recheck import AGAIN, FRESH, changed, lines, same_reply
from fives.conformance.sessions.diagnose import Budget, DiagnoseOptions, diagnose
from fives.conformance.sessions.fuzz import FuzzOptions, fuzz, write_findings

ROOT = Path(__file__).resolve().parents[1]
NOISY = ROOT / "tests" / "hostile_engines" / "noisy.py"
HR = "horse-race"
ONE = {"placements": [{"tile": "[5|6]"}]}


class Scripted:
    """Answers evaluate as the reference does, with `plus` added to `display` on the calls listed."""

    def __init__(self, wrong_on: set[int]) -> None:
        self.ref, self.calls, self.wrong_on = ReferenceEngine(), 0, wrong_on

    def run(self, case: Case) -> Outcome:
        self.calls += 1
        answer = self.ref.answer(case.kind, case.game, case.input)
        if self.calls in self.wrong_on:
            answer = {**answer, "display": answer["display"] + 5}
        return Outcome("ok", answer)


def _first() -> Any:
    return ReferenceEngine().answer("evaluate", HR, ONE)


def test_a_request_answered_the_same_every_time_is_no_inconsistency() -> None:
    engine = Scripted(set())
    assert changed(engine, HR, "evaluate", ONE, None, _first(), "finding X") == (None, 2)  # type: ignore[arg-type]
    assert engine.calls == 2


def test_a_reply_that_changes_is_reported_with_the_request_and_both_replies() -> None:
    engine = Scripted({2})  # right once, then wrong
    found, asked = changed(engine, HR, "evaluate", ONE, None, _first(), "finding X")  # type: ignore[arg-type]
    assert asked == 2 and found is not None and found.how == AGAIN and found.input == ONE
    assert found.first["display"] + 5 == found.second["display"]
    text = lines([found])
    assert text[0].startswith(f"inconsistent: the engine answered one {HR} evaluate request two ways (asked again)")
    assert text[1] == '  request: {"placements":[{"tile":"[5|6]"}]}'
    assert text[2].startswith("  first reply: {") and text[3].startswith("  then: {") and text[2][15:] != text[3][8:]


def test_replies_are_compared_by_the_kind_not_by_their_bytes() -> None:
    a = _first()
    assert same_reply("evaluate", a, dict(reversed(list(a.items()))))
    assert not same_reply("evaluate", a, {**a, "display": a["display"] + 1})


def _noisy(*args: str) -> EngineSpec:
    return EngineSpec(f"{sys.executable} {NOISY} " + " ".join(args))


@pytest.mark.slow  # an engine through the protocol, 150 requests and their shrinks
def test_fuzz_against_an_engine_wrong_at_random_reports_it_inconsistent_and_writes_nothing(tmp_path: Path) -> None:
    options = FuzzOptions(_noisy("--seed", "1"), cases=150, seed=0)
    report = fuzz(options)
    assert report.findings == [] and len(report.inconsistent) >= 3
    for i in report.inconsistent:
        assert not same_reply(i.kind, i.first, i.second) and i.about.startswith("finding FUZZ-")
    assert write_findings(report, tmp_path / "out", options) == {}


@pytest.mark.slow
def test_fuzz_against_an_engine_that_turns_wrong_after_n_requests_finds_it_on_a_fresh_start(tmp_path: Path) -> None:
    # asked again of the same engine it answers the same (it is wrong for good by then): only a
    # fresh start, as a re-run is, shows that the findings do not reproduce
    report = fuzz(FuzzOptions(_noisy("--after", "120"), cases=150, seed=0))
    assert report.findings == [] and report.inconsistent
    assert {i.how for i in report.inconsistent} == {FRESH}


@pytest.mark.slow
def test_the_cli_exits_1_with_the_request_and_both_replies(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "fives", "conformance", "fuzz", "--engine",
                        f"{sys.executable} {NOISY} --seed 2 --rate 0.2", "--game", HR, "--kind", "match-end",
                        "--cases", "60", "--out", str(tmp_path / "out")],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stderr
    out = r.stdout.splitlines()
    starts = [i for i, line in enumerate(out) if line.startswith("inconsistent: ")]
    assert starts and all(out[i + 1].startswith("  request: {") and out[i + 2].startswith("  first reply: ")
                          and out[i + 3].startswith("  then: ") for i in starts)
    assert out[-1].endswith(f"; {len(starts)} request{'s' if len(starts) > 1 else ''} answered inconsistently "
                            "(not written)")
    assert list((tmp_path / "out").iterdir()) == []


@pytest.mark.slow
def test_every_finding_against_a_deterministic_engine_fails_it_on_every_rerun(tmp_path: Path) -> None:
    engine = f"{sys.executable} -m fives serve --mutant blocked-draw-keeps-turn"
    options = FuzzOptions(EngineSpec(engine), (HR,), ("turn",), cases=60, seed=1)
    report = fuzz(options)
    assert report.findings and report.inconsistent == []
    write_findings(report, tmp_path / "out", options)
    for _ in range(3):
        r = subprocess.run([sys.executable, "-m", "fives", "conformance", "run", "--engine", engine, "--fixtures",
                            str(tmp_path / "out")], cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert r.returncode == 1 and f"0 passed, {len(report.findings)} failed" in r.stdout, r.stdout


@pytest.mark.slow  # the suite of one game's evaluate cases and a short fuzz, through the protocol
def test_diagnose_names_no_cause_from_an_engine_wrong_at_random_and_reports_it_inconsistent(tmp_path: Path) -> None:
    out = diagnose(DiagnoseOptions(_noisy("--seed", "3"), games=(HR,), kinds=("evaluate",), fuzz_draws=60,
                                   budget=Budget(40.0)))
    d = out.diagnosis
    assert d.inconsistent and not out.conforms and d.causes == [] and d.combined == {}
    assert out.phases[-1] == "recheck" and d.requests["recheck"] > 0
    assert any(line.startswith("inconsistent: ") for line in out.lines())
    doc = out.to_json()
    assert doc["inconsistent"] and {"game", "kind", "input", "first", "second", "how", "about"} <= set(
        doc["inconsistent"][0])
    out.write(tmp_path / "dx")
    # what is written reproduces: every fixture left fails the engine as it failed before
    wrote = sorted(p.stem for p in (tmp_path / "dx" / "fixtures").iterdir())
    assert wrote is not None and not [w for w in wrote for i in d.inconsistent if w in i.about]


@pytest.mark.slow
def test_expect_seeds_makes_a_rule_cause_a_departure_and_exit_1(tmp_path: Path) -> None:
    engine = f"{sys.executable} -m fives serve --mutant drawn-tile-continues"
    narrow = {"games": (HR,), "kinds": ("turn",), "fuzz_draws": 40, "budget": Budget(60.0)}
    plain = diagnose(DiagnoseOptions(EngineSpec(engine), **narrow))  # type: ignore[arg-type]
    strict = diagnose(DiagnoseOptions(EngineSpec(engine), expect_seeds=True, **narrow))  # type: ignore[arg-type]
    assert plain.conforms and not strict.conforms
    names = [c.candidate.name for c in strict.diagnosis.causes]
    assert names == [c.candidate.name for c in plain.diagnosis.causes] == ["continuation.drawn_tile_ends_turn = false"]
    said = "  a departure: the engine means to play the seeds' rules (--expect-seeds), so this is its bug"
    lines_ = strict.lines()
    at = next(i for i, line in enumerate(lines_) if line.startswith("cause: "))
    assert lines_[at + 1] == said and said not in plain.lines()
    assert strict.to_json()["expect_seeds"] is True and plain.to_json()["expect_seeds"] is False
