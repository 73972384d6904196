"""Case kinds: what a fixture asks and how its answer is compared.

A kind is both a fixture kind and a protocol request type: `evaluate`, and (added by their
own modules) `legal-placements`, `turn`, `settle`, `match-end`, `perft`. Each module in this
package lists its kinds in `KINDS`; `load_kinds()` collects them.
"""
from __future__ import annotations

import importlib
import json
import pkgutil
from dataclasses import dataclass
from typing import Any, Callable

from ..rules import GameRules

#: The reference behaviour: (rules, input, hooks) -> actual answer. `hooks` lets a mutant
#: engine swap rule pieces (see fives/mutants.py); the reference passes an empty dict.
Runner = Callable[[GameRules, dict[str, Any], dict[str, Any]], dict[str, Any]]
#: (expected, actual) -> differences, each one line; empty means the case passes.
Comparer = Callable[[dict[str, Any], dict[str, Any]], list[str]]


@dataclass(frozen=True)
class Kind:
    name: str
    capability: str  # what an engine declares in its handshake to receive this kind
    run: Runner
    compare: Comparer
    schema: str  # file name under conformance/schema/kinds/
    area: str  # rule area for report grouping


def load_kinds() -> dict[str, Kind]:
    kinds: dict[str, Kind] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for kind in getattr(module, "KINDS", []):
            kinds[kind.name] = kind
    return kinds


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def compare_fields(expected: dict[str, Any], actual: dict[str, Any],
                   unordered: frozenset[str] = frozenset()) -> list[str]:
    """Compare every key the fixture states; lists named in `unordered` as multisets."""
    diffs: list[str] = []
    if not isinstance(actual, dict):
        return [f"answer is not an object: {canonical(actual)}"]
    for key, want in expected.items():
        if key not in actual:
            diffs.append(f"{key}: missing (expected {canonical(want)})")
            continue
        got = actual[key]
        if key in unordered and isinstance(want, list) and isinstance(got, list):
            missing, extra = match_multiset(want, got)
            if missing or extra:
                diffs.append(f"{key}: missing {', '.join(missing) or 'none'}; unexpected {', '.join(extra) or 'none'}")
        elif canonical(want) != canonical(got):
            diffs.append(f"{key}: expected {canonical(want)}, got {canonical(got)}")
    return diffs


def match_multiset(want: list[Any], got: list[Any]) -> tuple[list[str], list[str]]:
    """Match expected entries to actual ones as multisets; (missing, unexpected).

    An expected mapping matches an actual one when every key it states agrees, so a fixture
    may leave out a detail its source does not give (the seeds list contributions without sides).
    """
    left = list(got)
    missing: list[str] = []
    # most specific entries first, so a partial entry cannot steal a full entry's match
    for w in sorted(want, key=lambda x: -len(x) if isinstance(x, dict) else 0):
        for i, g in enumerate(left):
            if _entry_matches(w, g):
                del left[i]
                break
        else:
            missing.append(canonical(w))
    return sorted(missing), sorted(canonical(g) for g in left)


def _entry_matches(want: Any, got: Any) -> bool:
    if isinstance(want, dict) and isinstance(got, dict):
        return all(k in got and canonical(v) == canonical(got[k]) for k, v in want.items())
    return canonical(want) == canonical(got)


def compare_error(expected: dict[str, Any], actual: dict[str, Any]) -> list[str] | None:
    """Errors compare by index and code only (messages are free text). None if no error expected."""
    if "error" not in expected:
        if isinstance(actual, dict) and "error" in actual:
            return [f"unexpected error {canonical(actual['error'])}"]
        return None
    want = expected["error"]
    got = actual.get("error") if isinstance(actual, dict) else None
    if not isinstance(got, dict):
        return [f"expected error {canonical(want)}, got a result"]
    return [f"error.{k}: expected {canonical(v)}, got {canonical(got.get(k))}"
            for k, v in want.items() if k != "message" and canonical(got.get(k)) != canonical(v)]
