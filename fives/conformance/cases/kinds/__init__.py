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
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Callable, Mapping

from fives.rules import GameRules

#: The reference behaviour: (rules, input, hooks) -> actual answer. `hooks` lets a mutant
#: engine swap rule pieces (see fives/conformance/mutants/registry.py); the reference passes an empty dict.
Runner = Callable[[GameRules, dict[str, Any], dict[str, Any]], dict[str, Any]]
#: (expected, actual) -> differences, each one line; empty means the case passes.
Comparer = Callable[[dict[str, Any], dict[str, Any]], list[str]]
#: (input, expected) -> how many ordinary cases' work this case is: its time limit is the base
#: `--timeout` times this when it is over 1 (spec/protocol.md, "Time limits").
Scale = Callable[[dict[str, Any], dict[str, Any]], float]

#: Items of a case's input (placements, actions, hands) one base time limit covers: a case up
#: to this long is ordinary, a longer one gets proportionally more time.
STEPS_PER_BASE = 100


@dataclass(frozen=True)
class Kind:
    name: str
    capability: str  # what an engine declares in its handshake to receive this kind
    run: Runner
    compare: Comparer
    schema: str  # file name under conformance/schema/kinds/
    area: str  # rule area for report grouping
    scale: Scale | None = None  # None: every case of the kind is ordinary work (scale 1)


def by_length(*keys: str) -> Scale:
    """The scale of a case whose work grows with the length of the input lists `keys` (a
    layout's placements, a turn's actions, a match's hands): a base per STEPS_PER_BASE items."""
    def scale(input: dict[str, Any], expect: dict[str, Any]) -> float:
        items = sum(len(v) for k in keys if isinstance(v := input.get(k), list))
        return items / STEPS_PER_BASE
    return scale


@lru_cache(maxsize=1)
def _registry() -> Mapping[str, Kind]:
    """The kinds of this package's modules, read once per process: a Kind is frozen and no
    module adds one later, so the read-only mapping never changes."""
    kinds: dict[str, Kind] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for kind in getattr(module, "KINDS", []):
            kinds[kind.name] = kind
    return MappingProxyType(kinds)


def load_kinds() -> dict[str, Kind]:
    """Every case kind by name. The package is read once; each call gets its own dict of the
    same Kind objects (a handful of entries), so a function can look the registry up rather
    than be handed it, and a caller changing its dict changes no one else's."""
    return dict(_registry())


def kind_named(name: str) -> Kind:
    """The kind `name` (KeyError for none): one lookup, without the copy `load_kinds` makes,
    for the per-case paths (the runner's judgement, what an engine supports, a selection)."""
    return _registry()[name]


_encode = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
#: Values whose equality `==` decides exactly as their JSON text would (bool and int apart,
#: since type() is compared first; floats are left to the JSON text: -0.0, NaN).
_PLAIN = frozenset({str, int, bool, type(None)})


def canonical(value: Any) -> str:
    return _encode(value)


def same(a: Any, b: Any) -> bool:
    """canonical(a) == canonical(b), without serialising either on the common paths: this is
    the comparison every case makes, thousands of times per run."""
    ta = type(a)
    if ta is type(b) and ta in _PLAIN:
        return a == b
    if ta is dict:
        if not isinstance(b, dict) or len(a) != len(b):
            return False
        for k, v in a.items():
            if type(k) is not str:  # JSON would turn the key into text: compare as JSON does
                return canonical(a) == canonical(b)
            if k not in b:  # unless b's keys are ints that JSON would spell the same
                return any(type(x) is not str for x in b) and canonical(a) == canonical(b)
            if not same(v, b[k]):
                return False
        return True
    if ta is list or ta is tuple:
        tb = type(b)
        return (tb is list or tb is tuple) and len(a) == len(b) and all(map(same, a, b))
    return canonical(a) == canonical(b)


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
            if same(want, got):  # the same entries in the same order: no matching needed
                continue
            missing, extra = match_multiset(want, got)
            if missing or extra:
                diffs.append(f"{key}: missing {', '.join(missing) or 'none'}; unexpected {', '.join(extra) or 'none'}")
        elif not same(want, got):
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
        return all(k in got and same(v, got[k]) for k, v in want.items())
    return same(want, got)


def malformed(message: str) -> dict[str, Any]:
    """The answer to a request whose input is inconsistent (a fixture bug, not an engine answer)."""
    return {"error": {"index": None, "code": "malformed-input", "message": message}}


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
            for k, v in want.items() if k != "message" and not same(got.get(k), v)]
