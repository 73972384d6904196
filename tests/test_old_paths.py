"""The package was never released, so the paths modules and names had before they moved keep no
shim (issue 36): no import finder answers an old module path, no module `__getattr__` serves a
name from its new home. The paths docs/api.md names are what a user has, and they import."""
from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

import fives.conformance
import fives.conformance.diagnose
import fives.conformance.mutants
import fives.conformance.reports
import fives.profiles
import fives.tally

ROOT = Path(__file__).resolve().parents[1]
#: every module that was loose in fives/conformance/ before the folders, by its old name
OLD_CONFORMANCE = ("fixtures", "fixture_cache", "prebuilt", "selection", "suite", "schema_check", "seed_examples",
                   "clauses", "coverage", "expected_under", "reachable", "kinds", "child", "deadline", "protocol",
                   "drivers", "process", "serve", "html_report", "html_patterns", "report_diff", "failures",
                   "explain", "last_failed", "causes", "layout_mutants", "play_mutants", "diagnose_search",
                   "diagnose_probe", "variant_compare")


@pytest.mark.parametrize("old", OLD_CONFORMANCE)
def test_an_old_conformance_path_does_not_import(old: str) -> None:
    with pytest.raises(ModuleNotFoundError, match=rf"No module named 'fives\.conformance\.{old}'"):
        importlib.import_module(f"fives.conformance.{old}")


def test_no_finder_of_the_package_sits_on_the_import_path() -> None:
    ours = [f for f in sys.meta_path if type(f).__module__.startswith("fives")]
    assert ours == []


@pytest.mark.parametrize(("module", "name"), [
    (fives.tally, "tally_text"), (fives.tally, "sniff_text"), (fives.profiles, "random_profile"),
    (fives.profiles, "DIMENSIONS"), (fives.profiles, "alternative_overrides"),
    (fives.conformance.reports, "human"), (fives.conformance.mutants, "all_mutants"),
    (fives.conformance.diagnose, "diagnose"), (fives.conformance, "names_of"), (fives.conformance, "MOVED")])
def test_a_moved_name_is_no_attribute_of_its_old_module(module: object, name: str) -> None:
    assert not hasattr(module, name)
    assert getattr(module, "__getattr__", None) is None


def resolves(dotted: str) -> bool:
    """Whether a dotted name is a module, or a module's attribute (chain), as a user reaches it."""
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:n]))
        except ModuleNotFoundError:
            continue
        for attr in parts[n:]:
            if not hasattr(found, attr):
                return False
            found = getattr(found, attr)
        return True
    return False


def test_every_path_docs_api_names_still_resolves() -> None:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(fives(?:\.[A-Za-z_]+)+)", text)) | set(re.findall(r"from (fives[.a-z_]*) import", text))
    assert {"fives.suite", "fives.puzzles.api", "fives.conformance.cases.fixtures.load_cases", "fives.support.paths.GAMES",
            "fives.match.IllegalAction", "fives.draw.svg"} <= named
    assert sorted(d for d in named if not resolves(d)) == []
