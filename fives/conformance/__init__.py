"""The conformance side: case data (`cases/`), talking to engines (`engines/`), running cases
(`runner`, `bisect`, `stopping`), mutants (`mutants/`), reports (`reports/`), the fuzzer
(`fuzz/`), golden suites (`golden/`), diagnosis (`diagnose/`) and the pytest plugin; the map is
docs/architecture.md, and `fives.suite` is the public face.

The modules that were loose here before the folders keep their old import paths
(`fives.conformance.fixtures`, `fives.conformance.drivers`, ...): `_MovedFinder` below answers an
old path with the module at its new one, the same module object, and a DeprecationWarning.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import Any, Callable, Sequence

#: old module (under fives.conformance) -> where it lives now; a package's old submodules follow it
MOVED: dict[str, str] = {
    "fixtures": "cases.fixtures", "fixture_cache": "cases.fixture_cache", "prebuilt": "cases.prebuilt",
    "selection": "cases.selection", "suite": "cases.suite", "schema_check": "cases.schema_check",
    "seed_examples": "cases.seed_examples", "clauses": "cases.clauses", "coverage": "cases.coverage",
    "expected_under": "cases.expected_under", "reachable": "cases.reachable", "kinds": "cases.kinds",
    "child": "engines.child", "deadline": "engines.deadline", "protocol": "engines.protocol",
    "drivers": "engines.drivers", "process": "engines.process", "serve": "engines.serve",
    "html_report": "reports.html", "html_patterns": "reports.html_patterns", "report_diff": "reports.diff",
    "failures": "reports.failures", "explain": "reports.explain", "last_failed": "reports.last_failed",
    "causes": "reports.causes", "layout_mutants": "mutants.layout", "play_mutants": "mutants.play",
    "diagnose_search": "diagnose.search", "diagnose_probe": "diagnose.probe",
    "variant_compare": "diagnose.variant_compare",
}


def new_name(fullname: str) -> str | None:
    """The module an old import path now names, or None when the path did not move."""
    prefix = __name__ + "."
    if not fullname.startswith(prefix):
        return None
    head, dot, rest = fullname[len(prefix):].partition(".")
    if head not in MOVED:
        return None
    return prefix + MOVED[head] + dot + rest


class _MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Loads an old path as the module at its new one: `exec_module` puts that module in
    sys.modules under the old name, which the import system then hands back (so there is one
    module object, never a second copy with its own state)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        return importlib.machinery.ModuleSpec(fullname, self) if new_name(fullname) else None

    def exec_module(self, module: ModuleType) -> None:
        new = new_name(module.__name__)
        assert new is not None
        warnings.warn(f"{module.__name__} is now {new}", DeprecationWarning, stacklevel=2)
        sys.modules[module.__name__] = importlib.import_module(new)


if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, _MovedFinder())  # ahead of the path finder, which would load a second copy


def names_of(package: str, module: str) -> Callable[[str], Any]:
    """A package's `__getattr__` that reads names from one of its modules on first use: the
    folders that replaced a module of the same name (`reports`, `mutants`, `diagnose`) still
    answer `from fives.conformance.reports import human`."""
    def __getattr__(name: str) -> Any:
        try:
            return getattr(importlib.import_module(f"{package}.{module}"), name)
        except AttributeError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
    return __getattr__
