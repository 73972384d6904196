"""What every report says about a failing case, gathered once: its description, the clauses it
tests with their titles and seed quotes (spec/rules.md), the differences (fives/conformance/explain.py),
the engine's message and stderr tail; and failures grouped by clause."""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from fives.conformance.clauses import Clause, load_clauses
from fives.conformance.drivers import Handshake
from fives.conformance.explain import Difference, explain
from fives.conformance.runner import CaseResult
from fives.support.sanitize import json_safe

STDERR_TAIL = 3


@dataclass
class EngineRun:
    """One engine's run of the suite: what every report format is made from."""
    label: str  # the --engine command, or "reference (in process)"
    results: list[CaseResult]
    handshake: Handshake | None
    interrupted: bool = False
    error: str | None = None  # why the engine could not be started (no results then)


@dataclass
class Explanation:
    result: CaseResult
    clauses: list[dict[str, Any]]
    differences: list[Difference]
    stderr_tail: list[str] = field(default_factory=list)

    @property
    def message(self) -> str:
        o = self.result.outcome
        return o.message if o and o.message else ""

    def to_dict(self) -> dict[str, Any]:
        r = self.result
        d: dict[str, Any] = {"description": r.case.description, "clauses": self.clauses,
                             "differences": [x.to_dict() for x in self.differences]}
        if self.message:
            d["message"] = self.message
        if self.stderr_tail:
            d["stderr_tail"] = self.stderr_tail
        return json_safe(d)


def clause_dict(cid: str, clauses: dict[str, Clause]) -> dict[str, Any]:
    c = clauses.get(cid)
    if c is None:
        return {"id": cid, "title": "(not in spec/rules.md)", "sources": []}
    return {"id": cid, "title": c.title,
            "sources": [{"seed": s.seed, "heading": s.heading, "quote": s.quote} for s in c.sources]}


def explain_result(r: CaseResult, clauses: dict[str, Clause]) -> Explanation:
    o = r.outcome
    diffs: list[Difference] = []
    if r.status == "failed" and o is not None:
        diffs = explain(r.case.kind, r.case.expect, o.answer, r.diffs)
    tail: list[str] = []
    if o and o.stderr:
        # split on newlines only: a bare \r or a form feed inside a line is shown escaped
        tail = [ln.removesuffix("\r") for ln in o.stderr.split("\n") if ln.strip()][-STDERR_TAIL:]
    return Explanation(r, [clause_dict(c, clauses) for c in r.case.clauses], diffs, tail)


def load_clause_book() -> dict[str, Clause]:
    try:
        return load_clauses()
    except OSError:  # an installed package without spec/: reports still work, titles are missing
        return {}


@dataclass(frozen=True)
class ClauseFailures:
    clause: str
    title: str
    failed: int
    errored: int
    total: int  # cases of this run that test the clause

    @property
    def bad(self) -> int:
        return self.failed + self.errored

    def line(self) -> str:
        n = self.failed
        parts = [f"{n} case{'s' * (n != 1)} fail{'s' * (n == 1)}"] if n else []
        if self.errored:
            parts.append(f"{self.errored} case{'s' * (self.errored != 1)} error{'s' * (self.errored == 1)}")
        return f"{self.clause} ({self.title}): {', '.join(parts)} (of {self.total})"

    def to_dict(self) -> dict[str, Any]:
        return {"clause": self.clause, "title": self.title, "failed": self.failed, "errored": self.errored,
                "cases": self.total}


def consistency(bad: int, total: int, z: float = 1.96) -> float:
    """Lower bound of the Wilson interval of the failing share: high when a clause's cases
    fail consistently and there are enough of them to say so (445 of 448 beats 1 of 1)."""
    if total == 0:
        return 0.0
    p = bad / total
    centre = p + z * z / (2 * total)
    spread = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total))
    return (centre - spread) / (1 + z * z / total)


def failures_by_clause(results: list[CaseResult], clauses: dict[str, Clause]) -> list[ClauseFailures]:
    """Failing clauses, the most consistently failing first (see `consistency`), then by
    number of failures and spec order. Golden cases cite the placement and scoring clauses
    they touch, so the clause an engine misreads fails almost all of its cases while a
    clause every case cites fails only where the misreading shows. A case counts under every
    clause it tests; known failures are left out as they are from the exit code."""
    order = {cid: i for i, cid in enumerate(clauses)}
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in results:
        for cid in r.case.clauses:
            t = tally[cid]
            t[2] += 1
            if r.counts_as_failure:
                t[0 if r.status == "failed" else 1] += 1
    rows = [ClauseFailures(cid, clauses[cid].title if cid in clauses else "(not in spec/rules.md)", f, e, n)
            for cid, (f, e, n) in tally.items() if f + e]
    return sorted(rows, key=lambda x: (-round(consistency(x.bad, x.total), 9), -x.bad,
                                       order.get(x.clause, len(order)), x.clause))


def clause_order(runs: list[EngineRun], clauses: dict[str, Clause]) -> list[str]:
    """Every clause tested by any run, in spec order (unknown clauses last)."""
    order = {cid: i for i, cid in enumerate(clauses)}
    seen = {cid for run in runs for r in run.results for cid in r.case.clauses}
    return sorted(seen, key=lambda c: (order.get(c, len(order)), c))
