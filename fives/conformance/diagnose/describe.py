"""A cluster of unexplained failures described in values (spec/diagnose.md, "Clusters").

A cluster's key is a shape (`awards[].points: number -> number`); this says what the engine
does: the values of its first difference (`awards[].points: expected 61, got 64`) and the one
relation of a small fixed family that holds across the cluster, where one does (`got = 5 ×
expected in 58 of 58`, `got = expected rounded up to 5`, `the engine lists no X`).
"""
from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Any, Callable

from fives.conformance.reports.explain import render
from fives.conformance.reports.failures import FailureGroup, _unindexed

__all__ = ["describe", "relation", "value_label"]

#: the divisors rounding is tried at (the family's displayed-points divisors)
DIVISORS = (5, 10)


def _numbers(g: FailureGroup) -> list[tuple[float, float]]:
    out = []
    for ex in g.explanations:
        if not ex.differences:
            continue
        d = ex.differences[0]
        if d.kind == "differs" and _num(d.expected) and _num(d.actual):
            out.append((d.expected, d.actual))
    return out


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def value_label(g: FailureGroup) -> str | None:
    """`hole: expected 61, got 64`: the path and the values of the cluster's most common first
    difference (the smallest on a tie); None when its cases have no difference (errors)."""
    seen: Counter[tuple[str, str, str]] = Counter()
    for ex in g.explanations:
        if not ex.differences:
            continue
        d = ex.differences[0]
        path = _unindexed(d.path) or "answer"
        if d.kind == "differs":
            seen[(path, f"expected {render(d.expected)}", f"got {render(d.actual)}")] += 1
        elif d.kind in ("missing", "missing-element"):
            seen[(path, f"expected {render(d.expected)}", "got none")] += 1
        elif d.kind in ("unexpected", "unexpected-element"):
            seen[(path, "expected none", f"got {render(d.actual)}")] += 1
    if not seen:
        return None
    (path, e, a), _ = min(seen.items(), key=lambda kv: (-kv[1], len(kv[0][1]) + len(kv[0][2]), kv[0]))
    return f"{path}: {e}, {a}"[:160]


def _round(x: float, step: int, how: Callable[[float], float]) -> float:
    return how(x / step) * step


def _half_up(x: float) -> float:
    return math.floor(x + 0.5)


def relation(g: FailureGroup) -> str | None:
    """The first of the family (scale, offset, rounding up/down/nearest at a divisor, entries
    missing/extra) that holds in every case of the cluster, with `in N of N`; else the one that
    holds in most (at least 3/4 of them); None when none does."""
    n = g.count
    pairs = _numbers(g)
    tests: list[tuple[str, Callable[[float, float], bool]]] = []
    if pairs:
        ratios = Counter(Fraction(a).limit_denominator(100) / Fraction(e).limit_denominator(100)
                         for e, a in pairs if e)
        for k, _ in ratios.most_common(1):
            if k != 1:
                shown = str(k.numerator) if k.denominator == 1 else f"{k.numerator}/{k.denominator}"
                tests.append((f"got = {shown} × expected", lambda e, a, k=k: Fraction(a).limit_denominator(100) ==
                              k * Fraction(e).limit_denominator(100)))
        offsets = Counter(a - e for e, a in pairs)
        for c, _ in offsets.most_common(1):
            if c:
                tests.append((f"got = expected {'+' if c > 0 else '-'} {render(abs(c))}", lambda e, a, c=c: a - e == c))
        for step in DIVISORS:
            tests += [(f"got = expected rounded up to {step}", lambda e, a, s=step: a == _round(e, s, math.ceil) != e),
                      (f"got = expected rounded down to {step}",
                       lambda e, a, s=step: a == _round(e, s, math.floor) != e),
                      (f"got = expected rounded to the nearest {step}",
                       lambda e, a, s=step: a == _round(e, s, _half_up) != e)]
    best: tuple[int, str] | None = None
    for name, holds in tests:
        k = sum(1 for e, a in pairs if holds(e, a))
        if k == n:
            return f"{name} in {k} of {n}"
        if k * 4 >= n * 3 and (best is None or k > best[0]):
            best = (k, f"{name} in {k} of {n}")
    if best is not None:
        return best[1]
    return _entries(g)


def _entries(g: FailureGroup) -> str | None:
    """`the engine lists no X in k of n`: entries missing (or extra) by their key."""
    for kinds, verb, side in ((("missing-element", "missing"), "lists no", "expected"),
                              (("unexpected-element", "unexpected"), "lists an extra", "actual")):
        keys: Counter[str] = Counter()
        for ex in g.explanations:
            if ex.differences and ex.differences[0].kind in kinds:
                d = ex.differences[0]
                keys[_entry_key(getattr(d, side), d.path)] += 1
        if keys:
            key, k = keys.most_common(1)[0]
            if k * 4 >= g.count * 3:
                return f"the engine {verb} {key} in {k} of {g.count}"
    return None


def _entry_key(value: Any, path: str) -> str:
    """An entry named by its key fields (a placement's branch, a tile), else by its path."""
    if isinstance(value, dict):
        for k in ("branch", "end", "side", "kind", "tile", "player"):
            if k in value:
                return f"{k} {render(value[k])}"
    if isinstance(value, str):
        return value
    return _unindexed(path) or "entry"


def describe(g: FailureGroup) -> str:
    """`; awards[].points: expected 61, got 64; got = 5 × expected in 58 of 58`, or ""."""
    parts = [p for p in (value_label(g), relation(g)) if p]
    return "".join(f"; {p}" for p in parts)
