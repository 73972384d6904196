"""The pytest plugin (fives/conformance/pytest_plugin.py): `pytest --fives-engine CMD` runs every
conformance case as a test item named by its case ID, a failing case shows its explanation,
and without the option the plugin collects nothing and imports no conformance code."""
from __future__ import annotations

import importlib.metadata
import os
import sys
import tomllib
from pathlib import Path

import pytest

import fives.suite

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = "fives.conformance.pytest_plugin"
SERVE = f"{sys.executable} -m fives serve"  # `fives serve`, whatever PATH the tests run with


#: this run's fixture cache and its key, found before pytester points HOME at a fresh folder
_HOME = os.path.expanduser("~")
CACHE_ENV = {
    "FIVES_CACHE_DIR": os.environ.get("FIVES_CACHE_DIR")
    or os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(_HOME, ".cache"), "fives"),
    "FIVES_CACHE_KEY": os.environ.get("FIVES_CACHE_KEY")
    or os.path.join(os.environ.get("XDG_CONFIG_HOME") or os.path.join(_HOME, ".config"), "fives", "cache.key"),
}


@pytest.fixture(autouse=True)
def _warm_suite_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    # without it every inner run would parse and validate the whole suite cold
    for name, value in CACHE_ENV.items():
        monkeypatch.setenv(name, value)


def plugin_args() -> list[str]:
    """`-p` for the plugin when this checkout is not installed with its entry point (both would
    register the same module twice)."""
    installed = any(ep.value == PLUGIN for ep in importlib.metadata.entry_points(group="pytest11"))
    return ["-p", "no:cacheprovider"] + ([] if installed else ["-p", PLUGIN])


def test_the_entry_point_is_declared() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["entry-points"]["pytest11"] == {"fives": PLUGIN}


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_subset_runs_one_item_per_case(pytester: pytest.Pytester) -> None:
    wanted = [c.id for c in fives.suite.load_suite(ids=["HR-FIG-*"])]
    assert len(wanted) >= 5
    r = pytester.runpytest(*plugin_args(), "-v", "--fives-engine", SERVE, "--fives-id", "HR-FIG-*")
    r.assert_outcomes(passed=len(wanted))
    r.stdout.fnmatch_lines([f"fives-conformance::{wanted[0]} PASSED*", f"fives-conformance::{wanted[-1]} PASSED*"])
    r.stdout.fnmatch_lines([f"fives conformance: engine '{SERVE}'", f"*collected {len(wanted)} items"])


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_the_whole_suite_passes_against_fives_serve(pytester: pytest.Pytester) -> None:
    expected = len(fives.suite.load_suite())  # slow cases left out, as `fives conformance run` does
    r = pytester.runpytest(*plugin_args(), "-q", "--fives-engine", SERVE)
    r.assert_outcomes(passed=expected)
    assert r.ret == 0 and expected > 3000


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_mutant_fails_with_its_explanation(pytester: pytest.Pytester) -> None:
    r = pytester.runpytest(*plugin_args(), "-ra", "--fives-engine", f"{SERVE} --mutant drawn-tile-continues",
                           "--fives-id", "HR-TURN-0*")
    r.assert_outcomes(passed=7, failed=2)
    assert r.ret == 1
    r.stdout.fnmatch_lines([
        "*_ fives case HR-TURN-06 _*",
        "HR-TURN-06 failed (turn, horse-race, conformance/fixtures/play/horse-race-turn.yaml)",
        "  HR-CONT-5: A drawn tile always ends the turn",
        "    001_*",  # the seed passage the clause cites
        "*",
        "  results[1].continues: expected false, got true",
        "  results[1].turn_end: expected true, got false",
        "  next_seat: expected 1, got 0",
    ])
    r.stdout.fnmatch_lines(["FAILED fives-conformance::HR-TURN-06 - HR-TURN-06 failed*",
                            "FAILED fives-conformance::HR-TURN-07 - HR-TURN-07 failed*"])
    assert "Traceback" not in r.stdout.str()


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_an_engine_that_cannot_start_errors_each_case_once_tried(pytester: pytest.Pytester) -> None:
    r = pytester.runpytest(*plugin_args(), "--fives-engine", str(pytester.path / "no-such-engine"),
                           "--fives-id", "HR-FIG-1-*")
    outcomes = r.parseoutcomes()
    assert outcomes.get("failed", 0) >= 1 and "passed" not in outcomes
    r.stdout.fnmatch_lines(["*could not be started*No such file or di*"])  # long paths are cut at "…"


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_collect_only_starts_no_engine(pytester: pytest.Pytester) -> None:
    r = pytester.runpytest(*plugin_args(), "--collect-only", "-q", "--fives-engine", "no-such-engine",
                           "--fives-id", "HR-TURN-0*")
    assert r.ret == 0
    r.stdout.fnmatch_lines(["fives-conformance::HR-TURN-01", "9 tests collected*"])


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_game_and_kind_filters(pytester: pytest.Pytester) -> None:
    wanted = fives.suite.load_suite(games=["american-sniff"], kinds=["settle"])
    r = pytester.runpytest(*plugin_args(), "-q", "--fives-engine", SERVE, "--fives-game", "american-sniff",
                           "--fives-kind", "settle", "--fives-validate")  # every message schema-checked too
    r.assert_outcomes(passed=len(wanted))
    assert wanted


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_a_bad_filter_is_one_line_and_a_usage_error(pytester: pytest.Pytester) -> None:
    r = pytester.runpytest(*plugin_args(), "--fives-engine", SERVE, "--fives-game", "chess")
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    r.stderr.fnmatch_lines(["ERROR: fives: error: --fives-game chess: unknown game*"])
    r = pytester.runpytest(*plugin_args(), "--fives-engine", SERVE, "--fives-id", "NO-SUCH-*")
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    r.stderr.fnmatch_lines(["ERROR: fives: error: --fives-id NO-SUCH-*"])


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_without_the_option_it_collects_and_imports_nothing(pytester: pytest.Pytester) -> None:
    # in a subprocess: this test run has loaded the conformance modules already
    pytester.makepyfile(test_own="""
        import sys

        def test_own():
            loaded = sorted(m for m in sys.modules if m.startswith("fives.conformance."))
            assert loaded == ["fives.conformance.pytest_plugin"], loaded
    """)
    r = pytester.runpytest_subprocess(*plugin_args(), "-q")
    r.assert_outcomes(passed=1)
    assert "fives-conformance" not in r.stdout.str()


def test_the_options_are_in_help(pytester: pytest.Pytester) -> None:
    r = pytester.runpytest(*plugin_args(), "--help")
    r.stdout.fnmatch_lines(["*fives conformance suite*", "*--fives-engine=CMD*", "*--fives-id=GLOB*"])
