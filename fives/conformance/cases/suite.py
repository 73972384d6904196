"""The conformance suite from Python: load the cases, get the reference answer, compare.

For an engine author's own test harness (docs/api.md has a ten-line pytest example):

    cases = fives.suite.load_suite(kinds=["evaluate"])
    diffs = fives.suite.compare(case, my_answer)   # [] means the case passes

The cases are those `fives conformance run` runs (the shipped fixtures, golden suites and
perft table, or the files and folders you name), validated against their schemas; the
comparison is the runner's own, so a harness passes exactly when the runner would.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from fives.conformance.cases.fixtures import Case, load_cases
from fives.conformance.cases.kinds import Kind, load_kinds
from fives.conformance.cases.selection import CaseFilters
from fives.rules import load_rules

__all__ = ["Case", "compare", "kinds", "load_suite", "reference_answer"]


def load_suite(*roots: str | Path, ids: Iterable[str] = (), games: Iterable[str] = (),
               kinds: Iterable[str] = (), slow: bool = False) -> list[Case]:
    """Every case under `roots` (files or folders; none: the shipped suite), in run order.

    Filters, as `fives conformance run`'s options: `ids` are glob patterns (`"HR-SETTLE-*"`) or exact IDs,
    `games` and `kinds` exact names; perft cases tagged `slow` only with `slow=True`. A
    malformed fixture file raises `fives.support.errors.UserError` naming the file and case.
    """
    # the CLI's own filter object (an exact ID holding `[4|6]` matches itself, as with --id);
    # unlike the CLI, a filter that matches nothing gives [] rather than an error
    filters = CaseFilters(ids=tuple(ids), games=tuple(games), kinds=tuple(kinds), slow=slow)
    cases = load_cases([Path(r) for r in roots] if roots else None)
    return [c for c in cases if filters.matches(c)]


@lru_cache(maxsize=1)
def kinds() -> dict[str, Kind]:
    """Every case kind (`evaluate`, `legal-placements`, `turn`, `settle`, `perft`, ...) by name."""
    return load_kinds()


def compare(case: Case, answer: Any) -> list[str]:
    """How `answer` (an engine's answer to `case`, the `answer` of a protocol reply) differs
    from what the case expects: one line per difference; an empty list means it passes.

    Only what the fixture states is compared; lists the format calls unordered are compared
    as multisets; an expected error compares by `index` and `code` (spec/fixtures.md).
    """
    kind = kinds().get(case.kind)
    if kind is None:
        return [f"unknown case kind {case.kind!r}"]
    try:
        return kind.compare(case.expect, answer)
    except Exception as e:  # a malformed answer is a difference, as in the runner
        return [f"answer could not be compared: {type(e).__name__}: {e}"]


def reference_answer(case: Case) -> Any:
    """The reference engine's answer to `case` (what `fives serve` would reply), under the
    case's own rule profile for a variant case."""
    if case.profile is not None:
        from fives.profiles import rules_under
        return kinds()[case.kind].run(rules_under(case.profile, case.game), case.input, {})
    return kinds()[case.kind].run(load_rules(case.game), case.input, {})
