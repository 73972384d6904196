"""The conformance suite as the only test, for mutation testing (benchmarks/mutation.py).

One test per request kind, so the tool runs for a mutant only the kinds whose answers pass
through the mutated function. Each runs the default suite's cases of its kind against the
in-process reference on the pure-Python path, with every cache of the package emptied first
(a table or memo filled by the clean run would hide a mutant). Not part of `tests/`: the
project's own tests are not what is measured here.
"""
from __future__ import annotations

import functools
import os
import sys

import pytest

os.environ["FIVES_PURE_PYTHON"] = "1"

from fives.conformance.cases.fixtures import default_roots, load_cases  # noqa: E402
from fives.conformance.engines.drivers import ReferenceEngine  # noqa: E402
from fives.conformance.runner import run_cases  # noqa: E402
from fives.support import paths  # noqa: E402

CASES = [c for c in load_cases(default_roots()) if "slow" not in c.tags]


#: module-level dict caches (each entry a pure function of its key): module -> name
DICT_CACHES = {"fives.layout_tables": "_CACHE", "fives.profiles": "_UNDER"}


def _empty_caches() -> None:
    for name, module in list(sys.modules.items()):
        if not name.startswith("fives") or module is None:
            continue
        for value in list(vars(module).values()):
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()
        if name in DICT_CACHES:
            getattr(module, DICT_CACHES[name]).clear()


#: tables a core module builds at import with a function a mutant may change: module ->
#: (table, builder). The tool switches a mutant on after the import, so the test builds the
#: table again under it, as an import with the mutant would have (in place: other modules
#: hold the same list).
IMPORT_TABLES = {"fives.moves": ("PLACEMENT_OF", "_all_placements")}


def _rebuild_import_tables() -> None:
    mutant = os.environ.get("MUTANT_UNDER_TEST", "")
    for name, (table, builder) in IMPORT_TABLES.items():
        # under "stats" too: the tool runs a mutant only when its function is called in a test
        if mutant == "stats" or mutant.startswith(f"{name}.x_{builder}__mutmut_"):
            module = sys.modules[name]
            getattr(module, table)[:] = getattr(module, builder)()


def loaded_again(cases: list) -> list:
    """`cases`, with every file whose cases carry a rule profile (or record one, as a perft
    table made under --rules does) read again here, under a fives.profiles mutant (and in the
    tool's "stats" pass): loading is where fives.profiles builds a case's profile (names, nested
    and quoted forms, digests, recorded tables), and it happens before the tool switches a mutant
    on. A file that no longer loads fails the test. Each file is read on its own, so the same ID
    in two files (benchmarks/mutation_hunt.py's pools) stays two cases."""
    mutant = os.environ.get("MUTANT_UNDER_TEST", "")
    if mutant != "stats" and not mutant.startswith("fives.profiles."):
        return cases
    fresh = {(c.file, c.id): c for f in sorted({c.file for c in cases if c.profile is not None})
             for c in load_cases([paths.ROOT / f], cache=False)}
    return [fresh.get((c.file, c.id), c) for c in cases]


@pytest.mark.parametrize("kind", sorted({c.kind for c in CASES}))
def test_the_suite_passes(kind: str) -> None:
    _empty_caches()
    _rebuild_import_tables()
    cases = loaded_again([c for c in CASES if c.kind == kind])
    results = run_cases(ReferenceEngine(), cases)
    wrong = [f"{r.case.id}: {r.status}" for r in results if r.status != "passed"]
    assert not wrong, wrong[:5]
