"""The request-kind registry is read once per process (issue 36, item 5), so a function can look
it up with `load_kinds()` instead of being handed it; each call still gets a dict of its own."""
from __future__ import annotations

import importlib
import pkgutil

import pytest

from fives.conformance.cases.kinds import load_kinds


def test_the_registry_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_kinds()
    reads: list[object] = []
    monkeypatch.setattr(pkgutil, "iter_modules", lambda *a, **k: reads.append(a) or iter(()))
    monkeypatch.setattr(importlib, "import_module", lambda name, *a: reads.append(name))
    again = load_kinds()
    assert reads == []
    assert again == first
    assert sorted(again) == ["evaluate", "legal-placements", "match-end", "next-leader", "perft", "settle", "setup",
                             "tally", "turn"]


def test_each_call_gets_its_own_dict_of_the_same_kinds() -> None:
    a, b = load_kinds(), load_kinds()
    assert a is not b
    assert all(a[name] is b[name] for name in a)
    del a["evaluate"]
    assert "evaluate" in load_kinds() and "evaluate" not in a
